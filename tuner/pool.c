/* pool.c - every stored trial of a workload, from every run and machine, as
 * points for a model: each trial's cost relative to its own run's baselines (the
 * score the search stored), its settings in the coordinates of a search space,
 * and the features of the machine it ran on. Repeated measurements of the same
 * settings in one run are averaged into one point; a large pool is thinned
 * (this machine's points first, then the best, then evenly) so a Gaussian
 * process stays quick. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"
#include "pool.h"
#include "runconfig.h"
#include "store.h"
#include "swap.h"
#include "vmtune.h"
#include "workload.h"

#define POOL_CAP 240

/* Does a run's config ask for the same workloads and objective? */
static bool run_matches(const struct pool_query *q, const struct run_config *cfg)
{
	int i, j;

	if (cfg->nwl == 0 || cfg->nwl != q->nspecs)
		return false;
	if (strcmp(cfg->objective, q->objective ? q->objective : "throughput") != 0)
		return false;
	for (j = 0; j < q->nspecs; j++) {
		bool found = false;
		for (i = 0; i < cfg->nwl && !found; i++)
			found = workload_same(cfg->wl[i].spec, q->specs[j]);
		if (!found)
			return false;
	}
	return true;
}

struct walk {
	const struct pool_query *q;
	struct store *db;
	int dbi; /* which of q->dbs */
	/* pool_sets */
	struct pool_sets *sets;
	/* pool_knobs */
	char *buf;
	size_t size;
	int nmatch;
	/* pool_load */
	struct pool *p;
	const struct space *sp;
	const struct machine *target;
	long fill[SPACE_MAX];
	int run;
	size_t cap;
	/* the store run being read: its machine, and for one that varied the swap
	 * backend, the pool run of each backend (made at its first trial) */
	const char *uuid;
	struct machine m;
	bool has_knob[SPACE_MAX];
	bool varied, scan;
	int run_first, vrun[SWAP_VARY_N], orig_backend;
	bool has_ref[SWAP_VARY_N], said[SWAP_VARY_N];
};

static bool excluded(const struct walk *w, long id)
{
	return w->dbi == 0 && w->q->exclude_run && id == w->q->exclude_run;
}

static int knobs_cb(void *arg, long id, const char *uuid, const char *status, const char *mj, const char *cj)
{
	struct walk *w = arg;
	static struct run_config cfg;
	int i;

	(void)uuid;
	(void)status;
	(void)mj;
	if (excluded(w, id) || run_config_parse(cj, &cfg) < 0 || !run_matches(w->q, &cfg))
		return 0;
	w->nmatch++;
	for (i = 0; i < cfg.nknobs; i++) {
		const char *name = cfg.knobs[i];
		char pat[80], wrapped[4096];
		snprintf(pat, sizeof(pat), ",%s,", name);
		snprintf(wrapped, sizeof(wrapped), ",%s,", w->buf);
		if (!strstr(wrapped, pat) && knob_find(name) && strlen(w->buf) + strlen(name) + 2 < w->size)
			snprintf(w->buf + strlen(w->buf), w->size - strlen(w->buf), "%s%s", w->buf[0] ? "," : "", name);
	}
	return 0;
}

static int sets_cb(void *arg, long id, const char *uuid, const char *status, const char *mj, const char *cj)
{
	struct pool_sets *out = ((struct walk *)arg)->sets;
	static struct run_config cfg;
	struct pool_query q = { 0 };
	int i, j;

	(void)id;
	(void)uuid;
	(void)status;
	(void)mj;
	if (run_config_parse(cj, &cfg) < 0 || cfg.nwl == 0)
		return 0;
	q.objective = cfg.objective;
	for (i = 0; i < cfg.nwl && q.nspecs < POOL_MAX_SPECS; i++)
		q.specs[q.nspecs++] = cfg.wl[i].spec;
	for (i = 0; i < out->n; i++) {
		struct pool_query have = { .objective = out->set[i].objective, .nspecs = out->set[i].nspecs };
		for (j = 0; j < have.nspecs; j++)
			have.specs[j] = out->set[i].specs[j];
		if (run_matches(&have, &cfg))
			break;
	}
	if (i == out->n && out->n < POOL_MAX_SETS) {
		out->n++;
		out->set[i].nspecs = q.nspecs;
		for (j = 0; j < q.nspecs; j++)
			snprintf(out->set[i].specs[j], sizeof(out->set[i].specs[j]), "%s", q.specs[j]);
		snprintf(out->set[i].objective, sizeof(out->set[i].objective), "%s", q.objective);
	}
	if (i < out->n)
		out->set[i].runs++;
	return 0;
}

