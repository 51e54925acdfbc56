/* search-confirm.c - the finalists against the original settings. Each round
 * measures the original and then each undecided finalist; each finalist's evidence
 * is the paired differences of log cost against the original run of the same
 * round, so drift between rounds cancels. Every --confirm-rounds rounds the data
 * are looked at. The design: alpha = 0.05 shared equally among the finalists
 * (Bonferroni), each finalist's share spent over the looks up to
 * --confirm-max-rounds by Hwang-Shih-DeCani spending (gamma = -4), with the exact
 * group-sequential boundaries of that spending (seq_bounds). At a look a finalist
 * is decided better (or worse) when its paired test's p is under the look's
 * nominal level, shown not to gain --min-effect when its interval at that level
 * lies above -min-effect, or goes on to the next look while the budget allows.
 * Its interval is the repeated confidence interval at that level: decision and
 * interval say the same thing, and all intervals of all finalists at all looks
 * hold at once with at least 95%, so the recommended one's does whichever is
 * picked. Where a finalist's differences have no variance (the same every round)
 * the t-test has nothing to say; from enough pairs on, an exact sign rule given 1%
 * of the finalist's share decides instead, and the t boundaries are made for the
 * rest (seqtest.h). Nothing is recommended that was not shown to be real (seqtest.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search-int.h"
#include "seqtest.h"
#include "stats.h"
#include "vmtune.h"

#define CONFIRM_ALPHA SEARCH_ALPHA

/* Per observation, its mix cost relative to the mean of the confirmation
 * baselines: the same yardstick for baseline and candidate runs (in a paired
 * difference the yardstick cancels). */
double confirm_value(const struct search *S, const struct obs *ob)
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
		return error("every confirmation run of %s failed",
			     S->yardstick ? S->yardstick : "the original settings");
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

/* One look at the nominal level a (seq_nominal of this look's boundary): each
 * undecided finalist's test and interval at a. */
int confirm_look(struct search *S, int first, struct confirm *c, int nc, double a)
{
	static double d[CONFIRM_MAX_ROUNDS];
	double min_log = log(1 - S->o->min_effect);
	int i;

	if (confirm_yardstick(S, first) < 0)
		return -1;
	S->looks++;
	for (i = 0; i < nc; i++) {
		struct paired ps;
		double lo, hi;
		bool failed, sign;
		int n;

		if (c[i].decision != CD_UNDECIDED)
			continue;
		n = pairs_of(S, first, &c[i], d, CONFIRM_MAX_ROUNDS, &failed);
		paired_summary(d, n, &ps);
		c[i].pairs = ps.n;
		if (failed) {
			c[i].decision = CD_FAILED;
			c[i].change_pct = c[i].ci_lo = c[i].ci_hi = NAN;
			continue;
		}
		paired_ci(&ps, a, &lo, &hi);
		/* no variance, no t interval: the sign rule's, the common difference */
		sign = !isfinite(lo) && paired_sign(d, n, CONFIRM_ALPHA / nc, &lo, &hi);
		c[i].change_pct = log_change_pct(ps.mean);
		c[i].ci_lo = log_change_pct(lo);
		c[i].ci_hi = log_change_pct(hi);
		c[i].level = sign ? 1 - seq_sign_spent(CONFIRM_ALPHA / nc) : 1 - a;
		if (sign ? hi < 0 || lo > 0 : paired_p(&ps) <= a)
			c[i].decision = ps.mean < 0 ? CD_BETTER : CD_WORSE;
		else if (lo > min_log)
			c[i].decision = CD_SMALL; /* it cannot gain the least change worth having */
		c[i].significant = c[i].decision == CD_BETTER;
	}
	return 0;
}

/* Of the points among[0..nin) (every measured point when among is NULL), the n best
 * by their mean log cost that beat the original, best first, into out[]; returns
 * how many. */
