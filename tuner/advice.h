/* advice.h - the recommendation policy over the pooled model, in one place for
 * `vmtune recommend` and `vmtune search --warm-start`: which machine the advice is
 * for, how sure it must be, and when a guess is not handed out. */
#ifndef VMTUNE_ADVICE_H
#define VMTUNE_ADVICE_H

#include <stdbool.h>

#include "machine.h"
#include "model.h"
#include "pool.h"
#include "space.h"

struct advice {
	double feat[MACHINE_NFEAT]; /* of the machine the advice is for */
	long vals[SPACE_MAX];	    /* the settings: lowest predicted cost + one sd */
	double mean, sd;	    /* their predicted log cost against the original settings */
	bool as_searched;	    /* no swap now: advice for the machine as its searches ran */
	int own, own_trials;	    /* this machine's runs in the pool (machines, trials) */
	bool swap_kind_seen;	    /* some pooled machine has this machine's kind of swap */
	bool unsure;		    /* the 95% interval does not rule out a loss */
	bool guess_only;	    /* a transfer across kinds of swap the model doubts: show, do not recommend */
	/* sure on the whole pool, but not on the trials of this machine's kind of swap
	 * alone (their model's prediction at vals) */
	bool kind_doubts;
	double kind_mean, kind_sd;
};

/* Fit the model to the pool for machine m and choose settings (knobs not free
 * stay at their originals; free NULL: all are free). When m has no swap now but
 * its own pooled searches ran with some (vmtune's temporary swapfile, say), m
 * becomes the machine as searched. Returns 0, or -1 when the pool has too few
 * points for a model. M is the caller's to free. */
int advice_make(struct advice *A, struct model *M, const struct pool *p, const struct space *sp, struct machine *m,
		const bool *free, unsigned long seed);

#endif
