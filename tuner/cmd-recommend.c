/* cmd-recommend.c - `vmtune recommend`: settings for this machine (or --machine
 * FILE) from every stored trial of a workload, across runs and machines. A
 * Gaussian process over the knobs and the machine features (model.c) predicts
 * each setting's cost relative to the machine's original settings; the
 * recommendation is the setting whose prediction is good with some certainty
 * (lowest mean + one sd). With no stored trials, the shipped profile whose match
 * fits this machine. */
#include <dirent.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "text.h"
#include "advice.h"
#include "commands.h"
#include "gp.h"
#include "html.h"
#include "knob.h"
#include "mix.h"
#include "model.h"
#include "pool.h"
#include "profile.h"
#include "space.h"
#include "stats.h"
#include "store.h"
#include "vmtune.h"
#include "workload.h"

#ifndef PROFILE_DIR
#define PROFILE_DIR "/usr/local/share/vmtune/profiles"
#endif

static const char recommend_help[] =
    "  -w, --workload SPEC   the workload the settings are for, as it was searched (its options in\n"
    "                        any order; repeatable: a mix); without it, the one workload the stores\n"
    "                        hold searches of\n"
    "      --mix FILE        the workloads and objective of a mix\n"
    "      --objective O     throughput (default), interactive or balanced: as the searches used\n"
    "  -k, --knobs LIST      knobs to recommend (default: every knob the stored searches varied);\n"
    "                        the model still takes them all, the others stay as they are\n"
    "      --db FILE         a results store to pool (repeatable; default STATE/vmtune.db)\n"
    "  -o, --out FILE        write the recommendation as a profile\n"
    "      --explain         which trials and machine features drove each value\n"
    "      --html FILE       the recommendation as one HTML page of charts: the machines pooled and\n"
    "                        their similarity to this one, each knob's measured points and model\n"
    "      --profiles DIR    shipped profiles for the fallback (no data, or a guess across kinds of\n"
    "                        swap the model is unsure of; default: next to vmtune, then\n"
    "                        " PROFILE_DIR ")\n"
    "      --seed N          seed of the optimiser (default 1)\n";

struct rec {
	struct pool_query q;
	struct machine m;
	struct space sp;
	struct pool pool;
	struct model model;
	struct advice A; /* what the model says, by the policy */
	const char *out, *profiles, *html;
	bool explain, html_done;
	bool free[SPACE_MAX]; /* recommended (else held at the original value) */
	unsigned long seed;
};

static int write_html(const struct rec *R, const char *what, const char *status);

/* --- the fallback: a shipped profile whose match fits ----------------------------- */

static int profile_dirs(const char *given, char dirs[][PATH_MAX], int max)
{
	char dir[PATH_MAX];
	const char *env = getenv("VMTUNE_PROFILE_DIR");
	int k = 0;

	if (given) {
		snprintf(dirs[k++], PATH_MAX, "%s", given);
		return k;
	}
	if (env && *env)
		snprintf(dirs[k++], PATH_MAX, "%s", env);
	if (vt_exe_dir(dir, sizeof(dir))) {
		/* the source tree (build/vmtune) or PREFIX/bin/vmtune */
		snprintf(dirs[k++], PATH_MAX, "%s/../profiles", dir);
		snprintf(dirs[k++], PATH_MAX, "%s/../share/vmtune/profiles", dir);
	}
	if (k < max)
		snprintf(dirs[k++], PATH_MAX, "%s", PROFILE_DIR);
	return k;
}

