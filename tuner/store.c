/* store.c - owns the SQL. Every run, trial and measurement of a search goes to
 * the results store with the machine fingerprint and vmtune version, so runs can
 * resume, results can be compared later and pooled across machines. The store is
 * a SQLite file, or a PostgreSQL database (--db postgresql://...) that a fleet
 * writes into concurrently; the tables and the SQL are the same for both, through
 * the one small query function below. */
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

/* --- opening -------------------------------------------------------------------------- */

/* The tables, with the id type of each database (%s: an integer key that numbers
 * itself). Reals are double precision in both. */
static const char *const schema[] = {
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
	"CREATE TABLE IF NOT EXISTS runs(id %s, started TEXT NOT NULL, finished TEXT,"
	"  status TEXT NOT NULL, vmtune_version TEXT NOT NULL, machine TEXT NOT NULL, config TEXT NOT NULL,"
	"  result TEXT, uuid TEXT NOT NULL UNIQUE)",
	"CREATE TABLE IF NOT EXISTS trials(id %s, run_id BIGINT NOT NULL REFERENCES runs(id),"
	"  seq INTEGER NOT NULL, kind TEXT NOT NULL, settings TEXT NOT NULL, started TEXT NOT NULL,"
	"  score DOUBLE PRECISION, failed INTEGER NOT NULL, UNIQUE(run_id, seq))",
	"CREATE TABLE IF NOT EXISTS measurements(id %s,"
	"  trial_id BIGINT NOT NULL REFERENCES trials(id), workload TEXT NOT NULL, outcome TEXT NOT NULL,"
	"  metric DOUBLE PRECISION, user_s DOUBLE PRECISION, sys_s DOUBLE PRECISION, elapsed_s DOUBLE PRECISION,"
	"  majflt BIGINT, minflt BIGINT, results TEXT NOT NULL, probe_p99_ms DOUBLE PRECISION,"
	"  probe_played DOUBLE PRECISION, probe TEXT)",
	/* the machine while a measurement ran: [[t, si, so, free_mb, psi_some], ...] (sampler.h) */
	("CREATE TABLE IF NOT EXISTS series(measurement_id BIGINT PRIMARY KEY REFERENCES measurements(id),"
	 "  samples TEXT NOT NULL)"),
	"CREATE INDEX IF NOT EXISTS trials_run ON trials(run_id)",
	"CREATE INDEX IF NOT EXISTS measurements_trial ON measurements(trial_id)",
};

bool store_is_url(const char *path)
{
	return strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0;
}

bool store_exists(const char *path)
{
	return store_is_url(path) || access(path, R_OK) == 0;
}

