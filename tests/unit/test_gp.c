/* test_gp.c - the Gaussian process learns a known function (numeric and enum
 * inputs), its noise, the expected improvement of a known posterior and a known
 * failure boundary; its quadratic trend is the explicit-basis posterior and finds
 * which knobs have one; and the search space codes values to [-1, 1] and back. */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "gp.h"
#include "space.h"

static double f(const double *x)
{
	/* a bowl in x0, a slope in x1, and an enum x2 that adds 0, 1 or 0.3 */
	static const double cat[] = { 0, 1, 0.3 };
	return (x[0] - 0.3) * (x[0] - 0.3) + 0.5 * x[1] + cat[(int)x[2]];
}

/* n points spread over the box (the enum cycling through its choices) and f there */
static void sample(double *x, double *y, int n, unsigned s)
{
	int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 2; k++) {
			s = s * 1103515245 + 12345;
			x[i * 3 + k] = 2.0 * ((s >> 8) & 0xffff) / 65535.0 - 1;
		}
		x[i * 3 + 2] = i % 3;
		y[i] = f(x + i * 3);
	}
}

static void learns_a_known_function(void **state)
{
	const bool categorical[3] = { false, false, true };
	double x[60 * 3], y[60], t[3], m, sd, worst = 0;
	struct gp gp;
	int i;

	(void)state;
	sample(x, y, 60, 12345);
	assert_int_equal(gp_fit(&gp, 3, categorical, x, y, 60), 0);
	for (i = 0; i < 30; i++) {
		t[0] = -0.9 + 1.8 * i / 29.0;
		t[1] = 0.5 - (double)(i % 7) / 7;
		t[2] = i % 3;
		gp_predict(&gp, t, &m, &sd);
		worst = fmax(worst, fabs(m - f(t)));
	}
	/* the function spans about 3 units over the box */
	assert_true(worst < 0.1);
	/* expected improvement: high where the model expects the minimum, not at a known bad point */
	t[0] = 0.3, t[1] = -1, t[2] = 0;
	{
		double good = gp_expected_improvement(&gp, t, -0.2);
		t[0] = -1, t[1] = 1, t[2] = 1;
		assert_true(good > 10 * gp_expected_improvement(&gp, t, -0.2));
	}
	gp_free(&gp);
}

/* The pieces recommend and the warm start stand on: the contributions of the
 * training points add up to the prediction, the correlation over some dimensions
 * is 1 for equal points and falls with distance, and a fit that reuses another's
 * hyperparameters predicts what that one does. */
static void contributions_correlation_and_reuse(void **state)
{
	const bool categorical[3] = { false, false, true };
	double x[40 * 3], y[40], t[3] = { 0.1, -0.2, 1 }, w[40], m, sd, m2, sd2, sum = 0;
	double a[3] = { 0, 0, 0 }, b[3] = { 0, 0.5, 0 }, c[3] = { 0, 1, 0 }, e[3] = { 0, 0, 2 };
	struct gp gp, again;
	int i;

	(void)state;
	sample(x, y, 40, 777);
	assert_int_equal(gp_fit(&gp, 3, categorical, x, y, 40), 0);
	gp_predict(&gp, t, &m, &sd);
	gp_contributions(&gp, t, w);
	for (i = 0; i < 40; i++)
		sum += w[i];
	assert_true(fabs(gp.ymean + sum - m) < 1e-9);

	assert_true(fabs(gp_correlation(&gp, a, a, 0, 3) - 1) < 1e-12);
	assert_true(gp_correlation(&gp, a, b, 1, 2) < 1);
	assert_true(gp_correlation(&gp, a, c, 1, 2) < gp_correlation(&gp, a, b, 1, 2));
	/* only the dimensions asked about count */
	assert_true(fabs(gp_correlation(&gp, a, c, 0, 1) - 1) < 1e-12);
	assert_true(gp_correlation(&gp, a, e, 2, 3) < 1);

	assert_int_equal(gp_fit_with(&again, 3, categorical, x, y, 40, &gp), 0);
	gp_predict(&again, t, &m2, &sd2);
	assert_true(fabs(m - m2) < 1e-9 && fabs(sd - sd2) < 1e-9);
	gp_free(&again);
	gp_free(&gp);
}

