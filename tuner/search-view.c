/* search-view.c - a stored run seen again, for `vmtune runs` and `vmtune report`:
 * its configuration, trials and measurements loaded into a search the way --resume
 * loads them (the confirmation included; nothing probed, nothing changed), the
 * scores and the model made again from them, and the terminal and JSON reports.
 * report-html.c draws it. Everything read from the store is checked or escaped
 * before it is printed. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"
#include "search-int.h"
#include "stats.h"
#include "text.h"
#include "vmtune.h"

static void copy_text(char *dst, size_t size, const char *s)
{
	char b[1024];

	snprintf(dst, size, "%s", s ? text_safe(s, b, sizeof(b)) : "");
}

static void copy_field(char *dst, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);

	memmove(dst, s, n);
	dst[n] = '\0';
}

/* --- loading ------------------------------------------------------------------------ */

static int load_config(struct run_view *v, const char *cfg)
{
	struct search_opts *o = &v->o;
	const char *names[SPACE_MAX];
	int i;

	if (!cfg || run_config_parse(cfg, &v->c) < 0)
		return error("run %ld: its stored configuration is damaged", v->id);
	memset(o, 0, sizeof(*o));
	for (i = 0; i < v->c.nwl && i < SEARCH_MAX_WORKLOADS; i++) {
		struct search_workload *sw = &o->wl[o->nwl++];
		/* memmove: the compiler cannot tell these fields of one struct apart
		 * and warns of overlap (-Wrestrict) on snprintf under -O1 */
		copy_field(v->specs[i], sizeof(v->specs[i]), v->c.wl[i].spec);
		sw->spec = v->specs[i];
		copy_field(sw->metric, sizeof(sw->metric), v->c.wl[i].metric);
		sw->maximize = v->c.wl[i].maximize;
		sw->weight = v->c.wl[i].weight > 0 ? v->c.wl[i].weight : 1;
	}
	if (o->nwl == 0 || v->c.nknobs == 0)
		return error("run %ld: its stored configuration names no workload or no knob", v->id);
	for (i = 0; i < v->c.nknobs; i++) {
		if (!v->c.has_original[i])
			return error("run %ld: its configuration lacks the original value of %s", v->id, v->c.knobs[i]);
		names[i] = v->c.knobs[i];
	}
	if (space_build_stored(&v->S.sp, names, v->c.originals, v->c.nknobs) < 0)
		return error("run %ld: its stored configuration names a knob this vmtune does not know", v->id);
	strategy_parse(v->c.strategy, &o->strategy);
	o->trials = v->c.trials;
	o->time_budget = v->c.time_budget;
	o->seed = v->c.seed;
	o->repeats = v->c.repeats;
	o->mem_limit = v->c.memory_limit;
	o->swap = v->c.swap;
	if (v->c.probe[0])
		o->probe = v->c.probe;
	o->objective = strcmp(v->c.objective, "interactive") == 0 ? OBJ_INTERACTIVE
		       : strcmp(v->c.objective, "balanced") == 0  ? OBJ_BALANCED
								  : OBJ_THROUGHPUT;
	for (i = 0; i < v->c.nrequire && o->nrequire < SEARCH_MAX_REQUIRE; i++)
		if (requirement_parse(v->c.require[i], &o->require[o->nrequire]) == 0)
			o->nrequire++;
	o->baseline_every = v->c.has_design ? v->c.baseline_every : 5;
	o->finalists = v->c.has_design ? v->c.finalists : 1;
	o->race_rounds = v->c.race_rounds;
	o->confirm_rounds = v->c.confirm_rounds;
	o->confirm_max_rounds = v->c.confirm_max_rounds;
	o->min_effect = v->c.min_effect;
	o->quiet = true;
	o->root = v->c.root;
	return 0;
}

static int load_trial(void *arg, long trial_id, int seq, const char *kind, const char *settings, bool failed,
		      const double *metrics, const double *inter, const double *played, int nmetrics)
{
	struct run_view *v = arg;
	struct search *S = &v->S;
	long vals[SPACE_MAX];
	bool present[SPACE_MAX];
	char why[256];
	int i;

	(void)seq;
	if (S->nobs >= MAX_OBS || S->npoints >= MAX_POINTS - 1)
		return 0;
	if (!settings || settings_parse(settings, &S->sp, vals, present, why, sizeof(why)) < 0)
		return error("run %ld: trial %ld has damaged settings", v->id, trial_id);
	for (i = 0; i < S->sp.d; i++)
		if (!present[i])
			return error("run %ld: trial %ld: %s", v->id, trial_id, why);
	obs_stored(S, trial_kind_parse(kind), trial_id, vals, nmetrics, metrics, inter, played, failed);
	return 0;
}

