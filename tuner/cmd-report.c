/* cmd-report.c - `vmtune report [RUN|PROFILE]`: a stored run (the terminal report,
 * --json, or an HTML page with its charts), or what a profile holds and how sure
 * it is; and `vmtune runs`, the stored runs. */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "knob.h"
#include "profile.h"
#include "search.h"
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
	for (i = 0; i < p->nsettings; i++) {
		const struct profile_share *sh = NULL;
		for (int k = 0; k < p->evidence.nshares; k++)
			if (p->evidence.share[k].def == p->settings[i].def)
				sh = &p->evidence.share[k];
		printf("  %-30s %-10s", p->settings[i].def->name,
		       knob_format_value(p->settings[i].def, p->settings[i].value, v, sizeof(v)));
		if (sh && isfinite(sh->pct))
			printf(" putting it back costs %+.1f%% (%+.1f .. %+.1f%%)%s", sh->pct, sh->lo, sh->hi,
			       strcmp(sh->how, "whole") == 0 ? ": the whole gain" : "");
		else if (sh && strcmp(sh->how, "budget") == 0)
			printf(" kept untested: the budget ended the walk back before its step decided");
		else if (p->evidence.present && p->evidence.significant)
			printf(" (no measured share)");
		printf("\n");
	}
	if (p->nsettings == 0)
		printf("  (none: the machine keeps its own values)\n");
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
	for (i = 0; i < p->evidence.nguards; i++) {
		const struct profile_guard *g = &p->evidence.guard[i];
		if (!i)
			printf("guards against the original (95%% CI):\n");
		printf("  %-10s %+.1f%% (%+.1f .. %+.1f%%)%s%s%s\n", g->name, g->pct, g->lo, g->hi,
		       g->limit[0] ? "  limit " : "", g->limit, g->limit[0] ? (g->broken ? ": BROKEN" : ": kept") : "");
	}
	if (p->evidence.has_sandbox && p->evidence.memory_limit)
		printf("measured in a %s memory cgroup%s%s%s%s\n", format_size(p->evidence.memory_limit, a, sizeof(a)),
		       p->evidence.swap[0] ? ", swap " : "", p->evidence.swap, p->evidence.probe[0] ? ", probe " : "",
		       p->evidence.probe);
	if (p->evidence.run[0])
		printf("run: %s in the results store it was searched with (report --html FILE draws it)\n",
		       p->evidence.run);
}

static void print_json(const struct profile *p)
{
	json_object *o = profile_json(p);

	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* A profile file, or a run in the store (an id, a uuid, or none: the latest)? */
static bool is_profile(const char *arg)
{
	size_t n = strlen(arg);

	return access(arg, F_OK) == 0 || (n > 5 && strcmp(arg + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(arg + n - 4, ".yml") == 0) || strchr(arg, '/');
}

static int report_run(const char *which, const char *html)
{
	struct run_view *v;
	int rc = 0;

	if (run_view_open(&v, vt.db, which) < 0)
		return EXIT_USAGE;
	if (html) {
		rc = run_view_html(v, html);
		if (rc == 0)
			info("wrote %s", html);
	} else if (vt.json) {
		json_object *o = run_view_json(v);
		printf("%s\n",
		       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		run_view_print(v);
	}
	run_view_close(v);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "json", no_argument, NULL, 'j' },
					      { "html", required_argument, NULL, 'H' },
					      { NULL, 0, NULL, 0 } };
	const char *html = NULL;
	struct profile p;
	int c, rc;

	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help(
			    "report", "  RUN          a run in the results store (--db): its id or uuid "
				      "(see 'vmtune runs'); none: the latest\n"
				      "  PROFILE      a profile file: its settings and evidence\n"
				      "  --html FILE  a run's report as one HTML page with its charts (gnuplot); with\n"
				      "               a PROFILE, the run it came from (its evidence names it)\n"
				      "  --json       machine-readable output\n");
			return 0;
		case 'j':
			vt.json = 1;
			break;
		case 'H':
			html = optarg;
			break;
		default:
			return usage_error("report", "unknown option");
		}
	}
	if (argc - optind > 1)
		return usage_error("report", "name one run or one profile");
	if (optind == argc || !is_profile(argv[optind]))
		return report_run(optind == argc ? NULL : argv[optind], html);
	if ((rc = profile_load(argv[optind], &p)) != 0)
		return rc;
	if (html) {
		/* the profile's search, from the store */
		if (!p.evidence.run[0])
			return usage_error("report",
					   "--html: %s does not name the run it came from (a profile written by an "
					   "older search, or not by search): name the run (vmtune runs)",
					   argv[optind]);
		return report_run(p.evidence.run, html);
	}
	if (vt.json)
		print_json(&p);
	else
		print_text(argv[optind], &p);
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "json", no_argument, NULL, 'j' },
					      { NULL, 0, NULL, 0 } };
	int c;

	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("runs", "  --json       machine-readable output\n");
			return 0;
		case 'j':
			vt.json = 1;
			break;
		default:
			return usage_error("runs", "unknown option");
		}
	}
	if (optind != argc)
		return usage_error("runs", "takes no arguments");
	return search_runs_list(vt.db, vt.json);
}
