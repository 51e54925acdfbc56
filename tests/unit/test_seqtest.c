/* test_seqtest.c - the confirmation's statistics on data with known answers. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "testutil.h"

#include "seqtest.h"

static void spending_is_alpha_at_the_end_and_little_early(void **state)
{
	(void)state;
	/* Hwang-Shih-DeCani, gamma = -4: 0.05 (e^(4t) - 1) / (e^4 - 1) */
	assert_float_equal(seq_spent(0.05, 1), 0.05, 1e-12);
	assert_float_equal(seq_spent(0.05, 0.5), 0.0059601461, 1e-9);
	assert_float_equal(seq_spent(0.05, 0.2), 0.0011432679, 1e-9);
	assert_float_equal(seq_spent(0.05, 0), 0, 0);
	assert_float_equal(seq_spent_hsd(0.05, 0, 0.3), 0.015, 1e-12); /* linear */
	/* O'Brien-Fleming, for the comparison: 2 - 2 Phi(1.96 / sqrt(t)) */
	assert_float_equal(seq_spent_obf(0.05, 1), 0.05, 1e-12);
	assert_float_equal(seq_spent_obf(0.05, 0.5), 0.0055746, 1e-6);
	assert_float_equal(seq_spent_obf(0.05, 0.2), 1.17264e-5, 1e-9);
}

static const double five[] = { 0.2, 0.4, 0.6, 0.8, 1 };

static void one_look_is_the_fixed_test(void **state)
{
	double t = 1, c;

	(void)state;
	assert_int_equal(seq_bounds(0.05, &t, 1, &c), 0);
	assert_float_equal(c, 1.959964, 1e-5);
	assert_float_equal(seq_nominal(c), 0.05, 1e-9);
}

static void boundaries_fall_and_beat_the_sum_over_looks(void **state)
{
	double c[5];
	int k;

	(void)state;
	assert_int_equal(seq_bounds(0.05, five, 5, c), 0);
	/* the first look spends 1.1433e-3: |z| >= 3.2527 */
	assert_float_equal(c[0], 3.2527, 1e-3);
	for (k = 1; k < 5; k++) {
		/* each later boundary is lower, and lower than the one of spending
		 * the look's increment on its own (the conservative sum over looks) */
		double inc = seq_spent(0.05, five[k]) - seq_spent(0.05, five[k - 1]);
		assert_true(c[k] < c[k - 1]);
		assert_true(c[k] < gsl_cdf_ugaussian_Qinv(inc / 2));
	}
	/* the last look is near the fixed test's 1.96, not at the 2.27 of its increment */
	assert_true(c[4] > 1.96 && c[4] < 2.10);
	/* O'Brien-Fleming's first look spends 1.17e-5: |z| >= 4.38 */
	assert_int_equal(seq_bounds_of(seq_spent_obf, 0.05, five, 5, c), 0);
	assert_float_equal(c[0], 4.3826, 1e-3);
	assert_true(c[4] > 1.96 && c[4] < 2.10);
}

static void bad_schedules_are_refused(void **state)
{
	const double back[] = { 0.5, 0.4 }, zero[] = { 0, 1 }, over[] = { 0.5, 1.5 };
	double c[2];

	(void)state;
	assert_int_equal(seq_bounds(0.05, five, 0, c), -1);
	assert_int_equal(seq_bounds(0.05, back, 2, c), -1);
	assert_int_equal(seq_bounds(0.05, zero, 2, c), -1);
	assert_int_equal(seq_bounds(0.05, over, 2, c), -1);
	assert_int_equal(seq_bounds(0, five, 5, c), -1);
}

/* A Brownian motion observed at the looks crosses each boundary first with the
 * chance the spending gives that look: checked on 200000 simulated paths (seeded),
 * within 4 standard errors, for even and uneven schedules. */
static void boundaries_spend_what_they_say(const double *t, int K)
{
	const int paths = 200000;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int first[8] = { 0 }, p, k, total = 0;
	double c[8];

	gsl_rng_set(r, 20261203);
	assert_int_equal(seq_bounds(0.05, t, K, c), 0);
	for (p = 0; p < paths; p++) {
		double s = 0, tp = 0;
		for (k = 0; k < K; k++) {
			s += gsl_ran_gaussian(r, sqrt(t[k] - tp));
			tp = t[k];
			if (fabs(s) / sqrt(t[k]) >= c[k]) {
				first[k]++;
				break;
			}
		}
	}
	for (k = 0; k < K; k++) {
		double want = seq_spent(0.05, t[k]) - seq_spent(0.05, k ? t[k - 1] : 0), got = (double)first[k] / paths;
		double se = sqrt(want * (1 - want) / paths);
		assert_true(fabs(got - want) <= 4 * se + 1e-5);
		total += first[k];
	}
	assert_true(fabs((double)total / paths - seq_spent(0.05, t[K - 1])) <= 4 * sqrt(0.05 * 0.95 / paths));
	gsl_rng_free(r);
}

