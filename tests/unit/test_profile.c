/* test_profile.c - profiles and mixes as files: what loads comes back exactly
 * (values, positions, evidence, defaults), a written profile loads to the same
 * settings, the match fits the machines it names, and each kind of bad input is
 * refused with FILE:LINE:COLUMN and the knob or key and the value. */
#include <math.h>

#include "testutil.h"
#include "mix.h"
#include "machine.h"
#include "profile.h"

static char dir[PATH_MAX], file[PATH_MAX + 16];
static char *msgs;
static size_t msglen;
static FILE *msgf;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/vmtune-unit-profile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(file, sizeof(file), "%s/p.yaml", dir);
	log_setup(0, true);
	setenv("VMTUNE_WORKLOAD_DIR", "build", 1); /* the mixes' workloads, built by make */
	msgf = open_memstream(&msgs, &msglen);
	log_to(msgf);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	log_to(NULL);
	fclose(msgf);
	free(msgs);
	msgs = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *put(const char *text)
{
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	fflush(msgf);
	rewind(msgf); /* only this load's messages */
	return file;
}

/* the messages since put(), as one string */
static const char *said(void)
{
	fflush(msgf);
	return msgs ? msgs : "";
}

static void a_profile_loads_exactly(void **state)
{
	static struct profile p;

	(void)state;
	assert_int_equal(profile_load(put("vmtune: 1\n"
					  "name: box\n"
					  "match: {mem_min: 4G, mem_max: 16G}\n"
					  "settings:\n"
					  "  vm.page-cluster: 2\n"
					  "  thp.defrag: madvise\n"
					  "  vm.dirty_bytes: 64M\n"
					  "evidence:\n"
					  "  workload: mtest01 -p 80 -w\n"
					  "  trials: 30\n"
					  "  objective: {metric: elapsed, direction: min, baseline: 10, best: 8,\n"
					  "    change_pct: -20, ci95_pct: [-25, -15], significant: true}\n"),
				      &p),
			 0);
	assert_string_equal(p.name, "box");
	assert_int_equal(p.nsettings, 3);
	assert_string_equal(p.settings[0].def->name, "vm.page-cluster");
	assert_int_equal(p.settings[0].value, 2);
	assert_int_equal(p.settings[0].line, 5);
	assert_int_equal(p.settings[0].column, 20);
	assert_int_equal(p.settings[2].value, 64 << 20);
	assert_true(p.match.has_min && p.match.mem_min == 4ULL << 30 && p.match.mem_max == 16ULL << 30);
	assert_true(p.evidence.present && p.evidence.significant);
	assert_true(p.evidence.ci_lo == -25 && p.evidence.ci_hi == -15);
}

static void a_written_profile_loads_to_the_same(void **state)
{
	static struct profile p, q;
	char out[PATH_MAX + 16];

	(void)state;
	assert_int_equal(profile_load(put("vmtune: 1\nname: w\nsettings:\n  vm.swappiness: 33\n  thp.enabled: never\n"
					  "  vm.min_free_kbytes: 90112\n"),
				      &p),
			 0);
	snprintf(out, sizeof(out), "%s/out.yaml", dir);
	assert_int_equal(profile_write(out, &p), 0);
	assert_int_equal(profile_load(out, &q), 0);
	assert_int_equal(q.nsettings, p.nsettings);
	for (int i = 0; i < p.nsettings; i++) {
		assert_ptr_equal(q.settings[i].def, p.settings[i].def);
		assert_int_equal(q.settings[i].value, p.settings[i].value);
	}
	assert_string_equal(q.name, "w");

	/* the swap it was measured with goes out and comes back */
	assert_int_equal(profile_load(put("vmtune: 1\nname: z\nmachine: {hostname: h, kernel: k, cpus: 2, "
					  "mem_total_kb: 1000, swap_total_kb: 500, swap: compressed, "
					  "swap_backend: \"zram:512M:lz4\"}\nsettings: {vm.page-cluster: 0}\n"),
				      &p),
			 0);
	assert_int_equal(profile_write(out, &p), 0);
	assert_int_equal(profile_load(out, &q), 0);
	assert_string_equal(q.machine.swap, "compressed");
	assert_string_equal(q.machine.swap_backend, "zram:512M:lz4");
}

