/* store.c - owns the SQL. Every run, trial and measurement of a search goes to
 * SQLite with the machine fingerprint and vmtune version, so runs can resume and
 * results can be compared later. */
#include <errno.h>
#include <math.h>
#include <json-c/json.h>
#include <sqlite3.h>
#include <sys/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"
#include "vmtune.h"

struct store {
	sqlite3 *db;
	char path[PATH_MAX];
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT,"
    "  status TEXT NOT NULL, vmtune_version TEXT NOT NULL, machine TEXT NOT NULL, config TEXT NOT NULL,"
    "  result TEXT, uuid TEXT NOT NULL UNIQUE);"
    "CREATE TABLE IF NOT EXISTS trials(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),"
    "  seq INTEGER NOT NULL, kind TEXT NOT NULL, settings TEXT NOT NULL, started TEXT NOT NULL,"
    "  score REAL, failed INTEGER NOT NULL, UNIQUE(run_id, seq));"
    "CREATE TABLE IF NOT EXISTS measurements(id INTEGER PRIMARY KEY,"
    "  trial_id INTEGER NOT NULL REFERENCES trials(id), workload TEXT NOT NULL, outcome TEXT NOT NULL,"
    "  metric REAL, user_s REAL, sys_s REAL, elapsed_s REAL, majflt INTEGER, minflt INTEGER,"
    "  results TEXT NOT NULL, probe_p99_ms REAL, probe_played REAL, probe TEXT);";

static int fail(struct store *s, const char *what)
{
	return error("database %s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

static void now_iso(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int store_open(struct store **sp, const char *path)
{
	struct store *s = calloc(1, sizeof(*s));
	sqlite3_stmt *st;
	int version = 0;

	if (!s)
		return error("out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (sqlite3_open(path, &s->db) != SQLITE_OK) {
		error("cannot open database %s: %s", path, sqlite3_errmsg(s->db));
		sqlite3_close(s->db);
		free(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, 10000);
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys=ON;", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		fail(s, "cannot create schema");
		store_close(s);
		return -1;
	}
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key='schema_version'", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			version = atoi((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (version == 0) {
		char sql[128];
		snprintf(sql, sizeof(sql), "INSERT INTO meta(key, value) VALUES('schema_version', '%d')",
			 STORE_SCHEMA_VERSION);
		if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
			fail(s, "cannot record the schema version");
			store_close(s);
			return -1;
		}
	} else if (version > STORE_SCHEMA_VERSION) {
		error("database %s has schema version %d; this vmtune knows %d (upgrade vmtune)", path, version,
		      STORE_SCHEMA_VERSION);
		store_close(s);
		return -1;
	}
	*sp = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

long store_run_begin(struct store *s, const char *config_json, const char *machine_json)
{
	sqlite3_stmt *st;
	char now[32];
	long id;

	unsigned char rnd[16];
	char uuid[33];
	int i;

	/* a run keeps its uuid wherever it is copied: merges and imports are idempotent */
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return error("cannot make a run id: %s", strerror(errno));
	for (i = 0; i < 16; i++)
		snprintf(uuid + 2 * i, 3, "%02x", rnd[i]);
	now_iso(now, sizeof(now));
	if (sqlite3_prepare_v2(s->db,
			       "INSERT INTO runs(started, status, vmtune_version, machine, config, uuid) "
			       "VALUES(?, 'running', ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot add run");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, VMTUNE_VERSION, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, machine_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, config_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, uuid, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		return fail(s, "cannot add run");
	}
	sqlite3_finalize(st);
	id = (long)sqlite3_last_insert_rowid(s->db);
	return id;
}

int store_run_finish(struct store *s, long run, const char *status, const char *result_json)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	now_iso(now, sizeof(now));
	if (sqlite3_prepare_v2(s->db, "UPDATE runs SET finished=?, status=?, result=? WHERE id=?", -1, &st, NULL) !=
	    SQLITE_OK)
		return fail(s, "cannot finish run");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, status, -1, SQLITE_TRANSIENT);
	if (result_json)
		sqlite3_bind_text(st, 3, result_json, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, run);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "cannot finish run");
}

long store_trial_add(struct store *s, long run, int seq, const char *kind, const char *settings_json, double score,
		     bool failed)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	now_iso(now, sizeof(now));
	if (sqlite3_prepare_v2(s->db,
			       "INSERT INTO trials(run_id, seq, kind, settings, started, score, failed) "
			       "VALUES(?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot add trial");
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, settings_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 6, score);
	sqlite3_bind_int(st, 7, failed);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(s, "cannot add trial");
	return (long)sqlite3_last_insert_rowid(s->db);
}

