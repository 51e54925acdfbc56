/* paths.c - where things are: --root resolution, the state dir, small file I/O. */
#include <errno.h>
#include <libgen.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmtune.h"

struct vt_ctx vt;

bool vt_live(void)
{
	return vt.root[0] == '\0';
}

const char *vt_path(char *buf, size_t size, const char *path)
{
	snprintf(buf, size, "%s%s", vt.root, path);
	return buf;
}

const char *vt_state_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", vt.state_dir, name);
	return buf;
}

static int mkdir_p(const char *dir, mode_t mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int vt_state_dir_ensure(void)
{
	int r = mkdir_p(vt.state_dir, 0700);

	if (r < 0)
		return error("cannot create state dir '%s': %s (choose another with --state-dir)", vt.state_dir,
			     strerror(-r));
	return 0;
}

int read_small_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return (int)len;
}

int write_small_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	char buf[512];
	size_t len;
	ssize_t n;

	if (fd < 0)
		return -errno;
	/* one write, newline-terminated, as `echo VALUE > FILE` does */
	len = (size_t)snprintf(buf, sizeof(buf), "%s\n", s);
	if (len >= sizeof(buf)) {
		close(fd);
		return -E2BIG;
	}
	n = write(fd, buf, len);
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

const char *vt_exe_dir(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	snprintf(buf, size, "%s", dirname(exe));
	return buf;
}
