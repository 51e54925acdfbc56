/* pft - the page-fault test of seed 001 (Lameter, 2004): THREADS threads each fault
 * in their share of BYTES of fresh anonymous memory, REPS times, and the rates are
 * computed from the pages really touched (the original stepped 16 KB, IA64's page,
 * which overstates 4x on 4 KB pages). The measured minor faults are compared with
 * that count (mTHP or fault-around make them differ). To show how close faulting
 * comes to the machine's limit, the same bytes are also zeroed with memset once they
 * are resident: fault/wsec x page size is printed as a fraction of that bandwidth. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "size.h"
#include "wl.h"

struct job {
	size_t bytes;
	long reps;
	pthread_barrier_t *start;
	int err;
};

static long ps;

static void *fault_in(void *arg)
{
	struct job *j = arg;
	long r;
	size_t off;

	pthread_barrier_wait(j->start);
	for (r = 0; r < j->reps; r++) {
		char *p = mmap(NULL, j->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			j->err = errno;
			return NULL;
		}
		madvise(p, j->bytes, MADV_NOHUGEPAGE); /* base pages, as in 2004 */
		for (off = 0; off < j->bytes; off += (size_t)ps)
			p[off] = 1;
		munmap(p, j->bytes);
	}
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pft [-b BYTES] [-t THREADS] [-r REPS]\n"
		   "  -b BYTES    memory faulted in per repetition, all threads together (default 256M)\n"
		   "  -t THREADS  threads (default 1)\n"
		   "  -r REPS     repetitions (default 1)\n");
}

/* memset bandwidth over resident memory: the ceiling for faulting in zeroed pages */
static double zero_bandwidth(size_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	double t, best = 0;
	int i;

	if (p == MAP_FAILED)
		return NAN;
	for (i = 0; i < 3; i++) {
		t = wl_now();
		memset(p, 0, bytes);
		t = wl_now() - t;
		if (t > 0 && bytes / t > best)
			best = (double)bytes / t;
	}
	munmap(p, bytes);
	return best;
}

int main(int argc, char **argv)
{
	uint64_t bytes = 256ULL << 20;
	long threads = 1, reps = 1, i, minflt0;
	struct job *jobs;
	pthread_t *tids;
	pthread_barrier_t start;
	struct rusage ru0, ru1;
	double wall, user, sys, pages, zbw, fault_bw;
	char why[256];
	int opt, err = 0;

	ps = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, wl_opts_pft)) != -1) {
		switch (opt) {
		case 'b':
			if (parse_size(optarg, &bytes, why, sizeof(why)) < 0 || bytes < (uint64_t)ps) {
				fprintf(stderr, "pft: -b: %s\n", bytes < (uint64_t)ps ? "at least one page" : why);
				return 2;
			}
			break;
		case 't':
			threads = wl_opt_long("pft", 't', optarg, 1, 1024);
			break;
		case 'r':
			reps = wl_opt_long("pft", 'r', optarg, 1, 100000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	jobs = calloc((size_t)threads, sizeof(*jobs));
	tids = calloc((size_t)threads, sizeof(*tids));
	if (!jobs || !tids)
		return 1;
	pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
	for (i = 0; i < threads; i++) {
		jobs[i].bytes = (size_t)(bytes / (uint64_t)threads / (uint64_t)ps * (uint64_t)ps);
		jobs[i].reps = reps;
		jobs[i].start = &start;
		pthread_create(&tids[i], NULL, fault_in, &jobs[i]);
	}
	getrusage(RUSAGE_SELF, &ru0);
	minflt0 = ru0.ru_minflt;
	wall = wl_now();
	pthread_barrier_wait(&start);
	for (i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		if (jobs[i].err)
			err = jobs[i].err;
	}
	wall = wl_now() - wall;
	getrusage(RUSAGE_SELF, &ru1);
	pthread_barrier_destroy(&start);
	if (err) {
		fprintf(stderr, "pft: mmap: %s\n", strerror(err));
		free(jobs);
		free(tids);
		return 1;
	}
	user = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
	       (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6;
	sys = (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
	      (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
	pages = (double)jobs[0].bytes / (double)ps * (double)threads * (double)reps; /* pages really touched */
	printf(" Gb Rep Threads   User      System     Wall flt/cpu/s fault/wsec\n");
	printf("%3.0f %3ld %7ld %6.2fs %10.2fs %7.2fs %9.0f %10.0f\n", (double)bytes / (1 << 30), reps, threads, user,
	       sys, wall, pages / (user + sys), pages / wall);
	if (fabs((double)(ru1.ru_minflt - minflt0) - pages) > 0.1 * pages)
		printf("pft: WARNING: %ld minor faults measured for %.0f pages touched (mTHP or fault-around?)\n",
		       ru1.ru_minflt - minflt0, pages);
	zbw = zero_bandwidth(jobs[0].bytes * (size_t)threads);
	fault_bw = pages * (double)ps / wall;
	printf("pft: faulting in %.2f GB/s of zeroed pages; memset of resident pages %.2f GB/s: %.0f%% of that limit\n",
	       fault_bw / 1e9, zbw / 1e9, 100 * fault_bw / zbw);
	printf("bytes_allocated=%.0f\n", (double)bytes);
	printf("pages=%.0f\n", pages);
	printf("minflt=%ld\n", ru1.ru_minflt - minflt0);
	printf("user_s=%.6f\nsys_s=%.6f\nwall_s=%.6f\n", user, sys, wall);
	printf("flt_cpu_s=%.1f\n", pages / (user + sys));
	printf("fault_wsec=%.1f\n", pages / wall);
	printf("zero_gb_s=%.4f\n", zbw / 1e9);
	printf("fault_gb_s=%.4f\n", fault_bw / 1e9);
	printf("fraction_of_zeroing=%.4f\n", fault_bw / zbw);
	free(jobs);
	free(tids);
	return 0;
}
