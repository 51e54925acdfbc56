/* catalogue.c - every knob vmtune may read or write, as data. Nothing about a knob
 * is hard-coded anywhere else: paths, ranges, defaults and traps live in this table. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "catalogue.h"
#include "vmtune.h"

static const char *const thp_enabled_choices[] = { "always", "madvise", "never", NULL };
static const char *const thp_defrag_choices[] = { "always", "defer", "defer+madvise", "madvise", "never", NULL };

#define VM(f) "/proc/sys/vm/" f
#define THP(f) "/sys/kernel/mm/transparent_hugepage/" f
/* clang-format off */
#define SYSCTL(f) { { VM(f), KC_INT } }
/* clang-format on */

const struct knob_def knob_catalogue[] = {
	{ "vm.page-cluster", SYSCTL("page-cluster"), KT_INT, 0, 31, 3, 0, 6, SCALE_LINEAR, NULL, 0, NULL,
	  "log2 pages of swap readahead; large helps sequential swap-in, small helps random" },
	{ "vm.swappiness", SYSCTL("swappiness"), KT_INT, 0, 200, 60, 10, 200, SCALE_LINEAR, NULL, 0, NULL,
	  "0 with little page cache can OOM early" },
	{ "vm.vfs_cache_pressure", SYSCTL("vfs_cache_pressure"), KT_INT, 0, 100000, 100, 50, 500, SCALE_LINEAR, NULL, 0,
	  NULL, "0 never reclaims dentries and inodes; >=1000 makes reclaim lock-heavy" },
	{ "vm.dirty_ratio", SYSCTL("dirty_ratio"), KT_INT, 0, 100, 20, 5, 40, SCALE_LINEAR, NULL, 0, "vm.dirty_bytes",
	  "writing it zeroes vm.dirty_bytes" },
	{ "vm.dirty_background_ratio", SYSCTL("dirty_background_ratio"), KT_INT, 0, 100, 10, 2, 20, SCALE_LINEAR, NULL,
	  0, "vm.dirty_background_bytes", "writing it zeroes vm.dirty_background_bytes" },
	{ "vm.dirty_bytes", SYSCTL("dirty_bytes"), KT_BYTES, 0, LONG_MAX, 0, 0, 0, SCALE_LOG2, NULL, KF_NOSEARCH,
	  "vm.dirty_ratio", "writing it zeroes vm.dirty_ratio; writing 0 is refused by the kernel" },
	{ "vm.dirty_background_bytes", SYSCTL("dirty_background_bytes"), KT_BYTES, 0, LONG_MAX, 0, 0, 0, SCALE_LOG2,
	  NULL, KF_NOSEARCH, "vm.dirty_background_ratio",
	  "writing it zeroes vm.dirty_background_ratio; writing 0 is refused by the kernel" },
	{ "vm.dirty_expire_centisecs", SYSCTL("dirty_expire_centisecs"), KT_INT, 0, INT_MAX, 3000, 500, 6000,
	  SCALE_LINEAR, NULL, 0, NULL, NULL },
	{ "vm.dirty_writeback_centisecs", SYSCTL("dirty_writeback_centisecs"), KT_INT, 0, INT_MAX, 500, 100, 1500,
	  SCALE_LINEAR, NULL, 0, NULL, "0 disables periodic writeback (never searched)" },
	{ "vm.min_free_kbytes", SYSCTL("min_free_kbytes"), KT_INT, 0, INT_MAX, 0, 0, 0, SCALE_LOG2, NULL,
	  KF_DEFAULT_COMPUTED | KF_RANGE_FROM_ORIGINAL, NULL,
	  "too low risks deadlock, too high OOMs at once; THP raises it" },
	{ "vm.watermark_scale_factor", SYSCTL("watermark_scale_factor"), KT_INT, 1, 3000, 10, 10, 500, SCALE_LOG2, NULL,
	  0, NULL, NULL },
	{ "vm.watermark_boost_factor", SYSCTL("watermark_boost_factor"), KT_INT, 0, INT_MAX, 15000, 0, 15000,
	  SCALE_LINEAR, NULL, 0, NULL, "0 disables boosting" },
	{ "vm.compaction_proactiveness", SYSCTL("compaction_proactiveness"), KT_INT, 0, 100, 20, 0, 50, SCALE_LINEAR,
	  NULL, 0, NULL, "100 causes latency spikes" },
	{ "prefault.max_order",
	  { { VM("max_prealloc_order"), KC_INT }, { "/sys/kernel/debug/fault_around_bytes", KC_PAGES_ORDER } },
	  KT_INT,
	  0,
	  9,
	  4,
	  0,
	  4,
	  SCALE_LINEAR,
	  NULL,
	  0,
	  NULL,
	  "2004 anticipatory prefault order; today fault-around for file read faults (0 disables)" },
	{ "mthp.anon_max_order",
	  { { THP(""), KC_MTHP } },
	  KT_INT,
	  0,
	  8,
	  0,
	  0,
	  4,
	  SCALE_LINEAR,
	  NULL,
	  0,
	  NULL,
	  "k: anonymous mTHP 'always' for every size from 8kB up to 4<<k kB below the PMD size",
	  "vm.min_free_kbytes" },
	{ "thp.enabled",
	  { { THP("enabled"), KC_ENUM } },
	  KT_ENUM,
	  0,
	  2,
	  1,
	  0,
	  2,
	  SCALE_LINEAR,
	  thp_enabled_choices,
	  0,
	  NULL,
	  "the kernel recomputes min_free_kbytes when it changes",
	  "vm.min_free_kbytes" },
	{ "thp.defrag",
	  { { THP("defrag"), KC_ENUM } },
	  KT_ENUM,
	  0,
	  4,
	  3,
	  0,
	  4,
	  SCALE_LINEAR,
	  thp_defrag_choices,
	  0,
	  NULL,
	  "always stalls interactive loads on allocation" },
	/* The 2.4 -aa VM (seed 000): only where present; no bounds checking in those kernels. */
	{ "vm.vm_cache_scan_ratio", SYSCTL("vm_cache_scan_ratio"), KT_INT, 1, 1000, 6, 2, 20, SCALE_LOG2, NULL, 0, NULL,
	  "0 divides by zero in 2.4-aa" },
	{ "vm.vm_mapped_ratio", SYSCTL("vm_mapped_ratio"), KT_INT, 1, 10000, 100, 10, 1000, SCALE_LOG2, NULL, 0, NULL,
	  "lower swaps earlier; 0 breaks reclaim" },
	{ "vm.vm_lru_balance_ratio", SYSCTL("vm_lru_balance_ratio"), KT_INT, 1, 100, 2, 1, 10, SCALE_LINEAR, NULL, 0,
	  NULL, "active/inactive balance; never 0" },
	{ "vm.vm_passes", SYSCTL("vm_passes"), KT_INT, 1, 10000, 60, 10, 200, SCALE_LOG2, NULL, 0, NULL,
	  "0 hangs reclaim in 2.4-aa" },
	{ "vm.vm_vfs_scan_ratio", SYSCTL("vm_vfs_scan_ratio"), KT_INT, 1, 1000, 6, 2, 20, SCALE_LOG2, NULL, 0, NULL,
	  "dentry/inode shrink share; never 0" },
	{ "vm.vm_anon_lru", SYSCTL("vm_anon_lru"), KT_INT, 0, 1, 1, 0, 1, SCALE_LINEAR, NULL, 0, NULL,
	  "whether anonymous pages join the LRU at fault" },
	{ "vm.vm_gfp_debug", SYSCTL("vm_gfp_debug"), KT_INT, 0, 1, 0, 0, 0, SCALE_LINEAR, NULL, KF_NOSEARCH, NULL,
	  NULL },
	/* Shown, never searched. */
	{ "vm.overcommit_memory", SYSCTL("overcommit_memory"), KT_INT, 0, 2, 0, 0, 0, SCALE_LINEAR, NULL, KF_NOSEARCH,
	  NULL, "mode 2 with a low ratio breaks fork and malloc" },
	{ "vm.overcommit_ratio", SYSCTL("overcommit_ratio"), KT_INT, 0, INT_MAX, 50, 0, 0, SCALE_LINEAR, NULL,
	  KF_NOSEARCH, NULL, NULL },
	{ "vm.zone_reclaim_mode", SYSCTL("zone_reclaim_mode"), KT_INT, 0, 7, 0, 0, 0, SCALE_LINEAR, NULL, KF_NOSEARCH,
	  NULL, "2 and 4 cause big stalls; NUMA only" },
	{ "vm.drop_caches", SYSCTL("drop_caches"), KT_INT, 0, 3, 0, 0, 0, SCALE_LINEAR, NULL, KF_NOSEARCH, NULL,
	  "an action, not a setting" },
	{ "vm.panic_on_oom", SYSCTL("panic_on_oom"), KT_INT, 0, 2, 0, 0, 0, SCALE_LINEAR, NULL, KF_NOSEARCH, NULL,
	  NULL },
};