static void even_looks_spend_what_they_say(void **state)
{
	(void)state;
	boundaries_spend_what_they_say(five, 5);
}

static void uneven_looks_spend_what_they_say(void **state)
{
	const double t[] = { 0.3, 0.45, 0.7, 1 };
	(void)state;
	boundaries_spend_what_they_say(t, 4);
}

/* The design as the confirmation uses it: paired t tests at each look's nominal
 * level, 5 pairs per look up to 25, alpha shared by two finalists. On 20000 seeded
 * null sequences the rate of any rejection is at most its share, 0.025, within
 * 3 standard errors (the t statistics at few pairs are the approximate part). */
static void paired_t_at_the_boundaries_keeps_alpha(void **state)
{
	const int seqs = 20000;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double c[5], d[25];
	int s, k, i, rejected = 0;

	(void)state;
	gsl_rng_set(r, 42);
	assert_int_equal(seq_bounds(0.025, five, 5, c), 0);
	for (s = 0; s < seqs; s++) {
		for (i = 0; i < 25; i++)
			d[i] = gsl_ran_gaussian(r, 0.14);
		for (k = 0; k < 5; k++) {
			struct paired p;
			paired_summary(d, 5 * (k + 1), &p);
			if (paired_p(&p) <= seq_nominal(c[k])) {
				rejected++;
				break;
			}
		}
	}
	assert_true((double)rejected / seqs <= 0.025 + 3 * sqrt(0.025 * 0.975 / seqs));
	/* and it is not far below: the design spends its alpha */
	assert_true((double)rejected / seqs >= 0.018);
	gsl_rng_free(r);
}

static void the_sign_rule_spends_a_fixed_share(void **state)
{
	const double d[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, -0.2 };
	double lo, hi;

	(void)state;
	/* 2^(1 - n) <= 1% of alpha: 2^-11 <= 5e-4, 2^-12 <= 2.5e-4, 2^-14 <= 6.25e-5 */
	assert_int_equal(seq_sign_pairs(0.05), 12);
	assert_int_equal(seq_sign_pairs(0.025), 13);
	assert_int_equal(seq_sign_pairs(0.05 / 8), 15);
	assert_float_equal(seq_sign_spent(0.025), 1.0 / 4096, 1e-15);
	assert_float_equal(seq_t_alpha(0.025), 0.025 - 1.0 / 4096, 1e-15);
	assert_true(seq_sign_spent(0.05) <= SEQ_SIGN_SHARE * 0.05);
	/* too few pairs: no interval, no decision */
	assert_false(paired_sign(d, 11, 0.05, &lo, &hi));
	assert_true(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	/* enough: the smallest and the largest */
	assert_true(paired_sign(d, 12, 0.05, &lo, &hi));
	assert_float_equal(lo, 0.1, 0);
	assert_float_equal(hi, 0.1, 0);
	assert_true(paired_sign(d, 13, 0.05, &lo, &hi));
	assert_float_equal(lo, -0.2, 0);
	assert_float_equal(hi, 0.1, 0);
}

/* One look of the design as the confirmation makes it (confirm_look): the paired t
 * at the look's nominal level; where it has no interval (no variance) the sign rule
 * of the finalist's share. Returns -1 or +1 when it decides a change (the sign of
 * it), 0 when not; *sign says which rule decided. */
static int design_look(const double *d, int n, double a, double share, bool *sign)
{
	struct paired p;
	double lo, hi;

	paired_summary(d, n, &p);
	paired_ci(&p, a, &lo, &hi);
	*sign = !isfinite(lo) && paired_sign(d, n, share, &lo, &hi);
	if (*sign ? hi < 0 || lo > 0 : paired_p(&p) <= a)
		return p.mean < 0 ? -1 : 1;
	return 0;
}

enum null_kind {
	NULL_NORMAL, /* continuous: never without variance, the sign rule never used */
	NULL_COIN,   /* +-c at even odds: no ties, the sign rule's worst case */
	NULL_ROUNDED /* a metric of about 10 rounded to whole units: ties and constant runs */
};

static double null_difference(gsl_rng *r, enum null_kind k)
{
	switch (k) {
	case NULL_NORMAL:
		return gsl_ran_gaussian(r, 0.14);
	case NULL_COIN:
		return gsl_rng_uniform(r) < 0.5 ? -0.05 : 0.05;
	default:
		return log(round(10 + gsl_ran_gaussian(r, 0.6))) - log(round(10 + gsl_ran_gaussian(r, 0.6)));
	}
}

/* The whole design on null sequences (5 pairs a look up to 25, one of two finalists'
 * share 0.025, the t boundaries for seq_t_alpha of it): the share of sequences with
 * any decided change, and of those the sign rule decided. */
static void null_design(enum null_kind kind, int seqs, unsigned long seed, double *rate, double *sign_rate)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double c[5], a[5], d[25];
	int s, k, i, rejected = 0, by_sign = 0;

	gsl_rng_set(r, seed);
	assert_int_equal(seq_bounds(seq_t_alpha(0.025), five, 5, c), 0);
	for (k = 0; k < 5; k++)
		a[k] = seq_nominal(c[k]);
	for (s = 0; s < seqs; s++) {
		for (i = 0; i < 25; i++)
			d[i] = null_difference(r, kind);
		for (k = 0; k < 5; k++) {
			bool sign;
			if (design_look(d, 5 * (k + 1), a[k], 0.025, &sign)) {
				rejected++;
				by_sign += sign;
				break;
			}
		}
	}
	*rate = (double)rejected / seqs;
	*sign_rate = (double)by_sign / seqs;
	gsl_rng_free(r);
}

