/* paths.c - where things are: --root resolution, the state dir, the binary's directory. */
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

const char *vt_root(void)
{
	return vt.root;
}

const char *vt_state_dir(void)
{
	return vt.state_dir;
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

/* The state dir holds the journal, and root writes there: it must be a real
 * directory (not a link), owned by us and writable by nobody else. */
int vt_state_dir_ensure(void)
{
	int r = file_mkdir_p(vt.state_dir, 0700);
	struct stat st;

	if (r < 0)
		return error("cannot create state dir '%s': %s (choose another with --state-dir)", vt.state_dir,
			     strerror(-r));
	if (lstat(vt.state_dir, &st) < 0)
		return error("cannot read state dir '%s': %s", vt.state_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return error("state dir '%s' is not a directory (a symbolic link?); choose another with --state-dir",
			     vt.state_dir);
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return error("state dir '%s' is owned by uid %u or writable by others (mode %03o); it must be yours "
			     "alone (chmod 700, or choose another with --state-dir)",
			     vt.state_dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
	return 0;
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
