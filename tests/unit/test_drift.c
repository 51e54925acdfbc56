/* test_drift.c - the baselines' drift model on series whose answer is known: the
 * filter and smoother against the exact Gaussian computation, noise averaged out
 * where nothing drifts, drift followed where it does, q found on a long walk. */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "testutil.h"

#include "drift.h"

#define N 9
static const double tt[N] = { 0, 1, 4, 6, 7, 12, 15, 16, 23 };
static const double yy[N] = { 0.31, 0.12, 0.40, 0.05, -0.22, 0.18, 0.61, 0.35, 0.02 };

/* C0 = q min(t_i - t_0, t_j - t_0) + I: the walk from the first position plus the
 * noise, in units of the noise variance; its Cholesky factor in place */
static gsl_matrix *walk_cov(double q)
{
	gsl_matrix *c = gsl_matrix_alloc(N, N);

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			gsl_matrix_set(c, i, j, q * fmin(tt[i], tt[j]) + (i == j));
	return c;
}

static void the_smoother_is_the_exact_posterior_mean(void **state)
{
	double q = 0.3, kappa = 1e6, lvl[N];
	gsl_matrix *c = walk_cov(q);
	gsl_vector *a = gsl_vector_alloc(N);
	gsl_vector_const_view y = gsl_vector_const_view_array(yy, N);

	(void)state;
	/* a diffuse start as a level of prior variance kappa: posterior mean of the level
	 * at t_i is k_i' (kappa 11' + C0)^-1 y with k_i(j) = kappa + q min(t_i, t_j) */
	gsl_matrix_add_constant(c, kappa);
	assert_int_equal(gsl_linalg_cholesky_decomp1(c), 0);
	gsl_linalg_cholesky_solve(c, &y.vector, a);
	drift_smooth_q(tt, yy, N, q, lvl);
	for (int i = 0; i < N; i++) {
		double m = 0;
		for (int j = 0; j < N; j++)
			m += (kappa + q * fmin(tt[i], tt[j])) * gsl_vector_get(a, j);
		assert_float_equal(lvl[i], m, 1e-5);
	}
	/* no walk: every level is the mean */
	drift_smooth_q(tt, yy, N, 0, lvl);
	for (int i = 0; i < N; i++)
		assert_float_equal(lvl[i], 1.82 / N, 1e-12);
	gsl_matrix_free(c);
	gsl_vector_free(a);
}

/* The restricted (diffuse) likelihood with the noise variance profiled out:
 * -((n-1) log(y'Py / (n-1)) + log det C0 + log 1'C0^-1 1) / 2,
 * P = C0^-1 - C0^-1 1 1' C0^-1 / 1'C0^-1 1 */
static double exact_loglik(double q)
{
	gsl_matrix *c = walk_cov(q);
	gsl_vector *u = gsl_vector_alloc(N), *w = gsl_vector_alloc(N), *one = gsl_vector_alloc(N);
	gsl_vector_const_view y = gsl_vector_const_view_array(yy, N);
	double logdet = 0, s1, sy, yy_, r;

	gsl_vector_set_all(one, 1);
	gsl_linalg_cholesky_decomp1(c);
	for (int i = 0; i < N; i++)
		logdet += 2 * log(gsl_matrix_get(c, i, i));
	gsl_linalg_cholesky_solve(c, one, u);	    /* C0^-1 1 */
	gsl_linalg_cholesky_solve(c, &y.vector, w); /* C0^-1 y */
	gsl_blas_ddot(one, u, &s1);
	gsl_blas_ddot(&y.vector, u, &sy);
	gsl_blas_ddot(&y.vector, w, &yy_);
	r = yy_ - sy * sy / s1;
	gsl_matrix_free(c);
	gsl_vector_free(u);
	gsl_vector_free(w);
	gsl_vector_free(one);
	return -0.5 * ((N - 1) * log(r / (N - 1)) + logdet + log(s1));
}

static void the_likelihood_is_the_exact_restricted_one(void **state)
{
	const double qs[] = { 0, 0.01, 0.3, 5, 200 };
	double s2;

	(void)state;
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++)
		assert_float_equal(drift_loglik(tt, yy, N, qs[k], &s2), exact_loglik(qs[k]), 1e-9);
}

/* Mean squared error of the fitted level at the baselines of many simulated
 * searches: n baselines every third position, noise sd, true level f(t). Also the
 * share of fits that found no drift. */
