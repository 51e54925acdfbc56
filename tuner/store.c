/* store.c - owns the SQL. Every run, trial and measurement of a search goes to
 * the results store with the machine fingerprint and vmtune version, so runs can
 * resume, results can be compared later and pooled across machines. The store is
 * a SQLite file, or a PostgreSQL database (--db postgresql://...) that a fleet
 * writes into concurrently; the tables and the SQL are the same for both, through
 * the one small query function below. */
#include <errno.h>
#include <json-c/json.h>
#include <libpq-fe.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "store.h"
#include "vmtune.h"

struct store {
	sqlite3 *db; /* one of these two */
	PGconn *pg;
	char path[PATH_MAX];
	char err[512]; /* the last error of the database */
};

/* --- one query function for both ------------------------------------------------ */

enum vtype { V_NULL, V_INT, V_REAL, V_TEXT };

struct val {
	enum vtype t;
	long long i;
	double d;
	char *s; /* owned in results; borrowed in parameters */
};

struct rows {
	int n, cols;
	struct val *v; /* n x cols */
};

static struct val vint(long long i)
{
	return (struct val){ .t = V_INT, .i = i };
}

static struct val vreal(double d)
{
	return isfinite(d) ? (struct val){ .t = V_REAL, .d = d } : (struct val){ .t = V_NULL };
}

static struct val vtext(const char *s)
{
	return s ? (struct val){ .t = V_TEXT, .s = (char *)s } : (struct val){ .t = V_NULL };
}

static const struct val *cell(const struct rows *r, int row, int col)
{
	return &r->v[row * r->cols + col];
}

static long long clong(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	return v->t == V_INT ? v->i : v->t == V_REAL ? (long long)v->d : v->t == V_TEXT ? atoll(v->s) : 0;
}

static double cdouble(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	return v->t == V_REAL ? v->d : v->t == V_INT ? (double)v->i : v->t == V_TEXT ? atof(v->s) : NAN;
}

static const char *ctext(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	return v->t == V_TEXT ? v->s : NULL;
}