static void an_unbounded_interval_is_written_so_it_loads_back(void **state)
{
	static struct profile p, q;
	char out[PATH_MAX + 16];

	(void)state;
	assert_int_equal(profile_load(put("vmtune: 1\nsettings: {vm.swappiness: 33}\nevidence:\n  workload: w\n"
					  "  objective: {change_pct: -33, ci95_pct: [-100, inf]}\n"),
				      &p),
			 0);
	assert_true(isinf(p.evidence.ci_hi) && p.evidence.ci_hi > 0);
	snprintf(out, sizeof(out), "%s/out.yaml", dir);
	assert_int_equal(profile_write(out, &p), 0);
	assert_int_equal(profile_load(out, &q), 0);
	assert_true(isinf(q.evidence.ci_hi) && q.evidence.ci_lo == -100);
	/* a knob's value is never one of those */
	assert_int_equal(profile_load(put("vmtune: 1\nsettings: {vm.swappiness: .inf}\n"), &p), EXIT_USAGE);
}

static void the_match_fits_what_it_names(void **state)
{
	static struct profile p;
	struct machine m = { .hostname = "h" };
	char why[256];

	(void)state;
	assert_int_equal(profile_load(put("vmtune: 1\nmatch: {mem_min: 8G, mem_max: 16G}\nsettings: {}\n"), &p), 0);
	m.mem_total_kb = 24L << 20; /* 24G: too big */
	assert_false(profile_fits(&p, &m, why, sizeof(why)));
	assert_non_null(strstr(why, "mem_max 16G"));
	m.mem_total_kb = (8L << 20) - (500L << 10); /* MemTotal a little under 8G: fits */
	assert_true(profile_fits(&p, &m, why, sizeof(why)));
	m.mem_total_kb = 6L << 20;
	assert_false(profile_fits(&p, &m, why, sizeof(why)));
	assert_int_equal(profile_load(put("vmtune: 1\nsettings: {}\n"), &p), 0);
	assert_true(profile_fits(&p, &m, why, sizeof(why)));
}

/* each refusal: the exit code, FILE:LINE:COLUMN and the words that name it */
static void refused(int rc, const char *at, const char *words)
{
	char where[PATH_MAX + 64];

	assert_int_equal(rc, EXIT_USAGE);
	snprintf(where, sizeof(where), "%s:%s: ", file, at);
	if (!strstr(said(), where) || !strstr(said(), words))
		fail_msg("wanted '%s' and '%s' in: %s", where, words, said());
}

static void bad(const char *text, const char *at, const char *words)
{
	static struct profile p;

	refused(profile_load(put(text), &p), at, words);
}

static void bad_profiles_are_refused_where_they_are_wrong(void **state)
{
	(void)state;
	bad("vmtune: 1\nsettings:\n  vm.nosuch: 1\n", "3:3", "vm.nosuch");
	bad("vmtune: 1\nsettings:\n  vm.page-cluster: 99\n", "3:20", "99");
	bad("vmtune: 1\nsettings:\n  vm.page-cluster: two\n", "3:20", "two");
	bad("vmtune: 1\nsettings:\n  thp.enabled: sometimes\n", "3:16", "sometimes");
	bad("vmtune: 2\nsettings: {}\n", "1:9", "2");
	bad("vmtune: 1\nsettings:\n  vm.swappiness: 10\n  vm.swappiness: 20\n", "4:3", "vm.swappiness");
	bad("vmtune: 1\nmatch: {mem_min: lots}\nsettings: {}\n", "2:18", "lots");
	bad("vmtune: 1\nsettings: [1, 2]\n", "2:11", "settings");
	bad("vmtune: 1\nsettings: {\n", "3:1", "");
	bad("vmtune: 1\nmachine: {swap: floppy}\nsettings: {}\n", "2:17", "swap must be");
	bad("vmtune: 1\nmachine: {swap: flash+zram}\nsettings: {}\n", "2:17", "swap must be");
	bad("vmtune: 1\nmachine: {swap_backend: \"zram:1G:$(x)\"}\nsettings: {}\n", "2:25", "compressor name");
}

