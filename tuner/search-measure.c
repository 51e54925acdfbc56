/* search-measure.c - one measurement: set the point's knobs (journalled by the
 * caller's session), run every workload of the mix in its own memory cgroup, judge
 * failures and requirements, and store the trial and its measurements. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "knob.h"
#include "runner.h"
#include "search-int.h"
#include "vmtune.h"

static int set_values(struct search *S, const long *vals)
{
	int i;

	for (i = 0; i < S->sp.d; i++) {
		struct knob_state st;
		long rb;

		if (vals[i] == S->cur[i])
			continue;
		if (S->sp.dim[i].pseudo) {
			if (swap_vary_select(&S->vary, (int)vals[i], S->swapfile, sizeof(S->swapfile)) < 0)
				return -1;
			S->cur[i] = vals[i];
			continue;
		}
		knob_probe(S->sp.dim[i].def, &st);
		if (knob_write(&st, vals[i], &rb) < 0)
			return -1;
		if (rb != vals[i]) {
			char a[64], b[64];
			warning("%s: wrote %s, the kernel kept %s", st.def->name,
				knob_format_value(st.def, vals[i], a, sizeof(a)),
				knob_format_value(st.def, rb, b, sizeof(b)));
		}
		S->cur[i] = vals[i];
		crashpoint("trial-knob-written");
	}
	return 0;
}

/* Settle, then run workload w once in a fresh cgroup. */
static int run_one(struct search *S, int w, struct run_result *r)
{
	struct run_spec spec = { .workload = S->o->wl[w].spec,
				 .timeout = S->o->timeout,
				 .echo = S->o->echo,
				 .root = S->o->root,
				 .probe = S->o->probe };

	return runner_run_sandboxed(&spec, S->o->mem_limit, S->o->swap, &S->settle, &S->settle_cost, NULL, r) == 0 ? 0
														   : -1;
}

/* Runs of every workload under the settings as they are, before anything is
 * measured: the first run after a start pays for cold caches and a fresh swapfile. */
int warm_up(struct search *S)
{
	for (int k = 0; k < S->o->warmup && !vt_interrupted; k++)
		for (int w = 0; w < S->o->nwl && !vt_interrupted; w++) {
			struct run_result r;
			char desc[512];

			if (run_one(S, w, &r) < 0)
				return -1;
			verbose("warm-up %d/%d %s: %s, %.2f s (not counted)", k + 1, S->o->warmup, S->o->wl[w].name,
				run_describe(&r, desc, sizeof(desc)), r.elapsed);
		}
	return vt_interrupted ? -1 : 0;
}

/* Measure the settings of point p once (every workload of the mix). Returns 0,
 * or -1 when vmtune itself cannot go on (a knob write failed, interrupted). */
