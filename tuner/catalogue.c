/* catalogue.c - the knob table (made from knobs.def, where each knob is listed once
 * with its paths, ranges, default and trap), and the rules that depend on the
 * machine: the computed default of min_free_kbytes and its search range. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "catalogue.h"
#include "vmtune.h"

static const char *const thp_enabled_choices[] = { "always", "madvise", "never", NULL };
static const char *const thp_defrag_choices[] = { "always", "defer", "defer+madvise", "madvise", "never", NULL };
static const char *const yes_no_choices[] = { "N", "Y", NULL };
/* the kernel's compressors by their crypto names: the first three are in every
 * distribution kernel (the safe range); the rest only where built */
static const char *const compressor_choices[] = { "lzo", "lzo-rle", "lz4", "zstd", "lz4hc", "deflate", "842", NULL };

#define VM(f) "/proc/sys/vm/" f
#define THP(f) KNOB_THP_DIR "/" f
#define ZSWAP(f) "/sys/module/zswap/parameters/" f
#define LRU_GEN(f) "/sys/kernel/mm/lru_gen/" f
/* clang-format off */
#define SYSCTL(f) { { VM(f), KC_INT } }
/* clang-format on */

const struct knob_def knob_catalogue[] = {
#define KNOB(...) { __VA_ARGS__ },
#include "knobs.def"
#undef KNOB
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

bool knob_safe(const struct knob_def *d, long current, long v, long *lo, long *hi)
{
	*lo = d->min;
	*hi = d->max;
	if (!knob_searchable(d))
		return true;
	knob_search_range(d, current, lo, hi);
	return v == current || (v >= *lo && v <= *hi);
}
