/* test_extract.c - numbers out of programs' output: the JSON path syntax and its
 * errors, regular expressions with one group, the exec{...}:CMD spec that carries
 * them (and refuses what it cannot carry), and each tool's reader fed the real
 * output of fio 3.33, stress-ng 0.15, sysbench 1.0.20, redis-benchmark 7.0 and
 * pgbench 15 kept in tests/fixtures/tools. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "extract.h"
#include "tools.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static double value(const struct run_result *r, const char *name)
{
	return run_value(r, name);
}

static void json_paths_reach_numbers(void **state)
{
	json_object *o = json_tokener_parse("{\"a\": {\"b c\": [1, 2.5, \"7\"], \"s\": \"x\"}, \"n\": 3}");
	char why[512];
	double v;

	(void)state;
	assert_int_equal(extract_json_path(o, "n", &v, why, sizeof(why)), 0);
	assert_true(v == 3);
	assert_int_equal(extract_json_path(o, ".a[\"b c\"][1]", &v, why, sizeof(why)), 0);
	assert_true(v == 2.5);
	/* a string that is a number is the number */
	assert_int_equal(extract_json_path(o, "a[\"b c\"][2]", &v, why, sizeof(why)), 0);
	assert_true(v == 7);
	/* what is missing is named, with where the path got to */
	assert_int_equal(extract_json_path(o, "a.x", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no key 'x' at a"));
	assert_int_equal(extract_json_path(o, "a[\"b c\"][5]", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no [5]"));
	assert_int_equal(extract_json_path(o, "a.s", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a number"));
	assert_int_equal(extract_json_path(o, "a", &v, why, sizeof(why)), -1);
	/* the syntax */
	assert_int_equal(extract_json_path_check("a..b", why, sizeof(why)), -1);
	assert_int_equal(extract_json_path_check("a[x]", why, sizeof(why)), -1);
	assert_int_equal(extract_json_path_check("a[\"unterminated", why, sizeof(why)), -1);
	assert_int_equal(extract_json_path_check("", why, sizeof(why)), -1);
	assert_int_equal(extract_json_path_check("jobs[0].read.clat_ns.percentile[\"99.000000\"]", why, sizeof(why)),
			 0);
	json_object_put(o);
}

static void rules_are_checked_when_given(void **state)
{
	struct extract ex = { .n = 0 };

	(void)state;
	assert_int_equal(extract_add(&ex, EX_REGEX, "t=took ([0-9.]+) s", "--metric-regex"), 0);
	/* no group, two groups, a bad name, a bad path, a name twice */
	assert_int_equal(extract_add(&ex, EX_REGEX, "u=took [0-9.]+ s", "--metric-regex"), -1);
	assert_int_equal(extract_add(&ex, EX_REGEX, "u=(a)(b)", "--metric-regex"), -1);
	assert_int_equal(extract_add(&ex, EX_REGEX, "u=([0-9]", "--metric-regex"), -1);
	assert_int_equal(extract_add(&ex, EX_JSON, "bad name=a", "--metric-json"), -1);
	assert_int_equal(extract_add(&ex, EX_JSON, "v=a..b", "--metric-json"), -1);
	assert_int_equal(extract_add(&ex, EX_JSON, "t=a", "--metric-json"), -1);
	assert_int_equal(ex.n, 1);
}

static void the_spec_carries_the_rules(void **state)
{
	struct extract ex = { .n = 0 }, back;
	char spec[4096];
	const char *cmd;

	(void)state;
	assert_int_equal(extract_add(&ex, EX_JSON, "tps=a[\"b \\\"c\\\"\"].d", "--metric-json"), 0);
	assert_int_equal(extract_add(&ex, EX_REGEX, "lat=lat: ([0-9.]+)}", "--metric-regex"), 0);
	snprintf(ex.file, sizeof(ex.file), "/tmp/out.json");
	assert_int_equal(extract_wrap("exec:my tool --x '{}'", &ex, spec, sizeof(spec)), 0);
	assert_int_equal(strncmp(spec, "exec{", 5), 0);
	assert_int_equal(extract_from_spec(spec, &back, &cmd), 1);
	assert_string_equal(cmd, "my tool --x '{}'");
	assert_int_equal(back.n, 2);
	assert_string_equal(back.r[0].name, "tps");
	assert_string_equal(back.r[0].expr, ex.r[0].expr);
	assert_string_equal(back.r[1].expr, "lat: ([0-9.]+)}");
	assert_string_equal(back.file, "/tmp/out.json");
	/* a spec that is not exec: stays as it is */
	assert_int_equal(extract_wrap("mtest01 -p 80 -w", &ex, spec, sizeof(spec)), 0);
	assert_string_equal(spec, "mtest01 -p 80 -w");
	assert_int_equal(extract_from_spec("exec:true", &back, &cmd), 0);
	/* what the braces must not hold */
	assert_int_equal(extract_from_spec("exec{\"json\":{\"a\":\"b\"}true", &back, &cmd), -1);
	assert_int_equal(extract_from_spec("exec{\"json\":{\"a\":\"b..c\"}}:true", &back, &cmd), -1);
	assert_int_equal(extract_from_spec("exec{\"regex\":{\"a\":\"no group\"}}:true", &back, &cmd), -1);
	assert_int_equal(extract_from_spec("exec{\"shell\":\"rm\",\"json\":{\"a\":\"b\"}}:true", &back, &cmd), -1);
	assert_int_equal(extract_from_spec("exec{}:true", &back, &cmd), -1);
	assert_int_equal(extract_from_spec("exec{\"json\":{\"a\":\"b\"},\"file\":\"rel\"}:true", &back, &cmd), -1);
	assert_int_equal(extract_from_spec("exec{\"json\":{\"a\":\"b\"}}:", &back, &cmd), -1);
}

static void output_is_read_or_refused(void **state)
{
	struct extract ex = { .n = 0 };
	struct run_value vals[RUN_MAX_VALUES];
	const char *out = "noise first\n{\"r\": {\"iops\": 1500.5}}\ntook 3 s\ntook 4.5 s\n";
	char why[768];
	int n = 0;

	(void)state;
	assert_int_equal(extract_add(&ex, EX_JSON, "iops=r.iops", "--metric-json"), 0);
	assert_int_equal(extract_add(&ex, EX_REGEX, "took=^took ([0-9.]+) s$", "--metric-regex"), 0);
	assert_int_equal(extract_apply(&ex, out, strlen(out), vals, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 2);
	assert_true(vals[0].value == 1500.5);
	assert_true(vals[1].value == 4.5); /* the last match */
	n = 0;
	assert_int_equal(extract_apply(&ex, "took 3 s\n", 9, vals, &n, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "iops: the output holds no JSON"));
	ex.n = 0;
	assert_int_equal(extract_add(&ex, EX_REGEX, "x=value ([a-z0-9.]+)", "--metric-regex"), 0);
	n = 0;
	assert_int_equal(extract_apply(&ex, "value abc\n", 10, vals, &n, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is not a number"));
	assert_int_equal(extract_apply(&ex, "nothing\n", 8, vals, &n, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not match"));
	/* from a file the command writes */
	snprintf(ex.file, sizeof(ex.file), "/nonexistent/out");
	assert_int_equal(extract_apply(&ex, "", 0, vals, &n, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cannot read the output file /nonexistent/out"));
}

static const struct tool *tool(const char *name)
{
	char spec[64];

	snprintf(spec, sizeof(spec), "%s:x", name);
	return tool_of(spec, NULL);
}

static void fio_json_is_read(void **state)
{
	struct run_result r;
	size_t len;
	char *out = slurp("tests/fixtures/tools/fio-seqread.json", &len);

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("fio"), out, len, NULL, &r), 0);
	/* the fixture's own figures: read iops 2133.333333, bw 2184533 KiB/s */
	assert_true(fabs(value(&r, "iops") - 2133.333333) < 1e-6);
	assert_true(fabs(value(&r, "read_iops") - 2133.333333) < 1e-6);
	assert_true(fabs(value(&r, "seqread.read_iops") - 2133.333333) < 1e-6);
	assert_true(fabs(value(&r, "read_mib_s") - 2184533 / 1024.0) < 1e-6);
	assert_true(value(&r, "read_clat_p99_ms") > 0);
	assert_true(value(&r, "read_clat_p50_ms") <= value(&r, "read_clat_p99_ms"));
	assert_true(isnan(value(&r, "write_iops"))); /* it wrote nothing */
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("fio"), "fio: no such job\n", 17, NULL, &r), -1);
	assert_non_null(strstr(r.note, "no JSON"));
	free(out);
}

static void stress_ng_yaml_is_read(void **state)
{
	struct run_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("stress-ng"), "", 0, "tests/fixtures/tools/stress-ng-vm-mmap.yaml", &r), 0);
	assert_true(fabs(value(&r, "vm.bogo_ops_s") - 7148.346596) < 1e-6);
	assert_true(fabs(value(&r, "mmap.bogo_ops_s") - 0.624229) < 1e-6);
	assert_true(fabs(value(&r, "bogo_ops_s") - (7148.346596 + 0.624229)) < 1e-6);
	assert_true(value(&r, "vm.bogo_ops") == 21504);
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("stress-ng"), "", 0, "/nonexistent.yaml", &r), -1);
	assert_non_null(strstr(r.note, "no --yaml metrics"));
}

static void sysbench_text_is_read(void **state)
{
	struct run_result r;
	size_t len;
	char *out = slurp("tests/fixtures/tools/sysbench-memory.out", &len);

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("sysbench"), out, len, NULL, &r), 0);
	assert_true(value(&r, "ops_s") == 4097188.33);
	assert_true(value(&r, "mib_s") == 4001.16);
	assert_true(value(&r, "lat_max_ms") == 4.91);
	assert_true(value(&r, "lat_p95_ms") == 0);
	assert_true(value(&r, "total_s") == 0.2528);
	assert_true(fabs(value(&r, "events_s") - 1048576 / 0.2528) < 1e-3);
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("sysbench"), "FATAL: bad\n", 11, NULL, &r), -1);
	free(out);
}

