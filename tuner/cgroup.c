/* cgroup.c - owns the memory cgroups vmtune makes: create with limits, attach,
 * count OOM kills, kill and remove. Both hierarchies: v2 when the unified tree
 * has the memory controller, v1 (memory.limit_in_bytes, memsw) otherwise. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "journal.h"
#include "vmtune.h"

#define V2_BASE "/sys/fs/cgroup"
#define V1_BASE "/sys/fs/cgroup/memory"

static int detect(char *base, size_t size)
{
	char buf[512];

	if (read_small_file(V2_BASE "/cgroup.controllers", buf, sizeof(buf)) >= 0 && strstr(buf, "memory")) {
		snprintf(base, size, "%s", V2_BASE);
		return 2;
	}
	if (access(V1_BASE "/memory.limit_in_bytes", F_OK) == 0) {
		snprintf(base, size, "%s", V1_BASE);
		return 1;
	}
	return error("no memory cgroup controller is mounted (looked for %s/cgroup.controllers with memory and "
		     "%s); mount one or run without --memory-limit",
		     V2_BASE, V1_BASE);
}

static int cg_write(const struct cgroup *cg, const char *file, const char *val)
{
	char p[PATH_MAX];
	int r;

	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	r = write_small_file(p, val);
	if (r < 0)
		return error("cannot write '%s' to %s: %s", val, p, strerror(-r));
	return 0;
}

int cgroup_create(struct cgroup *cg, uint64_t limit, uint64_t swap)
{
	static int seq;
	char base[PATH_MAX], val[64], buf[64];
	int v;

	if (!vt_live())
		return error("--memory-limit needs the live kernel's cgroups; it cannot be used with --root");
	v = detect(base, sizeof(base));
	if (v < 0)
		return -1;
	memset(cg, 0, sizeof(*cg));
	cg->version = v;
	cg->limit = limit;
	cg->swap = swap;
	snprintf(cg->path, sizeof(cg->path), "%s/vmtune-%ld-%d", base, (long)getpid(), seq++);
	if (journal_resource(&cgroup_journal_kind, cg->path) < 0)
		return -1;
	crashpoint("cgroup-journalled");
	if (mkdir(cg->path, 0755) < 0) {
		error("cannot create cgroup %s: %s", cg->path, strerror(errno));
		journal_forget(&cgroup_journal_kind, cg->path);
		return -1;
	}
	crashpoint("cgroup-made");
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	if (v == 2) {
		if (cg_write(cg, "memory.max", val) < 0)
			goto fail;
		if (swap == CGROUP_UNLIMITED)
			snprintf(val, sizeof(val), "max");
		else
			snprintf(val, sizeof(val), "%llu", (unsigned long long)swap);
		if (cg_write(cg, "memory.swap.max", val) < 0)
			goto fail;
		return 0;
	}
	if (cg_write(cg, "memory.limit_in_bytes", val) < 0)
		goto fail;
	if (swap != CGROUP_UNLIMITED) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/memory.memsw.limit_in_bytes", cg->path);
		if (access(p, F_OK) < 0) {
			warning("%s is missing (swap accounting off): the cgroup's swap use is not limited", p);
		} else {
			snprintf(val, sizeof(val), "%llu", (unsigned long long)(limit + swap));
			if (cg_write(cg, "memory.memsw.limit_in_bytes", val) < 0)
				goto fail;
		}
	}
	/* v1 memcgs reclaim with their own swappiness, copied from the parent when
	 * the cgroup is made; keep it equal to vm.swappiness as set for this run. */
	if (read_small_file("/proc/sys/vm/swappiness", buf, sizeof(buf)) > 0)
		cg_write(cg, "memory.swappiness", buf);
	return 0;
fail:
	cgroup_remove(cg);
	return -1;
}

int cgroup_attach(const struct cgroup *cg, pid_t pid)
{
	char val[32];

	snprintf(val, sizeof(val), "%ld", (long)pid);
	return cg_write(cg, "cgroup.procs", val);
}

long cgroup_oom_kills(const struct cgroup *cg)
{
	char p[PATH_MAX], line[256];
	FILE *f;
	long n = 0;

	snprintf(p, sizeof(p), "%s/%s", cg->path, cg->version == 2 ? "memory.events" : "memory.oom_control");
	f = fopen(p, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "oom_kill %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static long read_long_file(const char *dir, const char *name)
{
	char p[PATH_MAX], buf[64];
	FILE *f;
	long v = -1;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!(f = fopen(p, "re")))
		return -1;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

long cgroup_peak_kb(const struct cgroup *cg)
{
	long m, s;

	if (cg->version == 2) {
		if ((m = read_long_file(cg->path, "memory.peak")) < 0)
			return -1;
		s = read_long_file(cg->path, "memory.swap.peak");
		return (m + (s > 0 ? s : 0)) / 1024;
	}
	/* v1: memsw is memory and swap together, where the controller counts swap */
	if ((m = read_long_file(cg->path, "memory.memsw.max_usage_in_bytes")) < 0)
		m = read_long_file(cg->path, "memory.max_usage_in_bytes");
	return m < 0 ? -1 : m / 1024;
}

/* Returns the number of tasks found (and signalled). */
static int kill_tasks(const char *path)
{
	char p[PATH_MAX];
	FILE *f;
	long pid;
	int n = 0;

	snprintf(p, sizeof(p), "%s/cgroup.procs", path);
	f = fopen(p, "re");
	if (!f)
		return 0;
	while (fscanf(f, "%ld", &pid) == 1) {
		if (pid > 0 && pid != (long)getpid())
			kill((pid_t)pid, SIGKILL);
		n++;
	}
	fclose(f);
	return n;
}

void cgroup_kill_all(const char *path)
{
	kill_tasks(path);
}

int cgroup_destroy(const char *path)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int tries;

	if (access(path, F_OK) < 0)
		return 0; /* already gone */
	for (tries = 0; tries < 500; tries++) {
		if (kill_tasks(path) == 0 && rmdir(path) == 0)
			break;
		if (errno == ENOENT)
			break;
		nanosleep(&ts, NULL);
	}
	if (access(path, F_OK) == 0)
		return error("cannot remove cgroup %s: %s (tasks still in it?)", path, strerror(errno));
	verbose("removed cgroup %s", path);
	return 0;
}

int cgroup_remove(struct cgroup *cg)
{
	if (!cg->path[0])
		return 0;
	if (cgroup_destroy(cg->path) < 0)
		return -1;
	journal_forget(&cgroup_journal_kind, cg->path);
	cg->path[0] = '\0';
	return 0;
}

/* A cgroup vmtune made: BASE/vmtune-PID-N right under a memory controller's root. */
static bool cgroup_ours(const char *path)
{
	const char *bases[] = { V1_BASE, V2_BASE };
	long pid, n;
	int end = 0;

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		size_t len = strlen(bases[i]);
		if (strncmp(path, bases[i], len) == 0 && path[len] == '/' &&
		    sscanf(path + len + 1, "vmtune-%ld-%ld%n", &pid, &n, &end) == 2 && path[len + 1 + end] == '\0' &&
		    pid > 0 && n >= 0 && isdigit((unsigned char)path[len + 8]))
			return true;
	}
	return false;
}

const struct journal_kind cgroup_journal_kind = { .name = "cgroup", .undo = cgroup_destroy, .valid = cgroup_ours };
