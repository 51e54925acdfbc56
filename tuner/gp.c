/* gp.c - Gaussian-process regression for the search: ARD squared-exponential
 * kernel over continuous coded knobs, an exponential Hamming kernel over enum
 * knobs, a quadratic trend along the continuous ones if asked (gp_fit_trend: its
 * coefficients integrated out, a fixed part of the kernel), hyperparameters by
 * maximum a posteriori (the marginal likelihood times weak priors on the length
 * scales and the signal; BFGS on the analytic gradient from three starts, the
 * simplex where it stalls, clamped to sane boxes), Cholesky solves for the
 * posterior. A point that is the mean of several measurements carries the noise of
 * that mean (the fitted noise is per measurement, divided by the count), and the
 * spread of those repeats about their mean goes into the likelihood of the noise. */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"

#define LOG_L_MIN (-3.0) /* length scale 0.05 of the [-1, 1] box */
#define LOG_L_MAX (3.0)	 /* 20: the knob hardly matters */
#define LOG_SF2_MIN (-4.6)
#define LOG_SF2_MAX (4.6)
#define LOG_SN2_MIN (-11.5) /* 1e-5 of the signal: almost noiseless */
#define LOG_SN2_MAX (0.0)
#define PRIOR_LOG_L (0.0) /* log length scale ~ N(0, 1.5^2): 1, half the box, within a factor 20 */
#define PRIOR_SD (1.5)	  /* and log signal variance ~ N(0, 1.5^2) of the standardised y */

static double simplex_from(struct gp *gp, const gsl_vector *from, gsl_vector *best);

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double dist(const struct gp *gp, const double *a, const double *b, int from, int to)
{
	double s = 0;
	int i;

	for (i = from; i < to; i++) {
		double l = gp->len[i];
		if (gp->categorical[i])
			s += (a[i] != b[i]) / l;
		else
			s += 0.5 * (a[i] - b[i]) * (a[i] - b[i]) / (l * l);
	}
	return s;
}

/* The trend's basis at x for dimension k: x and the second Legendre polynomial,
 * orthogonal on [-1, 1] to each other and to the constant. */
static double p2(double x)
{
	return 0.5 * (3 * x * x - 1);
}

/* The trend's part of the kernel: GP_TREND_VAR h(a).h(b) over its basis h. */
static double trend_kern(const struct gp *gp, const double *a, const double *b)
{
	double s = 1;
	int k;

	if (!gp->trend)
		return 0;
	for (k = 0; k < gp->trend; k++)
		if (!gp->categorical[k])
			s += a[k] * b[k] + p2(a[k]) * p2(b[k]);
	return GP_TREND_VAR * s;
}

static double kern(const struct gp *gp, const double *a, const double *b)
{
	return exp(gp->log_sf2 - dist(gp, a, b, 0, gp->d)) + trend_kern(gp, a, b);
}

double gp_correlation(const struct gp *gp, const double *a, const double *b, int from, int to)
{
	return exp(-dist(gp, a, b, from, to));
}

void gp_contributions(const struct gp *gp, const double *x, double *w)
{
	gsl_vector *k = gsl_vector_alloc((size_t)gp->n), *v = gsl_vector_alloc((size_t)gp->n);
	int i;

	for (i = 0; i < gp->n; i++)
		gsl_vector_set(k, (size_t)i, kern(gp, x, gp->x + i * gp->d));
	gsl_linalg_cholesky_solve(gp->chol, k, v);
	for (i = 0; i < gp->n; i++)
		w[i] = gsl_vector_get(v, (size_t)i) * gp->y[i] * gp->ysd;
	gsl_vector_free(k);
	gsl_vector_free(v);
}

/* Build K, factorise it, solve alpha. Returns the negative log likelihood or
 * HUGE_VAL when K is not positive definite. */