/* [[t, si, so, free_mb, psi_some], ...]: only arrays of five numbers (or null) */
static int parse_series(const char *text, struct vm_point **out)
{
	json_object *j = text ? json_tokener_parse(text) : NULL;
	size_t n, i, k;
	struct vm_point *p;

	*out = NULL;
	if (!j || !json_object_is_type(j, json_type_array)) {
		json_object_put(j);
		return 0;
	}
	n = json_object_array_length(j);
	if (n > SAMPLER_SERIES_MAX)
		n = SAMPLER_SERIES_MAX;
	p = calloc(n ? n : 1, sizeof(*p));
	for (i = 0; p && i < n; i++) {
		json_object *row = json_object_array_get_idx(j, i);
		float f[5];
		if (!json_object_is_type(row, json_type_array) || json_object_array_length(row) != 5)
			break;
		for (k = 0; k < 5; k++) {
			json_object *c = json_object_array_get_idx(row, k);
			double d = json_object_is_type(c, json_type_double) || json_object_is_type(c, json_type_int)
				       ? json_object_get_double(c)
				       : NAN;
			f[k] = isfinite(d) && fabs(d) < 1e12 ? (float)d : NAN;
		}
		if (!isfinite(f[0]))
			break;
		p[i] = (struct vm_point){ f[0], f[1], f[2], f[3], f[4] };
	}
	json_object_put(j);
	if (!p || i < n) { /* a damaged series is left out whole */
		free(p);
		return 0;
	}
	*out = p;
	return (int)n;
}

static int load_meas(void *arg, const struct store_meas *m)
{
	struct run_view *v = arg;
	struct view_meas *x;
	long vals[SPACE_MAX];
	bool present[SPACE_MAX];
	char why[64];
	int i;

	if (v->nm >= MAX_OBS * SEARCH_MAX_WORKLOADS)
		return 0;
	if (v->nm == v->cap) {
		int cap = v->cap ? 2 * v->cap : 256;
		struct view_meas *nm = realloc(v->m, sizeof(*nm) * (size_t)cap);
		if (!nm)
			return error("out of memory");
		v->m = nm;
		v->cap = cap;
	}
	if (!m->settings || settings_parse(m->settings, &v->S.sp, vals, present, why, sizeof(why)) < 0)
		return 0;
	x = &v->m[v->nm];
	memset(x, 0, sizeof(*x));
	x->kind = trial_kind_parse(m->kind);
	x->point = find_point(&v->S, vals);
	x->seq = m->seq;
	x->wl = -1;
	for (i = 0; i < v->o.nwl; i++)
		if (m->workload && strcmp(m->workload, v->o.wl[i].spec) == 0)
			x->wl = i;
	x->ok = m->outcome && strcmp(m->outcome, "ok") == 0 && isfinite(m->metric);
	x->metric = m->metric;
	x->user = m->user;
	x->sys = m->sys;
	x->elapsed = m->elapsed;
	x->majflt = m->majflt;
	x->minflt = m->minflt;
	x->p99 = m->p99_ms;
	x->played = m->played;
	x->nser = parse_series(m->series, &x->ser);
	v->nm++;
	return 0;
}

static int load_run_row(void *arg, const struct store_run *r)
{
	struct run_view *v = arg;
	json_object *mj;

	v->id = r->id;
	copy_text(v->uuid, sizeof(v->uuid), r->uuid);
	copy_text(v->status, sizeof(v->status), r->status);
	copy_text(v->started, sizeof(v->started), r->started);
	copy_text(v->finished, sizeof(v->finished), r->finished);
	v->rows = r->trials;
	v->failed_rows = r->failed;
	mj = r->machine ? json_tokener_parse(r->machine) : NULL;
	v->has_machine = mj && machine_from_json(mj, &v->m_machine) == 0;
	json_object_put(mj);
	v->result = r->result ? strdup(r->result) : NULL;
	return load_config(v, r->config);
}