static void print_json(json_object *j)
{
	printf("%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
}

/* The fitting profile with the narrowest match (both bounds before one, none last).
 * guess: the model's answer it was not sure of (--json; taken over), or NULL. */
static int fallback(struct rec *R, const char *reason, json_object *guess)
{
	char dirs[4][PATH_MAX], path[PATH_MAX], best_path[PATH_MAX] = "", why[256], best_why[256] = "";
	static struct profile p, best;
	int nd = profile_dirs(R->profiles, dirs, 4), d, i, n, best_rank = -1;
	json_object *j;

	if (R->html && !R->html_done)
		warning("--html: no page written: %s, so there is no model to draw", reason);

	for (d = 0; d < nd && !best_path[0]; d++) {
		char **names;
		if ((n = file_list(dirs[d], ".yaml", &names)) < 0)
			continue;
		for (i = 0; i < n; i++) {
			int rank;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], names[i]);
			if (profile_load(path, &p) != 0)
				warning("skipping %s: it does not load", path);
			else if (profile_fits(&p, &R->m, why, sizeof(why)) &&
				 (rank = p.match.has_min + p.match.has_max) > best_rank) {
				best_rank = rank;
				best = p;
				snprintf(best_path, sizeof(best_path), "%s", path);
				snprintf(best_why, sizeof(best_why), "%s", why);
			} else {
				verbose("%s does not fit: %s", path, why);
			}
		}
		file_list_free(names, n);
	}
	if (vt.json) {
		j = json_object_new_object();
		json_object_object_add(j, "source", json_object_new_string(best_path[0] ? "shipped-profile" : "none"));
		json_object_object_add(j, "reason", json_object_new_string(reason));
		if (best_path[0]) {
			json_object_object_add(j, "profile", json_object_new_string(best_path));
			json_object_object_add(j, "match", json_object_new_string(best_why));
			json_object *pj = profile_json(&best), *set = NULL;
			json_object_object_get_ex(pj, "settings", &set);
			json_object_object_add(j, "settings", json_object_get(set));
			json_object_put(pj);
		}
		if (guess) {
			json_object_object_del(guess, "source");
			json_object_object_add(j, "model_guess", guess);
		}
		print_json(j);
	} else {
		printf("%s\n", reason);
		if (!best_path[0]) {
			printf("no shipped profile fits %s either: keep the current settings, or run vmtune search\n",
			       R->m.hostname);
		} else {
			char v[64];
			printf("fallback: the shipped profile %s (%s)\n", best.name, best_path);
			printf("why: %s\n", best_why);
			printf(
			    "settings (not measured on this machine; vmtune search would show whether they help):\n");
			for (i = 0; i < best.nsettings; i++)
				printf("  %-28s %s\n", best.settings[i].def->name,
				       knob_format_value(best.settings[i].def, best.settings[i].value, v, sizeof(v)));
		}
	}
	if (R->out && best_path[0]) {
		snprintf(best.description, sizeof(best.description), "the shipped profile %s, chosen by its match (%s)",
			 best.name, best_why);
		if (profile_write(R->out, &best) < 0)
			return EXIT_ENV;
		if (!vt.json)
			printf("profile: %s\n", R->out);
	}
	return 0;
}

/* --- the model ------------------------------------------------------------------ */

static void print_sources(const struct rec *R)
{
	char sum[160], sim[32];
	int i;

	for (i = 0; i < R->pool.nmachines; i++) {
		const struct pool_machine *pm = &R->pool.machines[i];
		if (pm->own)
			snprintf(sim, sizeof(sim), "this machine");
		else
			snprintf(sim, sizeof(sim), "similarity %.2f", model_similarity(&R->model, R->A.feat, pm->feat));
		printf("  %-20s %-16s %4d trial%s in %d run%s  (%s)\n", pm->m.hostname, sim, pm->ntrials,
		       pm->ntrials == 1 ? "" : "s", pm->nruns, pm->nruns == 1 ? "" : "s",
		       machine_summary(&pm->m, sum, sizeof(sum)));
	}
}

/* What drove one knob's value: the predicted change across its range with the
 * others held, and the trials whose weight moves the prediction most between
 * the recommended value and the original one. */
static void explain_knob(const struct rec *R, int k)
{
	const struct space_dim *dm = &R->sp.dim[k];
	long alt[SPACE_MAX];
	double m, s, *wa, *wb;
	long prev = 0;
	int levels = dm->categorical ? (int)(dm->hi - dm->lo + 1) : 7, j, n = R->model.gp.n, top[3] = { -1, -1, -1 };
	double topv[3] = { 0 };
	char v[64], desc[512];

	printf("%s = %s\n  predicted change by value (others as recommended):", dm->def->name,
	       knob_format_value(dm->def, R->A.vals[k], v, sizeof(v)));
	for (j = 0; j < levels; j++) {
		memcpy(alt, R->A.vals, sizeof(alt));
		alt[k] = dm->categorical ? dm->lo + j : space_decode(dm, -1 + 2.0 * j / (levels - 1));
		if (j && alt[k] == prev)
			continue; /* a narrow range rounds two levels to one value */
		prev = alt[k];
		model_predict(&R->model, alt, &m, &s);
		printf(" %s:%+.0f%%", knob_format_value(dm->def, alt[k], v, sizeof(v)), log_change_pct(m));
	}
	printf("\n");
	if (R->A.vals[k] == dm->original)
		return;
	wa = malloc(sizeof(double) * (size_t)n);
	wb = malloc(sizeof(double) * (size_t)n);
	if (!wa || !wb) {
		free(wa);
		free(wb);
		return;
	}
	{
		double xa[SPACE_MAX + MACHINE_NFEAT], xb[SPACE_MAX + MACHINE_NFEAT];
		memcpy(alt, R->A.vals, sizeof(alt));
		alt[k] = dm->original;
		pool_encode(&R->sp, R->A.vals, R->A.feat, xa);
		pool_encode(&R->sp, alt, R->A.feat, xb);
		gp_contributions(&R->model.gp, xa, wa);
		gp_contributions(&R->model.gp, xb, wb);
	}
	/* the trials that pull the recommended value below the original most */
	for (j = 0; j < n; j++) {
		double d = wb[j] - wa[j];
		int t;
		if (R->model.pt[j] < 0 || d <= topv[2])
			continue;
		for (t = 2; t > 0 && d > topv[t - 1]; t--) {
			topv[t] = topv[t - 1];
			top[t] = top[t - 1];
		}
		topv[t] = d;
		top[t] = j;
	}
	printf("  against the original %s, most weight from:\n",
	       knob_format_value(dm->def, dm->original, v, sizeof(v)));
	for (j = 0; j < 3 && top[j] >= 0; j++) {
		const struct pool_point *pt = &R->pool.pts[R->model.pt[top[j]]];
		const struct pool_machine *pm = &R->pool.machines[R->pool.runs[pt->run].machine];
		printf("    %-16s run %.8s  %s  measured %+.1f%% (%d measurement%s)%s\n", pm->m.hostname,
		       R->pool.runs[pt->run].uuid, space_describe(&R->sp, pt->vals, true, desc, sizeof(desc)),
		       log_change_pct(pt->y), pt->n, pt->n == 1 ? "" : "s", pt->filled ? ", some knobs filled in" : "");
	}
	free(wa);
	free(wb);
}

