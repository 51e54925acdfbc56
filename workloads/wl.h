/* wl.h - the little the workload programs share: a clock and the cgroup they run in. */
#ifndef VMTUNE_WL_H
#define VMTUNE_WL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "size.h"

/* Each program's getopt string, from the one list of workloads: wl_opts_NAME. */
#define WORKLOAD(name, metric, maximize, opts, summary)                                                                \
	static const char wl_opts_##name[] __attribute__((unused)) = opts;
#include "workloads.def"
#undef WORKLOAD

/* Option values: parsed strictly, or the program stops with status 2 naming the option. */
static inline void wl_opt_check(int rc, const char *prog, int opt, const char *why)
{
	if (rc < 0) {
		fprintf(stderr, "%s: -%c: %s\n", prog, opt, why);
		exit(2);
	}
}

static inline long wl_opt_long(const char *prog, int opt, const char *arg, long min, long max)
{
	char why[256];
	long v;

	wl_opt_check(parse_long(arg, min, max, &v, why, sizeof(why)), prog, opt, why);
	return v;
}

static inline uint64_t wl_opt_size(const char *prog, int opt, const char *arg)
{
	char why[256];
	uint64_t v;

	wl_opt_check(parse_size(arg, &v, why, sizeof(why)), prog, opt, why);
	return v;
}

static inline double wl_opt_duration(const char *prog, int opt, const char *arg)
{
	char why[256];
	double v;

	wl_opt_check(parse_duration(arg, &v, why, sizeof(why)), prog, opt, why);
	return v;
}

static inline double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read a number (or "max") from a cgroup file; UINT64_MAX when unlimited or absent. */
static inline uint64_t wl_read_limit(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "re");
	unsigned long long v;

	if (!f)
		return UINT64_MAX;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (sscanf(buf, "%llu", &v) != 1)
		return UINT64_MAX;
	/* v1 reports "unlimited" as a huge page-aligned number */
	return v >= (1ULL << 60) ? UINT64_MAX : (uint64_t)v;
}

/* The memory and swap this process's memory cgroup allows: *mem and *swap get
 * UINT64_MAX when not limited. Handles v1 (memsw = memory + swap) and v2. */
static inline void wl_cgroup_limits(uint64_t *mem, uint64_t *swap)
{
	char line[512], path[1024];
	FILE *f = fopen("/proc/self/cgroup", "re");

	*mem = *swap = UINT64_MAX;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *cg;
		if (!ctrl || !(cg = strchr(ctrl + 1, ':')))
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		ctrl++;
		if (strcmp(ctrl, "memory") == 0 || strstr(ctrl, "memory,") || strstr(ctrl, ",memory")) {
			uint64_t memsw;
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", cg);
			*mem = wl_read_limit(path);
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.memsw.limit_in_bytes", cg);
			memsw = wl_read_limit(path);
			if (memsw != UINT64_MAX && *mem != UINT64_MAX && memsw >= *mem)
				*swap = memsw - *mem;
			break;
		}
		if (ctrl[0] == '\0' && *mem == UINT64_MAX) {
			/* v2: only if the unified tree has the memory controller */
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", cg);
			*mem = wl_read_limit(path);
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.swap.max", cg);
			*swap = wl_read_limit(path);
		}
	}
	fclose(f);
}

#endif
