/* testfn - standard optimisation test functions from the literature, mapped onto real
 * knob ranges, as simulated workloads whose answer is known: surfaces vmtune's search
 * did not shape, for bench/peers.sh. The conventions are sim.c's: each scores the knob
 * files of the --root tree it runs on ($VMTUNE_ROOT) and prints value=... (what a run
 * measured) and true=... (the cost without noise); noise is multiplicative,
 * exp(NOISE * N(0,1)), seeded by $VMTUNE_ROOT/seed (default 1) and the counter of draws
 * in $VMTUNE_ROOT/draws (the same stream as sim's); a setting in the surface's failing
 * region exits 1 as a workload the OOM killer took.
 *
 * The functions, on their usual domains (Surjanovic and Bingham's Virtual Library of
 * Simulation Experiments; Hartmann-6 with its usual A, P and alpha):
 *   branin       2 coordinates, [-5,10] x [0,15], three global minima (0.397887)
 *   hartmann6    6 coordinates, [0,1]^6, one global minimum (-3.32237) and local ones
 *   levy         4 coordinates, [-10,10]^4, many local minima, the global one at 1
 *   rosenbrock   4 coordinates, [-2.048,2.048]^4, a curved narrow valley, minimum at 1
 *   ackley       4 coordinates, [-32.768,32.768]^4, a needle in ripples, minimum at 0
 *   ackley_off   the same with the box moved to [-13.1072,52.4288]^4: the minimum a fifth
 *                of the way along each coordinate, not at the centre of the box
 *   styblinski   4 coordinates (Styblinski-Tang), [-5,5]^4, 2^4 local minima, the
 *                global one at -2.903534
 * Each coordinate is a knob: the knob's search range (`vmtune knobs --json`: linear, or
 * log2 for vm.watermark_scale_factor) spans the coordinate's domain, moved by less than
 * half a knob step so that the global minimiser falls on knob values (every knob is an
 * integer; vm.page-cluster has seven). Each surface also has an enum knob (thp.enabled
 * or thp.defrag) whose levels add a cost and move the minimum along the first
 * coordinate (its best level is not always the default), two knobs that do nothing, and
 * a failing region given by two knobs, next to the optimum on some surfaces.
 *
 * The cost is 10 (1 + (f(x) - f*) / S + e), f* the value at the minimiser, e the enum
 * level's extra cost, S the median of f - f* over the box (uniform in the coded knobs,
 * 4001 fixed points): at the optimum 10; a gap of 100% above it is what a typical
 * setting of the box costs.
 *
 *   testfn NAME NOISE              one measurement of the tree's knob files
 *   testfn NAME-at NOISE KNOB=VALUE...  one measurement at those settings (the others at
 *                                  the defaults of tests/mkroot.sh), for bench/peers.py
 *   testfn NAME-true KNOB=VALUE... the true cost there, or "failed"
 *   testfn NAME-knobs              the surface's knobs, comma-separated (for --knobs)
 *   testfn NAME-optimum            the optimum as KNOB=VALUE words
 *   testfn NAME-check [N]          the surface checks itself: the optimum costs 10 and
 *                                  does not fail, no knob step or other enum level
 *                                  from it is cheaper, the do-nothing knobs change
 *                                  nothing, and N (default 20000) random settings of
 *                                  the knob grid cost no less than 10; prints S, the
 *                                  original settings' cost and the failing share;
 *                                  exits 1 when a check fails
 *   testfn list                    the surfaces' names
 *
 * Exits 2 on a tree it cannot read or bad arguments. */
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "testfn"
#include "rng.h"

/* --- the knobs: search ranges and defaults as the catalogue and tests/mkroot.sh have them */

enum { PC, SW, VFS, DR, DBR, DEC, DWC, WSF, WBF, CP, THP, DEFRAG, NKNOBS };

static const char *const thp_levels[] = { "always", "madvise", "never", NULL };
static const char *const defrag_levels[] = { "always", "defer", "defer+madvise", "madvise", "never", NULL };

