/* test_stats.c - the mean, 95% CI and CV printed under "Averages for N runs". */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "testutil.h"

#include "stats.h"

static void known_sample(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5 };
	struct summary s;

	(void)state;
	summarize(x, 5, &s);
	assert_int_equal(s.n, 5);
	assert_float_equal(s.mean, 3.0, 1e-12);
	assert_float_equal(s.sd, sqrt(2.5), 1e-12);
	/* t(0.975, 4) = 2.776445105 */
	assert_float_equal(s.ci_lo, 3.0 - 2.776445105 * sqrt(2.5) / sqrt(5.0), 1e-6);
	assert_float_equal(s.ci_hi, 3.0 + 2.776445105 * sqrt(2.5) / sqrt(5.0), 1e-6);
	assert_float_equal(s.cv, sqrt(2.5) / 3.0, 1e-12);
}

static void ten_runs_like_the_seeds(void **state)
{
	/* ten elapsed times around 59.5 s: t(0.975, 9) = 2.262157163 */
	const double x[] = { 58.1, 60.2, 59.9, 59.0, 61.3, 58.7, 59.4, 60.0, 59.8, 58.6 };
	struct summary s;
	double half;

	(void)state;
	summarize(x, 10, &s);
	half = 2.262157163 * s.sd / sqrt(10.0);
	assert_float_equal(s.mean, 59.5, 1e-9);
	assert_float_equal(s.ci_hi - s.mean, half, 1e-6);
	assert_true(s.ci_lo < 59.5 && s.ci_hi > 59.5);
}

static void too_few_runs_have_no_interval(void **state)
{
	const double x[] = { 42 };
	struct summary s;

	(void)state;
	summarize(x, 1, &s);
	assert_float_equal(s.mean, 42, 1e-12);
	assert_true(isnan(s.ci_lo) && isnan(s.ci_hi) && isnan(s.cv));
	summarize(x, 0, &s);
	assert_true(isnan(s.mean));
}

static void robust_figures(void **state)
{
	const double x[] = { 2.5, 2.4, 2.6, 3.4, 2.5, 2.45, 2.55 };
	struct summary s;

	(void)state;
	summarize_robust(x, 7, &s);
	assert_float_equal(s.median, 2.5, 1e-12);
	/* |x - 2.5| = .0 .1 .1 .9 .0 .05 .05: median .05 */
	assert_float_equal(s.mad, 0.05, 1e-12);
	assert_float_equal(s.min, 2.4, 1e-12);
	assert_float_equal(s.max, 3.4, 1e-12);
	assert_float_equal(modified_z(3.4, s.median, s.mad), 0.6745 * 0.9 / 0.05, 1e-9);
	assert_true(isinf(modified_z(3, 2, 0)) && modified_z(2, 2, 0) == 0);
}

/* Blom's scores are as normal as a sample gets; two clusters are not. */
static void shapiro_francia_known_shapes(void **state)
{
	double x[20], w, p;
	int i;

	(void)state;
	for (i = 0; i < 20; i++)
		x[i] = gsl_cdf_ugaussian_Pinv((i + 1 - 0.375) / (20 + 0.25));
	assert_int_equal(shapiro_francia(x, 20, &w, &p), 0);
	assert_float_equal(w, 1.0, 1e-9);
	assert_true(p > 0.5);
	/* the ten mtest01 runs: 1.07 0.67 0.68 1.11 0.67 0.68 0.67 1.06 0.68 0.69 */
	const double two[] = { 1.07, 0.67, 0.68, 1.11, 0.67, 0.68, 0.67, 1.06, 0.68, 0.69 };
	assert_int_equal(shapiro_francia(two, 10, &w, &p), 0);
	assert_true(p < 0.01);
	struct summary s;
	summarize_robust(two, 10, &s);
	assert_int_equal(s.method, CI_RANK);
	/* n = 10: k = 2, [x(2), x(9)], coverage 1 - 2 * 11/1024 */
	assert_float_equal(s.lo, 0.67, 1e-12);
	assert_float_equal(s.hi, 1.07, 1e-12);
	assert_float_equal(s.coverage, 1 - 2 * 11.0 / 1024, 1e-9);
	assert_float_equal(s.centre, 0.68, 1e-12);
	assert_int_equal(shapiro_francia(two, 4, &w, &p), -1);
	const double flat[] = { 1, 1, 1, 1, 1, 1 };
	assert_int_equal(shapiro_francia(flat, 6, &w, &p), -1);
}

/* Known answers by simulation: the test rejects about 5% of normal samples, and the
 * rank interval covers the true median of two clusters at least as often as it says. */
