/* seqtest.h - the statistics of a confirmation, kept to promises that hold over
 * everything a search does: paired differences of log cost between adjacent
 * original/candidate runs, a group-sequential design whose false-positive rate
 * over all looks is at most alpha (Lan-DeMets O'Brien-Fleming spending, with the
 * exact group-sequential boundaries of that spending), and repeated confidence
 * intervals at each look's nominal level, which hold at all looks at once, so the
 * interval of whichever finalist is selected covers its change with at least
 * 1 - alpha. Zero variance is no evidence. */
#ifndef VMTUNE_SEQTEST_H
#define VMTUNE_SEQTEST_H

#include <stdbool.h>

/* Alpha spent by information fraction t in (0, 1]: 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)),
 * which is alpha at t = 1 and very little early. */
double seq_spent(double alpha, double t);

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

/* Two-sided group-sequential boundaries for looks at information fractions t[0..K-1]
 * (increasing, in (0, 1]): c[k] is the |z| that decides at look k, such that a
 * statistic with independent increments (a paired mean, look by look) first crosses
 * at look k with chance seq_spent(alpha, t_k) - seq_spent(alpha, t_{k-1}) under no
 * change: over all looks at most alpha, and exactly alpha when the last is at t = 1
 * (the recursion of Armitage, McPherson and Rowe, by numerical integration).
 * Returns 0, or -1 for an empty or unordered schedule. */
int seq_bounds(double alpha, const double *t, int K, double *c);
/* The two-sided nominal level of boundary c, 2 Q(c): a look rejects when the paired
 * test's p is at most this, and its interval is at 1 minus this. */
double seq_nominal(double c);

#endif
