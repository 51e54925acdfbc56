/* test_search.c - the search's arithmetic on hand-made observations with known
 * answers: costs against the baselines' smoothed level, a mix's weighted geometric mean,
 * failed trials, the points' means, the requirements, and the confirmation's
 * look (better, worse, too small to matter, failed, undecided) and finalists. */
#include <math.h>

#include "testutil.h"
#include "drift.h"
#include "search-int.h"

static struct search_opts O;
static struct search S;
static struct obs obs[64];
static struct point points[16];
static FILE *devnull; /* where expected errors go */

static void reset(int nwl)
{
	memset(&O, 0, sizeof(O));
	memset(&S, 0, sizeof(S));
	memset(obs, 0, sizeof(obs));
	memset(points, 0, sizeof(points));
	O.nwl = nwl;
	for (int w = 0; w < nwl; w++)
		O.wl[w].weight = 1;
	O.objective = OBJ_THROUGHPUT;
	O.min_effect = 0.05;
	S.o = &O;
	S.obs = obs;
	S.points = points;
	S.sp.d = 1;
	for (int p = 0; p < 16; p++)
		points[p].vals[0] = p;
	S.npoints = 16;
}

/* one observation of point p with metrics m[] (no probe) */
static struct obs *add(enum trial_kind kind, int p, const double *m)
{
	struct obs *ob = &obs[S.nobs++];

	ob->kind = kind;
	ob->point = p;
	for (int w = 0; w < O.nwl; w++) {
		ob->metric[w] = m[w];
		ob->inter[w] = NAN;
	}
	return ob;
}
#define ADD(kind, p, ...) add(kind, p, (double[]){ __VA_ARGS__ })

/* one observation of point p (one workload) with metric m and the probe's p99
 * lateness in ms (held as the measurement holds it, plus 1 ms) */
static struct obs *addp(enum trial_kind kind, int p, double m, double p99)
{
	struct obs *ob = add(kind, p, &m);

	ob->inter[0] = p99 + 1;
	ob->played[0] = 1;
	return ob;
}

static void cost_against_the_baselines_level(void **state)
{
	double g = sqrt(10.0 * 12);

	(void)state;
	reset(1);
	ADD(TK_BASELINE, 0, 10);
	ADD(TK_CANDIDATE, 1, 9);
	ADD(TK_CANDIDATE, 2, 13.2);
	ADD(TK_BASELINE, 0, 12);
	ADD(TK_CANDIDATE, 3, 6); /* no baseline after: the one before */
	rescore(&S);
	/* two baselines cannot tell drift from noise: the level is their (geometric) mean */
	assert_true(fabs(obs[1].score - 9 / g) < 1e-12);
	assert_true(fabs(obs[2].score - 13.2 / g) < 1e-12);
	assert_true(fabs(obs[4].score - 6 / g) < 1e-12);
	assert_true(obs[0].score == 1 && obs[3].score == 1);
	assert_int_equal(best_point(&S), 3);
}

static void the_level_follows_a_drift_and_is_log_linear_between(void **state)
{
	/* baselines at positions 0, 3, 6, 9, 12, 15: the machine slows by half midway */
	const double b[6] = { 10, 10.1, 9.9, 15, 15.2, 14.8 };
	double t[6], y[6], l[6];

	(void)state;
	reset(1);
	for (int i = 0; i < 6; i++) {
		t[i] = 3 * i;
		y[i] = log(b[i]);
		ADD(TK_BASELINE, 0, b[i]);
		if (i < 5) {
			ADD(TK_CANDIDATE, 1 + i, 10);
			ADD(TK_CANDIDATE, 6 + i, 10);
		}
	}
	rescore(&S);
	drift_smooth(t, y, 6, l, NULL);
	assert_true(fabs(l[1] - log(10)) < 0.02 && fabs(l[4] - log(15)) < 0.02); /* followed, not averaged */
	for (int i = 0; i < 5; i++) {
		/* positions 3i + 1 and 3i + 2: a third and two thirds of the way in the log */
		assert_true(fabs(log(obs[3 * i + 1].score) - (log(10) - (l[i] + (l[i + 1] - l[i]) / 3))) < 1e-12);
		assert_true(fabs(log(obs[3 * i + 2].score) - (log(10) - (l[i] + 2 * (l[i + 1] - l[i]) / 3))) < 1e-12);
	}
}

static void a_failed_baseline_is_not_a_yardstick(void **state)
{
	(void)state;
	reset(1);
	ADD(TK_BASELINE, 0, 10);
	ADD(TK_BASELINE, 0, 1000)->failed = true;
	ADD(TK_CANDIDATE, 1, 5);
	rescore(&S);
	assert_true(fabs(obs[2].score - 0.5) < 1e-12);
}