static void rates_by_simulation(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[10], w, p;
	int i, j, reject = 0, cover = 0, ranked = 0, reps = 4000;
	/* 0.7 N(1, 0.01^2) + 0.3 N(1.6, 0.01^2): 0.7 Phi(z) = 0.5 at the median */
	double med = 1 + 0.01 * gsl_cdf_ugaussian_Pinv(0.5 / 0.7);

	(void)state;
	gsl_rng_set(r, 11);
	for (i = 0; i < reps; i++) {
		for (j = 0; j < 10; j++)
			x[j] = 5 + gsl_ran_gaussian(r, 1);
		shapiro_francia(x, 10, &w, &p);
		reject += p < 0.05;
	}
	assert_true(reject > 0.03 * reps && reject < 0.07 * reps);
	for (i = 0; i < reps; i++) {
		struct summary s;
		for (j = 0; j < 10; j++)
			x[j] = (gsl_rng_uniform(r) < 0.7 ? 1 : 1.6) + gsl_ran_gaussian(r, 0.01);
		summarize_robust(x, 10, &s);
		if (s.method == CI_RANK) {
			ranked++;
			cover += s.lo <= med && med <= s.hi;
		}
	}
	/* all ten from one cluster (0.7^10 + 0.3^10 = 2.8%) look normal; the rest are caught */
	assert_true(ranked >= 0.93 * reps);
	assert_true(cover >= 0.96 * ranked);
	gsl_rng_free(r);
}

static void halfwidth_is_the_wider_side(void **state)
{
	struct summary s = { .method = CI_RANK, .centre = 2, .lo = 1.9, .hi = 2.3 };

	(void)state;
	assert_float_equal(summary_rel_halfwidth(&s), 0.15, 1e-12);
	s.method = CI_NONE;
	assert_true(isnan(summary_rel_halfwidth(&s)));
}

/* --precision's rule: a run at a time from 3, stop when the interval's half-width is
 * within p of its centre, or at 30. Its stopped interval must still cover the truth
 * 95% of the time: on normal runs (CV 10%), log-normal ones (sd of log 0.3) and two
 * clusters (70% at 0.68 s, 30% at 1.07 s, the shape), 2000 seeded sequences
 * each at p = 10% and 5%. The truth is the mean for a t interval and the median for a
 * rank interval. At 95% per look this fails (89-94%); at PRECISION_LEVEL it holds. */
static double draw(gsl_rng *r, int kind)
{
	if (kind == 0)
		return 10 + gsl_ran_gaussian(r, 1);
	if (kind == 1)
		return exp(gsl_ran_gaussian(r, 0.3));
	return gsl_rng_uniform(r) < 0.7 ? 0.68 + gsl_ran_gaussian(r, 0.01) : 1.07 + gsl_ran_gaussian(r, 0.02);
}

static double stopped_coverage(gsl_rng *r, int kind, double p, double level)
{
	const int seqs = 2000;
	int s, cover = 0;

	for (s = 0; s < seqs; s++) {
		double x[30], truth;
		struct summary sm;
		int n = 0;

		while (n < 30) {
			x[n++] = draw(r, kind);
			if (n < 3)
				continue;
			summarize_robust_at(x, n, level, &sm);
			if (summary_rel_halfwidth(&sm) <= p)
				break;
		}
		truth = kind == 0 ? 10 : kind == 1 ? (sm.method == CI_T ? exp(0.045) : 1) : 0.68566;
		cover += sm.lo <= truth && truth <= sm.hi;
	}
	return (double)cover / seqs;
}

static void precision_stopping_keeps_its_coverage(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double worst = 1, at95 = 1;
	int kind, i;
	const double ps[] = { 0.10, 0.05 };

	(void)state;
	gsl_rng_set(r, 20261203);
	for (kind = 0; kind < 3; kind++)
		for (i = 0; i < 2; i++) {
			worst = fmin(worst, stopped_coverage(r, kind, ps[i], PRECISION_LEVEL));
			at95 = fmin(at95, stopped_coverage(r, kind, ps[i], 0.95));
		}
	print_message("# --precision: worst coverage %.3f at %.1f%% per look, %.3f at 95%%\n", worst,
		      100 * PRECISION_LEVEL, at95);
	assert_true(worst >= 0.95);
	assert_true(at95 < 0.94); /* why the level is raised */
	gsl_rng_free(r);
}

/* a log change of log 1.1 is +10%, of log 0.8 is -20%, a log sd of 0 is 0% */
static void log_change_as_percentage(void **state)
{
	(void)state;
	assert_true(fabs(log_change_pct(log(1.1)) - 10) < 1e-9);
	assert_true(fabs(log_change_pct(log(0.8)) + 20) < 1e-9);
	assert_true(log_change_pct(0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_sample),
		cmocka_unit_test(ten_runs_like_the_seeds),
		cmocka_unit_test(too_few_runs_have_no_interval),
		cmocka_unit_test(robust_figures),
		cmocka_unit_test(shapiro_francia_known_shapes),
		cmocka_unit_test(rates_by_simulation),
		cmocka_unit_test(halfwidth_is_the_wider_side),
		cmocka_unit_test(precision_stopping_keeps_its_coverage),
		cmocka_unit_test(log_change_as_percentage),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
