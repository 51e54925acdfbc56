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
	double guard[GUARD_NWHAT];	     /* the run's guard values over the mix's workloads (NAN: not measured) */
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
/* The false-positive rate the recommendation keeps over everything it tests. */
#define SEARCH_ALPHA 0.05
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

/* How a guard moved with a setting against the original, over paired rounds. */
struct guard_move {
	bool have; /* measured in at least two paired rounds */
	int pairs;
	double base, cand;     /* means, in the guard's units */
	double change, lo, hi; /* the paired change relative to the original's mean (a fraction), 95% */
	int limit;	       /* index in o->guard of its limit, -1 for none */
	bool broken;	       /* the limit is broken (the estimate past it) */
};

struct confirm {
	int point;
	enum confirm_decision decision;
	double change_pct, ci_lo, ci_hi; /* of the cost, in %, paired against the original */
	double level;			 /* of [ci_lo, ci_hi]: the level of the look that decided */
	int pairs;			 /* paired rounds behind it */
	double base_metric, cand_metric; /* first workload, its own units */
	bool significant;		 /* decision == CD_BETTER */
	struct guard_move guards[GUARD_NWHAT];
	bool guard_broken; /* shown better on the metric, but a guard's limit is broken */
};

/* The walk back from the confirmed setting to the smallest change that keeps the
 * gain (search-ablate.c). */
#define ABLATE_MAX_STEPS (2 * SPACE_MAX)
enum ablate_outcome {
	AB_KEPT,    /* putting it back was shown to cost: it stays */
	AB_SMALL,   /* shown to cost less than --min-effect: put back */
	AB_GAINS,   /* putting it back was shown to gain: put back */
	AB_UNSHOWN, /* no cost shown within the step's rounds: put back */
	AB_FAILED,  /* a run of the reverted setting failed: it stays */
	AB_STOPPED, /* the budget ended the walk before this step: it stays */
	AB_CUT,	    /* the budget ended this step before it decided: it stays */
};

struct ablate_step {
	unsigned long dims; /* bits of the knobs put back together */
	int ref, cand;	    /* the points measured: the setting so far, and it with them put back */
	enum ablate_outcome outcome;
	int pairs;
	double cost_pct, lo, hi, level; /* what putting them back costs, %, at the level of the deciding look */
	double predicted_pct;		/* what the model predicted it would cost */
};

