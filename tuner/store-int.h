/* store-int.h - inside the results store (store*.c only): the connection, the one
 * query function for SQLite and PostgreSQL, and its values and rows. */
#ifndef VMTUNE_STORE_INT_H
#define VMTUNE_STORE_INT_H

#include <libpq-fe.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>

#include "store.h"

struct store {
	sqlite3 *db; /* one of these two */
	PGconn *pg;
	char path[PATH_MAX];
	char err[512]; /* the last error of the database */
	bool readonly; /* a SQLite file we may only read */
};

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

static inline struct val vint(long long i)
{
	return (struct val){ .t = V_INT, .i = i };
}

static inline struct val vreal(double d)
{
	return isfinite(d) ? (struct val){ .t = V_REAL, .d = d } : (struct val){ .t = V_NULL };
}

static inline struct val vtext(const char *s)
{
	return s ? (struct val){ .t = V_TEXT, .s = (char *)s } : (struct val){ .t = V_NULL };
}

static inline const struct val *cell(const struct rows *r, int row, int col)
{
	return &r->v[row * r->cols + col];
}

static inline long long clong(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	return v->t == V_INT ? v->i : v->t == V_REAL ? (long long)v->d : v->t == V_TEXT ? atoll(v->s) : 0;
}

static inline double cdouble(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	return v->t == V_REAL ? v->d : v->t == V_INT ? (double)v->i : v->t == V_TEXT ? atof(v->s) : NAN;
}

static inline const char *ctext(const struct rows *r, int row, int col)
{
	const struct val *v = cell(r, row, col);

	return v->t == V_TEXT ? v->s : NULL;
}

void store_rows_free(struct rows *r);
/* Run sql with parameters $1..$n; rows into out (NULL: none wanted). 0 or -1 (s->err says why). */
int store_q(struct store *s, const char *sql, int n, const struct val *p, struct rows *out);
/* error() naming the store, what failed and the database's reason; returns -1. */
int store_fail(struct store *s, const char *what);
/* An INSERT ... RETURNING id: the new row's id, or -1. */
long store_insert_id(struct store *s, const char *sql, int n, const struct val *p, const char *what);
/* Now, UTC, ISO 8601. */
void store_now_iso(char *buf, size_t size);

#endif
