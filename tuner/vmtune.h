/* vmtune.h - what every part of vmtune shares: the run context, exit codes, messages.
 *
 * How the code is written (ARCHITECTURE.md has the layers):
 * - Errors are values. A module below the commands never exits and never prints to
 *   stdout. Its functions return 0 (or a count or an id, >= 0) on success and -1 on
 *   failure, after saying why with error() (which returns -1, so `return error(...)`).
 * - Two kinds of function differ, and say so in their header comment:
 *   - helpers that do not know what a file is for (file.c, the knob file readers)
 *     return -errno and print nothing; the caller words the message;
 *   - setup steps that decide a command's exit status (session_begin, space_build,
 *     profile_load, ydoc_load, search_run) return 0 or an exit code (EXIT_USAGE, ...).
 * - Messages: lowercase, no full stop, the subject first and quoted where it is a
 *   path or a value ("vmtune: cannot open profile 'x.yaml': ..."); a file's error
 *   names FILE:LINE:COLUMN, a knob's names the knob and the value, and says the way out.
 * - Only main.c and the commands (cmd-*.c) read `vt`; the modules get what they need
 *   as arguments (search_opts, run_spec) or from paths.c (vt_path, vt_state_path). */
#ifndef VMTUNE_H
#define VMTUNE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "file.h"

#define VMTUNE_VERSION "0.1.0"

/* Exit codes (DESIGN §2). */
enum {
	EXIT_OK = 0,
	EXIT_CHECK = 1, /* a check failed: drift, a workload run failed */
	EXIT_USAGE = 2, /* usage or input error */
	EXIT_ENV = 3,	/* environment: not root, knob missing, no cgroup */
	EXIT_INTERNAL = 4,
	EXIT_SMALLER = 5, /* verify --measure: the gain is there, but smaller than the profile claims */
};

/* The global options every command sees. */
struct vt_ctx {
	char root[PATH_MAX]; /* "" for the live system */
	char state_dir[PATH_MAX];
	char db[PATH_MAX];
	const char *dbs[16]; /* every --db given, the first is db (recommend reads them all) */
	int ndbs;
	int verbose;
	int quiet;
	int json;
};

extern struct vt_ctx vt;

/* Set by SIGINT/SIGTERM/SIGHUP while a command that changes settings runs. */
extern volatile sig_atomic_t vt_interrupted;

/* Messages go to stderr prefixed with "vmtune: "; error() returns -1 so that
 * library code can say `return error(...)`. */
void log_setup(int verbosity, bool quiet); /* -v (repeatable) and -q */
void log_to(FILE *f);			   /* messages go to f (NULL: stderr); the fuzz targets' /dev/null */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A progress line (run, search): redrawn in place when inplace and stderr is a
 * terminal without NO_COLOR or TERM=dumb; a plain line otherwise. Other messages
 * take it away first (progress_clear). */
void progress(bool inplace, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool progress_inplace(void);
void progress_clear(void);
void verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --root ("" for the live system) and --state-dir. */
const char *vt_root(void);
const char *vt_state_dir(void);
/* Resolve an absolute system path under --root: buf = root + path. */
const char *vt_path(char *buf, size_t size, const char *path);
/* A path inside the state dir. */
const char *vt_state_path(char *buf, size_t size, const char *name);
/* Create the state dir (mode 0700) if it does not exist. */
int vt_state_dir_ensure(void);
bool vt_live(void);

/* A named point where a test build (make crash-build: -DVMTUNE_CRASHPOINTS) stops
 * itself when VMTUNE_CRASH_AT names it (at its VMTUNE_CRASH_NTH passage, default 1)
 * so that the crash test can SIGKILL it there. Nothing in other builds. */
#ifdef VMTUNE_CRASHPOINTS
void crashpoint(const char *name);
#else
static inline void crashpoint(const char *name)
{
	(void)name;
}
#endif
/* Seconds on the monotonic clock. */
static inline double vt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The directory of the running vmtune binary (the build tree, or PREFIX/bin), or NULL. */
const char *vt_exe_dir(char *buf, size_t size);

#endif
