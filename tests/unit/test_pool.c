/* test_pool.c - the pool and the model on stores written here with known costs:
 * the pool takes the runs of the same workloads and objective (the same workload
 * in other words too), one point per distinct setting of a run with the mean of
 * its log costs, marks this machine's runs, and leaves out other workloads, other
 * objectives, unscored trials and the excluded run; the model fitted to a bowl
 * in page-cluster predicts the bowl (lowest at its bottom, higher at the rim,
 * with a band that grows away from the data) and recommends its bottom. A run
 * that varied the swap backend (the pseudo-knob swap) is one pool run per backend,
 * each on the machine as that backend makes it (zram: compressed swap; zswap on
 * for file+zswap), with its trials averaged per setting even when interleaved, and
 * its costs relative to that backend at the run's original knob values; a backend
 * never measured there has no yardstick and is left out. */
#include <math.h>

#include "testutil.h"
#include "advice.h"
#include "machine.h"
#include "model.h"
#include "pool.h"
#include "runconfig.h"
#include "space.h"
#include "store.h"
#include "swap.h"

static char db[PATH_MAX + 16];
static struct machine me, other;
static struct space sp;

static long run_of(struct store *s, const char *spec, const char *objective, const struct machine *m)
{
	struct run_config c;
	char *cfg, *mj;
	long run;

	memset(&c, 0, sizeof(c));
	c.nwl = 1;
	snprintf(c.wl[0].spec, sizeof(c.wl[0].spec), "%s", spec);
	snprintf(c.wl[0].metric, sizeof(c.wl[0].metric), "elapsed");
	c.wl[0].weight = 1;
	c.nknobs = 1;
	snprintf(c.knobs[0], sizeof(c.knobs[0]), "vm.page-cluster");
	snprintf(c.strategy, sizeof(c.strategy), "bo");
	snprintf(c.objective, sizeof(c.objective), "%s", objective);
	c.trials = 10;
	cfg = run_config_json(&c);
	mj = machine_json(m);
	run = store_run_begin(s, cfg, mj);
	free(cfg);
	free(mj);
	assert_true(run > 0);
	return run;
}

static void trial(struct store *s, long run, int seq, const char *kind, long pc, double score)
{
	char sj[64];

	snprintf(sj, sizeof(sj), "{\"vm.page-cluster\":%ld}", pc);
	assert_true(store_trial_add(s, run, seq, kind, sj, score, false) > 0);
}

/* the bowl: cost exp(0.02 (pc - 4)^2) relative to the original (pc 3 costs exp(0.02)) */
static double bowl(long pc)
{
	return exp(0.02 * (double)((pc - 4) * (pc - 4)) - 0.02);
}

/* A run of swapbench that varied page-cluster and the swap backend. */
static void varied_run(struct store *s)
{
	static const struct {
		const char *kind, *swap;
		long pc;
		double score;
	} t[] = {
		{ "baseline", "file", 3, 1 },	       { "candidate", "zram", 0, 0.5 }, { "candidate", "file", 6, 0.8 },
		{ "repeat", "zram", 0, 0.52 },	       { "candidate", "zram", 3, 0.6 }, /* zram's yardstick: the
											   original knob values */
		{ "candidate", "file+zswap", 2, 0.9 }, /* file+zswap never at page-cluster 3: no yardstick */
		{ "candidate", "floppy", 3, 0.1 },     /* a backend vmtune never had: left out */
	};
	struct run_config c;
	struct machine m = me;
	char *cfg, *mj, sj[96];
	long run;

	memset(&c, 0, sizeof(c));
	c.nwl = 1;
	snprintf(c.wl[0].spec, sizeof(c.wl[0].spec), "swapbench --size 400M");
	snprintf(c.wl[0].metric, sizeof(c.wl[0].metric), "elapsed");
	c.wl[0].weight = 1;
	c.nknobs = 2;
	snprintf(c.knobs[0], sizeof(c.knobs[0]), "vm.page-cluster");
	snprintf(c.knobs[1], sizeof(c.knobs[1]), "swap");
	snprintf(c.strategy, sizeof(c.strategy), "bo");
	snprintf(c.objective, sizeof(c.objective), "throughput");
	snprintf(c.swap_backend, sizeof(c.swap_backend), "file:256M");
	c.trials = 10;
	/* as the search saw it: its swapfile on, zswap off */
	m.nswaps = 1;
	snprintf(m.swaps[0].name, sizeof(m.swaps[0].name), "/var/lib/vmtune/swapfile-1");
	snprintf(m.swaps[0].kind, sizeof(m.swaps[0].kind), "file on ssd");
	m.swaps[0].size_kb = m.swap_total_kb = 262144;
	m.zswap = 0;
	cfg = run_config_json(&c);
	mj = machine_json(&m);
	run = store_run_begin(s, cfg, mj);
	free(cfg);
	free(mj);
	assert_true(run > 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(sj, sizeof(sj), "{\"vm.page-cluster\":%ld,\"swap\":\"%s\"}", t[i].pc, t[i].swap);
		assert_true(store_trial_add(s, run, (int)i, t[i].kind, sj, t[i].score, false) > 0);
	}
	store_run_finish(s, run, "done", NULL);
}

