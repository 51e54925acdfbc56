/* swapbench - the swap-in side that mtest01 does not exercise: fill an anonymous
 * area of SIZE (past a memory limit this pushes it to swap), then read it back
 * PASSES times in sequential, random or mixed (random 256 KB runs) order. Every
 * page carries its own index, so a wrong page read back is caught. On today's
 * kernels vm.page-cluster governs how much each swap-in reads ahead. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "size.h"
#include "wl.h"

#define MIX_RUN 64 /* pages read in order in a "mix" run: 256 KB */

static void usage(FILE *f)
{
	fprintf(f, "usage: swapbench -s SIZE [-P PASSES] [-a seq|rand|mix] [-S SEED] [-v]\n"
		   "  -s SIZE     anonymous area to fill, e.g. 600M\n"
		   "  -P PASSES   read-back passes after the fill (default 1)\n"
		   "  -a ORDER    seq (default), rand (every page once, shuffled) or mix (shuffled 256K runs)\n"
		   "  -S SEED     seed of the shuffle (default 1)\n"
		   "  -v          print each pass\n");
}

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: deterministic for a seed, good enough for a shuffle */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static void shuffle(size_t *a, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(rng() % i), t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

static long majflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

int main(int argc, char **argv)
{
	uint64_t size = 0;
	long passes = 1, seed = 1, maj0, maj_fill, maj_touch;
	const char *order = "seq";
	int opt, verbose = 0;
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), npages, i, *perm = NULL, nruns;
	unsigned char *area;
	uint64_t errors = 0, sum = 0;
	double t0, t_fill, t_touch = 0;

	while ((opt = getopt(argc, argv, wl_opts_swapbench)) != -1) {
		switch (opt) {
		case 's':
			size = wl_opt_size("swapbench", 's', optarg);
			break;
		case 'P':
			passes = wl_opt_long("swapbench", 'P', optarg, 0, 1000);
			break;
		case 'a':
			order = optarg;
			if (strcmp(order, "seq") && strcmp(order, "rand") && strcmp(order, "mix")) {
				fprintf(stderr, "swapbench: -a '%s': use seq, rand or mix\n", order);
				return 2;
			}
			break;
		case 'S':
			seed = wl_opt_long("swapbench", 'S', optarg, 0, 1L << 62);
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
	if (size < ps) {
		fprintf(stderr, "swapbench: give the area size with -s SIZE (at least one page)\n");
		usage(stderr);
		return 2;
	}
	npages = (size_t)(size / ps);
	rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
	area = mmap(NULL, npages * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED) {
		fprintf(stderr, "swapbench: mmap %zu bytes: %s\n", npages * ps, strerror(errno));
		return 1;
	}
	/* no transparent huge pages: the unit of swap-in must be the base page */
	madvise(area, npages * ps, MADV_NOHUGEPAGE);
	nruns = strcmp(order, "mix") == 0 ? (npages + MIX_RUN - 1) / MIX_RUN : npages;
	if (strcmp(order, "seq") != 0) {
		perm = malloc(nruns * sizeof(*perm));
		if (!perm) {
			fprintf(stderr, "swapbench: out of memory for the shuffle\n");
			return 1;
		}
	}
	printf("swapbench: %zu pages (%llu bytes), %ld %s pass(es)\n", npages, (unsigned long long)npages * ps, passes,
	       order);
	fflush(stdout);

	maj0 = majflt();
	t0 = wl_now();
	for (i = 0; i < npages; i++) {
		uint64_t *w = (uint64_t *)(area + i * ps);
		w[0] = i;
		w[ps / sizeof(uint64_t) - 1] = ~(uint64_t)i;
	}
	t_fill = wl_now() - t0;
	maj_fill = majflt() - maj0;

	maj0 = majflt();
	for (long p = 0; p < passes; p++) {
		double tp = wl_now();
		if (perm) {
			for (i = 0; i < nruns; i++)
				perm[i] = i;
			shuffle(perm, nruns);
		}
		for (i = 0; i < nruns; i++) {
			size_t first = perm ? perm[i] : i, count = 1, k;
			if (strcmp(order, "mix") == 0) {
				first *= MIX_RUN;
				count = npages - first < MIX_RUN ? npages - first : MIX_RUN;
			}
			for (k = first; k < first + count; k++) {
				const volatile uint64_t *w = (const uint64_t *)(area + k * ps);
				uint64_t v = w[0];
				if (v != k || w[ps / sizeof(uint64_t) - 1] != ~(uint64_t)k)
					errors++;
				sum += v;
			}
		}
		tp = wl_now() - tp;
		t_touch += tp;
		if (verbose)
			printf("swapbench: pass %ld: %.3f s\n", p + 1, tp);
	}
	maj_touch = majflt() - maj0;
	printf("swapbench: fill %.3f s (%ld major faults), read-back %.3f s over %ld pass(es) (%ld major faults)%s\n",
	       t_fill, maj_fill, t_touch, passes, maj_touch, errors ? ", PAGES READ BACK WRONG" : "");
	printf("bytes_allocated=%llu\n", (unsigned long long)npages * ps);
	printf("pages=%zu\n", npages);
	printf("fill_s=%.6f\n", t_fill);
	printf("touch_s=%.6f\n", t_touch);
	if (passes)
		printf("pass_s=%.6f\n", t_touch / (double)passes);
	if (t_touch > 0)
		printf("touch_mb_s=%.3f\n", (double)npages * ps * (double)passes / t_touch / 1048576.0);
	printf("majflt_fill=%ld\n", maj_fill);
	printf("majflt_touch=%ld\n", maj_touch);
	printf("errors=%llu\n", (unsigned long long)errors);
	printf("checksum=%llu\n", (unsigned long long)(sum & 0xffffffffffffULL));
	free(perm);
	return errors ? 1 : 0;
}
