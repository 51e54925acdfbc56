/* stats.c - the numbers printed after "Averages for N runs": GSL does the t quantiles. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

#include "stats.h"

void summarize(const double *x, int n, struct summary *s)
{
	double half;

	s->n = n;
	s->mean = s->sd = s->ci_lo = s->ci_hi = s->cv = NAN;
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