/* The result row: the recommended settings and the decision. */
static void load_result(struct run_view *v)
{
	json_object *j = v->result ? json_tokener_parse(v->result) : NULL, *x;
	bool present[SPACE_MAX];
	char why[256];
	int i;

	v->rec_point = -1;
	if (j && json_object_object_get_ex(j, "recheck_of", &x) && json_object_is_type(x, json_type_string) &&
	    strlen(json_object_get_string(x)) == 32 && strspn(json_object_get_string(x), "0123456789abcdef") == 32)
		snprintf(v->recheck_of, sizeof(v->recheck_of), "%s", json_object_get_string(x));
	if (j && json_object_object_get_ex(j, "recommended", &x)) {
		const char *s = json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN);
		bool all = settings_parse(s, &v->S.sp, v->rec, present, why, sizeof(why)) == 0;
		for (i = 0; all && i < v->S.sp.d; i++)
			all = present[i];
		if (all) {
			v->has_result = true;
			v->rec_point = find_point(&v->S, v->rec);
			v->significant = json_object_object_get_ex(j, "significant", &x) && json_object_get_boolean(x);
			v->change_pct = v->ci_lo = v->ci_hi = NAN;
			if (json_object_object_get_ex(j, "change_pct", &x))
				v->change_pct = json_object_get_double(x);
			if (json_object_object_get_ex(j, "ci95_pct_lo", &x))
				v->ci_lo = json_object_get_double(x);
			if (json_object_object_get_ex(j, "ci95_pct_hi", &x))
				v->ci_hi = json_object_get_double(x);
			if (json_object_object_get_ex(j, "profile", &x) && json_object_is_type(x, json_type_string))
				copy_text(v->profile, sizeof(v->profile), json_object_get_string(x));
			/* kept as stored: every string in them is escaped where it is printed */
			if (json_object_object_get_ex(j, "ablation", &x) && json_object_is_type(x, json_type_object))
				v->ablation = json_object_get(x);
			if (json_object_object_get_ex(j, "guards", &x) && json_object_is_type(x, json_type_object))
				v->guards = json_object_get(x);
			if (json_object_object_get_ex(j, "check", &x) && json_object_is_type(x, json_type_object))
				v->check = json_object_get(x);
			if (!v->significant && v->check && json_object_object_get_ex(v->check, "refused", &x) &&
			    json_object_get_boolean(x))
				snprintf(v->refused, sizeof(v->refused), "check");
			else if (!v->significant && json_object_object_get_ex(j, "guard_rejected", &x) &&
				 json_object_is_type(x, json_type_array) && json_object_array_length(x) > 0)
				snprintf(v->refused, sizeof(v->refused), "guard");
		}
	}
	json_object_put(j);
	if (!v->has_result) { /* unfinished: the best so far, not confirmed */
		int b = best_point(&v->S);
		memcpy(v->rec, v->S.points[b >= 0 ? b : 0].vals, sizeof(long) * (size_t)v->S.sp.d);
		v->rec_point = b >= 0 ? b : 0;
	}
}

/* A string of a stored object, "" if it has none (still hostile: escape it where it lands). */
static const char *jstring(json_object *o, const char *key)
{
	json_object *x;

	return o && json_object_object_get_ex(o, key, &x) && json_object_is_type(x, json_type_string)
		   ? json_object_get_string(x)
		   : "";
}

const char *view_decision(const struct run_view *v)
{
	return !strcmp(v->refused, "check")   ? "what was shown better makes the check workload worse: keep the "
						"original settings"
	       : !strcmp(v->refused, "guard") ? "what was shown better breaks a guard: keep the original settings"
					      : "nothing beat the original settings significantly: keep them";
}

static double jnum(json_object *o, const char *key)
{
	json_object *x;

	return o && json_object_object_get_ex(o, key, &x) &&
		       (json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int))
		   ? json_object_get_double(x)
		   : NAN;
}

/* A stored run that is a re-check of this one (its result's recheck_of is our uuid).
 * Runs come newest first; kept oldest first. The texts are checked: a verdict is one
 * of three words, a time is printed escaped. */
static int find_recheck(void *arg, const struct store_run *r)
{
	struct run_view *v = arg;
	json_object *j = r->result ? json_tokener_parse(r->result) : NULL, *x;
	struct recheck *rc;
	const char *vd;

	if (!j || !json_object_object_get_ex(j, "recheck_of", &x) || !json_object_is_type(x, json_type_string) ||
	    strcmp(json_object_get_string(x), v->uuid) != 0 || !json_object_object_get_ex(j, "verdict", &x) ||
	    !json_object_is_type(x, json_type_string) ||
	    (strcmp(vd = json_object_get_string(x), "holds") && strcmp(vd, "smaller") && strcmp(vd, "gone")) ||
	    v->nrecheck >= (int)(sizeof(v->recheck) / sizeof(v->recheck[0]))) {
		json_object_put(j);
		return 0;
	}
	memmove(&v->recheck[1], &v->recheck[0], sizeof(v->recheck[0]) * (size_t)v->nrecheck);
	rc = &v->recheck[0];
	v->nrecheck++;
	text_safe(r->finished ? r->finished : r->started, rc->when, sizeof(rc->when));
	snprintf(rc->verdict, sizeof(rc->verdict), "%s", vd);
	rc->change = jnum(j, "change_pct");
	rc->lo = jnum(j, "ci_pct_lo");
	rc->hi = jnum(j, "ci_pct_hi");
	rc->claimed = jnum(j, "claimed_pct");
	rc->pairs = (int)jnum(j, "pairs");
	json_object_put(j);
	return 0;
}

