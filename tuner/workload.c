/* workload.c - resolves workload specs: built-in programs live next to the vmtune
 * binary, in $VMTUNE_WORKLOAD_DIR, or in PREFIX/libexec/vmtune beside PREFIX/bin;
 * anything else runs as exec:CMD through /bin/sh. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>

#include "vmtune.h"
#include "workload.h"

#ifndef WORKLOAD_DIR
#define WORKLOAD_DIR "/usr/local/libexec/vmtune"
#endif

const struct workload_info workload_builtins[] = {
	{ "mtest01", "elapsed", false, "LTP mtest01: allocate PCT% of memory+swap, write every page (swap-out)" },
	{ "swapbench", "elapsed", false, "fill an area past the memory limit, read it back seq/rand/mix (swap-in)" },
	{ "sputter", "played", true, "the mp3 of the seeds: a periodic task with a reclaimable working set" },
	{ "mmap001", "elapsed", false, "LTP mmap001: map a file MAP_SHARED, write every byte, msync, munmap" },
	{ "pft", "fault_wsec", true, "the page-fault test of seed 001: threads fault in fresh anonymous memory" },
	{ "chat", "msg_s", true, "VolanoMark-like loopback TCP chat: rooms of users, every message fanned out" },
	{ NULL, NULL, false, NULL },
};

const struct workload_info *workload_find(const char *name)
{
	int i;

	for (i = 0; workload_builtins[i].name; i++)
		if (strcmp(workload_builtins[i].name, name) == 0)
			return &workload_builtins[i];
	return NULL;
}

static int builtin_path(const char *name, char *out, size_t size)
{
	char dir[PATH_MAX];
	const char *env = getenv("VMTUNE_WORKLOAD_DIR");

	if (env && *env) {
		snprintf(out, size, "%s/%s", env, name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	if (vt_exe_dir(dir, sizeof(dir))) {
		/* next to vmtune (the build tree), or PREFIX/libexec/vmtune for PREFIX/bin/vmtune */
		snprintf(out, size, "%s/%s", dir, name);
		if (access(out, X_OK) == 0)
			return 0;
		snprintf(out, size, "%s/../libexec/vmtune/%s", dir, name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	snprintf(out, size, "%s/%s", WORKLOAD_DIR, name);
	return access(out, X_OK) == 0 ? 0 : -1;
}

void workload_argv_free(char **argv)
{
	int i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int workload_argv(const char *spec, char ***argvp, char *name, size_t namelen)
{
	wordexp_t we;
	char **argv, path[PATH_MAX];
	size_t i;
	int r;

	if (strncmp(spec, "exec:", 5) == 0) {
		if (spec[5] == '\0')
			return error("workload 'exec:' names no command");
		argv = calloc(4, sizeof(*argv));
		if (!argv)
			return error("out of memory");
		argv[0] = strdup("/bin/sh");
		argv[1] = strdup("-c");
		argv[2] = strdup(spec + 5);
		snprintf(name, namelen, "exec");
		*argvp = argv;
		return 0;
	}
	r = wordexp(spec, &we, WRDE_NOCMD);
	if (r != 0 || we.we_wordc == 0) {
		if (r == 0)
			wordfree(&we);
		return error("workload '%s' cannot be split into words (unbalanced quotes or $(...)?)", spec);
	}
	if (!workload_find(we.we_wordv[0])) {
		int k;
		char list[256] = "";
		for (k = 0; workload_builtins[k].name; k++) {
			strncat(list, k ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, workload_builtins[k].name, sizeof(list) - strlen(list) - 1);
		}
		error("unknown workload '%s' (built-in: %s; or exec:CMD for any program)", we.we_wordv[0], list);
		wordfree(&we);
		return -1;
	}
	if (builtin_path(we.we_wordv[0], path, sizeof(path)) < 0) {
		error("workload program '%s' not found next to vmtune, in $VMTUNE_WORKLOAD_DIR or in %s; run 'make'",
		      we.we_wordv[0], WORKLOAD_DIR);
		wordfree(&we);
		return -1;
	}
	argv = calloc(we.we_wordc + 1, sizeof(*argv));
	if (!argv) {
		wordfree(&we);
		return error("out of memory");
	}
	snprintf(name, namelen, "%s", we.we_wordv[0]);
	argv[0] = strdup(path);
	for (i = 1; i < we.we_wordc; i++)
		argv[i] = strdup(we.we_wordv[i]);
	wordfree(&we);
	*argvp = argv;
	return 0;
}