/* A steep, bent 1-D cost like page-cluster's under sequential swap-in (log ratio
 * to the original at x = 0): one measurement at most settings, the original
 * measured 30 times (exactly 0: it is the yardstick) and the best setting 15
 * times, averaged into one point each as the pool does. The averaged points must
 * weigh as the means they are: the fit passes through the original's and its
 * interval at the best holds the truth about 95% of the time. */
static double bent(double x)
{
	return 0.9 * exp(-2.2 * (x + 1)) - 0.18 * (x + 1) + 0.19;
}

static void averaged_points_weigh_as_means(void **state)
{
	const bool categorical[1] = { false };
	const double noise = 0.10;
	double x[7], y[7], m, sd, mw, sdw, truth = bent(1) - bent(0);
	int seed, covered = 0, plain_covered = 0, i, j;
	struct gp_rep rep[7];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	for (seed = 1; seed <= 200; seed++) {
		struct gp gp, plain;
		gsl_rng_set(r, (unsigned long)seed);
		for (i = 0; i < 7; i++) {
			x[i] = -1 + i / 3.0;
			rep[i].count = i == 3 ? 30 : i == 6 ? 15 : 1;
			rep[i].dof = 0;
			rep[i].var = 0; /* the noise is fitted */
			rep[i].ss = 0;
			y[i] = 0;
			if (i == 3) /* the yardstick: 0 by definition, no spread */
				continue;
			/* the repeats, averaged by Welford as the pool does */
			for (j = 0; j < rep[i].count; j++) {
				double v = bent(x[i]) - bent(0) + gsl_ran_gaussian(r, noise), d = v - y[i];
				y[i] += d / (j + 1);
				rep[i].ss += d * (v - y[i]);
			}
			rep[i].dof = rep[i].count - 1;
		}
		assert_int_equal(gp_fit_counts(&gp, 1, categorical, x, y, rep, 7, NULL), 0);
		assert_int_equal(gp_fit(&plain, 1, categorical, x, y, 7), 0);
		gp_predict(&gp, &x[3], &m, &sd);
		assert_true(fabs(m) < 0.02); /* the yardstick stays where 30 measurements put it */
		gp_predict(&gp, &x[6], &mw, &sdw);
		if (fabs(mw - truth) <= 1.96 * sdw)
			covered++;
		gp_predict(&plain, &x[6], &m, &sd);
		if (fabs(m - truth) <= 1.96 * sd)
			plain_covered++;
		gp_free(&plain);
		gp_free(&gp);
	}
	print_message("# averaged points: the 95%% interval at the best held the truth %d/200, "
		      "a fit that ignores the counts %d/200\n",
		      covered, plain_covered);
	/* 95% of 200 is 190; fewer than 181 has probability under 1% for a true 95% */
	assert_true(covered >= 181);
	assert_true(plain_covered < covered);
	gsl_rng_free(r);
}

/* The noise the fit finds on data whose noise is known: a smooth curve plus N(0, 0.1^2)
 * at 80 points; the fitted per-measurement variance (in the units of y) must be
 * 0.01 within the spread a sample of 80 allows (a factor 1.5 either way). */
static void fits_a_known_noise(void **state)
{
	const bool categorical[1] = { false };
	double x[80], y[80], sn2;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct gp gp;
	int i;

	(void)state;
	gsl_rng_set(r, 42);
	for (i = 0; i < 80; i++) {
		x[i] = -1 + 2.0 * i / 79;
		y[i] = sin(2 * x[i]) + 0.5 * x[i] * x[i] + gsl_ran_gaussian(r, 0.1);
	}
	assert_int_equal(gp_fit(&gp, 1, categorical, x, y, 80), 0);
	sn2 = exp(gp.log_sn2) * gp.ysd * gp.ysd;
	print_message("# known noise variance 0.0100, fitted %.4f\n", sn2);
	assert_true(sn2 > 0.01 / 1.5 && sn2 < 0.01 * 1.5);
	gp_free(&gp);
	gsl_rng_free(r);
}

