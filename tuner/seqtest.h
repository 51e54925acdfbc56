/* seqtest.h - the statistics of a confirmation, kept to promises that hold over
 * everything a search does: paired differences of log cost between adjacent
 * original/candidate runs, a group-sequential design whose false-positive rate
 * over all looks is at most alpha (Lan-DeMets O'Brien-Fleming spending, each look
 * spending its increment), Holm's step-down across finalists within a look, and
 * an interval at the level the decision used, so it covers the selected finalist's
 * change with at least 1 - alpha. Zero variance is no evidence. */
#ifndef VMTUNE_SEQTEST_H
#define VMTUNE_SEQTEST_H

#include <stdbool.h>

/* Alpha spent by information fraction t in (0, 1]: 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)),
 * which is alpha at t = 1 and very little early. */
double seq_spent(double alpha, double t);
/* The alpha of a look at n rounds of n_max, the previous look being at n_prev
 * (0 for the first): the increment of the spending function. */
double seq_look_alpha(double alpha, int n, int n_prev, int n_max);

/* Paired differences d (candidate minus original, log cost). */
struct paired {
	int n;
	double mean, sd;
};
void paired_summary(const double *d, int n, struct paired *p);
/* Two-sided p-value of a mean of 0 (Student t); 1 with fewer than 2 pairs or no
 * variance at all. */
double paired_p(const struct paired *p);
/* The interval of the mean at level 1 - a; infinite with fewer than 2 pairs or
 * no variance. */
void paired_ci(const struct paired *p, double a, double *lo, double *hi);

/* Holm's step-down at family level a: reject[i] for each p[i] that is rejected. */
void holm(const double *p, int m, double a, bool *reject);

#endif