static const struct knob {
	const char *name, *path;
	long lo, hi, def; /* the search range; an enum's levels are 0 .. hi */
	bool log2;
	const char *const *levels;
} knobs[NKNOBS] = {
	[PC] = { "vm.page-cluster", "proc/sys/vm/page-cluster", 0, 6, 3, false, NULL },
	[SW] = { "vm.swappiness", "proc/sys/vm/swappiness", 10, 200, 60, false, NULL },
	[VFS] = { "vm.vfs_cache_pressure", "proc/sys/vm/vfs_cache_pressure", 50, 500, 100, false, NULL },
	[DR] = { "vm.dirty_ratio", "proc/sys/vm/dirty_ratio", 5, 40, 20, false, NULL },
	[DBR] = { "vm.dirty_background_ratio", "proc/sys/vm/dirty_background_ratio", 2, 20, 10, false, NULL },
	[DEC] = { "vm.dirty_expire_centisecs", "proc/sys/vm/dirty_expire_centisecs", 500, 6000, 3000, false, NULL },
	[DWC] = { "vm.dirty_writeback_centisecs", "proc/sys/vm/dirty_writeback_centisecs", 100, 1500, 500, false,
		  NULL },
	[WSF] = { "vm.watermark_scale_factor", "proc/sys/vm/watermark_scale_factor", 10, 500, 10, true, NULL },
	[WBF] = { "vm.watermark_boost_factor", "proc/sys/vm/watermark_boost_factor", 0, 15000, 15000, false, NULL },
	[CP] = { "vm.compaction_proactiveness", "proc/sys/vm/compaction_proactiveness", 0, 50, 20, false, NULL },
	[THP] = { "thp.enabled", "sys/kernel/mm/transparent_hugepage/enabled", 0, 2, 1, false, thp_levels },
	[DEFRAG] = { "thp.defrag", "sys/kernel/mm/transparent_hugepage/defrag", 0, 4, 3, false, defrag_levels },
};

/* a knob's value coded in [0, 1] over its search range (outside it beyond the range) */
static double unit(int k, double v)
{
	const struct knob *kn = &knobs[k];

	if (kn->log2)
		return log2((v > 1 ? v : 1) / kn->lo) / log2((double)kn->hi / kn->lo);
	return (v - kn->lo) / (kn->hi - kn->lo);
}

/* --- the functions -------------------------------------------------------------------- */

static double branin(const double *x)
{
	double b = 5.1 / (4 * M_PI * M_PI), c = 5 / M_PI, t = 1 / (8 * M_PI);
	double q = x[1] - b * x[0] * x[0] + c * x[0] - 6;

	return q * q + 10 * (1 - t) * cos(x[0]) + 10;
}

static double hartmann6(const double *x)
{
	static const double alpha[4] = { 1.0, 1.2, 3.0, 3.2 };
	static const double a[4][6] = {
		{ 10, 3, 17, 3.5, 1.7, 8 },
		{ 0.05, 10, 17, 0.1, 8, 14 },
		{ 3, 3.5, 1.7, 10, 17, 8 },
		{ 17, 8, 0.05, 10, 0.1, 14 },
	};
	static const double p[4][6] = {
		{ 0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886 },
		{ 0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991 },
		{ 0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650 },
		{ 0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381 },
	};
	double f = 0;

	for (int i = 0; i < 4; i++) {
		double s = 0;

		for (int j = 0; j < 6; j++)
			s += a[i][j] * (x[j] - p[i][j]) * (x[j] - p[i][j]);
		f -= alpha[i] * exp(-s);
	}
	return f;
}

static double levy(const double *x)
{
	double w[4], f;

	for (int i = 0; i < 4; i++)
		w[i] = 1 + (x[i] - 1) / 4;
	f = pow(sin(M_PI * w[0]), 2);
	for (int i = 0; i < 3; i++)
		f += (w[i] - 1) * (w[i] - 1) * (1 + 10 * pow(sin(M_PI * w[i] + 1), 2));
	return f + (w[3] - 1) * (w[3] - 1) * (1 + pow(sin(2 * M_PI * w[3]), 2));
}

static double rosenbrock(const double *x)
{
	double f = 0;

	for (int i = 0; i < 3; i++)
		f += 100 * pow(x[i + 1] - x[i] * x[i], 2) + pow(x[i] - 1, 2);
	return f;
}

static double ackley(const double *x)
{
	double s2 = 0, sc = 0;

	for (int i = 0; i < 4; i++) {
		s2 += x[i] * x[i];
		sc += cos(2 * M_PI * x[i]);
	}
	return -20 * exp(-0.2 * sqrt(s2 / 4)) - exp(sc / 4) + 20 + M_E;
}