/* one case of gradient_matches_finite_differences */
static void gradient_at(int trend)
{
	const bool categorical[3] = { false, false, true };
	double x[25 * 3], y[25], p[5] = { -0.4, 0.6, 1.1, 0.3, -3.0 }, g[5], gh[5], q[5], fp, fm, gmax = 0;
	struct gp_rep rep[25];
	struct gp gp;
	int i, k;

	sample(x, y, 25, 4242);
	for (i = 0; i < 25; i++) {
		rep[i] = (struct gp_rep){ .count = 1 + i % 3, .dof = i % 3, .ss = 0.02 * (i % 3), .var = 0 };
		y[i] += 0.05 * sin(7.0 * i);
	}
	rep[4].var = 0.03; /* measured */
	assert_int_equal(gp_fit_trend(&gp, 3, categorical, x, y, rep, 25, NULL, trend), 0);
	/* at the fit's own parameters the gradient is (nearly) zero */
	for (k = 0; k < 3; k++)
		q[k] = gp.log_l[k];
	q[3] = gp.log_sf2;
	q[4] = gp.log_sn2;
	gp_objective(&gp, q, gh);
	for (k = 0; k < 5; k++)
		gmax = fmax(gmax, fabs(gh[k]));
	print_message("# trend over %d inputs: largest gradient component at the fitted parameters: %.2g\n", trend,
		      gmax);
	assert_true(gmax < 1e-2);
	/* elsewhere it matches the finite differences */
	gp_objective(&gp, p, g);
	for (k = 0; k < 5; k++) {
		double h = 1e-5, num;
		memcpy(q, p, sizeof(q));
		q[k] = p[k] + h;
		fp = gp_objective(&gp, q, gh);
		q[k] = p[k] - h;
		fm = gp_objective(&gp, q, gh);
		num = (fp - fm) / (2 * h);
		assert_true(fabs(num - g[k]) < 1e-4 * fmax(1, fabs(num)));
	}
	gp_free(&gp);
}

/* The fit's gradient against central finite differences of its objective, on data with
 * an enum, counts, repeats and one point's measured noise, at parameters inside the
 * box; and the fit itself ends where the gradient vanishes (a local optimum, not a
 * stalled search). Without the trend and with it over the two numeric inputs. */
static void gradient_matches_finite_differences(void **state)
{
	for (int trend = 0; trend <= 2; trend += 2)
		gradient_at(trend);
	(void)state;
}

/* Expected improvement on a posterior known in closed form: one point (y = 5) with
 * fixed hyperparameters (length scale 1, signal 1, noise 1e-4 of it). One unit away the
 * mean is 5 and the variance 1 - e^-1 / (1 + 1e-4); the EI against best = 5 is
 * sd * phi(0), against best = 6 it is sd * (z Phi(z) + phi(z)) with z = 1 / sd, and at
 * the point itself, where the sd is 0.01, EI against 4 is next to nothing. */
static void ei_on_a_known_posterior(void **state)
{
	const bool categorical[1] = { false };
	double x0 = 0, y0 = 5, at = 1, l = 0, m, sd, sd_true = sqrt(1 - exp(-0.5) * exp(-0.5) / (1 + 1e-4)), z;
	struct gp hyper = { .log_l = &l, .log_sf2 = 0, .log_sn2 = log(1e-4) }, gp;

	(void)state;
	assert_int_equal(gp_fit_with(&gp, 1, categorical, &x0, &y0, 1, &hyper), 0);
	gp_predict(&gp, &at, &m, &sd);
	assert_true(fabs(m - 5) < 1e-12);
	assert_true(fabs(sd - sd_true) < 1e-6);
	assert_true(fabs(gp_expected_improvement(&gp, &at, 5) - sd_true / sqrt(2 * M_PI)) < 1e-6);
	z = 1 / sd_true;
	assert_true(fabs(gp_expected_improvement(&gp, &at, 6) -
			 sd_true * (z * gsl_cdf_ugaussian_P(z) + gsl_ran_ugaussian_pdf(z))) < 1e-6);
	assert_true(gp_expected_improvement(&gp, &x0, 4) < 1e-12);
	gp_free(&gp);
}

/* The trend against the explicit-basis form of the same model (Rasmussen and Williams,
 * eqs. 2.41-2.42, the coefficients beta ~ N(0, GP_TREND_VAR I) on the basis 1, x0,
 * P2(x0), x1, P2(x1); the enum x2 has none), computed here on its own: with K the
 * squared-exponential kernel plus noise, A = I / V + H K^-1 H', beta = A^-1 H K^-1 y,
 * mean = h'beta + k' K^-1 (y - H'beta), variance = k(x,x) - k' K^-1 k + r' A^-1 r with
 * r = h - H K^-1 k. Fixed hyperparameters; at points among the data, between them and
 * well outside the box. */
static void trend_basis(const double *x, double *h)
{
	h[0] = 1;
	h[1] = x[0];
	h[2] = 0.5 * (3 * x[0] * x[0] - 1);
	h[3] = x[1];
	h[4] = 0.5 * (3 * x[1] * x[1] - 1);
}

