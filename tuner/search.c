/* search.c - the search: set up, the loop, confirmation, the result. The original
 * settings are measured first and again every few trials (search-score.c scores
 * each trial against them); candidates come from a strategy (strategy.c); new
 * bests are measured again; the finalists are confirmed against the original
 * (search-confirm.c); the profile and the store record the result. It prints
 * through search-report.c only. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "journal.h"
#include "machine.h"
#include "profile.h"
#include "knob.h"
#include "search-int.h"
#include "settings.h"
#include "swap.h"
#include "extract.h"
#include "tools.h"
#include "vmtune.h"
#include "workload.h"

static int setup(struct search *S, struct search_opts *o)
{
	int i, rc;

	memset(S, 0, sizeof(*S));
	S->o = o;
	S->obs = calloc(MAX_OBS, sizeof(*S->obs));
	S->points = calloc(MAX_POINTS, sizeof(*S->points));
	if (!S->obs || !S->points) {
		error("out of memory");
		return EXIT_INTERNAL;
	}
	if (o->objective != OBJ_THROUGHPUT && !o->probe) {
		error("--objective %s needs an interactivity probe (--probe \"sputter ...\" or a mix with probe:)",
		      objective_name(o->objective));
		return EXIT_USAGE;
	}
	if ((rc = space_build_for(&S->sp, o->knobs, !o->dry_run)) != 0)
		return rc;
	if ((S->swap_dim = space_find(&S->sp, &swap_knob)) >= 0) {
		char b[64];
		if (swap_spec_vary_index(&o->swapspec) < 0) {
			error("--knobs swap varies the sandbox's swap backend; it needs --swap SIZE, file:SIZE or "
			      "zram:SIZE (not %s)",
			      swap_spec_format(&o->swapspec, b, sizeof(b)));
			return EXIT_USAGE;
		}
		if (space_find(&S->sp, knob_find("zswap.enabled")) >= 0) {
			error("--knobs swap switches zswap with the backend (file+zswap); it cannot be searched with "
			      "zswap.enabled as well");
			return EXIT_USAGE;
		}
		S->sp.dim[S->swap_dim].original = swap_spec_vary_index(&o->swapspec);
	}
	for (i = 0; i < S->sp.d; i++)
		S->cur[i] = S->sp.dim[i].original;
	add_point(S, S->cur); /* point 0: the original settings */
	S->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(S->rng, o->seed);
	S->sobol = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)S->sp.d);
	for (i = 0; i < S->sp.d; i++)
		S->shift[i] = gsl_rng_uniform(S->rng);
	strategy_init(S);
	return 0;
}

static void teardown(struct search *S)
{
	pool_free(&S->pool);
	if (S->sobol)
		gsl_qrng_free(S->sobol);
	if (S->rng)
		gsl_rng_free(S->rng);
	store_close(S->db);
	free(S->obs);
	free(S->points);
}

/* The settle steps before every run, and the programs read back after the drop. */
void search_settle_setup(struct search *S)
{
	int n = 0;

	for (int w = 0; w <= S->o->nwl; w++) {
		const char *spec = w < S->o->nwl ? S->o->wl[w].spec : S->o->probe;
		char **args, name[64];

		if (!spec || workload_argv(spec, &args, name, sizeof(name)) < 0)
			continue;
		snprintf(S->progs[n], sizeof(S->progs[n]), "%s", args[0]);
		S->progp[n] = S->progs[n];
		n++;
		workload_argv_free(args);
	}
	S->settle = (struct settle_opts){ .steps = S->o->root && *S->o->root ? 0 : S->o->settle,
					  .root = S->o->root,
					  .swapfile = S->swapfile,
					  .warm = S->progp,
					  .nwarm = n };
}

int ablate_runs(const struct search *S)
{
	int steps = S->sp.d < ABLATE_PLAN_STEPS ? S->sp.d : ABLATE_PLAN_STEPS;

	/* the steps an ablation usually takes (a bulk step and a few single ones), each at
	 * most --ablate-rounds rounds of two runs, and the first look of the smallest
	 * change's confirmation */
	return S->o->ablate_rounds > 0 && S->sp.d > 1 ? steps * 2 * S->o->ablate_rounds + 2 * S->o->confirm_rounds : 0;
}