/* Every run in every store q names, through cb (w->db and w->dbi say which store). */
static int walk_stores(struct walk *w, store_run_cb cb)
{
	int i, rc;

	for (i = 0; i < w->q->ndbs; i++) {
		w->dbi = i;
		if (store_open(&w->db, w->q->dbs[i]) < 0)
			return -1;
		rc = store_runs_each(w->db, cb, w);
		store_close(w->db);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int pool_sets(const struct pool_query *q, struct pool_sets *out)
{
	struct walk w = { .q = q, .sets = out };

	memset(out, 0, sizeof(*out));
	return walk_stores(&w, sets_cb);
}

int pool_knobs(const struct pool_query *q, char *buf, size_t size)
{
	struct walk w = { .q = q, .buf = buf, .size = size };

	buf[0] = '\0';
	return walk_stores(&w, knobs_cb) < 0 ? -1 : w.nmatch;
}

static int find_machine(struct pool *p, const struct machine *m, const double *feat)
{
	int i;

	for (i = 0; i < p->nmachines; i++)
		if (machine_same(&p->machines[i].m, m) &&
		    memcmp(p->machines[i].feat, feat, sizeof(double) * MACHINE_NFEAT) == 0)
			return i;
	return -1;
}

/* Are vals the run's original knob values (the swap backend aside)? */
static bool at_original(const struct walk *w, const long *vals, const bool *present)
{
	for (int j = 0; j < w->sp->d; j++)
		if (!w->sp->dim[j].pseudo && present[j] && vals[j] != w->fill[j])
			return false;
	return true;
}

/* The machine as a run that varied the swap backend had it for one backend: zram
 * alone, or its other swap (a swapfile when it had none), zswap as the backend says. */
static void machine_for_backend(const struct machine *m, int b, struct machine *out)
{
	int i, n = 0;

	*out = *m;
	if (b == SWAP_VARY_ZRAM) {
		snprintf(out->swaps[0].name, sizeof(out->swaps[0].name), "/dev/%s", SWAP_ZRAM_DEV);
		snprintf(out->swaps[0].kind, sizeof(out->swaps[0].kind), "zram");
		out->swaps[0].size_kb = m->swap_total_kb;
		n = 1;
	} else {
		for (i = 0; i < m->nswaps; i++)
			if (strcmp(m->swaps[i].kind, "zram") != 0)
				out->swaps[n++] = m->swaps[i];
		if (n == 0) {
			snprintf(out->swaps[0].name, sizeof(out->swaps[0].name), "swapfile");
			snprintf(out->swaps[0].kind, sizeof(out->swaps[0].kind), "file");
			out->swaps[0].size_kb = m->swap_total_kb;
			n = 1;
		}
	}
	out->nswaps = n;
	out->zswap = b == SWAP_VARY_ZSWAP;
}

/* A pool run for the store run being read, on machine m (backend: -1, or the
 * swap backend it stands for). Returns its index, or -1. */
static int add_run(struct walk *w, const struct machine *m, int backend)
{
	struct pool *p = w->p;
	struct pool_run *nr;
	double feat[MACHINE_NFEAT];
	int mi;

	machine_features(m, feat);
	if ((mi = find_machine(p, m, feat)) < 0) {
		struct pool_machine *nm = realloc(p->machines, (size_t)(p->nmachines + 1) * sizeof(*nm));
		if (!nm)
			return error("out of memory");
		p->machines = nm;
		mi = p->nmachines++;
		memset(&nm[mi], 0, sizeof(nm[mi]));
		nm[mi].m = *m;
		memcpy(nm[mi].feat, feat, sizeof(feat));
		nm[mi].own = w->target && machine_same(m, w->target);
	}
	if (!(nr = realloc(p->runs, (size_t)(p->nruns + 1) * sizeof(*nr))))
		return error("out of memory");
	p->runs = nr;
	memset(&nr[p->nruns], 0, sizeof(nr[0]));
	snprintf(nr[p->nruns].uuid, sizeof(nr[0].uuid), "%s", w->uuid);
	nr[p->nruns].machine = mi;
	nr[p->nruns].backend = backend;
	memcpy(nr[p->nruns].has_knob, w->has_knob, sizeof(w->has_knob));
	p->machines[mi].nruns++;
	return p->nruns++;
}

/* The backend a trial of a run that varied it ran with, -1 when it does not say. */
static int trial_backend(const char *sj)
{
	json_object *o = json_tokener_parse(sj), *v;
	int b = -1;

	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, swap_knob.name, &v) &&
	    json_object_is_type(v, json_type_string))
		for (int i = 0; i < SWAP_VARY_N; i++)
			if (strcmp(json_object_get_string(v), swap_knob.choices[i]) == 0)
				b = i;
	json_object_put(o);
	return b;
}

