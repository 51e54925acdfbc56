/* sputter - the mp3 of the seeds: a periodic task (not mlocked) that every PERIOD
 * "decodes" one period of audio: it touches its share of a reclaimable working set
 * and does a little CPU work over it. A sound card drains a playback buffer of
 * BUFFER in real time; a period finished after the card needed it is an underrun
 * (the mp3 skips) and the gap is lost audio. Under memory pressure the working set
 * is swapped out and the task's own major faults make it late.
 * Plays for -d DURATION, or, as a probe beside other workloads, until SIGTERM/SIGINT.
 * Prints "played X seconds of Y second run" and name=value results. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "size.h"
#include "wl.h"

#define HIST_STEP 50e-6 /* lateness histogram: 50 us buckets up to 10 s */
#define HIST_N 200000

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: sputter [-p PERIOD] [-B BUFFER] [-s WORKING_SET] [-d DURATION]\n"
		   "  -p PERIOD       one period of audio (default 10ms)\n"
		   "  -B BUFFER       playback buffer (default 100ms)\n"
		   "  -s WORKING_SET  memory the player walks through once a second (default 64M)\n"
		   "  -d DURATION     play this long (default: until SIGTERM or SIGINT)\n");
}

static double percentile(const uint32_t *hist, long n, double q)
{
	long want = (long)ceil(q * (double)n), seen = 0;
	int i;

	for (i = 0; i < HIST_N; i++) {
		seen += hist[i];
		if (seen >= want && want > 0)
			return i * HIST_STEP; /* the bucket's lower edge: 0 means on time */
	}
	return HIST_N * HIST_STEP;
}

static void ts_add(struct timespec *t, double s)
{
	long ns = t->tv_nsec + (long)(s * 1e9);

	t->tv_sec += ns / 1000000000L;
	t->tv_nsec = ns % 1000000000L;
}

static double ts_sec(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double period = 0.010, buffer = 0.100, duration = 0, t0, now, skipped = 0, max_late = 0, sum_late = 0;
	uint64_t ws = 64ULL << 20;
	long ps = sysconf(_SC_PAGESIZE), k, ticks = 0, underruns = 0, maj0;
	size_t npages, per_tick, cursor = 0, i;
	unsigned char *area;
	uint32_t *hist;
	uint64_t sum = 0;
	struct timespec next;
	struct rusage ru;
	struct sigaction sa;
	char why[256];
	int opt;

	while ((opt = getopt(argc, argv, wl_opts_sputter)) != -1) {
		switch (opt) {
		case 'p':
			if (parse_duration(optarg, &period, why, sizeof(why)) < 0 || period < 0.001 || period > 1) {
				fprintf(stderr, "sputter: -p: %s\n", period ? why : "between 1ms and 1s");
				return 2;
			}
			break;
		case 'B':
			buffer = wl_opt_duration("sputter", 'B', optarg);
			break;
		case 's':
			if (parse_size(optarg, &ws, why, sizeof(why)) < 0 || ws < (uint64_t)ps) {
				fprintf(stderr, "sputter: -s: %s\n", ws < (uint64_t)ps ? "at least one page" : why);
				return 2;
			}
			break;
		case 'd':
			duration = wl_opt_duration("sputter", 'd', optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	npages = (size_t)(ws / (uint64_t)ps);
	area = mmap(NULL, npages * (size_t)ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hist = calloc(HIST_N, sizeof(*hist));
	if (area == MAP_FAILED || !hist) {
		fprintf(stderr, "sputter: cannot allocate the working set: %s\n", strerror(errno));
		return 1;
	}
	madvise(area, npages * (size_t)ps, MADV_NOHUGEPAGE);
	for (i = 0; i < npages; i++)
		area[i * (size_t)ps] = (unsigned char)i;
	/* the whole working set once a second */
	per_tick = (size_t)ceil((double)npages * period);
	if (per_tick < 1)
		per_tick = 1;
	printf("sputter: %.0f ms periods, %.0f ms buffer, %zu-page working set (%zu pages a period)\n", period * 1e3,
	       buffer * 1e3, npages, per_tick);
	fflush(stdout);

	getrusage(RUSAGE_SELF, &ru);
	maj0 = ru.ru_majflt;
	clock_gettime(CLOCK_MONOTONIC, &next);
	t0 = ts_sec(&next);
	for (k = 0; !stop && (duration <= 0 || (k + 1) * period <= duration + 1e-9); k++) {
		double late;

		/* decode one period: walk our share of the working set, a little arithmetic */
		for (i = 0; i < per_tick; i++) {
			unsigned char *p = area + ((cursor + i) % npages) * (size_t)ps;
			sum += p[0] * 2654435761u + p[ps / 2];
			p[ps / 2] = (unsigned char)sum;
		}
		cursor = (cursor + per_tick) % npages;
		clock_gettime(CLOCK_MONOTONIC, &next);
		now = ts_sec(&next);
		/* lateness: how long after the end of its period the chunk was ready */
		late = now - (t0 + (double)(k + 1) * period);
		if (late < 0)
			late = 0;
		hist[late / HIST_STEP < HIST_N ? (long)(late / HIST_STEP) : HIST_N - 1]++;
		sum_late += late;
		if (late > max_late)
			max_late = late;
		/* the card needs chunk k at t0 + BUFFER + k*PERIOD, shifted by every skip */
		if (now > t0 + buffer + (double)k * period + skipped) {
			skipped = now - (t0 + buffer + (double)k * period);
			underruns++;
		}
		ticks++;
		next.tv_sec = (time_t)t0;
		next.tv_nsec = (long)((t0 - floor(t0)) * 1e9);
		ts_add(&next, (double)(k + 1) * period);
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	now = ts_sec(&next) - t0;
	getrusage(RUSAGE_SELF, &ru);
	{
		double run = ticks * period, played = run - skipped;
		if (played < 0)
			played = 0;
		printf("sputter: played %.1f seconds of %.1f second run, %ld underrun(s), lateness p50 %.1f ms p99 "
		       "%.1f ms "
		       "max %.1f ms, %ld major faults\n",
		       played, run, underruns, 1e3 * percentile(hist, ticks, 0.5), 1e3 * percentile(hist, ticks, 0.99),
		       1e3 * max_late, ru.ru_majflt - maj0);
		printf("played_s=%.3f\n", played);
		printf("run_s=%.3f\n", run);
		printf("played=%.5f\n", run > 0 ? played / run : 1);
		printf("underruns=%ld\n", underruns);
		printf("underruns_per_min=%.3f\n", run > 0 ? underruns * 60 / run : 0);
		printf("p50_lateness_ms=%.3f\n", 1e3 * percentile(hist, ticks, 0.5));
		printf("p99_lateness_ms=%.3f\n", 1e3 * percentile(hist, ticks, 0.99));
		printf("max_lateness_ms=%.3f\n", 1e3 * max_late);
		printf("mean_lateness_ms=%.3f\n", ticks ? 1e3 * sum_late / ticks : 0);
		printf("majflt=%ld\n", ru.ru_majflt - maj0);
		printf("checksum=%llu\n", (unsigned long long)(sum & 0xffffff));
	}
	free(hist);
	return 0;
}