static void explain(const struct rec *R)
{
	int k;

	printf("\nwhy:\n");
	for (k = 0; k < R->sp.d; k++)
		if (R->free[k])
			explain_knob(R, k);
	printf("relevance (the model's length scale; shorter matters more, 20 hardly at all):\n  knobs:");
	for (k = 0; k < R->sp.d; k++)
		printf(" %s %.2g%s", R->sp.dim[k].def->name, exp(R->model.gp.log_l[k]), k + 1 < R->sp.d ? "," : "");
	printf("\n  machine:");
	for (k = 0; k < MACHINE_NFEAT; k++)
		printf(" %s %.2g%s", machine_feature_names[k], exp(R->model.gp.log_l[R->sp.d + k]),
		       k + 1 < MACHINE_NFEAT ? "," : "");
	printf("\n");
}

static int write_out(const struct rec *R, const char *what)
{
	struct profile p;
	time_t t = time(NULL);
	struct tm tm;
	int i;

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s-recommended", R->m.hostname);
	snprintf(p.description, sizeof(p.description),
		 "vmtune recommend for %s from %d stored trials (%s): predicted change %+.1f%% "
		 "(95%% interval %+.1f%% .. %+.1f%%), not measured here",
		 R->q.nspecs > 1 ? "a mix" : R->q.specs[0], R->pool.ntrials, what, log_change_pct(R->A.mean),
		 log_change_pct(R->A.mean - 1.96 * R->A.sd), log_change_pct(R->A.mean + 1.96 * R->A.sd));
	gmtime_r(&t, &tm);
	strftime(p.created, sizeof(p.created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p.machine.present = true;
	snprintf(p.machine.hostname, sizeof(p.machine.hostname), "%s", R->m.hostname);
	snprintf(p.machine.kernel, sizeof(p.machine.kernel), "%s", R->m.kernel);
	p.machine.cpus = R->m.cpus;
	p.machine.mem_total_kb = R->m.mem_total_kb;
	p.machine.swap_total_kb = R->m.swap_total_kb;
	for (i = 0; i < R->sp.d; i++)
		if (R->free[i]) {
			p.settings[p.nsettings].def = R->sp.dim[i].def;
			p.settings[p.nsettings++].value = R->A.vals[i];
		}
	return profile_write(R->out, &p) < 0 ? EXIT_ENV : 0;
}

static json_object *model_json(const struct rec *R, const char *what)
{
	json_object *j = json_object_new_object(), *set = json_object_new_object(), *src = json_object_new_array();
	int i;

	json_object_object_add(j, "source", json_object_new_string("model"));
	json_object_object_add(j, "basis", json_object_new_string(what));
	json_object_object_add(j, "machine", json_object_new_string(R->m.hostname));
	json_object_object_add(j, "swap_as_searched", json_object_new_boolean(R->A.as_searched));
	json_object_object_add(j, "swap_kind_seen", json_object_new_boolean(R->A.swap_kind_seen));
	json_object_object_add(j, "sure", json_object_new_boolean(!R->A.unsure));
	if (R->A.kind_doubts && isfinite(R->A.kind_mean))
		json_object_object_add(j, "kind_alone_change_pct", json_number(log_change_pct(R->A.kind_mean)));
	for (i = 0; i < R->sp.d; i++) {
		const struct knob_def *d = R->sp.dim[i].def;
		if (!R->free[i])
			continue;
		json_object_object_add(set, d->name, knob_value_json(d, R->A.vals[i]));
	}
	json_object_object_add(j, "settings", set);
	json_object_object_add(j, "predicted_change_pct", json_number(log_change_pct(R->A.mean)));
	json_object_object_add(j, "predicted_ci95_pct_lo", json_number(log_change_pct(R->A.mean - 1.96 * R->A.sd)));
	json_object_object_add(j, "predicted_ci95_pct_hi", json_number(log_change_pct(R->A.mean + 1.96 * R->A.sd)));
	json_object_object_add(j, "trials", json_object_new_int(R->pool.ntrials));
	json_object_object_add(j, "points", json_object_new_int(R->pool.npts));
	for (i = 0; i < R->pool.nmachines; i++) {
		const struct pool_machine *pm = &R->pool.machines[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "hostname", json_object_new_string(pm->m.hostname));
		json_object_object_add(o, "this_machine", json_object_new_boolean(pm->own));
		json_object_object_add(o, "similarity", json_number(model_similarity(&R->model, R->A.feat, pm->feat)));
		json_object_object_add(o, "runs", json_object_new_int(pm->nruns));
		json_object_object_add(o, "trials", json_object_new_int(pm->ntrials));
		json_object_array_add(src, o);
	}
	json_object_object_add(j, "machines", src);
	return j;
}

static int recommend(struct rec *R, const char *knobs)
{
	char found[2048], list[2048], sum[160], a[64], b[64], what[160];
	int nmatch, i, own, own_trials;
	double best_sim = 0;
	bool unsure, guess_only;
	char unsure_reason[320], unsure_msg[400];
	const char *best_host = "";

	if ((nmatch = pool_knobs(&R->q, found, sizeof(found))) < 0)
		return EXIT_ENV;
	snprintf(list, sizeof(list), "%s", found);
	if (nmatch == 0 || !list[0])
		return fallback(R, "no stored search of these workloads (with this objective)", NULL);
	/* the model takes every knob the searches varied that this machine has (a
	 * trial's cost depends on all of them); --knobs only chooses which of them
	 * are recommended, the others stay at their original values */
	{
		char keep[2048] = "", *save = NULL, *tok;
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			struct knob_state st;
			knob_probe(knob_find(tok), &st);
			if (!st.have_value || (st.status != KS_AVAILABLE && st.status != KS_READONLY)) {
				verbose("%s is not available here (%s); not recommended", tok, st.why);
				continue;
			}
			snprintf(keep + strlen(keep), sizeof(keep) - strlen(keep), "%s%s", keep[0] ? "," : "", tok);
		}
		if (!keep[0])
			return fallback(R, "none of the knobs the stored searches varied is available here", NULL);
		if ((i = space_build_for(&R->sp, keep, false)) != 0)
			return i;
	}
	for (i = 0; i < R->sp.d; i++)
		R->free[i] = !knobs;
	if (knobs) {
		char buf[2048], *save = NULL, *tok;
		int nfree = 0;
		snprintf(buf, sizeof(buf), "%s", knobs);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			const struct knob_def *d = knob_find(tok);
			int k;
			if (!d) {
				error("--knobs: no knob '%s' (see 'vmtune knobs')", tok);
				return EXIT_USAGE;
			}
			for (k = 0; k < R->sp.d && R->sp.dim[k].def != d; k++)
				;
			if (k == R->sp.d) {
				warning(
				    "--knobs: %s was not varied by the stored searches of these workloads (or is not "
				    "available here); left out",
				    tok);
				continue;
			}
			R->free[k] = true;
			nfree++;
		}
		if (!nfree) {
			error("--knobs: none of them was varied by the stored searches (they varied %s)", found);
			return EXIT_USAGE;
		}
	}
	if (pool_load(&R->pool, &R->q, &R->sp, &R->m) < 0)
		return EXIT_ENV;
	if (advice_make(&R->A, &R->model, &R->pool, &R->sp, &R->m, R->free, R->seed) < 0)
		return fallback(R, "too few stored trials of these workloads for a model", NULL);
	own = R->A.own;
	own_trials = R->A.own_trials;
	for (i = 0; i < R->pool.nmachines; i++) {
		const struct pool_machine *pm = &R->pool.machines[i];
		double s = model_similarity(&R->model, R->A.feat, pm->feat);
		if (pm->own) {
			continue;
		} else if (s > best_sim) {
			best_sim = s;
			best_host = pm->m.hostname;
		}
	}
	if (own)
		snprintf(what, sizeof(what), "%d trials from this machine and %d from %d other machine%s", own_trials,
			 R->pool.ntrials - own_trials, R->pool.nmachines - own,
			 R->pool.nmachines - own == 1 ? "" : "s");
	else
		snprintf(what, sizeof(what), "transferred from %d other machine%s, the most similar %s (%.2f)",
			 R->pool.nmachines, R->pool.nmachines == 1 ? "" : "s", best_host, best_sim);
	/* a transfer from machines with another kind of swap, which the model is not
	 * sure beats the original settings, is not handed out as the recommendation:
	 * the shipped profile is, with the guess shown beside it */
	unsure = R->A.unsure;
	guess_only = R->A.guess_only;
	snprintf(unsure_reason, sizeof(unsure_reason),
		 "not recommended: no stored machine has swap of this kind (%s), and the model is not sure its "
		 "guess beats the original settings (vmtune search --warm-start starts from the guess and "
		 "measures it)",
		 machine_swap_class(&R->m));
	if (R->A.kind_doubts && !isfinite(R->A.kind_mean))
		snprintf(unsure_msg, sizeof(unsure_msg),
			 "the model is not sure these beat the original settings: the trials of this kind of swap "
			 "(%s) are too few to support what the other kinds show; measure them (vmtune search "
			 "--warm-start)",
			 machine_swap_class(&R->m));
	else if (R->A.kind_doubts)
		snprintf(unsure_msg, sizeof(unsure_msg),
			 "the model is not sure these beat the original settings: the trials of this kind of swap "
			 "(%s) alone predict %+.1f%% (95%% interval %+.1f%% .. %+.1f%%); measure them (vmtune search "
			 "--warm-start)",
			 machine_swap_class(&R->m), log_change_pct(R->A.kind_mean),
			 log_change_pct(R->A.kind_mean - 1.96 * R->A.kind_sd),
			 log_change_pct(R->A.kind_mean + 1.96 * R->A.kind_sd));
	else
		snprintf(unsure_msg, sizeof(unsure_msg),
			 "the model is not sure these beat the original settings: measure them (vmtune search "
			 "--warm-start)");
	if (R->html &&
	    (i = write_html(R, what,
			    guess_only ? unsure_reason
			    : unsure   ? unsure_msg
				       : "predicted by the model, not measured as such: vmtune search --warm-start "
					 "measures it")) != 0)
		return i;
	R->html_done = true;
	if (vt.json) {
		json_object *j = model_json(R, what);
		if (guess_only)
			return fallback(R, unsure_reason, j);
		print_json(j);
	} else {
		printf("machine: %s (%s)\n", R->m.hostname, machine_summary(&R->m, sum, sizeof(sum)));
		if (R->A.as_searched)
			printf("(it has no swap now; its searches ran with the swap above, so the recommendation is "
			       "for that)\n");
		printf("data: %d trials (%d distinct settings) of %s%s, %d run%s on %d machine%s:\n", R->pool.ntrials,
		       R->pool.npts, R->q.specs[0], R->q.nspecs > 1 ? " and the rest of the mix" : "", R->pool.nruns,
		       R->pool.nruns == 1 ? "" : "s", R->pool.nmachines, R->pool.nmachines == 1 ? "" : "s");
		print_sources(R);
		printf("basis: %s\n", what);
		printf("%s:\n", guess_only ? "the model's guess (not the recommendation, see below)" : "recommended");
		for (i = 0; i < R->sp.d; i++) {
			const struct knob_def *d = R->sp.dim[i].def;
			if (R->free[i])
				printf("  %-28s %-10s (original %s)\n", d->name,
				       knob_format_value(d, R->A.vals[i], a, sizeof(a)),
				       knob_format_value(d, R->sp.dim[i].original, b, sizeof(b)));
		}
		printf("predicted change of the cost: %+.1f%% (95%% interval %+.1f%% .. %+.1f%%) against the original "
		       "settings\n",
		       log_change_pct(R->A.mean), log_change_pct(R->A.mean - 1.96 * R->A.sd),
		       log_change_pct(R->A.mean + 1.96 * R->A.sd));
		if (!own && !R->A.swap_kind_seen && !guess_only)
			printf(
			    "no stored machine has swap of this kind (%s): the transfer has nothing like it to go on; "
			    "a search (--warm-start) is the way to know\n",
			    machine_swap_class(&R->m));
		if (guess_only)
			; /* the fallback below says it */
		else if (unsure)
			printf("%s\n", unsure_msg);
		else
			printf(
			    "predicted by the model, not measured as such: vmtune search --warm-start measures it\n");
		if (R->explain)
			explain(R);
		if (guess_only) {
			printf("\n");
			return fallback(R, unsure_reason, NULL);
		}
	}
	if (R->out) {
		if ((i = write_out(R, what)) != 0)
			return i;
		if (!vt.json)
			printf("profile: %s\n", R->out);
	}
	return 0;
}