/* A repeat's part in its point's spread: the noise the model learns from repeats.
 * The yardstick's trials are 0 by definition and a failure's score is a penalty;
 * neither says anything about the noise. */
static void spread(struct pool_point *pt, double y, bool skip)
{
	double d;

	if (skip)
		return;
	pt->k++;
	d = y - pt->kmean;
	pt->kmean += d / pt->k;
	pt->ss += d * (y - pt->kmean);
}

/* One trial into the pool: averaged with an earlier point of the same settings
 * in the same run. */
static int score_cb(void *arg, long trial_id, const char *kind, const char *sj, double score, bool failed)
{
	struct walk *w = arg;
	struct pool *p = w->p;
	struct pool_run *r;
	long vals[SPACE_MAX];
	bool filled = false, present[SPACE_MAX];
	char why[160];
	double y;
	bool base;
	int i;

	(void)trial_id;
	if ((base = trial_kind_is_baseline(trial_kind_parse(kind))))
		y = 0; /* the run's original settings: its yardstick */
	else if (isfinite(score) && score > 0)
		y = log(score); /* failed trials carry the search's penalty */
	else
		return 0;
	if (w->varied) {
		/* each backend's trials stand for the machine with that swap */
		struct machine mb;
		int b = trial_backend(sj);
		if (b < 0)
			return 0;
		if (w->scan) { /* the first pass: which backends were measured at the original knob values */
			if (settings_parse(sj, w->sp, vals, present, why, sizeof(why)) == 0 &&
			    at_original(w, vals, present))
				w->has_ref[b] = true;
			return 0;
		}
		if (b != w->orig_backend && !w->has_ref[b]) {
			if (!w->said[b])
				verbose("run %.8s: its %s trials were never measured at the original knob values: "
					"no yardstick, left out",
					w->uuid, swap_knob.choices[b]);
			w->said[b] = true;
			return 0;
		}
		if (w->vrun[b] < 0) {
			machine_for_backend(&w->m, b, &mb);
			if ((w->vrun[b] = add_run(w, &mb, b)) < 0)
				return -1;
		}
		w->run = w->vrun[b];
	}
	r = &p->runs[w->run];
	if (settings_parse(sj, w->sp, vals, present, why, sizeof(why)) < 0)
		return 0;
	for (i = 0; i < w->sp->d; i++)
		if (!present[i]) {
			vals[i] = w->fill[i];
			filled = true;
		}
	for (i = p->npts - 1; i >= 0 && p->pts[i].run >= w->run_first; i--)
		if (p->pts[i].run == w->run && memcmp(p->pts[i].vals, vals, sizeof(long) * (size_t)w->sp->d) == 0) {
			p->pts[i].y += (y - p->pts[i].y) / (p->pts[i].n + 1);
			p->pts[i].n++;
			spread(&p->pts[i], y, base || failed);
			r->ntrials++;
			p->ntrials++;
			return 0;
		}
	if ((size_t)p->npts == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 256;
		struct pool_point *np = realloc(p->pts, cap * sizeof(*np));
		if (!np)
			return error("out of memory");
		p->pts = np;
		w->cap = cap;
	}
	memset(&p->pts[p->npts], 0, sizeof(p->pts[0]));
	p->pts[p->npts].run = w->run;
	memcpy(p->pts[p->npts].vals, vals, sizeof(long) * (size_t)w->sp->d);
	p->pts[p->npts].y = y;
	p->pts[p->npts].n = 1;
	p->pts[p->npts].filled = filled;
	spread(&p->pts[p->npts], y, base || failed);
	p->npts++;
	r->ntrials++;
	p->ntrials++;
	return 0;
}

