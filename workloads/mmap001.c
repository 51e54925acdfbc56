/* mmap001 - LTP's mmap001 as the seeds ran it: create a file of PAGES pages, map it
 * MAP_SHARED, write every byte, msync(MS_SYNC), munmap, close, unlink; -i times.
 * The seeds timed it from outside ("Averages for 5 mmap001 runs"): vmtune run does.
 * The file lives in -d DIR (default: the current directory). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "size.h"
#include "wl.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mmap001 [-m PAGES] [-i ITERATIONS] [-d DIR]\n"
		   "  -m PAGES  pages to map and write (default 1000)\n"
		   "  -i N      iterations (default 1)\n"
		   "  -d DIR    where the file goes (default .)\n");
}

int main(int argc, char **argv)
{
	long pages = 1000, iters = 1, ps = sysconf(_SC_PAGESIZE), it;
	const char *dir = ".";
	double write_s = 0, msync_s = 0, t;
	char path[4096];
	int opt;

	while ((opt = getopt(argc, argv, wl_opts_mmap001)) != -1) {
		switch (opt) {
		case 'm':
			pages = wl_opt_long("mmap001", 'm', optarg, 1, 1L << 30);
			break;
		case 'i':
			iters = wl_opt_long("mmap001", 'i', optarg, 1, 1000000);
			break;
		case 'd':
			dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	printf("mmap001: %ld pages (%ld bytes), %ld iteration(s) in %s\n", pages, pages * ps, iters, dir);
	fflush(stdout);
	for (it = 0; it < iters; it++) {
		size_t len = (size_t)pages * (size_t)ps;
		char *p;
		int fd;

		snprintf(path, sizeof(path), "%s/mmap001.%ld.%ld", dir, (long)getpid(), it);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			fprintf(stderr, "mmap001: cannot create %s: %s\n", path, strerror(errno));
			return 1;
		}
		unlink(path); /* gone when we close it, whatever happens */
		if (ftruncate(fd, (off_t)len) < 0) {
			fprintf(stderr, "mmap001: cannot extend %s to %zu bytes: %s\n", path, len, strerror(errno));
			return 1;
		}
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "mmap001: mmap %zu bytes: %s\n", len, strerror(errno));
			return 1;
		}
		t = wl_now();
		memset(p, 'a' + (int)(it % 26), len); /* every byte, as the original did */
		write_s += wl_now() - t;
		t = wl_now();
		if (msync(p, len, MS_SYNC) < 0) {
			fprintf(stderr, "mmap001: msync: %s\n", strerror(errno));
			return 1;
		}
		msync_s += wl_now() - t;
		munmap(p, len);
		close(fd);
	}
	printf("mmap001: wrote %ld bytes %ld time(s): %.3f s writing, %.3f s in msync\n", pages * ps, iters, write_s,
	       msync_s);
	printf("bytes_allocated=%ld\n", pages * ps);
	printf("iterations=%ld\n", iters);
	printf("write_s=%.6f\n", write_s);
	printf("msync_s=%.6f\n", msync_s);
	return 0;
}
