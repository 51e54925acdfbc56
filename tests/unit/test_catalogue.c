/* test_catalogue.c - the knob table is consistent: names, ranges, defaults, choices. */
#include "testutil.h"

#include "catalogue.h"

static void names_unique_and_found(void **state)
{
	size_t i, j;

	(void)state;
	assert_true(knob_catalogue_len >= 25);
	for (i = 0; i < knob_catalogue_len; i++) {
		assert_ptr_equal(knob_find(knob_catalogue[i].name), &knob_catalogue[i]);
		for (j = i + 1; j < knob_catalogue_len; j++)
			assert_string_not_equal(knob_catalogue[i].name, knob_catalogue[j].name);
	}
	assert_null(knob_find("vm.nonexistent"));
	assert_null(knob_find("page-cluster"));
}

static void design_knobs_present(void **state)
{
	static const char *const must[] = {
		"vm.page-cluster",
		"vm.swappiness",
		"vm.vfs_cache_pressure",
		"vm.dirty_ratio",
		"vm.dirty_background_ratio",
		"vm.dirty_expire_centisecs",
		"vm.dirty_writeback_centisecs",
		"vm.min_free_kbytes",
		"vm.watermark_scale_factor",
		"vm.watermark_boost_factor",
		"vm.compaction_proactiveness",
		"prefault.max_order",
		"mthp.anon_max_order",
		"thp.enabled",
		"thp.defrag",
		"vm.vm_cache_scan_ratio",
		"vm.vm_mapped_ratio",
		"vm.vm_lru_balance_ratio",
		"vm.vm_passes",
		"vm.vm_vfs_scan_ratio",
		"vm.vm_anon_lru",
	};
	static const char *const never_searched[] = { "vm.overcommit_memory", "vm.zone_reclaim_mode",
						      "vm.drop_caches",	      "vm.panic_on_oom",
						      "vm.dirty_bytes",	      "vm.dirty_background_bytes" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(must) / sizeof(must[0]); i++) {
		assert_non_null(knob_find(must[i]));
		assert_true(knob_searchable(knob_find(must[i])));
	}
	for (i = 0; i < sizeof(never_searched) / sizeof(never_searched[0]); i++) {
		assert_non_null(knob_find(never_searched[i]));
		assert_false(knob_searchable(knob_find(never_searched[i])));
	}
}

static void ranges_are_consistent(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < knob_catalogue_len; i++) {
		const struct knob_def *d = &knob_catalogue[i];

		assert_non_null(d->paths[0].path);
		assert_true(d->min <= d->max);
		if (!(d->flags & KF_DEFAULT_COMPUTED))
			assert_true(d->def >= d->min && d->def <= d->max);
		if (d->type == KT_ENUM) {
			assert_non_null(d->choices);
			assert_int_equal(knob_choice_count(d), d->max + 1);
		}
		if (knob_searchable(d) && !(d->flags & KF_RANGE_FROM_ORIGINAL)) {
			assert_true(d->smin >= d->min);
			assert_true(d->smax <= d->max);
			assert_true(d->smin < d->smax);
		}
		if (d->pair) {
			const struct knob_def *p = knob_find(d->pair);
			assert_non_null(p);
			assert_string_equal(p->pair, d->name);
		}
	}
}

static void traps_never_searched(void **state)
{
	long lo, hi;

	(void)state;
	/* 0 never reclaims dentries; 0 disables periodic writeback; 0 divides by zero in 2.4-aa */
	knob_search_range(knob_find("vm.vfs_cache_pressure"), 100, &lo, &hi);
	assert_true(lo > 0);
	knob_search_range(knob_find("vm.dirty_writeback_centisecs"), 500, &lo, &hi);
	assert_true(lo > 0);
	assert_true(knob_find("vm.vm_cache_scan_ratio")->min > 0);
	assert_true(knob_find("vm.vm_passes")->min > 0);
	knob_search_range(knob_find("vm.page-cluster"), 3, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 6);
}

static void min_free_range_from_original(void **state)
{
	const struct knob_def *d = knob_find("vm.min_free_kbytes");
	long lo, hi;

	(void)state;
	/* the fake tree has 1 GB: default sqrt(1048576*16) = 4096, 5% cap = 52428 */
	assert_int_equal(knob_default(d), 4096);
	knob_search_range(d, 8192, &lo, &hi);
	assert_int_equal(lo, 4096);
	assert_int_equal(hi, 32768);
	knob_search_range(d, 40000, &lo, &hi);
	assert_int_equal(lo, 20000);
	assert_int_equal(hi, 52428);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_unique_and_found),
		cmocka_unit_test(design_knobs_present),
		cmocka_unit_test(ranges_are_consistent),
		cmocka_unit_test(traps_never_searched),
		cmocka_unit_test_setup_teardown(min_free_range_from_original, fake_root_setup, fake_root_teardown),
	};

	return cmocka_run_group_tests_name("catalogue", tests, NULL, NULL);
}
