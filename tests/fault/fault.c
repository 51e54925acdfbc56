/* fault.c - an LD_PRELOAD library for the fault tests (tests/live/test-live-faults.sh):
 * the errors a machine will not produce on demand, injected at the system call
 * vmtune makes, so that vmtune's own handling of them runs for real.
 *
 *   FAULT_WRITE=SUBSTR:ERRNO   write() to a file whose path contains SUBSTR fails
 *   FAULT_SWAPON=ERRNO         swapon() fails
 *   FAULT_MKDIR=SUBSTR:ERRNO   mkdir() of a path containing SUBSTR fails
 *
 * ERRNO is a number (1 EPERM, 16 EBUSY, 22 EINVAL, 28 ENOSPC, 13 EACCES). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/types.h>
#include <unistd.h>

/* SUBSTR:ERRNO in env var name matching path: the errno, or 0 */
static int match(const char *name, const char *path)
{
	const char *v = getenv(name), *colon;
	char sub[PATH_MAX];

	if (!v || !(colon = strrchr(v, ':')) || (size_t)(colon - v) >= sizeof(sub))
		return 0;
	memcpy(sub, v, (size_t)(colon - v));
	sub[colon - v] = '\0';
	return path && strstr(path, sub) ? atoi(colon + 1) : 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	char link[64], path[PATH_MAX];
	ssize_t len;
	int e;

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (getenv("FAULT_WRITE")) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((len = readlink(link, path, sizeof(path) - 1)) > 0) {
			path[len] = '\0';
			if ((e = match("FAULT_WRITE", path))) {
				errno = e;
				return -1;
			}
		}
	}
	return real(fd, buf, n);
}

int swapon(const char *path, int flags)
{
	static int (*real)(const char *, int);
	const char *v = getenv("FAULT_SWAPON");

	if (v) {
		errno = atoi(v);
		return -1;
	}
	if (!real)
		real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "swapon");
	return real(path, flags);
}

int mkdir(const char *path, mode_t mode)
{
	static int (*real)(const char *, mode_t);
	int e = match("FAULT_MKDIR", path);

	if (e) {
		errno = e;
		return -1;
	}
	if (!real)
		real = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
	return real(path, mode);
}
