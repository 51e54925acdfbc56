/* drift.c - the local-level model of drift.h: a Kalman filter for the likelihood,
 * the Rauch-Tung-Striebel smoother for the level, q by a grid over log q refined
 * by Brent's method (GSL). Everything is in units of the noise variance, which is
 * profiled out of the likelihood. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdlib.h>

#include "drift.h"

#define Q_MIN 1e-6 /* the grid's lowest q > 0; below it the walk is nothing next to the noise */
#define GRID 81

/* Filter y from a diffuse start: a[k], p[k] the filtered level and its variance after
 * y[k], pm[k] the predicted variance before y[k] (k >= 1). Returns the sum of squared
 * standardised innovations; *logf gets the sum of their log variances. */
static double filter(const double *t, const double *y, int n, double q, double *a, double *p, double *pm, double *logf)
{
	double lvl = y[0], var = 1, ss = 0, lf = 0;
	int k;

	if (a) {
		a[0] = lvl;
		p[0] = var;
	}
	for (k = 1; k < n; k++) {
		double vm = var + q * (t[k] - t[k - 1]), f = vm + 1, v = y[k] - lvl;
		ss += v * v / f;
		lf += log(f);
		lvl += vm / f * v;
		var = vm / f;
		if (a) {
			a[k] = lvl;
			p[k] = var;
			pm[k] = vm;
		}
	}
	*logf = lf;
	return ss;
}

double drift_loglik(const double *t, const double *y, int n, double q, double *sigma2)
{
	double lf, ss = filter(t, y, n, q, NULL, NULL, NULL, &lf), s2 = ss / (n - 1);

	if (sigma2)
		*sigma2 = s2;
	if (!(s2 > 0))
		return q == 0 ? INFINITY : -INFINITY; /* identical runs: no noise, no walk */
	return -0.5 * ((n - 1) * log(s2) + lf);
}

void drift_smooth_q(const double *t, const double *y, int n, double q, double *lvl)
{
	double *p, *pm, lf;
	int k;

	if (n == 1) {
		lvl[0] = y[0];
		return;
	}
	p = malloc(sizeof(double) * (size_t)n * 2);
	if (!p) { /* no memory for the smoother: the runs as they are */
		for (k = 0; k < n; k++)
			lvl[k] = y[k];
		return;
	}
	pm = p + n;
	filter(t, y, n, q, lvl, p, pm, &lf);
	for (k = n - 2; k >= 0; k--)
		lvl[k] += p[k] / pm[k + 1] * (lvl[k + 1] - lvl[k]);
	free(p);
}

struct fit_arg {
	const double *t, *y;
	int n;
};

static double neg_loglik(double lq, void *v)
{
	const struct fit_arg *f = v;

	return -drift_loglik(f->t, f->y, f->n, exp(lq), NULL);
}

/* The q of highest likelihood: the best of 0 and a grid over [Q_MIN, DRIFT_Q_MAX] in
 * log q, refined by Brent's method when it is inside the grid. Ties go to the
 * smaller q. */
static double fit_q(const double *t, const double *y, int n, double *ll, double *ll0)
{
	struct fit_arg fa = { t, y, n };
	double lo = log(Q_MIN), hi = log(DRIFT_Q_MAX), step = (hi - lo) / (GRID - 1);
	double l0 = drift_loglik(t, y, n, 0, NULL), best = l0, bq = 0, g[GRID];
	int i, bi = -1;

	for (i = 0; i < GRID; i++) {
		g[i] = drift_loglik(t, y, n, exp(lo + i * step), NULL);
		if (g[i] > best) {
			best = g[i];
			bi = i;
		}
	}
	if (bi > 0 && bi < GRID - 1 && g[bi] > g[bi - 1] && g[bi] > g[bi + 1]) {
		gsl_function F = { neg_loglik, &fa };
		gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
		gsl_error_handler_t *old = gsl_set_error_handler_off();
		double x = lo + bi * step;

		if (m && gsl_min_fminimizer_set_with_values(m, &F, x, -g[bi], x - step, -g[bi - 1], x + step,
							    -g[bi + 1]) == GSL_SUCCESS) {
			for (i = 0; i < 100; i++) {
				if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
					break;
				if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(m), gsl_min_fminimizer_x_upper(m),
							  1e-4, 0) == GSL_SUCCESS)
					break;
			}
			if (-gsl_min_fminimizer_f_minimum(m) >= best) {
				best = -gsl_min_fminimizer_f_minimum(m);
				x = gsl_min_fminimizer_x_minimum(m);
			}
		}
		gsl_min_fminimizer_free(m);
		gsl_set_error_handler(old);
		bq = exp(x);
	} else if (bi >= 0) {
		bq = exp(lo + bi * step);
	}
	*ll = best;
	*ll0 = l0;
	return bq;
}

void drift_smooth(const double *t, const double *y, int n, double *lvl, struct drift_fit *fit)
{
	double q = 0, ll = NAN, ll0 = NAN, s2 = NAN, p = 1;

	if (n >= 3) {
		q = fit_q(t, y, n, &ll, &ll0);
		if (q > 0) {
			double lr = 2 * (ll - ll0);
			p = isfinite(lr) ? (lr > 0 ? 0.5 * gsl_cdf_chisq_Q(lr, 1) : 1) : 0;
			if (p > DRIFT_ALPHA) { /* no drift shown: their mean */
				q = 0;
				ll = ll0;
			}
		}
	}
	if (n >= 2)
		drift_loglik(t, y, n, q, &s2);
	if (n >= 1)
		drift_smooth_q(t, y, n, q, lvl);
	if (fit)
		*fit = (struct drift_fit){ .n = n, .q = q, .sigma2 = s2, .loglik = ll, .p = p };
}
