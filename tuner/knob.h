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

/* One file and the text a value puts in it, as on the target system (never under
 * --root): what an export writes. */
struct knob_assignment {
	char path[PATH_MAX];
	char value[64];
	bool sysctl; /* a /proc/sys file: its key is the dotted name */
};

const char *knob_status_name(enum knob_status s);

/* The page size, and the size of an mTHP order (page size << order) in kB. */
long knob_page_size(void);
long knob_mthp_size_kb(int order);
/* DIR/hugepages-<size>kB/enabled for an mTHP order. */
const char *knob_mthp_path(char *buf, size_t size, const char *dir, int order);
/* Of a ratio/bytes pair, the member with a non-zero value is the one in force;
 * a knob without a pair always is. */
bool knob_in_force(const struct knob_def *d, long value);
/* The files a value of d is written to and what each gets (the mTHP sizes this
 * kernel offers; a page-order knob in bytes). Returns how many. */
int knob_assignments(const struct knob_def *d, long value, struct knob_assignment *a, int max);

/* Find the knob's file, read its value, work out its status. Never fails:
 * the status says what is wrong. */
void knob_probe(const struct knob_def *d, struct knob_state *st);

/* Parse a user's value for a knob and check it against the full range.
 * On error returns -1 and fills why. */
int knob_parse_value(const struct knob_def *d, const char *text, long *v, char *why, size_t whylen);
const char *knob_format_value(const struct knob_def *d, long v, char *buf, size_t size);
/* A value as JSON: an enum's word, otherwise the number. */
struct json_object;
struct json_object *knob_value_json(const struct knob_def *d, long v);

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

/* Does the file hold raw (a sysfs enum file: as its bracketed word)? */
bool knob_file_holds(const char *path, const char *raw);

/* Put files back to their raw values (a journal's records, or a snapshot taken
 * with knob_files before a write), the newest (last) first, so that a file
 * recorded twice ends at its oldest value. Of a ratio/bytes pair the member in
 * force is written (the kernel zeroes the other). Files that already hold their
 * value are not written. Each file is read back; ok[i] says which are back,
 * *written (may be NULL) counts the writes. Returns 0, or -1 if any is not back. */
#define KNOB_RESTORE_MAX 512
int knob_files_restore(const struct knob_file *files, int n, bool *ok, int *written);

/* debugfs: mounted on demand on the live system, unmounted at exit if we did it. */
void knob_debugfs_release(void);

#endif
