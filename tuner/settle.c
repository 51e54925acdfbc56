/* settle.c - the same starting state before every measured run. The seeds compared
 * runs by eye while the previous run's dirty pages were still being written, its
 * swap still half full and the page cache whatever the last command left; each of
 * those moves the next run. The steps, in order: sync (and wait for writeback),
 * drop caches (and read the workload programs back, so every run starts with a
 * warm binary and nothing else), compact, empty vmtune's own swap, and wait until
 * memory pressure, swap I/O and writeback are quiet; and, asked for (steady), until a
 * CPU canary runs at its usual speed. Figures come through libproc2. */
#include <errno.h>
#include <fcntl.h>
#include <libproc2/meminfo.h>
#include <libproc2/vmstat.h>
#include <math.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "sampler.h"
#include "settle.h"
#include "swap.h"
#include "text.h"
#include "vmtune.h"

static const char *const step_names[SETTLE_NSTEPS] = { "sync", "drop-caches", "compact", "swap", "quiet", "steady" };

const char *settle_step_name(int step)
{
	return step >= 0 && step < SETTLE_NSTEPS ? step_names[step] : "?";
}

int settle_parse(const char *list, unsigned *steps, char *why, size_t whylen)
{
	char buf[256], esc[512], *tok, *save = NULL;
	unsigned out = 0;
	bool minus_only = true;

	if (strcmp(list, "all") == 0) {
		*steps = SETTLE_ALL;
		return 0;
	}
	if (strcmp(list, "none") == 0) {
		*steps = 0;
		return 0;
	}
	if (!*list || strlen(list) >= sizeof(buf)) {
		snprintf(why, whylen, "'%s' is not a list of steps", text_safe(list, esc, sizeof(esc)));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (*tok != '-')
			minus_only = false;
	if (minus_only)
		out = SETTLE_DEFAULT;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool minus = *tok == '-';
		int i;

		for (i = 0; i < SETTLE_NSTEPS; i++)
			if (strcmp(tok + minus, step_names[i]) == 0)
				break;
		if (i == SETTLE_NSTEPS) {
			snprintf(why, whylen,
				 "unknown step '%s' (all, none, or a list of sync, drop-caches, compact, swap, quiet, "
				 "steady; -STEP leaves one out)",
				 text_safe(tok, esc, sizeof(esc)));
			return -1;
		}
		if (minus)
			out &= ~(1u << i);
		else
			out |= 1u << i;
	}
	*steps = out;
	return 0;
}

const char *settle_format(unsigned steps, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < SETTLE_NSTEPS; i++)
		if (steps & (1u << i))
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s", len ? "," : "",
						step_names[i]);
	if (!len)
		snprintf(buf, size, "none");
	return buf;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

/* A fixed CPU loop (xorshift: no memory traffic, no syscalls), in ms. On an idle
 * machine it varies by about 2%; while the host is busy it runs 10-20% slower. */
static double cpu_canary(void)
{
	volatile uint64_t x = 88172645463325252ull;
	double t = now();

	for (int i = 0; i < 4000000; i++) {
		uint64_t v = x;
		v ^= v << 13;
		v ^= v >> 7;
		v ^= v << 17;
		x = v;
	}
	return 1000 * (now() - t);
}

void settle_canaries(struct settle_state *st)
{
	size_t len = 16u << 20, ps = (size_t)sysconf(_SC_PAGESIZE);
	double t;
	char *m;

	st->canary_cpu_ms = cpu_canary();
	st->canary_mem_ms = NAN;
	t = now();
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;
	for (size_t off = 0; off < len; off += ps)
		m[off] = 1;
	munmap(m, len);
	st->canary_mem_ms = 1000 * (now() - t);
}

double settle_host_reported_kib(void)
{
	char buf[64], *end;
	double v;

	if (read_small_file("/sys/module/page_reporting/parameters/reported_kib", buf, sizeof(buf)) <= 0)
		return NAN;
	v = strtod(buf, &end);
	return end != buf && !*end ? v : NAN;
}

void settle_state_now(struct settle_state *st)
{
	static enum meminfo_item items[] = { MEMINFO_MEM_DIRTY, MEMINFO_MEM_WRITEBACK, MEMINFO_MEM_CACHED,
					     MEMINFO_MEM_FREE };
	/* one context for the process: this is polled every 50-100 ms while settling,
	 * and each select reads /proc/meminfo afresh */
	static struct meminfo_info *mi;
	struct meminfo_stack *m;

	st->dirty_kb = st->writeback_kb = st->cached_kb = st->free_kb = NAN;
	st->host_reported_kib = settle_host_reported_kib();
	st->host_reported_during_kib = NAN;
	st->canary_cpu_ms = st->canary_mem_ms = NAN;
	if (!mi && procps_meminfo_new(&mi) < 0) {
		mi = NULL;
		return;
	}
	if ((m = procps_meminfo_select(mi, items, 4))) {
		st->dirty_kb = (double)m->head[0].result.ul_int;
		st->writeback_kb = (double)m->head[1].result.ul_int;
		st->cached_kb = (double)m->head[2].result.ul_int;
		st->free_kb = (double)m->head[3].result.ul_int;
	}
}

