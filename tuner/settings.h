/* settings.h - KNOB=VALUE lists from the command line: parse, validate, apply. */
#ifndef VMTUNE_SETTINGS_H
#define VMTUNE_SETTINGS_H

#include <stdbool.h>

#include "catalogue.h"

#define SETTINGS_MAX 64

struct setting {
	const struct knob_def *def;
	long value;
	long before; /* filled by settings_apply */
};

/* Parse "KNOB=VALUE" against the catalogue. Returns 0 or EXIT_USAGE (message printed). */
int setting_parse(const char *arg, struct setting *s);
/* Every knob must exist and be writable here: checked before anything is
 * written (and before a session starts). Returns 0 or EXIT_ENV. */
int settings_check(struct setting *s, int n);
/* Journal, write, read back and report each setting; on any failure put back the
 * ones already written. keep: the change stays after vmtune exits (vmtune set).
 * Needs a session. Returns 0 or an exit code. */
int settings_apply(struct setting *s, int n, bool keep);

#endif
