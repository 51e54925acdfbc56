/* stats.h - summaries of repeated measurements: mean, 95% CI, CV, and the robust
 * figures (median, MAD, extremes, outliers) with an interval that does not assume
 * normality when the runs are plainly not normal. */
#ifndef VMTUNE_STATS_H
#define VMTUNE_STATS_H

enum ci_method {
	CI_NONE, /* too few runs */
	CI_T,	 /* Student t interval of the mean */
	CI_RANK, /* distribution-free interval of the median from order statistics */
};

struct summary {
	int n;
	double mean, sd;
	double ci_lo, ci_hi; /* 95% confidence interval of the mean (Student t); NAN when n < 2 */
	double cv;	     /* coefficient of variation sd/mean; NAN when n < 2 */
	/* robust figures (summarize_robust) */
	double median, mad; /* mad: median absolute deviation, unscaled */
	double min, max;
	double normal_p;       /* Shapiro-Francia p-value (5 <= n <= 5000), else NAN */
	enum ci_method method; /* the interval reported: CI_T, or CI_RANK when normality is rejected */
	double centre, lo, hi; /* that interval's centre (mean or median) and ends */
	double coverage;       /* its exact coverage for CI_RANK (>= 0.95), 0.95 for CI_T */
};

void summarize(const double *x, int n, struct summary *s);
/* summarize, then the robust figures and the reported interval: Student t when the
 * Shapiro-Francia test (p < 0.05) does not reject normality, otherwise the rank
 * interval of the median (needs 6 runs; with fewer, CI_NONE). */
void summarize_robust(const double *x, int n, struct summary *s);
/* With --precision the runs stop when the interval is narrow enough, which favours
 * stopping where the spread happens to look small: at 95% after each run the interval
 * covered 89-94% in simulation (normal, log-normal and two-cluster runs), at 98.5%
 * 96.9% or more (test_stats). So with --precision the interval that stops the runs
 * and is reported is the 98.5% one. */
#define PRECISION_LEVEL 0.985

/* The same with the reported interval (centre, lo, hi, coverage) at level instead
 * of 0.95 (ci_lo, ci_hi stay the 95% t interval of the mean). */
void summarize_robust_at(const double *x, int n, double level, struct summary *s);
/* The reported interval's half-width relative to its centre: the larger side / centre. */
double summary_rel_halfwidth(const struct summary *s);
const char *ci_method_name(enum ci_method m);
/* Shapiro-Francia W' and its p-value (Royston 1993); returns -1 when n < 5 or constant. */
int shapiro_francia(const double *x, int n, double *w, double *p);
/* The modified z-score of x against median and MAD (Iglewicz-Hoaglin): 0.6745 (x - med) / MAD. */
double modified_z(double x, double median, double mad);
/* A change on the log scale (or a log-scale sd per run) as a percentage: 100 (e^l - 1). */
double log_change_pct(double l);

#endif
