/* runner.c - fork/exec a workload in its own process group (and cgroup), time it
 * with wait4 rusage, collect its name=value lines, enforce the timeout, and tell
 * an OOM kill from any other death. Never lets a workload's fate crash vmtune. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "sampler.h"
#include "settle.h"
#include "extract.h"
#include "text.h"
#include "tools.h"
#include "vmtune.h"
#include "workload.h"

const char *run_outcome_name(enum run_outcome o)
{
	static const char *const names[] = { "ok", "failed", "signaled", "oom", "timeout", "interrupted", "nostart" };

	return names[o];
}

static void noop(int sig)
{
	(void)sig;
}

/* /dev/kmsg from now on: open and seek to the end before the run. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Keep the last OOM-killer line the kernel logged since kmsg_open. */
static void kmsg_oom_line(int fd, char *out, size_t size)
{
	char rec[2048];
	ssize_t n;

	if (fd < 0)
		return;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: skip on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		rec[strcspn(rec, "\n")] = '\0';
		if (strstr(rec, "Killed process") || strstr(rec, "out of memory")) {
			const char *msg = strchr(rec, ';');
			snprintf(out, size, "%s", msg ? msg + 1 : rec);
		}
	}
}

static void add_value(struct run_value *vals, int *n, const char *line)
{
	const char *eq = strchr(line, '=');
	char name[48], *end;
	double v;
	size_t len;
	int i;

	if (!eq || eq == line || (size_t)(eq - line) >= sizeof(name))
		return;
	len = (size_t)(eq - line);
	for (i = 0; i < (int)len; i++)
		if (!(isalnum((unsigned char)line[i]) || line[i] == '_' || line[i] == '.'))
			return;
	errno = 0;
	v = strtod(eq + 1, &end);
	/* nan and inf are no measurement: such a line is not a value */
	if (errno || end == eq + 1 || (*end && !isspace((unsigned char)*end)) || !isfinite(v))
		return;
	memcpy(name, line, len);
	name[len] = '\0';
	extract_put(vals, n, name, v); /* the last one wins */
}

static void put_value(struct run_value *vals, int *n, const char *name, double v)
{
	if (*n >= RUN_MAX_VALUES || !isfinite(v))
		return;
	snprintf(vals[*n].name, sizeof(vals[0].name), "%s", name);
	vals[(*n)++].value = v;
}

/* What the sampler saw, as sys.* values next to the workload's own. */
static void put_summary(struct run_result *res, const struct sampler_summary *s)
{
	const struct {
		const char *name;
		double v;
	} f[] = {
		{ "sys.samples", s->samples },
		{ "sys.missed_beats", s->missed_beats },
		{ "sys.max_gap_s", s->max_gap },
		{ "sys.si_pages", s->si_pages },
		{ "sys.so_pages", s->so_pages },
		{ "sys.bi_kb", s->bi_kb },
		{ "sys.bo_kb", s->bo_kb },
		{ "sys.in_per_s", s->in_per_s },
		{ "sys.cs_per_s", s->cs_per_s },
		{ "sys.us_pct", s->us_pct },
		{ "sys.sy_pct", s->sy_pct },
		{ "sys.id_pct", s->id_pct },
		{ "sys.wa_pct", s->wa_pct },
		{ "sys.max_swpd_kb", s->max_swpd_kb },
		{ "sys.min_free_kb", s->min_free_kb },
		{ "sys.psi_some_ms", s->psi_some_ms },
		{ "sys.psi_full_ms", s->psi_full_ms },
		{ "sys.cg_psi_some_ms", s->cg_psi_some_ms },
		{ "sys.cg_psi_full_ms", s->cg_psi_full_ms },
		{ "sys.sampler_cpu_s", s->cpu_s },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		put_value(res->values, &res->nvalues, f[i].name, f[i].v);
}

static double find_value(const struct run_value *vals, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(vals[i].name, name) == 0)
			return vals[i].value;
	return NAN;
}

