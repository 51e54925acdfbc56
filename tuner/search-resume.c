/* search-resume.c - a search as stored: the run configuration it writes, and
 * --resume, which reads that configuration and the trials done and goes on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search-int.h"
#include "vmtune.h"

/* The configuration a run row keeps: what --resume needs to go on, and what the
 * pool matches runs by. */
char *search_config_json(const struct search *S)
{
	const struct search_opts *o = S->o;
	static struct run_config c;
	int i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < o->nwl && i < RUNCONFIG_MAX_WORKLOADS; i++) {
		snprintf(c.wl[i].spec, sizeof(c.wl[i].spec), "%s", o->wl[i].spec);
		snprintf(c.wl[i].metric, sizeof(c.wl[i].metric), "%s", o->wl[i].metric);
		c.wl[i].maximize = o->wl[i].maximize;
		c.wl[i].weight = o->wl[i].weight;
	}
	c.nwl = i;
	for (i = 0; i < S->sp.d; i++) {
		snprintf(c.knobs[i], sizeof(c.knobs[i]), "%s", S->sp.dim[i].def->name);
		c.has_original[i] = true;
		c.originals[i] = S->sp.dim[i].original;
	}
	c.nknobs = S->sp.d;
	snprintf(c.strategy, sizeof(c.strategy), "%s", strategy_name(o->strategy));
	c.trials = o->trials;
	c.time_budget = o->time_budget;
	c.seed = o->seed;
	c.repeats = o->repeats;
	c.memory_limit = o->mem_limit;
	c.swap = o->swap;
	if (o->swapspec.backend != SWAP_NONE)
		swap_spec_format(&o->swapspec, c.swap_backend, sizeof(c.swap_backend));
	snprintf(c.root, sizeof(c.root), "%s", o->root);
	snprintf(c.probe, sizeof(c.probe), "%s", o->probe ? o->probe : "");
	if (o->have_check) {
		snprintf(c.check, sizeof(c.check), "%s", o->check.spec);
		snprintf(c.check_metric, sizeof(c.check_metric), "%s", o->check.metric);
		c.check_maximize = o->check.maximize;
	}
	snprintf(c.objective, sizeof(c.objective), "%s", objective_name(o->objective));
	for (i = 0; i < o->nrequire && i < RUNCONFIG_MAX_REQUIRE; i++)
		snprintf(c.require[i], sizeof(c.require[i]), "%s", o->require[i].text);
	c.nrequire = i;
	c.has_design = true;
	c.baseline_every = o->baseline_every;
	c.finalists = o->finalists;
	c.race_rounds = o->race_rounds;
	c.confirm_rounds = o->confirm_rounds;
	c.confirm_max_rounds = o->confirm_max_rounds;
	c.min_effect = o->min_effect;
	c.warmup = o->warmup;
	settle_format(o->settle, c.settle, sizeof(c.settle));
	return run_config_json(&c);
}

/* --resume: take the run's configuration from the store (the command line's
 * budget wins). Returns 0 or an exit code. */
