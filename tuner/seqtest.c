/* seqtest.c - paired t, alpha spending and Holm (GSL for the distributions). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seqtest.h"

double seq_spent(double alpha, double t)
{
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2);

	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	return 2 * gsl_cdf_ugaussian_Q(z / sqrt(t));
}

double seq_look_alpha(double alpha, int n, int n_prev, int n_max)
{
	if (n_max <= 0 || n <= n_prev)
		return 0;
	return seq_spent(alpha, (double)n / n_max) - seq_spent(alpha, (double)n_prev / n_max);
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

void holm(const double *p, int m, double a, bool *reject)
{
	int order[64], i, j, k;

	if (m > 64)
		m = 64;
	for (i = 0; i < m; i++) {
		reject[i] = false;
		order[i] = i;
	}
	for (i = 1; i < m; i++) /* by p, smallest first */
		for (j = i; j > 0 && p[order[j]] < p[order[j - 1]]; j--) {
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
	for (i = 0; i < m; i++) {
		if (!(p[order[i]] <= a / (m - i)))
			break;
		reject[order[i]] = true;
	}
}
