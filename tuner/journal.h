/* journal.h - the journal of originals and the lock: nothing vmtune changes is lost. */
#ifndef VMTUNE_JOURNAL_H
#define VMTUNE_JOURNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "knob.h"

/* A kind of resource vmtune makes (a swapfile, a cgroup) and how to undo it. The
 * module that owns the resource defines one and the command layer registers it
 * (journal_register), so the journal depends on no resource module: a journal
 * entry whose kind is not registered is reported and kept, never acted on. */
struct journal_kind {
	const char *name; /* in the journal file: one word */
	int (*undo)(const char *path);
	/* Is path one this kind's module could have made? A journal is a file; one
	 * that names anything else is refused, never acted on. */
	bool (*valid)(const char *path);
};

/* Read a journal's text from f into this process's entries (name for messages):
 * 0, or -1 with the damaged line named. What restore and session_begin read; the
 * fuzz target's entry point. */
int journal_parse(FILE *f, const char *name);

/* Make a kind known to this process's journal (before session_begin/restore). */
void journal_register(const struct journal_kind *k);

/* Start a command that changes settings: state dir, lock, signal handlers, and
 * restore of this process's transient changes at exit. Returns 0 or an exit code. */
int session_begin(void);
/* Put back this process's transient changes and drop the lock (idempotent). */
int session_end(void);
/* Put back this process's transient changes, staying in the session. */
int journal_undo_transient(void);

/* Record a knob's files before writing it. keep: the change is meant to stay
 * (vmtune set) and is undone only by `vmtune restore`; otherwise it is undone
 * when this process ends. */
int journal_knob(const struct knob_state *st, bool keep);
/* The kept changes journalled so far by this process are complete: `vmtune set`
 * and `apply` call it when every write is done. Until then they are undone at
 * exit like transient ones (and after a crash, reported as such), so a set cut
 * short leaves nothing half-applied. */
int journal_keep(void);
/* Record a resource (swapfile, cgroup) before creating it; forget it once removed. */
int journal_resource(const struct journal_kind *kind, const char *path);
int journal_forget(const struct journal_kind *kind, const char *path);

/* Undo everything in the journal (vmtune restore). Returns 0, or -1 if
 * something could not be put back (the journal keeps what is left). */
int journal_restore_all(int *count);

/* Warn when a previous vmtune died without restoring. */
void journal_warn_stale(void);

#endif
