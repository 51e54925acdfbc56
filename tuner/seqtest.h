/* seqtest.h - the statistics of a confirmation, kept to promises that hold over
 * everything a search does: paired differences of log cost between adjacent
 * original/candidate runs, a group-sequential design whose false-positive rate
 * over all looks is at most alpha (Hwang-Shih-DeCani spending with gamma = -4, with
 * the exact group-sequential boundaries of that spending), and repeated confidence
 * intervals at each look's nominal level, which hold at all looks at once, so the
 * interval of whichever finalist is selected covers its change with at least
 * 1 - alpha. Zero variance is no evidence to the t-test; where every difference is
 * the same (a deterministic or coarsely rounded metric) an exact sign rule, given a
 * fixed 1% of each finalist's alpha, decides instead (below). */
#ifndef VMTUNE_SEQTEST_H
#define VMTUNE_SEQTEST_H

#include <stdbool.h>

/* The spending's shape: as the O'Brien-Fleming function at the end (the same power
 * at the last look, within simulation error: bench/spending.sh), but it can stop at
 * the first look on a clear change, which O'Brien-Fleming's 5e-7 there cannot. */
#define SEQ_GAMMA (-4.0)

/* Alpha spent by information fraction t in (0, 1]: Hwang-Shih-DeCani,
 * alpha (1 - e^(-gamma t)) / (1 - e^(-gamma)) (alpha t when gamma is 0), which is
 * alpha at t = 1 and little early when gamma < 0. */
double seq_spent_hsd(double alpha, double gamma, double t);
/* Lan-DeMets O'Brien-Fleming: 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)), almost nothing
 * early (the confirmation's spending before; kept for the comparison). */
double seq_spent_obf(double alpha, double t);
/* The confirmation's spending: seq_spent_hsd with SEQ_GAMMA. */
double seq_spent(double alpha, double t);
typedef double (*seq_spending)(double alpha, double t);

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

/* The sign rule, for the differences the t-test cannot judge (no variance: every
 * pair the same). Under no change the original's and the candidate's runs of a round
 * are exchangeable, so each difference is above 0 with chance at most 1/2 and below
 * with chance at most 1/2 (ties, as from rounding, only lower both), independently
 * across rounds, whatever the distribution: all of n pairs on one side has chance at
 * most 2^(1 - n). The rule is used from seq_sign_pairs(alpha) pairs on, and all on one
 * side at some look after that implies all on one side in the first n of them, so
 * over every look together it errs with chance at most seq_sign_spent(alpha) =
 * 2^(1 - n), which is at most SEQ_SIGN_SHARE alpha. The t-test's boundaries are made
 * for the rest, seq_t_alpha(alpha) = alpha - seq_sign_spent(alpha), so the two
 * together (the union bound, however they depend on each other) keep alpha over all
 * looks. Its interval, [smallest, largest difference], holds the median difference
 * with chance at least 1 - 2^(1 - n) for any distribution; it only widens with more
 * pairs, so it holds at every look from the first at once with 1 - seq_sign_spent.
 * The confirmation uses it where the t-test has no interval; there it is the
 * common difference (median and mean alike), so the decision is the sign test's and
 * the interval says the same. Why 1%: it takes 1% of the t-test's alpha (no power
 * lost that a simulation can see) and decides a difference that never varies at the
 * look of round 15 of 25 for 1 to 8 finalists; a larger share would stop it at round
 * 10 for a few points of the t-test's power. (A variance floor from the measurement's
 * resolution was the other way: it needs the resolution, which a metric does not
 * say, and gives no exact bound.) Checked on null sequences whose answer is known:
 * tests/unit/test_seqtest.c, bench/sign-rule.sh (bench/RESULTS.md). */
#define SEQ_SIGN_SHARE 0.01
/* The fewest pairs n at which 2^(1 - n) <= SEQ_SIGN_SHARE alpha (12 for 0.05,
 * 13 for 0.025), its chance 2^(1 - n), and what is left for the t-test. */
int seq_sign_pairs(double alpha);
double seq_sign_spent(double alpha);
double seq_t_alpha(double alpha);
/* The sign rule at a look, on the n differences d: with at least seq_sign_pairs(alpha)
 * of them, *lo and *hi get the smallest and the largest, and it returns true (it
 * decides when both are on one side of 0); with fewer the interval is infinite and
 * it returns false. */
bool paired_sign(const double *d, int n, double alpha, double *lo, double *hi);

/* Two-sided group-sequential boundaries for looks at information fractions t[0..K-1]
 * (increasing, in (0, 1]): c[k] is the |z| that decides at look k, such that a
 * statistic with independent increments (a paired mean, look by look) first crosses
 * at look k with chance spent(alpha, t_k) - spent(alpha, t_{k-1}) under no
 * change: over all looks at most alpha, and exactly alpha when the last is at t = 1
 * (the recursion of Armitage, McPherson and Rowe, by numerical integration).
 * Returns 0, or -1 for an empty or unordered schedule. */
int seq_bounds_of(seq_spending spent, double alpha, const double *t, int K, double *c);
/* seq_bounds_of the confirmation's spending, seq_spent */
int seq_bounds(double alpha, const double *t, int K, double *c);
/* The two-sided nominal level of boundary c, 2 Q(c): a look rejects when the paired
 * test's p is at most this, and its interval is at 1 minus this. */
double seq_nominal(double c);

#endif