static double se(const double *a, const double *b, const double *l, double sf2)
{
	double s = 0;

	for (int k = 0; k < 2; k++)
		s += 0.5 * (a[k] - b[k]) * (a[k] - b[k]) / (l[k] * l[k]);
	s += (a[2] != b[2]) / l[2];
	return sf2 * exp(-s);
}

static void trend_is_the_explicit_basis_posterior(void **state)
{
	enum { N = 20, P = 5 };
	const bool categorical[3] = { false, false, true };
	double x[N * 3], y[N], ll[3] = { -0.3, 0.4, 0.2 }, l[3], sf2 = exp(0.3), sn2 = 0.01, ymean, ysd;
	const double at[][3] = { { 0.1, -0.2, 1 }, { 0.9, 0.9, 0 }, { 2.5, -2, 2 }, { -3, 0.5, 1 } };
	struct gp hyper = { .log_l = ll, .log_sf2 = 0.3, .log_sn2 = log(0.01) }, gp;
	gsl_matrix *K = gsl_matrix_alloc(N, N), *H = gsl_matrix_alloc(P, N), *KiHt = gsl_matrix_alloc(N, P);
	gsl_matrix *A = gsl_matrix_alloc(P, P);
	gsl_vector *ys = gsl_vector_alloc(N), *Kiy = gsl_vector_alloc(N), *b = gsl_vector_alloc(P);
	gsl_vector *beta = gsl_vector_alloc(P), *k = gsl_vector_alloc(N), *Kik = gsl_vector_alloc(N);
	gsl_vector *r = gsl_vector_alloc(P), *Air = gsl_vector_alloc(P), *res = gsl_vector_alloc(N);
	int i, j;

	(void)state;
	sample(x, y, N, 777);
	for (j = 0; j < 3; j++)
		l[j] = exp(ll[j]);
	assert_int_equal(gp_fit_trend(&gp, 3, categorical, x, y, NULL, N, &hyper, 3), 0);
	/* the model works on standardised y, as gp.c does */
	ymean = gsl_stats_mean(y, 1, N);
	ysd = gsl_stats_sd_m(y, 1, N, ymean);
	for (i = 0; i < N; i++) {
		double h[P];
		gsl_vector_set(ys, i, (y[i] - ymean) / ysd);
		trend_basis(x + i * 3, h);
		for (j = 0; j < P; j++)
			gsl_matrix_set(H, j, i, h[j]);
		for (j = 0; j < N; j++)
			gsl_matrix_set(K, i, j, se(x + i * 3, x + j * 3, l, sf2) + (i == j ? sn2 + 1e-9 : 0));
	}
	gsl_linalg_cholesky_decomp1(K);
	gsl_linalg_cholesky_solve(K, ys, Kiy);
	for (j = 0; j < P; j++) {
		gsl_vector_const_view hj = gsl_matrix_const_row(H, j);
		gsl_vector_view c = gsl_matrix_column(KiHt, j);
		gsl_linalg_cholesky_solve(K, &hj.vector, &c.vector);
	}
	gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1, H, KiHt, 0, A);
	for (j = 0; j < P; j++)
		gsl_matrix_set(A, j, j, gsl_matrix_get(A, j, j) + 1 / GP_TREND_VAR);
	gsl_blas_dgemv(CblasNoTrans, 1, H, Kiy, 0, b);
	gsl_linalg_cholesky_decomp1(A);
	gsl_linalg_cholesky_solve(A, b, beta);
	gsl_vector_memcpy(res, ys);
	gsl_blas_dgemv(CblasTrans, -1, H, beta, 1, res); /* y - H'beta */
	gsl_linalg_cholesky_solve(K, res, Kiy);		 /* K^-1 (y - H'beta) */
	for (size_t t = 0; t < sizeof(at) / sizeof(at[0]); t++) {
		double h[P], mean, var, kk, rr, m, sd;
		trend_basis(at[t], h);
		for (i = 0; i < N; i++)
			gsl_vector_set(k, i, se(at[t], x + i * 3, l, sf2));
		gsl_linalg_cholesky_solve(K, k, Kik);
		gsl_blas_ddot(k, Kiy, &mean);
		for (j = 0; j < P; j++)
			mean += h[j] * gsl_vector_get(beta, j);
		gsl_blas_dgemv(CblasNoTrans, -1, H, Kik, 0, r); /* -H K^-1 k */
		for (j = 0; j < P; j++)
			gsl_vector_set(r, j, h[j] + gsl_vector_get(r, j));
		gsl_linalg_cholesky_solve(A, r, Air);
		gsl_blas_ddot(k, Kik, &kk);
		gsl_blas_ddot(r, Air, &rr);
		var = sf2 - kk + rr;
		gp_predict(&gp, at[t], &m, &sd);
		print_message("# at (%g, %g, %g): mean %.6f (explicit basis %.6f), sd %.6f (%.6f)\n", at[t][0],
			      at[t][1], at[t][2], m, ymean + ysd * mean, sd, ysd * sqrt(var));
		assert_true(fabs(m - (ymean + ysd * mean)) < 1e-6 * fmax(1, fabs(m)));
		assert_true(fabs(sd - ysd * sqrt(var)) < 1e-6 * fmax(1, sd));
	}
	gp_free(&gp);
	gsl_matrix_free(K);
	gsl_matrix_free(H);
	gsl_matrix_free(KiHt);
	gsl_matrix_free(A);
	gsl_vector_free(ys);
	gsl_vector_free(Kiy);
	gsl_vector_free(b);
	gsl_vector_free(beta);
	gsl_vector_free(k);
	gsl_vector_free(Kik);
	gsl_vector_free(r);
	gsl_vector_free(Air);
	gsl_vector_free(res);
}