/* --- the page: recommend --html -------------------------------------------------- */

/* The machines the model pooled, as bars of their similarity to this one. */
static int html_machines(struct html *h, const struct rec *R)
{
	struct gpbuf b = { 0 };
	char w[96];
	int i, n = R->pool.nmachines;

	html_figure_open(h, "chart-machines", "The machines pooled, by their similarity to this one");
	gpbuf_printf(&b, "$m << EOD\n");
	for (i = 0; i < n; i++) {
		const struct pool_machine *pm = &R->pool.machines[i];
		double s = pm->own ? 1 : model_similarity(&R->model, R->A.feat, pm->feat);
		gpbuf_printf(&b, "%d %.6g \"%s%s, %d trials\"\n", i, s, gp_word(pm->m.hostname, w, sizeof(w)),
			     pm->own ? " (this machine)" : "", pm->ntrials);
	}
	gpbuf_printf(&b,
		     "EOD\nset xrange [0:1.05]\nset yrange [-0.6:%d.6]\nset ytics nomirror\nset xlabel 'similarity to "
		     "this machine (the fitted correlation of the machine features; 1 = alike)'\n"
		     "plot $m using 2:1:(0):2:($1-0.3):($1+0.3):ytic(3) with boxxyerror fs solid 0.4 fc rgb '#1f77b4' "
		     "notitle, $m using 2:1 with points pt 7 lc rgb '#1f77b4' title 'machines (%d)'\n",
		     n - 1, n);
	if (html_draw_buf_h(h, &b, 160 + 28 * n) < 0)
		return -1;
	html_out(h, "<p>How much each machine's trials count for this one: this machine's own trials sit at "
		    "similarity 1; another machine counts as much as the model's fitted length scales over memory, "
		    "swap device, CPUs, zswap and kernel make it alike.</p>\n</figure>\n");
	return 0;
}