static void redis_csv_is_read(void **state)
{
	struct run_result r;
	size_t len;
	char *out = slurp("tests/fixtures/tools/redis-benchmark.csv", &len);

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("redis"), out, len, NULL, &r), 0);
	assert_true(value(&r, "SET.rps") == 30769.23);
	assert_true(value(&r, "GET.p99_ms") == 3.639);
	/* both tests made -n requests: the rate over all of them; the worst test's p99 */
	assert_true(fabs(value(&r, "rps") - 2 / (1 / 30769.23 + 1 / 28571.43)) < 1e-6);
	assert_true(value(&r, "p99_ms") == 4.479);
	assert_true(fabs(value(&r, "avg_ms") - (1.058 + 1.097) / 2) < 1e-9);
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("redis"), "Could not connect\n", 18, NULL, &r), -1);
	free(out);
}

static void pgbench_output_and_log_are_read(void **state)
{
	struct run_result r;
	size_t len;
	char *out = slurp("tests/fixtures/tools/pgbench-select.out", &len), dir[] = "/tmp/vmtune-pgl-XXXXXX", path[64];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tx.123", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	/* pgbench -l: client_id transaction_no time_us script_no epoch us; 100 transactions 1..100 ms */
	for (int i = 1; i <= 100; i++)
		fprintf(f, "0 %d %d 0 1796669947 %d\n", i, i * 1000, i);
	fclose(f);
	memset(&r, 0, sizeof(r));
	assert_int_equal(tool_parse(tool("pgbench"), out, len, dir, &r), 0);
	assert_true(value(&r, "tps") == 45809.090439);
	assert_true(value(&r, "lat_avg_ms") == 0.044);
	assert_true(value(&r, "lat_p50_ms") == 50);
	assert_true(value(&r, "lat_p99_ms") == 99);
	assert_true(value(&r, "lat_max_ms") == 100);
	assert_int_equal(access(path, F_OK), -1); /* read, then removed */
	rmdir(dir);
	free(out);
}