static double factorise(struct gp *gp)
{
	gsl_matrix *K = gp->chol;
	gsl_vector_view yv = gsl_vector_view_array(gp->y, (size_t)gp->n);
	gsl_vector_view av = gsl_vector_view_array(gp->alpha, (size_t)gp->n);
	double nll = 0;
	int i, j;

	/* the kernel's exp of each log length scale, once here instead of in every pair */
	for (i = 0; i < gp->d; i++)
		gp->len[i] = exp(gp->log_l[i]);
	for (i = 0; i < gp->n; i++) {
		for (j = 0; j <= i; j++) {
			double k = kern(gp, gp->x + i * gp->d, gp->x + j * gp->d);
			if (i == j) /* a point averaged over c measurements has 1/c of the noise */
				k += (gp->var && gp->var[i] > 0 ? gp->var[i] : exp(gp->log_sn2)) /
					 (gp->count ? gp->count[i] : 1) +
				     1e-9;
			gsl_matrix_set(K, (size_t)i, (size_t)j, k);
			gsl_matrix_set(K, (size_t)j, (size_t)i, k);
		}
	}
	if (gsl_linalg_cholesky_decomp1(K) != GSL_SUCCESS)
		return HUGE_VAL;
	if (gsl_linalg_cholesky_solve(K, &yv.vector, &av.vector) != GSL_SUCCESS)
		return HUGE_VAL;
	for (i = 0; i < gp->n; i++)
		nll += 0.5 * gp->y[i] * gp->alpha[i] + log(gsl_matrix_get(K, (size_t)i, (size_t)i));
	/* the repeats about their means: their density given the noise, the part of
	 * the raw measurements' likelihood that the means leave out */
	if (gp->rep_dof > 0)
		nll += 0.5 * (gp->rep_dof * (gp->log_sn2 + log(2 * M_PI)) + gp->rep_ss / exp(gp->log_sn2));
	return nll + 0.5 * gp->n * log(2 * M_PI);
}

static void set_params(struct gp *gp, const gsl_vector *v)
{
	int i;

	for (i = 0; i < gp->d; i++)
		gp->log_l[i] = clamp(gsl_vector_get(v, (size_t)i), LOG_L_MIN, LOG_L_MAX);
	gp->log_sf2 = clamp(gsl_vector_get(v, (size_t)gp->d), LOG_SF2_MIN, LOG_SF2_MAX);
	gp->log_sn2 = clamp(gsl_vector_get(v, (size_t)gp->d + 1), LOG_SN2_MIN, LOG_SN2_MAX);
}

static double nll_fn(const gsl_vector *v, void *arg)
{
	struct gp *gp = arg;
	double nll, pen = 0;
	size_t i;

	set_params(gp, v);
	/* a gentle pull back into the box so the simplex does not wander off */
	for (i = 0; i < v->size; i++) {
		double lo = i < (size_t)gp->d ? LOG_L_MIN : i == (size_t)gp->d ? LOG_SF2_MIN : LOG_SN2_MIN;
		double hi = i < (size_t)gp->d ? LOG_L_MAX : i == (size_t)gp->d ? LOG_SF2_MAX : LOG_SN2_MAX;
		double x = gsl_vector_get(v, i);
		if (x < lo)
			pen += (lo - x) * (lo - x);
		if (x > hi)
			pen += (x - hi) * (x - hi);
	}
	/* weakly informative priors (a MAP fit): a length scale near the box's half
	 * width and a signal near the standardised variance unless the data say
	 * otherwise, so that many knobs and few points do not overfit */
	for (i = 0; i < (size_t)gp->d; i++)
		pen += 0.5 * (gp->log_l[i] - PRIOR_LOG_L) * (gp->log_l[i] - PRIOR_LOG_L) / (PRIOR_SD * PRIOR_SD);
	pen += 0.5 * gp->log_sf2 * gp->log_sf2 / (PRIOR_SD * PRIOR_SD);
	nll = factorise(gp);
	return isfinite(nll) ? nll + pen : 1e30;
}

/* The gradient of nll_fn: d(nll)/d(theta) = tr((K^-1 - alpha alpha^T) dK/dtheta) / 2 for
 * the marginal likelihood, plus the repeats' term, the priors and the pull back into
 * the box. Outside its box a parameter is clamped, so only the pull moves it. Needs
 * the factorisation of the same parameters (factorise). Returns -1 if K^-1 fails. */