static int pick_latest(void *arg, const struct store_run *r)
{
	long *id = arg;

	if (!*id)
		*id = r->id;
	return 0;
}

int run_view_open(struct run_view **vp, const char *db, const char *which)
{
	struct run_view *v = calloc(1, sizeof(*v));
	struct store *st = NULL;
	long id = 0;
	char *end;

	*vp = NULL;
	if (!v)
		return error("out of memory");
	if (!store_exists(db)) {
		free(v);
		return error("no results store %s: run a search first (or name the store with --db)", db);
	}
	if (store_open(&st, db) < 0)
		goto fail;
	if (!which) {
		if (store_runs_info(st, 0, pick_latest, &id) < 0)
			goto fail;
		if (!id) {
			error("%s holds no run yet", db);
			goto fail;
		}
	} else {
		id = strtol(which, &end, 10);
		if (end == which || *end || id <= 0) {
			char b[128];
			if ((id = store_run_by_uuid(st, which)) <= 0) {
				if (id == 0)
					error("%s holds no run '%s' (see 'vmtune runs')", db,
					      text_safe(which, b, sizeof(b)));
				goto fail;
			}
		}
	}
	v->S.o = &v->o;
	v->S.obs = calloc(MAX_OBS, sizeof(*v->S.obs));
	v->S.points = calloc(MAX_POINTS, sizeof(*v->S.points));
	if (!v->S.obs || !v->S.points) {
		error("out of memory");
		goto fail;
	}
	if (store_runs_info(st, id, load_run_row, v) < 0)
		goto fail;
	if (!v->id) {
		error("%s holds no run %ld (see 'vmtune runs')", db, id);
		goto fail;
	}
	v->S.swap_dim = space_find(&v->S.sp, &swap_knob);
	for (int i = 0; i < v->S.sp.d; i++)
		v->S.cur[i] = v->S.sp.dim[i].original;
	add_point(&v->S, v->S.cur);
	v->S.trials_done = 1;
	v->S.run_id = v->id;
	if (store_trials_each(st, v->id, load_trial, v) < 0 || store_measurements_each(st, v->id, load_meas, v) < 0)
		goto fail;
	if (v->uuid[0] && store_runs_info(st, 0, find_recheck, v) < 0)
		goto fail;
	store_close(st);
	rescore(&v->S);
	load_result(v);
	sensitivity(&v->S, v->sens);
	*vp = v;
	return 0;
fail:
	store_close(st);
	run_view_close(v);
	return -1;
}

void run_view_close(struct run_view *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->nm; i++)
		free(v->m[i].ser);
	free(v->m);
	free(v->result);
	json_object_put(v->ablation);
	json_object_put(v->guards);
	json_object_put(v->check);
	free(v->S.obs);
	free(v->S.points);
	free(v);
}

/* --- what the report says ------------------------------------------------------------ */

/* The runs behind each side: the confirmation's when there was one, else the
 * original's baseline runs and the recommended point's own. */
bool view_meas_side(const struct run_view *v, const struct view_meas *x, int side)
{
	bool confirmed = false;

	for (int i = 0; i < v->nm && !confirmed; i++)
		confirmed = v->m[i].kind == TK_CONFIRM_BASELINE;
	if (side == 0)
		return confirmed ? x->kind == TK_CONFIRM_BASELINE : trial_kind_is_baseline(x->kind);
	if (v->rec_point <= 0)
		return false;
	return x->point == v->rec_point &&
	       (confirmed ? x->kind == TK_CONFIRM : (x->kind == TK_CANDIDATE || x->kind == TK_REPEAT));
}

const char *view_workload_name(const struct run_view *v, int w, char *buf, size_t size)
{
	char b[1100];

	snprintf(buf, size, "%s", text_safe(v->o.wl[w].spec, b, sizeof(b)));
	return buf;
}