static void maximize_inverts_the_cost(void **state)
{
	(void)state;
	reset(1);
	O.wl[0].maximize = true;
	ADD(TK_BASELINE, 0, 100);
	ADD(TK_CANDIDATE, 1, 125);
	rescore(&S);
	assert_true(fabs(obs[1].score - 0.8) < 1e-12);
}

static void a_mix_is_a_weighted_geometric_mean(void **state)
{
	(void)state;
	reset(2);
	O.wl[1].weight = 3;
	ADD(TK_BASELINE, 0, 10, 100);
	ADD(TK_CANDIDATE, 1, 5, 200);
	rescore(&S);
	/* (1 * log 0.5 + 3 * log 2) / 4 */
	assert_true(fabs(log(obs[1].score) - (log(0.5) + 3 * log(2)) / 4) < 1e-12);
}

static void failed_trials_cost_more_than_any_other(void **state)
{
	(void)state;
	reset(1);
	ADD(TK_BASELINE, 0, 10);
	ADD(TK_CANDIDATE, 1, 30);
	ADD(TK_CANDIDATE, 2, 0)->failed = true;
	ADD(TK_CANDIDATE, 3, 8);
	rescore(&S);
	assert_true(fabs(obs[2].score - 2 * 3.0) < 1e-12); /* twice the worst seen */
	assert_int_equal(best_point(&S), 3);
}

static void a_point_is_the_mean_of_its_log_costs(void **state)
{
	(void)state;
	reset(1);
	ADD(TK_BASELINE, 0, 10);
	ADD(TK_CANDIDATE, 1, 8);
	ADD(TK_REPEAT, 1, 12.5);
	ADD(TK_CANDIDATE, 2, 9);
	rescore(&S);
	assert_int_equal(points[1].nobs, 2);
	assert_true(fabs(points[1].mean_log - (log(0.8) + log(1.25)) / 2) < 1e-12);
	assert_int_equal(best_point(&S), 2); /* 0.9 alone beats 0.8 and 1.25 on average */
}

static void requirements(void **state)
{
	struct requirement r;

	(void)state;
	log_setup(0, true);
	assert_int_equal(requirement_parse("p99_lateness<=20ms", &r), 0);
	assert_string_equal(r.name, "p99_lateness_ms");
	assert_true(requirement_met(&r, 20) && !requirement_met(&r, 20.5));
	assert_int_equal(requirement_parse("played>0.99", &r), 0);
	assert_true(requirement_met(&r, 1) && !requirement_met(&r, 0.99));
	log_to(devnull);
	assert_int_equal(requirement_parse("played=1", &r), -1);
	assert_int_equal(requirement_parse("played>=nan", &r), -1);
	assert_int_equal(requirement_parse(">=1", &r), -1);
	log_to(NULL);
}

/* A probe whose p99 lateness is a fraction of a millisecond, as it is on an idle or
 * a busy machine: under one period (10 ms here) it is no signal, so a candidate 10%
 * worse on the metric is worse under balanced (sqrt 1.1), not better because one
 * baseline run caught 1.4 ms of jitter; and no different under interactive. */
static void a_probe_on_time_is_no_signal(void **state)
{
	(void)state;
	reset(1);
	O.probe = "sputter -p 10ms -B 100ms -s 4M";
	O.objective = OBJ_BALANCED;
	addp(TK_BASELINE, 0, 10, 0.0);
	addp(TK_CANDIDATE, 1, 11, 0.0);
	addp(TK_BASELINE, 0, 10, 1.4);
	addp(TK_CANDIDATE, 2, 11, 0.3);
	addp(TK_BASELINE, 0, 10, 0.0);
	rescore(&S);
	assert_true(fabs(obs[1].score - sqrt(1.1)) < 1e-12);
	assert_true(fabs(obs[3].score - sqrt(1.1)) < 1e-12);
	assert_true(fabs(points[1].mean_log_i) < 1e-12 && fabs(points[1].mean_log_t - log(1.1)) < 1e-12);
	assert_int_equal(confirm_best_points(&S, (int[2]){ 0 }, 2), 0); /* nothing beats the original */
	O.objective = OBJ_INTERACTIVE;
	rescore(&S);
	assert_true(fabs(obs[1].score - 1) < 1e-12 && fabs(obs[3].score - 1) < 1e-12);
}

