/* store.c - owns the SQL. Every run, trial and measurement of a search goes to
 * SQLite with the machine fingerprint and vmtune version, so runs can resume and
 * results can be compared later. */
#include <math.h>
#include <sqlite3.h>
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
    "  result TEXT);"
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

	now_iso(now, sizeof(now));
	if (sqlite3_prepare_v2(s->db,
			       "INSERT INTO runs(started, status, vmtune_version, machine, config) "
			       "VALUES(?, 'running', ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot add run");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, VMTUNE_VERSION, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, machine_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, config_json, -1, SQLITE_TRANSIENT);
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