/* The seeds' "Averages for N runs" block of one side and workload. */
static void print_block(const struct run_view *v, int side, int w)
{
	double x[6][MAX_OBS];
	static const char *const labels[6] = { "User time (seconds):",
					       "System time (seconds):",
					       "Elapsed (wall clock) time:",
					       "Major (requiring I/O) page faults:",
					       "Minor (reclaiming a frame) faults:",
					       NULL };
	struct summary s;
	int n = 0, failed = 0, f, i;
	char name[256], metric[64];

	for (i = 0; i < v->nm; i++) {
		const struct view_meas *m = &v->m[i];
		if (m->wl != w || !view_meas_side(v, m, side))
			continue;
		if (!m->ok) {
			failed++;
			continue;
		}
		if (n >= MAX_OBS)
			break;
		x[0][n] = m->user;
		x[1][n] = m->sys;
		x[2][n] = m->elapsed;
		x[3][n] = (double)m->majflt;
		x[4][n] = (double)m->minflt;
		x[5][n] = m->metric;
		n++;
	}
	printf("\nAverages for %d %s runs, %s settings\n", n, view_workload_name(v, w, name, sizeof(name)),
	       side ? "recommended" : "original");
	if (failed)
		printf("(%d more did not complete and are not averaged)\n", failed);
	if (!n) {
		printf("%-36s%s\n", "(no completed run)", "");
		return;
	}
	for (f = 0; f < 5; f++) {
		summarize_robust(x[f], n, &s);
		printf("%-36s%.*f\n", labels[f], f < 3 ? 3 : 1, s.mean);
	}
	summarize_robust(x[5], n, &s);
	snprintf(metric, sizeof(metric), "%s:", v->o.wl[w].metric);
	printf("%-36s%.4g", metric, s.mean);
	if (isfinite(s.lo) && isfinite(s.hi) && s.method != CI_NONE)
		printf(" (95%% CI %.4g .. %.4g, %s)", s.lo, s.hi, ci_method_name(s.method));
	printf("\n");
	summarize_robust(x[2], n, &s);
	printf("%-36s%.3f .. %.3f s, median %.3f s\n", "Elapsed min .. max:", s.min, s.max, s.median);
}

static const char *machine_line(const struct run_view *v, char *buf, size_t size)
{
	const struct machine *m = &v->m_machine;
	char h[300], k[160];

	if (!v->has_machine)
		return snprintf(buf, size, "(not recorded)"), buf;
	snprintf(buf, size, "%s, kernel %s, %d CPUs, %ld MiB memory, %ld MiB swap",
		 text_safe(m->hostname, h, sizeof(h)), text_safe(m->kernel, k, sizeof(k)), m->cpus,
		 m->mem_total_kb / 1024, m->swap_total_kb / 1024);
	return buf;
}

/* What the baselines of workload w say about the machine's drift over the run, and so
 * what each trial was scored against. */
static void print_drift(const struct run_view *v, int w)
{
	struct drift_fit fit;
	double change;
	char name[1100], who[1200] = "";

	if (v->o.nwl > 1)
		snprintf(who, sizeof(who), " (%s)", view_workload_name(v, w, name, sizeof(name)));
	if (!baseline_drift(&v->S, w, &fit, &change)) {
		printf("drift%s: not fitted (fewer than two runs of the original settings, or one not positive)\n",
		       who);
		return;
	}
	if (fit.q == 0)
		printf("drift%s: none shown by the %d runs of the original settings (likelihood-ratio test p = %.2g; "
		       "noise %.1f%% per run); every trial is scored against their mean\n",
		       who, fit.n, fit.p, log_change_pct(sqrt(fit.sigma2)));
	else
		printf("drift%s: the original settings' level moved %+.1f%% from the first of their %d runs to the "
		       "last (a fitted random walk, likelihood-ratio test p = %.2g; noise %.1f%% per run); each "
		       "trial is scored against the level at its time\n",
		       who, log_change_pct(change), fit.n, fit.p, log_change_pct(sqrt(fit.sigma2)));
}

static json_object *drift_json(const struct run_view *v)
{
	json_object *a = json_object_new_array();
	struct drift_fit fit;
	double change;

	for (int w = 0; w < v->o.nwl; w++) {
		json_object *x = json_object_new_object();
		bool ok = baseline_drift(&v->S, w, &fit, &change);
		json_object_object_add(x, "baselines", json_object_new_int(ok ? fit.n : 0));
		json_object_object_add(x, "found", ok ? json_object_new_boolean(fit.q > 0) : NULL);
		json_object_object_add(x, "walk_q", json_number(ok ? fit.q : NAN));
		json_object_object_add(x, "p", json_number(ok ? fit.p : NAN));
		json_object_object_add(x, "noise_pct", json_number(ok ? log_change_pct(sqrt(fit.sigma2)) : NAN));
		json_object_object_add(x, "change_pct", json_number(ok ? log_change_pct(change) : NAN));
		json_object_array_add(a, x);
	}
	return a;
}

