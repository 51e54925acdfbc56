/* model.c - one Gaussian process over the coded knobs and the machine features
 * (gp.c: ARD length scales, so the data decide how much a machine's memory or
 * swap device matters). Trials from this very machine are at distance 0 in the
 * features and so dominate its predictions; other machines count as much as
 * the fitted kernel says they are alike. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "vmtune.h"

/* Each run's own noise where its repeats measured it (4 degrees of freedom or
 * more, pooled over its settings): runs differ (a compressed swap device is
 * noisier than a swapfile, one machine than another), and one fitted noise for
 * all would make the quiet run's effect look surer on the noisy one's machine.
 * Runs without enough repeats keep the fitted noise. */
static void run_noise(const struct pool *p, struct gp_rep *rep)
{
	int r, i;

	for (r = 0; r < p->nruns; r++) {
		double ss = 0;
		int dof = 0;
		for (i = 0; i < p->npts; i++)
			if (p->pts[i].run == r && p->pts[i].k >= 2) {
				ss += p->pts[i].ss;
				dof += p->pts[i].k - 1;
			}
		if (dof < 4 || !(ss > 0))
			continue;
		for (i = 0; i < p->npts; i++)
			if (p->pts[i].run == r)
				rep[i].var = ss / dof;
	}
}

int model_fit(struct model *M, const struct pool *p, const struct space *sp, const double *feat, const double *extra_x,
	      const double *extra_y, int nextra)
{
	int D = pool_dims(sp), n = p->npts + nextra, i, rc;
	double *x, *y;
	struct gp_rep *rep;

	memset(M, 0, sizeof(*M));
	M->sp = sp;
	M->dims = D;
	pool_categorical(sp, M->cat);
	memcpy(M->feat, feat, sizeof(M->feat));
	if (n < 2)
		return -1;
	x = malloc(sizeof(double) * (size_t)(n * D));
	y = malloc(sizeof(double) * (size_t)n);
	M->pt = malloc(sizeof(int) * (size_t)n);
	rep = calloc((size_t)n, sizeof(*rep));
	if (!x || !y || !M->pt || !rep) {
		free(x);
		free(y);
		free(rep);
		free(M->pt);
		M->pt = NULL;
		return error("out of memory");
	}
	for (i = 0; i < p->npts; i++) {
		pool_encode(sp, p->pts[i].vals, p->machines[p->runs[p->pts[i].run].machine].feat, x + i * D);
		y[i] = p->pts[i].y;
		/* y is the mean of n trials of these settings; k of them say how they spread */
		rep[i].count = p->pts[i].n;
		rep[i].dof = p->pts[i].k - 1;
		rep[i].ss = p->pts[i].ss;
		M->pt[i] = i;
	}
	run_noise(p, rep);
	for (i = 0; i < nextra; i++) {
		memcpy(x + (p->npts + i) * D, extra_x + i * D, sizeof(double) * (size_t)D);
		y[p->npts + i] = extra_y[i];
		rep[p->npts + i].count = 1;
		M->pt[p->npts + i] = -1;
	}
	rc = gp_fit_counts(&M->gp, D, M->cat, x, y, rep, n, NULL);
	free(x);
	free(y);
	free(rep);
	if (rc < 0) {
		free(M->pt);
		M->pt = NULL;
	}
	return rc;
}

void model_predict(const struct model *M, const long *vals, double *mean, double *sd)
{
	double x[SPACE_MAX + MACHINE_NFEAT];

	pool_encode(M->sp, vals, M->feat, x);
	gp_predict(&M->gp, x, mean, sd);
}

static double value_of(const struct model *M, const long *vals, double caution)
{
	double m, s;

	model_predict(M, vals, &m, &s);
	return m + caution * s;
}

/* Knobs that are not free back to their original values. */
static void hold(const struct space *sp, const bool *free, long *vals)
{
	int k;

	for (k = 0; free && k < sp->d; k++)
		if (!free[k])
			vals[k] = sp->dim[k].original;
}

void model_best(const struct model *M, const struct pool *p, double caution, unsigned long seed, const bool *free,
		long *vals)
{
	const struct space *sp = M->sp;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	long cand[SPACE_MAX], best[SPACE_MAX];
	double bestv, x[SPACE_MAX];
	int i, k, t, j;

	gsl_rng_set(rng, seed);
	/* the original settings, then every stored setting (evaluated for this machine) */
	for (k = 0; k < sp->d; k++)
		best[k] = sp->dim[k].original;
	bestv = value_of(M, best, caution);
	for (i = 0; i < p->npts; i++) {
		double v;
		memcpy(cand, p->pts[i].vals, sizeof(long) * (size_t)sp->d);
		space_clamp(sp, cand); /* another machine's setting, within this one's safe ranges */
		hold(sp, free, cand);
		if ((v = value_of(M, cand, caution)) < bestv) {
			bestv = v;
			memcpy(best, cand, sizeof(cand));
		}
	}
	/* random points over the box */
	for (t = 0; t < 3000; t++) {
		double v;
		for (k = 0; k < sp->d; k++) {
			const struct space_dim *dm = &sp->dim[k];
			double u = gsl_rng_uniform(rng);
			x[k] =
			    dm->categorical ? (double)(dm->lo + (long)(u * (double)(dm->hi - dm->lo + 1))) : 2 * u - 1;
		}
		space_decode_point(sp, x, cand);
		hold(sp, free, cand);
		if ((v = value_of(M, cand, caution)) < bestv) {
			bestv = v;
			memcpy(best, cand, sizeof(cand));
		}
	}
	/* then coordinate steps from the best, until no single knob change helps */
	for (t = 0; t < 20; t++) {
		bool improved = false;
		for (k = 0; k < sp->d; k++) {
			const struct space_dim *dm = &sp->dim[k];
			int levels = dm->categorical ? (int)(dm->hi - dm->lo + 1) : 65;
			if (free && !free[k])
				continue;
			for (j = 0; j < levels; j++) {
				double f;
				memcpy(cand, best, sizeof(cand));
				cand[k] = dm->categorical ? dm->lo + j : space_decode(dm, -1 + 2.0 * j / (levels - 1));
				if ((f = value_of(M, cand, caution)) < bestv - 1e-12) {
					bestv = f;
					memcpy(best, cand, sizeof(cand));
					improved = true;
				}
			}
		}
		if (!improved)
			break;
	}
	memcpy(vals, best, sizeof(long) * (size_t)sp->d);
	gsl_rng_free(rng);
}

double model_similarity(const struct model *M, const double *fa, const double *fb)
{
	double a[SPACE_MAX + MACHINE_NFEAT] = { 0 }, b[SPACE_MAX + MACHINE_NFEAT] = { 0 };

	memcpy(a + M->sp->d, fa, sizeof(double) * MACHINE_NFEAT);
	memcpy(b + M->sp->d, fb, sizeof(double) * MACHINE_NFEAT);
	return gp_correlation(&M->gp, a, b, M->sp->d, M->dims);
}

void model_free(struct model *M)
{
	if (M->pt)
		gp_free(&M->gp);
	free(M->pt);
	M->pt = NULL;
}