/* Beyond the data a bowl goes on: y = x^2 measured (with noise 0.01) on [-1, 0.4]
 * only. With the trend the fitted model predicts 1 at x = 1 within 0.15; without it the
 * squared-exponential model falls back towards the data's mean and is further off. And the trend says which knob has
 * one: with y a bowl in x0 and nothing in x1 (noise 0.05, 40 points over the box), x0's trend is not flat and x1's is.
 */
static void trend_extrapolates_and_finds_flat_knobs(void **state)
{
	const bool categorical[2] = { false, false };
	double x[40 * 2], y[40], at = 1, m_trend, m_plain, sd;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct gp gp;
	int i;

	(void)state;
	gsl_rng_set(rng, 7);
	for (i = 0; i < 21; i++) {
		x[i] = -1 + 1.4 * i / 20.0;
		y[i] = x[i] * x[i] + gsl_ran_gaussian(rng, 0.01);
	}
	assert_int_equal(gp_fit_trend(&gp, 1, categorical, x, y, NULL, 21, NULL, 1), 0);
	gp_predict(&gp, &at, &m_trend, &sd);
	gp_free(&gp);
	assert_int_equal(gp_fit(&gp, 1, categorical, x, y, 21), 0);
	gp_predict(&gp, &at, &m_plain, &sd);
	gp_free(&gp);
	print_message("# x^2 at 1 from [-1, 0.4]: %.3f with the trend, %.3f without\n", m_trend, m_plain);
	assert_true(fabs(m_trend - 1) < 0.15);
	assert_true(fabs(m_plain - 1) > fabs(m_trend - 1));

	for (i = 0; i < 40; i++) {
		x[i * 2] = gsl_ran_flat(rng, -1, 1);
		x[i * 2 + 1] = gsl_ran_flat(rng, -1, 1);
		y[i] = (x[i * 2] - 0.2) * (x[i * 2] - 0.2) + gsl_ran_gaussian(rng, 0.05);
	}
	assert_int_equal(gp_fit_trend(&gp, 2, categorical, x, y, NULL, 40, NULL, 2), 0);
	assert_false(gp_trend_flat(&gp, 0));
	assert_true(gp_trend_flat(&gp, 1));
	assert_true(gp_trend_flat(&gp, 5)); /* no such dimension: nothing there */
	gp_free(&gp);
	/* without a trend every dimension's is flat */
	assert_int_equal(gp_fit(&gp, 2, categorical, x, y, 40), 0);
	assert_true(gp_trend_flat(&gp, 0));
	gp_free(&gp);
	gsl_rng_free(rng);
}

/* The failure classifier on a known boundary: runs fail left of x = 0.2 and succeed
 * right of it (30 settings from -1 to 0.6, one run each). Well inside each side the
 * chance of success must say so (under 0.2, over 0.8), it must cross one half at the
 * boundary, and at 1, far from every setting tried, it must not be sure. */
