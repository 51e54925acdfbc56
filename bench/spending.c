/* spending.c - the confirmation's design under several alpha-spending functions, on
 * simulated paired differences whose answer is known: normal, mean delta paired
 * standard deviations, a look every LOOK pairs up to MAX (5 and 25 by default, as
 * vmtune search), each finalist's share of alpha (0.025: two finalists), the paired t
 * test at each look's nominal level (seqtest.c, the code vmtune runs). For each
 * spending: the nominal level of each look, then for each delta the rate of
 * rejection (under delta = 0 the false rate, else the power) and the mean number of
 * pairs. All spendings see the same paths (one seed). Usage: spending PATHS */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "seqtest.h"

#define LOOK 5
#define MAX 25
#define K (MAX / LOOK)
#define ALPHA 0.025

static double gamma_now;
static double hsd(double alpha, double t)
{
	return seq_spent_hsd(alpha, gamma_now, t);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		double gamma; /* NAN: O'Brien-Fleming */
	} spend[] = {
		{ "O'Brien-Fleming (Lan-DeMets)", NAN },
		{ "Hwang-Shih-DeCani gamma = -4 (vmtune's)", -4 },
		{ "Hwang-Shih-DeCani gamma = -3", -3 },
		{ "Hwang-Shih-DeCani gamma = -2", -2 },
		{ "linear (gamma = 0)", 0 },
		{ "Hwang-Shih-DeCani gamma = 1 (Pocock-like)", 1 },
	};
	static const double delta[] = { 0, 0.3, 0.5, 0.6, 0.7, 0.8, 1, 1.5, 2.5, 4, 6 };
	const int nd = sizeof(delta) / sizeof(delta[0]);
	long paths = argc > 1 ? atol(argv[1]) : 100000;
	double t[K], c[K];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned i;
	int k, j;

	if (paths < 100) {
		fprintf(stderr, "spending: PATHS must be 100 or more\n");
		return 2;
	}
	for (k = 0; k < K; k++)
		t[k] = (double)(k + 1) / K;
	printf("%ld paths per cell, a look every %d pairs up to %d, alpha %.3f per finalist\n\n", paths, LOOK, MAX,
	       ALPHA);
	printf("| spending | nominal level at each look |");
	for (j = 0; j < nd; j++)
		printf(" %g sd |", delta[j]);
	printf("\n|---|---|");
	for (j = 0; j < nd; j++)
		printf("---|");
	printf("\n");
	for (i = 0; i < sizeof(spend) / sizeof(spend[0]); i++) {
		int rc;

		gamma_now = spend[i].gamma;
		rc = isnan(spend[i].gamma) ? seq_bounds_of(seq_spent_obf, ALPHA, t, K, c)
					   : seq_bounds_of(hsd, ALPHA, t, K, c);
		if (rc < 0)
			return 1;
		printf("| %s |", spend[i].name);
		for (k = 0; k < K; k++)
			printf(" %.2g", seq_nominal(c[k]));
		printf(" |");
		for (j = 0; j < nd; j++) {
			long p, rej = 0, pairs = 0;
			double d[MAX];

			gsl_rng_set(r, 1 + j); /* the same paths for every spending */
			for (p = 0; p < paths; p++) {
				int n;
				for (n = 0; n < MAX; n++)
					d[n] = delta[j] + gsl_ran_gaussian(r, 1);
				for (k = 0; k < K; k++) {
					struct paired ps;
					paired_summary(d, LOOK * (k + 1), &ps);
					if (paired_p(&ps) <= seq_nominal(c[k]))
						break;
				}
				rej += k < K;
				pairs += k < K ? LOOK * (k + 1) : MAX;
			}
			printf(" %.3f, %.1f |", (double)rej / paths, (double)pairs / paths);
		}
		printf("\n");
		fflush(stdout);
	}
	gsl_rng_free(r);
	return 0;
}
