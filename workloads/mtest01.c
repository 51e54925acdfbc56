/* mtest01 - LTP's mtest01, as the seeds ran it: children malloc CHUNK at a time
 * until together they hold the target, optionally writing every page (-w), then
 * all exit together. With -p the target is PCT% of memory plus swap, *without*
 * subtracting what is already in use (the 2001 fix from seed 000); inside a
 * memory cgroup it is PCT% of the cgroup's limit plus the swap it may use.
 * Time it from outside (vmtune run, or GNU time, like the seeds). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "size.h"
#include "wl.h"

#define CHILD_MAX (1ULL << 30) /* LTP splits the target among children like this */
#define MAX_CHILDREN 1024

static void usage(FILE *f)
{
	fprintf(f, "usage: mtest01 [-b BYTES | -p PERCENT] [-c CHUNK] [-w] [-v]\n"
		   "  -b BYTES    allocate BYTES in total (e.g. 512M)\n"
		   "  -p PERCENT  allocate PERCENT%% of memory+swap (of the cgroup's limit+swap inside one)\n"
		   "  -c CHUNK    malloc CHUNK at a time (default 1M)\n"
		   "  -w          write one byte in every page (without it, pages are never touched)\n"
		   "  -v          verbose\n");
}

/* One child: allocate `share` bytes, report, wait for the parent's word to exit. */
static void child(uint64_t share, uint64_t chunk, int dowrite, int report_fd, int go_fd, int verbose)
{
	uint64_t got = 0;
	long ps = sysconf(_SC_PAGESIZE);
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (got < share) {
		uint64_t want = share - got < chunk ? share - got : chunk;
		char *p = malloc((size_t)want);
		if (!p) {
			if (verbose)
				fprintf(stderr, "mtest01: child %d: malloc failed after %llu bytes\n", getpid(),
					(unsigned long long)got);
			break;
		}
		if (dowrite)
			for (uint64_t off = 0; off < want; off += (uint64_t)ps)
				p[off] = 1;
		got += want;
	}
	if (write(report_fd, &got, sizeof(got)) != (ssize_t)sizeof(got))
		_exit(2);
	/* hold the memory until the parent says everyone is done */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

static uint64_t target_from_percent(long pct, int verbose)
{
	struct sysinfo si;
	uint64_t ram, swap, cg_mem, cg_swap, basis;

	sysinfo(&si);
	ram = (uint64_t)si.totalram * si.mem_unit;
	swap = (uint64_t)si.totalswap * si.mem_unit;
	wl_cgroup_limits(&cg_mem, &cg_swap);
	if (cg_mem < ram) {
		uint64_t allowed = cg_swap < swap ? cg_swap : swap;
		basis = cg_mem + allowed;
		printf("mtest01: cgroup limit %llu bytes + swap it may use %llu bytes\n", (unsigned long long)cg_mem,
		       (unsigned long long)allowed);
	} else {
		basis = ram + swap;
		printf("mtest01: memory %llu bytes + swap %llu bytes\n", (unsigned long long)ram,
		       (unsigned long long)swap);
	}
	(void)verbose;
	return (uint64_t)((long double)basis * pct / 100.0L);
}

int main(int argc, char **argv)
{
	uint64_t target = 0, chunk = 1 << 20, total = 0, got;
	long pct = 0;
	int opt, dowrite = 0, verbose = 0, nchildren, i, report[2], go[2], failed = 0, reported = 0;
	pid_t pids[MAX_CHILDREN];
	char why[256];

	while ((opt = getopt(argc, argv, wl_opts_mtest01)) != -1) {
		switch (opt) {
		case 'b':
			if (parse_size(optarg, &target, why, sizeof(why)) < 0 || target == 0) {
				fprintf(stderr, "mtest01: -b: %s\n", target == 0 ? "must be more than 0" : why);
				return 2;
			}
			break;
		case 'c':
			if (parse_size(optarg, &chunk, why, sizeof(why)) < 0 || chunk == 0) {
				fprintf(stderr, "mtest01: -c: %s\n", chunk == 0 ? "must be more than 0" : why);
				return 2;
			}
			break;
		case 'p':
			pct = wl_opt_long("mtest01", 'p', optarg, 1, 99);
			break;
		case 'w':
			dowrite = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if ((pct == 0) == (target == 0)) {
		fprintf(stderr, "mtest01: give exactly one of -b BYTES and -p PERCENT\n");
		usage(stderr);
		return 2;
	}
	if (pct)
		target = target_from_percent(pct, verbose);
	nchildren = (int)((target + CHILD_MAX - 1) / CHILD_MAX);
	if (nchildren > MAX_CHILDREN) {
		fprintf(stderr, "mtest01: target %llu bytes is too large\n", (unsigned long long)target);
		return 2;
	}
	printf("mtest01: allocating %llu bytes in %d child(ren), %llu-byte chunks%s\n", (unsigned long long)target,
	       nchildren, (unsigned long long)chunk, dowrite ? ", writing every page" : "");
	fflush(stdout);
	if (pipe(report) < 0 || pipe(go) < 0) {
		perror("mtest01: pipe");
		return 1;
	}
	for (i = 0; i < nchildren; i++) {
		uint64_t share = i < nchildren - 1 ? CHILD_MAX : target - CHILD_MAX * (uint64_t)(nchildren - 1);
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("mtest01: fork");
			nchildren = i;
			failed = 1;
			break;
		}
		if (pids[i] == 0) {
			close(report[0]);
			close(go[1]);
			child(share, chunk, dowrite, report[1], go[0], verbose);
		}
	}
	close(report[1]);
	close(go[0]);
	/* every child reports once; EOF early means one died (OOM killer, say) */
	while (reported < nchildren) {
		ssize_t n = read(report[0], &got, sizeof(got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(got))
			break;
		total += got;
		reported++;
	}
	close(go[1]); /* everyone may exit now */
	for (i = 0; i < nchildren; i++) {
		int st;
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(st)) {
			printf("mtest01: FAIL: child %d killed by signal %d (%s)\n", pids[i], WTERMSIG(st),
			       strsignal(WTERMSIG(st)));
			failed = 1;
		} else if (WEXITSTATUS(st) != 0) {
			printf("mtest01: FAIL: child %d exited with %d\n", pids[i], WEXITSTATUS(st));
			failed = 1;
		}
	}
	if (!failed && total < target)
		printf("mtest01: WARN: allocated %llu of %llu bytes (malloc failed)\n", (unsigned long long)total,
		       (unsigned long long)target);
	if (!failed)
		printf("mtest01: PASS: %d child(ren) allocated %llu bytes\n", nchildren, (unsigned long long)total);
	printf("bytes_allocated=%llu\n", (unsigned long long)total);
	printf("target_bytes=%llu\n", (unsigned long long)target);
	printf("children=%d\n", nchildren);
	return failed;
}