/* One recommended knob: the model's prediction for this machine across the range
 * (the other knobs as recommended) with its 95% band, and the pooled points. */
static int html_knob(struct html *h, const struct rec *R, int k)
{
	const struct space_dim *dm = &R->sp.dim[k];
	struct gpbuf b = { 0 };
	char id[32], title[200], val[64];
	double x[SPACE_MAX + MACHINE_NFEAT];
	int i, j, own = 0, other = 0;

	snprintf(id, sizeof(id), "chart-knob-%d", k + 1);
	snprintf(title, sizeof(title), "%s: the model for this machine and the pooled points", dm->def->name);
	html_figure_open(h, id, title);
	pool_encode(&R->sp, R->A.vals, R->A.feat, x);
	gpbuf_printf(&b, "$p << EOD\n");
	gp_knob_curve(&b, &R->model.gp, dm, k, x);
	for (i = 0; i < 2; i++) { /* this machine's points, then the others' */
		gpbuf_printf(&b, "EOD\n$%s << EOD\n", i ? "other" : "own");
		for (j = 0; j < R->pool.npts; j++) {
			const struct pool_point *pt = &R->pool.pts[j];
			bool mine = R->pool.machines[R->pool.runs[pt->run].machine].own;
			long v = pt->vals[k];
			if (mine != !i)
				continue;
			gpbuf_printf(&b, "%ld %.6g\n", dm->categorical ? v - dm->lo : v, exp(pt->y));
			*(i ? &other : &own) += 1;
		}
	}
	gpbuf_printf(&b, "EOD\n");
	gp_knob_axis(&b, dm);
	gpbuf_printf(&b,
		     "plot $p using 1:3:4 with filledcurves fc rgb '#ffd89b' fs transparent solid 0.5 title 'model: "
		     "95%% band', $p using 1:2 with lines lw 2 lc rgb '#ff7f0e' title 'model: mean'");
	if (own)
		gpbuf_printf(&b, ", $own using 1:2 with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'this machine (%d)'",
			     own);
	if (other)
		gpbuf_printf(&b,
			     ", $other using 1:2 with points pt 6 ps 0.8 lc rgb '#777777' title 'other machines (%d)'",
			     other);
	gpbuf_printf(&b, "\n");
	if (html_draw_buf(h, &b) < 0)
		return -1;
	html_out(h,
		 "<p>The model's predicted cost for this machine across the knob's range, the other knobs at the "
		 "recommendation (%s; original ",
		 knob_format_value(dm->def, R->A.vals[k], val, sizeof(val)));
	html_esc(h->f, knob_format_value(dm->def, dm->original, val, sizeof(val)));
	html_out(h, "). Each point is the mean of one run's trials of one setting, relative to that run's own original "
		    "settings, drawn at its value of this knob whatever the others were.</p>\n</figure>\n");
	return 0;
}