static double styblinski(const double *x)
{
	double f = 0;

	for (int i = 0; i < 4; i++)
		f += pow(x[i], 4) - 16 * x[i] * x[i] + 5 * x[i];
	return f / 2;
}

/* --- the surfaces --------------------------------------------------------------------- */

#define MAXD 6

struct surface {
	const char *name;
	double (*f)(const double *x);
	int d;
	struct {
		int knob;
		double lo, hi, xstar; /* the domain the knob's range spans; the minimiser's coordinate */
	} c[MAXD];
	int enumknob;
	double extra[5], shift[5]; /* each level's extra cost (in S) and its move of the first coordinate (in units) */
	int noop[2];
	struct {
		int a, b;
		double ta, tb;
		bool a_above, b_above;
	} fail; /* fails where knob a's coded value is above (or below) ta and knob b's above (or below) tb */
	/* computed once: the knob values of the minimiser, f there, S */
	long kstar[MAXD];
	int estar;
	double fstar, scale;
};

/* clang-format off */
static struct surface surfaces[] = {
	{ "branin", branin, 2,
	  { { SW, -5, 10, M_PI }, { WSF, 0, 15, 2.275 } },
	  THP, { 0, 0.05, 0.12 }, { 0, 0.10, -0.10 },
	  { DR, DEC },
	  { SW, WSF, 0.85, 0.35, true, false } }, /* the third minimum, (9.42478, 2.475), fails */
	{ "hartmann6", hartmann6, 6,
	  { { PC, 0, 1, 0.20169 }, { SW, 0, 1, 0.150011 }, { VFS, 0, 1, 0.476874 }, { WSF, 0, 1, 0.275332 },
	    { CP, 0, 1, 0.311652 }, { DWC, 0, 1, 0.6573 } },
	  DEFRAG, { 0.08, 0, 0.03, 0.05, 0.10 }, { 0, 0, 0.10, -0.10, 0 },
	  { DR, DEC },
	  { PC, SW, 0.25, 0.1, true, false } }, /* page-cluster >= 2 with swappiness below 29: next to the optimum */
	{ "levy", levy, 4,
	  { { SW, -10, 10, 1 }, { VFS, -10, 10, 1 }, { WBF, -10, 10, 1 }, { WSF, -10, 10, 1 } },
	  THP, { 0.10, 0, 0.04 }, { 0, 0, 0.20 },
	  { DBR, DWC },
	  { VFS, WBF, 0.65, 0.7, true, true } },
	{ "rosenbrock", rosenbrock, 4,
	  { { SW, -2.048, 2.048, 1 }, { VFS, -2.048, 2.048, 1 }, { CP, -2.048, 2.048, 1 }, { WSF, -2.048, 2.048, 1 } },
	  DEFRAG, { 0.06, 0.03, 0, 0.04, 0.10 }, { 0, 0.05, 0, 0, -0.10 },
	  { DR, DEC },
	  { SW, VFS, 0.8, 0.8, true, true } },
	{ "ackley", ackley, 4,
	  { { SW, -32.768, 32.768, 0 }, { VFS, -32.768, 32.768, 0 }, { WSF, -32.768, 32.768, 0 },
	    { WBF, -32.768, 32.768, 0 } },
	  THP, { 0.05, 0.08, 0 }, { 0.10, 0, 0 },
	  { DBR, DEC },
	  { SW, WSF, 0.3, 0.75, false, true } },
	/* Ackley again with its box moved, the minimiser a fifth of the way along each coordinate
	 * instead of at the centre (where a sampler that starts at the centre of the box starts) */
	{ "ackley_off", ackley, 4,
	  { { SW, -13.1072, 52.4288, 0 }, { VFS, -13.1072, 52.4288, 0 }, { WSF, -13.1072, 52.4288, 0 },
	    { WBF, -13.1072, 52.4288, 0 } },
	  THP, { 0.05, 0.08, 0 }, { 0.10, 0, 0 },
	  { DBR, DEC },
	  { SW, WSF, 0.3, 0.75, false, true } },
	{ "styblinski", styblinski, 4,
	  { { PC, -5, 5, -2.903534 }, { SW, -5, 5, -2.903534 }, { CP, -5, 5, -2.903534 }, { WSF, -5, 5, -2.903534 } },
	  DEFRAG, { 0, 0.02, 0.04, 0.06, 0.10 }, { 0, 0.20, 0, 0, 0 },
	  { DR, DWC },
	  { SW, CP, 0.15, 0.15, false, false } }, /* next to the optimum (0.21, 0.21) */
};
/* clang-format on */