struct ablation {
	bool ran;
	int from, to; /* the confirmed point, and the smallest change found */
	int ngroups;  /* the groups of knobs the confirmed point changes */
	int nsteps, max_steps;
	double step_alpha; /* each step's share of alpha (Bonferroni over max_steps) */
	struct ablate_step step[ABLATE_MAX_STEPS];
	struct confirm final; /* the smallest change against the original, on fresh rounds */
	bool final_tested, final_holds;
	char why[256]; /* why the recommendation is the confirmed setting whole, if it is */
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
	int looks;			  /* times the confirmation data were looked at */
	bool walk_ahead;		  /* the confirmation under way has the walk back after it */
	char fail_why[512];		  /* why the last failed measurement failed */
	const char *yardstick;		  /* what point 0 is, for messages: NULL for the original settings */
	const struct check_result *check; /* --check-workload's, for the report; NULL before it */
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

/* search.c: the settle steps before every run, with the programs of S's workloads */
void search_settle_setup(struct search *S);

/* search-check.c: --check-workload, the recommendation on a workload the search did
 * not tune for, against the original settings */
enum check_verdict {
	CHECK_NONE,	   /* no check asked for, or nothing recommended to check */
	CHECK_WORSE,	   /* shown worse with the recommendation: refused */
	CHECK_NO_WORSE,	   /* shown not worse by --min-effect or more */
	CHECK_BETTER,	   /* shown better with it too */
	CHECK_UNDECIDED,   /* not shown worse, nor within --min-effect, in the rounds */
	CHECK_REC_FAILED,  /* a run with the recommendation failed: refused */
	CHECK_ORIG_FAILED, /* a run with the original settings failed: no check made */
};
struct check_result {
	enum check_verdict verdict;
	char spec[1024], metric[48];
	double change_pct, ci_lo, ci_hi; /* of the check workload's cost with the recommendation, % */
	double level;
	int pairs;
	double base_metric, rec_metric; /* the check workload's metric, original and recommended */
	char why[512];			/* of a failed run */
};
int check_runs(const struct search_opts *o);
const char *check_verdict_name(enum check_verdict v);
bool check_refuses(enum check_verdict v);
/* Measure rec on S->o->check against the original settings (S's sandbox, budget and
 * design): 0 with cr filled in, or -1 when vmtune cannot go on (interrupted, an
 * error said). */
int search_check(struct search *S, const long *rec, struct check_result *cr);
void check_print(const struct check_result *cr, double min_effect);
struct json_object *check_json(const struct check_result *cr);

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
/* The runs the walk back to the smallest change usually takes (ABLATE_PLAN_STEPS
 * steps of --ablate-rounds rounds of two runs, and the first look of its
 * confirmation), which the budget keeps time for and the plan counts. */
#define ABLATE_PLAN_STEPS 4
int ablate_runs(const struct search *S);
/* The fewest runs a walk back can make anything of (a step's first look and the first
 * look of the smallest change's confirmation); 0 with --ablate-rounds 0 or one knob. */
int ablate_min_runs(const struct search *S);
/* With --time, the seconds the confirmation of a setting of several knobs leaves for
 * the walk back: a fifth of the budget, or ablate_min_runs if those take longer. */
#define ABLATE_BUDGET_SHARE 0.2
double ablate_reserve(const struct search *S);
/* The groups of knobs that vals changes from the original settings (knobs that move
 * together, catalogue.h's `together`, are one), each a bit set of dimensions in grp
 * (SPACE_MAX of them; NULL to count only). Returns how many. */
int ablate_groups(const struct search *S, const long *vals, unsigned long *grp);

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
/* One setting against the original on fresh rounds, the confirmation's design at
 * alpha (the smallest change of the ablation, with the whole alpha: it is tested
 * only once a finalist was shown better, a fixed sequence), at most r_max rounds.
 * 0, or -1 to stop. */
int confirm_one(struct search *S, int point, double alpha, int r_max, struct confirm *c);
/* The rounds a confirmation of one setting may plan for: --confirm-max-rounds, or,
 * with --time, the whole looks the time left holds (at least one). The design is
 * chosen before its first round, on the clock alone, so its boundaries keep their
 * alpha; a first look that spends all of it has a chance a first look of 25 rounds
 * (at a few thousandths) does not. */
int confirm_one_rounds(const struct search *S);
/* Log cost of an observation against the confirmation's yardstick. */
double confirm_value(const struct search *S, const struct obs *ob);
/* Its pieces, for the unit tests too: one look at nominal level a at the
 * confirmation runs from obs index first (each undecided finalist's paired test
 * and interval), and the n best points that beat the original, best first. */
int confirm_look(struct search *S, int first, struct confirm *c, int nc, double a);
int confirm_best_points(const struct search *S, int *out, int n);

/* search-ablate.c: the walk back to the smallest change (after confirm; needs the
 * yardstick confirm set). rec gets the recommended settings. */
int ablate(struct search *S, const struct confirm *best, struct ablation *A, long *rec);
/* The step of A that decided knob i of the recommended point (the one that kept it),
 * or NULL. */
const struct ablate_step *ablate_step_of(const struct ablation *A, int i);
/* What putting knob i of the recommendation back costs (pct, lo, hi: NAN when not
 * measured) and how it is known: its own step kept it, it is the whole gain (the last
 * change standing, or the only one), the walk put it back but the smaller change was
 * not confirmed (so the confirmed setting is recommended whole), or the budget ended
 * the walk before its step or before its step decided. claim: the recommendation's confirmation. */
enum ablate_share { SHARE_NONE, SHARE_STEP, SHARE_WHOLE, SHARE_PUT_BACK, SHARE_NOT_TESTED };
enum ablate_share ablate_share(const struct ablation *A, int i, const struct confirm *claim, double *pct, double *lo,
			       double *hi);
struct json_object;
/* The walk as the result row keeps it (claim: the recommendation's confirmation). */
struct json_object *ablation_json(const struct search *S, const struct ablation *A, const long *rec,
				  const struct confirm *claim);

/* search-guard.c: the guards of a run, and how they moved */
struct run_result;
void guard_values(const struct search *S, const struct run_result *r, double *g);
void guard_sum(double *acc, const double *g, int w);
/* Point p's guards against the original over the paired rounds from obs index first
 * (base kind, then p's run of kind cand in each round), each checked against the
 * limits of S->o->guard; returns true when one is broken. */
bool guard_moves(const struct search *S, int first, int p, enum trial_kind base, enum trial_kind cand,
		 struct guard_move *gm);
const char *guard_unit(enum guard_what w);
/* How the guards moved with c's setting, as the result row keeps them. */
struct json_object *guards_json(const struct search *S, const struct confirm *c);
const char *guard_format(enum guard_what w, double v, char *buf, size_t size);

/* search-report.c: everything the search prints */
void search_print_plan(const struct search *S, FILE *f);
void search_print_dry_run(const struct search *S, const char *out);
void search_progress(struct search *S, const struct obs *ob, const char *what);
struct json_object;
/* The changed knobs of a recommendation with what putting each back costs (abl: the
 * result row's "ablation", or NULL) and their sensitivities; ranges: the search
 * ranges under each. */
void search_print_knobs(const struct space *sp, const long *rec, const struct sens *sens, struct json_object *abl,
			bool ranges);
/* The result row's "guards" (who: whose, "recommended"). */
void search_print_guards(struct json_object *guards, const char *who);
void search_report(struct search *S, const long *rec, const struct confirm *best_c, int nc, const struct confirm *c,
		   const struct ablation *A);
void search_report_interrupted(const struct search *S);
void search_say(const struct search *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line of the result on stdout. */
void search_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* search-profile.c: the profile a search writes */
void search_default_out(const struct search *S, char *buf, size_t size);
int search_write_profile(struct search *S, const char *path, const long *rec, const struct confirm *c,
			 const struct ablation *A);

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
	int rec_point;			       /* -1: none */
	struct json_object *ablation, *guards; /* of the result row, as stored (NULL: none) */
	/* why nothing is recommended when something was shown better: a guard broken, or
	 * --check-workload's workload made worse ("": neither) */
	char refused[16];
	struct json_object *check; /* --check-workload's result, as stored (NULL: none) */
	/* verify --measure's re-checks of this run, oldest first; or, for a re-check, what it checked */
	int nrecheck;
	struct recheck {
		char when[64], verdict[16];
		double change, lo, hi, claimed;
		int pairs;
	} recheck[16];
	char recheck_of[40];
	struct sens sens[SPACE_MAX];
	struct view_meas *m;
	int nm, cap;
};
/* The decision of a finished run that recommends nothing, in words: why nothing. */
const char *view_decision(const struct run_view *v);
/* Is this measurement one of a side's (0 original, 1 recommended)? */
bool view_meas_side(const struct run_view *v, const struct view_meas *x, int side);
const char *view_workload_name(const struct run_view *v, int w, char *buf, size_t size);

#endif
