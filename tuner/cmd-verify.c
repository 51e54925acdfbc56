/* cmd-verify.c - `vmtune verify PROFILE`: does the live system match it? Exit 1 on drift. */
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "knob.h"
#include "profile.h"
#include "vmtune.h"

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	struct profile p;
	char want[64], got[64];
	int c, i, rc, drift = 0, unreadable = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			print_cmd_help("verify", "");
			return 0;
		}
		return usage_error("verify", "unknown option");
	}
	if (optind != argc - 1)
		return usage_error("verify", "name one profile file");
	if ((rc = profile_load(argv[optind], &p)) != 0)
		return rc;
	for (i = 0; i < p.nsettings; i++) {
		const struct profile_setting *s = &p.settings[i];
		struct knob_state st;

		knob_probe(s->def, &st);
		knob_format_value(s->def, s->value, want, sizeof(want));
		if (!st.have_value) {
			printf("%-30s expected %-10s cannot read: %s\n", s->def->name, want, st.why);
			unreadable++;
			continue;
		}
		knob_format_value(s->def, st.value, got, sizeof(got));
		if (st.value != s->value) {
			printf("%-30s expected %-10s actual %s\n", s->def->name, want, got);
			drift++;
		} else if (vt.verbose) {
			printf("%-30s %s (matches)\n", s->def->name, got);
		}
	}
	if (drift || unreadable) {
		printf("%s: %d of %d setting(s) drifted%s%s\n", argv[optind], drift, p.nsettings,
		       unreadable ? ", some could not be read" : "",
		       drift ? "; 'vmtune apply' puts the profile back" : "");
		return unreadable && !drift ? EXIT_ENV : EXIT_CHECK;
	}
	printf("%s: all %d setting(s) match\n", argv[optind], p.nsettings);
	return 0;
}