static int nll_gradient(struct gp *gp, const gsl_vector *v, gsl_vector *g)
{
	size_t n = (size_t)gp->n, D = (size_t)gp->d, i, j, k;
	gsl_matrix *W = gsl_matrix_alloc(n, n);
	double sn2 = exp(gp->log_sn2), sf2 = exp(gp->log_sf2), gsf = 0, gsn = 0, *gl = calloc(D, sizeof(double));

	if (!W || !gl) {
		if (W)
			gsl_matrix_free(W);
		free(gl);
		return -1;
	}
	gsl_matrix_memcpy(W, gp->chol);
	if (gsl_linalg_cholesky_invert(W) != GSL_SUCCESS) {
		gsl_matrix_free(W);
		free(gl);
		return -1;
	}
	/* W = K^-1 - alpha alpha^T */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			gsl_matrix_set(W, i, j, gsl_matrix_get(W, i, j) - gp->alpha[i] * gp->alpha[j]);
	for (i = 0; i < n; i++) {
		const double *a = gp->x + i * D;
		for (j = 0; j <= i; j++) {
			const double *b = gp->x + j * D;
			double w = gsl_matrix_get(W, i, j) * (i == j ? 0.5 : 1.0); /* each off-diagonal pair twice */
			double kf = sf2 * exp(-dist(gp, a, b, 0, gp->d));
			gsf += w * kf;
			for (k = 0; k < D && i != j; k++) {
				double l = gp->len[k];
				if (gp->categorical[k])
					gl[k] += w * kf * (a[k] != b[k]) / l;
				else
					gl[k] += w * kf * (a[k] - b[k]) * (a[k] - b[k]) / (l * l);
			}
			if (i == j && !(gp->var && gp->var[i] > 0))
				gsn += w * sn2 / (gp->count ? gp->count[i] : 1);
		}
	}
	if (gp->rep_dof > 0)
		gsn += 0.5 * (gp->rep_dof - gp->rep_ss / sn2);
	for (k = 0; k < D; k++)
		gl[k] += (gp->log_l[k] - PRIOR_LOG_L) / (PRIOR_SD * PRIOR_SD);
	gsf += gp->log_sf2 / (PRIOR_SD * PRIOR_SD);
	for (i = 0; i < v->size; i++) {
		double lo = i < D ? LOG_L_MIN : i == D ? LOG_SF2_MIN : LOG_SN2_MIN;
		double hi = i < D ? LOG_L_MAX : i == D ? LOG_SF2_MAX : LOG_SN2_MAX;
		double x = gsl_vector_get(v, i), d = i < D ? gl[i] : i == D ? gsf : gsn;
		if (x < lo)
			d = 2 * (x - lo);
		else if (x > hi)
			d = 2 * (x - hi);
		gsl_vector_set(g, i, d);
	}
	gsl_matrix_free(W);
	free(gl);
	return 0;
}

static void nll_df(const gsl_vector *v, void *arg, gsl_vector *g)
{
	struct gp *gp = arg;

	if (!(nll_fn(v, arg) < 1e30) || nll_gradient(gp, v, g) < 0)
		gsl_vector_set_zero(g);
}

static void nll_fdf(const gsl_vector *v, void *arg, double *f, gsl_vector *g)
{
	struct gp *gp = arg;

	*f = nll_fn(v, arg);
	if (!(*f < 1e30) || nll_gradient(gp, v, g) < 0)
		gsl_vector_set_zero(g);
}

double gp_objective(struct gp *gp, const double *params, double *grad)
{
	size_t np = (size_t)gp->d + 2;
	gsl_vector_const_view v = gsl_vector_const_view_array(params, np);
	gsl_vector_view g = gsl_vector_view_array(grad, np);
	double f;

	nll_fdf(&v.vector, gp, &f, &g.vector);
	return f;
}

/* A local optimum of the posterior from start: quasi-Newton (BFGS) on the analytic
 * gradient, then the simplex from where it stopped, which also rescues a line search
 * that hit a K that is not positive definite. */
static double optimise_from(struct gp *gp, const double *start, gsl_vector *best)
{
	size_t np = (size_t)gp->d + 2, i;
	gsl_multimin_function_fdf fdf = { .n = np, .f = nll_fn, .df = nll_df, .fdf = nll_fdf, .params = gp };
	gsl_multimin_fdfminimizer *q = gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, np);
	gsl_vector *x = gsl_vector_alloc(np);
	bool converged = false;
	double val;
	int iter;

	for (i = 0; i < np; i++)
		gsl_vector_set(x, i, start[i]);
	gsl_multimin_fdfminimizer_set(q, &fdf, x, 0.1, 0.1);
	for (iter = 0; iter < 200 && !converged; iter++) {
		if (gsl_multimin_fdfminimizer_iterate(q) != GSL_SUCCESS)
			break;
		converged = gsl_multimin_test_gradient(gsl_multimin_fdfminimizer_gradient(q), 1e-3) == GSL_SUCCESS;
	}
	val = gsl_multimin_fdfminimizer_minimum(q);
	gsl_vector_memcpy(best, gsl_multimin_fdfminimizer_x(q));
	gsl_multimin_fdfminimizer_free(q);
	gsl_vector_free(x);
	return converged && val < 1e30 ? val : simplex_from(gp, best, best);
}

