/* search.h - the search loop: strategies, baselines, confirmation, the result. */
#ifndef VMTUNE_SEARCH_H
#define VMTUNE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#define SEARCH_MAX_WORKLOADS 8

enum strategy { STRAT_BO, STRAT_RANDOM, STRAT_GRID };

struct search_workload {
	const char *spec;
	char name[64];
	char metric[48]; /* "elapsed" or a name=value the workload prints */
	bool maximize;
};

struct search_opts {
	struct search_workload wl[SEARCH_MAX_WORKLOADS];
	int nwl;
	const char *knobs; /* comma-separated, or NULL for every available one */
	int trials;        /* candidate settings, the original counted first */
	double time_budget; /* seconds; 0 = none */
	enum strategy strategy;
	int repeats; /* extra measurements of a new best */
	unsigned long seed;
	const char *out;
	bool apply, dry_run;
	long resume;
	uint64_t mem_limit, swap;
	double timeout;
	int baseline_every, confirm_rounds, finalists;
};

const char *strategy_name(enum strategy s);
int strategy_parse(const char *s, enum strategy *out);
/* Run (or plan, with dry_run) a search. Returns an exit code. */
int search_run(struct search_opts *o);

#endif
