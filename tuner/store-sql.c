/* store-sql.c - the one query function the store's SQL goes through, for a SQLite
 * file and a PostgreSQL database alike: parameters $1..$n, rows of values. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "store-int.h"
#include "vmtune.h"

void store_rows_free(struct rows *r)
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
			store_rows_free(out);
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
				store_rows_free(out);
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
int store_q(struct store *s, const char *sql, int n, const struct val *p, struct rows *out)
{
	return s->pg ? q_pg(s, sql, n, p, out) : q_sqlite(s, sql, n, p, out);
}

int store_fail(struct store *s, const char *what)
{
	return error("results store %s: %s: %s", s->path, what, s->err);
}

long store_insert_id(struct store *s, const char *sql, int n, const struct val *p, const char *what)
{
	struct rows r;
	long id;

	if (store_q(s, sql, n, p, &r) < 0)
		return store_fail(s, what);
	id = r.n == 1 ? (long)clong(&r, 0, 0) : -1;
	store_rows_free(&r);
	if (id < 0) {
		snprintf(s->err, sizeof(s->err), "no id returned");
		return store_fail(s, what);
	}
	return id;
}