/* Lateness of more than a period counts against the period: 30 ms late is three
 * times the cost of being on time; the period comes from the probe's -p (20 ms:
 * 30 ms is 1.5 times), and a probe that names none has sputter's default, 10 ms. */
static void lateness_counts_in_periods(void **state)
{
	static const char *const spec[] = { "sputter -p 10ms -B 100ms", "sputter -B 100ms -p20ms -s 4M",
					    "sputter -s 4M -p 0.02s", "sputter -s 4M", "exec:./my-probe" };
	static const double per[] = { 10, 20, 20, 10, 10 };

	(void)state;
	for (int k = 0; k < 5; k++) {
		reset(1);
		O.probe = spec[k];
		O.objective = OBJ_INTERACTIVE;
		addp(TK_BASELINE, 0, 10, 0.5);
		addp(TK_CANDIDATE, 1, 10, 30);
		addp(TK_CANDIDATE, 2, 10, 5);
		addp(TK_BASELINE, 0, 10, 0.0);
		rescore(&S);
		assert_true(fabs(obs[1].score - 30 / per[k]) < 1e-12);
		assert_true(fabs(obs[2].score - 1) < 1e-12);
	}
}

/* rounds of the confirmation: the original at base * (1 + e), finalist 1 at
 * cand * (1 + e + f), e and f alternating small deviations */
static void rounds(int n, double base, double cand, double f)
{
	for (int r = 0; r < n; r++) {
		double e = (r % 2 ? 0.01 : -0.01), g = (r % 3 - 1) * f;
		ADD(TK_CONFIRM_BASELINE, 0, base * (1 + e));
		ADD(TK_CONFIRM, 1, cand * (1 + e + g));
	}
}

static enum confirm_decision decide(double cand, double f, int n, double *pct, double *lo, double *hi)
{
	struct confirm c = { .point = 1, .decision = CD_UNDECIDED };

	reset(1);
	rounds(n, 10, cand, f);
	assert_int_equal(confirm_look(&S, 0, &c, 1, 0.05), 0);
	*pct = c.change_pct;
	*lo = c.ci_lo;
	*hi = c.ci_hi;
	assert_int_equal(c.pairs, n);
	assert_true(c.significant == (c.decision == CD_BETTER));
	return c.decision;
}

static void confirmation_decides_what_the_runs_show(void **state)
{
	double pct, lo, hi;

	(void)state;
	/* 20% cheaper, 1% noise: better, and the interval holds the truth */
	assert_int_equal(decide(8, 0.01, 6, &pct, &lo, &hi), CD_BETTER);
	assert_true(lo < -20 && -20 < hi && fabs(pct + 20) < 2);
	/* 20% dearer: worse */
	assert_int_equal(decide(12, 0.01, 6, &pct, &lo, &hi), CD_WORSE);
	assert_true(lo > 0);
	/* the same within 0.2%: shown not to gain the 5% worth having */
	assert_int_equal(decide(10, 0.002, 6, &pct, &lo, &hi), CD_SMALL);
	assert_true(lo > -5 && hi < 5);
	/* 5% cheaper under 30% noise on 3 rounds: undecided */
	assert_int_equal(decide(9.5, 0.3, 3, &pct, &lo, &hi), CD_UNDECIDED);
	assert_true(lo < -5 && hi > 0);
}

/* n rounds in which the finalist costs exactly cand against the original's 10 every
 * time (a deterministic metric, a rounded one): no variance, so no t-test, but a
 * difference that never varies and never changes sign. One finalist: alpha 0.05,
 * of which the sign rule may spend 1%: from 12 pairs on (2^-11 <= 5e-4). */
static struct confirm constant_rounds(double cand, int n)
{
	struct confirm c = { .point = 1, .decision = CD_UNDECIDED };

	reset(1);
	for (int r = 0; r < n; r++) {
		ADD(TK_CONFIRM_BASELINE, 0, 10);
		ADD(TK_CONFIRM, 1, cand);
	}
	assert_int_equal(confirm_look(&S, 0, &c, 1, 0.01), 0);
	assert_int_equal(c.pairs, n);
	assert_true(c.significant == (c.decision == CD_BETTER));
	return c;
}