static int setup(void **state)
{
	struct store *s;
	long r;
	int seq = 0;

	if (fake_root_setup(state) < 0)
		return -1;
	snprintf(db, sizeof(db), "%s/pool.db", test_dir);
	machine_read(&me);
	other = me;
	snprintf(other.hostname, sizeof(other.hostname), "elsewhere");
	other.mem_total_kb = me.mem_total_kb * 4;
	if (space_build(&sp, "vm.page-cluster") != 0 || store_open(&s, db) < 0)
		return -1;
	/* run 1, this machine: the bowl at every page-cluster, 2 and 5 twice */
	r = run_of(s, "mtest01 -p 80 -w", "throughput", &me);
	trial(s, r, seq++, "baseline", 3, 1);
	for (long pc = 0; pc <= 6; pc++)
		trial(s, r, seq++, "candidate", pc, bowl(pc));
	trial(s, r, seq++, "repeat", 2, bowl(2) * 1.02);
	trial(s, r, seq++, "repeat", 5, bowl(5) / 1.02);
	trial(s, r, seq++, "candidate", 1, NAN); /* cut short: no score */
	store_run_finish(s, r, "done", NULL);
	/* run 2, another machine, the same workload in other words */
	r = run_of(s, "mtest01 -w -p 80", "throughput", &other);
	seq = 0;
	trial(s, r, seq++, "baseline", 3, 1);
	trial(s, r, seq++, "candidate", 5, bowl(5));
	/* runs 3 and 4: another workload, another objective: not pooled */
	r = run_of(s, "mmap001", "throughput", &me);
	trial(s, r, 0, "candidate", 0, 0.5);
	r = run_of(s, "mtest01 -p 80 -w", "interactive", &me);
	trial(s, r, 0, "candidate", 0, 0.5);
	varied_run(s);
	store_close(s);
	return 0;
}

static struct pool_query query(long exclude)
{
	struct pool_query q = { .nspecs = 1, .objective = "throughput", .ndbs = 1, .exclude_run = exclude };

	q.specs[0] = "mtest01 -p 80 -w";
	q.dbs[0] = db;
	return q;
}

static void the_pool_takes_the_runs_that_match(void **state)
{
	struct pool_query q = query(0);
	struct pool p;
	int i, seen2 = 0;

	(void)state;
	assert_int_equal(pool_load(&p, &q, &sp, &me), 0);
	assert_int_equal(p.nruns, 2);
	assert_int_equal(p.nmachines, 2);
	/* run 1: page-cluster 0..6 (3 is the original: its baseline and its candidate
	 * are one point); run 2: the original and 5 */
	assert_int_equal(p.npts, 7 + 2);
	assert_int_equal(p.ntrials, 10 + 2);
	for (i = 0; i < p.npts; i++) {
		const struct pool_point *pt = &p.pts[i];
		const struct pool_machine *m = &p.machines[p.runs[pt->run].machine];
		if (!m->own) {
			assert_string_equal(m->m.hostname, "elsewhere");
			continue;
		}
		if (pt->vals[0] == 2 && pt->y != 0) {
			/* the mean of log bowl(2) and log(1.02 bowl(2)) */
			assert_true(fabs(pt->y - (log(bowl(2)) + log(bowl(2) * 1.02)) / 2) < 1e-12);
			assert_int_equal(pt->n, 2);
			/* their spread: two repeats, squares about the mean (log 1.02)^2 / 2 */
			assert_int_equal(pt->k, 2);
			assert_true(fabs(pt->ss - log(1.02) * log(1.02) / 2) < 1e-12);
			seen2++;
		} else if (pt->vals[0] == 3) {
			/* the original: its yardstick trial adds no spread, a candidate there one repeat */
			assert_int_equal(pt->k, pt->n - 1);
			assert_true(pt->ss == 0);
		}
	}
	assert_int_equal(seen2, 1);
	pool_free(&p);
	/* the search's own run left out */
	q = query(1);
	assert_int_equal(pool_load(&p, &q, &sp, &me), 0);
	assert_int_equal(p.nruns, 1);
	assert_int_equal(p.npts, 2);
	pool_free(&p);
}