/* A run that varied the swap backend scored every trial against the baselines of
 * its original backend. Each other backend's pool run is brought to its own
 * yardstick: its point at the run's original knob values becomes 0 and the others
 * move with it (score_cb left out the backends that never had such a point). */
static void rereference(struct walk *w, int orig_backend)
{
	struct pool *p = w->p;
	bool present[SPACE_MAX];
	int r, i;

	for (i = 0; i < w->sp->d; i++)
		present[i] = true;
	for (r = w->run_first; r < p->nruns; r++) {
		double y0 = NAN;
		if (p->runs[r].backend == orig_backend)
			continue;
		for (i = 0; i < p->npts && !isfinite(y0); i++)
			if (p->pts[i].run == r && at_original(w, p->pts[i].vals, present))
				y0 = p->pts[i].y;
		for (i = 0; i < p->npts && isfinite(y0); i++)
			if (p->pts[i].run == r)
				p->pts[i].y -= y0;
	}
}

static int load_cb(void *arg, long id, const char *uuid, const char *status, const char *mj, const char *cj)
{
	struct walk *w = arg;
	struct pool *p = w->p;
	static struct run_config cfg;
	json_object *mo;
	int i, b, rc;

	(void)status;
	if (excluded(w, id) || run_config_parse(cj, &cfg) < 0 || !run_matches(w->q, &cfg))
		return 0;
	mo = json_tokener_parse(mj);
	rc = machine_from_json(mo, &w->m);
	json_object_put(mo);
	if (rc < 0)
		return 0;
	for (i = 0; i < p->nruns; i++)
		if (strcmp(p->runs[i].uuid, uuid) == 0) /* the same run in two stores */
			return 0;
	w->uuid = uuid;
	/* a knob the run did not search stood at its original value there: the
	 * config has it when the run knew it, else the kernel's default; the swap
	 * backend, where it was not searched, is the run's --swap */
	for (i = 0; i < w->sp->d; i++) {
		const struct knob_def *d = w->sp->dim[i].def;
		int k = run_config_knob(&cfg, d->name);
		w->fill[i] = k >= 0 && cfg.has_original[k] ? cfg.originals[k] : knob_default(d);
		if (d == &swap_knob && k < 0) {
			struct swap_spec ss;
			char why[160];
			w->fill[i] = cfg.swap_backend[0] &&
					     swap_spec_parse(cfg.swap_backend, &ss, why, sizeof(why)) == 0 &&
					     swap_spec_vary_index(&ss) >= 0
					 ? swap_spec_vary_index(&ss)
					 : SWAP_VARY_FILE;
		}
		w->has_knob[i] = k >= 0;
	}
	w->varied = run_config_knob(&cfg, swap_knob.name) >= 0;
	w->run_first = p->nruns;
	for (b = 0; b < SWAP_VARY_N; b++) {
		w->vrun[b] = -1;
		w->has_ref[b] = w->said[b] = false;
	}
	if (w->varied) {
		struct swap_spec ss;
		char why[160];
		int k = run_config_knob(&cfg, swap_knob.name);
		w->orig_backend = cfg.has_original[k] ? (int)cfg.originals[k]
				  : cfg.swap_backend[0] && swap_spec_parse(cfg.swap_backend, &ss, why, sizeof(why)) == 0
				      ? swap_spec_vary_index(&ss)
				      : SWAP_VARY_FILE;
		w->scan = true;
		rc = store_scores_each(w->db, id, score_cb, w);
		w->scan = false;
		if (rc < 0)
			return -1;
	}
	if (!w->varied && (w->run = add_run(w, &w->m, -1)) < 0)
		return -1;
	rc = store_scores_each(w->db, id, score_cb, w);
	if (rc == 0 && w->varied)
		rereference(w, w->orig_backend);
	for (i = w->run_first; i < p->nruns; i++)
		p->machines[p->runs[i].machine].ntrials += p->runs[i].ntrials;
	return rc;
}

