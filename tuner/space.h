/* space.h - the search space: chosen knobs, their safe ranges, coding to [-1, 1]. */
#ifndef VMTUNE_SPACE_H
#define VMTUNE_SPACE_H

#include <stdbool.h>
#include <stddef.h>

#include "catalogue.h"

#define SPACE_MAX 32

struct space_dim {
	const struct knob_def *def;
	long lo, hi;		   /* the safe search range (enum: choice indexes) */
	long original;		   /* the value found before the search */
	bool categorical;	   /* enum: coded as the choice index, not on a line */
	bool log;		   /* coded on log2 of the value */
	bool pseudo;		   /* not a kernel knob: the sandbox's swap backend (swap.h) */
	unsigned long long absent; /* bit v - lo: a value this kernel cannot hold (decoded to the one below) */
};

struct space {
	int d;
	struct space_dim dim[SPACE_MAX];
	bool categorical[SPACE_MAX]; /* for the GP */
};

/* Build the space from a comma-separated knob list, or from every searchable
 * knob that is available here when list is NULL. The list may name the
 * pseudo-knob "swap" (the sandbox's swap backend), which is never added unasked. Reads the original values.
 * Returns 0, or an exit code (usage: unknown knob; environment: missing here)
 * after a message naming the knob. */
int space_build(struct space *sp, const char *list);
/* The same; with write false, knobs that can be read but not written (not root)
 * count too: for a plan (search --dry-run) or a model (recommend). */
int space_build_for(struct space *sp, const char *list, bool write);
/* A space as a stored run had it: those knobs with those originals, nothing read
 * from this machine but the safe ranges. -1 after a message for an unknown knob. */
int space_build_stored(struct space *sp, const char *const *names, const long *originals, int n);
/* The index of d's dimension, or -1. */
int space_find(const struct space *sp, const struct knob_def *d);
/* Code a value to the search coordinate and back (decode rounds to a valid value). */
double space_encode(const struct space_dim *dm, long v);
long space_decode(const struct space_dim *dm, double x);
/* A value the kernel cannot hold here (see absent) as the one it would keep. */
long space_snap(const struct space_dim *dm, long v);
/* Values from elsewhere (another machine's trials, a store) brought into this
 * machine's safe ranges: each clamped to [lo, hi] and snapped to one it can hold. */
void space_clamp(const struct space *sp, long *vals);
/* A unit-cube point (each u in [0, 1)) to values. */
void space_from_unit(const struct space *sp, const double *u, long *vals);
void space_encode_point(const struct space *sp, const long *vals, double *x);
void space_decode_point(const struct space *sp, const double *x, long *vals);
/* "vm.page-cluster=2 thp.enabled=never", only the knobs that differ from
 * the originals (all of them when all is true). */
const char *space_describe(const struct space *sp, const long *vals, bool all, char *buf, size_t size);

#endif