static void classifier_finds_a_known_boundary(void **state)
{
	const bool categorical[1] = { false };
	double x[30], y[30], t;
	struct gp gpc;
	int i;

	(void)state;
	for (i = 0; i < 30; i++) {
		x[i] = -1 + 1.6 * i / 29; /* -1 .. 0.6: nothing tried beyond */
		y[i] = x[i] < 0.2 ? -1 : 1;
	}
	assert_int_equal(gp_fit(&gpc, 1, categorical, x, y, 30), 0);
	t = -0.7;
	assert_true(gp_success_probability(&gpc, &t) < 0.2);
	t = 0.5;
	assert_true(gp_success_probability(&gpc, &t) > 0.8);
	/* it crosses one half at the boundary, between the settings either side of it */
	t = 0.1;
	assert_true(gp_success_probability(&gpc, &t) < 0.5);
	t = 0.3;
	assert_true(gp_success_probability(&gpc, &t) > 0.5);
	t = 1.0;
	assert_true(gp_success_probability(&gpc, &t) > 0.1 && gp_success_probability(&gpc, &t) < 0.9);
	gp_free(&gpc);
}

static void space_codes_and_rounds(void **state)
{
	struct space sp;
	long v[SPACE_MAX];
	double x[SPACE_MAX];
	int i;

	(void)state;
	assert_int_equal(space_build(&sp, "vm.page-cluster,vm.watermark_scale_factor,thp.enabled"), 0);
	assert_int_equal(sp.d, 3);
	assert_int_equal(sp.dim[0].original, 3);
	assert_float_equal(space_encode(&sp.dim[0], 0), -1, 1e-12);
	assert_float_equal(space_encode(&sp.dim[0], 6), 1, 1e-12);
	assert_int_equal(space_decode(&sp.dim[0], 0.0), 3);
	assert_int_equal(space_decode(&sp.dim[0], 5.0), 6); /* clamped */
	/* watermark_scale_factor is searched on a log2 scale over 10..500 */
	assert_true(sp.dim[1].log);
	assert_int_equal(space_decode(&sp.dim[1], 0.0), lround(sqrt(10.0 * 500.0)));
	assert_true(sp.dim[2].categorical);
	for (i = 0; i <= 2; i++)
		assert_int_equal(space_decode(&sp.dim[2], space_encode(&sp.dim[2], i)), i);
	v[0] = 2, v[1] = 100, v[2] = 2;
	space_encode_point(&sp, v, x);
	space_decode_point(&sp, x, v);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 100);
	assert_int_equal(v[2], 2);
	/* mTHP order 1 (8kB) has no enabled file here, as on x86: it decodes to 0, the
	 * order the kernel would keep, so no trial is spent on it */
	assert_int_equal(space_build(&sp, "mthp.anon_max_order"), 0);
	assert_int_equal(sp.dim[0].lo, 0);
	assert_int_equal(sp.dim[0].hi, 4);
	assert_int_equal(space_decode(&sp.dim[0], space_encode(&sp.dim[0], 1)), 0);
	assert_int_equal(space_decode(&sp.dim[0], space_encode(&sp.dim[0], 2)), 2);
	assert_int_equal(space_snap(&sp.dim[0], 1), 0);
	assert_int_equal(space_snap(&sp.dim[0], 4), 4);
	/* unknown and never-searched knobs are usage errors, missing ones environment errors */
	assert_int_equal(space_build(&sp, "vm.bogus"), EXIT_USAGE);
	assert_int_equal(space_build(&sp, "vm.overcommit_memory"), EXIT_USAGE);
	assert_int_equal(space_build(&sp, "vm.vm_passes"), EXIT_ENV);
	/* by default: every searchable knob this tree has */
	assert_int_equal(space_build(&sp, NULL), 0);
	assert_int_equal(sp.d, 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(learns_a_known_function),
		cmocka_unit_test(contributions_correlation_and_reuse),
		cmocka_unit_test(averaged_points_weigh_as_means),
		cmocka_unit_test(fits_a_known_noise),
		cmocka_unit_test(gradient_matches_finite_differences),
		cmocka_unit_test(ei_on_a_known_posterior),
		cmocka_unit_test(classifier_finds_a_known_boundary),
		cmocka_unit_test(trend_is_the_explicit_basis_posterior),
		cmocka_unit_test(trend_extrapolates_and_finds_flat_knobs),
		cmocka_unit_test_setup_teardown(space_codes_and_rounds, fake_root_setup, fake_root_teardown),
	};

	return cmocka_run_group_tests_name("gp", tests, NULL, NULL);
}
