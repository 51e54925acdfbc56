/* search-ablate.c - the smallest change that keeps the gain. The confirmed setting
 * changes some knobs; most of them may ride along with the one that made the gain.
 * This walks them back to their original values, an ablation path in the manner
 * of Fawcett and Hoos (2016) ordered by the search's own model as Biedenkapp et al.
 * (2017) do with a surrogate: the groups of knobs the setting changes (knobs that
 * move together, catalogue.h's `together`, are one group) are put back least useful
 * first, by the model's predicted cost of putting each back. The groups the model
 * expects to cost under half the smallest change worth having (its mean prediction)
 * go back together in one step first (when that is shown to cost, they are tried
 * one at a time after); then each other group, never the last one left unless one
 * before it was kept. Each step measures the setting so far against it with the
 * step's knobs put back, in paired rounds (the one, then the other), looked at every
 * three rounds (or --confirm-rounds, if fewer) up to --ablate-rounds, with one-sided
 * Hwang-Shih-DeCani boundaries at 5% shared equally among the steps the walk can
 * take (Bonferroni over at most one step per group and the bulk step): a group stays
 * changed only when putting it back is shown to cost, so that with 95% confidence no
 * knob stays in for a cost that is not there. Putting back is the default and needs
 * no such proof: a step stops early, and its knobs go back, once an 80% interval of
 * the cost lies under --min-effect (or under no change); with nothing shown in the
 * step's rounds they go back too.
 *
 * The smallest change is then confirmed against the original settings on fresh
 * rounds, with the confirmation's design at the whole 5% (with --time, planned for the
 * looks the time left holds: confirm_one_rounds): it is tested only after a
 * finalist was shown better, so the two tests form a fixed sequence (each at 5%, the
 * second only if the first rejects), and the chance that the recommended setting
 * does not beat the original stays at most 5% over both. If it is not shown
 * better, or breaks a guard, the confirmed setting is recommended whole and the
 * report says why. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "knob.h"
#include "search-int.h"
#include "text.h"
#include "seqtest.h"
#include "stats.h"
#include "vmtune.h"

#define ABLATE_ALPHA SEARCH_ALPHA

static int popcount(unsigned long x)
{
	return __builtin_popcountl(x);
}

static void put_back(const struct search *S, const long *from, unsigned long dims, long *out)
{
	for (int i = 0; i < S->sp.d; i++)
		out[i] = dims & (1UL << i) ? S->sp.dim[i].original : from[i];
}

int ablate_min_runs(const struct search *S)
{
	int per_look = S->o->confirm_rounds < 3 ? S->o->confirm_rounds : 3;

	if (S->o->ablate_rounds <= 0 || S->sp.d < 2)
		return 0;
	if (per_look > S->o->ablate_rounds)
		per_look = S->o->ablate_rounds;
	/* a step's first look (per_look rounds of two runs) and the first look of the
	 * smallest change's confirmation (--confirm-rounds rounds of two) */
	return 2 * per_look + 2 * S->o->confirm_rounds;
}

double ablate_reserve(const struct search *S)
{
	double per = S->runs ? S->run_time_sum / S->runs : 0;

	if (S->o->time_budget <= 0 || ablate_min_runs(S) == 0)
		return 0;
	return fmax(per * S->o->nwl * ablate_min_runs(S), ABLATE_BUDGET_SHARE * S->o->time_budget);
}

/* Enough time left for one more look of a step and the first look of the final
 * confirmation? */
static bool time_for_step(const struct search *S)
{
	double per = S->runs ? S->run_time_sum / S->runs : 0;

	return S->o->time_budget <= 0 || vt_now() - S->t0 + per * S->o->nwl * ablate_min_runs(S) <= S->o->time_budget;
}

