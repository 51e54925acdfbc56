/* cmd-verify.c - `vmtune verify PROFILE`: does the live system match it? Exit 1 on
 * drift. `vmtune verify --measure PROFILE`: does its gain still hold here, today? */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "knob.h"
#include "profile.h"
#include "search.h"
#include "settle.h"
#include "size.h"
#include "vmtune.h"

static const char verify_opts_help[] =
    "      --measure           measure the profile's settings against the original ones again, with the\n"
    "                          search's paired, sequential confirmation: the gain holds (exit 0), is\n"
    "                          smaller than the profile claims (exit 5), or is gone (exit 1); stored\n"
    "                          with the run it checks ('vmtune report' shows the re-checks)\n"
    "  -w, --workload SPEC     with --measure: this workload instead of the profile's own (repeatable)\n"
    "      --metric NAME       with --workload exec:...: its NAME=VALUE (--maximize for higher is better)\n"
    "  -m, --memory-limit SIZE, -s, --swap SWAP, --probe SPEC\n"
    "                          with --measure: the sandbox (default: the profile's evidence.sandbox)\n"
    "      --confirm-rounds N, --confirm-max-rounds N  rounds between looks (5) and at most (25)\n";

static int measure_again(const char *path, const struct profile *p, int nwl, const char **specs, const char *metric,
			 int maximize, uint64_t mem, const char *swap, const char *probe, int per_look, int max_rounds)
{
	static char evw[SEARCH_MAX_WORKLOADS][512];
	struct search_opts o;
	char why[256];
	int i, rc;

	search_opts_global(&o);
	o.trials = 1;
	o.repeats = 0;
	o.finalists = 1;
	o.race_rounds = 0;
	o.ablate_rounds = 0; /* the profile is what it is: no walk back */
	o.confirm_rounds = per_look;
	o.confirm_max_rounds = max_rounds < per_look ? per_look : max_rounds;
	o.recheck = p;
	o.recheck_path = path;
	if (nwl == 0) { /* the profile's own: "a + b" for a mix */
		const char *w = p->evidence.present ? p->evidence.workload : "";
		while (*w && nwl < SEARCH_MAX_WORKLOADS) {
			const char *plus = strstr(w, " + ");
			size_t n = plus ? (size_t)(plus - w) : strlen(w);
			snprintf(evw[nwl], sizeof(evw[nwl]), "%.*s", (int)n, w);
			specs[nwl] = evw[nwl];
			nwl++;
			w += n + (plus ? 3 : 0);
		}
		if (nwl == 0)
			return usage_error("verify", "%s names no workload in its evidence: give one with --workload",
					   path);
		if (!metric && nwl == 1 && strcmp(p->evidence.metric, "mix_cost") != 0 &&
		    !strncmp(specs[0], "exec:", 5)) {
			metric = p->evidence.metric;
			maximize = !strcmp(p->evidence.direction, "max");
		}
		if (!mem)
			mem = p->evidence.memory_limit;
		if (!swap && p->evidence.swap[0])
			swap = p->evidence.swap;
		if (!probe && p->evidence.probe[0])
			probe = p->evidence.probe;
	}
	for (i = 0; i < nwl; i++) {
		o.wl[i].weight = 1;
		if ((rc = search_workload_init(&o.wl[i], specs[i], metric, maximize)) != 0)
			return rc;
	}
	o.nwl = nwl;
	o.mem_limit = mem;
	o.probe = probe;
	if (swap && swap_spec_parse(swap, &o.swapspec, why, sizeof(why)) < 0)
		return usage_error("verify", "swap '%s': %s", swap, why);
	o.swap = swap_spec_limit(&o.swapspec);
	if ((o.mem_limit || o.swapspec.backend != SWAP_NONE) && !vt_live())
		return usage_error("verify", "a memory limit or swap needs the live kernel; they cannot be used with "
					     "--root (give --memory-limit 0 to measure without them)");
	o.nguard = search_default_guards(o.guard, SEARCH_MAX_GUARDS, o.probe != NULL);
	return search_recheck(&o);
}

int cmd_verify(int argc, char **argv)
{
	enum { O_MEASURE = 256, O_METRIC, O_MAX, O_PROBE, O_CR, O_CMAX };
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "measure", no_argument, NULL, O_MEASURE },
					      { "workload", required_argument, NULL, 'w' },
					      { "metric", required_argument, NULL, O_METRIC },
					      { "maximize", no_argument, NULL, O_MAX },
					      { "memory-limit", required_argument, NULL, 'm' },
					      { "swap", required_argument, NULL, 's' },
					      { "probe", required_argument, NULL, O_PROBE },
					      { "confirm-rounds", required_argument, NULL, O_CR },
					      { "confirm-max-rounds", required_argument, NULL, O_CMAX },
					      { NULL, 0, NULL, 0 } };
	struct profile p;
	char want[64], got[64], why[160];
	const char *specs[SEARCH_MAX_WORKLOADS], *metric = NULL, *swap = NULL, *probe = NULL;
	uint64_t mem = 0;
	bool measure = false, mem_given = false;
	long v;
	int c, i, rc, drift = 0, unreadable = 0, nwl = 0, maximize = -1, per_look = 5, max_rounds = 25;

	while ((c = getopt_long(argc, argv, "hw:m:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("verify", verify_opts_help);
			return 0;
		case O_MEASURE:
			measure = true;
			break;
		case 'w':
			if (nwl >= SEARCH_MAX_WORKLOADS)
				return usage_error("verify", "at most %d --workload options", SEARCH_MAX_WORKLOADS);
			specs[nwl++] = optarg;
			break;
		case O_METRIC:
			metric = optarg;
			break;
		case O_MAX:
			maximize = 1;
			break;
		case 'm':
			if (parse_size(optarg, &mem, why, sizeof(why)) < 0)
				return usage_error("verify", "--memory-limit: %s", why);
			mem_given = true;
			break;
		case 's':
			swap = optarg;
			break;
		case O_PROBE:
			probe = optarg;
			break;
		case O_CR:
		case O_CMAX:
			if (parse_long(optarg, 2, CONFIRM_MAX_ROUNDS_OPT, &v, why, sizeof(why)) < 0)
				return usage_error("verify", "--%s %s",
						   c == O_CR ? "confirm-rounds" : "confirm-max-rounds", why);
			*(c == O_CR ? &per_look : &max_rounds) = (int)v;
			break;
		default:
			return usage_error("verify", "unknown option");
		}
	}
	if (optind != argc - 1)
		return usage_error("verify", "name one profile file");
	if ((rc = profile_load(argv[optind], &p)) != 0)
		return rc;
	if (!measure && (nwl || metric || mem_given || swap || probe))
		return usage_error("verify", "--workload, --memory-limit, --swap and --probe go with --measure");
	if (measure) {
		if (mem_given && mem == 0 && nwl == 0) /* measure without the profile's sandbox */
			p.evidence.memory_limit = 0;
		return measure_again(argv[optind], &p, nwl, specs, metric, maximize, mem, swap, probe, per_look,
				     max_rounds);
	}
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
