/* sensitivity.c - which knobs mattered: each knob's main effect on the log cost,
 * from a response surface fitted by least squares to the search's own
 * measurements (an intercept, and per knob a level for each value measured, when
 * it is an enum or was measured at few values, or else a quadratic in its coded
 * value). A knob's sensitivity is the difference between
 * the fitted cost at its worst and at its best value across its range, with the
 * 95% band of that difference: Student's t on the residual variance, and wide
 * enough to hold for every pair of values at once (Bonferroni over the pairs),
 * since the pair was picked for its difference. The surface is additive: what
 * interactions and shapes beyond a quadratic leave over goes into the residual
 * variance and widens every band instead of making effects up.
 *
 * It reads the measurements directly. The search's Gaussian process is the
 * better guide to where to look, but as a reader of main effects it was weak:
 * away from the settings measured its prediction falls back to the average of
 * the data, so the average over the measured settings of "this knob at its worst
 * against at its best" came out near nothing even for a knob that moved the cost
 * by half (bench/RESULTS.md has the counts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

#include "search-int.h"
#include "vmtune.h"

#define MAX_LEVELS 32 /* values that get a level each: an enum's choices, a knob with few */
#define FEW 8	      /* a knob on a line measured at this many values or fewer gets levels */
#define STEPS 9	      /* otherwise its quadratic is compared at nine values across its range */

/* A knob's columns in the design: none (one value measured: nothing to learn), a
 * line and a square in its coded value, or a level for each value measured but the
 * first (the one the others are measured from). Levels fit any shape (a step at
 * page-cluster 5 as well as a choice of an enum) where there are few values. */
struct term {
	int col, ncol, nlev;
	bool levels;
	double lev[MAX_LEVELS];
};

static int level_of(const struct term *t, double v)
{
	for (int j = 0; j < t->nlev; j++)
		if (fabs(t->lev[j] - v) < 1e-9)
			return j;
	return -1;
}

/* The design row of coded point xr. */
static void design_row(const struct term *t, int d, const double *xr, double *row)
{
	row[0] = 1;
	for (int k = 0; k < d; k++) {
		if (!t[k].ncol)
			continue;
		if (t[k].levels) {
			int l = level_of(&t[k], xr[k]);
			for (int j = 1; j < t[k].nlev; j++)
				row[t[k].col + j - 1] = l == j;
		} else {
			row[t[k].col] = xr[k];
			row[t[k].col + 1] = xr[k] * xr[k];
		}
	}
}

/* What knob k's columns are, from the values measured. */
static void term_of(struct term *t, int n, int d, int k, const double *x, bool categorical)
{
	int many = 0;

	for (int i = 0; i < n; i++) {
		double v = x[i * d + k];
		int j;
		if (level_of(t, v) >= 0)
			continue;
		if (t->nlev == MAX_LEVELS) {
			many = 1;
			continue;
		}
		for (j = t->nlev; j > 0 && t->lev[j - 1] > v; j--) /* kept sorted */
			t->lev[j] = t->lev[j - 1];
		t->lev[j] = v;
		t->nlev++;
	}
	t->levels = categorical || (t->nlev <= FEW && !many);
	if (t->nlev <= 1)
		t->ncol = 0;
	else if (t->levels)
		t->ncol = t->nlev - 1;
	else
		t->ncol = 2;
}

