/* test_workload.c - workload specs read as their programs read them: the same run
 * however its options are ordered or spelled, and each built-in's option string
 * held to its program's getopt call. */
#include <errno.h>

#include "testutil.h"

#include "workload.h"

static const char *canon(const char *spec)
{
	static char buf[1024];

	workload_canonical(spec, buf, sizeof(buf));
	return buf;
}

static void options_in_any_order_are_one_run(void **state)
{
	(void)state;
	assert_string_equal(canon("swapbench -s 600M -a seq -P 2"), "swapbench -P 2 -a seq -s 600M");
	assert_string_equal(canon("swapbench -P 2 -a seq -s 600M"), "swapbench -P 2 -a seq -s 600M");
	/* an argument joined to its option, flags in a cluster */
	assert_string_equal(canon("swapbench -a seq -s600M -P2"), "swapbench -P 2 -a seq -s 600M");
	assert_string_equal(canon("mtest01 -wv -p 80"), "mtest01 -p 80 -v -w");
	assert_string_equal(canon("mtest01 -p80 -v -w"), "mtest01 -p 80 -v -w");
	assert_true(workload_same("swapbench -s 600M -a seq -P 2", "swapbench -a seq -P 2 -s 600M"));
	/* a cluster that ends in an option with an argument takes the next word */
	assert_string_equal(canon("mtest01 -wp 80"), "mtest01 -p 80 -w");
}

static void different_values_are_different_runs(void **state)
{
	(void)state;
	assert_false(workload_same("swapbench -s 600M -a seq -P 2", "swapbench -s 600M -a seq -P 3"));
	assert_false(workload_same("swapbench -s 600M -a seq", "swapbench -s 600M -a rand"));
	assert_false(workload_same("swapbench -s 600M", "swapbench -s 600M -v"));
	assert_false(workload_same("mtest01 -p 80 -w", "pft -b 80"));
	/* a repeated option keeps its order: the program takes the last */
	assert_string_equal(canon("swapbench -s 1G -a seq -s 600M"), "swapbench -a seq -s 1G -s 600M");
	assert_false(workload_same("swapbench -s 1G -s 600M", "swapbench -s 600M -s 1G"));
}

static void mtest01_alone_is_the_seeds_run(void **state)
{
	(void)state;
	assert_string_equal(workload_alias("mtest01"), "mtest01 -p 80 -w");
	assert_string_equal(workload_alias("mtest01 -p 50"), "mtest01 -p 50");
	assert_true(workload_same("mtest01", "mtest01 -w -p 80"));
	assert_false(workload_same("mtest01", "mtest01 -p 80"));
}

static void words_that_need_quotes_keep_them(void **state)
{
	(void)state;
	assert_string_equal(canon("mmap001 -m 100 -d '/var/tmp/my dir'"), "mmap001 -d '/var/tmp/my dir' -m 100");
	assert_string_equal(canon("mmap001 -d \"it's\" -m 1"), "mmap001 -d 'it'\\''s' -m 1");
	assert_true(workload_same("mmap001 -d '/var/tmp/my dir' -m 100", "mmap001 -m 100 -d /var/tmp/my\\ dir"));
	/* operands after the options, in their order; -- ends the options */
	assert_string_equal(canon("chat one -r 2 two"), "chat -r 2 one two");
	assert_string_equal(canon("chat -- -r 2"), "chat -r 2");
	assert_string_equal(canon("chat -u 3 -- -r"), "chat -u 3 -r");
}

static void what_does_not_parse_is_kept_as_written(void **state)
{
	(void)state;
	/* exec: commands are the shell's business */
	assert_string_equal(canon("exec:./score.sh  -b 1 -a 2"), "exec:./score.sh  -b 1 -a 2");
	assert_false(workload_same("exec:./score.sh -a 2 -b 1", "exec:./score.sh -b 1 -a 2"));
	assert_true(workload_same("exec:./score.sh -a 2", "exec:./score.sh -a 2"));
	/* an option the program does not have, a missing argument, an unknown program */
	assert_string_equal(canon("swapbench -x 1 -s 1G"), "swapbench -x 1 -s 1G");
	assert_false(workload_same("swapbench -x 1 -s 1G", "swapbench -s 1G -x 1"));
	assert_string_equal(canon("swapbench -a seq -s"), "swapbench -a seq -s");
	assert_string_equal(canon("nosuch -b 1 -a 2"), "nosuch -b 1 -a 2");
	assert_string_equal(canon("swapbench -s '1G"), "swapbench -s '1G");
}

/* The table's option strings are the programs' own: each program's getopt call
 * reads its string from the same list (wl_opts_NAME), not a copy of it. */
static void option_strings_match_the_programs(void **state)
{
	const struct workload_info *wi;

	(void)state;
	for (wi = workload_builtins; wi->name; wi++) {
		char path[256], line[512], want[128], *at = NULL;
		FILE *f;

		snprintf(path, sizeof(path), "workloads/%s.c", wi->name);
		snprintf(want, sizeof(want), "getopt(argc, argv, wl_opts_%s)", wi->name);
		f = fopen(path, "r");
		if (!f)
			fail_msg("%s: %s (run from the source tree's top)", path, strerror(errno));
		while (!at && fgets(line, sizeof(line), f))
			at = strstr(line, "getopt(argc, argv, ");
		fclose(f);
		if (!at)
			fail_msg("%s: no getopt(argc, argv, ...) call", path);
		if (strncmp(at, want, strlen(want)) != 0)
			fail_msg("%s: the program's getopt call is %.60s, not %s", wi->name, at, want);
		assert_true(strlen(wi->opts) > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_in_any_order_are_one_run),
		cmocka_unit_test(different_values_are_different_runs),
		cmocka_unit_test(mtest01_alone_is_the_seeds_run),
		cmocka_unit_test(words_that_need_quotes_keep_them),
		cmocka_unit_test(what_does_not_parse_is_kept_as_written),
		cmocka_unit_test(option_strings_match_the_programs),
	};

	return cmocka_run_group_tests_name("workload", tests, NULL, NULL);
}
