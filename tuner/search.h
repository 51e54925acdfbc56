/* search.h - the search loop: strategies, baselines, confirmation, the result. */
#ifndef VMTUNE_SEARCH_H
#define VMTUNE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "swap.h"

struct profile;

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

/* Guards: what a change may cost besides the metric. Each is measured on every
 * run (search-guard.c); a limit on one is relative ("footprint<=+10%": the paired
 * change against the original settings in the confirmation's rounds) or absolute
 * ("played>=0.99": the mean of the candidate's confirmation runs). */
enum guard_what { GUARD_FOOTPRINT, GUARD_SWAPOUT, GUARD_MAJFLT, GUARD_PSI, GUARD_P99, GUARD_PLAYED, GUARD_NWHAT };
#define SEARCH_MAX_GUARDS 8

struct guard {
	enum guard_what what;
	bool relative;
	int op;	      /* 'l' (<=) or 'g' (>=) */
	double limit; /* relative: a fraction (0.10 for +10%); absolute: in the guard's units (guard_unit) */
	bool dflt;    /* one of the defaults (search_default_guards) */
	char text[64];
};

/* "footprint<=+10%", "swapout<=+25%", "played>=0.99", "p99<=20ms": 0, or -1 after a
 * message naming the text. */
int guard_parse(const char *s, struct guard *g);
const char *guard_name(enum guard_what w);
/* The guards that apply without asking: footprint<=+10%, and with a probe p99<=+25%. */
int search_default_guards(struct guard *g, int max, bool probe);

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
	int nguard; /* the defaults and --guard; --guard none leaves none */
	struct guard guard[SEARCH_MAX_GUARDS];
	int ablate_rounds; /* paired rounds at most in each step of the walk back to the smallest change; 0: none */
	/* --check-workload: the recommendation measured on this one too before it is made
	 * (search-check.c), refused if it makes it worse */
	bool have_check;
	struct search_workload check;
	/* where and how: given by the command, never read from elsewhere */
	const char *db;		/* the store results go to */
	const char *const *dbs; /* every store --warm-start pools */
	int ndbs;
	const char *state_dir; /* the default profile goes under it */
	const char *root;      /* "" live; else the fake tree (stored, passed to exec: workloads) */
	bool quiet;	       /* no progress or messages on stderr */
	bool echo;	       /* the workloads' own output on stderr */
	bool wide;	       /* progress lines with every changed knob, not cut at 80 columns (-v) */
	/* verify --measure: no search; the profile's settings against the original, with the
	 * confirmation's design, stored as a re-check of the profile's run */
	const struct profile *recheck;
	const char *recheck_path;
};

/* A workload of a search or a re-check: spec (an alias is expanded), its metric and
 * direction (a built-in workload's own; metric and maximize for exec:, maximize -1
 * for minimize). 0, or EXIT_USAGE after a message. */
int search_workload_init(struct search_workload *w, const char *spec, const char *metric, int maximize);
/* verify --measure's verdict and its exit status: the gain holds (0), is smaller than
 * the profile claims (EXIT_SMALLER), or is gone (EXIT_CHECK). */
int search_recheck(struct search_opts *o);

/* The design's defaults (what `vmtune search --help` says): 30 trials unless --time,
 * 1 repeat, seed 1, 30m timeout, a baseline every 3 runs, 2 finalists, 2 race rounds,
 * a look every 5 rounds up to 25, --min-effect 5%, 20 rounds a step of the walk back,
 * the default settle steps, 1 warm-up run; everything else zero. */
void search_opts_defaults(struct search_opts *o);

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