int store_trial_delete(struct store *s, long trial)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "DELETE FROM measurements WHERE trial_id=?1; ", -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot delete trial");
	sqlite3_bind_int64(st, 1, trial);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE ||
	    sqlite3_prepare_v2(s->db, "DELETE FROM trials WHERE id=?1", -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot delete trial");
	sqlite3_bind_int64(st, 1, trial);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "cannot delete trial");
}

int store_trial_score(struct store *s, long trial, double score, bool failed)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "UPDATE trials SET score=?, failed=? WHERE id=?", -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot score trial");
	sqlite3_bind_double(st, 1, score);
	sqlite3_bind_int(st, 2, failed);
	sqlite3_bind_int64(st, 3, trial);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "cannot score trial");
}

static void values_json(char *out, size_t size, const struct run_value *v, int n)
{
	size_t len = 0;
	int i;

	len += (size_t)snprintf(out + len, size - len, "{");
	for (i = 0; i < n && len < size - 64; i++)
		len += (size_t)snprintf(out + len, size - len, "%s\"%s\":%.17g", i ? "," : "", v[i].name, v[i].value);
	snprintf(out + len, size - len, "}");
}

static void bind_or_null(sqlite3_stmt *st, int col, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

int store_measurement_add(struct store *s, long trial, const char *workload, const struct run_result *r, double metric)
{
	sqlite3_stmt *st;
	char results[4096], probe[2048];
	int rc;

	values_json(results, sizeof(results), r->values, r->nvalues);
	values_json(probe, sizeof(probe), r->probe, r->nprobe);
	if (sqlite3_prepare_v2(s->db,
			       "INSERT INTO measurements(trial_id, workload, outcome, metric, user_s, sys_s,"
			       " elapsed_s, majflt, minflt, results, probe_p99_ms, probe_played, probe)"
			       " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot add measurement");
	sqlite3_bind_int64(st, 1, trial);
	sqlite3_bind_text(st, 2, workload, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, run_outcome_name(r->outcome), -1, SQLITE_STATIC);
	bind_or_null(st, 4, metric);
	sqlite3_bind_double(st, 5, r->user);
	sqlite3_bind_double(st, 6, r->sys);
	sqlite3_bind_double(st, 7, r->elapsed);
	sqlite3_bind_int64(st, 8, r->majflt);
	sqlite3_bind_int64(st, 9, r->minflt);
	sqlite3_bind_text(st, 10, results, -1, SQLITE_TRANSIENT);
	bind_or_null(st, 11, run_value(r, "probe.p99_lateness_ms"));
	bind_or_null(st, 12, run_value(r, "probe.played"));
	if (r->nprobe)
		sqlite3_bind_text(st, 13, probe, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 13);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "cannot add measurement");
}

char *store_run_config(struct store *s, long run, char *status, size_t statuslen)
{
	sqlite3_stmt *st;
	char *cfg = NULL;

	if (sqlite3_prepare_v2(s->db, "SELECT config, status FROM runs WHERE id=?", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, run);
	if (sqlite3_step(st) == SQLITE_ROW) {
		cfg = strdup((const char *)sqlite3_column_text(st, 0));
		snprintf(status, statuslen, "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return cfg;
}

int store_trials_each(struct store *s, long run, store_trial_cb cb, void *arg)
{
	sqlite3_stmt *st, *mt;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT id, seq, kind, settings, failed FROM trials WHERE run_id=? ORDER BY seq",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot read trials");
	if (sqlite3_prepare_v2(
		s->db, "SELECT metric, probe_p99_ms, probe_played FROM measurements WHERE trial_id=? ORDER BY id", -1,
		&mt, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return fail(s, "cannot read measurements");
	}
	sqlite3_bind_int64(st, 1, run);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		double metrics[16], inter[16], played[16];
		int n = 0;
		long id = (long)sqlite3_column_int64(st, 0);

		sqlite3_reset(mt);
		sqlite3_bind_int64(mt, 1, id);
		while (n < 16 && sqlite3_step(mt) == SQLITE_ROW) {
			metrics[n] = sqlite3_column_type(mt, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(mt, 0);
			inter[n] = sqlite3_column_type(mt, 1) == SQLITE_NULL ? NAN : sqlite3_column_double(mt, 1);
			played[n] = sqlite3_column_type(mt, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(mt, 2);
			n++;
		}
		rc = cb(arg, id, sqlite3_column_int(st, 1), (const char *)sqlite3_column_text(st, 2),
			(const char *)sqlite3_column_text(st, 3), sqlite3_column_int(st, 4) != 0, metrics, inter,
			played, n);
	}
	sqlite3_finalize(mt);
	sqlite3_finalize(st);
	return rc;
}

int store_runs_each(struct store *s, store_run_cb cb, void *arg)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT id, uuid, status, machine, config FROM runs ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(s, "cannot read runs");
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		rc = cb(arg, (long)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 2), (const char *)sqlite3_column_text(st, 3),
			(const char *)sqlite3_column_text(st, 4));
	sqlite3_finalize(st);
	return rc;
}

int store_scores_each(struct store *s, long run, store_score_cb cb, void *arg)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT id, kind, settings, score, failed FROM trials WHERE run_id=? ORDER BY seq", -1,
			       &st, NULL) != SQLITE_OK)
		return fail(s, "cannot read trials");
	sqlite3_bind_int64(st, 1, run);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		rc = cb(arg, (long)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 2),
			sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3),
			sqlite3_column_int(st, 4) != 0);
	sqlite3_finalize(st);
	return rc;
}

