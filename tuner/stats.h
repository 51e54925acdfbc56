/* stats.h - summaries of repeated measurements: mean, 95% CI (Student t), CV. */
#ifndef VMTUNE_STATS_H
#define VMTUNE_STATS_H

struct summary {
	int n;
	double mean, sd;
	double ci_lo, ci_hi; /* 95% confidence interval of the mean; NAN when n < 2 */
	double cv;	     /* coefficient of variation sd/mean; NAN when n < 2 */
};

void summarize(const double *x, int n, struct summary *s);

#endif