static void rows_free(struct rows *r)
{
	int i;

	for (i = 0; r->v && i < r->n * r->cols; i++)
		free(r->v[i].s);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static int rows_add(struct rows *r, int *cap)
{
	if (r->n == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		struct val *nv = realloc(r->v, sizeof(*nv) * (size_t)(nc * r->cols));
		if (!nv)
			return -1;
		r->v = nv;
		*cap = nc;
	}
	memset(&r->v[r->n * r->cols], 0, sizeof(struct val) * (size_t)r->cols);
	return r->n++;
}

static int q_sqlite(struct store *s, const char *sql, int n, const struct val *p, struct rows *out)
{
	char buf[2048];
	sqlite3_stmt *st;
	size_t i, j = 0;
	int rc, k, cap = 0;

	/* $1 is ?1 in SQLite: numbered, so each parameter binds where it is meant to */
	for (i = 0; sql[i] && j < sizeof(buf) - 1; i++)
		buf[j++] = sql[i] == '$' ? '?' : sql[i];
	buf[j] = '\0';
	if (sqlite3_prepare_v2(s->db, buf, -1, &st, NULL) != SQLITE_OK) {
		snprintf(s->err, sizeof(s->err), "%s", sqlite3_errmsg(s->db));
		return -1;
	}
	for (k = 0; k < n; k++) {
		if (p[k].t == V_INT)
			sqlite3_bind_int64(st, k + 1, p[k].i);
		else if (p[k].t == V_REAL)
			sqlite3_bind_double(st, k + 1, p[k].d);
		else if (p[k].t == V_TEXT)
			sqlite3_bind_text(st, k + 1, p[k].s, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, k + 1);
	}
	if (out) {
		memset(out, 0, sizeof(*out));
		out->cols = sqlite3_column_count(st);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int row;
		if (!out)
			continue;
		if ((row = rows_add(out, &cap)) < 0) {
			sqlite3_finalize(st);
			snprintf(s->err, sizeof(s->err), "out of memory");
			return -1;
		}
		for (k = 0; k < out->cols; k++) {
			struct val *v = &out->v[row * out->cols + k];
			switch (sqlite3_column_type(st, k)) {
			case SQLITE_INTEGER:
				*v = vint(sqlite3_column_int64(st, k));
				break;
			case SQLITE_FLOAT:
				*v = (struct val){ .t = V_REAL, .d = sqlite3_column_double(st, k) };
				break;
			case SQLITE_NULL:
				v->t = V_NULL;
				break;
			default:
				v->t = V_TEXT;
				v->s = strdup((const char *)sqlite3_column_text(st, k));
			}
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(s->err, sizeof(s->err), "%s", sqlite3_errmsg(s->db));
		if (out)
			rows_free(out);
		return -1;
	}
	return 0;
}

/* PostgreSQL type OIDs (catalog/pg_type.h) of the columns read back as numbers */
enum { OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_NUMERIC = 1700 };

static int q_pg(struct store *s, const char *sql, int n, const struct val *p, struct rows *out)
{
	char num[32][32];
	const char *vals[32];
	PGresult *res;
	int k, row, cap = 0;

	for (k = 0; k < n && k < 32; k++) {
		if (p[k].t == V_INT)
			snprintf(num[k], sizeof(num[k]), "%lld", p[k].i);
		else if (p[k].t == V_REAL)
			snprintf(num[k], sizeof(num[k]), "%.17g", p[k].d);
		vals[k] = p[k].t == V_TEXT ? p[k].s : p[k].t == V_NULL ? NULL : num[k];
	}
	res = PQexecParams(s->pg, sql, n, NULL, vals, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK) {
		snprintf(s->err, sizeof(s->err), "%s", PQresultErrorMessage(res));
		s->err[strcspn(s->err, "\n")] = '\0';
		PQclear(res);
		return -1;
	}
	if (out) {
		memset(out, 0, sizeof(*out));
		out->cols = PQnfields(res);
		for (row = 0; row < PQntuples(res); row++) {
			if (rows_add(out, &cap) < 0) {
				PQclear(res);
				rows_free(out);
				snprintf(s->err, sizeof(s->err), "out of memory");
				return -1;
			}
			for (k = 0; k < out->cols; k++) {
				struct val *v = &out->v[row * out->cols + k];
				const char *t = PQgetvalue(res, row, k);
				Oid type = PQftype(res, k);
				if (PQgetisnull(res, row, k))
					v->t = V_NULL;
				else if (type == OID_INT8 || type == OID_INT4 || type == OID_INT2)
					*v = vint(atoll(t));
				else if (type == OID_FLOAT8 || type == OID_FLOAT4 || type == OID_NUMERIC)
					*v = (struct val){ .t = V_REAL, .d = strtod(t, NULL) };
				else
					*v = (struct val){ .t = V_TEXT, .s = strdup(t) };
			}
		}
	}
	PQclear(res);
	return 0;
}

/* Run one statement with parameters $1..$n; rows (if out) are the caller's to free. */
static int q(struct store *s, const char *sql, int n, const struct val *p, struct rows *out)
{
	return s->pg ? q_pg(s, sql, n, p, out) : q_sqlite(s, sql, n, p, out);
}

static int fail(struct store *s, const char *what)
{
	return error("results store %s: %s: %s", s->path, what, s->err);
}

/* An INSERT ... RETURNING id: the new row's id, or -1. */
static long insert_id(struct store *s, const char *sql, int n, const struct val *p, const char *what)
{
	struct rows r;
	long id;

	if (q(s, sql, n, p, &r) < 0)
		return fail(s, what);
	id = r.n == 1 ? (long)clong(&r, 0, 0) : -1;
	rows_free(&r);
	if (id < 0) {
		snprintf(s->err, sizeof(s->err), "no id returned");
		return fail(s, what);
	}
	return id;
}

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
		q(s, "SET client_min_messages = warning", 0, NULL, NULL);
		return 0;
	}
	if (sqlite3_open(path, &s->db) != SQLITE_OK)
		return error("cannot open database %s: %s", path, sqlite3_errmsg(s->db));
	sqlite3_busy_timeout(s->db, 10000);
	q(s, "PRAGMA foreign_keys=ON", 0, NULL, NULL);
	return 0;
}