/* The sign rule alone on n sequences of coin flips (+-c at even odds, the rule's
 * worst case: no ties), looks every 5 pairs up to 25: how many it decides. With no
 * variance the t-test cannot decide, so on these paths this is what the design does
 * (the_design_with_the_sign_rule_keeps_alpha runs the whole design on fewer). */
static double sign_rule_on_coins(long n, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double d[25], lo, hi;
	long s, decided = 0;
	int k, i;

	gsl_rng_set(r, seed);
	for (s = 0; s < n; s++) {
		unsigned long bits = gsl_rng_get(r); /* mt19937: 32 random bits */
		for (i = 0; i < 25; i++)
			d[i] = bits >> i & 1 ? 0.05 : -0.05;
		for (k = 0; k < 5; k++)
			if (paired_sign(d, 5 * (k + 1), 0.025, &lo, &hi) && lo == hi) {
				decided++;
				break;
			}
	}
	gsl_rng_free(r);
	return (double)decided / n;
}

/* The false-positive promise with the sign rule, on nulls whose answer is known:
 * at most the share 0.025 (within 3 standard errors) on continuous, coin-flip and
 * rounded differences. On the coin flips the sign rule first acts at 15 pairs (13
 * needed, looks every 5), where all on one side has chance exactly 2^-14: measured on
 * 2^21 sequences within 4 standard errors (the sign rule spends what it says, a
 * quarter of the 2^-12 set aside for it). */
static void the_design_with_the_sign_rule_keeps_alpha(void **state)
{
	const double share = 0.025, want = ldexp(1, -14);
	static const char *const name[] = { "normal", "coin", "rounded" };
	const long n = 1L << 21;
	double rate, sign_rate;
	int k;

	(void)state;
	for (k = NULL_NORMAL; k <= NULL_ROUNDED; k++) {
		const int seqs = 20000;
		null_design(k, seqs, 42 + k, &rate, &sign_rate);
		print_message("null %s: any decided change %.4f (by the sign rule %.5f) of %d sequences\n", name[k],
			      rate, sign_rate, seqs);
		assert_true(rate <= share + 3 * sqrt(share * (1 - share) / seqs));
		if (k == NULL_NORMAL)
			assert_float_equal(sign_rate, 0, 0);
	}
	sign_rate = sign_rule_on_coins(n, 20261203);
	print_message("null coin, the sign rule alone: %.3g of %ld sequences decided (2^-14 = %.3g)\n", sign_rate, n,
		      want);
	assert_true(fabs(sign_rate - want) <= 4 * sqrt(want * (1 - want) / n));
}

/* A difference that never varies is decided at the first look with enough pairs for
 * the sign rule (15 of 13 needed), and one that varies is left to the t-test. */