static void a_run_that_varied_the_swap_backend_is_a_run_per_backend(void **state)
{
	struct pool_query q = { .nspecs = 1, .objective = "throughput", .ndbs = 1 };
	struct pool p;
	int i, seen = 0;

	(void)state;
	q.specs[0] = "swapbench --size 400M";
	q.dbs[0] = db;
	assert_int_equal(pool_load(&p, &q, &sp, &me), 0);
	assert_int_equal(p.nruns, 2);
	assert_int_equal(p.nmachines, 2);
	for (i = 0; i < p.nruns; i++) {
		const struct pool_machine *m = &p.machines[p.runs[i].machine];
		assert_true(m->own);
		assert_int_equal(m->nruns, 1);
		assert_int_equal(m->m.zswap, 0);
		switch (p.runs[i].backend) {
		case SWAP_VARY_FILE:
			assert_string_equal(machine_swap_class(&m->m), "flash");
			assert_int_equal(m->ntrials, 2);
			break;
		case SWAP_VARY_ZRAM:
			assert_string_equal(machine_swap_class(&m->m), "compressed");
			assert_int_equal(m->ntrials, 3);
			break;
		default:
			fail_msg("a pool run of backend %d", p.runs[i].backend);
		}
		assert_string_equal(p.runs[i].uuid, p.runs[0].uuid);
	}
	/* file: the original (0) and pc 6 as scored; zram: pc 0 twice (one point) and pc 3,
	 * against zram at pc 3 */
	assert_int_equal(p.npts, 4);
	assert_int_equal(p.ntrials, 5);
	for (i = 0; i < p.npts; i++) {
		const struct pool_point *pt = &p.pts[i];
		if (p.runs[pt->run].backend == SWAP_VARY_ZRAM && pt->vals[0] == 0) {
			assert_int_equal(pt->n, 2);
			assert_true(fabs(pt->y - ((log(0.5) + log(0.52)) / 2 - log(0.6))) < 1e-12);
			seen++;
		}
		if (p.runs[pt->run].backend == SWAP_VARY_ZRAM && pt->vals[0] == 3) {
			assert_true(fabs(pt->y) < 1e-12);
			seen++;
		}
		if (p.runs[pt->run].backend == SWAP_VARY_FILE && pt->vals[0] == 6) {
			assert_true(fabs(pt->y - log(0.8)) < 1e-12);
			seen++;
		}
	}
	assert_int_equal(seen, 3);
	pool_free(&p);
}

static void the_model_predicts_the_bowl(void **state)
{
	struct pool_query q = query(0);
	struct pool p;
	struct model M;
	double feat[MACHINE_NFEAT], m4, s4, m0, s0, m6, s6;
	long v[SPACE_MAX], best[SPACE_MAX];

	(void)state;
	assert_int_equal(pool_load(&p, &q, &sp, &me), 0);
	machine_features(&me, feat);
	assert_int_equal(model_fit(&M, &p, &sp, feat, NULL, NULL, 0), 0);
	v[0] = 4;
	model_predict(&M, v, &m4, &s4);
	v[0] = 0;
	model_predict(&M, v, &m0, &s0);
	v[0] = 6;
	model_predict(&M, v, &m6, &s6);
	/* the bottom within a tenth of the bowl's depth of the truth, and below the rims */
	assert_true(fabs(m4 - log(bowl(4))) < 0.1 * (log(bowl(0)) - log(bowl(4))));
	assert_true(m4 < m0 && m4 < m6);
	assert_true(s4 > 0 && s4 < 0.1);
	model_best(&M, &p, 0, 1, NULL, best);
	assert_int_equal(best[0], 4);
	assert_true(fabs(model_similarity(&M, feat, feat) - 1) < 1e-12);
	{
		double fo[MACHINE_NFEAT];
		machine_features(&other, fo);
		double sim = model_similarity(&M, feat, fo);
		assert_true(sim > 0 && sim < 1);
	}
	model_free(&M);
	pool_free(&p);
}

