/* vmtune.h - what every part of vmtune shares: the run context, exit codes, messages. */
#ifndef VMTUNE_H
#define VMTUNE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define VMTUNE_VERSION "0.1.0"

/* Exit codes (DESIGN §2). */
enum {
	EXIT_OK = 0,
	EXIT_CHECK = 1, /* a check failed: drift, a workload run failed */
	EXIT_USAGE = 2, /* usage or input error */
	EXIT_ENV = 3,	/* environment: not root, knob missing, no cgroup */
	EXIT_INTERNAL = 4,
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
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Resolve an absolute system path under --root: buf = root + path. */
const char *vt_path(char *buf, size_t size, const char *path);
/* A path inside the state dir. */
const char *vt_state_path(char *buf, size_t size, const char *name);
/* Create the state dir (mode 0700) if it does not exist. */
int vt_state_dir_ensure(void);
bool vt_live(void);
/* The directory of the running vmtune binary (the build tree, or PREFIX/bin), or NULL. */
const char *vt_exe_dir(char *buf, size_t size);

/* Small file helpers: read a whole small file (trailing newline stripped),
 * write a string (O_TRUNC), both returning -errno on failure. */
int read_small_file(const char *path, char *buf, size_t size);
int write_small_file(const char *path, const char *s);

#endif
