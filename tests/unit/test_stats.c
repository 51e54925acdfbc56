/* test_stats.c - the mean, 95% CI and CV printed under "Averages for N runs". */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_sample),
		cmocka_unit_test(ten_runs_like_the_seeds),
		cmocka_unit_test(too_few_runs_have_no_interval),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
