/* settings.h - KNOB=VALUE lists from the command line: parse, validate, apply. */
#ifndef VMTUNE_SETTINGS_H
#define VMTUNE_SETTINGS_H

#include <stdbool.h>

#include "catalogue.h"

struct setting {
	const struct knob_def *def;
	long value;
	long before; /* filled by settings_apply */
};

/* Parse "KNOB=VALUE" against the catalogue. Returns 0 or EXIT_USAGE (message printed). */
int setting_parse(const char *arg, struct setting *s);
/* Journal, write, read back and report each setting; on any failure put back the
 * ones already written. keep: the change stays after vmtune exits (vmtune set).
 * Needs a session. Returns 0 or an exit code. */
int settings_apply(struct setting *s, int n, bool keep);

#endif