/* One step: the setting so far (cur) against it with dims put back. */
static int step(struct search *S, struct ablation *A, const long *cur, unsigned long dims, double predicted)
{
	static double d[CONFIRM_MAX_ROUNDS];
	struct ablate_step *st = &A->step[A->nsteps];
	long vals[SPACE_MAX];
	double t[CONFIRM_MAX_ROUNDS], bound[CONFIRM_MAX_ROUNDS], min_log = log(1 + S->o->min_effect);
	int R = S->o->ablate_rounds, per_look = S->o->confirm_rounds < 3 ? S->o->confirm_rounds : 3, K = 0, k = 0, r,
	    n = 0;

	memset(st, 0, sizeof(*st));
	st->dims = dims;
	st->predicted_pct = isfinite(predicted) ? log_change_pct(predicted) : NAN;
	st->cost_pct = st->lo = st->hi = NAN;
	st->outcome = AB_UNSHOWN;
	put_back(S, cur, dims, vals);
	if ((st->ref = add_point(S, cur)) < 0 || (st->cand = add_point(S, vals)) < 0)
		return error("too many distinct settings in one search");
	A->nsteps++;
	if (per_look > R)
		per_look = R;
	for (r = 1; r <= R; r++)
		if (r % per_look == 0 || r == R)
			t[K++] = (double)r / R;
	/* one-sided: only "putting it back costs" is a claim (a knob kept); the two-sided
	 * boundaries of twice the step's alpha cross upwards with the step's alpha */
	if (seq_bounds(seq_t_alpha(2 * A->step_alpha), t, K, bound) < 0)
		return error("ablation: no looks to make (%d rounds, a look every %d)", R, per_look);
	for (r = 1; r <= R; r++) {
		struct paired ps;
		double lo, hi, a;
		int ref_obs, cand_obs;

		if (measure(S, st->ref, TK_ABLATE) < 0)
			return -1;
		ref_obs = S->nobs - 1;
		search_progress(S, &S->obs[ref_obs], "ablate");
		if (vt_interrupted || measure(S, st->cand, TK_ABLATE) < 0)
			return -1;
		cand_obs = S->nobs - 1;
		search_progress(S, &S->obs[cand_obs], "ablate");
		if (S->obs[cand_obs].failed) {
			st->outcome = AB_FAILED; /* the knobs put back break the workload: they stay */
			break;
		}
		if (!S->obs[ref_obs].failed)
			d[n++] = confirm_value(S, &S->obs[cand_obs]) - confirm_value(S, &S->obs[ref_obs]);
		if (r % per_look && r < R)
			continue;
		a = seq_nominal(bound[k++]);
		paired_summary(d, n, &ps);
		paired_ci(&ps, a, &lo, &hi);
		st->pairs = ps.n;
		st->level = 1 - a;
		st->cost_pct = log_change_pct(ps.mean);
		st->lo = log_change_pct(lo);
		st->hi = log_change_pct(hi);
		if (!isfinite(lo)) {
			/* no variance: the exact sign rule (seqtest.h) with its share of the step's alpha */
			double slo, shi;
			if (paired_sign(d, n, 2 * A->step_alpha, &slo, &shi) && (slo > 0 || shi < min_log)) {
				st->outcome = slo > 0 ? AB_KEPT : AB_SMALL;
				st->level = 1 - seq_sign_spent(2 * A->step_alpha) / 2;
				st->lo = log_change_pct(slo);
				st->hi = log_change_pct(shi);
				break;
			}
		}
		if (paired_p(&ps) <= a && ps.mean > 0) {
			st->outcome = AB_KEPT;
			break;
		}
		/* putting it back is the default: an 80% interval under the smallest change
		 * worth having is enough to stop measuring (a cost that is not ruled out is
		 * kept only by the claim above) */
		paired_ci(&ps, 0.2, &lo, &hi);
		if (ps.n >= 2 && hi < min_log) {
			/* the interval that decided it, not the look's boundary level (which,
			 * at a first look of a step at a fraction of 5%, spans the whole range) */
			st->outcome = hi < 0 ? AB_GAINS : AB_SMALL;
			st->level = 0.8;
			st->lo = log_change_pct(lo);
			st->hi = log_change_pct(hi);
			break;
		}
		/* the budget ends the step undecided: its knobs stay (untested, like a step
		 * the walk never reached), since putting back what may carry part of the gain
		 * would leave the smallest change's confirmation to fail on too few rounds */
		if (r < R && !time_for_step(S)) {
			st->outcome = AB_CUT;
			break;
		}
	}
	return 0;
}

static bool stays(enum ablate_outcome o)
{
	return o == AB_KEPT || o == AB_FAILED || o == AB_STOPPED || o == AB_CUT;
}