double search_phase_time(const struct search *S)
{
	double per = S->runs ? S->run_time_sum / S->runs : 0, reserve;

	/* keep time for the race, the whole confirmation (every round, every finalist,
	 * every workload, with settling) and the walk back, but never more than half the
	 * budget: a search that ends undecided has found nothing */
	reserve = fmin(per * S->o->nwl *
			       (race_runs(S->o) + S->o->confirm_max_rounds * (1 + S->o->finalists) + ablate_runs(S)) +
			   per * check_runs(S->o),
		       S->o->time_budget / 2);
	/* and always the race and the confirmation's first look, which run whatever the
	 * time: a budget too short for them is trials cut short, not --time overrun */
	/* and --check-workload's first look, its runs counted at the tuned workload's length */
	reserve = fmax(reserve, per * S->o->nwl * (race_runs(S->o) + S->o->confirm_rounds * (1 + S->o->finalists)) +
				    per * check_runs(S->o));
	return S->o->time_budget - reserve;
}

static bool out_of_time(const struct search *S)
{
	double per = S->runs ? S->run_time_sum / S->runs : 0;

	if (S->o->time_budget <= 0)
		return false;
	return vt_now() - S->t0 + per * S->o->nwl > search_phase_time(S);
}

static int search_loop(struct search *S)
{
	long vals[SPACE_MAX];
	int since_base = 0, p, prev_best, i;

	if (warm_up(S) < 0)
		return -1;
	/* trial 1: the original settings, which are also the first baselines */
	if (S->nobs == 0) {
		S->trials_done = 1;
		for (i = 0; i < 2; i++) {
			if (measure(S, 0, TK_BASELINE) < 0)
				return -1;
			search_progress(S, &S->obs[S->nobs - 1], "baseline");
		}
		/* nothing to compare a setting with: every score would be a penalty, and a
		 * profile "keeping" the original settings would claim a measurement there was
		 * not */
		if (S->obs[0].failed && S->obs[1].failed)
			return error(
			    "the workload fails at the original settings (both first runs; the last: %s): "
			    "there is nothing to compare a setting with, so the search stops; check the workload, "
			    "--metric, --memory-limit, --swap and --timeout",
			    S->fail_why);
	}
	while (S->trials_done < S->o->trials && !vt_interrupted && !out_of_time(S)) {
		next_candidate(S, vals);
		p = add_point(S, vals);
		if (p < 0)
			return error("too many distinct settings in one search");
		prev_best = best_point(S);
		if (measure(S, p, TK_CANDIDATE) < 0)
			return -1;
		S->trials_done++;
		search_progress(S, &S->obs[S->nobs - 1], "candidate");
		since_base++;
		/* a new best is measured again before it is believed */
		if (best_point(S) == p && p != prev_best && S->points[p].mean_log < 0)
			for (i = 0; i < S->o->repeats && !vt_interrupted; i++) {
				if (measure(S, p, TK_REPEAT) < 0)
					return -1;
				search_progress(S, &S->obs[S->nobs - 1], "repeat");
				since_base++;
			}
		if (since_base >= S->o->baseline_every && !vt_interrupted) {
			if (measure(S, 0, TK_BASELINE) < 0)
				return -1;
			search_progress(S, &S->obs[S->nobs - 1], "baseline");
			since_base = 0;
		}
	}
	if (since_base && !vt_interrupted) {
		if (measure(S, 0, TK_BASELINE) < 0)
			return -1;
		search_progress(S, &S->obs[S->nobs - 1], "baseline");
	}
	if (S->o->time_budget > 0 && !vt_interrupted && search_phase_time(S) < S->o->time_budget / 2)
		warning("--time %.0fs is short for runs of %.1f s: the race and the confirmation's first look "
			"take %.0f s of it, so the trials ended after %d",
			S->o->time_budget, S->run_time_sum / S->runs, S->o->time_budget - search_phase_time(S),
			S->trials_done);
	return vt_interrupted ? -1 : 0;
}

/* Every knob of the space journalled as it is before the first write (the pseudo-knobs'
 * swap areas and zswap were journalled as they were made), then the store opened. */
