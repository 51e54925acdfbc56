/* cmd-restore.c - `vmtune restore`: put back everything the journal holds (knobs,
 * swapfiles, cgroups), after a crash or a `vmtune set`. */
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "journal.h"
#include "vmtune.h"

int cmd_restore(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	int c, rc, count = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			print_cmd_help("restore", "");
			return 0;
		}
		return usage_error("restore", "unknown option");
	}
	if (optind < argc)
		return usage_error("restore", "unexpected argument '%s'", argv[optind]);
	if ((rc = session_begin()) != 0)
		return rc;
	if (journal_restore_all(&count) < 0) {
		error("some changes could not be put back; the journal in %s keeps them", vt.state_dir);
		return EXIT_ENV;
	}
	if (count == 0)
		info("nothing to restore: the journal in %s is empty", vt.state_dir);
	else
		info("restored %d journalled change(s)", count);
	return 0;
}