double run_value(const struct run_result *res, const char *name)
{
	if (strncmp(name, "probe.", 6) == 0)
		return find_value(res->probe, res->nprobe, name + 6);
	return find_value(res->values, res->nvalues, name);
}

/* Split what the workload wrote into lines; parse name=value (unless its numbers
 * are read another way: a tool's, exec{...}'s), echo if asked, and keep the whole
 * of it when asked (up to CAPTURE_MAX) for the reader. */
#define CAPTURE_MAX (16u << 20)

struct linebuf {
	char buf[8192];
	size_t len;
	bool kv;
	char *all;
	size_t nall, capall;
};

static void keep(struct linebuf *lb, const char *s, size_t n, bool nl)
{
	if (lb->capall == 0 || lb->nall + n + 2 > CAPTURE_MAX)
		return;
	if (lb->nall + n + 2 > lb->capall) {
		size_t cap = lb->capall;
		char *p;
		while (cap < lb->nall + n + 2)
			cap *= 2;
		if (!(p = realloc(lb->all, cap)))
			return;
		lb->all = p;
		lb->capall = cap;
	}
	memcpy(lb->all + lb->nall, s, n);
	lb->nall += n;
	if (nl)
		lb->all[lb->nall++] = '\n';
	lb->all[lb->nall] = '\0';
}

/* A workload's output is not ours: escaped before it reaches the terminal. */
static void echo_line(const char *line)
{
	char safe[8192 * 4 + 1];

	fprintf(stderr, "  | %s\n", text_safe(line, safe, sizeof(safe)));
}

static void consume(struct linebuf *lb, struct run_result *res, bool echo, bool flush)
{
	char *start = lb->buf, *nl;

	while ((nl = memchr(start, '\n', lb->len - (size_t)(start - lb->buf)))) {
		*nl = '\0';
		keep(lb, start, (size_t)(nl - start), true);
		if (lb->kv)
			add_value(res->values, &res->nvalues, start);
		if (echo)
			echo_line(start);
		start = nl + 1;
	}
	lb->len -= (size_t)(start - lb->buf);
	memmove(lb->buf, start, lb->len);
	if (flush || lb->len == sizeof(lb->buf) - 1) {
		lb->buf[lb->len] = '\0';
		if (lb->len) {
			keep(lb, lb->buf, lb->len, false);
			if (lb->kv)
				add_value(res->values, &res->nvalues, lb->buf);
			if (echo)
				echo_line(lb->buf);
		}
		lb->len = 0;
	}
}

static void child_exec(char **argv, const struct run_spec *spec, bool attach, int out, const sigset_t *mask,
		       pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	if (attach && spec->cg && cgroup_attach(spec->cg, getpid()) < 0)
		_exit(126);
	if (dup2(out, STDOUT_FILENO) < 0)
		_exit(126);
	close(out);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* a workload scoring a fake tree reads its knobs there */
	if (spec->root && spec->root[0])
		setenv("VMTUNE_ROOT", spec->root, 1);
	else
		unsetenv("VMTUNE_ROOT");
	execv(argv[0], argv);
	fprintf(stderr, "vmtune: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void kill_workload(pid_t pid, const struct cgroup *cg)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	if (cg)
		cgroup_kill_all(cg->path);
}

/* The probe: started before the workload in the same cgroup, stopped with SIGTERM
 * once the workload has ended; it then prints its results, which are read here. */
struct probe {
	pid_t pid;
	int fd;
};

static int probe_start(const struct run_spec *spec, struct probe *pr, const sigset_t *orig)
{
	char **argv, name[64];
	int pfd[2];

	pr->pid = -1;
	pr->fd = -1;
	if (!spec->probe)
		return 0;
	if (workload_argv(spec->probe, &argv, name, sizeof(name)) < 0)
		return -1;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		workload_argv_free(argv);
		return error("pipe: %s", strerror(errno));
	}
	pr->pid = fork();
	if (pr->pid == 0)
		child_exec(argv, spec, true, pfd[1], orig, getppid());
	workload_argv_free(argv);
	close(pfd[1]);
	if (pr->pid < 0) {
		close(pfd[0]);
		return error("fork: %s", strerror(errno));
	}
	setpgid(pr->pid, pr->pid);
	pr->fd = pfd[0];
	return 0;
}

