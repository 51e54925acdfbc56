/* search-check.c - search --check-workload SPEC: the recommendation measured on a
 * second workload, one the search did not tune for, against the original settings,
 * before the profile is written. A recommendation that makes that workload worse is
 * refused: the profile keeps the original settings.
 *
 * The check is the confirmation's paired, sequential design (search-confirm.c) with
 * the roles turned round: its yardstick (point 0, measured first in every round) is
 * the recommended setting, and its one "finalist" (point 1) is the original settings,
 * so that each of the confirmation's decisions answers the check's question at the
 * full 95%:
 *   the original shown to cost less            -> the recommendation is WORSE: refused
 *   the original shown not to gain --min-effect -> NO WORSE than --min-effect: kept
 *   the original shown to cost more             -> the recommendation is BETTER: kept
 *   none of these within the rounds             -> UNDECIDED (not shown worse): kept,
 *                                                  and the output says so
 * A run that fails with the recommended setting refuses it too; one that fails with
 * the original settings leaves the check unmade (FAILED, said, not refused).
 *
 * Its error rates: the check can only take a recommendation away, never add one, so
 * the search's false-positive promise (a recommendation not shown better is never
 * made, at 5% over every look and finalist) is untouched by it. Its own 5% is that of
 * refusing a recommendation that does not in truth make the check workload worse, or
 * of saying "no worse than --min-effect" of one that is.
 *
 * The runs are not trial rows of the run (their workload is not the run's); the
 * check's result is kept in the run's result row ("check") and printed by report. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search-int.h"
#include "stats.h"
#include "text.h"
#include "vmtune.h"

static const char *const verdict_names[] = {
	[CHECK_NONE] = "none",
	[CHECK_WORSE] = "worse",
	[CHECK_NO_WORSE] = "no-worse",
	[CHECK_BETTER] = "better",
	[CHECK_UNDECIDED] = "undecided",
	[CHECK_REC_FAILED] = "failed-recommended",
	[CHECK_ORIG_FAILED] = "failed-original",
};

const char *check_verdict_name(enum check_verdict v)
{
	return v <= CHECK_ORIG_FAILED ? verdict_names[v] : "none";
}

bool check_refuses(enum check_verdict v)
{
	return v == CHECK_WORSE || v == CHECK_REC_FAILED;
}

/* The runs a check takes at least (its first look: two runs a round), as the plan
 * and the budget count them. */
int check_runs(const struct search_opts *o)
{
	return o->have_check ? 2 * o->confirm_rounds : 0;
}

/* % change of a cost ratio x (in %) seen the other way round: b/a for a/b */
static double flip(double pct)
{
	return isfinite(pct) ? 100 * (1 / (1 + pct / 100) - 1) : NAN;
}

