/* cmd-get.c - `vmtune get KNOB...`: knob values, as text or JSON. */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>

#include "commands.h"
#include "knob.h"
#include "vmtune.h"

int cmd_get(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "json", no_argument, NULL, 'j' },
					      { NULL, 0, NULL, 0 } };
	struct knob_state st;
	json_object *obj = NULL;
	char buf[64];
	int c, i, rc = 0;

	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("get", "  --json       machine-readable output\n");
			return 0;
		case 'j':
			vt.json = 1;
			break;
		default:
			return usage_error("get", "unknown option");
		}
	}
	if (optind >= argc)
		return usage_error("get", "name at least one knob, e.g. vmtune get vm.page-cluster");
	for (i = optind; i < argc; i++) {
		if (!knob_find(argv[i])) {
			error("unknown knob '%s' (see 'vmtune knobs')", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (vt.json)
		obj = json_object_new_object();
	for (i = optind; i < argc; i++) {
		const struct knob_def *d = knob_find(argv[i]);

		knob_probe(d, &st);
		if (!st.have_value) {
			error("%s: %s", d->name, st.why);
			rc = EXIT_ENV;
			if (obj)
				json_object_object_add(obj, d->name, NULL);
			continue;
		}
		knob_format_value(d, st.value, buf, sizeof(buf));
		if (obj)
			json_object_object_add(obj, d->name, knob_value_json(d, st.value));
		else
			printf("%s = %s\n", d->name, buf);
	}
	if (obj) {
		printf("%s\n",
		       json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(obj);
	}
	return rc;
}
