/* test_size.c - strict size, duration and integer parsing. */
#include "testutil.h"

#include "size.h"
#include "runconfig.h"
#include "space.h"
#include "swap.h"

static void sizes_with_suffixes(void **state)
{
	uint64_t v;
	char why[128];

	(void)state;
	assert_int_equal(parse_size("0", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_size("4096", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("512M", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 512ULL << 20);
	assert_int_equal(parse_size("1G", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 1ULL << 30);
	assert_int_equal(parse_size("1.5G", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 3ULL << 29);
	assert_int_equal(parse_size("64k", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(parse_size("2MiB", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 2ULL << 20);
	assert_int_equal(parse_size("3gb", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 3ULL << 30);
	assert_int_equal(parse_size("16T", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 16ULL << 40);
}

static void bad_sizes_name_the_word(void **state)
{
	static const char *const bad[] = { "12Q", "", "M", "-1", "1.G", "1 G", "0x10", "1e3", "5MM", "1.5.5G" };
	uint64_t v = 7;
	char why[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(parse_size(bad[i], &v, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "invalid size"));
		if (bad[i][0])
			assert_non_null(strstr(why, bad[i]));
	}
	assert_int_equal(v, 7); /* untouched on error */
	assert_int_equal(parse_size("12Q", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'Q'"));
}

static void overflow_is_an_error_not_a_wrap(void **state)
{
	uint64_t v = 0;
	char why[128];

	(void)state;
	assert_int_equal(parse_size("99999999999999999999M", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "too large"));
	assert_int_equal(parse_size("99999999999999999999", &v, why, sizeof(why)), -1);
	assert_int_equal(parse_size("16777216T", &v, why, sizeof(why)), -1); /* 2^64 */
	assert_int_equal(parse_size("16777215T", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 16777215ULL << 40);
	assert_int_equal(parse_size("18446744073709551615", &v, why, sizeof(why)), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_size("18446744073709551616", &v, why, sizeof(why)), -1);
}

static void durations(void **state)
{
	double d;
	char why[128];

	(void)state;
	assert_int_equal(parse_duration("30", &d, why, sizeof(why)), 0);
	assert_float_equal(d, 30, 1e-9);
	assert_int_equal(parse_duration("5m", &d, why, sizeof(why)), 0);
	assert_float_equal(d, 300, 1e-9);
	assert_int_equal(parse_duration("100ms", &d, why, sizeof(why)), 0);
	assert_float_equal(d, 0.1, 1e-9);
	assert_int_equal(parse_duration("1.5h", &d, why, sizeof(why)), 0);
	assert_float_equal(d, 5400, 1e-9);
	assert_int_equal(parse_duration("5x", &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'x'"));
	assert_int_equal(parse_duration("-5s", &d, why, sizeof(why)), -1);
	assert_int_equal(parse_duration("", &d, why, sizeof(why)), -1);
	/* strtod's other forms are not durations (found by fuzz_size) */
	assert_int_equal(parse_duration("1e3", &d, why, sizeof(why)), -1);
	assert_int_equal(parse_duration("0x10s", &d, why, sizeof(why)), -1);
	assert_int_equal(parse_duration("1.5.2s", &d, why, sizeof(why)), -1);
}

static void integers(void **state)
{
	long v;
	char why[128];

	(void)state;
	assert_int_equal(parse_long("10", 1, 100, &v, why, sizeof(why)), 0);
	assert_int_equal(v, 10);
	assert_int_equal(parse_long("0", 1, 100, &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "out of range 1..100"));
	assert_int_equal(parse_long("10abc", 1, 100, &v, why, sizeof(why)), -1);
	assert_int_equal(parse_long(" 10", 1, 100, &v, why, sizeof(why)), -1);
	assert_int_equal(parse_long("99999999999999999999", 0, LONG_MAX, &v, why, sizeof(why)), -1);
}

static void formatting(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(format_size(512ULL << 20, buf, sizeof(buf)), "512M");
	assert_string_equal(format_size(3ULL << 29, buf, sizeof(buf)), "1.5G");
	assert_string_equal(format_size(100, buf, sizeof(buf)), "100B");
}

/* --swap: the backends, their round trip through the stored text, and refusals
 * that say why. */
static void swap_specs(void **state)
{
	struct swap_spec sp;
	char why[160], buf[64];

	(void)state;
	assert_int_equal(swap_spec_parse("1G", &sp, why, sizeof(why)), 0);
	assert_int_equal(sp.backend, SWAP_FILE);
	assert_true(sp.size == 1ULL << 30 && !sp.zswap && !sp.algo[0]);
	assert_string_equal(swap_spec_format(&sp, buf, sizeof(buf)), "file:1G");
	assert_true(swap_spec_limit(&sp) == 1ULL << 30);

	assert_int_equal(swap_spec_parse("zram:512M:lz4", &sp, why, sizeof(why)), 0);
	assert_int_equal(sp.backend, SWAP_ZRAM);
	assert_true(sp.size == 512ULL << 20);
	assert_string_equal(sp.algo, "lz4");
	assert_string_equal(swap_spec_format(&sp, buf, sizeof(buf)), "zram:512M:lz4");
	assert_int_equal(swap_spec_parse("zram:256M", &sp, why, sizeof(why)), 0);
	assert_string_equal(sp.algo, "");
	assert_string_equal(swap_spec_format(&sp, buf, sizeof(buf)), "zram:256M");

	assert_int_equal(swap_spec_parse("file:2G+zswap", &sp, why, sizeof(why)), 0);
	assert_true(sp.backend == SWAP_FILE && sp.zswap && sp.size == 2ULL << 30);
	assert_string_equal(swap_spec_format(&sp, buf, sizeof(buf)), "file:2G+zswap");

	assert_int_equal(swap_spec_parse("machine", &sp, why, sizeof(why)), 0);
	assert_true(sp.backend == SWAP_MACHINE && !sp.zswap);
	assert_true(swap_spec_limit(&sp) == 0); /* the machine's swap: not limited */
	assert_int_equal(swap_spec_add_zswap(&sp, why, sizeof(why)), 0);
	assert_string_equal(swap_spec_format(&sp, buf, sizeof(buf)), "machine+zswap");

	/* refusals, each saying why */
	assert_int_equal(swap_spec_parse("zram:1G+zswap", &sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "compresses twice"));
	assert_int_equal(swap_spec_parse("zram:1G", &sp, why, sizeof(why)), 0);
	assert_int_equal(swap_spec_add_zswap(&sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "compresses twice"));
	memset(&sp, 0, sizeof(sp));
	assert_int_equal(swap_spec_add_zswap(&sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "needs swap"));
	assert_int_equal(swap_spec_parse("disk:1G", &sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a swap backend"));
	assert_int_equal(swap_spec_parse("zram:1G:LZ4;rm", &sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lower-case letters"));
	assert_int_equal(swap_spec_parse("zram:1G:", &sp, why, sizeof(why)), -1);
	assert_int_equal(swap_spec_parse("file:1G+zram", &sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "only thing that may follow"));
	assert_int_equal(swap_spec_parse("file:12Q", &sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "unknown suffix"));
	assert_int_equal(swap_spec_parse("file:4K", &sp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "at least 1M"));
}

/* The pseudo-knob swap: a spec's backend as its value and back, and as a
 * dimension of a search space whose settings go to JSON and back. */
static void the_swap_backend_as_a_dimension(void **state)
{
	struct swap_spec sp, b;
	struct space s;
	long vals[SPACE_MAX], back[SPACE_MAX];
	bool present[SPACE_MAX];
	char why[160], buf[64], *sj;

	(void)state;
	assert_int_equal(swap_spec_parse("file:256M", &sp, why, sizeof(why)), 0);
	assert_int_equal(swap_spec_vary_index(&sp), SWAP_VARY_FILE);
	swap_spec_for_backend(&sp, SWAP_VARY_ZRAM, &b);
	assert_string_equal(swap_spec_format(&b, buf, sizeof(buf)), "zram:256M");
	swap_spec_for_backend(&sp, SWAP_VARY_ZSWAP, &b);
	assert_string_equal(swap_spec_format(&b, buf, sizeof(buf)), "file:256M+zswap");
	assert_int_equal(swap_spec_vary_index(&b), SWAP_VARY_ZSWAP);
	assert_int_equal(swap_spec_parse("zram:1G:lz4", &sp, why, sizeof(why)), 0);
	assert_int_equal(swap_spec_vary_index(&sp), SWAP_VARY_ZRAM);
	swap_spec_for_backend(&sp, SWAP_VARY_FILE, &b);
	assert_string_equal(swap_spec_format(&b, buf, sizeof(buf)), "file:1G"); /* no compressor on a file */
	assert_int_equal(swap_spec_parse("machine", &sp, why, sizeof(why)), 0);
	assert_int_equal(swap_spec_vary_index(&sp), -1);

	/* only asked for: never among "every available knob" */
	assert_int_equal(space_build_for(&s, "swap", false), 0);
	assert_int_equal(s.d, 1);
	assert_true(s.dim[0].pseudo && s.dim[0].categorical && s.categorical[0]);
	assert_int_equal(s.dim[0].lo, 0);
	assert_int_equal(s.dim[0].hi, SWAP_VARY_N - 1);
	vals[0] = SWAP_VARY_ZSWAP;
	sj = settings_json(&s, vals);
	assert_string_equal(sj, "{\"swap\":\"file+zswap\"}");
	assert_int_equal(settings_parse(sj, &s, back, present, why, sizeof(why)), 0);
	assert_true(present[0]);
	assert_int_equal(back[0], SWAP_VARY_ZSWAP);
	free(sj);
	assert_int_equal(settings_parse("{\"swap\":\"floppy\"}", &s, back, present, why, sizeof(why)), 0);
	assert_false(present[0]);
	assert_string_equal(space_describe(&s, vals, true, buf, sizeof(buf)), "swap=file+zswap");
	assert_int_equal(space_build_for(&s, NULL, false) == 0 ? space_find(&s, &swap_knob) : -1, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_with_suffixes),
		cmocka_unit_test(bad_sizes_name_the_word),
		cmocka_unit_test(overflow_is_an_error_not_a_wrap),
		cmocka_unit_test(durations),
		cmocka_unit_test(integers),
		cmocka_unit_test(formatting),
		cmocka_unit_test(swap_specs),
		cmocka_unit_test(the_swap_backend_as_a_dimension),
	};

	return cmocka_run_group_tests_name("size", tests, NULL, NULL);
}
