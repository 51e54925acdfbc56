/* coverage.c - how often run's reported interval covers the truth, on simulated runs
 * whose answer is known: normal (mean 10, sd 1), log-normal (sd of log 0.3) and two
 * clusters (70% near 0.68 s, 30% near 1.07 s; median 0.68566). The truth is the mean
 * for a Student t interval and the median for a rank interval. Two tables: a fixed
 * number of runs at 95%, and --precision's rule (a run at a time from 3, stop when the
 * half-width is within P of the centre, or at 30) at 95% and at PRECISION_LEVEL per
 * look. Built and run by bench/coverage.sh. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static const char *names[] = { "normal", "log-normal", "two clusters" };

static double draw(gsl_rng *r, int kind)
{
	if (kind == 0)
		return 10 + gsl_ran_gaussian(r, 1);
	if (kind == 1)
		return exp(gsl_ran_gaussian(r, 0.3));
	return gsl_rng_uniform(r) < 0.7 ? 0.68 + gsl_ran_gaussian(r, 0.01) : 1.07 + gsl_ran_gaussian(r, 0.02);
}

static double truth(int kind, const struct summary *s)
{
	if (kind == 0)
		return 10;
	if (kind == 1)
		return s->method == CI_T ? exp(0.045) : 1;
	return 0.68566;
}

int main(int argc, char **argv)
{
	int seqs = argc > 1 ? atoi(argv[1]) : 20000, kind, i, s;
	const int ns[] = { 3, 5, 8, 12, 20, 30 };
	const double ps[] = { 0.10, 0.05, 0.03 }, levels[] = { 0.95, PRECISION_LEVEL };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 20261203);
	printf("Fixed runs, 95%%: coverage (share of samples with no interval) over %d samples each\n\n", seqs);
	printf("| runs |");
	for (kind = 0; kind < 3; kind++)
		printf(" %s |", names[kind]);
	printf("\n|---|---|---|---|\n");
	for (i = 0; i < 6; i++) {
		printf("| %d |", ns[i]);
		for (kind = 0; kind < 3; kind++) {
			int cover = 0, none = 0;
			for (s = 0; s < seqs; s++) {
				double x[30];
				struct summary sm;
				for (int k = 0; k < ns[i]; k++)
					x[k] = draw(r, kind);
				summarize_robust(x, ns[i], &sm);
				if (sm.method == CI_NONE) {
					none++;
					continue;
				}
				cover += sm.lo <= truth(kind, &sm) && truth(kind, &sm) <= sm.hi;
			}
			printf(" %.3f", none < seqs ? (double)cover / (seqs - none) : NAN);
			if (none)
				printf(" (%.0f%% none)", 100.0 * none / seqs);
			printf(" |");
		}
		printf("\n");
	}
	printf("\n--precision P (from 3 runs, at most 30): coverage where the runs stopped, share that reached P, "
	       "mean runs; %d sequences each\n\n",
	       seqs / 5);
	printf("| level per look | P | normal | log-normal | two clusters |\n|---|---|---|---|---|\n");
	for (int l = 0; l < 2; l++)
		for (i = 0; i < 3; i++) {
			printf("| %.1f%% | %.0f%% |", 100 * levels[l], 100 * ps[i]);
			for (kind = 0; kind < 3; kind++) {
				int cover = 0, reached = 0;
				double nsum = 0;
				for (s = 0; s < seqs / 5; s++) {
					double x[30];
					struct summary sm;
					int n = 0, ok = 0;
					while (n < 30) {
						x[n++] = draw(r, kind);
						if (n < 3)
							continue;
						summarize_robust_at(x, n, levels[l], &sm);
						if (summary_rel_halfwidth(&sm) <= ps[i]) {
							ok = 1;
							break;
						}
					}
					cover += sm.lo <= truth(kind, &sm) && truth(kind, &sm) <= sm.hi;
					reached += ok;
					nsum += n;
				}
				printf(" %.3f (%.0f%%, %.1f) |", (double)cover / (seqs / 5),
				       100.0 * reached / (seqs / 5), nsum / (seqs / 5));
			}
			printf("\n");
		}
	gsl_rng_free(r);
	return 0;
}
