/* file.c - small-file I/O, mkdir -p, atomic replacement and sorted listings. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

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

int file_mkdir_p(const char *dir, mode_t mode)
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

FILE *file_atomic_open(const char *path, char *tmp)
{
	FILE *f;
	int fd;

	if (snprintf(tmp, PATH_MAX, "%s.tmp", path) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/* never through a link planted where the temp file goes */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return NULL;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "w")))
		close(fd);
	return f;
}

void file_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int dfd;

	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

int file_atomic_commit(FILE *f, const char *tmp, const char *path, mode_t mode)
{
	int e = 0;

	if (fflush(f) != 0 || fsync(fileno(f)) < 0 || fchmod(fileno(f), mode) < 0)
		e = errno;
	if (fclose(f) != 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		return -e;
	}
	file_sync_dir(path);
	return 0;
}

void file_atomic_abort(FILE *f, const char *tmp)
{
	if (f)
		fclose(f);
	unlink(tmp);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int file_list(const char *dir, const char *suffix, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	int n = 0, cap = 0;
	size_t sl = strlen(suffix);

	*names = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len <= sl || strcmp(de->d_name + len - sl, suffix) != 0)
			continue;
		if (n == cap) {
			char **nv = realloc(v, sizeof(*v) * (size_t)(cap = cap ? 2 * cap : 16));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n > 1) /* (qsort of NULL is undefined, even for 0 items) */
		qsort(v, (size_t)n, sizeof(*v), by_name);
	*names = v;
	return n;
}

void file_list_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
