/* search-int.h - the search's own state, shared by the files of the search only
 * (search*.c, strategy*.c): observations, points, and what each part offers the
 * others. Nothing outside the search includes it. */
#ifndef VMTUNE_SEARCH_INT_H
#define VMTUNE_SEARCH_INT_H

#include <gsl/gsl_qrng.h>
#include <gsl/gsl_rng.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "drift.h"
#include "gp.h"
#include "machine.h"
#include "pool.h"
#include "runconfig.h"
#include "search.h"
#include "settle.h"
#include "space.h"
#include "store.h"
#include "swap.h"

#define MAX_OBS 4096
#define MAX_POINTS 2048

struct obs {
	enum trial_kind kind;
	int point; /* index in points[]; 0 is the original settings */
	double metric[SEARCH_MAX_WORKLOADS];
	double inter[SEARCH_MAX_WORKLOADS];  /* the probe's p99 lateness + 1 ms (NAN without a probe) */
	double played[SEARCH_MAX_WORKLOADS]; /* the probe's played ratio */
	bool failed;
	double score;  /* cost relative to the baselines around it; lower is better */
	double stored; /* the score the store holds */
	long trial_id;
};

struct point {
	long vals[SPACE_MAX];
	int nobs;
	double mean_log;	       /* mean log score over its candidate/repeat observations */
	double mean_log_t, mean_log_i; /* the throughput and interactive sides of it */
};

#define CONFIRM_MAX_ROUNDS 1000
#define RACE_MAX 32
/* The candidates raced for the finalists: three per finalist, at most RACE_MAX. */
static inline int race_size(const struct search_opts *o)
{
	return 3 * o->finalists < RACE_MAX ? 3 * o->finalists : RACE_MAX;
}
/* The race's runs at most: each round a baseline and every contender, one baseline after. */
static inline int race_runs(const struct search_opts *o)
{
	return o->race_rounds > 0 ? o->race_rounds * (1 + race_size(o)) + 1 : 0;
}

enum confirm_decision {
	CD_UNDECIDED, /* the budget ended first */
	CD_BETTER,    /* shown to cost less: the only kind recommended */
	CD_WORSE,     /* shown to cost more */
	CD_SMALL,     /* shown not to gain --min-effect */
	CD_FAILED,    /* a confirmation run of it failed */
};

struct confirm {
	int point;
	enum confirm_decision decision;
	double change_pct, ci_lo, ci_hi; /* of the cost, in %, paired against the original */
	double level;			 /* of [ci_lo, ci_hi]: the level of the look that decided */
	int pairs;			 /* paired rounds behind it */
	double base_metric, cand_metric; /* first workload, its own units */
	bool significant;		 /* decision == CD_BETTER */
};

struct search {
	struct search_opts *o;
	struct space sp;
	struct obs *obs;
	int nobs;
	struct point *points;
	int npoints;
	int trials_done; /* candidate settings tried, the original first */
	int next_seq;	 /* of the next trial row in the store */
	long cur[SPACE_MAX];
	struct store *db;
	long run_id;
	gsl_qrng *sobol;
	gsl_rng *rng;
	double shift[SPACE_MAX]; /* Cranley-Patterson rotation of the Sobol points */
	double t0, run_time_sum;
	int runs;
	long grid_next, grid_total, grid_a;
	char swapfile[PATH_MAX]; /* the area vmtune made that is on now (the settle step resets it) */
	int swap_dim;		 /* the dimension of the pseudo-knob swap, -1 without */
	struct swap_vary vary;	 /* with it: both areas, one on */
	char progs[SEARCH_MAX_WORKLOADS + 1][PATH_MAX]; /* the programs, read back after drop-caches */
	const char *progp[SEARCH_MAX_WORKLOADS + 1];
	struct settle_opts settle;
	struct settle_cost settle_cost;
	double confirm_base[SEARCH_MAX_WORKLOADS], confirm_base_inter[SEARCH_MAX_WORKLOADS];
	int looks; /* times the confirmation data were looked at */
	/* --warm-start: the pooled trials of this workload from other runs and machines */
	bool warm;
	struct pool pool;
	double feat[MACHINE_NFEAT]; /* this machine's */
	bool cat[SPACE_MAX + MACHINE_NFEAT];
	long warm_rec[SPACE_MAX]; /* what recommend would say, tried first */
	bool warm_rec_tried;
	unsigned long held_said; /* the knobs bo has said it holds (bits of dims) */
	/* the hyperparameters of the last full fit, reused between refits */
	double hyper_l[SPACE_MAX + MACHINE_NFEAT], hyper_sf2, hyper_sn2;
	bool have_hyper;
	int hyper_at; /* trials_done at that fit */
};

/* search-score.c: points, scores against the baselines' smoothed level (drift.h) */
int find_point(struct search *S, const long *vals);
int add_point(struct search *S, const long *vals);
/* A stored trial as the next observation (resume, report): its metrics, its
 * probe's lateness (inter, stored less 1) and share played; failed if asked or a
 * metric is missing. The caller has checked there is room. */