static double simplex_from(struct gp *gp, const gsl_vector *from, gsl_vector *best)
{
	size_t np = (size_t)gp->d + 2, i;
	gsl_multimin_function f = { .n = np, .f = nll_fn, .params = gp };
	gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, np);
	gsl_vector *x = gsl_vector_alloc(np), *step = gsl_vector_alloc(np);
	double val;
	int iter;

	gsl_vector_memcpy(x, from);
	for (i = 0; i < np; i++)
		gsl_vector_set(step, i, 0.2);
	gsl_multimin_fminimizer_set(m, &f, x, step);
	for (iter = 0; iter < 300; iter++) {
		if (gsl_multimin_fminimizer_iterate(m) != GSL_SUCCESS)
			break;
		if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), 1e-3) == GSL_SUCCESS)
			break;
	}
	val = gsl_multimin_fminimizer_minimum(m);
	gsl_vector_memcpy(best, gsl_multimin_fminimizer_x(m));
	gsl_multimin_fminimizer_free(m);
	gsl_vector_free(x);
	gsl_vector_free(step);
	return val;
}

int gp_fit(struct gp *gp, int d, const bool *categorical, const double *x, const double *y, int n)
{
	return gp_fit_with(gp, d, categorical, x, y, n, NULL);
}

int gp_fit_with(struct gp *gp, int d, const bool *categorical, const double *x, const double *y, int n,
		const struct gp *hyper)
{
	return gp_fit_counts(gp, d, categorical, x, y, NULL, n, hyper);
}

int gp_fit_counts(struct gp *gp, int d, const bool *categorical, const double *x, const double *y,
		  const struct gp_rep *rep, int n, const struct gp *hyper)
{
	return gp_fit_trend(gp, d, categorical, x, y, rep, n, hyper, 0);
}

int gp_fit_trend(struct gp *gp, int d, const bool *categorical, const double *x, const double *y,
		 const struct gp_rep *rep, int n, const struct gp *hyper, int trend)
{
	static const double starts_l[] = { 0.0, -1.0, 1.0 };
	gsl_vector *cand, *best;
	double best_val = HUGE_VAL, start[64];
	size_t s;
	int i;

	if (n < 1 || d < 1 || d > 60)
		return -1;
	gsl_set_error_handler_off();
	memset(gp, 0, sizeof(*gp));
	gp->trend = trend < 0 ? 0 : trend > d ? d : trend;
	gp->d = d;
	gp->n = n;
	gp->categorical = categorical;
	gp->x = malloc(sizeof(double) * (size_t)(n * d));
	gp->y = malloc(sizeof(double) * (size_t)n);
	gp->alpha = malloc(sizeof(double) * (size_t)n);
	gp->log_l = malloc(sizeof(double) * (size_t)d);
	gp->len = malloc(sizeof(double) * (size_t)d);
	gp->chol = gsl_matrix_alloc((size_t)n, (size_t)n);
	if (!gp->x || !gp->y || !gp->alpha || !gp->log_l || !gp->len || !gp->chol) {
		gp_free(gp);
		return -1;
	}
	memcpy(gp->x, x, sizeof(double) * (size_t)(n * d));
	gp->ymean = gsl_stats_mean(y, 1, (size_t)n);
	gp->ysd = n > 1 ? gsl_stats_sd_m(y, 1, (size_t)n, gp->ymean) : 1;
	if (!(gp->ysd > 1e-12))
		gp->ysd = 1;
	if (rep) {
		if (!(gp->count = malloc(sizeof(double) * (size_t)n)) ||
		    !(gp->var = calloc((size_t)n, sizeof(double)))) {
			gp_free(gp);
			return -1;
		}
		for (i = 0; i < n; i++) {
			gp->count[i] = rep[i].count >= 1 ? rep[i].count : 1;
			if (rep[i].var > 0 && isfinite(rep[i].var)) {
				/* measured: it does not inform the fitted noise */
				gp->var[i] = rep[i].var / (gp->ysd * gp->ysd);
				continue;
			}
			if (rep[i].dof > 0 && isfinite(rep[i].ss) && rep[i].ss >= 0) {
				gp->rep_dof += rep[i].dof;
				gp->rep_ss += rep[i].ss / (gp->ysd * gp->ysd);
			}
		}
	}
	for (i = 0; i < n; i++)
		gp->y[i] = (y[i] - gp->ymean) / gp->ysd;

	if (hyper) {
		/* the length scales, signal and noise of an earlier fit */
		memcpy(gp->log_l, hyper->log_l, sizeof(double) * (size_t)d);
		gp->log_sf2 = hyper->log_sf2;
		gp->log_sn2 = hyper->log_sn2;
		if (!isfinite(factorise(gp))) {
			gp_free(gp);
			return -1;
		}
		return 0;
	}
	cand = gsl_vector_alloc((size_t)d + 2);
	best = gsl_vector_alloc((size_t)d + 2);
	for (s = 0; s < sizeof(starts_l) / sizeof(starts_l[0]); s++) {
		double v;
		for (i = 0; i < d; i++)
			start[i] = starts_l[s];
		start[d] = 0;	   /* signal variance 1 (y is standardised) */
		start[d + 1] = -4; /* noise 2% of it */
		v = optimise_from(gp, start, cand);
		if (v < best_val) {
			best_val = v;
			gsl_vector_memcpy(best, cand);
		}
	}
	set_params(gp, best);
	gsl_vector_free(cand);
	gsl_vector_free(best);
	if (!isfinite(factorise(gp))) {
		gp_free(gp);
		return -1;
	}
	return 0;
}