static int write_html(const struct rec *R, const char *what, const char *status)
{
	struct html h = { 0 };
	char title[700], sum[160], a[64], b[64];
	int rc, i;

	snprintf(title, sizeof(title), "vmtune recommend: %s%s", R->q.specs[0],
		 R->q.nspecs > 1 ? " and the rest of its mix" : "");
	if ((rc = html_open(&h, R->html, title)) != 0)
		return rc;
	html_out(&h, "<table>\n<tr><th>machine</th><td>");
	html_esc(h.f, R->m.hostname);
	html_out(&h, " (");
	html_esc(h.f, machine_summary(&R->m, sum, sizeof(sum)));
	html_out(&h, ")</td></tr>\n<tr><th>objective</th><td>");
	html_esc(h.f, R->q.objective ? R->q.objective : "throughput");
	html_out(&h,
		 "</td></tr>\n<tr><th>data</th><td>%d trials (%d distinct settings) in %d run%s on %d "
		 "machine%s</td></tr>\n<tr><th>basis</th><td>",
		 R->pool.ntrials, R->pool.npts, R->pool.nruns, R->pool.nruns == 1 ? "" : "s", R->pool.nmachines,
		 R->pool.nmachines == 1 ? "" : "s");
	html_esc(h.f, what);
	html_out(&h,
		 "</td></tr>\n<tr><th>predicted change</th><td>%+.1f%% of the cost (95%% interval %+.1f%% .. "
		 "%+.1f%%) against the original settings</td></tr>\n<tr><th>status</th><td>",
		 log_change_pct(R->A.mean), log_change_pct(R->A.mean - 1.96 * R->A.sd),
		 log_change_pct(R->A.mean + 1.96 * R->A.sd));
	html_esc(h.f, status);
	html_out(&h,
		 "</td></tr>\n</table>\n<h2>Settings</h2>\n<table>\n<tr><th>knob</th><th>original</th>"
		 "<th>%s</th></tr>\n",
		 R->A.guess_only ? "the model's guess" : "recommended");
	for (i = 0; i < R->sp.d; i++) {
		const struct knob_def *d = R->sp.dim[i].def;
		if (!R->free[i])
			continue;
		html_out(&h, "<tr><td>%s</td><td>", d->name);
		html_esc(h.f, knob_format_value(d, R->sp.dim[i].original, b, sizeof(b)));
		html_out(&h, "</td><td>");
		html_esc(h.f, knob_format_value(d, R->A.vals[i], a, sizeof(a)));
		html_out(&h, "</td></tr>\n");
	}
	html_out(&h, "</table>\n<h2>Charts</h2>\n");
	rc = html_machines(&h, R) < 0 ? EXIT_ENV : 0;
	for (i = 0; rc == 0 && i < R->sp.d; i++)
		if (R->free[i] && html_knob(&h, R, i) < 0)
			rc = EXIT_ENV;
	if ((rc = html_close(&h, rc)) == 0)
		info("wrote %s", R->html);
	return rc;
}