/* A swapfile machine measured a firm page-cluster gain (readahead); a zram machine,
 * its kind of swap, measured none. For the zram machine the whole pool may carry
 * the swapfile's gain over by the fitted correlation of the two kinds; the gain is
 * only claimed if the zram trials alone support it, and here (three settings, flat)
 * they do not. For the swapfile machine, whose own kind shows it, the gain stands. */
static void a_gain_must_hold_on_this_kind_of_swap(void **state)
{
	static const double wobble[] = { 0.01, -0.012, 0.008, -0.006, 0.011, -0.009 };
	struct machine filebox = me, zrambox = me;
	struct pool_query q = { .nspecs = 1, .objective = "throughput", .ndbs = 1 };
	char kdb[PATH_MAX + 16];
	struct advice A;
	struct model M;
	struct pool p;
	struct store *s;
	long r;
	int seq = 0, i;

	(void)state;
	snprintf(kdb, sizeof(kdb), "%s/kind.db", test_dir);
	filebox.nswaps = zrambox.nswaps = 1;
	snprintf(filebox.swaps[0].kind, sizeof(filebox.swaps[0].kind), "file-on-rotational");
	snprintf(zrambox.swaps[0].kind, sizeof(zrambox.swaps[0].kind), "zram");
	filebox.swaps[0].size_kb = zrambox.swaps[0].size_kb = 1 << 20;
	snprintf(filebox.hostname, sizeof(filebox.hostname), "filebox");
	snprintf(zrambox.hostname, sizeof(zrambox.hostname), "zrambox");
	assert_int_equal(store_open(&s, kdb), 0);
	/* the swapfile: cost falls 5% a step of page-cluster, each setting six times */
	r = run_of(s, "swapbench -s 600M -a seq -P 2", "throughput", &filebox);
	for (i = 0; i < 6; i++) {
		trial(s, r, seq++, "baseline", 3, 1);
		for (long pc = 0; pc <= 6; pc++)
			if (pc != 3)
				trial(s, r, seq++, i ? "repeat" : "candidate", pc,
				      exp(-0.05 * (double)(pc - 3) + wobble[i]));
	}
	store_run_finish(s, r, "done", NULL);
	/* zram: flat within its noise (a noisier device), a few settings */
	r = run_of(s, "swapbench -s 600M -a seq -P 2", "throughput", &zrambox);
	seq = 0;
	trial(s, r, seq++, "baseline", 3, 1);
	trial(s, r, seq++, "candidate", 1, exp(3 * wobble[0]));
	trial(s, r, seq++, "candidate", 4, exp(3 * wobble[1]));
	store_run_finish(s, r, "done", NULL);
	store_close(s);
	q.specs[0] = "swapbench -s 600M -a seq -P 2";
	q.dbs[0] = kdb;

	assert_int_equal(pool_load(&p, &q, &sp, &zrambox), 0);
	assert_int_equal(advice_make(&A, &M, &p, &sp, &zrambox, NULL, 1), 0);
	print_message("# zram: page-cluster %ld, whole pool %+.1f%% +- %.1f%%, zram alone %+.1f%% +- %.1f%%, %s\n",
		      A.vals[0], 100 * A.mean, 196 * A.sd, 100 * A.kind_mean, 196 * A.kind_sd,
		      A.kind_doubts ? "doubted by its kind"
		      : A.unsure    ? "unsure"
				    : "sure");
	assert_true(A.unsure && A.kind_doubts); /* the whole pool alone would have been sure */
	assert_true(A.mean + 1.96 * A.sd < 0 && A.kind_mean + 1.96 * A.kind_sd >= 0);
	model_free(&M);
	pool_free(&p);

	assert_int_equal(pool_load(&p, &q, &sp, &filebox), 0);
	assert_int_equal(advice_make(&A, &M, &p, &sp, &filebox, NULL, 1), 0);
	print_message("# swapfile: page-cluster %ld, %+.1f%% +- %.1f%%, %s\n", A.vals[0], 100 * A.mean, 196 * A.sd,
		      A.unsure ? "unsure" : "sure");
	assert_true(!A.unsure && !A.kind_doubts);
	assert_true(A.vals[0] >= 5);
	model_free(&M);
	pool_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_pool_takes_the_runs_that_match),
		cmocka_unit_test(a_run_that_varied_the_swap_backend_is_a_run_per_backend),
		cmocka_unit_test(the_model_predicts_the_bowl),
		cmocka_unit_test(a_gain_must_hold_on_this_kind_of_swap),
	};
	return cmocka_run_group_tests(tests, setup, fake_root_teardown);
}