int ablate_groups(const struct search *S, const long *vals, unsigned long *grp)
{
	unsigned long own[SPACE_MAX];
	int ng = 0, g;

	if (!grp)
		grp = own;
	for (int i = 0; i < S->sp.d; i++) {
		const char *tw = S->sp.dim[i].def->together;
		if (vals[i] == S->sp.dim[i].original)
			continue;
		for (g = 0; g < ng; g++) {
			const char *gw = S->sp.dim[__builtin_ctzl(grp[g])].def->together;
			if (tw && gw && strcmp(tw, gw) == 0)
				break;
		}
		if (g == ng)
			grp[ng++] = 0;
		grp[g] |= 1UL << i;
	}
	return ng;
}

int ablate(struct search *S, const struct confirm *best, struct ablation *A, long *rec)
{
	unsigned long grp[SPACE_MAX], bulk = 0, left = 0;
	double pred[SPACE_MAX];
	int order[SPACE_MAX], ng = 0, i, j, g, nbulk = 0, r_final;
	long cur[SPACE_MAX];
	struct gp gp;
	bool have_gp;

	memset(A, 0, sizeof(*A));
	A->from = A->to = best->point;
	memcpy(rec, S->points[best->point].vals, sizeof(long) * (size_t)S->sp.d);
	memcpy(cur, rec, sizeof(cur));
	ng = ablate_groups(S, rec, grp);
	A->ngroups = ng;
	if (S->o->ablate_rounds <= 0 || ng < 2)
		return 0; /* one change: it is the whole gain */
	/* least useful first, by the model's predicted cost of putting each group back */
	have_gp = fit_model(S, &gp) == 0;
	{
		double x[SPACE_MAX + MACHINE_NFEAT], mu0, sd;
		if (have_gp) {
			model_x(S, rec, x);
			gp_predict(&gp, x, &mu0, &sd);
		}
		for (g = 0; g < ng; g++) {
			long v[SPACE_MAX];
			double mu;
			pred[g] = NAN;
			if (have_gp) {
				put_back(S, rec, grp[g], v);
				model_x(S, v, x);
				gp_predict(&gp, x, &mu, &sd);
				pred[g] = mu - mu0;
			}
			order[g] = g;
		}
	}
	if (have_gp)
		gp_free(&gp);
	for (i = 1; i < ng; i++) /* insertion sort, ties in knob order */
		for (j = i; j > 0 && isfinite(pred[order[j]]) &&
			    (!isfinite(pred[order[j - 1]]) || pred[order[j]] < pred[order[j - 1]]);
		     j--) {
			int tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	A->ran = true;
	for (i = 0; i < ng - 1; i++)
		if (isfinite(pred[order[i]]) && pred[order[i]] < log(1 + S->o->min_effect / 2)) {
			bulk |= grp[order[i]];
			nbulk++;
		}
	/* at most one single step per group (the last one left untested is the whole
	 * gain, but a group after one that was kept is tested too), and the bulk step */
	A->max_steps = ng + (nbulk >= 2);
	A->step_alpha = ABLATE_ALPHA / A->max_steps;
	search_say(S,
		   "walking back the %d change(s) of the confirmed setting, least useful first by the model: at most "
		   "%d step(s) of %d paired rounds, each at %.2g%%",
		   ng, A->max_steps, S->o->ablate_rounds, 100 * A->step_alpha);
	if (nbulk >= 2 && time_for_step(S)) {
		if (step(S, A, cur, bulk, NAN) < 0)
			return -1;
		if (!stays(A->step[A->nsteps - 1].outcome))
			put_back(S, cur, bulk, cur);
	}
	for (i = 0; i < ng; i++)
		if (cur[__builtin_ctzl(grp[order[i]])] != S->sp.dim[__builtin_ctzl(grp[order[i]])].original)
			left |= 1UL << i;
	for (i = 0; i < ng && popcount(left) > 1; i++) {
		struct ablate_step *st;
		if (!(left & (1UL << i)))
			continue;
		if (!time_for_step(S)) {
			st = &A->step[A->nsteps++];
			memset(st, 0, sizeof(*st));
			st->dims = grp[order[i]];
			st->outcome = AB_STOPPED;
			st->cost_pct = st->lo = st->hi = st->predicted_pct = NAN;
			continue;
		}
		if (step(S, A, cur, grp[order[i]], pred[order[i]]) < 0)
			return -1;
		if (!stays(A->step[A->nsteps - 1].outcome)) {
			put_back(S, cur, grp[order[i]], cur);
			left &= ~(1UL << i);
		}
	}
	A->to = add_point(S, cur);
	if (A->to < 0)
		return error("too many distinct settings in one search");
	if (A->to == A->from)
		return 0;
	r_final = confirm_one_rounds(S);
	search_say(
	    S, "confirming the smallest change (%d of %d knob group(s)) against the original settings: %s %d rounds",
	    popcount(left), ng, r_final < S->o->confirm_max_rounds ? "in the time left, at most" : "at most", r_final);
	A->final_tested = true;
	if (confirm_one(S, A->to, SEARCH_ALPHA, r_final, &A->final) < 0)
		return -1;
	A->final_holds = A->final.significant && !A->final.guard_broken;
	if (A->final_holds)
		memcpy(rec, cur, sizeof(long) * (size_t)S->sp.d);
	else
		snprintf(A->why, sizeof(A->why), "%s",
			 A->final.guard_broken ? "the smallest change breaks a guard"
			 : A->final.decision == CD_UNDECIDED
			     ? "the smallest change was not shown to beat the original settings before the budget ended"
			     : "the smallest change was not shown to beat the original settings");
	return 0;
}

enum ablate_share ablate_share(const struct ablation *A, int i, const struct confirm *claim, double *pct, double *lo,
			       double *hi)
{
	const struct ablate_step *st = ablate_step_of(A, i);
	bool walked_to = A->ran && A->final_tested && A->final_holds;

	*pct = *lo = *hi = NAN;
	if (st && st->outcome == AB_KEPT) {
		*pct = st->cost_pct;
		*lo = st->lo;
		*hi = st->hi;
		return SHARE_STEP;
	}
	if (st && (st->outcome == AB_STOPPED || st->outcome == AB_CUT))
		return SHARE_NOT_TESTED;
	/* the last change standing: putting it back is putting back the whole gain; so too
	 * for a single change, or a walk that kept every change */
	if (!st && claim && (A->ngroups == 1 || walked_to || (A->ran && A->to == A->from))) {
		*pct = 100 * (1 / (1 + claim->change_pct / 100) - 1);
		*lo = 100 * (1 / (1 + claim->ci_hi / 100) - 1);
		*hi = 100 * (1 / (1 + claim->ci_lo / 100) - 1);
		return SHARE_WHOLE;
	}
	/* the confirmed setting recommended whole after the walk: a knob the walk put back
	 * has what putting it back cost in its step, the smaller change unconfirmed */
	for (int k = A->nsteps - 1; k >= 0; k--)
		if (A->step[k].dims & (1UL << i)) {
			*pct = A->step[k].cost_pct;
			*lo = A->step[k].lo;
			*hi = A->step[k].hi;
			return isfinite(*pct) ? SHARE_PUT_BACK : SHARE_NONE;
		}
	return SHARE_NONE;
}

const struct ablate_step *ablate_step_of(const struct ablation *A, int i)
{
	for (int k = A->nsteps - 1; k >= 0; k--)
		if ((A->step[k].dims & (1UL << i)) && stays(A->step[k].outcome))
			return &A->step[k];
	return NULL;
}

static const char *outcome_name(enum ablate_outcome o)
{
	static const char *const names[] = {
		[AB_KEPT] = "kept",
		[AB_SMALL] = "put back: costs less than the smallest change",
		[AB_GAINS] = "put back: gains",
		[AB_UNSHOWN] = "put back: no cost shown",
		[AB_FAILED] = "kept: fails without it",
		[AB_STOPPED] = "kept: not tested (budget)",
		[AB_CUT] = "kept: the budget ended the step undecided",
	};
	return names[o];
}

/* In the result row: every step, the smallest change's confirmation, and per knob
 * the confirmed setting changed, its value, and what putting it back cost (the
 * share of the gain it carries: the step that kept it, or for the one group never
 * put back alone, the whole gain of the recommended setting). */
json_object *ablation_json(const struct search *S, const struct ablation *A, const long *rec,
			   const struct confirm *claim)
{
	json_object *o = json_object_new_object(), *steps = json_object_new_array(), *knobs = json_object_new_object();
	const long *from = S->points[A->from].vals;
	char v[64];

	json_object_object_add(o, "groups", json_object_new_int(A->ngroups));
	json_object_object_add(o, "steps_max", json_object_new_int(A->max_steps));
	json_object_object_add(o, "step_alpha", json_number(A->step_alpha));
	for (int k = 0; k < A->nsteps; k++) {
		const struct ablate_step *st = &A->step[k];
		json_object *x = json_object_new_object(), *kn = json_object_new_array();
		for (int i = 0; i < S->sp.d; i++)
			if (st->dims & (1UL << i))
				json_object_array_add(kn, json_object_new_string(S->sp.dim[i].def->name));
		json_object_object_add(x, "knobs", kn);
		json_object_object_add(x, "outcome", json_object_new_string(outcome_name(st->outcome)));
		json_object_object_add(x, "stays", json_object_new_boolean(stays(st->outcome)));
		json_object_object_add(x, "pairs", json_object_new_int(st->pairs));
		json_object_object_add(x, "cost_pct", json_number(st->cost_pct));
		json_object_object_add(x, "ci_pct_lo", json_number(st->lo));
		json_object_object_add(x, "ci_pct_hi", json_number(st->hi));
		json_object_object_add(x, "level", json_number(st->level));
		json_object_object_add(x, "predicted_pct", json_number(st->predicted_pct));
		json_object_array_add(steps, x);
	}
	json_object_object_add(o, "steps", steps);
	json_object_object_add(o, "final_tested", json_object_new_boolean(A->final_tested));
	json_object_object_add(o, "final_holds", json_object_new_boolean(A->final_holds));
	if (A->final_tested) {
		json_object *f = json_object_new_object();
		json_object_object_add(f, "change_pct", json_number(A->final.change_pct));
		json_object_object_add(f, "ci_pct_lo", json_number(A->final.ci_lo));
		json_object_object_add(f, "ci_pct_hi", json_number(A->final.ci_hi));
		json_object_object_add(f, "pairs", json_object_new_int(A->final.pairs));
		json_object_object_add(f, "significant", json_object_new_boolean(A->final.significant));
		json_object_object_add(o, "final", f);
	}
	if (A->why[0])
		json_object_object_add(o, "why", json_object_new_string(A->why));
	for (int i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		json_object *x;
		if (from[i] == dm->original)
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "confirmed",
				       json_object_new_string(knob_format_value(dm->def, from[i], v, sizeof(v))));
		json_object_object_add(x, "recommended",
				       json_object_new_string(knob_format_value(dm->def, rec[i], v, sizeof(v))));
		if (rec[i] != dm->original) {
			double pc, lo, hi;
			static const char *const how[] = {
				[SHARE_STEP] = "step",
				[SHARE_WHOLE] = "whole",
				[SHARE_PUT_BACK] = "its step put it back; the smaller change was not confirmed",
				[SHARE_NOT_TESTED] = "kept: not tested (budget)",
				[SHARE_NONE] = "-"
			};
			enum ablate_share k = ablate_share(A, i, claim, &pc, &lo, &hi);
			json_object_object_add(x, "share",
					       json_object_new_string(!A->ran && A->ngroups > 1
									  ? "not measured (--ablate-rounds 0)"
									  : how[k]));
			if (isfinite(pc)) {
				json_object_object_add(x, "share_pct", json_number(pc));
				json_object_object_add(x, "share_lo", json_number(lo));
				json_object_object_add(x, "share_hi", json_number(hi));
			}
		} else {
			for (int k = A->nsteps - 1; k >= 0; k--)
				if (A->step[k].dims & (1UL << i)) {
					json_object_object_add(
					    x, "share", json_object_new_string(outcome_name(A->step[k].outcome)));
					json_object_object_add(x, "share_pct", json_number(A->step[k].cost_pct));
					json_object_object_add(x, "share_lo", json_number(A->step[k].lo));
					json_object_object_add(x, "share_hi", json_number(A->step[k].hi));
					json_object_object_add(x, "share_level", json_number(A->step[k].level));
					break;
				}
		}
		json_object_object_add(knobs, dm->def->name, x);
	}
	json_object_object_add(o, "knobs", knobs);
	return o;
}