/* No --workload: the one set of workloads the stores hold searches of (with the
 * objective, if given), a list to choose from when there are several, or the
 * shipped profiles when there is none. 0 when R->q names the workloads now, -1
 * when the fallback answered, else an exit code. */
static int which_workloads(struct rec *R)
{
	static struct pool_sets sets;
	int i, j, match = -1, n = 0;

	if (pool_sets(&R->q, &sets) < 0)
		return EXIT_ENV;
	for (i = 0; i < sets.n; i++)
		if (!R->q.objective || strcmp(sets.set[i].objective, R->q.objective) == 0) {
			match = match < 0 ? i : match;
			n++;
		}
	if (n == 0) {
		int rc = fallback(R, "no stored search (name a workload with --workload to look for one)", NULL);
		return rc ? rc : -1;
	}
	if (n > 1) {
		error("the stores hold searches of %d sets of workloads; name one with --workload or --mix:", n);
		for (i = 0; i < sets.n; i++) {
			if (R->q.objective && strcmp(sets.set[i].objective, R->q.objective) != 0)
				continue;
			fprintf(stderr, "  ");
			for (j = 0; j < sets.set[i].nspecs; j++)
				fprintf(stderr, "%s--workload \"%s\"", j ? " " : "", sets.set[i].specs[j]);
			fprintf(stderr, "  (objective %s, %d run%s)\n", sets.set[i].objective, sets.set[i].runs,
				sets.set[i].runs == 1 ? "" : "s");
		}
		return EXIT_USAGE;
	}
	for (j = 0; j < sets.set[match].nspecs; j++)
		R->q.specs[R->q.nspecs++] = sets.set[match].specs[j];
	if (!R->q.objective)
		R->q.objective = sets.set[match].objective;
	if (!vt.json)
		printf("workload: %s%s (the only one with stored searches)\n", R->q.specs[0],
		       R->q.nspecs > 1 ? " and the rest of its mix" : "");
	return 0;
}