static void probe_stop(struct probe *pr, struct run_result *res)
{
	struct linebuf lb = { .len = 0 };
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int st = 0, i;
	ssize_t n;

	if (pr->pid <= 0)
		return;
	kill(pr->pid, SIGTERM);
	for (i = 0; i < 250 && waitpid(pr->pid, &st, WNOHANG) == 0; i++)
		nanosleep(&ts, NULL);
	if (i == 250) {
		kill(-pr->pid, SIGKILL);
		waitpid(pr->pid, &st, 0);
	}
	res->probe_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	while ((n = read(pr->fd, lb.buf + lb.len, sizeof(lb.buf) - 1 - lb.len)) > 0) {
		char *start = lb.buf, *nl;
		lb.len += (size_t)n;
		while ((nl = memchr(start, '\n', lb.len - (size_t)(start - lb.buf)))) {
			*nl = '\0';
			add_value(res->probe, &res->nprobe, start);
			if (strstr(start, "played "))
				text_safe(start, res->probe_line, sizeof(res->probe_line));
			start = nl + 1;
		}
		lb.len -= (size_t)(start - lb.buf);
		memmove(lb.buf, start, lb.len);
	}
	close(pr->fd);
	if (!res->probe_ok)
		snprintf(res->probe_line, sizeof(res->probe_line), "the probe did not finish cleanly (%s %d)",
			 WIFSIGNALED(st) ? "killed by signal" : "exit status",
			 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

int runner_run(const struct run_spec *spec, struct run_result *res)
{
	struct probe pr = { -1, -1 };
	struct sampler *smp = NULL;
	char **argv = NULL, name[64], line[sizeof(res->kernel_line)];
	int pfd[2], kfd = -1, status = 0;
	long oom_before = 0;
	pid_t pid, parent = getpid();
	sigset_t block, orig;
	struct sigaction sa, old_sa;
	struct rusage ru;
	struct linebuf lb = { .len = 0, .kv = true };
	struct tool_run *tr = NULL;
	struct extract ex;
	const char *cmd;
	double t0, deadline;
	bool we_killed = false, reaped = false, attach = true;
	enum run_outcome killed_for = RUN_OK;
	int ek = 0;

	memset(res, 0, sizeof(*res));
	res->outcome = RUN_NOSTART;
	/* a tool (its server started here, in the cgroup), exec{...}:CMD, or the rest */
	if (tool_of(spec->workload, NULL)) {
		if (tool_begin(spec->workload, spec->cg, spec->timeout, &tr, &argv, &attach) < 0)
			return -1;
	} else if ((ek = extract_from_spec(spec->workload, &ex, &cmd)) < 0 ||
		   workload_argv(spec->workload, &argv, name, sizeof(name)) < 0)
		return -1;
	if (tr || ek == 1) {
		lb.kv = false;
		lb.capall = 65536;
		lb.all = malloc(lb.capall);
		if (!lb.all)
			lb.capall = 0;
		else
			lb.all[0] = '\0';
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		tool_end(tr, NULL, 0, res);
		if (!tr)
			workload_argv_free(argv);
		free(lb.all);
		return error("pipe: %s", strerror(errno));
	}
	/* SIGCHLD stays blocked except inside ppoll, so a child's exit wakes us at once */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = noop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old_sa);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);

	if (spec->cg)
		oom_before = cgroup_oom_kills(spec->cg);
	if (probe_start(spec, &pr, &orig) < 0)
		goto out;
	kfd = kmsg_open();
	t0 = vt_now();
	deadline = spec->timeout > 0 ? t0 + spec->timeout : 0;
	pid = fork();
	if (pid < 0) {
		error("fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child_exec(argv, spec, attach, pfd[1], &orig, parent);
	setpgid(pid, pid); /* also in the parent: no race with a kill(-pid) */
	if (sampler_start(&smp, spec->cg ? spec->cg->path : NULL, spec->echo) < 0)
		smp = NULL;
	crashpoint("workload-running");
	close(pfd[1]);
	pfd[1] = -1;
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);

	while (!reaped) {
		struct pollfd fds = { .fd = pfd[0], .events = POLLIN };
		struct timespec ts = { 1, 0 };
		pid_t r = wait4(pid, &status, WNOHANG, &ru);
		ssize_t n;

		if (r == pid) {
			reaped = true;
			break;
		}
		if (!we_killed && vt_interrupted) {
			kill_workload(pid, spec->cg);
			we_killed = true;
			killed_for = RUN_INTERRUPTED;
		}
		if (!we_killed && deadline && vt_now() >= deadline) {
			kill_workload(pid, spec->cg);
			we_killed = true;
			killed_for = RUN_TIMEOUT;
		}
		if (deadline && !we_killed) {
			double left = deadline - vt_now();
			if (left < 1) {
				ts.tv_sec = 0;
				ts.tv_nsec = left > 0 ? (long)(left * 1e9) : 0;
			}
		}
		if (ppoll(pfd[0] >= 0 ? &fds : NULL, pfd[0] >= 0 ? 1 : 0, &ts, &orig) > 0) {
			n = read(pfd[0], lb.buf + lb.len, sizeof(lb.buf) - 1 - lb.len);
			if (n > 0) {
				lb.len += (size_t)n;
				consume(&lb, res, spec->echo, false);
			} else if (n == 0) {
				close(pfd[0]);
				pfd[0] = -1;
			}
		}
	}
	res->elapsed = vt_now() - t0;
	if (smp) {
		struct sampler_summary sum;
		sampler_stop(smp, &sum);
		smp = NULL;
		put_summary(res, &sum);
		res->nseries = sum.nseries;
		memcpy(res->series, sum.series, sizeof(sum.series[0]) * (size_t)sum.nseries);
	}
	/* whatever it left in the pipe (or in its process group) */
	if (pfd[0] >= 0) {
		ssize_t n;
		while ((n = read(pfd[0], lb.buf + lb.len, sizeof(lb.buf) - 1 - lb.len)) > 0) {
			lb.len += (size_t)n;
			consume(&lb, res, spec->echo, false);
		}
	}
	consume(&lb, res, spec->echo, true);
	kill(-pid, SIGKILL); /* leftovers of the workload's process group */
	probe_stop(&pr, res);

	res->user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	res->sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	res->majflt = ru.ru_majflt;
	res->minflt = ru.ru_minflt;
	res->maxrss_kb = ru.ru_maxrss;
	kmsg_oom_line(kfd, res->kernel_line, sizeof(res->kernel_line));
	text_safe(res->kernel_line, line, sizeof(line));
	snprintf(res->kernel_line, sizeof(res->kernel_line), "%s", line);
	if (WIFEXITED(status)) {
		res->exit_code = WEXITSTATUS(status);
		res->outcome = res->exit_code == 0 ? RUN_OK : RUN_FAILED;
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
		res->outcome = RUN_SIGNALED;
	}
	if (we_killed)
		res->outcome = killed_for;
	else if (res->outcome != RUN_OK && spec->cg && cgroup_oom_kills(spec->cg) > oom_before)
		res->outcome = RUN_OOM; /* some process of the workload was OOM-killed */
	else if (res->outcome == RUN_SIGNALED && res->signal == SIGKILL && res->kernel_line[0])
		res->outcome = RUN_OOM;
	if (res->outcome != RUN_OOM)
		res->kernel_line[0] = '\0';
	/* the numbers of a tool or of exec{...}: read from what it printed */
	if (tr) {
		tool_end(tr, lb.all ? lb.all : "", lb.nall, res);
		tr = NULL;
		argv = NULL; /* the tool's */
	} else if (ek == 1 && res->outcome == RUN_OK &&
		   extract_apply(&ex, lb.all ? lb.all : "", lb.nall, res->values, &res->nvalues, res->note,
				 sizeof(res->note)) < 0 &&
		   !res->note[0])
		snprintf(res->note, sizeof(res->note), "its numbers could not be read");
out:
	if (tr) { /* it did not start: its server stops */
		tool_end(tr, NULL, 0, res);
		argv = NULL;
	}
	free(lb.all);
	if (pr.pid > 0 && res->outcome == RUN_NOSTART)
		probe_stop(&pr, res);
	if (kfd >= 0)
		close(kfd);
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	sigaction(SIGCHLD, &old_sa, NULL);
	workload_argv_free(argv);
	return res->outcome == RUN_NOSTART ? -1 : 0;
}

const char *run_describe(const struct run_result *res, char *buf, size_t size)
{
	switch (res->outcome) {
	case RUN_OK:
		if (res->note[0])
			snprintf(buf, size, "completed, but its numbers could not be read: %s", res->note);
		else
			snprintf(buf, size, "completed");
		break;
	case RUN_FAILED:
		snprintf(buf, size, "exited with status %d", res->exit_code);
		break;
	case RUN_SIGNALED:
		snprintf(buf, size, "killed by signal %d (%s)", res->signal, strsignal(res->signal));
		break;
	case RUN_OOM:
		snprintf(buf, size, "killed by the OOM killer%s%s", res->kernel_line[0] ? ": " : "", res->kernel_line);
		break;
	case RUN_TIMEOUT:
		snprintf(buf, size, "stopped at the timeout after %.1f s", res->elapsed);
		break;
	case RUN_INTERRUPTED:
		snprintf(buf, size, "stopped because vmtune was interrupted");
		break;
	case RUN_NOSTART:
		snprintf(buf, size, "could not be started");
		break;
	}
	return buf;
}

/* oom_kill of /proc/vmstat: every OOM kill on the machine so far; -1 if unreadable. */
static long vmstat_oom_kills(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen("/proc/vmstat", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "oom_kill %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

int runner_run_sandboxed(struct run_spec *spec, uint64_t mem_limit, uint64_t swap, const struct settle_opts *so,
			 struct settle_cost *cost, struct settle_state *before, struct run_result *res)
{
	struct cgroup cg;
	long oom0, cg_oom0;
	int rc = 0;

	if (so && so->steps && settle(so, cost) < 0)
		return -1;
	if (before) {
		settle_state_now(before);
		settle_canaries(before);
	}
	spec->cg = NULL;
	if (mem_limit) {
		if (cgroup_create(&cg, mem_limit, swap ? swap : CGROUP_UNLIMITED) < 0)
			return -1;
		spec->cg = &cg;
	}
	oom0 = vmstat_oom_kills();
	cg_oom0 = mem_limit ? cgroup_oom_kills(&cg) : 0;
	if (runner_run(spec, res) < 0)
		rc = -2;
	if (rc == 0) {
		/* the footprint: memory and swap of the cgroup at their peak */
		long peak = mem_limit ? cgroup_peak_kb(&cg) : -1;
		if (peak > 0)
			put_value(res->values, &res->nvalues, "sys.peak_kb", (double)peak);
		put_value(res->values, &res->nvalues, "sys.maxrss_kb", (double)res->maxrss_kb);
		put_value(res->values, &res->nvalues, "sys.majflt", (double)res->majflt);
		/* OOM kills on the machine that were not the sandbox's own */
		if (oom0 >= 0 && (!spec->root || !*spec->root)) {
			long outside = vmstat_oom_kills() - oom0 - (mem_limit ? cgroup_oom_kills(&cg) - cg_oom0 : 0);
			put_value(res->values, &res->nvalues, "sys.oom_kills_outside",
				  (double)(outside > 0 ? outside : 0));
		}
	}
	if (mem_limit && cgroup_remove(&cg) < 0 && rc == 0)
		rc = -1;
	spec->cg = NULL;
	if (before)
		before->host_reported_during_kib = settle_host_reported_kib() - before->host_reported_kib;
	return rc;
}