struct obs *obs_stored(struct search *S, enum trial_kind k, long trial_id, const long *vals, int nmetrics,
		       const double *metrics, const double *inter, const double *played, bool failed);
double obs_cost(const struct search *S, const struct obs *ob, const double *bt, const double *bi, double *t, double *i);
void rescore(struct search *S);
/* The drift of workload w's baseline runs (its metric) over the whole search: the
 * fit (drift.h) and the smoothed level's change from the first run to the last (log).
 * False when there is nothing to fit (fewer than two runs, or a run not positive). */
bool baseline_drift(const struct search *S, int w, struct drift_fit *fit, double *change);
int best_point(const struct search *S);
bool requirement_met(const struct requirement *q, double v);

/* search-measure.c: one measurement of a point, stored; warm-up runs, not stored */
int measure(struct search *S, int p, enum trial_kind kind);
int warm_up(struct search *S);

/* strategy.c: the strategy table and the next candidate */
void strategy_init(struct search *S);
void strategy_unit(struct search *S, double *u);
void next_candidate(struct search *S, long *vals);

/* search.c: with --time, the seconds of the budget the search phase may take (the
 * rest is kept for the race and the confirmation) */
double search_phase_time(const struct search *S);

/* strategy-bo.c: the surrogate */
int fit_model(struct search *S, struct gp *gp);
void model_x(const struct search *S, const long *vals, double *x);
int fit_failures(struct search *S, struct gp *gpc);
void bo_candidate(struct search *S, const struct gp *gp, const struct gp *gpc, long *out);
/* How much a knob matters: the change of the score between its worst and best
 * value across its range (a main effect), in percent, with the 95% band of that
 * difference; a band that reaches 0 is no effect found. NAN where it cannot be told. */
struct sens {
	double pct, lo, hi;
};
/* sensitivity.c: each knob's main effect from a least-squares response surface
 * over the search's measurements, with its 95% band (NAN where it cannot be told) */
void sensitivity(struct search *S, struct sens *sens);
/* The same from rows of coded points x (n x d) and their log costs y, for the unit
 * tests too; -1 (all NAN) when too few rows are left for a residual variance. */
int sens_fit(int n, int d, const double *x, const double *y, const bool *categorical, struct sens *sens);
/* "23.4% (14.2 .. 33.5%)", "none found (under 4.1%)" or "-" */
const char *sens_format(const struct sens *s, char *buf, size_t size);
bool sens_found(const struct sens *s);

/* search-confirm.c: finalists against the original, alternating */
int confirm(struct search *S, struct confirm *c, int *nc);
/* Its pieces, for the unit tests too: one look at nominal level a at the
 * confirmation runs from obs index first (each undecided finalist's paired test
 * and interval), and the n best points that beat the original, best first. */
int confirm_look(struct search *S, int first, struct confirm *c, int nc, double a);
int confirm_best_points(const struct search *S, int *out, int n);

/* search-report.c: everything the search prints */
void search_print_plan(const struct search *S, FILE *f);
void search_print_dry_run(const struct search *S, const char *out);
void search_progress(struct search *S, const struct obs *ob, const char *what);
void search_report(struct search *S, const long *rec, const struct confirm *best_c, int nc, const struct confirm *c);
void search_report_interrupted(const struct search *S);
void search_say(const struct search *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line of the result on stdout. */
void search_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* search-profile.c: the profile a search writes */
void search_default_out(const struct search *S, char *buf, size_t size);
int search_write_profile(struct search *S, const char *path, const long *rec, const struct confirm *c);

/* search-resume.c: the stored configuration, and a run taken up again */
char *search_config_json(const struct search *S);
int search_resume_config(struct search_opts *o, char *knobs, size_t knobslen, char specs[][1024]);
int search_resume_trials(struct search *S);

/* search-warm.c: --warm-start */
int warm_setup(struct search *S, long exclude_run);

/* search-view.c: a stored run seen again (vmtune runs, vmtune report) */
struct view_meas {
	enum trial_kind kind;
	int point, seq, wl; /* wl: the workload's index, -1 if none of the run's */
	bool ok;
	double metric, user, sys, elapsed, p99, played;
	long majflt, minflt;
	int nser;
	struct vm_point *ser; /* the machine while it ran; NULL if none was kept */
};

struct run_view {
	struct search S;
	struct search_opts o;
	struct run_config c;
	char specs[SEARCH_MAX_WORKLOADS][1024];
	long id, rows, failed_rows;
	char uuid[64], status[32], started[64], finished[64], profile[PATH_MAX];
	struct machine m_machine;
	bool has_machine;
	char *result;
	bool has_result, significant;
	double change_pct, ci_lo, ci_hi;
	long rec[SPACE_MAX];
	int rec_point; /* -1: none */
	struct sens sens[SPACE_MAX];
	struct view_meas *m;
	int nm, cap;
};
/* Is this measurement one of a side's (0 original, 1 recommended)? */
bool view_meas_side(const struct run_view *v, const struct view_meas *x, int side);
const char *view_workload_name(const struct run_view *v, int w, char *buf, size_t size);

#endif
