/* settle.h - bring the machine to the same state before every measured run:
 * dirty pages written, page cache dropped, memory compacted, vmtune's own swap
 * emptied, memory pressure and swap I/O quiet. Each step can be turned off. */
#ifndef VMTUNE_SETTLE_H
#define VMTUNE_SETTLE_H

#include <stdbool.h>

enum settle_step {
	SETTLE_SYNC,	/* sync(2), then wait for Dirty + Writeback to drain */
	SETTLE_DROP,	/* echo 3 > drop_caches, then read the workload programs back in */
	SETTLE_COMPACT, /* echo 1 > compact_memory */
	SETTLE_SWAP,	/* swapoff + swapon of vmtune's own swapfile: empty, allocator reset */
	SETTLE_QUIET,	/* wait until memory PSI, swap I/O and writeback have stopped */
	SETTLE_STEADY,	/* wait until a CPU canary runs within 5% of its fastest (a busy host) */
	SETTLE_NSTEPS,
};

#define SETTLE_ALL ((1u << SETTLE_NSTEPS) - 1)
/* steady waits out a busy host: opt-in, since it can wait 30 s before a run and did
 * not measurably lower the noise here (bench/RESULTS.md) */
#define SETTLE_DEFAULT (SETTLE_ALL & ~(1u << SETTLE_STEADY))

struct settle_opts {
	unsigned steps;		 /* bit (1 << step) for each step to take */
	const char *root;	 /* "" or NULL: the live system; a fake tree: nothing to do */
	const char *swapfile;	 /* vmtune's own swapfile, or NULL/"" */
	const char *const *warm; /* files read back in after the cache is dropped */
	int nwarm;
	double quiet_timeout;  /* seconds the quiet step waits at most (0: 10 s) */
	double steady_timeout; /* seconds the steady step waits at most (0: 30 s) */
};

/* What settling cost, summed over the runs it preceded. */
struct settle_cost {
	int n;			    /* settles done */
	double s[SETTLE_NSTEPS];    /* seconds spent in each step */
	double total;		    /* seconds, all steps */
	int not_quiet;		    /* times the quiet step gave up at its timeout */
	int not_steady;		    /* times the steady step gave up at its timeout */
	double last[SETTLE_NSTEPS]; /* the most recent settle, per step */
};

/* The machine just before a run, for the per-run record. */
struct settle_state {
	double dirty_kb, writeback_kb, cached_kb, free_kb;
	/* free memory the guest has handed back to its host (free page reporting), where
	 * the kernel counts it: the total before the run and what was reported during it */
	double host_reported_kib, host_reported_during_kib;
	/* two canaries timed just before the run: a fixed CPU loop, and faulting in
	 * (writing) 16 MiB of fresh anonymous memory; both ms */
	double canary_cpu_ms, canary_mem_ms;
};

const char *settle_step_name(int step);
/* "all", "none", or a comma list of step names; "-name" takes one away from the default
 * (a list of only "-name"s starts from the default, so "-quiet" is the default without quiet).
 * Returns 0, or -1 with why filled in. */
int settle_parse(const char *list, unsigned *steps, char *why, size_t whylen);
/* "sync,drop-caches,..." or "none" */
const char *settle_format(unsigned steps, char *buf, size_t size);
/* Take the steps; adds what they cost to *cost (may be NULL). Returns 0, or -1
 * when a step failed in a way that makes the run not comparable (reported). */
int settle(const struct settle_opts *o, struct settle_cost *cost);
/* Dirty, Writeback, Cached and MemFree now (libproc2), and the host-reported total. */
void settle_state_now(struct settle_state *st);
/* Time the two canaries into st. */
void settle_canaries(struct settle_state *st);
/* The kernel's count of free memory reported to the host, in KiB, or NAN where not counted. */
double settle_host_reported_kib(void);

#endif