static void constant_differences_end_at_the_sign_rules_look(void **state)
{
	double c[5], d[25];
	int k, i;
	bool sign;

	(void)state;
	assert_int_equal(seq_bounds(seq_t_alpha(0.025), five, 5, c), 0);
	for (i = 0; i < 25; i++)
		d[i] = log(1.1) / 2;
	for (k = 0; k < 5 && !design_look(d, 5 * (k + 1), seq_nominal(c[k]), 0.025, &sign); k++)
		;
	assert_int_equal(k, 2);
	assert_true(sign);
	for (i = 0; i < 25; i++)
		d[i] = -0.1 + 0.001 * (i % 2 ? 1 : -1);
	assert_int_equal(design_look(d, 5, seq_nominal(c[0]), 0.025, &sign), -1);
	assert_false(sign);
}

/* Paths of the design (5 pairs a look up to 25, alpha 0.025: one of two finalists'
 * share) with a true mean of delta paired standard deviations: how many reject, and
 * the pairs they took (25 for those that do not). The same seed for each spending, so
 * both see the same paths. */
static void run_design(seq_spending spent, double delta, int seqs, int *rejected, double *mean_pairs)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double c[5], d[25];
	long pairs = 0;
	int s, k, i;

	gsl_rng_set(r, 7);
	assert_int_equal(seq_bounds_of(spent, 0.025, five, 5, c), 0);
	*rejected = 0;
	for (s = 0; s < seqs; s++) {
		for (i = 0; i < 25; i++)
			d[i] = delta + gsl_ran_gaussian(r, 1);
		for (k = 0; k < 5; k++) {
			struct paired p;
			paired_summary(d, 5 * (k + 1), &p);
			if (paired_p(&p) <= seq_nominal(c[k]))
				break;
		}
		*rejected += k < 5;
		pairs += k < 5 ? 5 * (k + 1) : 25;
	}
	*mean_pairs = (double)pairs / seqs;
	gsl_rng_free(r);
}

/* Why gamma = -4: on the same paths, a change of 0.6 paired standard deviations (where
 * the design has about 70% power) is found as often as with O'Brien-Fleming spending,
 * within 1 point, and a clear change (4 sd) is decided with fewer pairs, because the
 * first look can decide (bench/spending.sh has the whole comparison). */
static void the_spending_stops_clear_changes_early_at_no_cost_in_power(void **state)
{
	const int seqs = 20000;
	int rh, ro;
	double ph, po;

	(void)state;
	run_design(seq_spent, 0.6, seqs, &rh, &ph);
	run_design(seq_spent_obf, 0.6, seqs, &ro, &po);
	assert_true(rh > 0.6 * seqs && ro > 0.6 * seqs);
	assert_true(fabs((double)(rh - ro) / seqs) <= 0.01);
	print_message("power at 0.6 sd: %.4f against O'Brien-Fleming's %.4f\n", (double)rh / seqs, (double)ro / seqs);
	run_design(seq_spent, 4, seqs, &rh, &ph);
	run_design(seq_spent_obf, 4, seqs, &ro, &po);
	assert_int_equal(rh, seqs);
	assert_int_equal(ro, seqs);
	/* O'Brien-Fleming's first look (5e-7) decides almost never: about 10 pairs */
	assert_true(po > 9.5);
	print_message("pairs at 4 sd: %.2f against %.2f\n", ph, po);
	assert_true(ph < po - 1.5);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spending_is_alpha_at_the_end_and_little_early),
		cmocka_unit_test(paired_t_on_known_data),
		cmocka_unit_test(no_variance_is_no_evidence),
		cmocka_unit_test(one_look_is_the_fixed_test),
		cmocka_unit_test(boundaries_fall_and_beat_the_sum_over_looks),
		cmocka_unit_test(bad_schedules_are_refused),
		cmocka_unit_test(even_looks_spend_what_they_say),
		cmocka_unit_test(uneven_looks_spend_what_they_say),
		cmocka_unit_test(paired_t_at_the_boundaries_keeps_alpha),
		cmocka_unit_test(the_spending_stops_clear_changes_early_at_no_cost_in_power),
		cmocka_unit_test(the_sign_rule_spends_a_fixed_share),
		cmocka_unit_test(the_design_with_the_sign_rule_keeps_alpha),
		cmocka_unit_test(constant_differences_end_at_the_sign_rules_look),
	};

	return cmocka_run_group_tests_name("seqtest", tests, NULL, NULL);
}