int search_resume_config(struct search_opts *o, char *knobs, size_t knobslen, char specs[][1024])
{
	static struct run_config c;
	char status[32] = "", *cfg;
	struct store *db;
	int i, rc;

	if (store_open(&db, o->db) < 0)
		return EXIT_ENV;
	cfg = store_run_config(db, o->resume, status, sizeof(status));
	store_close(db);
	if (!cfg) {
		error("no run %ld in %s", o->resume, o->db);
		return EXIT_USAGE;
	}
	rc = run_config_parse(cfg, &c);
	free(cfg);
	if (strcmp(status, "done") == 0) {
		error("run %ld in %s is finished; nothing to resume", o->resume, o->db);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		error("run %ld: its stored configuration is damaged", o->resume);
		return EXIT_USAGE;
	}
	if (c.nwl) {
		o->nwl = 0;
		for (i = 0; i < c.nwl && i < SEARCH_MAX_WORKLOADS; i++) {
			struct search_workload *sw = &o->wl[o->nwl++];
			snprintf(specs[i], 1024, "%s", c.wl[i].spec);
			sw->spec = specs[i];
			snprintf(sw->metric, sizeof(sw->metric), "%s", c.wl[i].metric);
			sw->maximize = c.wl[i].maximize;
			sw->weight = c.wl[i].weight;
		}
	}
	knobs[0] = '\0';
	for (i = 0; i < c.nknobs; i++) {
		size_t n = strlen(knobs);
		snprintf(knobs + n, knobslen - n, "%s%s", i ? "," : "", c.knobs[i]);
	}
	o->knobs = knobs;
	strategy_parse(c.strategy, &o->strategy);
	o->seed = c.seed;
	o->repeats = c.repeats;
	o->mem_limit = c.memory_limit;
	o->swap = c.swap;
	memset(&o->swapspec, 0, sizeof(o->swapspec));
	if (c.swap_backend[0]) {
		char why[160];
		if (swap_spec_parse(c.swap_backend, &o->swapspec, why, sizeof(why)) < 0)
			return error("run %ld: its stored swap backend: %s", o->resume, why);
	} else if (c.swap) {
		o->swapspec.backend = SWAP_FILE; /* runs stored before the backends */
		o->swapspec.size = c.swap;
	}
	if (o->trials <= 0)
		o->trials = c.trials;
	if (c.probe[0]) {
		snprintf(specs[SEARCH_MAX_WORKLOADS - 1], 1024, "%s", c.probe);
		o->probe = specs[SEARCH_MAX_WORKLOADS - 1];
	}
	if (c.check[0] && !o->have_check) {
		static char check[1024];
		snprintf(check, sizeof(check), "%s", c.check);
		/* the metric as it was chosen; the spec's own one when that is what it was */
		if ((rc = search_workload_init(&o->check, check, NULL, -1)) != 0)
			return rc;
		if (c.check_metric[0] &&
		    (strcmp(c.check_metric, o->check.metric) || c.check_maximize != o->check.maximize)) {
			bool other = strcmp(c.check_metric, o->check.metric) != 0;
			if ((rc = search_workload_init(&o->check, check, other ? c.check_metric : NULL,
						       c.check_maximize ? 1 : -1)) != 0)
				return rc;
		}
		o->have_check = true;
	}
	o->objective = strcmp(c.objective, "interactive") == 0 ? OBJ_INTERACTIVE
		       : strcmp(c.objective, "balanced") == 0  ? OBJ_BALANCED
							       : OBJ_THROUGHPUT;
	o->nrequire = 0;
	for (i = 0; i < c.nrequire && o->nrequire < SEARCH_MAX_REQUIRE; i++)
		if (requirement_parse(c.require[i], &o->require[o->nrequire]) == 0)
			o->nrequire++;
	/* the measurement design goes on as it began (runs stored before it was kept:
	 * the command line's) */
	if (c.has_design) {
		char why[256];
		o->baseline_every = c.baseline_every;
		o->finalists = c.finalists;
		o->race_rounds = c.race_rounds;
		o->confirm_rounds = c.confirm_rounds;
		o->confirm_max_rounds = c.confirm_max_rounds;
		o->min_effect = c.min_effect;
		o->warmup = c.warmup;
		if (settle_parse(c.settle, &o->settle, why, sizeof(why)) < 0) {
			error("run %ld: its stored settle steps '%s' are damaged: %s", o->resume, c.settle, why);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int resume_trial(void *arg, long trial_id, int seq, const char *kind, const char *settings, bool failed,
			const double *metrics, const double *inter, const double *played, int nmetrics)
{
	struct search *S = arg;
	long vals[SPACE_MAX];
	bool present[SPACE_MAX];
	char why[256];
	enum trial_kind k = trial_kind_parse(kind);
	int i;

	if (seq >= S->next_seq)
		S->next_seq = seq + 1;
	if (nmetrics < S->o->nwl)
		return 0; /* cut short by a crash: measured again */
	if (k == TK_UNKNOWN || k == TK_CONFIRM_BASELINE || k == TK_CONFIRM || k == TK_ABLATE)
		return 0; /* an unfinished confirmation (or walk back) is done again */
	if (settings_parse(settings, &S->sp, vals, present, why, sizeof(why)) < 0)
		return error("run %ld: trial %ld has damaged settings", S->o->resume, trial_id);
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		if (!present[i])
			return error("run %ld: trial %ld: %s", S->o->resume, trial_id, why);
		if (vals[i] != dm->original && (vals[i] < dm->lo || vals[i] > dm->hi))
			return error("run %ld: trial %ld: %s = %ld is outside its safe range %ld..%ld on this machine",
				     S->o->resume, trial_id, dm->def->name, vals[i], dm->lo, dm->hi);
	}
	if (S->nobs >= MAX_OBS)
		return error("run %ld has too many trials", S->o->resume);
	obs_stored(S, k, trial_id, vals, nmetrics, metrics, inter, played, failed);
	return 0;
}

struct obs *obs_stored(struct search *S, enum trial_kind k, long trial_id, const long *vals, int nmetrics,
		       const double *metrics, const double *inter, const double *played, bool failed)
{
	struct obs *ob = &S->obs[S->nobs++];
	int w;

	memset(ob, 0, sizeof(*ob));
	ob->kind = k;
	ob->trial_id = trial_id;
	ob->point = add_point(S, vals);
	for (w = 0; w < S->o->nwl; w++) {
		ob->metric[w] = w < nmetrics ? metrics[w] : NAN;
		ob->inter[w] = w < nmetrics ? inter[w] + 1 : NAN;
		ob->played[w] = w < nmetrics ? played[w] : NAN;
		if (!isfinite(ob->metric[w]))
			ob->failed = true;
	}
	ob->failed |= failed; /* a broken requirement, say */
	if (k == TK_CANDIDATE && ob->point > 0)
		S->trials_done++;
	return ob;
}

/* Take up a stored run: its trials become this search's observations, and the
 * design moves on past what was tried. */
int search_resume_trials(struct search *S)
{
	int i;

	S->run_id = S->o->resume;
	S->trials_done = 1; /* the original settings */
	if (store_trials_each(S->db, S->o->resume, resume_trial, S) < 0)
		return -1;
	rescore(S);
	for (i = 0; i < S->trials_done; i++)
		if (S->o->strategy != STRAT_GRID) {
			double u[SPACE_MAX];
			strategy_unit(S, u);
		}
	search_say(S, "resuming run %ld: %d measurements, %d trials done", S->o->resume, S->nobs, S->trials_done);
	store_run_finish(S->db, S->run_id, "running", NULL);
	return 0;
}
