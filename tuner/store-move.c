/* store-move.c - runs between stores: db export writes one JSON line per run
 * (its trials and measurements inside), db import reads them back, idempotent by
 * the run's uuid. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "text.h"
#include "store-int.h"
#include "vmtune.h"

/* --- moving runs between stores: JSON lines, one run per line ------------------ */

static json_object *col_json(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	switch (v->t) {
	case V_NULL:
		return NULL;
	case V_INT:
		return json_object_new_int64(v->i);
	case V_REAL:
		return json_number(v->d);
	default:
		return json_object_new_string(v->s);
	}
}

/* The columns holding JSON text travel as JSON, not as strings. */
static json_object *col_parsed(const struct rows *r, int row, int col)
{
	const char *t = ctext(r, row, col);

	return t ? json_tokener_parse(t) : NULL;
}

static const char *const run_cols[] = { "uuid", "started", "finished", "status", "vmtune_version", NULL };
static const char *const trial_cols[] = { "seq", "kind", "started", "score", "failed", NULL };
static const char *const meas_cols[] = { "workload", "outcome", "metric",	"user_s",	"sys_s", "elapsed_s",
					 "majflt",   "minflt",	"probe_p99_ms", "probe_played", NULL };

int store_export(struct store *s, FILE *out, long *count)
{
	struct rows rs, ts, ms;
	int rc = 0, i, a, b, c, mi;

	*count = 0;
	if (store_q(s,
		    "SELECT uuid, started, finished, status, vmtune_version, machine, config, result, id FROM runs "
		    "ORDER BY id",
		    0, NULL, &rs) < 0)
		return store_fail(s, "cannot read runs");
	for (a = 0; a < rs.n && rc == 0; a++) {
		json_object *run = json_object_new_object(), *trials = json_object_new_array();
		struct val p[] = { vint(clong(&rs, a, 8)) };

		for (i = 0; run_cols[i]; i++)
			json_object_object_add(run, run_cols[i], col_json(&rs, a, i));
		json_object_object_add(run, "machine", col_parsed(&rs, a, 5));
		json_object_object_add(run, "config", col_parsed(&rs, a, 6));
		json_object_object_add(run, "result", col_parsed(&rs, a, 7));
		if (store_q(s,
			    "SELECT seq, kind, started, score, failed, settings, id FROM trials WHERE run_id=$1 ORDER "
			    "BY seq",
			    1, p, &ts) < 0 ||
		    store_q(
			s,
			"SELECT m.workload, m.outcome, m.metric, m.user_s, m.sys_s, m.elapsed_s, m.majflt, m.minflt,"
			" m.probe_p99_ms, m.probe_played, m.results, m.probe, m.trial_id, x.samples FROM measurements m"
			" JOIN trials t ON t.id = m.trial_id LEFT JOIN series x ON x.measurement_id = m.id"
			" WHERE t.run_id=$1 ORDER BY t.seq, m.id",
			1, p, &ms) < 0) {
			json_object_put(run);
			store_rows_free(&rs);
			return store_fail(s, "cannot read trials");
		}
		for (b = 0, mi = 0; b < ts.n; b++) {
			json_object *t = json_object_new_object(), *meas = json_object_new_array();
			long long tid = clong(&ts, b, 6);
			for (i = 0; trial_cols[i]; i++)
				json_object_object_add(t, trial_cols[i], col_json(&ts, b, i));
			json_object_object_add(t, "settings", col_parsed(&ts, b, 5));
			for (; mi < ms.n && clong(&ms, mi, 12) == tid; mi++) {
				json_object *m = json_object_new_object();
				for (c = 0; meas_cols[c]; c++)
					json_object_object_add(m, meas_cols[c], col_json(&ms, mi, c));
				json_object_object_add(m, "results", col_parsed(&ms, mi, 10));
				json_object_object_add(m, "probe", col_parsed(&ms, mi, 11));
				if (ctext(&ms, mi, 13))
					json_object_object_add(m, "series", col_parsed(&ms, mi, 13));
				json_object_array_add(meas, m);
			}
			json_object_object_add(t, "measurements", meas);
			json_object_array_add(trials, t);
		}
		store_rows_free(&ts);
		store_rows_free(&ms);
		json_object_object_add(run, "trials", trials);
		if (fprintf(out, "%s\n", json_object_to_json_string_ext(run, JSON_C_TO_STRING_PLAIN)) < 0)
			rc = error("cannot write the export: %s", strerror(errno));
		json_object_put(run);
		(*count)++;
	}
	store_rows_free(&rs);
	return rc;
}

/* A measurement's series as sampler.h keeps it: at most SAMPLER_SERIES_MAX rows of
 * five numbers (or null), the first (seconds) a finite number. */
static bool series_ok(json_object *a)
{
	size_t i, k, n;

	if (!json_object_is_type(a, json_type_array) || (n = json_object_array_length(a)) > SAMPLER_SERIES_MAX)
		return false;
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(a, i);
		if (!json_object_is_type(row, json_type_array) || json_object_array_length(row) != 5)
			return false;
		for (k = 0; k < 5; k++) {
			json_object *c = json_object_array_get_idx(row, k);
			bool num = json_object_is_type(c, json_type_double) || json_object_is_type(c, json_type_int);
			if (num ? !isfinite(json_object_get_double(c)) : (c != NULL || k == 0))
				return false;
		}
	}
	return true;
}

