/* model.h - a Gaussian process over knobs and machine features, fitted to pooled
 * trials: predictions for one machine, the settings it recommends there. */
#ifndef VMTUNE_MODEL_H
#define VMTUNE_MODEL_H

#include <stdbool.h>

#include "gp.h"
#include "pool.h"
#include "space.h"

struct model {
	struct gp gp;
	const struct space *sp;
	int dims;
	bool cat[SPACE_MAX + MACHINE_NFEAT];
	double feat[MACHINE_NFEAT]; /* the machine predictions are for */
	int *pt;		    /* training row -> pool point (-1: an extra row) */
};

/* Fit to the pool's points plus nextra rows (already encoded, pool_dims wide)
 * and predict for the machine with features feat. Returns 0, or -1 with too
 * few points. */
int model_fit(struct model *M, const struct pool *p, const struct space *sp, const double *feat, const double *extra_x,
	      const double *extra_y, int nextra);
/* Predicted log cost relative to the machine's original settings, and its sd. */
void model_predict(const struct model *M, const long *vals, double *mean, double *sd);
/* The settings with the lowest mean + caution * sd (caution 0: the predicted
 * best; 1: one that is good with some certainty), searched from the original
 * settings, every stored setting, random points, then single-knob steps. Knobs
 * not free (free NULL: all are) stay at their original values. */
void model_best(const struct model *M, const struct pool *p, double caution, unsigned long seed, const bool *free,
		long *vals);
/* How alike two machines are to the fitted model (kernel correlation over the
 * machine features, 1 = the same). */
double model_similarity(const struct model *M, const double *fa, const double *fb);
void model_free(struct model *M);

#endif
