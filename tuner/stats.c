/* stats.c - the numbers printed after "Averages for N runs": GSL does the t and
 * normal quantiles, the binomial tail and the sorting. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void summarize(const double *x, int n, struct summary *s)
{
	double half;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->mean = s->sd = s->ci_lo = s->ci_hi = s->cv = NAN;
	s->median = s->mad = s->min = s->max = s->normal_p = NAN;
	s->centre = s->lo = s->hi = NAN;
	s->method = CI_NONE;
	if (n < 1)
		return;
	gsl_set_error_handler_off();
	s->mean = gsl_stats_mean(x, 1, (size_t)n);
	if (n < 2)
		return;
	s->sd = gsl_stats_sd_m(x, 1, (size_t)n, s->mean);
	half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * s->sd / sqrt((double)n);
	s->ci_lo = s->mean - half;
	s->ci_hi = s->mean + half;
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
}

int shapiro_francia(const double *x, int n, double *w, double *p)
{
	double *y, mean, sxy = 0, sxx = 0, smm = 0, u, v, mu, sigma, z;
	int i;

	*w = *p = NAN;
	if (n < 5 || n > 5000 || !(y = malloc((size_t)n * sizeof(*y))))
		return -1;
	memcpy(y, x, (size_t)n * sizeof(*y));
	gsl_sort(y, 1, (size_t)n);
	mean = gsl_stats_mean(y, 1, (size_t)n);
	/* W' is the squared correlation of the sorted runs with Blom's normal scores */
	for (i = 0; i < n; i++) {
		double m = gsl_cdf_ugaussian_Pinv((i + 1 - 0.375) / (n + 0.25));
		sxy += m * (y[i] - mean);
		sxx += (y[i] - mean) * (y[i] - mean);
		smm += m * m;
	}
	free(y);
	if (!(sxx > 0))
		return -1;
	*w = sxy * sxy / (sxx * smm);
	/* Royston (1993): log(1 - W') is close to normal with these moments */
	u = log((double)n);
	v = log(u);
	mu = -1.2725 + 1.0521 * (v - u);
	sigma = 1.0308 - 0.26758 * (v + 2 / u);
	z = (log1p(-fmin(*w, 1 - 1e-12)) - mu) / sigma;
	*p = gsl_cdf_ugaussian_Q(z);
	return 0;
}

double modified_z(double x, double median, double mad)
{
	return mad > 0 ? 0.6745 * (x - median) / mad : (x == median ? 0 : copysign(INFINITY, x - median));
}

double log_change_pct(double l)
{
	return 100 * (exp(l) - 1);
}

/* The largest k with P(Binom(n, 1/2) <= k - 1) <= (1 - level) / 2: [x_(k), x_(n+1-k)]
 * covers the median with probability 1 - 2 P(Binom <= k - 1) >= level, whatever the
 * distribution. */
static int rank_k(int n, double level, double *coverage)
{
	int k = 0;

	while (k + 1 <= n / 2 && gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n) <= (1 - level) / 2)
		k++;
	if (k == 0)
		return 0;
	*coverage = 1 - 2 * gsl_cdf_binomial_P((unsigned)(k - 1), 0.5, (unsigned)n);
	return k;
}

void summarize_robust(const double *x, int n, struct summary *s)
{
	summarize_robust_at(x, n, 0.95, s);
}

void summarize_robust_at(const double *x, int n, double level, struct summary *s)
{
	double *y, w;
	int i, k;

	summarize(x, n, s);
	if (n < 1 || !(y = malloc((size_t)n * sizeof(*y))))
		return;
	memcpy(y, x, (size_t)n * sizeof(*y));
	gsl_sort(y, 1, (size_t)n);
	s->min = y[0];
	s->max = y[n - 1];
	s->median = gsl_stats_median_from_sorted_data(y, 1, (size_t)n);
	for (i = 0; i < n; i++)
		y[i] = fabs(x[i] - s->median);
	gsl_sort(y, 1, (size_t)n);
	s->mad = gsl_stats_median_from_sorted_data(y, 1, (size_t)n);
	shapiro_francia(x, n, &w, &s->normal_p);
	if (n >= 2 && !(s->normal_p < 0.05)) {
		double half = gsl_cdf_tdist_Pinv((1 + level) / 2, (double)(n - 1)) * s->sd / sqrt((double)n);
		s->method = CI_T;
		s->centre = s->mean;
		s->lo = s->mean - half;
		s->hi = s->mean + half;
		s->coverage = level;
	} else if ((k = rank_k(n, level, &s->coverage)) > 0) {
		memcpy(y, x, (size_t)n * sizeof(*y));
		gsl_sort(y, 1, (size_t)n);
		s->method = CI_RANK;
		s->centre = s->median;
		s->lo = y[k - 1];
		s->hi = y[n - k];
	}
	free(y);
}

double summary_rel_halfwidth(const struct summary *s)
{
	if (s->method == CI_NONE || !(s->centre != 0))
		return NAN;
	return fmax(s->centre - s->lo, s->hi - s->centre) / fabs(s->centre);
}

const char *ci_method_name(enum ci_method m)
{
	switch (m) {
	case CI_T:
		return "Student t interval of the mean";
	case CI_RANK:
		return "rank interval of the median (no normality assumed)";
	default:
		return "none";
	}
}
