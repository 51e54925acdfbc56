/* test_knob.c - knob file I/O on a fake tree: codecs, status, range checks, read-back. */
#include <unistd.h>

#include "testutil.h"

#include "knob.h"

static void probe_reads_values_and_status(void **state)
{
	struct knob_state st;

	(void)state;
	knob_probe(knob_find("vm.page-cluster"), &st);
	assert_int_equal(st.status, KS_AVAILABLE);
	assert_true(st.have_value);
	assert_int_equal(st.value, 3);
	assert_non_null(strstr(st.path, test_dir));

	knob_probe(knob_find("vm.vm_passes"), &st);
	assert_int_equal(st.status, KS_MISSING);
	assert_false(st.have_value);

	knob_probe(knob_find("thp.enabled"), &st);
	assert_int_equal(st.value, 1); /* [madvise] */
	knob_probe(knob_find("thp.defrag"), &st);
	assert_int_equal(st.value, 3); /* [madvise] */
}

static void prefault_order_from_fault_around_bytes(void **state)
{
	struct knob_state st;
	long rb;

	(void)state;
	knob_probe(knob_find("prefault.max_order"), &st);
	assert_int_equal(st.status, KS_AVAILABLE);
	assert_int_equal(st.value, 4); /* 65536 = 4096 << 4 */
	assert_int_equal(knob_write(&st, 2, &rb), 0);
	assert_int_equal(rb, 2);
	assert_string_equal(tree_read("/sys/kernel/debug/fault_around_bytes"), "16384");
	/* the legacy sysctl wins where it exists */
	tree_write("/proc/sys/vm/max_prealloc_order", "3");
	knob_probe(knob_find("prefault.max_order"), &st);
	assert_int_equal(st.value, 3);
	assert_non_null(strstr(st.path, "max_prealloc_order"));
}

/* MGLRU's switch reads in hex ("0x0007") and takes decimal; zswap's parameters are
 * plain words (N/Y, a compressor) and integers; zram's compressor is bracketed. */
static void tree_mkdir(const char *rel)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s%s", test_dir, rel);
	assert_int_equal(system(cmd), 0);
}

static void hex_and_plain_word_knobs(void **state)
{
	struct knob_state st;
	long rb;

	(void)state;
	tree_mkdir("/sys/kernel/mm/lru_gen");
	tree_write("/sys/kernel/mm/lru_gen/enabled", "0x0007");
	knob_probe(knob_find("lru_gen.enabled"), &st);
	assert_int_equal(st.status, KS_AVAILABLE);
	assert_int_equal(st.value, 7);
	assert_int_equal(knob_write(&st, 3, &rb), 0);
	assert_string_equal(tree_read("/sys/kernel/mm/lru_gen/enabled"), "3");
	assert_int_equal(rb, 3);
	tree_write("/sys/kernel/mm/lru_gen/enabled", "0x0000");
	knob_probe(knob_find("lru_gen.enabled"), &st);
	assert_int_equal(st.value, 0);

	tree_mkdir("/sys/module/zswap/parameters");
	tree_write("/sys/module/zswap/parameters/enabled", "N");
	tree_write("/sys/module/zswap/parameters/compressor", "lz4");
	knob_probe(knob_find("zswap.enabled"), &st);
	assert_int_equal(st.value, 0);
	assert_int_equal(knob_write(&st, 1, &rb), 0);
	assert_string_equal(tree_read("/sys/module/zswap/parameters/enabled"), "Y");
	knob_probe(knob_find("zswap.compressor"), &st);
	assert_int_equal(st.status, KS_AVAILABLE);
	assert_string_equal(knob_find("zswap.compressor")->choices[st.value], "lz4");
	tree_write("/sys/module/zswap/parameters/compressor", "brotli"); /* not one vmtune knows */
	knob_probe(knob_find("zswap.compressor"), &st);
	assert_false(st.have_value);

	tree_mkdir("/sys/block/zram0");
	tree_write("/sys/block/zram0/comp_algorithm", "lzo [lzo-rle] lz4 zstd");
	knob_probe(knob_find("zram.comp_algorithm"), &st);
	assert_string_equal(knob_find("zram.comp_algorithm")->choices[st.value], "lzo-rle");
}

static void mthp_order_reads_and_writes_every_size(void **state)
{
	struct knob_state st;
	long rb;

	(void)state;
	knob_probe(knob_find("mthp.anon_max_order"), &st);
	assert_int_equal(st.status, KS_AVAILABLE);
	assert_int_equal(st.value, 0);
	assert_int_equal(knob_write(&st, 4, &rb), 0);
	assert_int_equal(rb, 4);
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/hugepages-16kB/enabled"), "always");
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled"), "always");
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/hugepages-128kB/enabled"), "never");
	/* the PMD size belongs to thp.enabled: untouched */
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled"),
			    "always [inherit] madvise never");
	assert_int_equal(knob_write(&st, 0, &rb), 0);
	assert_int_equal(rb, 0);
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/hugepages-16kB/enabled"), "never");
}