int sens_fit(int n, int d, const double *x, const double *y, const bool *categorical, struct sens *sens)
{
	struct term t[SPACE_MAX];
	gsl_matrix *X = NULL, *cov = NULL;
	gsl_vector *Y = NULL, *W = NULL, *c = NULL;
	gsl_multifit_linear_workspace *ws = NULL;
	double chisq, s2, *row = NULL;
	size_t rank;
	int p = 1, k, i, rc = -1;

	for (k = 0; k < d; k++)
		sens[k].pct = sens[k].lo = sens[k].hi = NAN;
	memset(t, 0, sizeof(t));
	for (k = 0; k < d; k++) {
		term_of(&t[k], n, d, k, x, categorical[k]);
		t[k].col = p;
		p += t[k].ncol;
	}
	/* a few degrees of freedom for the residual variance, or no bands worth printing */
	if (n - p < 3)
		return -1;
	gsl_set_error_handler_off();
	X = gsl_matrix_alloc((size_t)n, (size_t)p);
	cov = gsl_matrix_alloc((size_t)p, (size_t)p);
	Y = gsl_vector_alloc((size_t)n);
	W = gsl_vector_alloc((size_t)n);
	c = gsl_vector_alloc((size_t)p);
	ws = gsl_multifit_linear_alloc((size_t)n, (size_t)p);
	row = malloc(sizeof(double) * (size_t)p);
	if (!X || !cov || !Y || !W || !c || !ws || !row)
		goto out;
	for (i = 0; i < n; i++) {
		design_row(t, d, x + i * d, row);
		for (k = 0; k < p; k++)
			gsl_matrix_set(X, (size_t)i, (size_t)k, row[k]);
		gsl_vector_set(Y, (size_t)i, y[i]);
	}
	gsl_vector_set_all(W, 1);
	/* weights of one: cov is (X'X)^-1, to be scaled by the residual variance here;
	 * the truncated SVD drops directions the data cannot tell apart (two knobs
	 * always moved together), and the rank says how many were fitted */
	if (gsl_multifit_wlinear_tsvd(X, W, Y, 1e-10, c, cov, &chisq, &rank, ws) != GSL_SUCCESS || n - (int)rank < 3)
		goto out;
	s2 = chisq / (double)(n - (int)rank);
	for (k = 0; k < d; k++) {
		double g[MAX_LEVELS], val[MAX_LEVELS], a[MAX_LEVELS] = { 0 }, diff = 0, var = 0, q;
		int nv = 0, hi = 0, lo = 0, j, l;

		if (!t[k].ncol)
			continue;
		/* the fitted main effect at each value compared */
		if (t[k].levels) {
			for (j = 0; j < t[k].nlev; j++) {
				val[nv] = j;
				g[nv++] = j ? gsl_vector_get(c, (size_t)(t[k].col + j - 1)) : 0;
			}
		} else {
			double b1 = gsl_vector_get(c, (size_t)t[k].col), b2 = gsl_vector_get(c, (size_t)t[k].col + 1);
			for (j = 0; j < STEPS; j++) {
				val[nv] = -1 + 2.0 * j / (STEPS - 1);
				g[nv] = b1 * val[nv] + b2 * val[nv] * val[nv];
				nv++;
			}
		}
		for (j = 1; j < nv; j++) {
			if (g[j] > g[hi])
				hi = j;
			if (g[j] < g[lo])
				lo = j;
		}
		/* worst minus best as a combination a of this knob's coefficients */
		if (t[k].levels) {
			if (hi)
				a[hi - 1] += 1;
			if (lo)
				a[lo - 1] -= 1;
		} else {
			a[0] = val[hi] - val[lo];
			a[1] = val[hi] * val[hi] - val[lo] * val[lo];
		}
		for (j = 0; j < t[k].ncol; j++) {
			diff += a[j] * gsl_vector_get(c, (size_t)(t[k].col + j));
			for (l = 0; l < t[k].ncol; l++)
				var +=
				    a[j] * a[l] * gsl_matrix_get(cov, (size_t)(t[k].col + j), (size_t)(t[k].col + l));
		}
		var = var > 0 ? var * s2 : 0;
		q = gsl_cdf_tdist_Qinv(0.025 / (nv * (nv - 1) / 2.0), (double)(n - (int)rank));
		sens[k].pct = 100 * (exp(diff) - 1);
		sens[k].lo = 100 * (exp(diff - q * sqrt(var)) - 1);
		sens[k].hi = 100 * (exp(diff + q * sqrt(var)) - 1);
	}
	rc = 0;
out:
	if (X)
		gsl_matrix_free(X);
	if (cov)
		gsl_matrix_free(cov);
	if (Y)
		gsl_vector_free(Y);
	if (W)
		gsl_vector_free(W);
	if (c)
		gsl_vector_free(c);
	if (ws)
		gsl_multifit_linear_free(ws);
	free(row);
	return rc;
}

/* The search's rows: every run that measured a cost (candidates, repeats and the
 * confirmation's runs, not the failed ones), and the original settings once at
 * log 1 = 0, the level every cost is measured from. */
void sensitivity(struct search *S, struct sens *sens)
{
	int d = S->sp.d, n = 0, i;
	double *x = malloc(sizeof(double) * (size_t)((S->nobs + 1) * d)),
	       *y = malloc(sizeof(double) * (size_t)(S->nobs + 1));

	for (i = 0; i < d; i++)
		sens[i].pct = sens[i].lo = sens[i].hi = NAN;
	if (!x || !y)
		goto out;
	space_encode_point(&S->sp, S->points[0].vals, x);
	y[n++] = 0;
	for (i = 0; i < S->nobs; i++) {
		const struct obs *ob = &S->obs[i];
		if ((ob->kind != TK_CANDIDATE && ob->kind != TK_REPEAT && ob->kind != TK_CONFIRM) || ob->failed ||
		    !(ob->score > 0))
			continue;
		space_encode_point(&S->sp, S->points[ob->point].vals, x + n * d);
		y[n++] = log(ob->score);
	}
	sens_fit(n, d, x, y, S->sp.categorical, sens);
out:
	free(x);
	free(y);
}

bool sens_found(const struct sens *s)
{
	return isfinite(s->lo) && s->lo > 0;
}

const char *sens_format(const struct sens *s, char *buf, size_t size)
{
	if (!isfinite(s->pct))
		snprintf(buf, size, "-");
	else if (!sens_found(s))
		snprintf(buf, size, "none found (under %.1f%%)", s->hi);
	else
		snprintf(buf, size, "%.1f%% (%.1f .. %.1f%%)", s->pct, s->lo, s->hi);
	return buf;
}
