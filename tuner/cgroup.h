/* cgroup.h - the memory cgroup a workload runs in (v1 here, v2 where unified). */
#ifndef VMTUNE_CGROUP_H
#define VMTUNE_CGROUP_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define CGROUP_UNLIMITED UINT64_MAX

struct cgroup {
	int version; /* 1 or 2 */
	char path[PATH_MAX];
	uint64_t limit, swap;
};

/* Make a cgroup limited to `limit` bytes of memory and `swap` bytes of swap
 * (CGROUP_UNLIMITED for no swap limit). Journalled before it is made. */
int cgroup_create(struct cgroup *cg, uint64_t limit, uint64_t swap);
/* Move a process into it (called by the child on itself before exec). */
int cgroup_attach(const struct cgroup *cg, pid_t pid);
/* How many OOM kills the kernel has done in it so far. */
long cgroup_oom_kills(const struct cgroup *cg);
/* The peak of its memory and swap use so far, in kB (v2: memory.peak plus
 * memory.swap.peak where the kernel has them; v1: memsw.max_usage_in_bytes, or
 * max_usage_in_bytes without memsw); -1 where the kernel keeps no peak. */
long cgroup_peak_kb(const struct cgroup *cg);
/* Kill whatever still runs in it. */
void cgroup_kill_all(const char *path);
/* Kill its tasks, remove it and forget it in the journal. */
int cgroup_remove(struct cgroup *cg);
/* Kill the tasks and remove the directory (used by journal restore too). */
int cgroup_destroy(const char *path);

/* The journal's record of a cgroup vmtune made: undone by cgroup_destroy. */
struct journal_kind;
extern const struct journal_kind cgroup_journal_kind;

#endif