static void a_mix_loads_with_its_defaults(void **state)
{
	static struct mix m;

	(void)state;
	assert_int_equal(mix_load(put("vmtune-mix: 1\n"
				      "name: m\n"
				      "memory_limit: 512M\n"
				      "swap: 1G\n"
				      "probe: sputter -p 10ms\n"
				      "objective: balanced\n"
				      "workloads:\n"
				      "  - mtest01 -p 80 -w\n"
				      "  - {run: mmap001 -m 1000, repeat: 3, weight: 2.5}\n"),
				  &m),
			 0);
	assert_int_equal(m.nwl, 2);
	assert_string_equal(m.wl[0].run, "mtest01 -p 80 -w");
	assert_int_equal(m.wl[0].repeat, 1);
	assert_true(m.wl[0].weight == 1);
	assert_int_equal(m.wl[1].repeat, 3);
	assert_true(m.wl[1].weight == 2.5);
	assert_true(m.memory_limit == 512ULL << 20 && m.swap.backend == SWAP_FILE && m.swap.size == 1ULL << 30);
	assert_string_equal(m.objective, "balanced");
	assert_string_equal(m.probe, "sputter -p 10ms");
}

static void a_mix_names_its_swap_backend(void **state)
{
	static struct mix m;

	(void)state;
	assert_int_equal(mix_load(put("vmtune-mix: 1\nswap: zram:768M:lz4\nworkloads: [mtest01]\n"), &m), 0);
	assert_int_equal(m.swap.backend, SWAP_ZRAM);
	assert_true(m.swap.size == 768ULL << 20);
	assert_string_equal(m.swap.algo, "lz4");
	assert_int_equal(mix_load(put("vmtune-mix: 1\nswap: file:1G+zswap\nworkloads: [mtest01]\n"), &m), 0);
	assert_true(m.swap.backend == SWAP_FILE && m.swap.zswap);
	assert_int_equal(mix_load(put("vmtune-mix: 1\nworkloads: [mtest01]\n"), &m), 0);
	assert_int_equal(m.swap.backend, SWAP_NONE);
}

static void badm(const char *text, const char *at, const char *words)
{
	static struct mix m;

	refused(mix_load(put(text), &m), at, words);
}

static void bad_mixes_are_refused_where_they_are_wrong(void **state)
{
	(void)state;
	badm("vmtune-mix: 1\nworkloads:\n  - {run: mtest01, weight: nan}\n", "3:28", "nan");
	badm("vmtune-mix: 1\nworkloads:\n  - {run: mtest01, weight: 0}\n", "3:28", "weight");
	badm("vmtune-mix: 1\nworkloads:\n  - {run: mtest01, repeat: 1001}\n", "3:28", "repeat");
	badm("vmtune-mix: 1\nworkloads:\n  - {run: mtest01, speed: 3}\n", "3:20", "speed");
	badm("vmtune-mix: 1\nobjective: fastest\nworkloads: [mtest01]\n", "2:12", "fastest");
	badm("vmtune-mix: 1\nmemory_limit: 12Q\nworkloads: [mtest01]\n", "2:15", "12Q");
	badm("vmtune-mix: 1\nname: nothing\n", "1:1", "workloads");
	badm("vmtune-mix: 1\nswap: zram:1G+zswap\nworkloads: [mtest01]\n", "2:7", "compresses twice");
	badm("vmtune-mix: 1\nswap: tape:1G\nworkloads: [mtest01]\n", "2:7", "not a swap backend");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_profile_loads_exactly, setup, teardown),
		cmocka_unit_test_setup_teardown(a_written_profile_loads_to_the_same, setup, teardown),
		cmocka_unit_test_setup_teardown(an_unbounded_interval_is_written_so_it_loads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(the_match_fits_what_it_names, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_profiles_are_refused_where_they_are_wrong, setup, teardown),
		cmocka_unit_test_setup_teardown(a_mix_loads_with_its_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_mixes_are_refused_where_they_are_wrong, setup, teardown),
		cmocka_unit_test_setup_teardown(a_mix_names_its_swap_backend, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