void run_view_print(const struct run_view *v)
{
	const struct search *S = &v->S;
	char buf[1200], a[64];
	int i, failed = 0, meas = 0;

	for (i = 0; i < S->nobs; i++)
		failed += S->obs[i].failed;
	for (i = 0; i < v->nm; i++)
		meas++;
	printf("run %ld (%s): %s\n", v->id, v->uuid, v->status);
	printf("started %s%s%s\n", v->started, v->finished[0] ? ", finished " : "", v->finished);
	printf("machine: %s\n", machine_line(v, buf, sizeof(buf)));
	for (i = 0; i < v->o.nwl; i++)
		printf("workload: %s [%s, %s is better%s]\n", view_workload_name(v, i, buf, sizeof(buf)),
		       v->o.wl[i].metric, v->o.wl[i].maximize ? "higher" : "lower",
		       v->o.nwl > 1 ? (snprintf(a, sizeof(a), ", weight %g", v->o.wl[i].weight), a) : "");
	if (v->o.probe)
		printf("probe: %s (objective %s)\n", text_safe(v->o.probe, buf, sizeof(buf)),
		       objective_name(v->o.objective));
	else
		printf("probe: none (no interactivity was measured)\n");
	printf("budget: %d trials%s%s, strategy %s, seed %lu\n", v->o.trials, v->o.time_budget > 0 ? ", " : "",
	       v->o.time_budget > 0 ? (snprintf(a, sizeof(a), "%.0f s", v->o.time_budget), a) : "",
	       strategy_name(v->o.strategy), v->o.seed);
	printf("trials: %d settings tried in %d measurements (%d runs of the workloads), %d failed\n", S->trials_done,
	       S->nobs, meas, failed);
	for (i = 0; i < v->o.nwl; i++)
		print_drift(v, i);
	search_print_knobs(&S->sp, v->rec, v->sens, v->ablation, true);
	printf("\n");
	if (!v->has_result)
		printf("decision: none: the run is %s; the recommended column is the best so far, not confirmed\n",
		       v->status);
	else if (v->significant)
		printf("decision: significant: %+.1f%% of the cost (95%% CI %+.1f%% .. %+.1f%%, over every look and "
		       "finalist)\n",
		       v->change_pct, v->ci_lo, v->ci_hi);
	else
		printf("decision: %s\n", view_decision(v));
	if (v->check) {
		char spec[1100], verdict[32];
		double ch = jnum(v->check, "change_pct"), lo = jnum(v->check, "ci_pct_lo"),
		       hi = jnum(v->check, "ci_pct_hi");
		json_object *x;
		printf("check on %s: %s", text_safe(jstring(v->check, "workload"), spec, sizeof(spec)),
		       text_safe(jstring(v->check, "verdict"), verdict, sizeof(verdict)));
		if (isfinite(ch))
			printf(", %+.1f%% of the cost (%+.1f%% .. %+.1f%%, %d paired rounds)", ch, lo, hi,
			       json_object_object_get_ex(v->check, "pairs", &x) ? json_object_get_int(x) : 0);
		printf("%s\n", !strcmp(v->refused, "check") ? ": the recommendation was refused" : "");
	}
	if (v->ablation) {
		json_object *x;
		char why[256];
		if (json_object_object_get_ex(v->ablation, "why", &x) && json_object_is_type(x, json_type_string))
			printf("the confirmed setting is recommended whole: %s\n",
			       text_safe(json_object_get_string(x), why, sizeof(why)));
	}
	search_print_guards(v->guards, "recommended");
	if (v->profile[0])
		printf("profile: %s\n", v->profile);
	if (v->recheck_of[0])
		printf("this run is a re-check (verify --measure) of run %s\n", v->recheck_of);
	for (i = 0; i < v->nrecheck; i++) {
		const struct recheck *r = &v->recheck[i];
		if (!i)
			printf("re-checks (verify --measure), oldest first:\n");
		printf("  %s: the gain %s: %+.1f%% (%+.1f%% .. %+.1f%%, %d paired rounds; claimed %+.1f%%)\n", r->when,
		       r->verdict, r->change, r->lo, r->hi, r->pairs, r->claimed);
	}
	for (i = 0; i < v->o.nwl; i++) {
		print_block(v, 0, i);
		if (v->rec_point > 0)
			print_block(v, 1, i);
	}
}