static int best_of(const struct search *S, const int *among, int nin, int *out, int n)
{
	int k, j, m = 0, end = among ? nin : S->npoints;

	for (k = among ? 0 : 1; k < end; k++) {
		int i = among ? among[k] : k;
		if (!S->points[i].nobs || S->points[i].mean_log >= 0)
			continue;
		for (j = m; j > 0 && S->points[out[j - 1]].mean_log > S->points[i].mean_log; j--)
			if (j < n)
				out[j] = out[j - 1];
		if (j < n) {
			out[j] = i;
			if (m < n)
				m++;
		}
	}
	return m;
}

/* The n best points by their mean log cost that beat the original, best first,
 * into out[]; returns how many. (Ranking by the model's prediction instead was
 * tried: it favours the cluster the search sampled most, and found the true best
 * less often on bench/confirm.sh's workload.) */
int confirm_best_points(const struct search *S, int *out, int n)
{
	return best_of(S, NULL, 0, out, n);
}

/* The race before the confirmation: the best few candidates (race_size: three per
 * finalist) are measured again, --race-rounds rounds each after a run of the
 * original, and the finalists are the best of them on all their runs: picked on
 * three runs each (by default) rather than on one lucky draw among thirty. (Ranking
 * every point again after the race let a point that was never raced, its one lucky
 * run now ahead of the raced ones' sobered means, through as a finalist: 17 of 80
 * finalists at 15% noise on bench/peers.sh's surface.) These runs choose; the
 * confirmation's evidence is its own fresh runs, so the choice spends none of its
 * alpha. The contenders go to cont[] and their count to *n; 0 when there was no race
 * (too few to choose between, or --race-rounds 0). */
static int race(struct search *S, int *cont, int *n)
{
	int r, i, nc;

	*n = 0;
	if (S->o->race_rounds <= 0 || S->o->finalists <= 0)
		return 0;
	nc = confirm_best_points(S, cont, race_size(S->o));
	if (nc <= S->o->finalists)
		return 0; /* nothing to choose between */
	*n = nc;
	search_say(S, "racing the %d best candidates for %d finalist(s): %d more run(s) each", nc, S->o->finalists,
		   S->o->race_rounds);
	for (r = 0; r < S->o->race_rounds && !vt_interrupted; r++) {
		if (measure(S, 0, TK_BASELINE) < 0)
			return -1;
		search_progress(S, &S->obs[S->nobs - 1], "baseline");
		for (i = 0; i < nc && !vt_interrupted; i++) {
			if (measure(S, cont[i], TK_REPEAT) < 0)
				return -1;
			search_progress(S, &S->obs[S->nobs - 1], "race");
		}
	}
	if (vt_interrupted)
		return -1;
	/* the last race runs have a baseline before them; one after pins them down */
	if (measure(S, 0, TK_BASELINE) < 0)
		return -1;
	search_progress(S, &S->obs[S->nobs - 1], "baseline");
	return 0;
}

/* The rounds of a confirmation: each round the original, then every undecided one
 * of fin[0..nfin), a look every --confirm-rounds rounds at the boundaries of alpha
 * shared equally among them, until all are decided, r_max rounds, or the budget.
 * Then each one's guards against the original over the same rounds. */
