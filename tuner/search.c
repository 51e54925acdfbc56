/* search.c - the search loop. The original settings are measured first and again
 * every few trials; each trial's score is its cost relative to the baselines
 * around it (interpolated), so drift cancels. Candidates come from a Gaussian
 * process with expected improvement (bo), uniform sampling (random) or a shuffled
 * factorial grid (grid). New bests are measured again; at the end the finalists are
 * re-measured alternating with the baseline and the change is reported with a 95%
 * confidence interval (Welch). Nothing is recommended that was not shown to be real. */
#include <errno.h>
#include <stdarg.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_qrng.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "gp.h"
#include "journal.h"
#include "knob.h"
#include "machine.h"
#include "model.h"
#include "pool.h"
#include "profile.h"
#include "runner.h"
#include "search.h"
#include "settings.h"
#include "size.h"
#include "space.h"
#include "store.h"
#include "swap.h"
#include "vmtune.h"

#define MAX_OBS 4096
#define MAX_POINTS 2048

enum kind { K_BASE, K_CAND, K_REPEAT, K_CONFIRM_BASE, K_CONFIRM };
static const char *const kind_names[] = { "baseline", "candidate", "repeat", "confirm-baseline", "confirm" };

struct obs {
	enum kind kind;
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

struct confirm {
	int point;
	double change_pct, ci_lo, ci_hi; /* of the cost, in % */
	double base_metric, cand_metric; /* first workload, its own units */
	bool significant;
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
	char swapfile[PATH_MAX];
	double confirm_base[SEARCH_MAX_WORKLOADS], confirm_base_inter[SEARCH_MAX_WORKLOADS];
	int looks; /* times the confirmation data were tested */
	/* --warm-start: the pooled trials of this workload from other runs and machines */
	bool warm;
	struct pool pool;
	double feat[MACHINE_NFEAT]; /* this machine's */
	bool cat[SPACE_MAX + MACHINE_NFEAT];
	long warm_rec[SPACE_MAX]; /* what recommend would say, tried first */
	bool warm_rec_tried;
	/* the hyperparameters of the last full fit, reused between refits */
	double hyper_l[SPACE_MAX + MACHINE_NFEAT], hyper_sf2, hyper_sn2;
	bool have_hyper;
	int hyper_at; /* trials_done at that fit */
};

/* A point in the surrogate's coordinates: the coded knobs, and with a warm start
 * this machine's features after them. */
static int model_dims(const struct search *S)
{
	return S->warm ? pool_dims(&S->sp) : S->sp.d;
}

static void model_x(const struct search *S, const long *vals, double *x)
{
	if (S->warm)
		pool_encode(&S->sp, vals, S->feat, x);
	else
		space_encode_point(&S->sp, vals, x);
}

const char *strategy_name(enum strategy s)
{
	return s == STRAT_BO ? "bo" : s == STRAT_RANDOM ? "random" : "grid";
}

int strategy_parse(const char *s, enum strategy *out)
{
	if (strcmp(s, "bo") == 0)
		*out = STRAT_BO;
	else if (strcmp(s, "random") == 0)
		*out = STRAT_RANDOM;
	else if (strcmp(s, "grid") == 0)
		*out = STRAT_GRID;
	else
		return -1;
	return 0;
}

const char *objective_name(enum objective o)
{
	return o == OBJ_THROUGHPUT ? "throughput" : o == OBJ_INTERACTIVE ? "interactive" : "balanced";
}

int requirement_parse(const char *s, struct requirement *r)
{
	const char *op = strpbrk(s, "<>");
	char *end;
	size_t n;

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", s);
	if (!op || op == s || (n = (size_t)(op - s)) >= sizeof(r->name))
		return error("requirement '%s': expected NAME>=VALUE or NAME<=VALUE, e.g. played>=0.99", s);
	memcpy(r->name, s, n);
	r->op = op[1] == '=' ? (op[0] == '<' ? 'l' : 'g') : op[0];
	op += op[1] == '=' ? 2 : 1;
	errno = 0;
	r->value = strtod(op, &end);
	if (errno || end == op || (*end && strcmp(end, "ms") != 0))
		return error("requirement '%s': '%s' is not a number (ms may follow)", s, op);
	/* p99_lateness<=20ms: the probe reports it as p99_lateness_ms */
	if (strcmp(end, "ms") == 0 && !strstr(r->name, "_ms")) {
		n = strlen(r->name);
		snprintf(r->name + n, sizeof(r->name) - n, "_ms");
	}
	return 0;
}

static bool requirement_met(const struct requirement *q, double v)
{
	switch (q->op) {
	case '<':
		return v < q->value;
	case '>':
		return v > q->value;
	case 'l':
		return v <= q->value;
	default:
		return v >= q->value;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *fmt_duration(double s, char *buf, size_t size)
{
	if (s < 90)
		snprintf(buf, size, "%.0fs", s);
	else if (s < 5400)
		snprintf(buf, size, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
	else
		snprintf(buf, size, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
	return buf;
}

static int find_point(struct search *S, const long *vals)
{
	int i;

	for (i = 0; i < S->npoints; i++)
		if (memcmp(S->points[i].vals, vals, sizeof(long) * (size_t)S->sp.d) == 0)
			return i;
	return -1;
}

static int add_point(struct search *S, const long *vals)
{
	int i = find_point(S, vals);

	if (i >= 0)
		return i;
	if (S->npoints >= MAX_POINTS)
		return -1;
	memset(&S->points[S->npoints], 0, sizeof(S->points[0]));
	memcpy(S->points[S->npoints].vals, vals, sizeof(long) * (size_t)S->sp.d);
	return S->npoints++;
}

/* --- scores ------------------------------------------------------------ */

/* The baseline for workload w at position i: linear between the baselines
 * measured just before and just after, or the nearest one. */
static double side(const struct obs *ob, int w, bool inter)
{
	return inter ? ob->inter[w] : ob->metric[w];
}

static double baseline_at(const struct search *S, int i, int w, bool inter)
{
	int j, prev = -1, next = -1;

	for (j = i - 1; j >= 0 && prev < 0; j--)
		if ((S->obs[j].kind == K_BASE || S->obs[j].kind == K_CONFIRM_BASE) && !S->obs[j].failed)
			prev = j;
	for (j = i + 1; j < S->nobs && next < 0; j++)
		if ((S->obs[j].kind == K_BASE || S->obs[j].kind == K_CONFIRM_BASE) && !S->obs[j].failed)
			next = j;
	if (prev >= 0 && next >= 0)
		return side(&S->obs[prev], w, inter) + (side(&S->obs[next], w, inter) - side(&S->obs[prev], w, inter)) *
							   (double)(i - prev) / (double)(next - prev);
	if (prev >= 0)
		return side(&S->obs[prev], w, inter);
	if (next >= 0)
		return side(&S->obs[next], w, inter);
	return NAN;
}

static double cost_ratio(const struct search_workload *wl, double metric, double base)
{
	return wl->maximize ? base / metric : metric / base;
}

/* The cost of one measurement against baselines bt (throughput) and bi (the
 * probe): each side a weighted geometric mean over the mix, then combined as the
 * objective asks. *t and *i get the two sides (log), for the trade-off. */
static double obs_cost(const struct search *S, const struct obs *ob, const double *bt, const double *bi, double *t,
		       double *i)
{
	double lt = 0, li = 0, wsum = 0;
	bool have_i = true;
	int w;

	for (w = 0; w < S->o->nwl; w++) {
		double wt = S->o->wl[w].weight;
		lt += wt * log(cost_ratio(&S->o->wl[w], ob->metric[w], bt[w]));
		if (isfinite(ob->inter[w]) && isfinite(bi[w]) && bi[w] > 0)
			li += wt * log(ob->inter[w] / bi[w]);
		else
			have_i = false;
		wsum += wt;
	}
	lt /= wsum;
	li = have_i ? li / wsum : NAN;
	*t = lt;
	*i = li;
	switch (S->o->objective) {
	case OBJ_INTERACTIVE:
		return exp(li);
	case OBJ_BALANCED:
		return exp((lt + li) / 2);
	default:
		return exp(lt);
	}
}

/* Recompute every score (a new baseline changes the interpolation) and each
 * point's mean. Failed trials get a penalty worse than anything seen. */
static void rescore(struct search *S)
{
	double worst = 1;
	int i, w;
	int ti[MAX_POINTS];

	for (i = 0; i < S->nobs; i++) {
		struct obs *ob = &S->obs[i];
		double bt[SEARCH_MAX_WORKLOADS], bi[SEARCH_MAX_WORKLOADS], lt, li;

		if (ob->kind == K_BASE || ob->kind == K_CONFIRM_BASE) {
			ob->score = 1;
			continue;
		}
		if (ob->failed)
			continue;
		for (w = 0; w < S->o->nwl; w++) {
			bt[w] = baseline_at(S, i, w, false);
			bi[w] = baseline_at(S, i, w, true);
		}
		ob->score = obs_cost(S, ob, bt, bi, &lt, &li);
		if (!isfinite(ob->score))
			ob->score = 1;
		if (ob->score > worst)
			worst = ob->score;
	}
	for (i = 0; i < S->npoints; i++) {
		S->points[i].nobs = 0;
		S->points[i].mean_log = S->points[i].mean_log_t = S->points[i].mean_log_i = 0;
		ti[i] = 0;
	}
	for (i = 0; i < S->nobs; i++) {
		struct obs *ob = &S->obs[i];
		struct point *pt = &S->points[ob->point];
		double bt[SEARCH_MAX_WORKLOADS], bi[SEARCH_MAX_WORKLOADS], lt, li;

		if (ob->kind != K_CAND && ob->kind != K_REPEAT)
			continue;
		if (ob->failed) {
			ob->score = 2 * worst;
		} else {
			for (w = 0; w < S->o->nwl; w++) {
				bt[w] = baseline_at(S, i, w, false);
				bi[w] = baseline_at(S, i, w, true);
			}
			obs_cost(S, ob, bt, bi, &lt, &li);
			if (isfinite(lt) && isfinite(li)) {
				pt->mean_log_t += lt;
				pt->mean_log_i += li;
				ti[ob->point]++;
			}
		}
		pt->mean_log += log(ob->score);
		pt->nobs++;
	}
	for (i = 0; i < S->npoints; i++) {
		if (S->points[i].nobs)
			S->points[i].mean_log /= S->points[i].nobs;
		if (ti[i]) {
			S->points[i].mean_log_t /= ti[i];
			S->points[i].mean_log_i /= ti[i];
		} else {
			S->points[i].mean_log_t = S->points[i].mean_log_i = NAN;
		}
	}
}

/* The best candidate so far (not the original), or -1. */
static int best_point(const struct search *S)
{
	int i, best = -1;

	for (i = 1; i < S->npoints; i++)
		if (S->points[i].nobs && (best < 0 || S->points[i].mean_log < S->points[best].mean_log))
			best = i;
	return best;
}

/* --- measuring ----------------------------------------------------------- */

static int set_values(struct search *S, const long *vals)
{
	int i;

	for (i = 0; i < S->sp.d; i++) {
		struct knob_state st;
		long rb;

		if (vals[i] == S->cur[i])
			continue;
		knob_probe(S->sp.dim[i].def, &st);
		if (knob_write(&st, vals[i], &rb) < 0)
			return -1;
		if (rb != vals[i]) {
			char a[64], b[64];
			warning("%s: wrote %s, the kernel kept %s", st.def->name,
				knob_format_value(st.def, vals[i], a, sizeof(a)),
				knob_format_value(st.def, rb, b, sizeof(b)));
		}
		S->cur[i] = vals[i];
	}
	return 0;
}

static char *settings_json(const struct search *S, const long *vals)
{
	json_object *o = json_object_new_object();
	char buf[64], *s;
	int i;

	for (i = 0; i < S->sp.d; i++) {
		const struct knob_def *d = S->sp.dim[i].def;
		json_object_object_add(o, d->name,
				       d->type == KT_ENUM
					   ? json_object_new_string(knob_format_value(d, vals[i], buf, sizeof(buf)))
					   : json_object_new_int64(vals[i]));
	}
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

/* Measure the settings of point p once (every workload of the mix). Returns 0,
 * or -1 when vmtune itself cannot go on (a knob write failed, interrupted). */
static int measure(struct search *S, int p, enum kind kind)
{
	struct obs *ob;
	char *sj;
	int w;

	if (S->nobs >= MAX_OBS)
		return error("too many measurements in one search (%d)", MAX_OBS);
	if (set_values(S, S->points[p].vals) < 0)
		return -1;
	ob = &S->obs[S->nobs];
	memset(ob, 0, sizeof(*ob));
	ob->kind = kind;
	ob->point = p;
	sj = settings_json(S, S->points[p].vals);
	ob->trial_id = S->db ? store_trial_add(S->db, S->run_id, S->next_seq++, kind_names[kind], sj, NAN, false) : 0;
	free(sj);
	if (ob->trial_id < 0)
		return -1;
	for (w = 0; w < S->o->nwl; w++) {
		struct run_spec spec = { .workload = S->o->wl[w].spec,
					 .timeout = S->o->timeout,
					 .echo = vt.verbose > 1,
					 .probe = S->o->probe };
		struct run_result r;
		struct cgroup cg;
		double t = now(), m;
		char desc[512];

		if (S->o->mem_limit) {
			if (cgroup_create(&cg, S->o->mem_limit, S->o->swap ? S->o->swap : CGROUP_UNLIMITED) < 0)
				return -1;
			spec.cg = &cg;
		}
		if (runner_run(&spec, &r) < 0) {
			if (S->o->mem_limit)
				cgroup_remove(&cg);
			return -1;
		}
		if (S->o->mem_limit && cgroup_remove(&cg) < 0)
			return -1;
		S->run_time_sum += now() - t;
		S->runs++;
		if (r.outcome == RUN_INTERRUPTED) {
			/* half a trial is no trial: --resume measures it again */
			if (S->db)
				store_trial_delete(S->db, ob->trial_id);
			return -1;
		}
		m = strcmp(S->o->wl[w].metric, "elapsed") == 0 ? r.elapsed : run_value(&r, S->o->wl[w].metric);
		if (r.outcome != RUN_OK || !isfinite(m) || m <= 0) {
			ob->failed = true;
			verbose("%s %s: %s%s", kind_names[kind], S->o->wl[w].name, run_describe(&r, desc, sizeof(desc)),
				r.outcome == RUN_OK ? " (no usable metric)" : "");
			m = NAN;
		}
		ob->metric[w] = m;
		ob->inter[w] = run_value(&r, "probe.p99_lateness_ms") + 1;
		ob->played[w] = run_value(&r, "probe.played");
		if (S->o->probe && !r.probe_ok && !ob->failed) {
			ob->failed = true;
			verbose("%s %s: %s", kind_names[kind], S->o->wl[w].name, r.probe_line);
		}
		for (int q = 0; q < S->o->nrequire && !ob->failed; q++) {
			const struct requirement *rq = &S->o->require[q];
			char pn[64];
			double v = run_value(&r, rq->name);
			snprintf(pn, sizeof(pn), "probe.%s", rq->name);
			if (!isfinite(v))
				v = run_value(&r, pn);
			if (!isfinite(v) || !requirement_met(rq, v)) {
				ob->failed = true; /* a constraint broken is a failed trial */
				verbose("%s %s: breaks %s (%s %g)", kind_names[kind], S->o->wl[w].name, rq->text,
					rq->name, v);
			}
		}
		if (S->db)
			store_measurement_add(S->db, ob->trial_id, S->o->wl[w].spec, &r, m);
	}
	if (ob->failed && (kind == K_BASE || kind == K_CONFIRM_BASE))
		warning("a baseline measurement of the original settings failed; it is left out");
	S->nobs++;
	rescore(S);
	/* a new baseline changes the scores around it: the store keeps the latest */
	for (int j = 0; S->db && j < S->nobs; j++) {
		struct obs *o = &S->obs[j];
		if (o->trial_id > 0 && (o == ob || o->score != o->stored) &&
		    store_trial_score(S->db, o->trial_id, o->score, o->failed) == 0)
			o->stored = o->score;
	}
	return 0;
}

/* --- candidates ---------------------------------------------------------- */

static void next_unit(struct search *S, double *u)
{
	int i;

	if (S->o->strategy == STRAT_RANDOM) {
		for (i = 0; i < S->sp.d; i++)
			u[i] = gsl_rng_uniform(S->rng);
		return;
	}
	gsl_qrng_get(S->sobol, u);
	for (i = 0; i < S->sp.d; i++) {
		u[i] += S->shift[i];
		if (u[i] >= 1)
			u[i] -= 1;
	}
}

static int grid_levels(const struct space_dim *dm)
{
	if (dm->categorical || (!dm->log && dm->hi - dm->lo <= 8))
		return (int)(dm->hi - dm->lo + 1);
	return 5;
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static void grid_init(struct search *S)
{
	int i;

	S->grid_total = 1;
	for (i = 0; i < S->sp.d && S->grid_total < (1L << 40); i++)
		S->grid_total *= grid_levels(&S->sp.dim[i]);
	/* visit the grid in a shuffled order: k -> (a*k + c) mod total, a coprime */
	do
		S->grid_a = 1 + (long)(gsl_rng_uniform(S->rng) * (double)(S->grid_total - 1));
	while (S->grid_total > 1 && gcd(S->grid_a, S->grid_total) != 1);
	S->grid_next = (long)(gsl_rng_uniform(S->rng) * (double)S->grid_total);
}

static void grid_point(struct search *S, long k, long *vals)
{
	long idx = (S->grid_a * k + S->grid_next) % S->grid_total;
	int i;

	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		int n = grid_levels(dm), l = (int)(idx % n);
		idx /= n;
		if (n == dm->hi - dm->lo + 1)
			vals[i] = space_snap(dm, dm->lo + l);
		else
			vals[i] = space_decode(dm, -1 + 2.0 * l / (n - 1));
	}
}

static int n_initial(const struct search *S)
{
	int n = 2 * S->sp.d + 1;

	if (n < 5)
		n = 5;
	if (n > S->o->trials / 2)
		n = S->o->trials / 2 > 2 ? S->o->trials / 2 : 2;
	return n;
}

/* Expected improvement over the box: random points plus steps around the best
 * points, each rounded to valid values and scored there. Prefers settings not yet
 * tried; when every setting has been tried (a small space), the best EI re-measures. */
static void bo_candidate(struct search *S, const struct gp *gp, long *out)
{
	double x[SPACE_MAX + MACHINE_NFEAT], best_log = HUGE_VAL, best_ei = -1, best_ei_seen = -1;
	long vals[SPACE_MAX], seen[SPACE_MAX];
	int order[8], nord = 0, i, j, k, tries;

	for (i = 1; i < S->npoints; i++)
		if (S->points[i].nobs && S->points[i].mean_log < best_log)
			best_log = S->points[i].mean_log;
	if (best_log > 0)
		best_log = 0; /* the original scores log 1 = 0 */
	/* the few best points, to search around them */
	for (i = 0; i < S->npoints; i++) {
		if (!S->points[i].nobs && i != 0)
			continue;
		if (nord < 8)
			order[nord++] = i;
		for (j = nord - 1; j > 0; j--) {
			double a = order[j] ? S->points[order[j]].mean_log : 0;
			double b = order[j - 1] ? S->points[order[j - 1]].mean_log : 0;
			if (a < b) {
				int t = order[j];
				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		}
		if (nord == 8 && i > 8)
			nord = 7;
	}
	memcpy(out, S->points[0].vals, sizeof(long) * (size_t)S->sp.d);
	memcpy(seen, out, sizeof(seen));
	for (tries = 0; tries < 4000; tries++) {
		double ei;

		if (tries < 2500 || nord == 0) {
			for (k = 0; k < S->sp.d; k++) {
				const struct space_dim *dm = &S->sp.dim[k];
				double u = gsl_rng_uniform(S->rng);
				x[k] = dm->categorical ? (double)(dm->lo + (long)(u * (double)(dm->hi - dm->lo + 1)))
						       : 2 * u - 1;
			}
		} else {
			int base = order[(tries - 2500) % nord];
			space_encode_point(&S->sp, S->points[base].vals, x);
			for (k = 0; k < S->sp.d; k++) {
				const struct space_dim *dm = &S->sp.dim[k];
				if (dm->categorical) {
					if (gsl_rng_uniform(S->rng) < 0.2)
						x[k] = (double)(dm->lo + (long)(gsl_rng_uniform(S->rng) *
										(double)(dm->hi - dm->lo + 1)));
				} else {
					x[k] += 0.15 * (2 * gsl_rng_uniform(S->rng) - 1) * (1 + (tries % 3));
				}
			}
		}
		space_decode_point(&S->sp, x, vals); /* round to valid values */
		model_x(S, vals, x);		     /* and score them there */
		ei = gp_expected_improvement(gp, x, best_log);
		if (find_point(S, vals) >= 0) {
			if (ei > best_ei_seen) {
				best_ei_seen = ei;
				memcpy(seen, vals, sizeof(seen));
			}
			continue;
		}
		if (ei > best_ei) {
			best_ei = ei;
			memcpy(out, vals, sizeof(long) * (size_t)S->sp.d);
		}
	}
	if (best_ei < 0)
		memcpy(out, seen, sizeof(long) * (size_t)S->sp.d);
}

/* The surrogate over this search's observations (log score; the original
 * settings are log 1 = 0 by definition) and, with a warm start, the pooled
 * trials. The hyperparameters are fitted afresh every few trials and reused in
 * between, which keeps a large warm pool quick. */
static int fit_model(struct search *S, struct gp *gp)
{
	int D = model_dims(S), cap = S->pool.npts + 1 + S->nobs, i, n = 0, rc;
	struct gp hyper = { .log_l = S->hyper_l, .log_sf2 = S->hyper_sf2, .log_sn2 = S->hyper_sn2 };
	double *x = malloc(sizeof(double) * (size_t)(cap * D)), *y = malloc(sizeof(double) * (size_t)cap);
	bool refit;

	if (!x || !y) {
		free(x);
		free(y);
		return -1;
	}
	for (i = 0; S->warm && i < S->pool.npts; i++) {
		const struct pool_point *pt = &S->pool.pts[i];
		pool_encode(&S->sp, pt->vals, S->pool.machines[S->pool.runs[pt->run].machine].feat, x + n * D);
		y[n++] = pt->y;
	}
	model_x(S, S->points[0].vals, x + n * D);
	y[n++] = 0;
	for (i = 0; i < S->nobs; i++) {
		const struct obs *ob = &S->obs[i];
		if (ob->kind != K_CAND && ob->kind != K_REPEAT)
			continue;
		model_x(S, S->points[ob->point].vals, x + n * D);
		y[n++] = log(ob->score);
	}
	refit = !S->have_hyper || !S->warm || S->trials_done - S->hyper_at >= 8;
	rc = n >= 2 ? gp_fit_with(gp, D, S->warm ? S->cat : S->sp.categorical, x, y, n, refit ? NULL : &hyper) : -1;
	if (rc == 0 && refit && S->warm) {
		memcpy(S->hyper_l, gp->log_l, sizeof(double) * (size_t)D);
		S->hyper_sf2 = gp->log_sf2;
		S->hyper_sn2 = gp->log_sn2;
		S->have_hyper = true;
		S->hyper_at = S->trials_done;
	}
	free(x);
	free(y);
	return rc;
}

static void next_candidate(struct search *S, long *vals)
{
	double u[SPACE_MAX];
	struct gp gp;
	int tries;

	if (S->o->strategy == STRAT_GRID) {
		for (tries = 0; tries < 10000; tries++) {
			grid_point(S, S->trials_done + tries, vals);
			if (find_point(S, vals) < 0)
				return;
		}
		return;
	}
	/* a warm start tries the pooled model's recommendation first, then goes by
	 * the surrogate straight away: the pool stands in for the initial design */
	if (S->warm && !S->warm_rec_tried) {
		S->warm_rec_tried = true;
		if (find_point(S, S->warm_rec) < 0) {
			memcpy(vals, S->warm_rec, sizeof(long) * (size_t)S->sp.d);
			return;
		}
	}
	if (S->o->strategy == STRAT_BO && (S->warm || S->trials_done >= n_initial(S)) && fit_model(S, &gp) == 0) {
		bo_candidate(S, &gp, vals);
		gp_free(&gp);
		return;
	}
	for (tries = 0; tries < 200; tries++) {
		next_unit(S, u);
		space_from_unit(&S->sp, u, vals);
		if (find_point(S, vals) < 0)
			return;
	}
}

/* --- confirmation ---------------------------------------------------------- */

static void welch(const double *a, int na, const double *b, int nb, double alpha, double *diff, double *lo, double *hi)
{
	double ma = gsl_stats_mean(a, 1, (size_t)na), mb = gsl_stats_mean(b, 1, (size_t)nb);
	double va = na > 1 ? gsl_stats_variance_m(a, 1, (size_t)na, ma) : 0;
	double vb = nb > 1 ? gsl_stats_variance_m(b, 1, (size_t)nb, mb) : 0;
	double se2 = va / na + vb / nb, df, t;

	*diff = ma - mb;
	if (se2 <= 0 || na < 2 || nb < 2) {
		*lo = *hi = *diff;
		if (na < 2 || nb < 2)
			*lo = -HUGE_VAL, *hi = HUGE_VAL;
		return;
	}
	df = se2 * se2 / ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
	t = gsl_cdf_tdist_Qinv(alpha / 2, df);
	*lo = *diff - t * sqrt(se2);
	*hi = *diff + t * sqrt(se2);
}

/* Per observation, its mix cost relative to the mean of the confirmation
 * baselines: the same yardstick for baseline and candidate runs. */
static double confirm_value(const struct search *S, const struct obs *ob, const double *base_mean,
			    const double *base_inter)
{
	double t, i;

	return log(obs_cost(S, ob, base_mean, base_inter, &t, &i));
}

/* Welch on the confirmation runs since obs index first: the finalists' cost
 * against the original's, as measured in the same rounds. The 95% interval is
 * reported; with more than one look at the data (extra rounds), a finalist is
 * significant only if the interval at 1 - 0.05/looks excludes no change, so that
 * looking again until something shows does not buy a false positive. */
static int confirm_analyse(struct search *S, int first, const int *fin, int nfin, int looks, struct confirm *c, int *nc)
{
	int i, j, w;
	double base_mean[SEARCH_MAX_WORKLOADS] = { 0 }, base_inter[SEARCH_MAX_WORKLOADS] = { 0 }, a[64], b[64];
	int nb = 0;

	*nc = 0;
	S->looks = looks;
	for (j = first; j < S->nobs; j++) {
		if (S->obs[j].kind != K_CONFIRM_BASE || S->obs[j].failed)
			continue;
		for (w = 0; w < S->o->nwl; w++) {
			base_mean[w] += S->obs[j].metric[w];
			base_inter[w] += S->obs[j].inter[w];
		}
		nb++;
	}
	if (nb == 0)
		return error("every confirmation run of the original settings failed");
	for (w = 0; w < S->o->nwl; w++) {
		base_mean[w] /= nb;
		base_inter[w] /= nb;
	}
	memcpy(S->confirm_base, base_mean, sizeof(base_mean));
	memcpy(S->confirm_base_inter, base_inter, sizeof(base_inter));
	nb = 0;
	for (j = first; j < S->nobs; j++)
		if (S->obs[j].kind == K_CONFIRM_BASE && !S->obs[j].failed && nb < 64)
			b[nb++] = confirm_value(S, &S->obs[j], base_mean, base_inter);
	for (i = 0; i < nfin; i++) {
		struct confirm *ci = &c[(*nc)++];
		double diff, lo, hi, msum = 0;
		int na = 0, failed = 0;

		memset(ci, 0, sizeof(*ci));
		ci->point = fin[i];
		for (j = first; j < S->nobs; j++) {
			if (S->obs[j].kind != K_CONFIRM || S->obs[j].point != fin[i])
				continue;
			if (S->obs[j].failed) {
				failed++;
				continue;
			}
			if (na < 64) {
				a[na++] = confirm_value(S, &S->obs[j], base_mean, base_inter);
				msum += S->obs[j].metric[0];
			}
		}
		ci->base_metric = base_mean[0];
		ci->cand_metric = na ? msum / na : NAN;
		if (failed || na < 2) {
			ci->change_pct = NAN;
			ci->ci_lo = ci->ci_hi = NAN;
			continue; /* a finalist that fails is no recommendation */
		}
		welch(a, na, b, nb, 0.05, &diff, &lo, &hi);
		ci->change_pct = 100 * (exp(diff) - 1);
		ci->ci_lo = 100 * (exp(lo) - 1);
		ci->ci_hi = 100 * (exp(hi) - 1);
		if (looks > 1)
			welch(a, na, b, nb, 0.05 / looks, &diff, &lo, &hi);
		ci->significant = hi < 0;
	}
	return 0;
}

static int confirm(struct search *S, struct confirm *c, int *nc)
{
	int fin[8], nfin = 0, i, j, r, rounds = S->o->confirm_rounds, max_rounds = 3 * S->o->confirm_rounds;
	int first = S->nobs;

	/* finalists: the best candidates by mean score that beat the original */
	for (i = 1; i < S->npoints; i++) {
		if (!S->points[i].nobs || S->points[i].mean_log >= 0)
			continue;
		/* insert into fin[] kept sorted by mean score, at most finalists long */
		for (j = nfin; j > 0 && S->points[fin[j - 1]].mean_log > S->points[i].mean_log; j--)
			if (j < S->o->finalists)
				fin[j] = fin[j - 1];
		if (j < S->o->finalists) {
			fin[j] = i;
			if (nfin < S->o->finalists)
				nfin++;
		}
	}
	*nc = 0;
	if (nfin == 0)
		return 0;
	info("confirming %d finalist(s): %d rounds of the original settings and each finalist", nfin,
	     S->o->confirm_rounds);
	for (r = 0;; r++) {
		bool undecided = false;
		double per = S->runs ? S->run_time_sum / S->runs : 0;

		if (measure(S, 0, K_CONFIRM_BASE) < 0)
			return -1;
		for (i = 0; i < nfin && !vt_interrupted; i++)
			if (measure(S, fin[i], K_CONFIRM) < 0)
				return -1;
		if (vt_interrupted)
			return -1;
		if (r + 1 < rounds)
			continue;
		if (confirm_analyse(S, first, fin, nfin, rounds - S->o->confirm_rounds + 1, c, nc) < 0)
			return -1;
		/* a finalist that looks better but is not shown to be yet gets another
		 * round, while the budget allows (three times the rounds at most) */
		for (i = 0; i < *nc; i++)
			undecided |= isfinite(c[i].change_pct) && c[i].change_pct < 0 && !c[i].significant;
		if (!undecided || r + 1 >= max_rounds ||
		    (S->o->time_budget > 0 && now() - S->t0 + per * S->o->nwl * (1 + nfin) > S->o->time_budget))
			return 0;
		rounds++;
		info("a finalist looks better but is not yet shown to be: round %d of at most %d", rounds, max_rounds);
	}
}

/* --- reporting -------------------------------------------------------------- */

/* Predicted change of the score across each knob's range at the recommended
 * point: how much each knob matters, by the fitted model. */
static void sensitivity(struct search *S, const long *rec, double *sens)
{
	struct gp gp;
	double x[SPACE_MAX + MACHINE_NFEAT];
	int i, k;

	for (i = 0; i < S->sp.d; i++)
		sens[i] = NAN;
	if (fit_model(S, &gp) < 0)
		return;
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		double lo = HUGE_VAL, hi = -HUGE_VAL, m, sd;
		int steps = dm->categorical ? (int)(dm->hi - dm->lo + 1) : 9;

		model_x(S, rec, x);
		for (k = 0; k < steps; k++) {
			x[i] = dm->categorical ? (double)(dm->lo + k) : -1 + 2.0 * k / (steps - 1);
			gp_predict(&gp, x, &m, &sd);
			lo = fmin(lo, m);
			hi = fmax(hi, m);
		}
		sens[i] = 100 * (exp(hi - lo) - 1);
	}
	gp_free(&gp);
}

static void print_plan(const struct search *S, FILE *f)
{
	const struct search_opts *o = S->o;
	int i, baselines = 1 + (o->trials - 1 + o->baseline_every - 1) / o->baseline_every + 1;
	int confirm_runs = o->confirm_rounds * (1 + o->finalists);
	char a[32], b[32];

	fprintf(f, "search: %d knob(s), strategy %s, seed %lu\n", S->sp.d, strategy_name(o->strategy), o->seed);
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		char v[64], lo[64], hi[64];
		fprintf(f, "  %-28s original %-8s search %s..%s%s\n", dm->def->name,
			knob_format_value(dm->def, dm->original, v, sizeof(v)),
			knob_format_value(dm->def, dm->lo, lo, sizeof(lo)),
			knob_format_value(dm->def, dm->hi, hi, sizeof(hi)), dm->log ? " (log scale)" : "");
	}
	fprintf(f, "workload%s:", o->nwl > 1 ? "s (score: geometric mean of the ratios to the baseline)" : "");
	for (i = 0; i < o->nwl; i++)
		fprintf(f, " %s[%s %s]", o->wl[i].spec, o->wl[i].metric, o->wl[i].maximize ? "max" : "min");
	fprintf(f, "\n");
	if (o->time_budget > 0)
		fprintf(f, "budget: %s, at most %d trials\n", fmt_duration(o->time_budget, a, sizeof(a)), o->trials);
	fprintf(f,
		"plan: %d trials (the first is the original settings) + %d baseline runs + up to %d repeat runs + %d "
		"confirmation runs (up to %d while a finalist is undecided) = at most %d measurements of %d workload "
		"run(s) each\n",
		o->trials, baselines, (o->trials - 1) * o->repeats, confirm_runs, 3 * confirm_runs,
		o->trials + baselines + (o->trials - 1) * o->repeats + 3 * confirm_runs, o->nwl);
	fprintf(f, "objective: %s", objective_name(o->objective));
	for (i = 0; i < o->nrequire; i++)
		fprintf(f, "%s%s", i ? ", " : ", requiring ", o->require[i].text);
	fprintf(f, "%s%s\n", o->probe ? "; probe: " : "", o->probe ? o->probe : "");
	if (o->mem_limit)
		fprintf(f, "each run in a %s memory cgroup, swap %s\n", format_size(o->mem_limit, a, sizeof(a)),
			o->swap ? format_size(o->swap, b, sizeof(b)) : "not limited");
}

/* The time a search would take, from the runs of the same workloads stored in
 * the database, if there are any (a dry run opens it read-only and makes none). */
static void dry_run_estimate(const struct search *S)
{
	const struct search_opts *o = S->o;
	int runs = o->trials + 1 + (o->trials - 1 + o->baseline_every - 1) / o->baseline_every + 1 +
		   o->confirm_rounds * (1 + o->finalists);
	double per = 0;
	struct store *db;
	char a[32];
	long n;
	int w;

	if (!store_exists(vt.db) || store_open(&db, vt.db) < 0) {
		printf("time: no runs of these workloads are stored yet to estimate it from\n");
		return;
	}
	for (w = 0; w < o->nwl; w++) {
		double m = store_mean_run_seconds(db, o->wl[w].spec, &n);
		if (n == 0) {
			printf("time: no run of '%s' is stored yet to estimate it from\n", o->wl[w].spec);
			store_close(db);
			return;
		}
		per += m;
	}
	store_close(db);
	printf("time: about %s for %d measurements without repeats (stored runs average %.1f s per measurement)%s\n",
	       fmt_duration(per * runs, a, sizeof(a)), runs, per,
	       o->time_budget > 0 ? "; the --time budget caps it" : "");
}

static void default_out(const struct search *S, char *buf, size_t size)
{
	struct machine m;
	char name[64];
	size_t i;

	machine_read(&m);
	snprintf(name, sizeof(name), "%s", S->o->nwl > 1 ? "mix" : S->o->wl[0].name);
	for (i = 0; name[i]; i++)
		if (name[i] == '/' || name[i] == ' ')
			name[i] = '_';
	snprintf(buf, size, "%s/profiles/%s-%s.yaml", vt.state_dir, m.hostname, name);
}

static int write_profile(struct search *S, const char *path, const long *rec, const struct confirm *c)
{
	struct profile p;
	struct machine m;
	time_t t = time(NULL);
	struct tm tm;
	char dir[PATH_MAX], *slash;
	int i;

	memset(&p, 0, sizeof(p));
	machine_read(&m);
	snprintf(p.name, sizeof(p.name), "%s-%s", m.hostname, S->o->nwl > 1 ? "mix" : S->o->wl[0].name);
	snprintf(p.description, sizeof(p.description), "vmtune search (%s, %d trials)%s", strategy_name(S->o->strategy),
		 S->trials_done, c && c->significant ? "" : ": no significant improvement, original settings kept");
	gmtime_r(&t, &tm);
	strftime(p.created, sizeof(p.created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p.machine.present = true;
	snprintf(p.machine.hostname, sizeof(p.machine.hostname), "%s", m.hostname);
	snprintf(p.machine.kernel, sizeof(p.machine.kernel), "%s", m.kernel);
	p.machine.cpus = m.cpus;
	p.machine.mem_total_kb = m.mem_total_kb;
	p.machine.swap_total_kb = m.swap_total_kb;
	for (i = 0; i < S->sp.d; i++) {
		p.settings[i].def = S->sp.dim[i].def;
		p.settings[i].value = rec[i];
	}
	p.nsettings = S->sp.d;
	p.evidence.present = true;
	for (i = 0; i < S->o->nwl; i++) {
		size_t n = strlen(p.evidence.workload);
		snprintf(p.evidence.workload + n, sizeof(p.evidence.workload) - n, "%s%s", i ? " + " : "",
			 S->o->wl[i].spec);
	}
	p.evidence.trials = S->trials_done;
	if (S->o->nwl == 1) {
		snprintf(p.evidence.metric, sizeof(p.evidence.metric), "%s", S->o->wl[0].metric);
		snprintf(p.evidence.direction, sizeof(p.evidence.direction), "%s",
			 S->o->wl[0].maximize ? "max" : "min");
	} else {
		snprintf(p.evidence.metric, sizeof(p.evidence.metric), "mix_cost");
		snprintf(p.evidence.direction, sizeof(p.evidence.direction), "min");
	}
	if (c) {
		double k = S->o->nwl == 1 && S->o->wl[0].maximize ? -1 : 1;
		p.evidence.baseline = S->o->nwl == 1 ? c->base_metric : 1;
		p.evidence.best = S->o->nwl == 1 ? c->cand_metric : 1 + c->change_pct / 100;
		/* in the metric's own direction: a cost change of x% is a rate change of 1/(1+x)-1 */
		if (k < 0) {
			p.evidence.change_pct = 100 * (1 / (1 + c->change_pct / 100) - 1);
			p.evidence.ci_lo = 100 * (1 / (1 + c->ci_hi / 100) - 1);
			p.evidence.ci_hi = 100 * (1 / (1 + c->ci_lo / 100) - 1);
		} else {
			p.evidence.change_pct = c->change_pct;
			p.evidence.ci_lo = c->ci_lo;
			p.evidence.ci_hi = c->ci_hi;
		}
		p.evidence.significant = c->significant;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) && slash != dir) {
		char cmd_dir[PATH_MAX];
		*slash = '\0';
		snprintf(cmd_dir, sizeof(cmd_dir), "%s", dir);
		/* the default lives under the state dir; a given path's dir must exist */
		if (strncmp(cmd_dir, vt.state_dir, strlen(vt.state_dir)) == 0 && access(cmd_dir, F_OK) < 0 &&
		    mkdir(cmd_dir, 0755) < 0)
			return error("cannot create '%s': %s", cmd_dir, strerror(errno));
	}
	return profile_write(path, &p);
}

/* --- config and resume ------------------------------------------------------ */

static char *config_json(const struct search *S)
{
	const struct search_opts *o = S->o;
	json_object *c = json_object_new_object(), *wl = json_object_new_array(), *kn = json_object_new_array(),
		    *orig = json_object_new_object();
	char *s;
	int i;

	for (i = 0; i < o->nwl; i++) {
		json_object *w = json_object_new_object();
		json_object_object_add(w, "spec", json_object_new_string(o->wl[i].spec));
		json_object_object_add(w, "metric", json_object_new_string(o->wl[i].metric));
		json_object_object_add(w, "maximize", json_object_new_boolean(o->wl[i].maximize));
		json_object_object_add(w, "weight", json_object_new_double(o->wl[i].weight));
		json_object_array_add(wl, w);
	}
	for (i = 0; i < S->sp.d; i++) {
		json_object_array_add(kn, json_object_new_string(S->sp.dim[i].def->name));
		json_object_object_add(orig, S->sp.dim[i].def->name, json_object_new_int64(S->sp.dim[i].original));
	}
	json_object_object_add(c, "workloads", wl);
	json_object_object_add(c, "knobs", kn);
	json_object_object_add(c, "originals", orig);
	json_object_object_add(c, "strategy", json_object_new_string(strategy_name(o->strategy)));
	json_object_object_add(c, "trials", json_object_new_int(o->trials));
	json_object_object_add(c, "time_budget", json_object_new_double(o->time_budget));
	json_object_object_add(c, "seed", json_object_new_int64((int64_t)o->seed));
	json_object_object_add(c, "repeats", json_object_new_int(o->repeats));
	json_object_object_add(c, "memory_limit", json_object_new_int64((int64_t)o->mem_limit));
	json_object_object_add(c, "swap", json_object_new_int64((int64_t)o->swap));
	json_object_object_add(c, "root", json_object_new_string(vt.root));
	json_object_object_add(c, "probe", o->probe ? json_object_new_string(o->probe) : NULL);
	json_object_object_add(c, "objective", json_object_new_string(objective_name(o->objective)));
	{
		json_object *rq = json_object_new_array();
		for (i = 0; i < o->nrequire; i++)
			json_object_array_add(rq, json_object_new_string(o->require[i].text));
		json_object_object_add(c, "require", rq);
	}
	s = strdup(json_object_to_json_string_ext(c, JSON_C_TO_STRING_PLAIN));
	json_object_put(c);
	return s;
}

/* Take the run's configuration from the store; the command line's budget wins. */
static int resume_config(struct search_opts *o, const char *cfg, char *knobs, size_t knobslen, char specs[][1024])
{
	json_object *c = json_tokener_parse(cfg), *wl, *kn, *v;
	size_t i;

	if (!c)
		return error("run %ld: its stored configuration is damaged", o->resume);
	if (json_object_object_get_ex(c, "workloads", &wl)) {
		o->nwl = 0;
		for (i = 0; i < json_object_array_length(wl) && i < SEARCH_MAX_WORKLOADS; i++) {
			json_object *w = json_object_array_get_idx(wl, i), *f;
			struct search_workload *sw = &o->wl[o->nwl++];
			json_object_object_get_ex(w, "spec", &f);
			snprintf(specs[i], 1024, "%s", json_object_get_string(f));
			sw->spec = specs[i];
			json_object_object_get_ex(w, "metric", &f);
			snprintf(sw->metric, sizeof(sw->metric), "%s", json_object_get_string(f));
			json_object_object_get_ex(w, "maximize", &f);
			sw->maximize = json_object_get_boolean(f);
			sw->weight = json_object_object_get_ex(w, "weight", &f) ? json_object_get_double(f) : 1;
		}
	}
	knobs[0] = '\0';
	if (json_object_object_get_ex(c, "knobs", &kn))
		for (i = 0; i < json_object_array_length(kn); i++) {
			size_t n = strlen(knobs);
			snprintf(knobs + n, knobslen - n, "%s%s", i ? "," : "",
				 json_object_get_string(json_object_array_get_idx(kn, i)));
		}
	o->knobs = knobs;
	if (json_object_object_get_ex(c, "strategy", &v))
		strategy_parse(json_object_get_string(v), &o->strategy);
	if (json_object_object_get_ex(c, "seed", &v))
		o->seed = (unsigned long)json_object_get_int64(v);
	if (json_object_object_get_ex(c, "repeats", &v))
		o->repeats = json_object_get_int(v);
	if (json_object_object_get_ex(c, "memory_limit", &v))
		o->mem_limit = (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(c, "swap", &v))
		o->swap = (uint64_t)json_object_get_int64(v);
	if (o->trials <= 0 && json_object_object_get_ex(c, "trials", &v))
		o->trials = json_object_get_int(v);
	if (json_object_object_get_ex(c, "probe", &v) && v) {
		snprintf(specs[SEARCH_MAX_WORKLOADS - 1], 1024, "%s", json_object_get_string(v));
		o->probe = specs[SEARCH_MAX_WORKLOADS - 1];
	}
	if (json_object_object_get_ex(c, "objective", &v)) {
		const char *ob = json_object_get_string(v);
		o->objective = strcmp(ob, "interactive") == 0 ? OBJ_INTERACTIVE
			       : strcmp(ob, "balanced") == 0  ? OBJ_BALANCED
							      : OBJ_THROUGHPUT;
	}
	if (json_object_object_get_ex(c, "require", &v)) {
		o->nrequire = 0;
		for (i = 0; i < json_object_array_length(v) && o->nrequire < SEARCH_MAX_REQUIRE; i++)
			if (requirement_parse(json_object_get_string(json_object_array_get_idx(v, i)),
					      &o->require[o->nrequire]) == 0)
				o->nrequire++;
	}
	json_object_put(c);
	return 0;
}

static int resume_trial(void *arg, long trial_id, int seq, const char *kind, const char *settings, bool failed,
			const double *metrics, const double *inter, const double *played, int nmetrics)
{
	struct search *S = arg;
	json_object *o = json_tokener_parse(settings), *v;
	long vals[SPACE_MAX];
	enum kind k;
	struct obs *ob;
	int i, w;

	if (seq >= S->next_seq)
		S->next_seq = seq + 1;
	if (nmetrics < S->o->nwl)
		return 0; /* cut short by a crash: measured again */
	for (k = K_BASE; k <= K_CONFIRM; k++)
		if (strcmp(kind_names[k], kind) == 0)
			break;
	if (k > K_CONFIRM || k == K_CONFIRM_BASE || k == K_CONFIRM) {
		json_object_put(o);
		return 0; /* an unfinished confirmation is done again */
	}
	if (!o)
		return error("run %ld: trial %ld has damaged settings", S->o->resume, trial_id);
	for (i = 0; i < S->sp.d; i++) {
		char why[256];
		if (!json_object_object_get_ex(o, S->sp.dim[i].def->name, &v)) {
			json_object_put(o);
			return error("run %ld: trial %ld lacks %s", S->o->resume, trial_id, S->sp.dim[i].def->name);
		}
		if (knob_parse_value(S->sp.dim[i].def, json_object_get_string(v), &vals[i], why, sizeof(why)) < 0) {
			json_object_put(o);
			return error("run %ld: trial %ld: %s", S->o->resume, trial_id, why);
		}
	}
	json_object_put(o);
	if (S->nobs >= MAX_OBS)
		return error("run %ld has too many trials", S->o->resume);
	ob = &S->obs[S->nobs++];
	memset(ob, 0, sizeof(*ob));
	ob->kind = k;
	ob->trial_id = trial_id;
	ob->point = add_point(S, vals);
	for (w = 0; w < S->o->nwl; w++) {
		ob->metric[w] = w < nmetrics ? metrics[w] : NAN;
		ob->inter[w] = w < nmetrics ? inter[w] + 1 : NAN;
		ob->played[w] = w < nmetrics ? played[w] : NAN;
		if (!isfinite(ob->metric[w]))
			ob->failed = true;
	}
	ob->failed |= failed; /* a broken requirement, say */
	if (k == K_CAND && ob->point > 0)
		S->trials_done++;
	return 0;
}

/* --- the loop ------------------------------------------------------------------ */

static void progress(struct search *S, const struct obs *ob, const char *what)
{
	char desc[512], eta[32], val[32], val2[32], bar[32] = "";
	const struct point *best;
	double per = S->runs ? S->run_time_sum / S->runs : 0, left;
	int b = best_point(S), i, filled;

	if (vt.quiet)
		return;
	left = per * (S->o->trials - S->trials_done) * (1 + 1.0 / S->o->baseline_every) * S->o->nwl +
	       per * S->o->confirm_rounds * (1 + S->o->finalists) * S->o->nwl;
	if (S->o->time_budget > 0 && left > S->o->time_budget - (now() - S->t0))
		left =
		    fmax(0, S->o->time_budget - (now() - S->t0)) + per * S->o->confirm_rounds * (1 + S->o->finalists);
	best = b >= 0 ? &S->points[b] : NULL;
	if (isatty(STDERR_FILENO)) {
		filled = S->o->trials ? 20 * S->trials_done / S->o->trials : 0;
		bar[0] = '[';
		for (i = 0; i < 20; i++)
			bar[i + 1] = i < filled ? '#' : '.';
		bar[21] = ']';
		bar[22] = ' ';
		bar[23] = '\0';
	}
	fprintf(stderr, "%strial %d%s%-4s %-9s %s: %s %s, ratio %.3f, best %.3f, ETA %s\n", bar, S->trials_done,
		S->o->time_budget > 0 ? "" : "/",
		S->o->time_budget > 0 ? "" : (snprintf(val, sizeof(val), "%d", S->o->trials), val), what,
		space_describe(&S->sp, S->points[ob->point].vals, false, desc, sizeof(desc)), S->o->wl[0].metric,
		ob->failed ? "failed" : (snprintf(val2, sizeof(val2), "%.4g", ob->metric[0]), val2), ob->score,
		best ? exp(best->mean_log) : 1.0, fmt_duration(left, eta, sizeof(eta)));
}

static bool out_of_time(const struct search *S)
{
	double per, reserve;

	if (S->o->time_budget <= 0)
		return false;
	per = S->runs ? S->run_time_sum / S->runs : 0;
	reserve = per * S->o->confirm_rounds * (1 + S->o->finalists);
	return now() - S->t0 + per * S->o->nwl + reserve > S->o->time_budget;
}

static int search_loop(struct search *S)
{
	long vals[SPACE_MAX];
	int since_base = 0, p, prev_best, i;

	/* trial 1: the original settings, which are also the first baselines */
	if (S->nobs == 0) {
		S->trials_done = 1;
		for (i = 0; i < 2; i++) {
			if (measure(S, 0, K_BASE) < 0)
				return -1;
			progress(S, &S->obs[S->nobs - 1], "baseline");
		}
	}
	while (S->trials_done < S->o->trials && !vt_interrupted && !out_of_time(S)) {
		next_candidate(S, vals);
		p = add_point(S, vals);
		if (p < 0)
			return error("too many distinct settings in one search");
		prev_best = best_point(S);
		if (measure(S, p, K_CAND) < 0)
			return -1;
		S->trials_done++;
		progress(S, &S->obs[S->nobs - 1], "candidate");
		since_base++;
		/* a new best is measured again before it is believed */
		if (best_point(S) == p && p != prev_best && S->points[p].mean_log < 0)
			for (i = 0; i < S->o->repeats && !vt_interrupted; i++) {
				if (measure(S, p, K_REPEAT) < 0)
					return -1;
				progress(S, &S->obs[S->nobs - 1], "repeat");
				since_base++;
			}
		if (since_base >= S->o->baseline_every && !vt_interrupted) {
			if (measure(S, 0, K_BASE) < 0)
				return -1;
			progress(S, &S->obs[S->nobs - 1], "baseline");
			since_base = 0;
		}
	}
	if (since_base && !vt_interrupted) {
		if (measure(S, 0, K_BASE) < 0)
			return -1;
		progress(S, &S->obs[S->nobs - 1], "baseline");
	}
	return vt_interrupted ? -1 : 0;
}

/* Throughput and interactivity of the original and the recommended settings, from
 * the confirmation runs (the same rounds, alternating). */
static void side_by_side(const struct search *S, int rec)
{
	double m[2] = { 0 }, p99[2] = { 0 }, played[2] = { 0 };
	int n[2] = { 0 }, np[2] = { 0 }, j, k;

	for (j = 0; j < S->nobs; j++) {
		const struct obs *ob = &S->obs[j];
		if (ob->failed || !(ob->kind == K_CONFIRM_BASE || (ob->kind == K_CONFIRM && ob->point == rec)))
			continue;
		k = ob->kind == K_CONFIRM ? 1 : 0;
		m[k] += ob->metric[0];
		n[k]++;
		if (isfinite(ob->inter[0])) {
			p99[k] += ob->inter[0] - 1;
			played[k] += ob->played[0];
			np[k]++;
		}
	}
	if (!n[0] || (!np[0] && rec < 0))
		return;
	printf("\n%-34s %-14s %s\n", "", "ORIGINAL", rec >= 0 ? "RECOMMENDED" : "");
	printf("%-34s %-14.4g ", S->o->wl[0].metric, m[0] / n[0]);
	if (rec >= 0 && n[1])
		printf("%.4g", m[1] / n[1]);
	printf("\n");
	if (!np[0])
		return;
	printf("%-34s %-14.1f ", "probe p99 lateness (ms)", p99[0] / np[0]);
	if (rec >= 0 && np[1])
		printf("%.1f", p99[1] / np[1]);
	printf("\n%-34s %-14.1f ", "probe played (%)", 100 * played[0] / np[0]);
	if (rec >= 0 && np[1])
		printf("%.1f", 100 * played[1] / np[1]);
	printf("\n");
}

/* The candidates no other candidate beats on both throughput and interactivity. */
static void tradeoff(const struct search *S)
{
	int i, j, shown = 0;
	char d[512];

	for (i = 0; i < S->npoints; i++)
		if (isfinite(S->points[i].mean_log_i))
			break;
	if (i == S->npoints)
		return;
	printf("\ntrade-off (not beaten on both sides by another candidate; cost relative to the original):\n");
	for (i = 1; i < S->npoints && shown < 10; i++) {
		const struct point *a = &S->points[i];
		bool dominated = false;
		if (!isfinite(a->mean_log_t) || !isfinite(a->mean_log_i))
			continue;
		for (j = 1; j < S->npoints && !dominated; j++) {
			const struct point *b = &S->points[j];
			dominated = j != i && isfinite(b->mean_log_t) && isfinite(b->mean_log_i) &&
				    b->mean_log_t <= a->mean_log_t && b->mean_log_i <= a->mean_log_i &&
				    (b->mean_log_t < a->mean_log_t || b->mean_log_i < a->mean_log_i);
		}
		if (dominated)
			continue;
		printf("  throughput cost %.3f, interactive cost %.3f: %s\n", exp(a->mean_log_t), exp(a->mean_log_i),
		       space_describe(&S->sp, a->vals, false, d, sizeof(d)));
		shown++;
	}
}

static void report(struct search *S, const long *rec, const struct confirm *best_c, int nc, const struct confirm *c)
{
	double sens[SPACE_MAX];
	char a[64], b[64];
	int i;

	sensitivity(S, rec, sens);
	printf("\n%-30s %-12s %-12s %s\n", "KNOB", "ORIGINAL", "RECOMMENDED", "SENSITIVITY");
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		char s[32] = "-";
		if (isfinite(sens[i]))
			snprintf(s, sizeof(s), "%.1f%%", sens[i]);
		printf("%-30s %-12s %-12s %s\n", dm->def->name, knob_format_value(dm->def, dm->original, a, sizeof(a)),
		       knob_format_value(dm->def, rec[i], b, sizeof(b)), s);
	}
	printf("(sensitivity: the model's predicted change of the score across the knob's search range)\n\n");
	for (i = 0; i < nc; i++) {
		char d[512];
		if (!isfinite(c[i].change_pct)) {
			printf("finalist %s: failed or too few runs in confirmation\n",
			       space_describe(&S->sp, S->points[c[i].point].vals, false, d, sizeof(d)));
			continue;
		}
		printf("finalist %s: cost %+.1f%% (95%% CI %+.1f%% .. %+.1f%%)%s\n",
		       space_describe(&S->sp, S->points[c[i].point].vals, false, d, sizeof(d)), c[i].change_pct,
		       c[i].ci_lo, c[i].ci_hi, c[i].significant ? ", significant" : ", not significant");
	}
	if (S->looks > 1)
		printf("(the finalists got extra rounds: with %d looks at the data a change counts as significant only "
		       "if its %.1f%% interval excludes none)\n",
		       S->looks, 100 * (1 - 0.05 / S->looks));
	side_by_side(S, best_c ? best_c->point : -1);
	tradeoff(S);
	if (best_c) {
		printf("\n%s: %.4g -> %.4g (%+.1f%%, 95%% CI %+.1f%% .. %+.1f%% of the cost) with the recommended "
		       "settings\n",
		       S->o->nwl == 1 ? S->o->wl[0].metric : "score", S->o->nwl == 1 ? best_c->base_metric : 1.0,
		       S->o->nwl == 1 ? best_c->cand_metric : 1 + best_c->change_pct / 100, best_c->change_pct,
		       best_c->ci_lo, best_c->ci_hi);
	} else {
		printf("\nnothing beat the original settings significantly: keep them "
		       "(the profile records the original values)\n");
	}
}

static int setup(struct search *S, struct search_opts *o)
{
	int i, rc;

	memset(S, 0, sizeof(*S));
	S->o = o;
	S->obs = calloc(MAX_OBS, sizeof(*S->obs));
	S->points = calloc(MAX_POINTS, sizeof(*S->points));
	if (!S->obs || !S->points) {
		error("out of memory");
		return EXIT_INTERNAL;
	}
	if (o->objective != OBJ_THROUGHPUT && !o->probe) {
		error("--objective %s needs an interactivity probe (--probe \"sputter ...\" or a mix with probe:)",
		      objective_name(o->objective));
		return EXIT_USAGE;
	}
	if ((rc = space_build(&S->sp, o->knobs)) != 0)
		return rc;
	for (i = 0; i < S->sp.d; i++)
		S->cur[i] = S->sp.dim[i].original;
	add_point(S, S->cur); /* point 0: the original settings */
	S->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(S->rng, o->seed);
	S->sobol = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)S->sp.d);
	for (i = 0; i < S->sp.d; i++)
		S->shift[i] = gsl_rng_uniform(S->rng);
	grid_init(S);
	return 0;
}

static void say_stdout(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* --warm-start: pool the stored trials of these workloads (every --db, this run
 * left out) and fit the model recommend uses, for its first candidate; its
 * hyperparameters serve the search's surrogate until the first refit. */
static int warm_setup(struct search *S, long exclude_run)
{
	/* what it found: on stdout in a dry run (part of the plan), else a message */
	void (*say)(const char *, ...) = S->o->dry_run ? say_stdout : info;
	struct pool_query q = { .objective = objective_name(S->o->objective), .exclude_run = exclude_run };
	struct machine m;
	struct model M;
	int i;

	for (i = 0; i < S->o->nwl && i < POOL_MAX_SPECS; i++)
		q.specs[q.nspecs++] = S->o->wl[i].spec;
	for (i = 0; i < vt.ndbs; i++)
		if (store_exists(vt.dbs[i]))
			q.dbs[q.ndbs++] = vt.dbs[i];
	machine_read(&m);
	machine_features(&m, S->feat);
	pool_categorical(&S->sp, S->cat);
	if (pool_load(&S->pool, &q, &S->sp, &m) < 0)
		return -1;
	if (S->pool.npts < 3) {
		say("--warm-start: %d stored trials of these workloads; starting cold", S->pool.ntrials);
		pool_free(&S->pool);
		return 0;
	}
	if (model_fit(&M, &S->pool, &S->sp, S->feat, NULL, NULL, 0) < 0) {
		say("--warm-start: the pooled model does not fit; starting cold");
		pool_free(&S->pool);
		return 0;
	}
	model_best(&M, &S->pool, 1.0, S->o->seed, NULL, S->warm_rec);
	{
		char d[512];
		double mean, sd;
		model_predict(&M, S->warm_rec, &mean, &sd);
		say("--warm-start: %d pooled trials from %d run%s on %d machine%s; first candidate %s "
		    "(predicted %+.1f%%)",
		    S->pool.ntrials, S->pool.nruns, S->pool.nruns == 1 ? "" : "s", S->pool.nmachines,
		    S->pool.nmachines == 1 ? "" : "s", space_describe(&S->sp, S->warm_rec, false, d, sizeof(d)),
		    100 * (exp(mean) - 1));
	}
	memcpy(S->hyper_l, M.gp.log_l, sizeof(double) * (size_t)pool_dims(&S->sp));
	S->hyper_sf2 = M.gp.log_sf2;
	S->hyper_sn2 = M.gp.log_sn2;
	S->have_hyper = true;
	S->hyper_at = S->trials_done;
	model_free(&M);
	S->warm = true;
	return 0;
}

static void teardown(struct search *S)
{
	pool_free(&S->pool);
	if (S->sobol)
		gsl_qrng_free(S->sobol);
	if (S->rng)
		gsl_rng_free(S->rng);
	store_close(S->db);
	free(S->obs);
	free(S->points);
}

int search_run(struct search_opts *o)
{
	struct search S;
	struct confirm c[8];
	const struct confirm *best_c = NULL;
	char out[PATH_MAX], knobs_buf[2048], specs[SEARCH_MAX_WORKLOADS][1024], status[32] = "";
	char *cfg = NULL, *mj;
	struct machine m;
	long rec[SPACE_MAX];
	int i, nc = 0, rc = 0;

	if (machine_overridden() && vt_live()) {
		error("--machine describes another machine: a search of the live kernel records this "
		      "machine's own fingerprint (--machine is for recommend, or with --root to simulate one)");
		return EXIT_USAGE;
	}
	if (o->resume) {
		struct store *db;
		if (store_open(&db, vt.db) < 0)
			return EXIT_ENV;
		cfg = store_run_config(db, o->resume, status, sizeof(status));
		store_close(db);
		if (!cfg) {
			error("no run %ld in %s", o->resume, vt.db);
			return EXIT_USAGE;
		}
		if (strcmp(status, "done") == 0) {
			free(cfg);
			error("run %ld in %s is finished; nothing to resume", o->resume, vt.db);
			return EXIT_USAGE;
		}
		if (resume_config(o, cfg, knobs_buf, sizeof(knobs_buf), specs) < 0) {
			free(cfg);
			return EXIT_USAGE;
		}
	}
	if (o->warm_start && o->strategy != STRAT_BO) {
		free(cfg);
		error("--warm-start seeds the surrogate of --strategy bo; %s has none", strategy_name(o->strategy));
		return EXIT_USAGE;
	}
	if ((rc = setup(&S, o)) != 0) {
		teardown(&S);
		free(cfg);
		return rc;
	}
	if (o->out)
		snprintf(out, sizeof(out), "%s", o->out);
	else
		default_out(&S, out, sizeof(out));
	if (!vt.quiet || o->dry_run)
		print_plan(&S, o->dry_run ? stdout : stderr);
	if (o->dry_run) {
		printf("would write: %s (profile), %s (results), %s/journal (originals while it runs)%s%s\n", out,
		       vt.db, vt.state_dir, o->swap && swap_total() < o->swap ? ", a temporary swapfile in " : "",
		       o->swap && swap_total() < o->swap ? vt.state_dir : "");
		dry_run_estimate(&S);
		if (o->warm_start && warm_setup(&S, 0) < 0) {
			teardown(&S);
			free(cfg);
			return EXIT_ENV;
		}
		printf("nothing was changed (dry run)\n");
		teardown(&S);
		free(cfg);
		return 0;
	}

	if ((rc = session_begin()) != 0)
		goto out;
	if (o->swap && swap_ensure(o->swap, S.swapfile, sizeof(S.swapfile)) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	for (i = 0; i < S.sp.d; i++) {
		struct knob_state st;
		knob_probe(S.sp.dim[i].def, &st);
		if (journal_knob(&st, false) < 0) {
			rc = EXIT_ENV;
			goto out;
		}
	}
	if (vt_state_dir_ensure() < 0 || store_open(&S.db, vt.db) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (o->resume) {
		S.run_id = o->resume;
		S.trials_done = 1; /* the original settings */
		if (store_trials_each(S.db, o->resume, resume_trial, &S) < 0) {
			rc = EXIT_ENV;
			goto out;
		}
		rescore(&S);
		for (i = 0; i < S.trials_done; i++) /* move the design on past what was tried */
			if (S.o->strategy != STRAT_GRID) {
				double u[SPACE_MAX];
				next_unit(&S, u);
			}
		info("resuming run %ld: %d measurements, %d trials done", o->resume, S.nobs, S.trials_done);
		store_run_finish(S.db, S.run_id, "running", NULL);
	} else {
		machine_read(&m);
		mj = machine_json(&m);
		cfg = config_json(&S);
		S.run_id = store_run_begin(S.db, cfg, mj);
		free(mj);
		if (S.run_id < 0) {
			rc = EXIT_ENV;
			goto out;
		}
		info("run %ld in %s", S.run_id, vt.db);
	}
	if (o->warm_start && warm_setup(&S, S.run_id) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	S.t0 = now();
	if (search_loop(&S) < 0 || confirm(&S, c, &nc) < 0) {
		int b = best_point(&S);
		char d[512];
		if (!vt_interrupted) {
			rc = EXIT_ENV;
			store_run_finish(S.db, S.run_id, "failed", NULL);
			goto out;
		}
		store_run_finish(S.db, S.run_id, "interrupted", NULL);
		printf("\ninterrupted after %d of %d trials; settings are being restored\n", S.trials_done, o->trials);
		if (b >= 0)
			printf("best so far (not confirmed): %s, score %.3f of the original\n",
			       space_describe(&S.sp, S.points[b].vals, false, d, sizeof(d)), exp(S.points[b].mean_log));
		printf("continue with: vmtune search --resume %ld%s%s\n", S.run_id, vt.db[0] ? " --db " : "", vt.db);
		rc = 128 + vt_interrupted;
		goto out;
	}
	for (i = 0; i < nc; i++)
		if (c[i].significant && (!best_c || c[i].ci_hi < best_c->ci_hi))
			best_c = &c[i];
	memcpy(rec, best_c ? S.points[best_c->point].vals : S.points[0].vals, sizeof(long) * (size_t)S.sp.d);
	report(&S, rec, best_c, nc, c);
	{
		json_object *r = json_object_new_object();
		char *sj = settings_json(&S, rec);
		json_object_object_add(r, "recommended", json_tokener_parse(sj));
		json_object_object_add(r, "significant", json_object_new_boolean(best_c != NULL));
		if (best_c) {
			json_object_object_add(r, "change_pct", json_object_new_double(best_c->change_pct));
			json_object_object_add(r, "ci95_pct_lo", json_object_new_double(best_c->ci_lo));
			json_object_object_add(r, "ci95_pct_hi", json_object_new_double(best_c->ci_hi));
		}
		json_object_object_add(r, "trials", json_object_new_int(S.trials_done));
		json_object_object_add(r, "profile", json_object_new_string(out));
		store_run_finish(S.db, S.run_id, "done", json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN));
		json_object_put(r);
		free(sj);
	}
	if (write_profile(&S, out, rec, best_c ? best_c : (nc ? &c[0] : NULL)) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	printf("profile: %s\n", out);
	/* the search's own changes go back first; --apply then makes the result stick */
	if (journal_undo_transient() < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (o->apply) {
		struct setting set[SPACE_MAX];
		int n = 0;
		for (i = 0; i < S.sp.d; i++)
			if (rec[i] != S.sp.dim[i].original) {
				set[n].def = S.sp.dim[i].def;
				set[n++].value = rec[i];
			}
		if (n == 0)
			info("--apply: the recommended settings are the original ones; nothing to apply");
		else if ((rc = settings_apply(set, n, true)) == 0)
			info("--apply: applied (journalled; 'vmtune restore' puts the originals back)");
	}
out:
	teardown(&S);
	free(cfg);
	return rc;
}