static void constant_paired_differences_are_decided(void **state)
{
	struct confirm c;

	(void)state;
	/* 10% dearer in every one of 15 rounds: worse, its interval the difference itself */
	c = constant_rounds(11, 15);
	assert_int_equal(c.decision, CD_WORSE);
	assert_true(fabs(c.change_pct - 10) < 1e-9 && fabs(c.ci_lo - 10) < 1e-9 && fabs(c.ci_hi - 10) < 1e-9);
	assert_true(c.level >= 1 - 5e-4 && c.level < 1);
	/* 10% cheaper every time: better */
	c = constant_rounds(9, 15);
	assert_int_equal(c.decision, CD_BETTER);
	assert_true(fabs(c.ci_hi + 10) < 1e-9);
	/* the same every time: shown not to gain the 5% worth having */
	c = constant_rounds(10, 12);
	assert_int_equal(c.decision, CD_SMALL);
	/* too few rounds for the sign rule (2^-10 > 5e-4): undecided, no interval */
	c = constant_rounds(11, 11);
	assert_int_equal(c.decision, CD_UNDECIDED);
	assert_true(isinf(c.ci_lo) || c.ci_lo <= -100);
	/* the balanced objective with a probe that is never late: the probe's side is
	 * the same every round, so the difference is half the metric's, every time */
	reset(1);
	O.probe = "sputter -p 10ms -B 100ms -s 4M";
	O.objective = OBJ_BALANCED;
	for (int r = 0; r < 15; r++) {
		addp(TK_CONFIRM_BASELINE, 0, 10, r % 3 ? 0.0 : 0.7);
		addp(TK_CONFIRM, 1, 11, r % 2 ? 0.0 : 0.2);
	}
	c = (struct confirm){ .point = 1, .decision = CD_UNDECIDED };
	assert_int_equal(confirm_look(&S, 0, &c, 1, 0.01), 0);
	assert_int_equal(c.decision, CD_WORSE);
	assert_true(fabs(c.change_pct - 100 * (sqrt(1.1) - 1)) < 1e-9);
}

static void a_finalist_that_fails_is_no_recommendation(void **state)
{
	struct confirm c = { .point = 1, .decision = CD_UNDECIDED };

	(void)state;
	reset(1);
	rounds(4, 10, 8, 0.01);
	obs[5].failed = true; /* its third run */
	assert_int_equal(confirm_look(&S, 0, &c, 1, 0.05), 0);
	assert_int_equal(c.decision, CD_FAILED);
	assert_false(c.significant);
}

static void confirmation_without_any_original_run_is_an_error(void **state)
{
	struct confirm c = { .point = 1, .decision = CD_UNDECIDED };

	(void)state;
	reset(1);
	rounds(3, 10, 8, 0.01);
	for (int j = 0; j < S.nobs; j += 2)
		obs[j].failed = true;
	log_to(devnull);
	assert_int_equal(confirm_look(&S, 0, &c, 1, 0.05), -1);
	log_to(NULL);
}

static void finalists_are_the_best_that_beat_the_original(void **state)
{
	int out[3];

	(void)state;
	reset(1);
	S.npoints = 6;
	double m[] = { 0, -0.1, -0.3, 0.2, -0.2, 0 };
	for (int p = 1; p < 6; p++) {
		points[p].nobs = 1;
		points[p].mean_log = m[p];
	}
	points[5].nobs = 0; /* never measured */
	assert_int_equal(confirm_best_points(&S, out, 2), 2);
	assert_int_equal(out[0], 2);
	assert_int_equal(out[1], 4);
	assert_int_equal(confirm_best_points(&S, out, 3), 3);
	assert_int_equal(out[2], 1);
	points[1].mean_log = points[2].mean_log = points[4].mean_log = 0.1;
	assert_int_equal(confirm_best_points(&S, out, 3), 0); /* none beats the original */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cost_against_the_baselines_level),
		cmocka_unit_test(the_level_follows_a_drift_and_is_log_linear_between),
		cmocka_unit_test(a_failed_baseline_is_not_a_yardstick),
		cmocka_unit_test(maximize_inverts_the_cost),
		cmocka_unit_test(a_mix_is_a_weighted_geometric_mean),
		cmocka_unit_test(failed_trials_cost_more_than_any_other),
		cmocka_unit_test(a_point_is_the_mean_of_its_log_costs),
		cmocka_unit_test(requirements),
		cmocka_unit_test(a_probe_on_time_is_no_signal),
		cmocka_unit_test(lateness_counts_in_periods),
		cmocka_unit_test(confirmation_decides_what_the_runs_show),
		cmocka_unit_test(constant_paired_differences_are_decided),
		cmocka_unit_test(a_finalist_that_fails_is_no_recommendation),
		cmocka_unit_test(confirmation_without_any_original_run_is_an_error),
		cmocka_unit_test(finalists_are_the_best_that_beat_the_original),
	};
	int rc;

	devnull = fopen("/dev/null", "w");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fclose(devnull);
	return rc;
}
