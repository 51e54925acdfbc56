/* pool.h - the stored trials of one workload (or mix) from every run and every
 * machine in one or more stores, as points for a model over knobs and machines. */
#ifndef VMTUNE_POOL_H
#define VMTUNE_POOL_H

#include <stdbool.h>

#include "machine.h"
#include "space.h"

#define POOL_MAX_SPECS 8
#define POOL_MAX_DBS 16

/* Which runs count: the same set of workload specs, the same objective. */
struct pool_query {
	const char *specs[POOL_MAX_SPECS];
	int nspecs;
	const char *objective; /* "throughput", "interactive", "balanced" */
	const char *dbs[POOL_MAX_DBS];
	int ndbs;
	long exclude_run; /* a run of the first store to leave out (the search itself), 0 for none */
};

struct pool_machine {
	struct machine m;
	double feat[MACHINE_NFEAT];
	bool own; /* the machine being tuned (same hostname and memory) */
	int nruns, ntrials;
};

struct pool_run {
	char uuid[40];
	int machine; /* index in machines[] */
	int backend; /* a run that varied the swap backend has a pool run per backend (swap.h), else -1 */
	int ntrials;
	bool has_knob[SPACE_MAX]; /* searched in this run (else its value is filled in) */
};

struct pool_point {
	int run;
	long vals[SPACE_MAX];
	double y; /* mean log cost relative to the run's own original settings */
	int n;	  /* measurements averaged into y */
	/* the spread of the repeats (not the yardstick's own zeros, not failures):
	 * k of them, their mean and sum of squared deviations (Welford) */
	int k;
	double kmean, ss;
	bool filled; /* some knob was not searched in its run: a filled-in value */
};

struct pool {
	struct pool_machine *machines;
	int nmachines;
	struct pool_run *runs;
	int nruns;
	struct pool_point *pts;
	int npts, ntrials;
};

/* The distinct sets of workloads (with their objective) the stores hold runs of. */
#define POOL_MAX_SETS 32
struct pool_sets {
	int n;
	struct {
		char specs[POOL_MAX_SPECS][512];
		int nspecs, runs;
		char objective[16];
	} set[POOL_MAX_SETS];
};
int pool_sets(const struct pool_query *q, struct pool_sets *out);

/* The knobs the matching runs searched, comma-separated (the union), into buf.
 * Returns the number of matching runs, or -1 on error. */
int pool_knobs(const struct pool_query *q, char *buf, size_t size);
/* Load every matching trial as a point of sp; runs of the target machine (own)
 * are marked. Returns 0 or -1. */
int pool_load(struct pool *p, const struct pool_query *q, const struct space *sp, const struct machine *target);
void pool_free(struct pool *p);

/* The model's coordinates of a point: the coded knobs, then the machine features. */
int pool_dims(const struct space *sp);
void pool_categorical(const struct space *sp, bool *cat);
void pool_encode(const struct space *sp, const long *vals, const double *feat, double *x);

#endif
