/* test_sensitivity.c - the report's sensitivity (sens_fit) on data whose answer is
 * known: a bowl in one knob, a knob that does nothing, an enum whose choices cost
 * different amounts. Without noise it must give the exact effects; with noise its
 * 95% bands must cover the true effects in at least 95% of 400 seeded data sets and
 * find an effect of the knob without one in at most 5%; too few rows or a knob held
 * at one value give no figure rather than a made-up one. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "testutil.h"
#include "search-int.h"

#define N 120
static const bool categorical[3] = { false, false, true };
static const double level[3] = { 0, 0.10, 0.05 }; /* the enum's three choices */

/* The truth: 0.3 x0^2 (a bowl: 0 at 0, 0.3 at either end), nothing from x1, and the
 * enum's level. Rows spread over the box, the enum cycling, noise of sd on the log. */
static void data(gsl_rng *r, double sd, double *x, double *y)
{
	for (int i = 0; i < N; i++) {
		x[i * 3] = gsl_rng_uniform(r) * 2 - 1;
		x[i * 3 + 1] = gsl_rng_uniform(r) * 2 - 1;
		x[i * 3 + 2] = i % 3;
		y[i] = 0.3 * x[i * 3] * x[i * 3] + level[i % 3] + (sd > 0 ? gsl_ran_gaussian(r, sd) : 0);
	}
}

static double pct(double log_change)
{
	return 100 * (exp(log_change) - 1);
}

static void exact_without_noise(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[N * 3], y[N];
	struct sens s[3];

	(void)state;
	gsl_rng_set(r, 1);
	data(r, 0, x, y);
	assert_int_equal(sens_fit(N, 3, x, y, categorical, s), 0);
	assert_true(fabs(s[0].pct - pct(0.3)) < 1e-6 && sens_found(&s[0]));
	assert_true(fabs(s[1].pct) < 1e-6 && !sens_found(&s[1]));
	assert_true(fabs(s[2].pct - pct(0.10)) < 1e-6 && sens_found(&s[2]));
	gsl_rng_free(r);
}

static void bands_cover_the_truth(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[N * 3], y[N];
	struct sens s[3];
	int runs = 400, cover0 = 0, cover2 = 0, false1 = 0, found0 = 0;

	(void)state;
	gsl_rng_set(r, 2);
	for (int k = 0; k < runs; k++) {
		data(r, 0.1, x, y);
		assert_int_equal(sens_fit(N, 3, x, y, categorical, s), 0);
		cover0 += s[0].lo <= pct(0.3) && pct(0.3) <= s[0].hi;
		cover2 += s[2].lo <= pct(0.10) && pct(0.10) <= s[2].hi;
		false1 += sens_found(&s[1]);
		found0 += sens_found(&s[0]);
	}
	print_message("# sensitivity on 400 data sets: bowl covered %d, enum covered %d, bowl found %d, "
		      "no-effect knob found %d\n",
		      cover0, cover2, found0, false1);
	assert_true(cover0 >= runs * 95 / 100);
	assert_true(cover2 >= runs * 95 / 100);
	assert_true(false1 <= runs * 5 / 100);
	/* a 35% effect with noise of 10% and 120 rows is found nearly always */
	assert_true(found0 >= runs * 9 / 10);
	gsl_rng_free(r);
}

static void no_figure_without_the_data_for_one(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[N * 3], y[N];
	struct sens s[3];

	(void)state;
	gsl_rng_set(r, 3);
	data(r, 0.1, x, y);
	/* 8 rows for 6 coefficients: no residual variance to speak of */
	assert_int_equal(sens_fit(8, 3, x, y, categorical, s), -1);
	for (int k = 0; k < 3; k++)
		assert_true(isnan(s[k].pct) && isnan(s[k].lo) && isnan(s[k].hi));
	/* x1 held at one value: no figure for it, the others as before */
	for (int i = 0; i < N; i++)
		x[i * 3 + 1] = 0.5;
	assert_int_equal(sens_fit(N, 3, x, y, categorical, s), 0);
	assert_true(isnan(s[1].pct) && !sens_found(&s[1]));
	assert_true(sens_found(&s[0]) && sens_found(&s[2]));
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_without_noise),
		cmocka_unit_test(bands_cover_the_truth),
		cmocka_unit_test(no_figure_without_the_data_for_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
