/* search-confirm.c - the finalists against the original settings. Each round
 * measures the original and then each undecided finalist; each finalist's evidence
 * is the paired differences of log cost against the original run of the same
 * round, so drift between rounds cancels. Every --confirm-rounds rounds the data
 * are looked at: each look spends its share of alpha = 0.05 (Lan-DeMets O'Brien-
 * Fleming spending over --confirm-max-rounds), Holm's step-down shares it among
 * the finalists, and a finalist is decided better (or worse), or shown not to
 * gain --min-effect, or goes on to the next look while the budget allows.
 * The interval reported is the one at the level that decided, so it covers the
 * recommended finalist's change with at least 95% over all looks and finalists.
 * Nothing is recommended that was not shown to be real (seqtest.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search-int.h"
#include "seqtest.h"
#include "vmtune.h"

#define CONFIRM_ALPHA 0.05

/* Per observation, its mix cost relative to the mean of the confirmation
 * baselines: the same yardstick for baseline and candidate runs (in a paired
 * difference the yardstick cancels). */
static double confirm_value(const struct search *S, const struct obs *ob)
{
	double t, i;

	return log(obs_cost(S, ob, S->confirm_base, S->confirm_base_inter, &t, &i));
}

/* The mean of the confirmation baselines since obs index first, the yardstick
 * of the report's "ORIGINAL" column and of confirm_value. */
static int confirm_yardstick(struct search *S, int first)
{
	double base_mean[SEARCH_MAX_WORKLOADS] = { 0 }, base_inter[SEARCH_MAX_WORKLOADS] = { 0 };
	int j, w, nb = 0;

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
		S->confirm_base[w] = base_mean[w] / nb;
		S->confirm_base_inter[w] = base_inter[w] / nb;
	}
	return 0;
}

/* Finalist c's paired differences since obs index first: each of its runs
 * against the original's run of the same round. Returns the count; *failed is
 * set when one of its runs failed (a finalist that fails is no recommendation). */
static int pairs_of(struct search *S, int first, struct confirm *c, double *d, int max, bool *failed)
{
	int j, base = -1, n = 0;
	double msum = 0;

	*failed = false;
	for (j = first; j < S->nobs; j++) {
		const struct obs *ob = &S->obs[j];
		if (ob->kind == TK_CONFIRM_BASELINE) {
			base = ob->failed ? -1 : j;
			continue;
		}
		if (ob->kind != TK_CONFIRM || ob->point != c->point)
			continue;
		if (ob->failed) {
			*failed = true;
			continue;
		}
		if (base < 0 || n >= max)
			continue;
		d[n++] = confirm_value(S, ob) - confirm_value(S, &S->obs[base]);
		msum += ob->metric[0];
	}
	c->base_metric = S->confirm_base[0];
	c->cand_metric = n ? msum / n : NAN;
	return n;
}

static double pct(double logc)
{
	return 100 * (exp(logc) - 1);
}

/* One look at rounds r (the previous look at r_prev): alpha_k for this look, Holm
 * across the finalists, the intervals at the level that decides. */
static int look(struct search *S, int first, struct confirm *c, int nc, int r, int r_prev, int r_max)
{
	static double d[CONFIRM_MAX_ROUNDS];
	double p[8], a = seq_look_alpha(CONFIRM_ALPHA, r, r_prev, r_max), min_log = log(1 - S->o->min_effect);
	bool reject[8], failed[8];
	struct paired ps[8];
	int i;

	if (confirm_yardstick(S, first) < 0)
		return -1;
	S->looks++;
	for (i = 0; i < nc; i++) {
		int n = pairs_of(S, first, &c[i], d, CONFIRM_MAX_ROUNDS, &failed[i]);
		paired_summary(d, n, &ps[i]);
		p[i] = c[i].decision == CD_UNDECIDED && !failed[i] ? paired_p(&ps[i]) : 1;
	}
	holm(p, nc, a, reject);
	for (i = 0; i < nc; i++) {
		double lo, hi;

		if (c[i].decision != CD_UNDECIDED)
			continue;
		c[i].pairs = ps[i].n;
		if (failed[i]) {
			c[i].decision = CD_FAILED;
			c[i].change_pct = c[i].ci_lo = c[i].ci_hi = NAN;
			continue;
		}
		/* the interval at the Bonferroni share of this look's alpha: it holds
		 * for every finalist at once, over every look */
		paired_ci(&ps[i], a / nc, &lo, &hi);
		c[i].change_pct = pct(ps[i].mean);
		c[i].ci_lo = pct(lo);
		c[i].ci_hi = pct(hi);
		c[i].level = 1 - a / nc;
		if (reject[i])
			c[i].decision = ps[i].mean < 0 ? CD_BETTER : CD_WORSE;
		else if (lo > min_log)
			c[i].decision = CD_SMALL; /* it cannot gain the least change worth having */
		c[i].significant = c[i].decision == CD_BETTER;
	}
	return 0;
}

int confirm(struct search *S, struct confirm *c, int *nc)
{
	int fin[8], nfin = 0, i, j, r, r_prev = 0, first = S->nobs;
	int per_look = S->o->confirm_rounds, r_max = S->o->confirm_max_rounds;

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
	*nc = nfin;
	S->looks = 0;
	if (nfin == 0)
		return 0;
	for (i = 0; i < nfin; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].point = fin[i];
		c[i].decision = CD_UNDECIDED;
		c[i].change_pct = c[i].ci_lo = c[i].ci_hi = NAN;
	}
	search_say(
	    S,
	    "confirming %d finalist(s) against the original settings: a look every %d rounds, at most %d rounds, "
	    "smallest change worth having %.0f%%",
	    nfin, per_look, r_max, 100 * S->o->min_effect);
	for (r = 1; r <= r_max; r++) {
		double per = S->runs ? S->run_time_sum / S->runs : 0;
		int undecided = 0;

		if (measure(S, 0, TK_CONFIRM_BASELINE) < 0)
			return -1;
		for (i = 0; i < nfin && !vt_interrupted; i++)
			if (c[i].decision == CD_UNDECIDED && measure(S, fin[i], TK_CONFIRM) < 0)
				return -1;
		if (vt_interrupted)
			return -1;
		if (r % per_look && r < r_max)
			continue;
		if (look(S, first, c, nfin, r, r_prev, r_max) < 0)
			return -1;
		r_prev = r;
		for (i = 0; i < nfin; i++)
			undecided += c[i].decision == CD_UNDECIDED;
		if (!undecided)
			return 0;
		/* the budget: the next look's rounds must fit, or this look is the last */
		if (S->o->time_budget > 0 &&
		    vt_now() - S->t0 + per * S->o->nwl * (1 + undecided) * per_look > S->o->time_budget) {
			search_say(S, "confirmation: the time budget ends it at round %d of at most %d", r, r_max);
			return 0;
		}
		if (r < r_max)
			search_say(S, "look %d at round %d: %d finalist(s) not yet decided; going on", S->looks, r,
				   undecided);
	}
	return 0;
}