static int journal_and_open(struct search *S)
{
	for (int i = 0; i < S->sp.d; i++) {
		struct knob_state st;
		if (S->sp.dim[i].pseudo)
			continue;
		knob_probe(S->sp.dim[i].def, &st);
		if (journal_knob(&st, false) < 0)
			return -1;
	}
	return vt_state_dir_ensure() < 0 || store_open(&S->db, S->o->db) < 0 ? -1 : 0;
}

/* The search could not go on: interrupted (the run is kept to --resume, exit 128 + the
 * signal) or failed (EXIT_ENV). */
static int stopped(struct search *S)
{
	if (!vt_interrupted) {
		store_run_finish(S->db, S->run_id, "failed", NULL);
		return EXIT_ENV;
	}
	store_run_finish(S->db, S->run_id, "interrupted", NULL);
	search_report_interrupted(S);
	return 128 + vt_interrupted;
}

int search_run(struct search_opts *o)
{
	struct search S;
	struct confirm c[8], unclaimed;
	static struct check_result check;
	const struct confirm *best_c = NULL, *claim = NULL;
	static struct ablation A;
	char out[PATH_MAX], knobs_buf[2048], specs[SEARCH_MAX_WORKLOADS][1024];
	char *cfg = NULL, *mj;
	struct machine m;
	long rec[SPACE_MAX];
	int i, nc = 0, rc = 0;

	if (o->resume && (rc = search_resume_config(o, knobs_buf, sizeof(knobs_buf), specs)) != 0)
		return rc;
	if (o->warm_start && o->strategy != STRAT_BO) {
		error("--warm-start seeds the surrogate of --strategy bo; %s has none", strategy_name(o->strategy));
		return EXIT_USAGE;
	}
	if ((rc = setup(&S, o)) != 0) {
		teardown(&S);
		return rc;
	}
	if (o->out)
		snprintf(out, sizeof(out), "%s", o->out);
	else
		search_default_out(&S, out, sizeof(out));
	if (!o->quiet || o->dry_run)
		search_print_plan(&S, o->dry_run ? stdout : stderr);
	if (o->dry_run) {
		search_print_dry_run(&S, out);
		rc = o->warm_start && warm_setup(&S, 0) < 0 ? EXIT_ENV : 0;
		if (rc == 0)
			search_print("nothing was changed (dry run)");
		teardown(&S);
		return rc;
	}

	if ((rc = session_begin()) != 0)
		goto out;
	if (S.swap_dim >= 0 ? swap_vary_setup(&o->swapspec, &S.vary, S.swapfile, sizeof(S.swapfile)) < 0
			    : swap_setup(&o->swapspec, S.swapfile, sizeof(S.swapfile)) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	search_settle_setup(&S);
	if (journal_and_open(&S) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (o->resume) {
		if (search_resume_trials(&S) < 0) {
			rc = EXIT_ENV;
			goto out;
		}
	} else {
		machine_read(&m);
		mj = machine_json(&m);
		cfg = search_config_json(&S);
		S.run_id = store_run_begin(S.db, cfg, mj);
		free(mj);
		if (S.run_id < 0) {
			rc = EXIT_ENV;
			goto out;
		}
		search_say(&S, "run %ld in %s", S.run_id, o->db);
	}
	if (o->warm_start && warm_setup(&S, S.run_id) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	S.t0 = vt_now();
	if (search_loop(&S) < 0 || confirm(&S, c, &nc) < 0) {
		rc = stopped(&S);
		goto out;
	}
	/* the best finalist shown better that breaks no guard */
	for (i = 0; i < nc; i++)
		if (c[i].significant && !c[i].guard_broken && (!best_c || c[i].change_pct < best_c->change_pct))
			best_c = &c[i];
	memset(&A, 0, sizeof(A));
	A.from = A.to = -1;
	if (best_c && ablate(&S, best_c, &A, rec) < 0) {
		rc = stopped(&S);
		goto out;
	}
	if (!best_c)
		memcpy(rec, S.points[0].vals, sizeof(long) * (size_t)S.sp.d);
	/* the claim is the smallest change's when it holds, else the confirmed setting's */
	claim = best_c && A.final_tested && A.final_holds ? &A.final : best_c;
	/* --check-workload: a recommendation that makes the other workload worse is none */
	memset(&check, 0, sizeof(check));
	if (claim && o->have_check) {
		if (search_check(&S, rec, &check) < 0) {
			rc = stopped(&S);
			goto out;
		}
		if (check_refuses(check.verdict)) {
			unclaimed = *claim; /* what was refused, as the profile's evidence */
			claim = NULL;
			memcpy(rec, S.points[0].vals, sizeof(long) * (size_t)S.sp.d);
		}
	}
	S.check = &check;
	search_report(&S, rec, claim, nc, c, &A);
	/* the profile first: a run is done only once its profile is on disk, so a
	 * crash in between leaves a run that --resume finishes */
	/* no claim (nothing shown better, or what was breaks a guard): the profile keeps the
	 * original settings, and its evidence claims no significance it does not recommend */
	if (!claim && nc) {
		if (!check_refuses(check.verdict))
			unclaimed = c[0];
		unclaimed.significant = false;
	}
	if (search_write_profile(&S, out, rec, claim ? claim : (nc ? &unclaimed : NULL), claim ? &A : NULL) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	{
		json_object *r = json_object_new_object();
		char *sj = settings_json(&S.sp, rec);
		json_object_object_add(r, "recommended", json_tokener_parse(sj));
		json_object_object_add(r, "significant", json_object_new_boolean(claim != NULL));
		if (claim) {
			json_object_object_add(r, "change_pct", json_number(claim->change_pct));
			json_object_object_add(r, "ci95_pct_lo", json_number(claim->ci_lo));
			json_object_object_add(r, "ci95_pct_hi", json_number(claim->ci_hi));
			json_object_object_add(r, "guards", guards_json(&S, claim));
		}
		if (best_c && claim)
			json_object_object_add(r, "ablation", ablation_json(&S, &A, rec, claim));
		if (check.verdict != CHECK_NONE)
			json_object_object_add(r, "check", check_json(&check));
		{
			json_object *rej = json_object_new_array();
			for (i = 0; i < nc; i++)
				if (c[i].guard_broken) {
					char *fj = settings_json(&S.sp, S.points[c[i].point].vals);
					json_object *x = json_object_new_object();
					json_object_object_add(x, "settings", json_tokener_parse(fj));
					json_object_object_add(x, "guards", guards_json(&S, &c[i]));
					json_object_array_add(rej, x);
					free(fj);
				}
			json_object_object_add(r, "guard_rejected", rej);
		}
		json_object_object_add(r, "trials", json_object_new_int(S.trials_done));
		json_object_object_add(r, "profile", json_object_new_string(out));
		store_run_finish(S.db, S.run_id, "done", json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN));
		crashpoint("run-finished");
		json_object_put(r);
		free(sj);
	}
	search_print("profile: %s", out);
	/* the search's own changes go back first; --apply then makes the result stick */
	if (journal_undo_transient() < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (o->apply) {
		struct setting set[SPACE_MAX];
		int n = 0;
		for (i = 0; i < S.sp.d; i++)
			if (!S.sp.dim[i].pseudo && rec[i] != S.sp.dim[i].original) {
				set[n].def = S.sp.dim[i].def;
				set[n++].value = rec[i];
			}
		if (S.swap_dim >= 0 && rec[S.swap_dim] != S.sp.dim[S.swap_dim].original)
			search_say(&S,
				   "--apply: the swap backend (%s) is the machine's to set up; vmtune applies the "
				   "knobs only",
				   swap_knob.choices[rec[S.swap_dim]]);
		if (n == 0)
			search_say(&S, "--apply: the recommended settings are the original ones; nothing to apply");
		else if ((rc = settings_apply(set, n, true)) == 0)
			search_say(&S, "--apply: applied (journalled; 'vmtune restore' puts the originals back)");
	}
out:
	teardown(&S);
	free(cfg);
	return rc;
}

void search_opts_defaults(struct search_opts *o)
{
	*o = (struct search_opts){ .repeats = 1,
				   .seed = 1,
				   .timeout = 1800,
				   .baseline_every = 3,
				   .confirm_rounds = 5,
				   .confirm_max_rounds = 25,
				   .min_effect = 0.05,
				   .settle = SETTLE_DEFAULT,
				   .warmup = 1,
				   .finalists = 2,
				   .race_rounds = 2,
				   .ablate_rounds = 20 };
}

int search_workload_init(struct search_workload *w, const char *spec, const char *metric, int maximize)
{
	const struct workload_info *wi;
	const struct tool *t;
	struct extract ex;
	const char *cmd;
	char **args;

	w->spec = workload_alias(spec);
	if (workload_argv(w->spec, &args, w->name, sizeof(w->name)) < 0)
		return EXIT_USAGE;
	workload_argv_free(args);
	wi = workload_find(w->name);
	if (wi && metric) {
		error("--metric is for exec: workloads and the tools; %s is scored by %s", w->name, wi->metric);
		return EXIT_USAGE;
	}
	if ((t = tool_of(w->spec, NULL))) {
		/* a tool's metric has the direction vmtune knows; --maximize/--minimize must agree */
		bool up;
		if (tool_metric(t, metric ? metric : t->metric, &up) < 0)
			return EXIT_USAGE;
		if (maximize >= 0 && (maximize == 1) != up) {
			error("%s's %s is better %s: --%s contradicts it", t->name, metric ? metric : t->metric,
			      up ? "higher" : "lower", maximize ? "maximize" : "minimize");
			return EXIT_USAGE;
		}
		snprintf(w->metric, sizeof(w->metric), "%s", metric ? metric : t->metric);
		w->maximize = up;
	} else if (extract_from_spec(w->spec, &ex, &cmd) == 1) {
		if (metric && strcmp(metric, "elapsed") && !extract_names(&ex, metric)) {
			error("--metric %s: the workload's --metric-json/--metric-regex name no such value", metric);
			return EXIT_USAGE;
		}
		snprintf(w->metric, sizeof(w->metric), "%s", metric ? metric : ex.r[0].name);
		w->maximize = maximize == 1;
	} else {
		snprintf(w->metric, sizeof(w->metric), "%s", wi ? wi->metric : metric ? metric : "elapsed");
		w->maximize = wi ? wi->maximize : maximize == 1;
	}
	if (w->weight <= 0)
		w->weight = 1;
	return 0;
}

/* verify --measure: the profile's settings (point 1) against the original settings
 * (point 0, as the machine has them now) in the confirmation's paired rounds, at the
 * whole 5%. The verdict: holds (shown better, and today's interval reaches the
 * profile's claimed change or beyond), smaller (shown better, but by less than it
 * claims: the whole interval on the side of a smaller gain), gone (not shown better:
 * shown not to gain --min-effect, shown worse, or undecided when the rounds ran out).
 * Stored as a run whose result names the profile's run (recheck_of). */
int search_recheck(struct search_opts *o)
{
	const struct profile *p = o->recheck;
	struct search S;
	struct confirm c;
	struct machine m;
	long vals[SPACE_MAX];
	char *cfg = NULL, *mj, knobs[2048] = "";
	const char *verdict;
	double claimed = NAN;
	int i, pt, rc = 0;

	for (i = 0; i < p->nsettings; i++) {
		size_t n = strlen(knobs);
		snprintf(knobs + n, sizeof(knobs) - n, "%s%s", i ? "," : "", p->settings[i].def->name);
	}
	if (p->nsettings == 0) {
		error("%s changes no setting: there is nothing to measure against the original settings",
		      o->recheck_path);
		return EXIT_USAGE;
	}
	o->knobs = knobs;
	if ((rc = setup(&S, o)) != 0) {
		teardown(&S);
		return rc;
	}
	for (i = 0; i < S.sp.d; i++)
		vals[i] = S.sp.dim[i].original;
	for (i = 0; i < p->nsettings; i++) {
		int d = space_find(&S.sp, p->settings[i].def);
		if (d >= 0)
			vals[d] = p->settings[i].value;
	}
	if ((pt = add_point(&S, vals)) == 0) {
		printf("%s: the machine has the profile's settings already; put the originals back first (vmtune "
		       "restore, or another value) to measure the difference\n",
		       o->recheck_path);
		teardown(&S);
		return EXIT_USAGE;
	}
	if (p->evidence.present && isfinite(p->evidence.change_pct))
		claimed = p->evidence.change_pct; /* in the metric's own direction */
	if ((rc = session_begin()) != 0)
		goto out;
	if (swap_setup(&o->swapspec, S.swapfile, sizeof(S.swapfile)) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	search_settle_setup(&S);
	if (journal_and_open(&S) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	machine_read(&m);
	mj = machine_json(&m);
	cfg = search_config_json(&S);
	S.run_id = store_run_begin(S.db, cfg, mj);
	free(mj);
	if (S.run_id < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	search_say(&S, "re-check %ld in %s: %s against the original settings, a look every %d rounds, at most %d",
		   S.run_id, o->db, o->recheck_path, o->confirm_rounds, o->confirm_max_rounds);
	S.t0 = vt_now();
	S.trials_done = 1;
	if (warm_up(&S) < 0 || confirm_one(&S, pt, SEARCH_ALPHA, o->confirm_max_rounds, &c) < 0) {
		store_run_finish(S.db, S.run_id, vt_interrupted ? "interrupted" : "failed", NULL);
		rc = vt_interrupted ? 128 + vt_interrupted : EXIT_ENV;
		goto out;
	}
	{
		/* today's change in the metric's own direction, as the profile says its claim */
		bool max = S.o->nwl == 1 && S.o->wl[0].maximize;
		double ch = max ? 100 * (1 / (1 + c.change_pct / 100) - 1) : c.change_pct;
		double lo = max ? 100 * (1 / (1 + c.ci_hi / 100) - 1) : c.ci_lo;
		double hi = max ? 100 * (1 / (1 + c.ci_lo / 100) - 1) : c.ci_hi;
		bool smaller = isfinite(claimed) && (max ? hi < claimed : lo > claimed);
		json_object *r = json_object_new_object();
		char uuid[40] = "";

		if (!c.significant)
			verdict = "gone";
		else
			verdict = smaller ? "smaller" : "holds";
		progress_clear();
		printf("\n%s: the gain %s%s\n", o->recheck_path,
		       !strcmp(verdict, "holds")     ? "holds"
		       : !strcmp(verdict, "smaller") ? "is smaller than the profile claims"
						     : "is gone",
		       !strcmp(verdict, "gone")
			   ? (c.decision == CD_SMALL	? ": shown not to gain the smallest change worth having"
			      : c.decision == CD_WORSE	? ": the profile's settings are shown to cost more"
			      : c.decision == CD_FAILED ? ": a run with the profile's settings failed"
							: ": not shown better within the rounds")
			   : "");
		if (isfinite(ch))
			printf("today: %s %+.1f%% (interval %+.1f%% .. %+.1f%% at %.4g%%, %d paired rounds)%s",
			       S.o->wl[0].metric, ch, lo, hi, 100 * c.level, c.pairs, isfinite(claimed) ? "" : "\n");
		if (isfinite(claimed))
			printf("; the profile claims %+.1f%% (%+.1f%% .. %+.1f%%)\n", claimed, p->evidence.ci_lo,
			       p->evidence.ci_hi);
		{
			json_object *g = guards_json(&S, &c);
			search_print_guards(g, "the profile's settings");
			json_object_object_add(r, "guards", g);
		}
		if (p->evidence.run[0])
			snprintf(uuid, sizeof(uuid), "%s", p->evidence.run);
		json_object_object_add(r, "recheck_of", uuid[0] ? json_object_new_string(uuid) : NULL);
		json_object_object_add(r, "profile", json_object_new_string(o->recheck_path));
		json_object_object_add(r, "verdict", json_object_new_string(verdict));
		json_object_object_add(r, "change_pct", json_number(ch));
		json_object_object_add(r, "ci_pct_lo", json_number(lo));
		json_object_object_add(r, "ci_pct_hi", json_number(hi));
		json_object_object_add(r, "level", json_number(c.level));
		json_object_object_add(r, "pairs", json_object_new_int(c.pairs));
		json_object_object_add(r, "claimed_pct", json_number(claimed));
		store_run_finish(S.db, S.run_id, "done", json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN));
		json_object_put(r);
		rc = !strcmp(verdict, "holds") ? 0 : !strcmp(verdict, "smaller") ? EXIT_SMALLER : EXIT_CHECK;
	}
	if (journal_undo_transient() < 0)
		rc = EXIT_ENV;
out:
	teardown(&S);
	free(cfg);
	return rc;
}
