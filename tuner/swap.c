/* swap.c - temporary swapfiles in the state dir: created (journalled first),
 * formatted with a swap header, enabled; disabled and removed at the end. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "journal.h"
#include "size.h"
#include "swap.h"
#include "vmtune.h"

#define TMPFS_MAGIC 0x01021994

uint64_t swap_total(void)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512];
	unsigned long long kb, total = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char name[256], type[32];
		if (sscanf(line, "%255s %31s %llu", name, type, &kb) == 3)
			total += kb;
	}
	fclose(f);
	return total * 1024;
}

/* The version-1 swap header mkswap writes: magic at the end of the first page,
 * version, last page and a UUID at offset 1024. */
static int write_header(int fd, uint64_t bytes)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned char *page = calloc(1, (size_t)ps);
	uint32_t info[3];
	int r = 0;

	if (!page)
		return -ENOMEM;
	info[0] = 1;					/* version */
	info[1] = (uint32_t)(bytes / (uint64_t)ps - 1); /* last_page */
	info[2] = 0;					/* nr_badpages */
	memcpy(page + 1024, info, sizeof(info));
	if (getrandom(page + 1024 + sizeof(info), 16, 0) != 16)
		memset(page + 1024 + sizeof(info), 0x5a, 16);
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	if (pwrite(fd, page, (size_t)ps, 0) != ps)
		r = -errno;
	free(page);
	return r;
}

static int fill_zeros(int fd, uint64_t bytes)
{
	static char zeros[1 << 20];
	uint64_t off;

	for (off = 0; off < bytes; off += sizeof(zeros)) {
		size_t n = bytes - off < sizeof(zeros) ? (size_t)(bytes - off) : sizeof(zeros);
		if (pwrite(fd, zeros, n, (off_t)off) != (ssize_t)n)
			return -errno;
	}
	return 0;
}

static int make_swapfile(const char *path, uint64_t bytes, bool zero)
{
	int fd, r;

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return error("cannot create swapfile %s: %s", path, strerror(errno));
	r = zero ? fill_zeros(fd, bytes) : posix_fallocate(fd, 0, (off_t)bytes);
	if (r > 0)
		r = -r;
	if (r == 0)
		r = write_header(fd, bytes);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return error("cannot write swapfile %s (%llu bytes): %s", path, (unsigned long long)bytes,
			     strerror(-r));
	return 0;
}

int swap_ensure(uint64_t want, char *made, size_t madelen)
{
	uint64_t have, need;
	long ps = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX], a[32], b[32];
	struct statfs sf;

	made[0] = '\0';
	if (!vt_live())
		return error("--swap needs the live kernel; it cannot be used with --root");
	have = swap_total();
	if (have >= want) {
		verbose("%s of swap configured, %s asked: no swapfile needed", format_size(have, a, sizeof(a)),
			format_size(want, b, sizeof(b)));
		return 0;
	}
	need = (want - have + (uint64_t)ps - 1) / (uint64_t)ps * (uint64_t)ps;
	if (need < 40 * (uint64_t)ps)
		need = 40 * (uint64_t)ps;
	if (vt_state_dir_ensure() < 0)
		return -1;
	if (statfs(vt_state_dir(), &sf) == 0 && (unsigned long)sf.f_type == TMPFS_MAGIC)
		return error(
		    "state dir %s is on tmpfs, where swapfiles cannot live; choose --state-dir on a disk file system",
		    vt_state_dir());
	snprintf(path, sizeof(path), "%s/swapfile-%ld", vt_state_dir(), (long)getpid());
	if (journal_resource(&swap_journal_kind, path) < 0)
		return -1;
	crashpoint("swap-journalled");
	if (make_swapfile(path, need, false) < 0)
		goto fail;
	crashpoint("swap-file-made");
	if (swapon(path, 0) < 0) {
		if (errno != EINVAL) {
			error("swapon %s: %s", path, strerror(errno));
			goto fail;
		}
		/* some file systems refuse preallocated (unwritten) extents */
		if (make_swapfile(path, need, true) < 0)
			goto fail;
		if (swapon(path, 0) < 0) {
			error("swapon %s: %s", path, strerror(errno));
			goto fail;
		}
	}
	crashpoint("swap-active");
	info("made a %s swapfile %s (removed at the end)", format_size(need, a, sizeof(a)), path);
	snprintf(made, madelen, "%s", path);
	return 0;
fail:
	unlink(path);
	journal_forget(&swap_journal_kind, path);
	return -1;
}

static bool swap_active(const char *path)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], name[256];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s", name) == 1 && strcmp(name, path) == 0)
			found = true;
	fclose(f);
	return found;
}

long swap_used_kb(const char *path)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], name[256], type[32];
	long size, used = -1, u;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %31s %ld %ld", name, type, &size, &u) == 4 && strcmp(name, path) == 0)
			used = u;
	fclose(f);
	return used;
}

int swap_reset(const char *path)
{
	if (!swap_active(path))
		return error("swapfile %s is no longer active", path);
	if (swapoff(path) < 0)
		return error("swapoff %s: %s", path, strerror(errno));
	if (swapon(path, 0) < 0)
		return error("swapon %s again: %s", path, strerror(errno));
	return 0;
}

int swap_remove(const char *path)
{
	if (swap_active(path) && swapoff(path) < 0)
		return error("swapoff %s: %s", path, strerror(errno));
	if (unlink(path) < 0 && errno != ENOENT)
		return error("cannot remove swapfile %s: %s", path, strerror(errno));
	verbose("removed swapfile %s", path);
	return 0;
}

/* A swapfile vmtune made: STATE/swapfile-PID, in this state dir. */
static bool swap_ours(const char *path)
{
	const char *dir = vt_state_dir();
	size_t len = strlen(dir);
	long pid;
	int end = 0;

	return strncmp(path, dir, len) == 0 && path[len] == '/' &&
	       sscanf(path + len + 1, "swapfile-%ld%n", &pid, &end) == 1 && path[len + 1 + end] == '\0' && pid > 0 &&
	       isdigit((unsigned char)path[len + 10]);
}

const struct journal_kind swap_journal_kind = { .name = "swapfile", .undo = swap_remove, .valid = swap_ours };