int measure(struct search *S, int p, enum trial_kind kind)
{
	struct obs *ob;
	char *sj;
	double t_set;
	int w;

	if (S->nobs >= MAX_OBS)
		return error("too many measurements in one search (%d)", MAX_OBS);
	/* the time a run takes, as the budget counts it: the knobs' writes and the
	 * store's rows with the first workload's run */
	t_set = vt_now();
	if (set_values(S, S->points[p].vals) < 0)
		return -1;
	ob = &S->obs[S->nobs];
	memset(ob, 0, sizeof(*ob));
	ob->kind = kind;
	ob->point = p;
	sj = settings_json(&S->sp, S->points[p].vals);
	ob->trial_id =
	    S->db ? store_trial_add(S->db, S->run_id, S->next_seq++, trial_kind_name(kind), sj, NAN, false) : 0;
	free(sj);
	if (ob->trial_id < 0)
		return -1;
	crashpoint("trial-stored");
	for (w = 0; w < S->o->nwl; w++) {
		struct run_result r;
		double t = w == 0 ? t_set : vt_now(), m;
		char desc[512];

		if (run_one(S, w, &r) < 0)
			return -1;
		S->run_time_sum += vt_now() - t;
		S->runs++;
		if (r.outcome == RUN_INTERRUPTED) {
			/* half a trial is no trial: --resume measures it again */
			if (S->db)
				store_trial_delete(S->db, ob->trial_id);
			return -1;
		}
		m = strcmp(S->o->wl[w].metric, "elapsed") == 0 ? r.elapsed : run_value(&r, S->o->wl[w].metric);
		if (r.outcome != RUN_OK || !isfinite(m) || m <= 0) {
			ob->failed = true;
			run_describe(&r, desc, sizeof(desc));
			if (r.outcome == RUN_OK)
				snprintf(S->fail_why, sizeof(S->fail_why), "%s: %s, but no usable %s", S->o->wl[w].name,
					 desc, S->o->wl[w].metric);
			else
				snprintf(S->fail_why, sizeof(S->fail_why), "%s: %s", S->o->wl[w].name, desc);
			verbose("%s %s", trial_kind_name(kind), S->fail_why);
			m = NAN;
		}
		ob->metric[w] = m;
		{
			double g[GUARD_NWHAT];
			guard_values(S, &r, g);
			guard_sum(ob->guard, g, w);
		}
		if (run_value(&r, "sys.oom_kills_outside") > 0) {
			/* the seeds' IRC client killed beside mmap001: the machine's own work
			 * was hurt, not the sandbox's; no setting is worth that */
			if (S->db)
				store_measurement_add(S->db, ob->trial_id, S->o->wl[w].spec, &r, m);
			return error("the OOM killer killed %.0f process(es) outside the sandbox while %s ran with "
				     "these settings: the search stops, and every setting is put back",
				     run_value(&r, "sys.oom_kills_outside"), S->o->wl[w].name);
		}
		ob->inter[w] = run_value(&r, "probe.p99_lateness_ms") + 1;
		ob->played[w] = run_value(&r, "probe.played");
		if (S->o->probe && !r.probe_ok && !ob->failed) {
			ob->failed = true;
			snprintf(S->fail_why, sizeof(S->fail_why), "%s: the probe: %s", S->o->wl[w].name, r.probe_line);
			verbose("%s %s", trial_kind_name(kind), S->fail_why);
		}
		for (int q = 0; q < S->o->nrequire && !ob->failed; q++) {
			const struct requirement *rq = &S->o->require[q];
			char pn[64];
			double v = run_value(&r, rq->name);
			snprintf(pn, sizeof(pn), "probe.%s", rq->name);
			if (!isfinite(v))
				v = run_value(&r, pn);
			if (!isfinite(v) || !requirement_met(rq, v)) {
				ob->failed = true; /* a constraint broken is a failed trial */
				snprintf(S->fail_why, sizeof(S->fail_why), "%s: breaks %s (%s %g)", S->o->wl[w].name,
					 rq->text, rq->name, v);
				verbose("%s %s", trial_kind_name(kind), S->fail_why);
			}
		}
		if (S->db)
			store_measurement_add(S->db, ob->trial_id, S->o->wl[w].spec, &r, m);
		crashpoint("measurement-stored");
	}
	if (ob->failed && (kind == TK_BASELINE || kind == TK_CONFIRM_BASELINE))
		warning("a baseline measurement of the original settings failed (%s); it is left out", S->fail_why);
	S->nobs++;
	rescore(S);
	/* a new baseline changes the scores around it: the store keeps the latest, all
	 * of a measurement's changes in one transaction */
	if (S->db) {
		static long id[MAX_OBS];
		static double sc[MAX_OBS];
		static bool fl[MAX_OBS];
		static int at[MAX_OBS];
		int n = 0;
		for (int j = 0; j < S->nobs; j++) {
			struct obs *o = &S->obs[j];
			if (o->trial_id > 0 && (o == ob || o->score != o->stored)) {
				id[n] = o->trial_id;
				sc[n] = o->score;
				fl[n] = o->failed;
				at[n++] = j;
			}
		}
		if (n && store_trial_scores(S->db, n, id, sc, fl) == 0)
			for (int j = 0; j < n; j++)
				S->obs[at[j]].stored = S->obs[at[j]].score;
	}
	return 0;
}