static void metrics_have_directions(void **state)
{
	bool up;

	(void)state;
	assert_int_equal(tool_metric(tool("redis"), "p99_ms", &up), 0);
	assert_false(up);
	assert_int_equal(tool_metric(tool("redis"), "GET.rps", &up), 0);
	assert_true(up);
	assert_int_equal(tool_metric(tool("pgbench"), "tps", &up), 0);
	assert_true(up);
	assert_int_equal(tool_metric(tool("sysbench"), "lat_p99_ms", &up), 0);
	assert_false(up);
	assert_int_equal(tool_metric(tool("fio"), "job1.write_clat_p99_ms", &up), 0);
	assert_false(up);
	assert_int_equal(tool_metric(tool("fio"), "elapsed", &up), 0);
	assert_false(up);
	assert_int_equal(tool_metric(tool("fio"), "tps", &up), -1);
	assert_int_equal(tool_metric(tool("sysbench"), "lat_p", &up), -1);
}

static void what_vmtune_sets_is_refused(void **state)
{
	(void)state;
	assert_int_equal(tool_check(tool("fio"), "--name=a --output-format=normal"), -1);
	assert_int_equal(tool_check(tool("stress-ng"), "--vm 1 --yaml /tmp/x -t 1"), -1);
	assert_int_equal(tool_check(tool("stress-ng"), "--vm 1"), -1); /* it would never end */
	assert_int_equal(tool_check(tool("stress-ng"), "--vm 1 --vm-ops 1000"), 0);
	assert_int_equal(tool_check(tool("redis"), "-t get -n 100"), -1); /* no keyspace */
	assert_int_equal(tool_check(tool("redis"), "-t get -n 100 -r 1000 -p 6379"), -1);
	assert_int_equal(tool_check(tool("redis"), "-t get -n 100 -r 1000 -d 0"), -1);
	assert_int_equal(tool_check(tool("redis"), "-t get -n 100 -r 1000 -d 100"), 0);
	assert_int_equal(tool_check(tool("pgbench"), "-S -T 5 mydb"), -1);
	assert_int_equal(tool_check(tool("pgbench"), "-i -s 10"), -1);
	assert_int_equal(tool_check(tool("pgbench"), "-S -T 5 -h /tmp"), -1);
	assert_int_equal(tool_check(tool("pgbench"), "-S -T 5 -s 0"), -1);
	assert_int_equal(tool_check(tool("pgbench"), "-S -T 5 -c 2 -s 20 --shared-buffers=16MB"), 0);
	assert_int_equal(tool_check(tool("pgbench"), "-S -T 5 --shared-buffers=16MB;rm"), -1);
	assert_int_equal(tool_check(tool("fio"), ""), -1);
	assert_null(tool_of("fio --name=x", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_paths_reach_numbers),
		cmocka_unit_test(rules_are_checked_when_given),
		cmocka_unit_test(the_spec_carries_the_rules),
		cmocka_unit_test(output_is_read_or_refused),
		cmocka_unit_test(fio_json_is_read),
		cmocka_unit_test(stress_ng_yaml_is_read),
		cmocka_unit_test(sysbench_text_is_read),
		cmocka_unit_test(redis_csv_is_read),
		cmocka_unit_test(pgbench_output_and_log_are_read),
		cmocka_unit_test(metrics_have_directions),
		cmocka_unit_test(what_vmtune_sets_is_refused),
	};

	log_setup(0, true);
	return cmocka_run_group_tests_name("extract", tests, NULL, NULL);
}