double store_mean_run_seconds(struct store *s, const char *spec, long *n)
{
	sqlite3_stmt *st;
	double mean = 0;

	*n = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT avg(elapsed_s), count(*) FROM measurements WHERE workload=? AND outcome='ok'",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, spec, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		mean = sqlite3_column_double(st, 0);
		*n = (long)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return mean;
}

/* --- moving runs between stores: JSON lines, one run per line ------------------ */

static json_object *col_json(sqlite3_stmt *st, int col)
{
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_INTEGER:
		return json_object_new_int64(sqlite3_column_int64(st, col));
	case SQLITE_FLOAT:
		return json_object_new_double(sqlite3_column_double(st, col));
	default:
		return json_object_new_string((const char *)sqlite3_column_text(st, col));
	}
}

/* The columns holding JSON text travel as JSON, not as strings. */
static json_object *col_parsed(sqlite3_stmt *st, int col)
{
	const char *t = (const char *)sqlite3_column_text(st, col);

	return t ? json_tokener_parse(t) : NULL;
}

static const char *const run_cols[] = { "uuid", "started", "finished", "status", "vmtune_version", NULL };
static const char *const trial_cols[] = { "seq", "kind", "started", "score", "failed", NULL };
static const char *const meas_cols[] = { "workload", "outcome", "metric",	"user_s",	"sys_s", "elapsed_s",
					 "majflt",   "minflt",	"probe_p99_ms", "probe_played", NULL };

int store_export(struct store *s, FILE *out, long *count)
{
	sqlite3_stmt *rs, *ts, *ms;
	int rc = 0, i;

	*count = 0;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT uuid, started, finished, status, vmtune_version, machine, config, result, id "
			       "FROM runs ORDER BY id",
			       -1, &rs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "SELECT seq, kind, started, score, failed, settings, id FROM trials "
			       "WHERE run_id=? ORDER BY seq",
			       -1, &ts, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		s->db,
		"SELECT workload, outcome, metric, user_s, sys_s, elapsed_s, majflt, minflt, "
		"probe_p99_ms, probe_played, results, probe FROM measurements WHERE trial_id=? ORDER BY id",
		-1, &ms, NULL) != SQLITE_OK)
		return fail(s, "cannot read runs");
	while (sqlite3_step(rs) == SQLITE_ROW) {
		json_object *run = json_object_new_object(), *trials = json_object_new_array();

		for (i = 0; run_cols[i]; i++)
			json_object_object_add(run, run_cols[i], col_json(rs, i));
		json_object_object_add(run, "machine", col_parsed(rs, 5));
		json_object_object_add(run, "config", col_parsed(rs, 6));
		json_object_object_add(run, "result", col_parsed(rs, 7));
		sqlite3_reset(ts);
		sqlite3_bind_int64(ts, 1, sqlite3_column_int64(rs, 8));
		while (sqlite3_step(ts) == SQLITE_ROW) {
			json_object *t = json_object_new_object(), *meas = json_object_new_array();
			for (i = 0; trial_cols[i]; i++)
				json_object_object_add(t, trial_cols[i], col_json(ts, i));
			json_object_object_add(t, "settings", col_parsed(ts, 5));
			sqlite3_reset(ms);
			sqlite3_bind_int64(ms, 1, sqlite3_column_int64(ts, 6));
			while (sqlite3_step(ms) == SQLITE_ROW) {
				json_object *m = json_object_new_object();
				for (i = 0; meas_cols[i]; i++)
					json_object_object_add(m, meas_cols[i], col_json(ms, i));
				json_object_object_add(m, "results", col_parsed(ms, 10));
				json_object_object_add(m, "probe", col_parsed(ms, 11));
				json_object_array_add(meas, m);
			}
			json_object_object_add(t, "measurements", meas);
			json_object_array_add(trials, t);
		}
		json_object_object_add(run, "trials", trials);
		if (fprintf(out, "%s\n", json_object_to_json_string_ext(run, JSON_C_TO_STRING_PLAIN)) < 0)
			rc = error("cannot write the export: %s", strerror(errno));
		json_object_put(run);
		(*count)++;
	}
	sqlite3_finalize(rs);
	sqlite3_finalize(ts);
	sqlite3_finalize(ms);
	return rc;
}

