/* sign-rule.c - the confirmation's design with its sign rule (seqtest.h) on null
 * sequences of paired differences whose answer is known (no change): the rate of any
 * decided change, and of those the sign rule's, against the finalist's share of alpha;
 * and the rounds a difference with no variance takes. Looks every 5 pairs up to 25, as
 * by default; the decision at a look is confirm_look's: the paired t at the look's
 * nominal level, where it has no interval (no variance) the sign rule. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "seqtest.h"

static const double five[] = { 0.2, 0.4, 0.6, 0.8, 1 };

static int look(const double *d, int n, double a, double share, bool *sign)
{
	struct paired p;
	double lo, hi;

	paired_summary(d, n, &p);
	paired_ci(&p, a, &lo, &hi);
	*sign = !isfinite(lo) && paired_sign(d, n, share, &lo, &hi);
	if (*sign ? hi < 0 || lo > 0 : paired_p(&p) <= a)
		return p.mean < 0 ? -1 : 1;
	return 0;
}

static double diff(gsl_rng *r, int kind)
{
	switch (kind) {
	case 0: /* continuous */
		return gsl_ran_gaussian(r, 0.14);
	case 1: /* +-c at even odds: no ties, the sign rule's worst case */
		return gsl_rng_uniform(r) < 0.5 ? -0.05 : 0.05;
	case 2: /* a metric of about 10 rounded to whole units, noise 0.6 */
		return log(round(10 + gsl_ran_gaussian(r, 0.6))) - log(round(10 + gsl_ran_gaussian(r, 0.6)));
	default: /* the same, noise 0.3: mostly ties, runs of equal differences */
		return log(round(10 + gsl_ran_gaussian(r, 0.3))) - log(round(10 + gsl_ran_gaussian(r, 0.3)));
	}
}

int main(int argc, char **argv)
{
	static const char *const name[] = { "normal (sd 0.14)", "coin flips (+-0.05)", "rounded, noise 0.6",
					    "rounded, noise 0.3" };
	long paths = argc > 1 ? atol(argv[1]) : 200000;
	int nfin, kind;

	printf("| null | finalists (share) | sequences | any decided change | by the sign rule | sign rule's "
	       "bound |\n|---|---|---|---|---|---|\n");
	for (nfin = 1; nfin <= 2; nfin++) {
		double share = 0.05 / nfin, c[5], a[5];
		seq_bounds(seq_t_alpha(share), five, 5, c);
		for (int k = 0; k < 5; k++)
			a[k] = seq_nominal(c[k]);
		for (kind = 0; kind < 4; kind++) {
			gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
			long s, rej = 0, by_sign = 0;
			double d[25];

			gsl_rng_set(r, 1000 * nfin + kind);
			for (s = 0; s < paths; s++) {
				for (int i = 0; i < 25; i++)
					d[i] = diff(r, kind);
				for (int k = 0; k < 5; k++) {
					bool sign;
					if (look(d, 5 * (k + 1), a[k], share, &sign)) {
						rej++;
						by_sign += sign;
						break;
					}
				}
			}
			printf("| %s | %d (%.3f) | %ld | %.4f ± %.4f | %.2g | %.2g |\n", name[kind], nfin, share, paths,
			       (double)rej / paths, sqrt(share * (1 - share) / paths), (double)by_sign / paths,
			       seq_sign_spent(share));
			gsl_rng_free(r);
		}
	}
	for (nfin = 1; nfin <= 8; nfin *= 2) {
		double share = 0.05 / nfin, c[5], d[25];
		int k;
		bool sign = false;

		seq_bounds(seq_t_alpha(share), five, 5, c);
		for (int i = 0; i < 25; i++)
			d[i] = 0.0465;
		for (k = 0; k < 5 && !look(d, 5 * (k + 1), seq_nominal(c[k]), share, &sign); k++)
			;
		printf("\n%d finalist(s): the sign rule needs %d pairs (spends %.3g of %.4f); a constant difference is "
		       "decided at round %d%s",
		       nfin, seq_sign_pairs(share), seq_sign_spent(share), share, 5 * (k + 1),
		       sign ? " by the sign rule" : "");
	}
	printf("\n");
	return 0;
}