static int confirm_rounds(struct search *S, const int *fin, int nfin, double alpha, int r_max, struct confirm *c)
{
	int i, r, k = 0, K = 0, first = S->nobs; /* the evidence: its own runs from here */
	int per_look = S->o->confirm_rounds;
	double t[CONFIRM_MAX_ROUNDS] = { 0 }, bound[CONFIRM_MAX_ROUNDS];

	for (i = 0; i < nfin; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].point = fin[i];
		c[i].decision = CD_UNDECIDED;
		c[i].change_pct = c[i].ci_lo = c[i].ci_hi = NAN;
	}
	/* the looks' schedule, and the boundaries of each one's share of alpha (less what
	 * the sign rule may spend of it) */
	for (r = 1; r <= r_max; r++)
		if (r % per_look == 0 || r == r_max)
			t[K++] = (double)r / r_max;
	if (seq_bounds(seq_t_alpha(alpha / nfin), t, K, bound) < 0)
		return error("confirmation: no looks to make (%d rounds, a look every %d)", r_max, per_look);
	for (r = 1; r <= r_max; r++) {
		double per = S->runs ? S->run_time_sum / S->runs : 0;
		int undecided = 0;
		double walk = 0;

		crashpoint("confirm-round");
		if (measure(S, 0, TK_CONFIRM_BASELINE) < 0)
			return -1;
		search_progress(S, &S->obs[S->nobs - 1], "confirm");
		for (i = 0; i < nfin && !vt_interrupted; i++)
			if (c[i].decision == CD_UNDECIDED) {
				if (measure(S, fin[i], TK_CONFIRM) < 0)
					return -1;
				search_progress(S, &S->obs[S->nobs - 1], "confirm");
			}
		if (vt_interrupted)
			return -1;
		if (r % per_look && r < r_max)
			continue;
		if (confirm_look(S, first, c, nfin, seq_nominal(bound[k++])) < 0)
			return -1;
		for (i = 0; i < nfin; i++)
			if (c[i].decision == CD_UNDECIDED) {
				undecided++;
				if (S->walk_ahead && ablate_groups(S, S->points[fin[i]].vals, NULL) > 1)
					walk = ablate_reserve(S);
			}
		if (!undecided)
			break;
		/* the budget: the next look's rounds must fit, and after them the walk back's
		 * share (ablate_reserve), or this look is the last */
		if (S->o->time_budget > 0 &&
		    vt_now() - S->t0 + per * S->o->nwl * (1 + undecided) * per_look + walk > S->o->time_budget) {
			search_say(S, "confirmation: the time budget ends it at round %d of at most %d", r, r_max);
			break;
		}
		if (r < r_max)
			search_say(S, "look %d at round %d: %d not yet decided; going on", S->looks, r, undecided);
	}
	for (i = 0; i < nfin; i++)
		c[i].guard_broken =
		    guard_moves(S, first, c[i].point, TK_CONFIRM_BASELINE, TK_CONFIRM, c[i].guards) && c[i].significant;
	return 0;
}

int confirm(struct search *S, struct confirm *c, int *nc)
{
	int fin[8], nfin = 0, cont[RACE_MAX], ncont, rc;

	/* the race, then the finalists: the best that beat the original, on the
	 * search's and the race's runs */
	if (race(S, cont, &ncont) < 0)
		return -1;
	nfin = ncont ? best_of(S, cont, ncont, fin, S->o->finalists) : confirm_best_points(S, fin, S->o->finalists);
	*nc = nfin;
	S->looks = 0;
	if (nfin == 0)
		return 0;
	search_say(
	    S,
	    "confirming %d finalist(s) against the original settings: a look every %d rounds, at most %d rounds, "
	    "smallest change worth having %.0f%%",
	    nfin, S->o->confirm_rounds, S->o->confirm_max_rounds, 100 * S->o->min_effect);
	S->walk_ahead = true;
	rc = confirm_rounds(S, fin, nfin, CONFIRM_ALPHA, S->o->confirm_max_rounds, c);
	S->walk_ahead = false;
	return rc;
}

int confirm_one_rounds(const struct search *S)
{
	double per = S->runs ? S->run_time_sum / S->runs : 0, left;
	int per_look = S->o->confirm_rounds, r_max = S->o->confirm_max_rounds, fit;

	if (S->o->time_budget <= 0 || per <= 0)
		return r_max;
	/* the rounds (two runs each) the time left holds, whole looks of them, at least one */
	left = S->o->time_budget - (vt_now() - S->t0);
	fit = (int)(left / (2 * per * S->o->nwl)) / per_look * per_look;
	if (fit < per_look)
		fit = per_look;
	return fit < r_max ? fit : r_max;
}

int confirm_one(struct search *S, int point, double alpha, int r_max, struct confirm *c)
{
	int looks = S->looks, rc;

	rc = confirm_rounds(S, &point, 1, alpha, r_max, c);
	S->looks = looks; /* the report's looks are the finalists' */
	return rc;
}
