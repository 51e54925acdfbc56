/* sim - simulated workloads whose answer is known, for checking what a search finds
 * and what its claims are worth. Each scores the knob files of the --root tree it
 * runs on ($VMTUNE_ROOT) and prints value=... (what a run measured) and true=... (the
 * cost without noise); noise is multiplicative, exp(NOISE * N(0,1)), and seeded:
 * $VMTUNE_ROOT/seed (default 1) and a counter of draws in $VMTUNE_ROOT/draws give
 * each measurement its own normal deviate (splitmix64 of the pair, Box-Muller), so a
 * search is repeatable. A program rather than a script: a search measures it a
 * hundred times or more, and the tests and benches run many searches.
 *
 *   sim effect EFFECT NOISE   the cost is 10, EFFECT lower (0.10: 10%) when
 *                             vm.page-cluster >= 5; nothing else matters
 *                             (tests/cli/test-confirm.sh, bench/confirm.sh)
 *   sim hard NOISE            eight knobs (bench/peers.sh): a bowl in page-cluster and
 *                             swappiness with an interaction, vfs_cache_pressure,
 *                             watermark_scale_factor on a log scale,
 *                             compaction_proactiveness, thp.enabled (an enum: madvise
 *                             best, never +4%, always +10%), and dirty_ratio and
 *                             dirty_expire_centisecs that do nothing; minimum 10 at
 *                             page-cluster 4, swappiness 140, vfs_cache_pressure 200,
 *                             watermark_scale_factor 80, compaction_proactiveness 10,
 *                             thp madvise. It fails (exit 1, as a workload the OOM
 *                             killer took) where page-cluster >= 5 with swappiness >= 170,
 *                             and where watermark_scale_factor > 300 with
 *                             compaction_proactiveness > 35.
 *   sim rough NOISE           the same knobs, optimum, failing region and thp levels, but
 *                             no bowl: a kink in page-cluster (11.7% a step below 4, 15%
 *                             above), a cusp in swappiness (20% sqrt|b|, the same
 *                             interaction), a well with flat walls in
 *                             watermark_scale_factor (at most 25%), a 6% step below
 *                             vfs_cache_pressure 132 and V shapes elsewhere; the
 *                             original settings 66.6% above the optimum. What the
 *                             search's quadratic trend does where the truth has none
 *                             (rough-at and rough-true as for hard)
 *   sim hard-at NOISE KNOB=VALUE...  one measurement of the hard surface at those
 *                             settings (the others at the tree's defaults) instead of
 *                             the tree's: how bench/peers.py measures for Optuna
 *   sim sparse NOISE [MB]     ten knobs of which two matter (the ablation's test and
 *                             bench/ablation.sh): the cost is 10 exp(-0.2 pc/6)
 *                             exp(-0.12 (swappiness - 10)/190), lowest (27% under the
 *                             original's 8.05) at page-cluster 6 and swappiness 200;
 *                             vfs_cache_pressure, dirty_ratio, dirty_background_ratio,
 *                             dirty_expire_centisecs, dirty_writeback_centisecs,
 *                             watermark_scale_factor, watermark_boost_factor and
 *                             compaction_proactiveness do nothing. With MB, each run
 *                             also touches MB x page-cluster/6 megabytes, so that the
 *                             best setting's footprint is larger (a guard to break)
 *   sim hard-true KNOB=VALUE...  the hard surface's true cost at those settings (the
 *                             others at their defaults), or "failed"; for the bench
 *
 * Exits 2 on a tree it cannot read or bad arguments. */
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "sim"
#include "rng.h"

/* the first number in ROOT/NAME (or, for an enum file such as "always [madvise] never",
 * its chosen word in word); dflt when the file is absent and not required */
static long read_knob(const char *root, const char *name, long dflt, int must, char *word, size_t wsize)
{
	char path[4096], buf[256], *a, *b;
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "r");
	if (!f) {
		if (must)
			die("cannot read", path);
		return dflt;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (word) { /* the kernel's "a [b] c", or the plain word a --root tree holds after a write */
		a = strchr(buf, '[');
		a = a ? a + 1 : buf;
		b = a != buf ? strchr(a, ']') : a + strcspn(a, " \n");
		if (!b || b == a || (size_t)(b - a) >= wsize)
			die("no choice", path);
		memcpy(word, a, (size_t)(b - a));
		word[b - a] = '\0';
		return 0;
	}
	if (sscanf(buf, "%ld", &v) != 1) {
		if (must)
			die("not a number", path);
		v = dflt;
	}
	return v;
}

