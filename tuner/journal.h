/* journal.h - the journal of originals and the lock: nothing vmtune changes is lost. */
#ifndef VMTUNE_JOURNAL_H
#define VMTUNE_JOURNAL_H

#include <stdbool.h>

#include "knob.h"

enum journal_kind { JK_KNOB, JK_SWAPFILE, JK_CGROUP };

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
/* Record a resource (swapfile, cgroup) before creating it; forget it once removed. */
int journal_resource(enum journal_kind kind, const char *path);
int journal_forget(enum journal_kind kind, const char *path);

/* Undo everything in the journal (vmtune restore). Returns 0, or -1 if
 * something could not be put back (the journal keeps what is left). */
int journal_restore_all(int *count);

/* Warn when a previous vmtune died without restoring. */
void journal_warn_stale(void);

#endif
