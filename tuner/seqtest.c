/* seqtest.c - paired t, alpha spending and its group-sequential boundaries (GSL for
 * the distributions). */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seqtest.h"

double seq_spent_obf(double alpha, double t)
{
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2);

	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	return 2 * gsl_cdf_ugaussian_Q(z / sqrt(t));
}

double seq_spent_hsd(double alpha, double gamma, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	if (fabs(gamma) < 1e-9)
		return alpha * t;
	return alpha * -expm1(-gamma * t) / -expm1(-gamma);
}

double seq_spent(double alpha, double t)
{
	return seq_spent_hsd(alpha, SEQ_GAMMA, t);
}

void paired_summary(const double *d, int n, struct paired *p)
{
	double s = 0, ss = 0;
	int i;

	p->n = n;
	for (i = 0; i < n; i++)
		s += d[i];
	p->mean = n ? s / n : NAN;
	for (i = 0; i < n; i++)
		ss += (d[i] - p->mean) * (d[i] - p->mean);
	p->sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

/* Is there spread to judge by? Identical differences (a scorer that returns a
 * constant, a rounded metric) say nothing about noise, so nothing about a change. */
static bool informative(const struct paired *p)
{
	return p->n >= 2 && isfinite(p->sd) && p->sd > 1e-12 * fmax(1, fabs(p->mean));
}

double paired_p(const struct paired *p)
{
	double t;

	if (!informative(p))
		return 1;
	t = fabs(p->mean) / (p->sd / sqrt(p->n));
	return 2 * gsl_cdf_tdist_Q(t, p->n - 1);
}

void paired_ci(const struct paired *p, double a, double *lo, double *hi)
{
	double h;

	if (!informative(p) || a <= 0) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	h = gsl_cdf_tdist_Qinv(a / 2, p->n - 1) * p->sd / sqrt(p->n);
	*lo = p->mean - h;
	*hi = p->mean + h;
}

int seq_sign_pairs(double alpha)
{
	/* 2^(1 - n) <= SEQ_SIGN_SHARE alpha */
	return 1 + (int)ceil(log2(1 / (SEQ_SIGN_SHARE * alpha)) - 1e-9);
}

double seq_sign_spent(double alpha)
{
	return ldexp(1, 1 - seq_sign_pairs(alpha));
}

double seq_t_alpha(double alpha)
{
	return alpha - seq_sign_spent(alpha);
}

bool paired_sign(const double *d, int n, double alpha, double *lo, double *hi)
{
	int i;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (n < seq_sign_pairs(alpha))
		return false;
	*lo = *hi = d[0];
	for (i = 1; i < n; i++) {
		*lo = fmin(*lo, d[i]);
		*hi = fmax(*hi, d[i]);
	}
	return true;
}

/* The boundaries, look by look. S_k = Z_k sqrt(t_k) is a Brownian motion observed at
 * t_1 < t_2 < ...: its increments are independent N(0, t_k - t_{k-1}). f holds the
 * density of S_k on the continuation region (-b_k, b_k), b_k = c_k sqrt(t_k), at
 * SEQ_GRID points (Simpson weights); the chance of crossing at look k + 1 is the
 * integral of f against the two tails of the step, and c_{k+1} is found by
 * bisection so that it equals that look's increment of the spending function. */
#define SEQ_GRID 601 /* odd, for Simpson's rule */
#define SEQ_C_MAX 40.0

static double simpson_w(int i, double h)
{
	return h / 3 * (i == 0 || i == SEQ_GRID - 1 ? 1 : i % 2 ? 4 : 2);
}

/* P(cross at the next look) for a boundary b there, step sd s, density f on (-bp, bp) */
static double cross_prob(const double *f, double bp, double s, double b)
{
	double h = 2 * bp / (SEQ_GRID - 1), p = 0;
	int i;

	for (i = 0; i < SEQ_GRID; i++) {
		double u = -bp + i * h;
		p += simpson_w(i, h) * f[i] * (gsl_cdf_ugaussian_Q((b - u) / s) + gsl_cdf_ugaussian_P((-b - u) / s));
	}
	return p;
}

int seq_bounds_of(seq_spending spent, double alpha, const double *t, int K, double *c)
{
	double f[SEQ_GRID], g[SEQ_GRID], bp = 0, tp = 0;
	int k, i, j;

	if (K < 1 || !(alpha > 0 && alpha < 1))
		return -1;
	for (k = 0; k < K; k++) {
		double a = spent(alpha, t[k]) - spent(alpha, tp), s, lo = 0, hi = SEQ_C_MAX, b, h, hp;

		if (!(t[k] > tp) || t[k] > 1 + 1e-12)
			return -1;
		s = sqrt(t[k] - tp);
		if (k == 0) {
			c[0] = a > 0 ? gsl_cdf_ugaussian_Qinv(a / 2) : SEQ_C_MAX;
			if (c[0] > SEQ_C_MAX)
				c[0] = SEQ_C_MAX;
		} else {
			/* the crossing chance falls as the boundary rises */
			for (j = 0; j < 100 && hi - lo > 1e-10; j++) {
				double mid = (lo + hi) / 2;
				if (cross_prob(f, bp, s, mid * sqrt(t[k])) > a)
					lo = mid;
				else
					hi = mid;
			}
			c[k] = (lo + hi) / 2;
		}
		/* the density of S_k where the search goes on */
		b = c[k] * sqrt(t[k]);
		h = 2 * b / (SEQ_GRID - 1);
		hp = 2 * bp / (SEQ_GRID - 1);
		for (i = 0; i < SEQ_GRID; i++) {
			double x = -b + i * h;
			if (k == 0) {
				g[i] = gsl_ran_gaussian_pdf(x, s);
				continue;
			}
			g[i] = 0;
			for (j = 0; j < SEQ_GRID; j++)
				g[i] += simpson_w(j, hp) * f[j] * gsl_ran_gaussian_pdf(x - (-bp + j * hp), s);
		}
		memcpy(f, g, sizeof(f));
		bp = b;
		tp = t[k];
	}
	return 0;
}

int seq_bounds(double alpha, const double *t, int K, double *c)
{
	return seq_bounds_of(seq_spent, alpha, t, K, c);
}

double seq_nominal(double c)
{
	return 2 * gsl_cdf_ugaussian_Q(c);
}
