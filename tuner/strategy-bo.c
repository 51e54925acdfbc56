/* strategy-bo.c - the surrogate of --strategy bo: a Gaussian process over this
 * search's log costs (and, with --warm-start, the pooled trials with their
 * machine features), the candidate of highest expected improvement, and the
 * sensitivity of the score to each knob that the report prints. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search-int.h"
#include "vmtune.h"

/* A point in the surrogate's coordinates: the coded knobs, and with a warm start
 * this machine's features after them. */
static int model_dims(const struct search *S)
{
	return S->warm ? pool_dims(&S->sp) : S->sp.d;
}

void model_x(const struct search *S, const long *vals, double *x)
{
	if (S->warm)
		pool_encode(&S->sp, vals, S->feat, x);
	else
		space_encode_point(&S->sp, vals, x);
}

/* Expected improvement over the box: random points plus steps around the best
 * points, each rounded to valid values and scored there. Prefers settings not yet
 * tried; when every setting has been tried (a small space), the best EI re-measures. */
void bo_candidate(struct search *S, const struct gp *gp, long *out)
{
	double x[SPACE_MAX + MACHINE_NFEAT], best_log = HUGE_VAL, best_ei = -1, best_ei_seen = -1;
	long vals[SPACE_MAX], seen[SPACE_MAX];
	int order[8], nord = 0, i, j, k, tries;

	for (i = 1; i < S->npoints; i++)
		if (S->points[i].nobs && S->points[i].mean_log < best_log)
			best_log = S->points[i].mean_log;
	if (best_log > 0)
		best_log = 0; /* the original scores log 1 = 0 */
	/* the few best points, to search around them */
	for (i = 0; i < S->npoints; i++) {
		if (!S->points[i].nobs && i != 0)
			continue;
		if (nord < 8)
			order[nord++] = i;
		for (j = nord - 1; j > 0; j--) {
			double a = order[j] ? S->points[order[j]].mean_log : 0;
			double b = order[j - 1] ? S->points[order[j - 1]].mean_log : 0;
			if (a < b) {
				int t = order[j];
				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		}
		if (nord == 8 && i > 8)
			nord = 7;
	}
	memcpy(out, S->points[0].vals, sizeof(long) * (size_t)S->sp.d);
	memcpy(seen, out, sizeof(seen));
	for (tries = 0; tries < 4000; tries++) {
		double ei;

		if (tries < 2500 || nord == 0) {
			for (k = 0; k < S->sp.d; k++) {
				const struct space_dim *dm = &S->sp.dim[k];
				double u = gsl_rng_uniform(S->rng);
				x[k] = dm->categorical ? (double)(dm->lo + (long)(u * (double)(dm->hi - dm->lo + 1)))
						       : 2 * u - 1;
			}
		} else {
			int base = order[(tries - 2500) % nord];
			space_encode_point(&S->sp, S->points[base].vals, x);
			for (k = 0; k < S->sp.d; k++) {
				const struct space_dim *dm = &S->sp.dim[k];
				if (dm->categorical) {
					if (gsl_rng_uniform(S->rng) < 0.2)
						x[k] = (double)(dm->lo + (long)(gsl_rng_uniform(S->rng) *
										(double)(dm->hi - dm->lo + 1)));
				} else {
					x[k] += 0.15 * (2 * gsl_rng_uniform(S->rng) - 1) * (1 + (tries % 3));
				}
			}
		}
		space_decode_point(&S->sp, x, vals); /* round to valid values */
		model_x(S, vals, x);		     /* and score them there */
		ei = gp_expected_improvement(gp, x, best_log);
		if (find_point(S, vals) >= 0) {
			if (ei > best_ei_seen) {
				best_ei_seen = ei;
				memcpy(seen, vals, sizeof(seen));
			}
			continue;
		}
		if (ei > best_ei) {
			best_ei = ei;
			memcpy(out, vals, sizeof(long) * (size_t)S->sp.d);
		}
	}
	if (best_ei < 0)
		memcpy(out, seen, sizeof(long) * (size_t)S->sp.d);
}

/* The surrogate over this search's observations (log score; the original
 * settings are log 1 = 0 by definition) and, with a warm start, the pooled
 * trials. The hyperparameters are fitted afresh every few trials and reused in
 * between, which keeps a large warm pool quick. */
int fit_model(struct search *S, struct gp *gp)
{
	int D = model_dims(S), cap = S->pool.npts + 1 + S->nobs, i, n = 0, rc;
	struct gp hyper = { .log_l = S->hyper_l, .log_sf2 = S->hyper_sf2, .log_sn2 = S->hyper_sn2 };
	double *x = malloc(sizeof(double) * (size_t)(cap * D)), *y = malloc(sizeof(double) * (size_t)cap);
	struct gp_rep *rep = calloc((size_t)cap, sizeof(*rep));
	bool refit;

	if (!x || !y || !rep) {
		free(x);
		free(y);
		free(rep);
		return -1;
	}
	for (i = 0; i < cap; i++)
		rep[i].count = 1;
	for (i = 0; S->warm && i < S->pool.npts; i++) {
		const struct pool_point *pt = &S->pool.pts[i];
		pool_encode(&S->sp, pt->vals, S->pool.machines[S->pool.runs[pt->run].machine].feat, x + n * D);
		/* a pooled point is the mean of its run's trials of those settings */
		rep[n].count = pt->n;
		rep[n].dof = pt->k - 1;
		rep[n].ss = pt->ss;
		y[n++] = pt->y;
	}
	model_x(S, S->points[0].vals, x + n * D);
	y[n++] = 0;
	for (i = 0; i < S->nobs; i++) {
		const struct obs *ob = &S->obs[i];
		if (ob->kind != TK_CANDIDATE && ob->kind != TK_REPEAT)
			continue;
		model_x(S, S->points[ob->point].vals, x + n * D);
		y[n++] = log(ob->score);
	}
	refit = !S->have_hyper || !S->warm || S->trials_done - S->hyper_at >= 8;
	rc = n >= 2 ? gp_fit_counts(gp, D, S->warm ? S->cat : S->sp.categorical, x, y, rep, n, refit ? NULL : &hyper)
		    : -1;
	if (rc == 0 && refit && S->warm) {
		memcpy(S->hyper_l, gp->log_l, sizeof(double) * (size_t)D);
		S->hyper_sf2 = gp->log_sf2;
		S->hyper_sn2 = gp->log_sn2;
		S->have_hyper = true;
		S->hyper_at = S->trials_done;
	}
	free(x);
	free(y);
	free(rep);
	return rc;
}

/* Predicted change of the score across each knob's range at the recommended
 * point: how much each knob matters, by the fitted model. */
void sensitivity(struct search *S, const long *rec, double *sens)
{
	struct gp gp;
	double x[SPACE_MAX + MACHINE_NFEAT];
	int i, k;

	for (i = 0; i < S->sp.d; i++)
		sens[i] = NAN;
	if (fit_model(S, &gp) < 0)
		return;
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		double lo = HUGE_VAL, hi = -HUGE_VAL, m, sd;
		int steps = dm->categorical ? (int)(dm->hi - dm->lo + 1) : 9;

		model_x(S, rec, x);
		for (k = 0; k < steps; k++) {
			x[i] = dm->categorical ? (double)(dm->lo + k) : -1 + 2.0 * k / (steps - 1);
			gp_predict(&gp, x, &m, &sd);
			lo = fmin(lo, m);
			hi = fmax(hi, m);
		}
		sens[i] = 100 * (exp(hi - lo) - 1);
	}
	gp_free(&gp);
}