/* the next normal deviate of this tree's seeded stream */
static double draw(const char *root)
{
	char path[4096];
	long seed = read_knob(root, "seed", 1, 0, NULL, 0), n = read_knob(root, "draws", 0, 0, NULL, 0);
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

/* --- the hard surface ----------------------------------------------------------------- */

struct hard {
	double pc, sw, vfs, wsf, cp, dr, dec;
	char thp[32];
};

static const struct hard hard_defaults = { 3, 60, 100, 10, 20, 20, 3000, "madvise" };

static bool rough; /* the rough surface instead: the same knobs, optimum and failing region, no bowl */

/* the true cost, or NAN where the workload fails */
static double hard_cost(const struct hard *h)
{
	double a = (h->pc - 4) / 3, b = (h->sw - 140) / 95, v = (h->vfs - 200) / 225;
	double c = (log2(h->wsf > 1 ? h->wsf : 1) - log2(80)) / 2.8, p = (h->cp - 10) / 40, t;

	if ((h->pc >= 5 && h->sw >= 170) || (h->wsf > 300 && h->cp > 35))
		return NAN;
	t = !strcmp(h->thp, "never") ? 0.04 : !strcmp(h->thp, "always") ? 0.10 : 0;
	if (rough) /* a kink, a cusp, a well with flat walls, a step, a V */
		return 10 *
		       (1 + (a < 0 ? -0.35 * a : 0.45 * a) + 0.20 * sqrt(fabs(b)) + 0.15 * a * b +
			0.25 * (1 - exp(-3 * c * c)) + (v < -0.3 ? 0.06 : 0) + 0.02 * fabs(v) + 0.05 * fabs(p) + t);
	return 10 * (1 + 0.30 * a * a + 0.20 * b * b + 0.15 * a * b + 0.20 * c * c + 0.08 * v * v + 0.05 * p * p + t);
}

static int hard_set(struct hard *h, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : 0;
	struct {
		const char *name;
		double *v;
	} num[] = {
		{ "vm.page-cluster", &h->pc },
		{ "vm.swappiness", &h->sw },
		{ "vm.vfs_cache_pressure", &h->vfs },
		{ "vm.watermark_scale_factor", &h->wsf },
		{ "vm.compaction_proactiveness", &h->cp },
		{ "vm.dirty_ratio", &h->dr },
		{ "vm.dirty_expire_centisecs", &h->dec },
	};
	char *end;

	if (!eq)
		return -1;
	if (n == strlen("thp.enabled") && !strncmp(kv, "thp.enabled", n)) {
		if (strlen(eq + 1) >= sizeof(h->thp))
			return -1;
		strcpy(h->thp, eq + 1);
		return 0;
	}
	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		if (n == strlen(num[i].name) && !strncmp(kv, num[i].name, n)) {
			*num[i].v = strtod(eq + 1, &end);
			return *end || end == eq + 1 ? -1 : 0;
		}
	return -1; /* not a knob of this surface */
}

/* one measurement of the hard surface at h: what a run of it prints */
static int hard_measure(const char *root, const struct hard *h, double noise)
{
	double f = hard_cost(h), z = draw(root);

	if (isnan(f)) {
		fprintf(stderr, "sim: killed: out of memory (the surface's failing region)\n");
		return 1;
	}
	printf("value=%.6f\ntrue=%.6f\n", f * exp(noise * z), f);
	return 0;
}

static int hard(const char *root, double noise)
{
	struct hard h;

	h.pc = (double)read_knob(root, "proc/sys/vm/page-cluster", 0, 1, NULL, 0);
	h.sw = (double)read_knob(root, "proc/sys/vm/swappiness", 0, 1, NULL, 0);
	h.vfs = (double)read_knob(root, "proc/sys/vm/vfs_cache_pressure", 0, 1, NULL, 0);
	h.wsf = (double)read_knob(root, "proc/sys/vm/watermark_scale_factor", 0, 1, NULL, 0);
	h.cp = (double)read_knob(root, "proc/sys/vm/compaction_proactiveness", 0, 1, NULL, 0);
	h.dr = (double)read_knob(root, "proc/sys/vm/dirty_ratio", 0, 1, NULL, 0);
	h.dec = (double)read_knob(root, "proc/sys/vm/dirty_expire_centisecs", 0, 1, NULL, 0);
	read_knob(root, "sys/kernel/mm/transparent_hugepage/enabled", 0, 1, h.thp, sizeof(h.thp));
	return hard_measure(root, &h, noise);
}

/* settings from the arguments (the others at their defaults), the noise from the tree's stream */
static int hard_args(struct hard *h, const char *who, int argc, char **argv)
{
	const char *surface = rough ? "rough" : "hard";

	*h = hard_defaults;
	for (int i = 0; i < argc; i++)
		if (hard_set(h, argv[i]) < 0) {
			fprintf(stderr, "sim %s-%s: %s: not KNOB=VALUE of the %s surface\n", surface, who, argv[i],
				surface);
			return -1;
		}
	return 0;
}

static int hard_true(int argc, char **argv)
{
	struct hard h;
	double f;

	if (hard_args(&h, "true", argc, argv) < 0)
		return 2;
	f = hard_cost(&h);
	if (isnan(f))
		printf("failed\n");
	else
		printf("%.6f\n", f);
	return 0;
}

/* --- main ----------------------------------------------------------------------------- */

static const char *need_root(void)
{
	const char *root = getenv("VMTUNE_ROOT");

	if (!root || !*root) {
		fprintf(stderr, "sim: scores a --root tree: VMTUNE_ROOT is not set\n");
		exit(2);
	}
	return root;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "effect")) {
		const char *root = need_root();
		double effect = argc > 2 ? atof(argv[2]) : 0, noise = argc > 3 ? atof(argv[3]) : 0.1, f, z;
		long pc = read_knob(root, "proc/sys/vm/page-cluster", 0, 1, NULL, 0);

		z = draw(root);
		f = 10 * (pc >= 5 ? 1 - effect : 1);
		printf("value=%.6f\ntrue=%.6f\n", f * exp(noise * z), f);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "sparse")) {
		const char *root = need_root();
		double noise = argc > 2 ? atof(argv[2]) : 0.05, mb = argc > 3 ? atof(argv[3]) : 0, f, z;
		long pc = read_knob(root, "proc/sys/vm/page-cluster", 0, 1, NULL, 0);
		long sw = read_knob(root, "proc/sys/vm/swappiness", 0, 1, NULL, 0);

		if (mb > 0) {
			size_t n = (size_t)(mb * pc / 6 * 1048576);
			volatile char *m = n ? malloc(n) : NULL;
			for (size_t i = 0; m && i < n; i += 4096)
				m[i] = 1;
		}
		z = draw(root);
		f = 10 * exp(-0.2 * pc / 6.0) * exp(-0.12 * (sw - 10) / 190.0);
		printf("value=%.6f\ntrue=%.6f\n", f * exp(noise * z), f);
		return 0;
	}
	if (argc >= 2 && !strncmp(argv[1], "rough", 5)) {
		static char name[16];
		rough = true;
		snprintf(name, sizeof(name), "hard%s", argv[1] + 5);
		argv[1] = name;
	}
	if (argc >= 2 && !strcmp(argv[1], "hard"))
		return hard(need_root(), argc > 2 ? atof(argv[2]) : 0.05);
	if (argc >= 2 && !strcmp(argv[1], "hard-true"))
		return hard_true(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "hard-at")) {
		struct hard h;
		const char *root = need_root();

		if (hard_args(&h, "at", argc - 3, argv + 3) < 0)
			return 2;
		return hard_measure(root, &h, atof(argv[2]));
	}
	fprintf(stderr, "usage: sim effect EFFECT NOISE | sim sparse NOISE [MB] | sim hard|rough NOISE | sim "
			"hard-at|rough-at NOISE KNOB=VALUE... | "
			"sim hard-true|rough-true KNOB=VALUE...\n");
	return 2;
}
