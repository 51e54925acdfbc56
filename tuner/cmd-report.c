/* cmd-report.c - `vmtune report PROFILE`: what a profile holds and how sure it is. */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "knob.h"
#include "profile.h"
#include "size.h"
#include "vmtune.h"

static void print_text(const char *path, const struct profile *p)
{
	char v[64], a[32], b[32];
	int i;

	printf("profile %s%s%s\n", p->name[0] ? p->name : "(unnamed)", p->created[0] ? ", created " : "", p->created);
	printf("file: %s\n", path);
	if (p->description[0])
		printf("%s\n", p->description);
	if (p->machine.present) {
		printf("measured on %s: kernel %s, %ld CPUs, %ld kB memory, %ld kB swap", p->machine.hostname,
		       p->machine.kernel, p->machine.cpus, p->machine.mem_total_kb, p->machine.swap_total_kb);
		if (p->machine.swap[0])
			printf(" (%s%s%s%s)", p->machine.swap, p->machine.swap_backend[0] ? ", " : "",
			       p->machine.swap_backend[0] ? "sandbox swap " : "", p->machine.swap_backend);
		printf("\n");
	}
	if (p->match.has_min || p->match.has_max)
		printf("matches machines with %s%s%s of memory\n",
		       p->match.has_min ? format_size(p->match.mem_min, a, sizeof(a)) : "any amount",
		       p->match.has_max ? " to " : " or more",
		       p->match.has_max ? format_size(p->match.mem_max, b, sizeof(b)) : "");
	printf("\nsettings:\n");
	for (i = 0; i < p->nsettings; i++)
		printf("  %-30s %s\n", p->settings[i].def->name,
		       knob_format_value(p->settings[i].def, p->settings[i].value, v, sizeof(v)));
	if (!p->evidence.present) {
		printf("\nno evidence: this profile was not measured by vmtune search\n");
		return;
	}
	printf("\nevidence: %s, %ld trials\n", p->evidence.workload, p->evidence.trials);
	if (p->evidence.metric[0])
		printf("%s (%s is better): %.4g -> %.4g, %+.1f%% (95%% CI %+.1f%% .. %+.1f%%): %s\n",
		       p->evidence.metric, strcmp(p->evidence.direction, "max") == 0 ? "higher" : "lower",
		       p->evidence.baseline, p->evidence.best, p->evidence.change_pct, p->evidence.ci_lo,
		       p->evidence.ci_hi,
		       p->evidence.significant ? "significant" : "not significant: the original settings were kept");
}

static void print_json(const struct profile *p)
{
	json_object *o = profile_json(p);

	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "json", no_argument, NULL, 'j' },
					      { NULL, 0, NULL, 0 } };
	struct profile p;
	int c, rc;

	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("report", "  --json       machine-readable output\n");
			return 0;
		case 'j':
			vt.json = 1;
			break;
		default:
			return usage_error("report", "unknown option");
		}
	}
	if (optind != argc - 1)
		return usage_error("report", "name one profile file");
	if ((rc = profile_load(argv[optind], &p)) != 0)
		return rc;
	if (vt.json)
		print_json(&p);
	else
		print_text(argv[optind], &p);
	return 0;
}