#define NSURF (sizeof(surfaces) / sizeof(surfaces[0]))

/* a setting: every knob's value (an enum's level index) */
struct setting {
	double v[NKNOBS];
};

static struct setting defaults(void)
{
	struct setting s;

	for (int k = 0; k < NKNOBS; k++)
		s.v[k] = (double)knobs[k].def;
	return s;
}

static bool fails(const struct surface *sf, const struct setting *s)
{
	double ua = unit(sf->fail.a, s->v[sf->fail.a]), ub = unit(sf->fail.b, s->v[sf->fail.b]);

	return (sf->fail.a_above ? ua > sf->fail.ta : ua < sf->fail.ta) &&
	       (sf->fail.b_above ? ub > sf->fail.tb : ub < sf->fail.tb);
}

/* f at a setting: each coordinate from its knob, the enum level's move of the first */
static double f_at(const struct surface *sf, const struct setting *s)
{
	double x[MAXD];
	int e = (int)s->v[sf->enumknob];

	for (int i = 0; i < sf->d; i++) {
		int k = sf->c[i].knob;
		double w = sf->c[i].hi - sf->c[i].lo;

		x[i] = sf->c[i].xstar + (unit(k, s->v[k]) - unit(k, (double)sf->kstar[i])) * w;
	}
	x[0] += sf->shift[e] * (sf->c[0].hi - sf->c[0].lo);
	return sf->f(x);
}

/* the true cost, or NAN where the workload fails */
static double cost(const struct surface *sf, const struct setting *s)
{
	int e = (int)s->v[sf->enumknob];

	if (fails(sf, s))
		return NAN;
	return 10 * (1 + (f_at(sf, s) - sf->fstar) / sf->scale + sf->extra[e]);
}

static struct setting optimum(const struct surface *sf)
{
	struct setting s = defaults();

	for (int i = 0; i < sf->d; i++)
		s.v[sf->c[i].knob] = (double)sf->kstar[i];
	s.v[sf->enumknob] = sf->estar;
	return s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the knob values nearest the minimiser, f there, and S */
static void prepare(struct surface *sf)
{
	enum { NS = 4001 };
	static double g[NS];
	uint64_t r = 0x5eed5eedULL;
	struct setting s;

	for (int i = 0; i < sf->d; i++) {
		int k = sf->c[i].knob;
		double ustar = (sf->c[i].xstar - sf->c[i].lo) / (sf->c[i].hi - sf->c[i].lo), best = INFINITY;

		for (long v = knobs[k].lo; v <= knobs[k].hi; v++)
			if (fabs(unit(k, (double)v) - ustar) < best) {
				best = fabs(unit(k, (double)v) - ustar);
				sf->kstar[i] = v;
			}
	}
	sf->estar = 0;
	for (int e = 0; e <= knobs[sf->enumknob].hi; e++)
		if (sf->extra[e] == 0 && sf->shift[e] == 0)
			sf->estar = e;
	s = optimum(sf);
	sf->fstar = f_at(sf, &s);
	/* S: uniform points of the continuous box at the best enum level */
	for (int n = 0; n < NS; n++) {
		for (int i = 0; i < sf->d; i++) {
			int k = sf->c[i].knob;
			double u = uniform(&r);

			s.v[k] = knobs[k].log2 ? knobs[k].lo * pow((double)knobs[k].hi / knobs[k].lo, u)
					       : knobs[k].lo + u * (knobs[k].hi - knobs[k].lo);
		}
		g[n] = f_at(sf, &s) - sf->fstar;
	}
	qsort(g, NS, sizeof(g[0]), cmp_double);
	sf->scale = g[NS / 2];
}

/* KNOB=VALUE into a setting; -1 when it is not a knob of this surface or not a value of it */
static int set_kv(const struct surface *sf, struct setting *s, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : 0;
	char *end;

	if (!eq)
		return -1;
	for (int k = 0; k < NKNOBS; k++) {
		bool used = k == sf->enumknob || k == sf->noop[0] || k == sf->noop[1];

		for (int i = 0; i < sf->d; i++)
			used |= sf->c[i].knob == k;
		if (!used || n != strlen(knobs[k].name) || strncmp(kv, knobs[k].name, n))
			continue;
		if (knobs[k].levels) {
			for (int e = 0; knobs[k].levels[e]; e++)
				if (!strcmp(eq + 1, knobs[k].levels[e])) {
					s->v[k] = e;
					return 0;
				}
			return -1;
		}
		s->v[k] = strtod(eq + 1, &end);
		return *end || end == eq + 1 ? -1 : 0;
	}
	return -1;
}

static void print_setting(const struct surface *sf, const struct setting *s, const char *sep)
{
	for (int i = 0; i < sf->d; i++)
		printf("%s=%.0f%s", knobs[sf->c[i].knob].name, s->v[sf->c[i].knob], sep);
	printf("%s=%s", knobs[sf->enumknob].name, knobs[sf->enumknob].levels[(int)s->v[sf->enumknob]]);
	for (int j = 0; j < 2; j++)
		printf("%s%s=%.0f", sep, knobs[sf->noop[j]].name, s->v[sf->noop[j]]);
	printf("\n");
}

/* --- measuring ------------------------------------------------------------------------ */

/* the first number in ROOT/PATH, or an enum file's chosen word ("always [madvise] never",
 * or the plain word a --root tree holds after a write) as its level */
static double read_knob(const char *root, int k)
{
	char path[4096], buf[256], *a, *b;
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, knobs[k].path);
	f = fopen(path, "r");
	if (!f)
		die("cannot read", path);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (knobs[k].levels) {
		a = strchr(buf, '[');
		a = a ? a + 1 : buf;
		b = a != buf ? strchr(a, ']') : a + strcspn(a, " \n");
		if (!b || b == a)
			die("no choice", path);
		*b = '\0';
		for (int e = 0; knobs[k].levels[e]; e++)
			if (!strcmp(a, knobs[k].levels[e]))
				return e;
		die("not a level of this knob", path);
	}
	if (sscanf(buf, "%ld", &v) != 1)
		die("not a number", path);
	return (double)v;
}