static int poke(const char *path, const char *value)
{
	int r = write_small_file(path, value);

	if (r < 0)
		return error("settle: cannot write %s to %s: %s", value, path, strerror(-r));
	return 0;
}

static void warm(const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* Writeback done: Dirty + Writeback at most 8 MB, or the timeout. */
static bool wait_writeback(double until)
{
	struct settle_state st;

	for (;;) {
		settle_state_now(&st);
		if (!(st.dirty_kb + st.writeback_kb > 8192))
			return true;
		if (now() > until)
			return false;
		nap(0.05);
	}
}

/* Quiet: three polls 100 ms apart with no swap I/O, memory stall under 1% of the
 * time, and nothing under writeback. */
static bool wait_quiet(double until)
{
	static enum vmstat_item items[] = { VMSTAT_PSWPIN, VMSTAT_PSWPOUT };
	struct vmstat_info *vi = NULL;
	struct vmstat_stack *v;
	struct settle_state st;
	double psi0, psi1, full, io0 = NAN, io1, t0 = now(), t1;
	int calm = 0;
	bool ok = false;

	if (procps_vmstat_new(&vi) < 0)
		vi = NULL;
	psi_totals("/proc/pressure/memory", &psi0, &full);
	if (vi && (v = procps_vmstat_select(vi, items, 2)))
		io0 = (double)(v->head[0].result.ul_int + v->head[1].result.ul_int);
	for (;;) {
		nap(0.1);
		t1 = now();
		psi_totals("/proc/pressure/memory", &psi1, &full);
		io1 = NAN;
		if (vi && (v = procps_vmstat_select(vi, items, 2)))
			io1 = (double)(v->head[0].result.ul_int + v->head[1].result.ul_int);
		settle_state_now(&st);
		bool still = !(psi1 - psi0 > 0.01 * (t1 - t0) * 1e6) && !(io1 != io0) && !(st.writeback_kb > 1024);
		calm = still ? calm + 1 : 0;
		if (calm >= 3) {
			ok = true;
			break;
		}
		if (t1 > until)
			break;
		psi0 = psi1, io0 = io1, t0 = t1;
	}
	if (vi)
		procps_vmstat_unref(&vi);
	return ok;
}

/* Steady: the best of three canaries within 5% of the fastest this process has
 * seen, polled every 0.5 s until the timeout. */
static bool wait_steady(double until)
{
	static double fastest = INFINITY;

	for (;;) {
		double c = fmin(cpu_canary(), fmin(cpu_canary(), cpu_canary()));
		fastest = fmin(fastest, c);
		if (c <= 1.05 * fastest)
			return true;
		if (now() > until)
			return false;
		nap(0.5);
	}
}

int settle(const struct settle_opts *o, struct settle_cost *cost)
{
	double timeout = o->quiet_timeout > 0 ? o->quiet_timeout : 10;
	double t0 = now(), t, spent[SETTLE_NSTEPS] = { 0 };
	int rc = 0;

	if (o->root && *o->root)
		return 0; /* a fake tree has no caches, swap or pressure to settle */
	for (int step = 0; step < SETTLE_NSTEPS && rc == 0; step++) {
		if (!(o->steps & (1u << step)))
			continue;
		t = now();
		switch (step) {
		case SETTLE_SYNC:
			sync();
			if (!wait_writeback(t + timeout))
				verbose("settle: writeback still going after %.0f s", timeout);
			break;
		case SETTLE_DROP:
			if ((rc = poke("/proc/sys/vm/drop_caches", "3")) == 0)
				for (int i = 0; i < o->nwarm; i++)
					warm(o->warm[i]);
			break;
		case SETTLE_COMPACT:
			rc = poke("/proc/sys/vm/compact_memory", "1");
			break;
		case SETTLE_SWAP:
			if (o->swapfile && *o->swapfile)
				rc = swap_reset(o->swapfile);
			break;
		case SETTLE_STEADY:
			if (!wait_steady(t + (o->steady_timeout > 0 ? o->steady_timeout : 30))) {
				if (cost)
					cost->not_steady++;
				verbose("settle: the CPU canary still runs over 5%% slow after %.0f s",
					o->steady_timeout > 0 ? o->steady_timeout : 30);
			}
			break;
		case SETTLE_QUIET:
			if (!wait_quiet(t + timeout)) {
				if (cost)
					cost->not_quiet++;
				verbose("settle: memory pressure or swap I/O still going after %.0f s", timeout);
			}
			break;
		}
		spent[step] = now() - t;
	}
	if (cost) {
		cost->n++;
		for (int i = 0; i < SETTLE_NSTEPS; i++) {
			cost->s[i] += spent[i];
			cost->last[i] = spent[i];
		}
		cost->total += now() - t0;
	}
	return rc < 0 ? -1 : 0;
}
