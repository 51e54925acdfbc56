/* strategy-bo.c - the surrogate of --strategy bo: a Gaussian process with a quadratic
 * trend along each knob over this search's log costs (and, with --warm-start, the
 * pooled trials with their machine features), a second one over where its runs
 * failed, the candidate of highest expected improvement times the chance that it
 * runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"
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

/* The incumbent: of the settings measured (the original included), the one whose
 * posterior mean is lowest, and that mean. Against it, not against a lucky
 * measurement, is improvement expected (noisy EI). Points whose every run failed are
 * not candidates. */
static int incumbent(struct search *S, const struct gp *gp, double *best_mu)
{
	double x[SPACE_MAX + MACHINE_NFEAT], mu, sd;
	bool *ran = calloc((size_t)S->npoints, sizeof(bool));
	int i, best = 0;

	model_x(S, S->points[0].vals, x);
	gp_predict(gp, x, best_mu, &sd);
	if (!ran)
		return 0; /* out of memory: the original settings */
	for (i = 0; i < S->nobs; i++)
		if (!S->obs[i].failed && (S->obs[i].kind == TK_CANDIDATE || S->obs[i].kind == TK_REPEAT))
			ran[S->obs[i].point] = true;
	for (i = 1; i < S->npoints; i++) {
		if (!ran[i])
			continue;
		model_x(S, S->points[i].vals, x);
		gp_predict(gp, x, &mu, &sd);
		if (mu < *best_mu) {
			*best_mu = mu;
			best = i;
		}
	}
	free(ran);
	return best;
}

/* Expected improvement (times the chance that the run succeeds, when runs have failed)
 * over candidates: random points of the box, and steps around the incumbent and the
 * few best points, each rounded to valid values and scored there. In the last third
 * of the search (by trials or by time) the random points come from a trust region around
 * the incumbent (a quarter of each coded range either side; an enum keeps its choice
 * four times in five), and knobs the model finds irrelevant (a length scale over 12,
 * the box being 2 wide, and a flat trend along it) keep the incumbent's value, so that
 * the remaining budget refines what matters instead of chasing the variance at the
 * box's edges. Prefers settings
 * not yet tried; when every setting has been tried (a small space), the best EI
 * re-measures. */
void bo_candidate(struct search *S, const struct gp *gp, const struct gp *gpc, long *out)
{
	double x[SPACE_MAX + MACHINE_NFEAT], inc_x[SPACE_MAX], best_mu, best_ei = -1, best_ei_seen = -1;
	long vals[SPACE_MAX], seen[SPACE_MAX];
	int order[8], nord = 0, i, j, k, tries, inc;
	double done = (double)S->trials_done / S->o->trials;
	bool late, held[SPACE_MAX];

	inc = incumbent(S, gp, &best_mu);
	space_encode_point(&S->sp, S->points[inc].vals, inc_x);
	/* how far the search is: by trials, or by time when a budget of time ends it first */
	if (S->o->time_budget > 0)
		done = fmax(done, (vt_now() - S->t0) / search_phase_time(S));
	late = !S->warm && done >= 2.0 / 3;
	for (k = 0; k < S->sp.d; k++) {
		held[k] = late && gp->log_l[k] > log(12.0) && gp_trend_flat(gp, k);
		if (held[k] && k < (int)(8 * sizeof(S->held_said)) && !(S->held_said & (1UL << k))) {
			char a[64];
			S->held_said |= 1UL << k;
			search_say(S,
				   "%s: the model finds no effect (length scale %.0f times its range, a flat trend); "
				   "held at %s "
				   "from here",
				   S->sp.dim[k].def->name, exp(gp->log_l[k]) / 2,
				   knob_format_value(S->sp.dim[k].def, S->points[inc].vals[k], a, sizeof(a)));
		}
	}
	/* the few best points by their measurements, to search around them */
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
				if (held[k])
					x[k] = inc_x[k];
				else if (dm->categorical)
					x[k] = late && gsl_rng_uniform(S->rng) < 0.8
						   ? inc_x[k]
						   : (double)(dm->lo + (long)(u * (double)(dm->hi - dm->lo + 1)));
				else if (late)
					x[k] = fmax(-1, fmin(1, inc_x[k] + 0.5 * (u - 0.5)));
				else
					x[k] = 2 * u - 1;
			}
		} else {
			/* every third step is around the incumbent, the others around the best measured */
			int base = tries % 3 == 0 ? inc : order[(tries - 2500) % nord];
			space_encode_point(&S->sp, S->points[base].vals, x);
			for (k = 0; k < S->sp.d; k++) {
				const struct space_dim *dm = &S->sp.dim[k];
				if (held[k])
					continue;
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
		ei = gp_expected_improvement(gp, x, best_mu);
		if (gpc) /* where runs fail there is nothing to gain */
			ei *= gp_success_probability(gpc, x);
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
		/* a failed run has no cost: where runs fail is fit_failures' business; the
		 * confirmation's runs (only there once the search is over) are measurements
		 * like the others for the report's model and sensitivity */
		if ((ob->kind != TK_CANDIDATE && ob->kind != TK_REPEAT && ob->kind != TK_CONFIRM) || ob->failed)
			continue;
		model_x(S, S->points[ob->point].vals, x + n * D);
		y[n++] = log(ob->score);
	}
	refit = !S->have_hyper || !S->warm || S->trials_done - S->hyper_at >= 8;
	/* the knobs (first in the coordinates) carry a quadratic trend: a bowl or a slope along
	 * each is in the prior, and where no setting was measured the model follows it */
	rc = n >= 2 ? gp_fit_trend(gp, D, S->warm ? S->cat : S->sp.categorical, x, y, rep, n, refit ? NULL : &hyper,
				   S->sp.d)
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

/* Where this search's runs failed: a classifier (gp_success_probability) over the
 * settings tried, each labelled by the mean of its runs (+1 succeeded, -1 failed;
 * the original settings' baselines count too). Returns -1, and fits nothing, when no
 * run has failed: then every setting is as likely to succeed. */
int fit_failures(struct search *S, struct gp *gpc)
{
	int D = model_dims(S), n = 0, nfail = 0, i, rc;
	double *x = malloc(sizeof(double) * (size_t)(S->npoints * D)), *y = calloc((size_t)S->npoints, sizeof(double));
	struct gp_rep *rep = calloc((size_t)S->npoints, sizeof(*rep));
	int *row = malloc(sizeof(int) * (size_t)S->npoints);

	if (!x || !y || !rep || !row) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < S->npoints; i++)
		row[i] = -1;
	for (i = 0; i < S->nobs; i++) {
		const struct obs *ob = &S->obs[i];
		int r;
		if (ob->kind != TK_CANDIDATE && ob->kind != TK_REPEAT && ob->kind != TK_BASELINE)
			continue;
		if (row[ob->point] < 0) {
			row[ob->point] = n;
			model_x(S, S->points[ob->point].vals, x + n * D);
			n++;
		}
		r = row[ob->point];
		y[r] += ob->failed ? -1 : 1;
		rep[r].count++;
		nfail += ob->failed;
	}
	if (nfail == 0 || n < 2) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < n; i++)
		y[i] /= rep[i].count;
	rc = gp_fit_counts(gpc, D, S->warm ? S->cat : S->sp.categorical, x, y, rep, n, NULL);
out:
	free(x);
	free(y);
	free(rep);
	free(row);
	return rc;
}