static long read_count(const char *root, const char *name, long dflt)
{
	char path[4096];
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/* the next normal deviate of this tree's seeded stream (as sim's) */
static double draw(const char *root)
{
	char path[4096];
	long seed = read_count(root, "seed", 1), n = read_count(root, "draws", 0);
	uint64_t s;
	FILE *w;

	snprintf(path, sizeof(path), "%s/draws", root);
	w = fopen(path, "w");
	if (!w || fprintf(w, "%ld\n", n + 1) < 0 || fclose(w) != 0)
		die("cannot write", path);
	s = (uint64_t)seed * 0xd1342543de82ef95ULL ^ (uint64_t)n;
	splitmix64(&s);
	return sqrt(-2 * log(uniform(&s))) * cos(2 * M_PI * uniform(&s));
}

static int measure(const char *root, const struct surface *sf, const struct setting *s, double noise)
{
	double c = cost(sf, s), z = draw(root);

	if (isnan(c)) {
		fprintf(stderr, "testfn: killed: out of memory (the surface's failing region)\n");
		return 1;
	}
	printf("value=%.6f\ntrue=%.6f\n", c * exp(noise * z), c);
	return 0;
}

static const char *need_root(void)
{
	const char *root = getenv("VMTUNE_ROOT");

	if (!root || !*root) {
		fprintf(stderr, "testfn: scores a --root tree: VMTUNE_ROOT is not set\n");
		exit(2);
	}
	return root;
}

static int args(const struct surface *sf, struct setting *s, const char *form, int argc, char **argv)
{
	*s = defaults();
	for (int i = 0; i < argc; i++)
		if (set_kv(sf, s, argv[i]) < 0) {
			fprintf(stderr, "testfn %s-%s: %s: not KNOB=VALUE of the %s surface\n", sf->name, form, argv[i],
				sf->name);
			return -1;
		}
	return 0;
}

/* --- the self-check ------------------------------------------------------------------- */

static int check(const struct surface *sf, long n)
{
	struct setting o = optimum(sf), s, d = defaults();
	double c, lo = INFINITY;
	uint64_t r = 0xc0ffeeULL;
	long nfail = 0;
	int bad = 0;

	c = cost(sf, &o);
	if (isnan(c) || fabs(c - 10) > 1e-9) {
		printf("not ok: the optimum costs %f, not 10\n", c);
		bad++;
	}
	for (int k = 0; k < NKNOBS; k++) /* one step of each knob, each other enum level */
		for (long v = knobs[k].lo; v <= knobs[k].hi; v++) {
			if (!knobs[k].levels && fabs(v - o.v[k]) != 1)
				continue;
			s = o;
			s.v[k] = (double)v;
			c = cost(sf, &s);
			if (!isnan(c) && c < 10 - 1e-9) {
				printf("not ok: %s=%ld from the optimum costs %f\n", knobs[k].name, v, c);
				bad++;
			}
		}
	for (int j = 0; j < 2; j++) {
		int k = sf->noop[j];

		s = o;
		s.v[k] = knobs[k].lo;
		if (cost(sf, &s) != cost(sf, &o)) {
			printf("not ok: %s changes the cost\n", knobs[k].name);
			bad++;
		}
	}
	for (long i = 0; i < n; i++) {
		for (int k = 0; k < NKNOBS; k++)
			s.v[k] = (double)(knobs[k].lo + (long)(uniform(&r) * (knobs[k].hi - knobs[k].lo + 1)));
		c = cost(sf, &s);
		if (isnan(c)) {
			nfail++;
			continue;
		}
		if (c < lo)
			lo = c;
	}
	if (lo < 10 - 1e-9) {
		printf("not ok: a random setting costs %f, below the optimum\n", lo);
		bad++;
	}
	c = cost(sf, &d);
	if (isnan(c)) {
		printf("not ok: the original settings fail\n");
		bad++;
	}
	printf("%s: S %.6g, f* %.6g, the original settings %.4f (%.1f%% above the optimum), lowest of %ld random "
	       "settings %.4f, %.1f%% of them failing: %s\n",
	       sf->name, sf->scale, sf->fstar, c, 10 * (c - 10), n, lo, 100.0 * nfail / n, bad ? "not ok" : "ok");
	return bad ? 1 : 0;
}

/* --- main ----------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct surface *sf = NULL;
	const char *form = "";
	struct setting s;

	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (size_t i = 0; i < NSURF; i++)
			printf("%s\n", surfaces[i].name);
		return 0;
	}
	for (size_t i = 0; argc >= 2 && i < NSURF; i++) {
		size_t n = strlen(surfaces[i].name);

		if (!strncmp(argv[1], surfaces[i].name, n) && (argv[1][n] == '\0' || argv[1][n] == '-')) {
			sf = &surfaces[i];
			form = argv[1] + n;
		}
	}
	if (!sf)
		goto usage;
	prepare(sf);
	if (!strcmp(form, "") && argc >= 2) {
		const char *root = need_root();

		for (int k = 0; k < NKNOBS; k++)
			s.v[k] = k == sf->enumknob || k == sf->noop[0] || k == sf->noop[1] ? read_knob(root, k)
											   : (double)knobs[k].def;
		for (int i = 0; i < sf->d; i++)
			s.v[sf->c[i].knob] = read_knob(root, sf->c[i].knob);
		return measure(root, sf, &s, argc > 2 ? atof(argv[2]) : 0.05);
	}
	if (!strcmp(form, "-at") && argc >= 3) {
		const char *root = need_root();

		if (args(sf, &s, "at", argc - 3, argv + 3) < 0)
			return 2;
		return measure(root, sf, &s, atof(argv[2]));
	}
	if (!strcmp(form, "-true")) {
		double c;

		if (args(sf, &s, "true", argc - 2, argv + 2) < 0)
			return 2;
		c = cost(sf, &s);
		if (isnan(c))
			printf("failed\n");
		else
			printf("%.6f\n", c);
		return 0;
	}
	if (!strcmp(form, "-knobs") && argc == 2) {
		s = optimum(sf);
		for (int i = 0; i < sf->d; i++)
			printf("%s,", knobs[sf->c[i].knob].name);
		printf("%s,%s,%s\n", knobs[sf->enumknob].name, knobs[sf->noop[0]].name, knobs[sf->noop[1]].name);
		return 0;
	}
	if (!strcmp(form, "-optimum") && argc == 2) {
		s = optimum(sf);
		print_setting(sf, &s, " ");
		return 0;
	}
	if (!strcmp(form, "-check") && argc <= 3)
		return check(sf, argc == 3 ? atol(argv[2]) : 20000);
usage:
	fprintf(stderr,
		"usage: testfn NAME NOISE | testfn NAME-at NOISE KNOB=VALUE... | testfn NAME-true KNOB=VALUE... "
		"| testfn NAME-knobs | testfn NAME-optimum | testfn NAME-check [N] | testfn list\n");
	return 2;
}