int cmd_recommend(int argc, char **argv)
{
	enum { O_MIX = 256, O_OBJECTIVE, O_EXPLAIN, O_PROFILES, O_SEED, O_HTML };
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "workload", required_argument, NULL, 'w' },
		{ "mix", required_argument, NULL, O_MIX },
		{ "objective", required_argument, NULL, O_OBJECTIVE },
		{ "knobs", required_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "explain", no_argument, NULL, O_EXPLAIN },
		{ "profiles", required_argument, NULL, O_PROFILES },
		{ "seed", required_argument, NULL, O_SEED },
		{ "html", required_argument, NULL, O_HTML },
		{ NULL, 0, NULL, 0 },
	};
	static struct rec R;
	static struct mix mix;
	const char *knobs = NULL, *mixfile = NULL;
	char *end;
	int c, i, rc;

	memset(&R, 0, sizeof(R));
	R.q.objective = NULL;
	R.seed = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hw:k:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("recommend", recommend_help);
			return 0;
		case 'w':
			if (R.q.nspecs >= POOL_MAX_SPECS)
				return usage_error("recommend", "at most %d workloads", POOL_MAX_SPECS);
			R.q.specs[R.q.nspecs++] = workload_alias(optarg);
			break;
		case O_MIX:
			mixfile = optarg;
			break;
		case O_OBJECTIVE:
			if (strcmp(optarg, "throughput") && strcmp(optarg, "interactive") && strcmp(optarg, "balanced"))
				return usage_error("recommend", "--objective %s: throughput, interactive or balanced",
						   optarg);
			R.q.objective = optarg;
			break;
		case 'k':
			knobs = optarg;
			break;
		case 'o':
			R.out = optarg;
			break;
		case O_EXPLAIN:
			R.explain = true;
			break;
		case O_HTML:
			R.html = optarg;
			break;
		case O_PROFILES:
			R.profiles = optarg;
			break;
		case O_SEED:
			R.seed = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				return usage_error("recommend", "--seed %s: not a number", optarg);
			break;
		default:
			return usage_error("recommend", "unknown option");
		}
	}
	if (optind != argc)
		return usage_error("recommend", "unexpected argument '%s'", argv[optind]);
	if (mixfile) {
		if (R.q.nspecs)
			return usage_error("recommend", "--mix and --workload exclude each other");
		if ((rc = mix_load(mixfile, &mix)) != 0)
			return rc;
		for (i = 0; i < mix.nwl && i < POOL_MAX_SPECS; i++)
			R.q.specs[R.q.nspecs++] = mix.wl[i].run;
		if (!R.q.objective && mix.objective[0])
			R.q.objective = mix.objective;
	}
	for (i = 0; i < vt.ndbs; i++) {
		if (store_exists(vt.dbs[i])) {
			R.q.dbs[R.q.ndbs++] = vt.dbs[i];
		} else if (vt.dbs[i] != vt.db) { /* the default store may not exist yet */
			error("--db %s: no such results store", vt.dbs[i]);
			return EXIT_USAGE;
		}
	}
	/* not root: the searches are in root's store, which only root can read */
	if (R.q.ndbs == 0 && vt_live() && geteuid() != 0)
		warning("no results store at %s; searches run as root are stored in /var/lib/vmtune/vmtune.db, which "
			"only root can read: run as root, or pass --db with a copy (vmtune db export, then db import)",
			vt.db);
	machine_read(&R.m);
	if (!R.q.nspecs && (rc = which_workloads(&R)) != 0)
		return rc < 0 ? 0 : rc; /* -1: the fallback has answered */
	if (!R.q.objective)
		R.q.objective = "throughput";
	rc = recommend(&R, knobs);
	model_free(&R.model);
	pool_free(&R.pool);
	return rc;
}