static int create_schema(struct store *s)
{
	char sql[1024];
	size_t i;
	int rc = 0;

	/* two machines creating the tables at once would collide in the catalogue */
	if (s->pg && q(s, "SELECT pg_advisory_lock(7236011)", 0, NULL, NULL) < 0)
		return fail(s, "cannot lock the schema");
	for (i = 0; i < sizeof(schema) / sizeof(schema[0]) && rc == 0; i++) {
		snprintf(sql, sizeof(sql), schema[i], s->pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY");
		if (q(s, sql, 0, NULL, NULL) < 0)
			rc = fail(s, "cannot create schema");
	}
	if (rc == 0) {
		char v[16];
		struct val p[] = { vtext(v) };
		snprintf(v, sizeof(v), "%d", STORE_SCHEMA_VERSION);
		if (q(s, "INSERT INTO meta(key, value) VALUES('schema_version', $1) ON CONFLICT(key) DO NOTHING", 1, p,
		      NULL) < 0)
			rc = fail(s, "cannot record the schema version");
	}
	if (s->pg)
		q(s, "SELECT pg_advisory_unlock(7236011)", 0, NULL, NULL);
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
	if (store_connect(s, path) < 0 || create_schema(s) < 0) {
		store_close(s);
		return -1;
	}
	if (q(s, "SELECT value FROM meta WHERE key='schema_version'", 0, NULL, &r) == 0) {
		if (r.n)
			version = atoi(ctext(&r, 0, 0) ? ctext(&r, 0, 0) : "0");
		rows_free(&r);
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

static void now_iso(char *buf, size_t size)
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
	now_iso(now, sizeof(now));
	{
		struct val p[] = { vtext(now), vtext(VMTUNE_VERSION), vtext(machine_json), vtext(config_json),
				   vtext(uuid) };
		return insert_id(s,
				 "INSERT INTO runs(started, status, vmtune_version, machine, config, uuid) "
				 "VALUES($1, 'running', $2, $3, $4, $5) RETURNING id",
				 5, p, "cannot add run");
	}
}

int store_run_finish(struct store *s, long run, const char *status, const char *result_json)
{
	char now[32];

	now_iso(now, sizeof(now));
	{
		struct val p[] = { vtext(now), vtext(status), vtext(result_json), vint(run) };
		return q(s, "UPDATE runs SET finished=$1, status=$2, result=$3 WHERE id=$4", 4, p, NULL) == 0
			   ? 0
			   : fail(s, "cannot finish run");
	}
}

long store_trial_add(struct store *s, long run, int seq, const char *kind, const char *settings_json, double score,
		     bool failed)
{
	char now[32];

	now_iso(now, sizeof(now));
	{
		struct val p[] = { vint(run),  vint(seq),    vtext(kind), vtext(settings_json),
				   vtext(now), vreal(score), vint(failed) };
		return insert_id(s,
				 "INSERT INTO trials(run_id, seq, kind, settings, started, score, failed) "
				 "VALUES($1, $2, $3, $4, $5, $6, $7) RETURNING id",
				 7, p, "cannot add trial");
	}
}

int store_trial_delete(struct store *s, long trial)
{
	struct val p[] = { vint(trial) };

	if (q(s, "DELETE FROM measurements WHERE trial_id=$1", 1, p, NULL) < 0 ||
	    q(s, "DELETE FROM trials WHERE id=$1", 1, p, NULL) < 0)
		return fail(s, "cannot delete trial");
	return 0;
}

int store_trial_score(struct store *s, long trial, double score, bool failed)
{
	struct val p[] = { vreal(score), vint(failed), vint(trial) };

	return q(s, "UPDATE trials SET score=$1, failed=$2 WHERE id=$3", 3, p, NULL) == 0
		   ? 0
		   : fail(s, "cannot score trial");
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

int store_measurement_add(struct store *s, long trial, const char *workload, const struct run_result *r, double metric)
{
	char results[4096], probe[2048];

	values_json(results, sizeof(results), r->values, r->nvalues);
	values_json(probe, sizeof(probe), r->probe, r->nprobe);
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
		return q(s,
			 "INSERT INTO measurements(trial_id, workload, outcome, metric, user_s, sys_s,"
			 " elapsed_s, majflt, minflt, results, probe_p99_ms, probe_played, probe)"
			 " VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
			 13, p, NULL) == 0
			   ? 0
			   : fail(s, "cannot add measurement");
	}
}

/* --- reading ----------------------------------------------------------------------------- */

char *store_run_config(struct store *s, long run, char *status, size_t statuslen)
{
	struct val p[] = { vint(run) };
	struct rows r;
	char *cfg = NULL;

	if (q(s, "SELECT config, status FROM runs WHERE id=$1", 1, p, &r) < 0)
		return NULL;
	if (r.n) {
		cfg = strdup(ctext(&r, 0, 0));
		snprintf(status, statuslen, "%s", ctext(&r, 0, 1));
	}
	rows_free(&r);
	return cfg;
}

int store_trials_each(struct store *s, long run, store_trial_cb cb, void *arg)
{
	struct val p[] = { vint(run) };
	struct rows t, m;
	int rc = 0, i, j, k;

	if (q(s, "SELECT id, seq, kind, settings, failed FROM trials WHERE run_id=$1 ORDER BY seq", 1, p, &t) < 0)
		return fail(s, "cannot read trials");
	if (q(s,
	      "SELECT m.trial_id, m.metric, m.probe_p99_ms, m.probe_played FROM measurements m"
	      " JOIN trials t ON t.id = m.trial_id WHERE t.run_id=$1 ORDER BY t.seq, m.id",
	      1, p, &m) < 0) {
		rows_free(&t);
		return fail(s, "cannot read measurements");
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
	rows_free(&t);
	rows_free(&m);
	return rc;
}

int store_runs_each(struct store *s, store_run_cb cb, void *arg)
{
	struct rows r;
	int rc = 0, i;

	if (q(s, "SELECT id, uuid, status, machine, config FROM runs ORDER BY id", 0, NULL, &r) < 0)
		return fail(s, "cannot read runs");
	for (i = 0; rc == 0 && i < r.n; i++)
		rc = cb(arg, (long)clong(&r, i, 0), ctext(&r, i, 1), ctext(&r, i, 2), ctext(&r, i, 3), ctext(&r, i, 4));
	rows_free(&r);
	return rc;
}

int store_scores_each(struct store *s, long run, store_score_cb cb, void *arg)
{
	struct val p[] = { vint(run) };
	struct rows r;
	int rc = 0, i;

	if (q(s, "SELECT id, kind, settings, score, failed FROM trials WHERE run_id=$1 ORDER BY seq", 1, p, &r) < 0)
		return fail(s, "cannot read trials");
	for (i = 0; rc == 0 && i < r.n; i++)
		rc = cb(arg, (long)clong(&r, i, 0), ctext(&r, i, 1), ctext(&r, i, 2), cdouble(&r, i, 3),
			clong(&r, i, 4) != 0);
	rows_free(&r);
	return rc;
}

double store_mean_run_seconds(struct store *s, const char *spec, long *n)
{
	struct val p[] = { vtext(spec) };
	struct rows r;
	double mean = 0;

	*n = 0;
	if (q(s, "SELECT avg(elapsed_s), count(*) FROM measurements WHERE workload=$1 AND outcome='ok'", 1, p, &r) < 0)
		return 0;
	if (r.n) {
		mean = cell(&r, 0, 0)->t == V_NULL ? 0 : cdouble(&r, 0, 0);
		*n = (long)clong(&r, 0, 1);
	}
	rows_free(&r);
	return mean;
}

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
		return json_object_new_double(v->d);
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
	if (q(s,
	      "SELECT uuid, started, finished, status, vmtune_version, machine, config, result, id FROM runs "
	      "ORDER BY id",
	      0, NULL, &rs) < 0)
		return fail(s, "cannot read runs");
	for (a = 0; a < rs.n && rc == 0; a++) {
		json_object *run = json_object_new_object(), *trials = json_object_new_array();
		struct val p[] = { vint(clong(&rs, a, 8)) };

		for (i = 0; run_cols[i]; i++)
			json_object_object_add(run, run_cols[i], col_json(&rs, a, i));
		json_object_object_add(run, "machine", col_parsed(&rs, a, 5));
		json_object_object_add(run, "config", col_parsed(&rs, a, 6));
		json_object_object_add(run, "result", col_parsed(&rs, a, 7));
		if (q(s,
		      "SELECT seq, kind, started, score, failed, settings, id FROM trials WHERE run_id=$1 ORDER BY seq",
		      1, p, &ts) < 0 ||
		    q(s,
		      "SELECT m.workload, m.outcome, m.metric, m.user_s, m.sys_s, m.elapsed_s, m.majflt, m.minflt,"
		      " m.probe_p99_ms, m.probe_played, m.results, m.probe, m.trial_id FROM measurements m"
		      " JOIN trials t ON t.id = m.trial_id WHERE t.run_id=$1 ORDER BY t.seq, m.id",
		      1, p, &ms) < 0) {
			json_object_put(run);
			rows_free(&rs);
			return fail(s, "cannot read trials");
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
				json_object_array_add(meas, m);
			}
			json_object_object_add(t, "measurements", meas);
			json_object_array_add(trials, t);
		}
		rows_free(&ts);
		rows_free(&ms);
		json_object_object_add(run, "trials", trials);
		if (fprintf(out, "%s\n", json_object_to_json_string_ext(run, JSON_C_TO_STRING_PLAIN)) < 0)
			rc = error("cannot write the export: %s", strerror(errno));
		json_object_put(run);
		(*count)++;
	}
	rows_free(&rs);
	return rc;
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

	if (q(s, "SELECT 1 FROM runs WHERE uuid=$1", 1, p, &r) < 0)
		return fail(s, "cannot read runs");
	n = r.n;
	rows_free(&r);
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
	if (q(s, "BEGIN", 0, NULL, NULL) < 0)
		goto fail;
	{
		struct val p[8];
		for (i = 0; run_cols[i]; i++)
			p[i] = jval(field(run, run_cols[i]), false);
		p[5] = jval(field(run, "machine"), true);
		p[6] = jval(field(run, "config"), true);
		p[7] = jval(field(run, "result"), true);
		if ((run_id = insert_id(s,
					"INSERT INTO runs(uuid, started, finished, status, vmtune_version, machine, "
					"config, result) VALUES($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id",
					8, p, "cannot import")) < 0)
			goto fail;
	}
	for (i = 0; i < json_object_array_length(trials); i++) {
		json_object *t = json_object_array_get_idx(trials, i), *meas = field(t, "measurements");
		struct val p[7];
		long trial_id;

		p[0] = vint(run_id);
		for (j = 0; trial_cols[j]; j++)
			p[j + 1] = jval(field(t, trial_cols[j]), false);
		p[6] = jval(field(t, "settings"), true);
		if ((trial_id = insert_id(s,
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
			if (q(s,
			      "INSERT INTO measurements(trial_id, workload, outcome, metric, user_s, sys_s, "
			      "elapsed_s, majflt, minflt, probe_p99_ms, probe_played, results, probe) "
			      "VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
			      13, mp, NULL) < 0) {
				fail(s, "cannot import");
				goto fail;
			}
		}
	}
	if (q(s, "COMMIT", 0, NULL, NULL) < 0) {
		fail(s, "cannot import");
		goto fail;
	}
	json_object_put(run);
	return 1;
fail:
	q(s, "ROLLBACK", 0, NULL, NULL);
	/* another writer may have imported the same run meanwhile */
	rc = run_present(s, json_object_get_string(uuid));
	json_object_put(run);
	return rc > 0 ? 0 : -1;
}