static int by_y(const void *a, const void *b)
{
	const struct pool_point *x = a, *y = b;

	return (x->y > y->y) - (x->y < y->y);
}

/* Keep at most POOL_CAP points: this machine's first, then the best of the
 * others, then an even spread of the rest. */
static void thin(struct pool *p)
{
	struct pool_point *keep, *rest;
	int nk = 0, nr = 0, i, best, spread;

	if (p->npts <= POOL_CAP)
		return;
	keep = malloc(sizeof(*keep) * (size_t)p->npts);
	rest = malloc(sizeof(*rest) * (size_t)p->npts);
	if (!keep || !rest) {
		free(keep);
		free(rest);
		return;
	}
	for (i = 0; i < p->npts; i++) {
		if (p->machines[p->runs[p->pts[i].run].machine].own && nk < POOL_CAP * 2 / 3)
			keep[nk++] = p->pts[i];
		else
			rest[nr++] = p->pts[i];
	}
	qsort(rest, (size_t)nr, sizeof(*rest), by_y);
	best = (POOL_CAP - nk) / 3;
	for (i = 0; i < best && i < nr; i++)
		keep[nk++] = rest[i];
	spread = POOL_CAP - nk;
	for (i = 0; i < spread && best < nr; i++)
		keep[nk++] = rest[best + (int)((long)i * (nr - best) / spread)];
	free(p->pts);
	free(rest);
	p->pts = keep;
	p->npts = nk;
}

int pool_load(struct pool *p, const struct pool_query *q, const struct space *sp, const struct machine *target)
{
	struct walk w = { .q = q, .p = p, .sp = sp, .target = target };

	memset(p, 0, sizeof(*p));
	if (walk_stores(&w, load_cb) < 0) {
		pool_free(p);
		return -1;
	}
	thin(p);
	return 0;
}

void pool_free(struct pool *p)
{
	free(p->machines);
	free(p->runs);
	free(p->pts);
	memset(p, 0, sizeof(*p));
}

int pool_dims(const struct space *sp)
{
	return sp->d + MACHINE_NFEAT;
}

void pool_categorical(const struct space *sp, bool *cat)
{
	memcpy(cat, sp->categorical, sizeof(bool) * (size_t)sp->d);
	memcpy(cat + sp->d, machine_feature_categorical, sizeof(bool) * MACHINE_NFEAT);
}

void pool_encode(const struct space *sp, const long *vals, const double *feat, double *x)
{
	space_encode_point(sp, vals, x);
	memcpy(x + sp->d, feat, sizeof(double) * MACHINE_NFEAT);
}