static int store_connect(struct store *s, const char *path)
{
	if (store_is_url(path)) {
		s->pg = PQconnectdb(path);
		if (PQstatus(s->pg) != CONNECTION_OK) {
			snprintf(s->err, sizeof(s->err), "%s", PQerrorMessage(s->pg));
			s->err[strcspn(s->err, "\n")] = '\0';
			return error("cannot connect to %s: %s", path, s->err);
		}
		/* quiet the NOTICEs of CREATE ... IF NOT EXISTS */
		store_q(s, "SET client_min_messages = warning", 0, NULL, NULL);
		return 0;
	}
	/* a store we may only read (root's, copied for a user; a read-only mount) is
	 * opened read-only: recommend, report and db export need no more */
	s->readonly = access(path, F_OK) == 0 && access(path, W_OK) != 0;
	if (sqlite3_open_v2(path, &s->db,
			    s->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK)
		return error("cannot open database %s: %s", path, sqlite3_errmsg(s->db));
	sqlite3_busy_timeout(s->db, 10000);
	store_q(s, "PRAGMA foreign_keys=ON", 0, NULL, NULL);
	return 0;
}

static int create_schema(struct store *s)
{
	char sql[1024];
	size_t i;
	int rc = 0;

	/* two machines creating the tables at once would collide in the catalogue */
	if (s->pg && store_q(s, "SELECT pg_advisory_lock(7236011)", 0, NULL, NULL) < 0)
		return store_fail(s, "cannot lock the schema");
	for (i = 0; i < sizeof(schema) / sizeof(schema[0]) && rc == 0; i++) {
		snprintf(sql, sizeof(sql), schema[i], s->pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY");
		if (store_q(s, sql, 0, NULL, NULL) < 0)
			rc = store_fail(s, "cannot create schema");
	}
	if (rc == 0) {
		char v[16];
		struct val p[] = { vtext(v) };
		snprintf(v, sizeof(v), "%d", STORE_SCHEMA_VERSION);
		if (store_q(s, "INSERT INTO meta(key, value) VALUES('schema_version', $1) ON CONFLICT(key) DO NOTHING",
			    1, p, NULL) < 0)
			rc = store_fail(s, "cannot record the schema version");
	}
	if (s->pg)
		store_q(s, "SELECT pg_advisory_unlock(7236011)", 0, NULL, NULL);
	return rc;
}

int store_open(struct store **sp, const char *path)
{
	struct store *s = calloc(1, sizeof(*s));
	struct rows r;
	int version = 0;

	if (!s)
		return error("out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (store_connect(s, path) < 0 || (!s->readonly && create_schema(s) < 0)) {
		store_close(s);
		return -1;
	}
	if (store_q(s, "SELECT value FROM meta WHERE key='schema_version'", 0, NULL, &r) == 0) {
		if (r.n)
			version = atoi(ctext(&r, 0, 0) ? ctext(&r, 0, 0) : "0");
		store_rows_free(&r);
	}
	if (version > STORE_SCHEMA_VERSION) {
		error("results store %s has schema version %d; this vmtune knows %d (upgrade vmtune)", path, version,
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
	if (s->pg)
		PQfinish(s->pg);
	if (s->db)
		sqlite3_close(s->db);
	free(s);
}

/* --- writing a search ------------------------------------------------------------------ */

void store_now_iso(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

long store_run_begin(struct store *s, const char *config_json, const char *machine_json)
{
	unsigned char rnd[16];
	char uuid[33], now[32];
	int i;

	/* a run keeps its uuid wherever it is copied: merges and imports are idempotent */
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return error("cannot make a run id: %s", strerror(errno));
	for (i = 0; i < 16; i++)
		snprintf(uuid + 2 * i, 3, "%02x", rnd[i]);
	store_now_iso(now, sizeof(now));
	{
		struct val p[] = { vtext(now), vtext(VMTUNE_VERSION), vtext(machine_json), vtext(config_json),
				   vtext(uuid) };
		return store_insert_id(s,
				       "INSERT INTO runs(started, status, vmtune_version, machine, config, uuid) "
				       "VALUES($1, 'running', $2, $3, $4, $5) RETURNING id",
				       5, p, "cannot add run");
	}
}

int store_run_finish(struct store *s, long run, const char *status, const char *result_json)
{
	char now[32];

	store_now_iso(now, sizeof(now));
	{
		struct val p[] = { vtext(now), vtext(status), vtext(result_json), vint(run) };
		return store_q(s, "UPDATE runs SET finished=$1, status=$2, result=$3 WHERE id=$4", 4, p, NULL) == 0
			   ? 0
			   : store_fail(s, "cannot finish run");
	}
}

long store_trial_add(struct store *s, long run, int seq, const char *kind, const char *settings_json, double score,
		     bool failed)
{
	char now[32];

	store_now_iso(now, sizeof(now));
	{
		struct val p[] = { vint(run),  vint(seq),    vtext(kind), vtext(settings_json),
				   vtext(now), vreal(score), vint(failed) };
		return store_insert_id(s,
				       "INSERT INTO trials(run_id, seq, kind, settings, started, score, failed) "
				       "VALUES($1, $2, $3, $4, $5, $6, $7) RETURNING id",
				       7, p, "cannot add trial");
	}
}

int store_trial_delete(struct store *s, long trial)
{
	struct val p[] = { vint(trial) };

	if (store_q(s, "DELETE FROM series WHERE measurement_id IN (SELECT id FROM measurements WHERE trial_id=$1)", 1,
		    p, NULL) < 0 ||
	    store_q(s, "DELETE FROM measurements WHERE trial_id=$1", 1, p, NULL) < 0 ||
	    store_q(s, "DELETE FROM trials WHERE id=$1", 1, p, NULL) < 0)
		return store_fail(s, "cannot delete trial");
	return 0;
}

int store_trial_score(struct store *s, long trial, double score, bool failed)
{
	struct val p[] = { vreal(score), vint(failed), vint(trial) };

	return store_q(s, "UPDATE trials SET score=$1, failed=$2 WHERE id=$3", 3, p, NULL) == 0
		   ? 0
		   : store_fail(s, "cannot score trial");
}

int store_trial_scores(struct store *s, int n, const long *trial, const double *score, const bool *failed)
{
	int i, rc = 0;

	if (n == 1)
		return store_trial_score(s, trial[0], score[0], failed[0]);
	/* one transaction: one commit (and its syncs) for all of them, not one each */
	if (store_q(s, "BEGIN", 0, NULL, NULL) < 0)
		return store_fail(s, "cannot score trials");
	for (i = 0; i < n && rc == 0; i++)
		rc = store_trial_score(s, trial[i], score[i], failed[i]);
	if (rc == 0 && store_q(s, "COMMIT", 0, NULL, NULL) < 0)
		rc = store_fail(s, "cannot score trials");
	if (rc < 0)
		store_q(s, "ROLLBACK", 0, NULL, NULL);
	return rc;
}

/* A workload's name=value results as a JSON object (json-c: names escaped, a value
 * that is not finite stored as null). */
static json_object *values_json(const struct run_value *v, int n)
{
	json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++)
		json_object_object_add(o, v[i].name, json_number(v[i].value));
	return o;
}

/* [[t, si, so, free_mb, psi_some], ...], null for what was not read (malloc'd) */
static char *series_json(const struct vm_point *v, int n)
{
	size_t cap = (size_t)n * 80 + 8, len = 0;
	char *b = malloc(cap);
	int i, k;

	if (!b)
		return NULL;
	b[len++] = '[';
	for (i = 0; i < n; i++) {
		const float f[5] = { v[i].t, v[i].si, v[i].so, v[i].free_mb, v[i].psi_some };
		len += (size_t)snprintf(b + len, cap - len, "%s[", i ? "," : "");
		for (k = 0; k < 5; k++)
			len += isfinite(f[k])
				   ? (size_t)snprintf(b + len, cap - len, "%s%.6g", k ? "," : "", (double)f[k])
				   : (size_t)snprintf(b + len, cap - len, "%snull", k ? "," : "");
		b[len++] = ']';
	}
	b[len++] = ']';
	b[len] = '\0';
	return b;
}

int store_measurement_add(struct store *s, long trial, const char *workload, const struct run_result *r, double metric)
{
	json_object *rj = values_json(r->values, r->nvalues), *pj = values_json(r->probe, r->nprobe);
	const char *results = json_object_to_json_string_ext(rj, JSON_C_TO_STRING_PLAIN);
	const char *probe = json_object_to_json_string_ext(pj, JSON_C_TO_STRING_PLAIN);
	int rc;

	{
		struct val p[] = { vint(trial),
				   vtext(workload),
				   vtext(run_outcome_name(r->outcome)),
				   vreal(metric),
				   vreal(r->user),
				   vreal(r->sys),
				   vreal(r->elapsed),
				   vint(r->majflt),
				   vint(r->minflt),
				   vtext(results),
				   vreal(run_value(r, "probe.p99_lateness_ms")),
				   vreal(run_value(r, "probe.played")),
				   vtext(r->nprobe ? probe : NULL) };
		long id = store_insert_id(s,
					  "INSERT INTO measurements(trial_id, workload, outcome, metric, user_s, sys_s,"
					  " elapsed_s, majflt, minflt, results, probe_p99_ms, probe_played, probe)"
					  " VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) RETURNING id",
					  13, p, "cannot add measurement");
		rc = id < 0 ? -1 : 0;
		if (id >= 0 && r->nseries > 0) {
			char *sj = series_json(r->series, r->nseries);
			struct val q[] = { vint(id), vtext(sj) };
			if (!sj)
				rc = error("out of memory");
			else if (store_q(s, "INSERT INTO series(measurement_id, samples) VALUES($1,$2)", 2, q, NULL) <
				 0)
				rc = store_fail(s, "cannot add the measurement's series");
			free(sj);
		}
	}
	json_object_put(rj);
	json_object_put(pj);
	return rc;
}

/* --- reading ----------------------------------------------------------------------------- */

char *store_run_config(struct store *s, long run, char *status, size_t statuslen)
{
	struct val p[] = { vint(run) };
	struct rows r;
	char *cfg = NULL;

	if (store_q(s, "SELECT config, status FROM runs WHERE id=$1", 1, p, &r) < 0)
		return NULL;
	if (r.n) {
		cfg = strdup(ctext(&r, 0, 0));
		snprintf(status, statuslen, "%s", ctext(&r, 0, 1));
	}
	store_rows_free(&r);
	return cfg;
}

int store_trials_each(struct store *s, long run, store_trial_cb cb, void *arg)
{
	struct val p[] = { vint(run) };
	struct rows t, m;
	int rc = 0, i, j, k;

	if (store_q(s, "SELECT id, seq, kind, settings, failed FROM trials WHERE run_id=$1 ORDER BY seq", 1, p, &t) < 0)
		return store_fail(s, "cannot read trials");
	if (store_q(s,
		    "SELECT m.trial_id, m.metric, m.probe_p99_ms, m.probe_played FROM measurements m"
		    " JOIN trials t ON t.id = m.trial_id WHERE t.run_id=$1 ORDER BY t.seq, m.id",
		    1, p, &m) < 0) {
		store_rows_free(&t);
		return store_fail(s, "cannot read measurements");
	}
	for (i = 0, j = 0; rc == 0 && i < t.n; i++) {
		double metrics[16], inter[16], played[16];
		long id = (long)clong(&t, i, 0);
		int n = 0;

		for (; j < m.n && clong(&m, j, 0) == id; j++)
			if (n < 16) {
				metrics[n] = cdouble(&m, j, 1);
				inter[n] = cdouble(&m, j, 2);
				played[n] = cdouble(&m, j, 3);
				n++;
			}
		k = (int)clong(&t, i, 1);
		rc = cb(arg, id, k, ctext(&t, i, 2), ctext(&t, i, 3), clong(&t, i, 4) != 0, metrics, inter, played, n);
	}
	store_rows_free(&t);
	store_rows_free(&m);
	return rc;
}

int store_runs_each(struct store *s, store_run_cb cb, void *arg)
{
	struct rows r;
	int rc = 0, i;

	if (store_q(s, "SELECT id, uuid, status, machine, config FROM runs ORDER BY id", 0, NULL, &r) < 0)
		return store_fail(s, "cannot read runs");
	for (i = 0; rc == 0 && i < r.n; i++)
		rc = cb(arg, (long)clong(&r, i, 0), ctext(&r, i, 1), ctext(&r, i, 2), ctext(&r, i, 3), ctext(&r, i, 4));
	store_rows_free(&r);
	return rc;
}

int store_runs_info(struct store *s, long run, store_run_info_cb cb, void *arg)
{
	struct val p[] = { vint(run) };
	struct rows r;
	int rc = 0, i;

	if (store_q(s,
		    "SELECT r.id, r.uuid, r.status, r.started, r.finished, r.machine, r.config, r.result,"
		    " (SELECT COUNT(*) FROM trials t WHERE t.run_id = r.id),"
		    " (SELECT COUNT(*) FROM trials t WHERE t.run_id = r.id AND t.failed <> 0)"
		    " FROM runs r WHERE $1 = 0 OR r.id = $1 ORDER BY r.id DESC",
		    1, p, &r) < 0)
		return store_fail(s, "cannot read runs");
	for (i = 0; rc == 0 && i < r.n; i++) {
		struct store_run x = { .id = (long)clong(&r, i, 0),
				       .uuid = ctext(&r, i, 1),
				       .status = ctext(&r, i, 2),
				       .started = ctext(&r, i, 3),
				       .finished = ctext(&r, i, 4),
				       .machine = ctext(&r, i, 5),
				       .config = ctext(&r, i, 6),
				       .result = ctext(&r, i, 7),
				       .trials = (long)clong(&r, i, 8),
				       .failed = (long)clong(&r, i, 9) };
		rc = cb(arg, &x);
	}
	store_rows_free(&r);
	return rc;
}

long store_run_by_uuid(struct store *s, const char *uuid)
{
	struct val p[] = { vtext(uuid) };
	struct rows r;
	long id;

	if (store_q(s, "SELECT id FROM runs WHERE uuid = $1", 1, p, &r) < 0)
		return store_fail(s, "cannot read runs");
	id = r.n ? (long)clong(&r, 0, 0) : 0;
	store_rows_free(&r);
	return id;
}

int store_run_uuid(struct store *s, long id, char *buf, size_t size)
{
	struct val p[] = { vint(id) };
	struct rows r;
	int rc = -1;

	if (store_q(s, "SELECT uuid FROM runs WHERE id = $1", 1, p, &r) < 0)
		return store_fail(s, "cannot read runs");
	if (r.n && ctext(&r, 0, 0)) {
		snprintf(buf, size, "%s", ctext(&r, 0, 0));
		rc = 0;
	}
	store_rows_free(&r);
	return rc;
}

int store_measurements_each(struct store *s, long run, store_meas_cb cb, void *arg)
{
	struct val p[] = { vint(run) };
	struct rows r;
	int rc = 0, i;

	if (store_q(s,
		    "SELECT m.id, t.id, t.seq, t.kind, t.settings, m.workload, m.outcome, x.samples, t.failed,"
		    " m.metric, m.user_s, m.sys_s, m.elapsed_s, m.probe_p99_ms, m.probe_played, m.majflt, m.minflt"
		    " FROM measurements m JOIN trials t ON t.id = m.trial_id"
		    " LEFT JOIN series x ON x.measurement_id = m.id WHERE t.run_id = $1 ORDER BY t.seq, m.id",
		    1, p, &r) < 0)
		return store_fail(s, "cannot read measurements");
	for (i = 0; rc == 0 && i < r.n; i++) {
		struct store_meas m = { .id = (long)clong(&r, i, 0),
					.trial_id = (long)clong(&r, i, 1),
					.seq = (int)clong(&r, i, 2),
					.kind = ctext(&r, i, 3),
					.settings = ctext(&r, i, 4),
					.workload = ctext(&r, i, 5),
					.outcome = ctext(&r, i, 6),
					.series = ctext(&r, i, 7),
					.failed = clong(&r, i, 8) != 0,
					.metric = cdouble(&r, i, 9),
					.user = cdouble(&r, i, 10),
					.sys = cdouble(&r, i, 11),
					.elapsed = cdouble(&r, i, 12),
					.p99_ms = cdouble(&r, i, 13),
					.played = cdouble(&r, i, 14),
					.majflt = (long)clong(&r, i, 15),
					.minflt = (long)clong(&r, i, 16) };
		rc = cb(arg, &m);
	}
	store_rows_free(&r);
	return rc;
}

int store_scores_each(struct store *s, long run, store_score_cb cb, void *arg)
{
	struct val p[] = { vint(run) };
	struct rows r;
	int rc = 0, i;

	if (store_q(s, "SELECT id, kind, settings, score, failed FROM trials WHERE run_id=$1 ORDER BY seq", 1, p, &r) <
	    0)
		return store_fail(s, "cannot read trials");
	for (i = 0; rc == 0 && i < r.n; i++)
		rc = cb(arg, (long)clong(&r, i, 0), ctext(&r, i, 1), ctext(&r, i, 2), cdouble(&r, i, 3),
			clong(&r, i, 4) != 0);
	store_rows_free(&r);
	return rc;
}

double store_mean_run_seconds(struct store *s, const char *spec, long *n)
{
	struct val p[] = { vtext(spec) };
	struct rows r;
	double mean = 0;

	*n = 0;
	if (store_q(s, "SELECT avg(elapsed_s), count(*) FROM measurements WHERE workload=$1 AND outcome='ok'", 1, p,
		    &r) < 0)
		return 0;
	if (r.n) {
		mean = cell(&r, 0, 0)->t == V_NULL ? 0 : cdouble(&r, 0, 0);
		*n = (long)clong(&r, 0, 1);
	}
	store_rows_free(&r);
	return mean;
}