void gp_predict(const struct gp *gp, const double *x, double *mean, double *sd)
{
	gsl_vector *k = gsl_vector_alloc((size_t)gp->n);
	double m = 0, var;
	int i;

	for (i = 0; i < gp->n; i++) {
		double ki = kern(gp, x, gp->x + i * gp->d);
		gsl_vector_set(k, (size_t)i, ki);
		m += ki * gp->alpha[i];
	}
	/* v = L^-1 k; var = k(x,x) - v.v */
	gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasNonUnit, gp->chol, k);
	var = exp(gp->log_sf2) + trend_kern(gp, x, x);
	for (i = 0; i < gp->n; i++)
		var -= gsl_vector_get(k, (size_t)i) * gsl_vector_get(k, (size_t)i);
	gsl_vector_free(k);
	if (var < 1e-12)
		var = 1e-12;
	*mean = gp->ymean + gp->ysd * m;
	*sd = gp->ysd * sqrt(var);
}

bool gp_trend_flat(const struct gp *gp, int k)
{
	gsl_vector *h;
	bool flat = true;
	int j, i;

	if (k < 0 || k >= gp->trend || gp->categorical[k] || !(h = gsl_vector_alloc((size_t)gp->n)))
		return true;
	for (j = 0; j < 2 && flat; j++) {
		/* coefficient c of basis h: mean V h' K^-1 y, variance V - V^2 h' K^-1 h (K with the trend) */
		double mean = 0, hk = 0;
		for (i = 0; i < gp->n; i++) {
			double xi = gp->x[i * gp->d + k], hi = j ? p2(xi) : xi;
			gsl_vector_set(h, (size_t)i, hi);
			mean += hi * gp->alpha[i];
		}
		mean *= GP_TREND_VAR;
		gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasNonUnit, gp->chol, h);
		gsl_blas_ddot(h, h, &hk);
		flat = fabs(mean) < 2 * sqrt(fmax(GP_TREND_VAR - GP_TREND_VAR * GP_TREND_VAR * hk, 0));
	}
	gsl_vector_free(h);
	return flat;
}

double gp_expected_improvement(const struct gp *gp, const double *x, double best)
{
	double mu, sd, z, imp;

	gp_predict(gp, x, &mu, &sd);
	imp = best - mu;
	z = imp / sd;
	return imp * gsl_cdf_ugaussian_P(z) + sd * gsl_ran_ugaussian_pdf(z);
}

double gp_success_probability(const struct gp *gpc, const double *x)
{
	double mu, sd;

	gp_predict(gpc, x, &mu, &sd);
	/* the label's mean through a probit, shrunk towards one half by the uncertainty:
	 * +-1 with no doubt gives 0.98 or 0.02 */
	return gsl_cdf_ugaussian_P(2 * mu / sqrt(1 + 4 * sd * sd));
}

void gp_free(struct gp *gp)
{
	free(gp->x);
	free(gp->y);
	free(gp->alpha);
	free(gp->log_l);
	free(gp->len);
	free(gp->count);
	free(gp->var);
	if (gp->chol)
		gsl_matrix_free(gp->chol);
	memset(gp, 0, sizeof(*gp));
}