int search_check(struct search *S, const long *rec, struct check_result *cr)
{
	static struct search_opts o2;
	static struct search C;
	struct confirm c;
	long orig[SPACE_MAX];
	int i, rc = 0, recfail = 0;

	memset(cr, 0, sizeof(*cr));
	cr->change_pct = cr->ci_lo = cr->ci_hi = NAN;
	snprintf(cr->spec, sizeof(cr->spec), "%s", S->o->check.spec);
	snprintf(cr->metric, sizeof(cr->metric), "%s", S->o->check.metric);
	/* the search's sandbox, budget and design; the check workload alone, no guards or
	 * requirements (they name the tuned workload's values), nothing stored as trials */
	o2 = *S->o;
	o2.wl[0] = S->o->check;
	o2.wl[0].weight = 1;
	o2.nwl = 1;
	o2.nguard = 0;
	o2.nrequire = 0;
	o2.objective = OBJ_THROUGHPUT;
	o2.have_check = false;
	o2.ablate_rounds = 0;
	memset(&C, 0, sizeof(C));
	C.o = &o2;
	C.obs = calloc(MAX_OBS, sizeof(*C.obs));
	C.points = calloc(MAX_POINTS, sizeof(*C.points));
	if (!C.obs || !C.points) {
		free(C.obs);
		free(C.points);
		return error("out of memory");
	}
	C.sp = S->sp;
	memcpy(C.cur, S->cur, sizeof(C.cur)); /* what the kernel has now */
	C.swap_dim = S->swap_dim;
	C.vary = S->vary;
	memcpy(C.swapfile, S->swapfile, sizeof(C.swapfile));
	C.t0 = S->t0;
	C.run_id = S->run_id;
	C.trials_done = S->trials_done;
	C.yardstick = "the recommended settings on the check workload";
	search_settle_setup(&C);
	for (i = 0; i < S->sp.d; i++)
		orig[i] = S->sp.dim[i].original;
	add_point(&C, rec);  /* point 0: the yardstick, measured first each round */
	add_point(&C, orig); /* point 1: the original settings, the one "finalist" */
	search_say(S,
		   "checking the recommendation on %s (%s, not tuned for) against the original settings: a look "
		   "every %d rounds, at most %d; it is refused if it makes that workload worse",
		   o2.wl[0].spec, o2.wl[0].metric, o2.confirm_rounds, o2.confirm_max_rounds);
	if (warm_up(&C) < 0 || confirm_one(&C, 1, SEARCH_ALPHA, o2.confirm_max_rounds, &c) < 0) {
		if (vt_interrupted)
			rc = -1;
		else {
			/* every run of the recommended setting failed: the yardstick is gone */
			for (i = 0; i < C.nobs; i++)
				recfail += C.obs[i].point == 0 && C.obs[i].failed;
			if (recfail) {
				cr->verdict = CHECK_REC_FAILED;
				snprintf(cr->why, sizeof(cr->why), "%s", C.fail_why);
			} else
				rc = -1;
		}
		goto out;
	}
	for (i = 0; i < C.nobs; i++)
		if (C.obs[i].point == 0 && C.obs[i].failed) {
			recfail++;
			if (!cr->why[0])
				snprintf(cr->why, sizeof(cr->why), "%s", C.fail_why);
		}
	cr->pairs = c.pairs;
	cr->level = c.level;
	/* c is the original's cost against the recommendation's: turned round */
	cr->change_pct = flip(c.change_pct);
	cr->ci_lo = flip(c.ci_hi);
	cr->ci_hi = flip(c.ci_lo);
	cr->base_metric = c.cand_metric; /* the original's runs */
	cr->rec_metric = c.base_metric;	 /* the recommendation's, the yardstick */
	if (recfail)
		cr->verdict = CHECK_REC_FAILED;
	else
		switch (c.decision) {
		case CD_BETTER:
			cr->verdict = CHECK_WORSE;
			break;
		case CD_SMALL:
			cr->verdict = CHECK_NO_WORSE;
			break;
		case CD_WORSE:
			cr->verdict = CHECK_BETTER;
			break;
		case CD_FAILED:
			cr->verdict = CHECK_ORIG_FAILED;
			snprintf(cr->why, sizeof(cr->why), "%s", C.fail_why);
			break;
		default:
			cr->verdict = CHECK_UNDECIDED;
		}
out:
	/* the kernel as the check left it is what the search's own state must say */
	memcpy(S->cur, C.cur, sizeof(S->cur));
	S->vary = C.vary;
	memcpy(S->swapfile, C.swapfile, sizeof(S->swapfile));
	free(C.obs);
	free(C.points);
	return rc;
}

void check_print(const struct check_result *cr, double min_effect)
{
	const char *what = "";

	if (cr->verdict == CHECK_NONE)
		return;
	switch (cr->verdict) {
	case CHECK_WORSE:
		what = "makes it worse: the recommendation is refused";
		break;
	case CHECK_NO_WORSE:
		what = "no worse, within the smallest change worth having";
		break;
	case CHECK_BETTER:
		what = "better with it too";
		break;
	case CHECK_UNDECIDED:
		what = "not shown worse, nor shown within the smallest change worth having, in the rounds";
		break;
	case CHECK_REC_FAILED:
		what = "a run failed with the recommended settings: the recommendation is refused";
		break;
	case CHECK_ORIG_FAILED:
		what = "a run failed with the original settings: no check could be made";
		break;
	default:
		break;
	}
	printf("check on %s: %s", cr->spec, what);
	if (isfinite(cr->change_pct))
		printf(" (%s %+.1f%%, interval %+.1f%% .. %+.1f%% of the cost at %.4g%%, %d paired rounds; the "
		       "smallest change worth having %.0f%%)",
		       cr->metric, cr->change_pct, cr->ci_lo, cr->ci_hi, 100 * cr->level, cr->pairs, 100 * min_effect);
	if (cr->why[0])
		printf(": %s", cr->why);
	printf("\n");
}

json_object *check_json(const struct check_result *cr)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "workload", json_object_new_string(cr->spec));
	json_object_object_add(j, "metric", json_object_new_string(cr->metric));
	json_object_object_add(j, "verdict", json_object_new_string(check_verdict_name(cr->verdict)));
	json_object_object_add(j, "refused", json_object_new_boolean(check_refuses(cr->verdict)));
	json_object_object_add(j, "change_pct", json_number(cr->change_pct));
	json_object_object_add(j, "ci_pct_lo", json_number(cr->ci_lo));
	json_object_object_add(j, "ci_pct_hi", json_number(cr->ci_hi));
	json_object_object_add(j, "level", json_number(cr->level));
	json_object_object_add(j, "pairs", json_object_new_int(cr->pairs));
	json_object_object_add(j, "original_metric", json_number(cr->base_metric));
	json_object_object_add(j, "recommended_metric", json_number(cr->rec_metric));
	if (cr->why[0])
		json_object_object_add(j, "why", json_object_new_string(cr->why));
	return j;
}
