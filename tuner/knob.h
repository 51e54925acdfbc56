/* knob.h - reading and writing one catalogue knob on the live system or under --root. */
#ifndef VMTUNE_KNOB_H
#define VMTUNE_KNOB_H

#include <limits.h>
#include <stdbool.h>

#include "catalogue.h"

enum knob_status {
	KS_AVAILABLE,
	KS_MISSING,    /* no file for it on this kernel */
	KS_READONLY,   /* present but not writable by us */
	KS_RESTRICTED, /* present but the kernel refuses access (lockdown) */
	KS_WRITEONLY,  /* an action such as drop_caches: written, never read */
};

struct knob_state {
	const struct knob_def *def;
	const struct knob_path *kp; /* the path in use, NULL when missing */
	char path[PATH_MAX];	    /* resolved (under --root) */
	enum knob_status status;
	bool have_value;
	long value;
	char why[160]; /* why it is missing/restricted, for the user */
};

/* One file behind a knob and its raw writable value: what the journal keeps. */
struct knob_file {
	char name[64]; /* the knob the file belongs to */
	char path[PATH_MAX];
	char raw[64];
};

#define KNOB_MAX_FILES 16

const char *knob_status_name(enum knob_status s);

/* Find the knob's file, read its value, work out its status. Never fails:
 * the status says what is wrong. */
void knob_probe(const struct knob_def *d, struct knob_state *st);

/* Parse a user's value for a knob and check it against the full range.
 * On error returns -1 and fills why. */
int knob_parse_value(const struct knob_def *d, const char *text, long *v, char *why, size_t whylen);
const char *knob_format_value(const struct knob_def *d, long v, char *buf, size_t size);

/* The files a write of this knob may change, with their current raw values, for
 * the journal: first those of a knob the kernel adjusts in response (so that an
 * undo in reverse order puts it back last), then its own, then its pair's.
 * Returns the count or -1. */
int knob_files(const struct knob_state *st, struct knob_file *files, int max);

/* Can the knob hold v on this kernel? False for an mTHP order whose size the
 * kernel does not offer (8kB on x86): writing it reads back the order below. */
bool knob_value_exists(const struct knob_state *st, long v);

/* Write a value (caller has journalled first), read it back into *readback. */
int knob_write(struct knob_state *st, long v, long *readback);

/* Put back one journalled file. The path must be one the catalogue names for
 * knob `name` under the current root: a journal cannot make vmtune write elsewhere. */
int knob_file_restore(const char *name, const char *path, const char *raw);

/* debugfs: mounted on demand on the live system, unmounted at exit if we did it. */
void knob_debugfs_release(void);

#endif
