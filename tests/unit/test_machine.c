/* test_machine.c - a fingerprint survives its JSON, --machine files are checked,
 * the features models use tell swap devices and sizes apart, and a box is known
 * again by its machine id. */
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "machine.h"

static const char fp[] = "{\"hostname\":\"rot8\",\"machine_id\":\"0f1e2d3c4b5a69788796a5b4c3d2e1f0\","
			 "\"kernel\":\"6.1.0-13-amd64\",\"cpus\":4,\"numa_nodes\":1,"
			 "\"mem_total_kb\":8388608,\"swap_total_kb\":4194304,\"page_size\":4096,"
			 "\"swap_devices\":[{\"name\":\"/dev/zram0\",\"kind\":\"zram\",\"size_kb\":1048576},"
			 "{\"name\":\"/dev/sda2\",\"kind\":\"rotational\",\"size_kb\":3145728}],"
			 "\"zswap\":false,\"thp\":true,\"mthp_sizes\":\"16kB 32kB\"}";

static void round_trip(void **state)
{
	json_object *o = json_tokener_parse(fp), *again;
	struct machine m, m2;
	char *text;

	(void)state;
	assert_int_equal(machine_from_json(o, &m), 0);
	assert_string_equal(m.hostname, "rot8");
	assert_string_equal(m.id, "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
	assert_int_equal(m.cpus, 4);
	assert_int_equal(m.nswaps, 2);
	assert_string_equal(m.swaps[1].kind, "rotational");
	assert_int_equal(m.zswap, 0);
	text = machine_json(&m);
	again = json_tokener_parse(text);
	assert_int_equal(machine_from_json(again, &m2), 0);
	assert_int_equal(memcmp(&m, &m2, sizeof(m)), 0);
	free(text);
	json_object_put(again);
	json_object_put(o);
	/* not a fingerprint */
	o = json_tokener_parse("{\"hostname\":\"x\"}");
	assert_int_equal(machine_from_json(o, &m), -1);
	json_object_put(o);
	assert_int_equal(machine_from_json(NULL, &m), -1);
}

static void features(void **state)
{
	json_object *o = json_tokener_parse(fp);
	struct machine m;
	double f[MACHINE_NFEAT], g[MACHINE_NFEAT];
	char buf[160];

	(void)state;
	machine_from_json(o, &m);
	json_object_put(o);
	/* the biggest swap device decides the class */
	assert_string_equal(machine_swap_class(&m), "rotational");
	machine_features(&m, f);
	assert_true(fabs(f[0] - 0) < 1e-12); /* 8G is the middle of the memory scale */
	assert_true(fabs(f[2] - 0) < 1e-12); /* and 4 CPUs of the CPU scale */
	assert_true(fabs(f[4] - 0.01) < 1e-12);
	assert_true(machine_feature_categorical[1] && !machine_feature_categorical[0]);
	m.swaps[0].size_kb = 8 << 20;
	assert_string_equal(machine_swap_class(&m), "compressed");
	machine_features(&m, g);
	assert_true(g[1] != f[1]);
	snprintf(m.swaps[0].kind, sizeof(m.swaps[0].kind), "file-on-ssd");
	assert_string_equal(machine_swap_class(&m), "flash");
	m.nswaps = 0;
	assert_string_equal(machine_swap_class(&m), "none");
	m.mem_total_kb = 64L << 20;
	machine_features(&m, g);
	assert_true(fabs(g[0] - 1) < 1e-12);
	assert_non_null(strstr(machine_summary(&m, buf, sizeof(buf)), "64.0G, swap none, 4 cpus, kernel 6.1"));
}

static void the_same_box(void **state)
{
	json_object *o = json_tokener_parse(fp);
	struct machine a, b;

	(void)state;
	machine_from_json(o, &a);
	json_object_put(o);
	b = a;
	assert_true(machine_same(&a, &b));
	/* renamed, more memory: still the box with that machine id */
	snprintf(b.hostname, sizeof(b.hostname), "rot8-renamed");
	b.mem_total_kb *= 2;
	assert_true(machine_same(&a, &b));
	/* a clone under the same hostname and memory, its own machine id: another box */
	b = a;
	b.id[0] = 'e';
	assert_false(machine_same(&a, &b));
	/* a fingerprint without an id (stored before there were ids, or a --machine file):
	 * hostname and memory within 5% */
	b = a;
	b.id[0] = '\0';
	assert_true(machine_same(&a, &b));
	b.mem_total_kb = a.mem_total_kb * 104 / 100;
	assert_true(machine_same(&a, &b));
	b.mem_total_kb = a.mem_total_kb * 107 / 100;
	assert_false(machine_same(&a, &b));
	b.mem_total_kb = a.mem_total_kb;
	snprintf(b.hostname, sizeof(b.hostname), "rot8b");
	assert_false(machine_same(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(features),
		cmocka_unit_test(the_same_box),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