static double level_mse(double (*f)(double, double), int n, double sd, double *nodrift)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double t[200], y[200], l[200], se = 0;
	int reps = 400, zero = 0;
	struct drift_fit fit;

	gsl_rng_set(r, 7);
	for (int k = 0; k < reps; k++) {
		for (int i = 0; i < n; i++) {
			t[i] = 3 * i;
			y[i] = f(t[i], 3.0 * (n - 1)) + gsl_ran_gaussian(r, sd);
		}
		drift_smooth(t, y, n, l, &fit);
		zero += fit.q == 0;
		for (int i = 0; i < n; i++)
			se += pow(l[i] - f(t[i], 3.0 * (n - 1)), 2);
	}
	gsl_rng_free(r);
	if (nodrift)
		*nodrift = (double)zero / reps;
	return se / (reps * n);
}

static double flat(double t, double end)
{
	(void)t;
	(void)end;
	return 0;
}

static double ramp(double t, double end)
{
	return 0.5 * t / end; /* 50% slower by the end: ten noise sd at 5% */
}

static double step(double t, double end)
{
	return t > end / 2 ? 0.3 : 0; /* something started half way */
}

static void no_drift_is_averaged_out(void **state)
{
	double sd = 0.05, nodrift, mse = level_mse(flat, 20, sd, &nodrift);

	(void)state;
	print_message("no drift: level mse %.3f sd^2, no drift found in %.2f\n", mse / (sd * sd), nodrift);
	/* each baseline on its own, as before the model: sd^2; their mean: sd^2 / 20; the
	 * test of drift at 5% (conservative at the boundary) shows one in at most 5% */
	assert_true(mse < 0.1 * sd * sd);
	assert_true(nodrift >= 0.95);
}

static void drift_is_followed(void **state)
{
	double sd = 0.05, mr = level_mse(ramp, 20, sd, NULL), ms = level_mse(step, 20, sd, NULL);

	(void)state;
	print_message("ramp: level mse %.3f sd^2; step: %.3f sd^2\n", mr / (sd * sd), ms / (sd * sd));
	/* the mean of the baselines would be off by 8.3 sd^2 on the ramp and 9 sd^2 on
	 * the step; each baseline on its own by 1 sd^2 */
	assert_true(mr < 0.6 * sd * sd);
	assert_true(ms < 1.0 * sd * sd);
}

static void the_walk_is_found_on_a_long_series(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	static double t[3000], y[3000], l[3000];
	double lvl = 0, q = 0.02;
	struct drift_fit fit;

	(void)state;
	gsl_rng_set(r, 11);
	for (int i = 0; i < 3000; i++) {
		t[i] = 2 * i;
		if (i)
			lvl += gsl_ran_gaussian(r, sqrt(q * 2));
		y[i] = lvl + gsl_ran_gaussian(r, 1);
	}
	drift_smooth(t, y, 3000, l, &fit);
	print_message("q %.4f (true 0.02), noise variance %.3f (true 1)\n", fit.q, fit.sigma2);
	assert_true(fit.q > 0.014 && fit.q < 0.028);
	assert_true(fit.sigma2 > 0.9 && fit.sigma2 < 1.1);
	gsl_rng_free(r);
}

static void few_or_equal_baselines_are_their_mean(void **state)
{
	double t[3] = { 0, 1, 5 }, y[3] = { 0.1, 0.3, 0.3 }, l[3];
	struct drift_fit fit;

	(void)state;
	drift_smooth(t, y, 1, l, &fit);
	assert_float_equal(l[0], 0.1, 0);
	drift_smooth(t, y, 2, l, &fit);
	assert_float_equal(fit.q, 0, 0);
	assert_float_equal(l[0], 0.2, 1e-12);
	assert_float_equal(l[1], 0.2, 1e-12);
	y[0] = 0.3;
	drift_smooth(t, y, 3, l, &fit);
	for (int i = 0; i < 3; i++)
		assert_float_equal(l[i], 0.3, 1e-12);
	assert_float_equal(fit.q, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_smoother_is_the_exact_posterior_mean),
		cmocka_unit_test(the_likelihood_is_the_exact_restricted_one),
		cmocka_unit_test(no_drift_is_averaged_out),
		cmocka_unit_test(drift_is_followed),
		cmocka_unit_test(the_walk_is_found_on_a_long_series),
		cmocka_unit_test(few_or_equal_baselines_are_their_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
