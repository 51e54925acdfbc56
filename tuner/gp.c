/* gp.c - Gaussian-process regression for the search: ARD squared-exponential
 * kernel over continuous coded knobs, an exponential Hamming kernel over enum
 * knobs, hyperparameters by maximum marginal likelihood (Nelder-Mead simplex on
 * the logs, clamped to sane boxes), Cholesky solves for the posterior. A point
 * that is the mean of several measurements carries the noise of that mean (the
 * fitted noise is per measurement, divided by the count), and the spread of those
 * repeats about their mean goes into the likelihood of the noise. */
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

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double dist(const struct gp *gp, const double *a, const double *b, int from, int to)
{
	double s = 0;
	int i;

	for (i = from; i < to; i++) {
		double l = exp(gp->log_l[i]);
		if (gp->categorical[i])
			s += (a[i] != b[i]) / l;
		else
			s += 0.5 * (a[i] - b[i]) * (a[i] - b[i]) / (l * l);
	}
	return s;
}

static double kern(const struct gp *gp, const double *a, const double *b)
{
	return exp(gp->log_sf2 - dist(gp, a, b, 0, gp->d));
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
	nll = factorise(gp);
	return isfinite(nll) ? nll + pen : 1e30;
}

static double optimise_from(struct gp *gp, const double *start, gsl_vector *best)
{
	size_t np = (size_t)gp->d + 2, i;
	gsl_multimin_function f = { .n = np, .f = nll_fn, .params = gp };
	gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, np);
	gsl_vector *x = gsl_vector_alloc(np), *step = gsl_vector_alloc(np);
	double val;
	int iter;

	for (i = 0; i < np; i++) {
		gsl_vector_set(x, i, start[i]);
		gsl_vector_set(step, i, 0.7);
	}
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
	static const double starts_l[] = { 0.0, -1.0, 1.0 };
	gsl_vector *cand, *best;
	double best_val = HUGE_VAL, start[64];
	size_t s;
	int i;

	if (n < 1 || d < 1 || d > 60)
		return -1;
	gsl_set_error_handler_off();
	memset(gp, 0, sizeof(*gp));
	gp->d = d;
	gp->n = n;
	gp->categorical = categorical;
	gp->x = malloc(sizeof(double) * (size_t)(n * d));
	gp->y = malloc(sizeof(double) * (size_t)n);
	gp->alpha = malloc(sizeof(double) * (size_t)n);
	gp->log_l = malloc(sizeof(double) * (size_t)d);
	gp->chol = gsl_matrix_alloc((size_t)n, (size_t)n);
	if (!gp->x || !gp->y || !gp->alpha || !gp->log_l || !gp->chol) {
		gp_free(gp);
		return -1;
	}
	memcpy(gp->x, x, sizeof(double) * (size_t)(n * d));
	gp->ymean = gsl_stats_mean(y, 1, (size_t)n);
	gp->ysd = n > 1 ? gsl_stats_sd_m(y, 1, (size_t)n, gp->ymean) : 1;
	if (!(gp->ysd > 1e-12))
		gp->ysd = 1;
	if (rep) {
		if (!(gp->count = malloc(sizeof(double) * (size_t)n)) || !(gp->var = calloc((size_t)n, sizeof(double)))) {
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
	var = exp(gp->log_sf2);
	for (i = 0; i < gp->n; i++)
		var -= gsl_vector_get(k, (size_t)i) * gsl_vector_get(k, (size_t)i);
	gsl_vector_free(k);
	if (var < 1e-12)
		var = 1e-12;
	*mean = gp->ymean + gp->ysd * m;
	*sd = gp->ysd * sqrt(var);
}

double gp_expected_improvement(const struct gp *gp, const double *x, double best)
{
	double mu, sd, z, imp;

	gp_predict(gp, x, &mu, &sd);
	imp = best - mu;
	z = imp / sd;
	return imp * gsl_cdf_ugaussian_P(z) + sd * gsl_ran_ugaussian_pdf(z);
}

void gp_free(struct gp *gp)
{
	free(gp->x);
	free(gp->y);
	free(gp->alpha);
	free(gp->log_l);
	free(gp->count);
	free(gp->var);
	if (gp->chol)
		gsl_matrix_free(gp->chol);
	memset(gp, 0, sizeof(*gp));
}
