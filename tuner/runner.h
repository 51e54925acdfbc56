/* runner.h - one run of one workload as a child process, timed like GNU time. */
#ifndef VMTUNE_RUNNER_H
#define VMTUNE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "sampler.h"

enum run_outcome {
	RUN_OK,
	RUN_FAILED,	 /* exited non-zero */
	RUN_SIGNALED,	 /* killed by a signal we did not send */
	RUN_OOM,	 /* killed by the OOM killer */
	RUN_TIMEOUT,	 /* we killed it at the timeout */
	RUN_INTERRUPTED, /* we killed it because vmtune was interrupted */
	RUN_NOSTART,	 /* could not be started */
};

#define RUN_MAX_VALUES 48

struct run_value {
	char name[48];
	double value;
};

struct run_spec {
	const char *workload; /* "mtest01 -p 80 -w" or "exec:CMD" */
	double timeout;	      /* seconds; 0 = none */
	const struct cgroup *cg;
	bool echo;	   /* copy the workload's output to stderr */
	const char *probe; /* an interactivity probe (sputter) run beside it until it ends */
	const char *root;  /* a fake tree: VMTUNE_ROOT for the workload (NULL or "": the live system) */
};

struct run_result {
	enum run_outcome outcome;
	int exit_code, signal;
	double user, sys, elapsed; /* seconds, from wait4 rusage and the monotonic clock */
	long majflt, minflt, maxrss_kb;
	char kernel_line[256]; /* the kernel's OOM line, when readable */
	char note[512];	       /* why its numbers could not be read (a tool's, exec{...}'s), or "" */
	int nvalues;
	struct run_value values[RUN_MAX_VALUES];
	/* the probe's own results, its summary line, and whether it ran to the end */
	bool probe_ok;
	char probe_line[256];
	int nprobe;
	struct run_value probe[RUN_MAX_VALUES];
	/* the machine while it ran (the sampler's), for the report */
	int nseries;
	struct vm_point series[SAMPLER_SERIES_MAX];
};

int runner_run(const struct run_spec *spec, struct run_result *res);

struct settle_opts;
struct settle_cost;
struct settle_state;
/* One measured run the way run and search both make it: the settle steps first
 * (their cost added to *cost), the machine's state just before it into *before
 * (with the canaries; NULL: not kept), then the workload in a fresh memory cgroup
 * of mem_limit (0: none; swap 0: swap not limited) that is removed after.
 * spec->cg is set here. Returns 0; -1 when settling or the cgroup failed (the
 * machine); -2 when the workload could not be run at all. */
int runner_run_sandboxed(struct run_spec *spec, uint64_t mem_limit, uint64_t swap, const struct settle_opts *so,
			 struct settle_cost *cost, struct settle_state *before, struct run_result *res);
const char *run_outcome_name(enum run_outcome o);
/* "killed by the OOM killer: Memory cgroup out of memory: Killed process ..." */
const char *run_describe(const struct run_result *res, char *buf, size_t size);
/* A name=value the workload printed (last one wins), or NAN; "probe.NAME" for the probe's. */
double run_value(const struct run_result *res, const char *name);

#endif