static int changed_knobs(const struct run_view *v)
{
	int n = 0;

	for (int i = 0; i < v->S.sp.d; i++)
		n += v->rec[i] != v->S.sp.dim[i].original;
	return n;
}

json_object *run_view_json(const struct run_view *v)
{
	json_object *o = json_object_new_object(), *k = json_object_new_array(), *w = json_object_new_array();
	char a[64];
	int i, failed = 0;

	for (i = 0; i < v->S.nobs; i++)
		failed += v->S.obs[i].failed;
	json_object_object_add(o, "run", json_object_new_int64(v->id));
	json_object_object_add(o, "uuid", json_object_new_string(v->uuid));
	json_object_object_add(o, "status", json_object_new_string(v->status));
	json_object_object_add(o, "started", json_object_new_string(v->started));
	json_object_object_add(o, "finished", v->finished[0] ? json_object_new_string(v->finished) : NULL);
	for (i = 0; i < v->o.nwl; i++) {
		json_object *x = json_object_new_object();
		json_object_object_add(x, "spec", json_object_new_string(v->o.wl[i].spec));
		json_object_object_add(x, "metric", json_object_new_string(v->o.wl[i].metric));
		json_object_object_add(x, "maximize", json_object_new_boolean(v->o.wl[i].maximize));
		json_object_array_add(w, x);
	}
	json_object_object_add(o, "workloads", w);
	json_object_object_add(o, "probe", v->o.probe ? json_object_new_string(v->o.probe) : NULL);
	json_object_object_add(o, "trials", json_object_new_int(v->S.trials_done));
	json_object_object_add(o, "measurements", json_object_new_int(v->S.nobs));
	json_object_object_add(o, "failed", json_object_new_int(failed));
	json_object_object_add(o, "drift", drift_json(v));
	for (i = 0; i < v->S.sp.d; i++) {
		const struct space_dim *dm = &v->S.sp.dim[i];
		json_object *x = json_object_new_object();
		json_object_object_add(x, "knob", json_object_new_string(dm->def->name));
		json_object_object_add(x, "original",
				       json_object_new_string(knob_format_value(dm->def, dm->original, a, sizeof(a))));
		json_object_object_add(x, "recommended",
				       json_object_new_string(knob_format_value(dm->def, v->rec[i], a, sizeof(a))));
		json_object_object_add(x, "sensitivity_pct", json_number(v->sens[i].pct));
		json_object_object_add(x, "sensitivity_lo_pct", json_number(v->sens[i].lo));
		json_object_object_add(x, "sensitivity_hi_pct", json_number(v->sens[i].hi));
		if (isfinite(v->sens[i].pct))
			json_object_object_add(x, "effect_found", json_object_new_boolean(sens_found(&v->sens[i])));
		{
			json_object *kn, *e;
			if (v->ablation && json_object_object_get_ex(v->ablation, "knobs", &kn) &&
			    json_object_object_get_ex(kn, dm->def->name, &e) &&
			    json_object_is_type(e, json_type_object)) {
				json_object *y;
				static const char *const keys[] = { "share_pct", "share_lo", "share_hi" };
				for (int q = 0; q < 3; q++)
					json_object_object_add(x, keys[q],
							       json_number(json_object_object_get_ex(e, keys[q], &y)
									       ? json_object_get_double(y)
									       : NAN));
			}
		}
		json_object_array_add(k, x);
	}
	json_object_object_add(o, "knobs", k);
	json_object_object_add(o, "decided", json_object_new_boolean(v->has_result));
	json_object_object_add(o, "significant", json_object_new_boolean(v->significant));
	json_object_object_add(o, "change_pct", json_number(v->has_result ? v->change_pct : NAN));
	json_object_object_add(o, "ci95_pct_lo", json_number(v->has_result ? v->ci_lo : NAN));
	json_object_object_add(o, "ci95_pct_hi", json_number(v->has_result ? v->ci_hi : NAN));
	json_object_object_add(o, "changed", json_object_new_int(changed_knobs(v)));
	json_object_object_add(o, "ablation",
			       v->ablation ? json_tokener_parse(json_object_to_json_string(v->ablation)) : NULL);
	json_object_object_add(o, "guards",
			       v->guards ? json_tokener_parse(json_object_to_json_string(v->guards)) : NULL);
	json_object_object_add(o, "check", v->check ? json_tokener_parse(json_object_to_json_string(v->check)) : NULL);
	json_object_object_add(o, "refused", v->refused[0] ? json_object_new_string(v->refused) : NULL);
	return o;
}

