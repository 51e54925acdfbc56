/* cmd-set.c - `vmtune set KNOB=VALUE...`: kept, journalled changes. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "journal.h"
#include "settings.h"
#include "vmtune.h"

int cmd_set(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	struct setting s[SETTINGS_MAX];
	int c, i, n = 0, rc;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			print_cmd_help("set", "");
			return 0;
		}
		return usage_error("set", "unknown option");
	}
	if (optind >= argc)
		return usage_error("set", "name at least one KNOB=VALUE, e.g. vmtune set vm.page-cluster=2");
	if (argc - optind > SETTINGS_MAX)
		return usage_error("set", "too many settings (at most 64)");
	for (i = optind; i < argc; i++)
		if ((rc = setting_parse(argv[i], &s[n++])) != 0)
			return rc;
	if ((rc = settings_check(s, n)) != 0 || (rc = session_begin()) != 0)
		return rc;
	rc = settings_apply(s, n, true);
	if (rc == 0)
		info("the original values are journalled in %s; 'vmtune restore' puts them back", vt.state_dir);
	return rc;
}