/* A field of an exported object as a parameter: JSON columns as their text. */
static struct val jval(json_object *o, bool as_text)
{
	if (!o)
		return (struct val){ .t = V_NULL };
	if (as_text)
		return vtext(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	if (json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_boolean))
		return vint(json_object_get_int64(o));
	if (json_object_is_type(o, json_type_double))
		return vreal(json_object_get_double(o));
	return vtext(json_object_get_string(o));
}

static json_object *field(json_object *o, const char *k)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, k, &v);
	return v;
}

static int run_present(struct store *s, const char *uuid)
{
	struct val p[] = { vtext(uuid) };
	struct rows r;
	int n;

	if (store_q(s, "SELECT 1 FROM runs WHERE uuid=$1", 1, p, &r) < 0)
		return store_fail(s, "cannot read runs");
	n = r.n;
	store_rows_free(&r);
	return n > 0;
}

/* One exported run into this store, unless a run with its uuid is already here.
 * Returns 1 when added, 0 when already present, -1 on error. */
int store_import_run(struct store *s, const char *line, const char *where)
{
	json_object *run = json_tokener_parse(line), *trials, *uuid;
	long run_id;
	size_t i, j, k;
	int rc;

	if (!run || !(uuid = field(run, "uuid")) || !json_object_is_type(uuid, json_type_string) ||
	    !(trials = field(run, "trials")) || !json_object_is_type(trials, json_type_array)) {
		json_object_put(run);
		return error("%s: not an exported vmtune run (uuid and trials expected)", where);
	}
	if ((rc = run_present(s, json_object_get_string(uuid))) != 0) {
		json_object_put(run);
		return rc > 0 ? 0 : -1;
	}
	if (store_q(s, "BEGIN", 0, NULL, NULL) < 0)
		goto fail;
	{
		struct val p[8];
		for (i = 0; run_cols[i]; i++)
			p[i] = jval(field(run, run_cols[i]), false);
		p[5] = jval(field(run, "machine"), true);
		p[6] = jval(field(run, "config"), true);
		p[7] = jval(field(run, "result"), true);
		if ((run_id =
			 store_insert_id(s,
					 "INSERT INTO runs(uuid, started, finished, status, vmtune_version, machine, "
					 "config, result) VALUES($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id",
					 8, p, "cannot import")) < 0)
			goto fail;
	}
	crashpoint("import-in-transaction"); /* the run row written, its trials not yet */
	for (i = 0; i < json_object_array_length(trials); i++) {
		json_object *t = json_object_array_get_idx(trials, i), *meas = field(t, "measurements");
		struct val p[7];
		long trial_id, mid;

		if (!json_object_is_type(t, json_type_object) ||
		    (meas && !json_object_is_type(meas, json_type_array))) {
			error("%s: trial %zu is not an object with a list of measurements", where, i + 1);
			goto fail;
		}

		p[0] = vint(run_id);
		for (j = 0; trial_cols[j]; j++)
			p[j + 1] = jval(field(t, trial_cols[j]), false);
		p[6] = jval(field(t, "settings"), true);
		if ((trial_id =
			 store_insert_id(s,
					 "INSERT INTO trials(run_id, seq, kind, started, score, failed, settings) "
					 "VALUES($1,$2,$3,$4,$5,$6,$7) RETURNING id",
					 7, p, "cannot import")) < 0)
			goto fail;
		for (j = 0; meas && j < json_object_array_length(meas); j++) {
			json_object *m = json_object_array_get_idx(meas, j);
			struct val mp[13];
			mp[0] = vint(trial_id);
			for (k = 0; meas_cols[k]; k++)
				mp[k + 1] = jval(field(m, meas_cols[k]), false);
			mp[11] = field(m, "results") ? jval(field(m, "results"), true) : vtext("{}");
			mp[12] = jval(field(m, "probe"), true);
			if (field(m, "series") && !series_ok(field(m, "series"))) {
				error("%s: trial %zu, measurement %zu: series is not a list of at most %d "
				      "[t, si, so, free_mb, psi_some] of numbers",
				      where, i + 1, j + 1, SAMPLER_SERIES_MAX);
				goto fail;
			}
			if ((mid = store_insert_id(
				 s,
				 "INSERT INTO measurements(trial_id, workload, outcome, metric, user_s, "
				 "sys_s, elapsed_s, majflt, minflt, probe_p99_ms, probe_played, results, "
				 "probe) VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) RETURNING id",
				 13, mp, "cannot import")) < 0)
				goto fail;
			if (field(m, "series")) {
				struct val sp[] = { vint(mid), jval(field(m, "series"), true) };
				if (store_q(s, "INSERT INTO series(measurement_id, samples) VALUES($1,$2)", 2, sp,
					    NULL) < 0) {
					store_fail(s, "cannot import");
					goto fail;
				}
			}
		}
	}
	if (store_q(s, "COMMIT", 0, NULL, NULL) < 0) {
		store_fail(s, "cannot import");
		goto fail;
	}
	json_object_put(run);
	return 1;
fail:
	store_q(s, "ROLLBACK", 0, NULL, NULL);
	/* another writer may have imported the same run meanwhile */
	rc = run_present(s, json_object_get_string(uuid));
	json_object_put(run);
	return rc > 0 ? 0 : -1;
}