/* --- vmtune runs --------------------------------------------------------------------- */

struct list_ctx {
	bool json;
	json_object *arr;
};

static int list_one(void *arg, const struct store_run *r)
{
	struct list_ctx *L = arg;
	struct run_config c;
	json_object *res = r->result ? json_tokener_parse(r->result) : NULL, *x, *mj;
	struct machine m;
	char host[300] = "?", wl[1100] = "?", when[64], dec[96] = "", st[64];
	bool ok = r->config && run_config_parse(r->config, &c) == 0 && c.nwl > 0;

	mj = r->machine ? json_tokener_parse(r->machine) : NULL;
	if (mj && machine_from_json(mj, &m) == 0)
		text_safe(m.hostname, host, sizeof(host));
	json_object_put(mj);
	if (ok)
		text_safe(c.wl[0].spec, wl, sizeof(wl));
	text_safe(r->started ? r->started : "", when, sizeof(when));
	text_safe(r->status ? r->status : "", st, sizeof(st));
	if (res && json_object_object_get_ex(res, "significant", &x)) {
		if (json_object_get_boolean(x)) {
			json_object *c1, *lo, *hi;
			if (json_object_object_get_ex(res, "change_pct", &c1) &&
			    json_object_object_get_ex(res, "ci95_pct_lo", &lo) &&
			    json_object_object_get_ex(res, "ci95_pct_hi", &hi))
				snprintf(dec, sizeof(dec), "%+.1f%% (%+.1f .. %+.1f)", json_object_get_double(c1),
					 json_object_get_double(lo), json_object_get_double(hi));
		} else {
			snprintf(dec, sizeof(dec), "kept the original");
		}
	} else if (res && json_object_object_get_ex(res, "verdict", &x) && json_object_is_type(x, json_type_string)) {
		const char *vd = json_object_get_string(x);
		if (!strcmp(vd, "holds") || !strcmp(vd, "smaller") || !strcmp(vd, "gone"))
			snprintf(dec, sizeof(dec), "re-check: %s", vd);
	}
	if (L->json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "run", json_object_new_int64(r->id));
		json_object_object_add(o, "uuid", json_object_new_string(r->uuid ? r->uuid : ""));
		json_object_object_add(o, "started", json_object_new_string(r->started ? r->started : ""));
		json_object_object_add(o, "status", json_object_new_string(r->status ? r->status : ""));
		json_object_object_add(o, "hostname", json_object_new_string(host));
		json_object_object_add(o, "workload", ok ? json_object_new_string(c.wl[0].spec) : NULL);
		json_object_object_add(o, "workloads", json_object_new_int(ok ? c.nwl : 0));
		json_object_object_add(o, "trials", json_object_new_int64(r->trials));
		json_object_object_add(o, "failed", json_object_new_int64(r->failed));
		json_object_object_add(o, "decision", dec[0] ? json_object_new_string(dec) : NULL);
		json_object_array_add(L->arr, o);
	} else {
		if (ok && c.nwl > 1) {
			size_t n = strlen(wl);
			snprintf(wl + n, sizeof(wl) - n, " (+%d)", c.nwl - 1);
		}
		printf("%-5ld %-20.20s %-11s %-6ld %-16.16s %-22s %s\n", r->id, when, st, r->trials, host,
		       dec[0] ? dec : "-", wl);
	}
	json_object_put(res);
	return 0;
}

int search_runs_list(const char *db, bool json)
{
	struct list_ctx L = { .json = json };
	struct store *st;
	int rc;

	if (!store_exists(db)) {
		if (json)
			printf("[]\n");
		else
			printf("no runs: %s does not exist yet\n", db);
		return 0;
	}
	if (store_open(&st, db) < 0)
		return EXIT_ENV;
	if (json)
		L.arr = json_object_new_array();
	else
		printf("%-5s %-20s %-11s %-6s %-16s %-22s %s\n", "RUN", "STARTED", "STATUS", "TRIALS", "MACHINE",
		       "DECISION (95% CI)", "WORKLOAD");
	rc = store_runs_info(st, 0, list_one, &L);
	store_close(st);
	if (json) {
		printf("%s\n",
		       json_object_to_json_string_ext(L.arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(L.arr);
	}
	return rc < 0 ? EXIT_ENV : 0;
}
