/* test_seqtest.c - the confirmation's statistics on data with known answers. */
#include <math.h>

#include "testutil.h"

#include "seqtest.h"

static void spending_is_alpha_at_the_end_and_little_early(void **state)
{
	double sum = 0;
	int n, prev = 0;

	(void)state;
	assert_float_equal(seq_spent(0.05, 1), 0.05, 1e-12);
	assert_float_equal(seq_spent(0.05, 0.5), 0.0055746, 1e-6);
	assert_float_equal(seq_spent(0.05, 0.2), 1.17264e-5, 1e-9);
	assert_float_equal(seq_spent(0.05, 0), 0, 0);
	/* looks every 5 rounds of 25: the increments add up to alpha, the last is the largest */
	for (n = 5; n <= 25; n += 5) {
		double a = seq_look_alpha(0.05, n, prev, 25);
		assert_true(a > 0);
		if (n == 25)
			assert_float_equal(a, 0.05 - 0.0284296, 1e-6);
		sum += a;
		prev = n;
	}
	assert_float_equal(sum, 0.05, 1e-12);
	assert_float_equal(seq_look_alpha(0.05, 5, 5, 25), 0, 0);
}

static void paired_t_on_known_data(void **state)
{
	const double d[] = { -0.10, -0.12, -0.08, -0.11, -0.09 };
	struct paired p;
	double lo, hi;

	(void)state;
	paired_summary(d, 5, &p);
	assert_int_equal(p.n, 5);
	assert_float_equal(p.mean, -0.1, 1e-12);
	assert_float_equal(p.sd, 0.0158113883, 1e-9);
	/* t(0.975, 4) = 2.776445: half-width 0.0196324 */
	paired_ci(&p, 0.05, &lo, &hi);
	assert_float_equal(lo, -0.1196324, 1e-6);
	assert_float_equal(hi, -0.0803676, 1e-6);
	/* t = 14.142 with 4 df: p = 0.000146 */
	assert_float_equal(paired_p(&p), 0.0001458, 2e-6);
}

static void no_variance_is_no_evidence(void **state)
{
	const double same[] = { -0.2, -0.2, -0.2, -0.2 }, one[] = { -0.5 };
	struct paired p;
	double lo, hi;

	(void)state;
	paired_summary(same, 4, &p);
	assert_float_equal(paired_p(&p), 1, 0);
	paired_ci(&p, 0.05, &lo, &hi);
	assert_true(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	paired_summary(one, 1, &p);
	assert_float_equal(paired_p(&p), 1, 0);
}

static void holm_steps_down(void **state)
{
	const double p1[] = { 0.01, 0.04, 0.03 }, p2[] = { 0.01, 0.02, 0.04 }, p3[] = { 0.02, 0.03 };
	bool r[3];

	(void)state;
	holm(p1, 3, 0.05, r); /* 0.01 <= 0.05/3; 0.03 > 0.05/2 stops */
	assert_true(r[0] && !r[1] && !r[2]);
	holm(p2, 3, 0.05, r); /* 0.01, 0.02 <= 0.025, 0.04 <= 0.05 */
	assert_true(r[0] && r[1] && r[2]);
	holm(p3, 2, 0.05, r); /* 0.02 <= 0.025, then 0.03 <= 0.05 */
	assert_true(r[0] && r[1]);
	holm(p3, 2, 0.03, r); /* 0.02 > 0.015 */
	assert_true(!r[0] && !r[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spending_is_alpha_at_the_end_and_little_early),
		cmocka_unit_test(paired_t_on_known_data),
		cmocka_unit_test(no_variance_is_no_evidence),
		cmocka_unit_test(holm_steps_down),
	};

	return cmocka_run_group_tests_name("seqtest", tests, NULL, NULL);
}