const size_t knob_catalogue_len = sizeof(knob_catalogue) / sizeof(knob_catalogue[0]);

const struct knob_def *knob_find(const char *name)
{
	size_t i;

	for (i = 0; i < knob_catalogue_len; i++)
		if (strcmp(knob_catalogue[i].name, name) == 0)
			return &knob_catalogue[i];
	return NULL;
}

bool knob_searchable(const struct knob_def *d)
{
	return !(d->flags & KF_NOSEARCH);
}

int knob_choice_count(const struct knob_def *d)
{
	int n = 0;

	while (d->choices && d->choices[n])
		n++;
	return n;
}

static long mem_total_kb(void)
{
	char path[PATH_MAX], buf[256];
	FILE *f = fopen(vt_path(path, sizeof(path), "/proc/meminfo"), "re");
	long kb = 0;
	struct sysinfo si;

	if (f) {
		while (fgets(buf, sizeof(buf), f))
			if (sscanf(buf, "MemTotal: %ld kB", &kb) == 1)
				break;
		fclose(f);
	}
	if (kb <= 0 && sysinfo(&si) == 0)
		kb = (long)((unsigned long long)si.totalram * si.mem_unit / 1024);
	return kb;
}

long knob_default(const struct knob_def *d)
{
	long v;

	if (!(d->flags & KF_DEFAULT_COMPUTED))
		return d->def;
	/* mm/page_alloc.c: min_free_kbytes = sqrt(lowmem_kbytes * 16), clamped */
	v = (long)sqrt((double)mem_total_kb() * 16.0);
	if (v < 128)
		v = 128;
	if (v > 262144)
		v = 262144;
	return v;
}

void knob_search_range(const struct knob_def *d, long original, long *lo, long *hi)
{
	long cap;

	*lo = d->smin;
	*hi = d->smax;
	if (!(d->flags & KF_RANGE_FROM_ORIGINAL))
		return;
	/* min_free_kbytes: original/2 .. 4 x original, at most 5% of RAM */
	cap = mem_total_kb() / 20;
	*lo = original / 2;
	*hi = original * 4 < cap ? original * 4 : cap;
	if (*lo < 1024)
		*lo = 1024;
	if (*hi < *lo)
		*hi = *lo;
}
