/* search.h - the search loop: strategies, baselines, confirmation, the result. */
#ifndef VMTUNE_SEARCH_H
#define VMTUNE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "swap.h"

#define SEARCH_MAX_WORKLOADS 8
#define CONFIRM_MAX_ROUNDS_OPT 1000

enum strategy { STRAT_BO, STRAT_RANDOM, STRAT_GRID };
enum objective { OBJ_THROUGHPUT, OBJ_INTERACTIVE, OBJ_BALANCED };

#define SEARCH_MAX_REQUIRE 8

/* "played>=0.99", "p99_lateness<=20ms": a value the workload or the probe reports. */
struct requirement {
	char name[48];
	int op; /* '<' '>' 'l' (<=) 'g' (>=) */
	double value;
	char text[64];
};

struct search_workload {
	const char *spec;
	char name[64];
	char metric[48]; /* "elapsed" or a name=value the workload prints */
	bool maximize;
	double weight; /* in the mix's geometric mean */
};

struct search_opts {
	struct search_workload wl[SEARCH_MAX_WORKLOADS];
	int nwl;
	const char *knobs;  /* comma-separated, or NULL for every available one */
	int trials;	    /* candidate settings, the original counted first */
	double time_budget; /* seconds; 0 = none */
	enum strategy strategy;
	int repeats; /* extra measurements of a new best */
	unsigned long seed;
	const char *out;
	bool apply, dry_run;
	bool warm_start; /* seed the surrogate with the pooled trials of every --db */
	long resume;
	uint64_t mem_limit, swap;  /* swap: what the cgroup may use (0: not limited) */
	struct swap_spec swapspec; /* where the swap comes from (--swap) */
	double timeout;
	int baseline_every, finalists;
	int race_rounds;	/* runs of each contender for the finalists, before the confirmation */
	int confirm_rounds;	/* rounds between looks at the confirmation data */
	int confirm_max_rounds; /* rounds at most (the design's full information) */
	double min_effect;	/* the smallest change of the cost worth having (0.05: 5%) */
	unsigned settle;	/* settle steps before every run (settle.h) */
	int warmup;		/* runs of each workload before the first measurement, not counted */
	const char *probe;	/* played beside every run: its p99 lateness is the interactive side */
	enum objective objective;
	int nrequire;
	struct requirement require[SEARCH_MAX_REQUIRE];
	/* where and how: given by the command, never read from elsewhere */
	const char *db;		/* the store results go to */
	const char *const *dbs; /* every store --warm-start pools */
	int ndbs;
	const char *state_dir; /* the default profile goes under it */
	const char *root;      /* "" live; else the fake tree (stored, passed to exec: workloads) */
	bool quiet;	       /* no progress or messages on stderr */
	bool echo;	       /* the workloads' own output on stderr */
};

int requirement_parse(const char *s, struct requirement *r);
const char *objective_name(enum objective o);

const char *strategy_name(enum strategy s);
int strategy_parse(const char *s, enum strategy *out);
/* Run (or plan, with dry_run) a search. Returns an exit code. */
int search_run(struct search_opts *o);

/* A stored run seen again: `vmtune report` and `vmtune runs`. which: a run's id or
 * uuid, NULL for the latest. open returns 0, or -1 after a message. */
struct run_view;
struct json_object;
int run_view_open(struct run_view **vp, const char *db, const char *which);
void run_view_print(const struct run_view *v);
struct json_object *run_view_json(const struct run_view *v);
/* The HTML report (report-html.c): 0, or an exit code after a message. */
int run_view_html(struct run_view *v, const char *path);
void run_view_close(struct run_view *v);
/* The stored runs, newest first. Returns an exit code. */
int search_runs_list(const char *db, bool json);

#endif
