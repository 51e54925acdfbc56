/* search-confirm.c - the finalists against the original settings: alternating
 * rounds, Welch's interval on the log cost, extra rounds for an undecided
 * finalist with the level tightened per look. Nothing is recommended that was
 * not shown to be real. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search-int.h"
#include "vmtune.h"

static void welch(const double *a, int na, const double *b, int nb, double alpha, double *diff, double *lo, double *hi)
{
	double ma = gsl_stats_mean(a, 1, (size_t)na), mb = gsl_stats_mean(b, 1, (size_t)nb);
	double va = na > 1 ? gsl_stats_variance_m(a, 1, (size_t)na, ma) : 0;
	double vb = nb > 1 ? gsl_stats_variance_m(b, 1, (size_t)nb, mb) : 0;
	double se2 = va / na + vb / nb, df, t;

	*diff = ma - mb;
	if (se2 <= 0 || na < 2 || nb < 2) {
		*lo = *hi = *diff;
		if (na < 2 || nb < 2)
			*lo = -HUGE_VAL, *hi = HUGE_VAL;
		return;
	}
	df = se2 * se2 / ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
	t = gsl_cdf_tdist_Qinv(alpha / 2, df);
	*lo = *diff - t * sqrt(se2);
	*hi = *diff + t * sqrt(se2);
}

/* Per observation, its mix cost relative to the mean of the confirmation
 * baselines: the same yardstick for baseline and candidate runs. */
static double confirm_value(const struct search *S, const struct obs *ob, const double *base_mean,
			    const double *base_inter)
{
	double t, i;

	return log(obs_cost(S, ob, base_mean, base_inter, &t, &i));
}

/* Welch on the confirmation runs since obs index first: the finalists' cost
 * against the original's, as measured in the same rounds. The 95% interval is
 * reported; with more than one look at the data (extra rounds), a finalist is
 * significant only if the interval at 1 - 0.05/looks excludes no change, so that
 * looking again until something shows does not buy a false positive. */
static int confirm_analyse(struct search *S, int first, const int *fin, int nfin, int looks, struct confirm *c, int *nc)
{
	int i, j, w;
	double base_mean[SEARCH_MAX_WORKLOADS] = { 0 }, base_inter[SEARCH_MAX_WORKLOADS] = { 0 }, a[64], b[64];
	int nb = 0;

	*nc = 0;
	S->looks = looks;
	for (j = first; j < S->nobs; j++) {
		if (S->obs[j].kind != TK_CONFIRM_BASELINE || S->obs[j].failed)
			continue;
		for (w = 0; w < S->o->nwl; w++) {
			base_mean[w] += S->obs[j].metric[w];
			base_inter[w] += S->obs[j].inter[w];
		}
		nb++;
	}
	if (nb == 0)
		return error("every confirmation run of the original settings failed");
	for (w = 0; w < S->o->nwl; w++) {
		base_mean[w] /= nb;
		base_inter[w] /= nb;
	}
	memcpy(S->confirm_base, base_mean, sizeof(base_mean));
	memcpy(S->confirm_base_inter, base_inter, sizeof(base_inter));
	nb = 0;
	for (j = first; j < S->nobs; j++)
		if (S->obs[j].kind == TK_CONFIRM_BASELINE && !S->obs[j].failed && nb < 64)
			b[nb++] = confirm_value(S, &S->obs[j], base_mean, base_inter);
	for (i = 0; i < nfin; i++) {
		struct confirm *ci = &c[(*nc)++];
		double diff, lo, hi, msum = 0;
		int na = 0, failed = 0;

		memset(ci, 0, sizeof(*ci));
		ci->point = fin[i];
		for (j = first; j < S->nobs; j++) {
			if (S->obs[j].kind != TK_CONFIRM || S->obs[j].point != fin[i])
				continue;
			if (S->obs[j].failed) {
				failed++;
				continue;
			}
			if (na < 64) {
				a[na++] = confirm_value(S, &S->obs[j], base_mean, base_inter);
				msum += S->obs[j].metric[0];
			}
		}
		ci->base_metric = base_mean[0];
		ci->cand_metric = na ? msum / na : NAN;
		if (failed || na < 2) {
			ci->change_pct = NAN;
			ci->ci_lo = ci->ci_hi = NAN;
			continue; /* a finalist that fails is no recommendation */
		}
		welch(a, na, b, nb, 0.05, &diff, &lo, &hi);
		ci->change_pct = 100 * (exp(diff) - 1);
		ci->ci_lo = 100 * (exp(lo) - 1);
		ci->ci_hi = 100 * (exp(hi) - 1);
		if (looks > 1)
			welch(a, na, b, nb, 0.05 / looks, &diff, &lo, &hi);
		ci->significant = hi < 0;
	}
	return 0;
}

int confirm(struct search *S, struct confirm *c, int *nc)
{
	int fin[8], nfin = 0, i, j, r, rounds = S->o->confirm_rounds, max_rounds = 3 * S->o->confirm_rounds;
	int first = S->nobs;

	/* finalists: the best candidates by mean score that beat the original */
	for (i = 1; i < S->npoints; i++) {
		if (!S->points[i].nobs || S->points[i].mean_log >= 0)
			continue;
		/* insert into fin[] kept sorted by mean score, at most finalists long */
		for (j = nfin; j > 0 && S->points[fin[j - 1]].mean_log > S->points[i].mean_log; j--)
			if (j < S->o->finalists)
				fin[j] = fin[j - 1];
		if (j < S->o->finalists) {
			fin[j] = i;
			if (nfin < S->o->finalists)
				nfin++;
		}
	}
	*nc = 0;
	if (nfin == 0)
		return 0;
	info("confirming %d finalist(s): %d rounds of the original settings and each finalist", nfin,
	     S->o->confirm_rounds);
	for (r = 0;; r++) {
		bool undecided = false;
		double per = S->runs ? S->run_time_sum / S->runs : 0;

		if (measure(S, 0, TK_CONFIRM_BASELINE) < 0)
			return -1;
		for (i = 0; i < nfin && !vt_interrupted; i++)
			if (measure(S, fin[i], TK_CONFIRM) < 0)
				return -1;
		if (vt_interrupted)
			return -1;
		if (r + 1 < rounds)
			continue;
		if (confirm_analyse(S, first, fin, nfin, rounds - S->o->confirm_rounds + 1, c, nc) < 0)
			return -1;
		/* a finalist that looks better but is not shown to be yet gets another
		 * round, while the budget allows (three times the rounds at most) */
		for (i = 0; i < *nc; i++)
			undecided |= isfinite(c[i].change_pct) && c[i].change_pct < 0 && !c[i].significant;
		if (!undecided || r + 1 >= max_rounds ||
		    (S->o->time_budget > 0 && vt_now() - S->t0 + per * S->o->nwl * (1 + nfin) > S->o->time_budget))
			return 0;
		rounds++;
		info("a finalist looks better but is not yet shown to be: round %d of at most %d", rounds, max_rounds);
	}
}