static void bind_json(sqlite3_stmt *st, int col, json_object *o, bool as_text)
{
	if (!o)
		sqlite3_bind_null(st, col);
	else if (as_text)
		sqlite3_bind_text(st, col, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), -1,
				  SQLITE_TRANSIENT);
	else if (json_object_is_type(o, json_type_int))
		sqlite3_bind_int64(st, col, json_object_get_int64(o));
	else if (json_object_is_type(o, json_type_double))
		sqlite3_bind_double(st, col, json_object_get_double(o));
	else
		sqlite3_bind_text(st, col, json_object_get_string(o), -1, SQLITE_TRANSIENT);
}

static json_object *field(json_object *o, const char *k)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, k, &v);
	return v;
}

/* One exported run into this store, unless a run with its uuid is already here.
 * Returns 1 when added, 0 when already present, -1 on error. */
int store_import_run(struct store *s, const char *line, const char *where)
{
	json_object *run = json_tokener_parse(line), *trials, *uuid;
	sqlite3_stmt *st;
	long run_id;
	size_t i, j;
	int rc = -1;

	if (!run || !(uuid = field(run, "uuid")) || !json_object_is_type(uuid, json_type_string) ||
	    !(trials = field(run, "trials")) || !json_object_is_type(trials, json_type_array)) {
		json_object_put(run);
		return error("%s: not an exported vmtune run (uuid and trials expected)", where);
	}
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM runs WHERE uuid=?", -1, &st, NULL) != SQLITE_OK) {
		json_object_put(run);
		return fail(s, "cannot read runs");
	}
	sqlite3_bind_text(st, 1, json_object_get_string(uuid), -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_finalize(st);
		json_object_put(run);
		return 0;
	}
	sqlite3_finalize(st);
	sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(
		s->db,
		"INSERT INTO runs(uuid, started, finished, status, vmtune_version, machine, config, result) "
		"VALUES(?,?,?,?,?,?,?,?)",
		-1, &st, NULL) != SQLITE_OK)
		goto fail;
	for (i = 0; run_cols[i]; i++)
		bind_json(st, (int)i + 1, field(run, run_cols[i]), false);
	bind_json(st, 6, field(run, "machine"), true);
	bind_json(st, 7, field(run, "config"), true);
	bind_json(st, 8, field(run, "result"), true);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		goto fail;
	}
	sqlite3_finalize(st);
	run_id = (long)sqlite3_last_insert_rowid(s->db);
	for (i = 0; i < json_object_array_length(trials); i++) {
		json_object *t = json_object_array_get_idx(trials, i), *meas = field(t, "measurements");
		long trial_id;

		if (sqlite3_prepare_v2(s->db,
				       "INSERT INTO trials(run_id, seq, kind, started, score, failed, settings) "
				       "VALUES(?,?,?,?,?,?,?)",
				       -1, &st, NULL) != SQLITE_OK)
			goto fail;
		sqlite3_bind_int64(st, 1, run_id);
		for (j = 0; trial_cols[j]; j++)
			bind_json(st, (int)j + 2, field(t, trial_cols[j]), false);
		bind_json(st, 7, field(t, "settings"), true);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			goto fail;
		}
		sqlite3_finalize(st);
		trial_id = (long)sqlite3_last_insert_rowid(s->db);
		for (j = 0; meas && j < json_object_array_length(meas); j++) {
			json_object *m = json_object_array_get_idx(meas, j);
			size_t k;

			if (sqlite3_prepare_v2(
				s->db,
				"INSERT INTO measurements(trial_id, workload, outcome, metric, user_s, sys_s, "
				"elapsed_s, majflt, minflt, probe_p99_ms, probe_played, results, probe) "
				"VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
				-1, &st, NULL) != SQLITE_OK)
				goto fail;
			sqlite3_bind_int64(st, 1, trial_id);
			for (k = 0; meas_cols[k]; k++)
				bind_json(st, (int)k + 2, field(m, meas_cols[k]), false);
			if (field(m, "results"))
				bind_json(st, 12, field(m, "results"), true);
			else
				sqlite3_bind_text(st, 12, "{}", -1, SQLITE_STATIC);
			bind_json(st, 13, field(m, "probe"), true);
			if (sqlite3_step(st) != SQLITE_DONE) {
				sqlite3_finalize(st);
				goto fail;
			}
			sqlite3_finalize(st);
		}
	}
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		rc = 1;
	else
		fail(s, "cannot import");
	json_object_put(run);
	return rc;
fail:
	fail(s, "cannot import");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	json_object_put(run);
	return -1;
}