static void parse_checks_full_range(void **state)
{
	char why[256];
	long v;

	(void)state;
	assert_int_equal(knob_parse_value(knob_find("vm.swappiness"), "200", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 200);
	assert_int_equal(knob_parse_value(knob_find("vm.swappiness"), "250", &v, why, sizeof(why)), -1);
	assert_string_equal(why, "vm.swappiness=250 is out of range 0..200");
	assert_int_equal(knob_parse_value(knob_find("vm.swappiness"), "ten", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not an integer"));
	assert_int_equal(knob_parse_value(knob_find("thp.enabled"), "never", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 2);
	assert_int_equal(knob_parse_value(knob_find("thp.enabled"), "sometimes", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "always madvise never"));
	assert_int_equal(knob_parse_value(knob_find("vm.dirty_bytes"), "64M", &v, why, sizeof(why)), 0);
	assert_int_equal(v, 64L << 20);
	assert_int_equal(knob_parse_value(knob_find("vm.dirty_bytes"), "12Q", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "12Q"));
}

static void write_reads_back(void **state)
{
	struct knob_state st;
	long rb;

	(void)state;
	knob_probe(knob_find("thp.enabled"), &st);
	assert_int_equal(knob_write(&st, 2, &rb), 0);
	assert_int_equal(rb, 2);
	assert_string_equal(tree_read("/sys/kernel/mm/transparent_hugepage/enabled"), "never");
	knob_probe(knob_find("vm.swappiness"), &st);
	assert_int_equal(knob_write(&st, 10, &rb), 0);
	assert_string_equal(tree_read("/proc/sys/vm/swappiness"), "10"); /* truncated, not "100" */
}

static void failed_write_is_an_error(void **state)
{
	struct knob_state st;
	char p[PATH_MAX];
	long rb;

	(void)state;
	snprintf(p, sizeof(p), "%s/proc/sys/vm/swappiness", test_dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("/dev/full", p), 0);
	knob_probe(knob_find("vm.swappiness"), &st);
	assert_int_equal(knob_write(&st, 10, &rb), -1);
}

static void journal_files_cover_the_pair(void **state)
{
	struct knob_state st;
	struct knob_file f[KNOB_MAX_FILES];
	int n;

	(void)state;
	knob_probe(knob_find("vm.dirty_ratio"), &st);
	n = knob_files(&st, f, KNOB_MAX_FILES);
	assert_int_equal(n, 2);
	assert_non_null(strstr(f[0].path, "/dirty_ratio"));
	assert_string_equal(f[0].raw, "20");
	assert_non_null(strstr(f[1].path, "/dirty_bytes"));
	assert_string_equal(f[1].raw, "0");
	assert_string_equal(f[1].name, "vm.dirty_bytes");
	knob_probe(knob_find("thp.defrag"), &st);
	n = knob_files(&st, f, KNOB_MAX_FILES);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].raw, "madvise"); /* the writable word, not the listing */
	assert_string_equal(f[0].name, "thp.defrag");
	/* THP switches make the kernel recompute min_free_kbytes: journalled first,
	 * so that an undo in reverse order puts it back last */
	knob_probe(knob_find("mthp.anon_max_order"), &st);
	assert_int_equal(knob_files(&st, f, KNOB_MAX_FILES), 8); /* min_free + 16kB..1024kB */
	assert_string_equal(f[0].name, "vm.min_free_kbytes");
	assert_string_equal(f[0].raw, "67584");
	assert_string_equal(f[1].name, "mthp.anon_max_order");
	knob_probe(knob_find("thp.enabled"), &st);
	assert_int_equal(knob_files(&st, f, KNOB_MAX_FILES), 2);
	assert_string_equal(f[0].name, "vm.min_free_kbytes");
	assert_string_equal(f[1].raw, "madvise");
}

static void restore_refuses_foreign_paths(void **state)
{
	char p[PATH_MAX];

	(void)state;
	snprintf(p, sizeof(p), "%s/proc/sys/vm/swappiness", test_dir);
	assert_int_equal(knob_file_restore("vm.swappiness", p, "30"), 0);
	assert_string_equal(tree_read("/proc/sys/vm/swappiness"), "30");
	/* a journal line cannot point a knob at another file */
	assert_int_equal(knob_file_restore("vm.swappiness", "/etc/passwd", "x"), -1);
	snprintf(p, sizeof(p), "%s/proc/sys/vm/page-cluster", test_dir);
	assert_int_equal(knob_file_restore("vm.swappiness", p, "6"), -1);
	assert_string_equal(tree_read("/proc/sys/vm/page-cluster"), "3");
	assert_int_equal(knob_file_restore("vm.bogus", p, "6"), -1);
	/* each file is restored under the knob it belongs to */
	snprintf(p, sizeof(p), "%s/proc/sys/vm/dirty_bytes", test_dir);
	assert_int_equal(knob_file_restore("vm.dirty_ratio", p, "0"), -1);
	assert_int_equal(knob_file_restore("vm.dirty_bytes", p, "0"), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fake_root_setup, fake_root_teardown)

int main(void)
{
	/* one test a line */
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		T(probe_reads_values_and_status),
		T(prefault_order_from_fault_around_bytes),
		T(hex_and_plain_word_knobs),
		T(mthp_order_reads_and_writes_every_size),
		T(parse_checks_full_range),
		T(write_reads_back),
		T(failed_write_is_an_error),
		T(journal_files_cover_the_pair),
		T(restore_refuses_foreign_paths),
	};
	/* clang-format on */

	return cmocka_run_group_tests_name("knob", tests, NULL, NULL);
}
