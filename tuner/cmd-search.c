/* cmd-search.c - `vmtune search`: options in, search_run() does the work. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "machine.h"
#include "mix.h"
#include "search.h"
#include "settle.h"
#include "size.h"
#include "vmtune.h"
#include "extract.h"
#include "workload.h"

static const char search_opts_help[] =
    "  -w, --workload SPEC     workload (repeatable: several form a mix scored by the geometric mean\n"
    "                          of each one's ratio to its baseline); exec:CMD for any program\n"
    "                          or a tool with its own options: fio:, stress-ng:, sysbench:, redis:, pgbench:\n"
    "      --metric NAME       score by NAME: for exec:, the last NAME=VALUE it prints or a value of\n"
    "                          --metric-json/--metric-regex (default: wall time); for a tool, one of the\n"
    "                          metrics it reports (listed below), its direction known\n"
    "      --maximize, --minimize  direction of --metric for exec: (default minimize)\n"
    "      --metric-json NAME=PATH   exec:: NAME is the number at PATH (keys by dots, [\"key\"], [N]) in the\n"
    "                          JSON the command prints (repeatable)\n"
    "      --metric-regex NAME=RE    exec:: NAME is the one group of the last match of RE (repeatable)\n"
    "      --metric-file FILE  read those from FILE, which the command writes, instead of its output\n"
    "  -k, --knobs LIST        comma-separated knobs to search (default: every available searchable knob);\n"
    "                          the pseudo-knob swap varies the swap backend: file, zram or file+zswap,\n"
    "                          each of the --swap SIZE, one on at a time\n"
    "  -n, --trials N          candidate settings to try, the original first (default 30)\n"
    "  -T, --time DURATION     stop trying candidates in time to confirm within DURATION\n"
    "  -S, --strategy S        bo (Gaussian process, default), random or grid\n"
    "  -r, --repeats N         extra measurements of each new best (default 1)\n"
    "      --seed N            seed of the design and the strategies (default 1)\n"
    "  -o, --out FILE          profile to write (default STATE/profiles/HOST-WORKLOAD.yaml)\n"
    "      --apply             apply the recommendation afterwards (journalled)\n"
    "  -m, --memory-limit SIZE run each workload in a memory cgroup of SIZE\n"
    "  -s, --swap SWAP         the runs' swap, which the cgroup may use: SIZE or file:SIZE (at least SIZE\n"
    "                          of swap, a temporary swapfile if needed), zram:SIZE[:ALGO] (the free zram0\n"
    "                          configured for the search, then reset) or machine (the machine's own)\n"
    "      --zswap             zswap enabled in front of the swapfile or the machine's swap\n"
    "      --timeout DURATION  stop one workload run after DURATION (default 30m); it counts as failed\n"
    "      --baseline-every N  measure the original settings again every N runs (default 3)\n"
    "      --confirm-rounds N  rounds of original + finalists between looks at the data (default 5)\n"
    "      --confirm-max-rounds N  rounds at most, while a finalist is undecided (default 25)\n"
    "      --min-effect PCT    the smallest change of the cost worth having (default 5%)\n"
    "      --settle STEPS      before every run: a list of sync, drop-caches, compact, swap, quiet\n"
    "                          (these five are the default), steady; all; none; -STEP leaves one out\n"
    "      --no-settle         the same as --settle none\n"
    "      --warmup N          runs of each workload before the first measurement, not counted (default 1)\n"
    "      --finalists N       candidates confirmed at the end (default 2)\n"
    "      --race-rounds N     runs more of each of the 3 x finalists best candidates, to choose the\n"
    "                          finalists on (default 2; 0: choose on the search's runs alone)\n"
    "      --mix FILE          workloads (with weights), probe, limits and objective from a mix\n"
    "      --probe SPEC        play an interactivity probe (sputter) beside every run\n"
    "      --objective O       throughput (default), interactive (the probe's p99 lateness) or balanced\n"
    "      --require COND      a trial breaking COND fails, e.g. played>=0.99 or p99_lateness<=20ms\n"
    "      --guard LIMIT       what the recommendation may cost besides the metric, against the original:\n"
    "                          footprint, swapout, majflt, psi, p99 or played, relative (footprint<=+10%)\n"
    "                          or absolute (played>=0.99, p99<=20ms); repeatable. Defaults: footprint<=+10%,\n"
    "                          and with a probe p99<=+25%; --guard none drops them\n"
    "      --ablate-rounds N   paired rounds at most in each step of the walk back from the confirmed\n"
    "                          setting to the smallest change that keeps the gain (default 20; 0: no walk)\n"
    "      --check-workload SPEC  measure the recommendation on SPEC too, a workload the search did not\n"
    "                          tune for (its own metric), against the original settings in paired rounds;\n"
    "                          refuse it if it makes SPEC worse (kept in the run with --resume)\n"
    "      --check-metric NAME, --check-maximize  the check workload's metric (as --metric, --maximize)\n"
    "      --dry-run           print the plan; change nothing\n"
    "      --resume RUN        continue an interrupted run from the database\n"
    "      --warm-start        seed the bo surrogate with the stored trials of these workloads from every\n"
    "                          --db (other runs, other machines) and try their recommendation first\n";

void search_opts_global(struct search_opts *o)
{
	search_opts_defaults(o);
	o->db = vt.db;
	o->dbs = vt.dbs;
	o->ndbs = vt.ndbs;
	o->state_dir = vt.state_dir;
	o->root = vt.root;
	o->quiet = vt.quiet;
	o->echo = vt.verbose > 1;
	o->wide = vt.verbose > 0;
}

int cmd_search(int argc, char **argv)
{
	enum {
		O_METRIC = 256,
		O_MJSON,
		O_MREGEX,
		O_MFILE,
		O_MAX,
		O_MIN,
		O_SEED,
		O_APPLY,
		O_TIMEOUT,
		O_BEVERY,
		O_CROUNDS,
		O_CMAX,
		O_MINEFF,
		O_FINAL,
		O_RACE,
		O_DRY,
		O_RESUME,
		O_MIX,
		O_PROBE,
		O_OBJECTIVE,
		O_REQUIRE,
		O_WARM,
		O_SETTLE,
		O_NOSETTLE,
		O_WARMUP,
		O_ZSWAP,
		O_GUARD,
		O_ABLATE,
		O_CHECK,
		O_CHECK_METRIC,
		O_CHECK_MAX
	};
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "workload", required_argument, NULL, 'w' },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "metric-json", required_argument, NULL, O_MJSON },
		{ "metric-regex", required_argument, NULL, O_MREGEX },
		{ "metric-file", required_argument, NULL, O_MFILE },
		{ "maximize", no_argument, NULL, O_MAX },
		{ "minimize", no_argument, NULL, O_MIN },
		{ "knobs", required_argument, NULL, 'k' },
		{ "trials", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, 'T' },
		{ "strategy", required_argument, NULL, 'S' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, O_SEED },
		{ "out", required_argument, NULL, 'o' },
		{ "apply", no_argument, NULL, O_APPLY },
		{ "memory-limit", required_argument, NULL, 'm' },
		{ "swap", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "baseline-every", required_argument, NULL, O_BEVERY },
		{ "confirm-rounds", required_argument, NULL, O_CROUNDS },
		{ "confirm-max-rounds", required_argument, NULL, O_CMAX },
		{ "min-effect", required_argument, NULL, O_MINEFF },
		{ "finalists", required_argument, NULL, O_FINAL },
		{ "race-rounds", required_argument, NULL, O_RACE },
		{ "dry-run", no_argument, NULL, O_DRY },
		{ "resume", required_argument, NULL, O_RESUME },
		{ "mix", required_argument, NULL, O_MIX },
		{ "warm-start", no_argument, NULL, O_WARM },
		{ "probe", required_argument, NULL, O_PROBE },
		{ "objective", required_argument, NULL, O_OBJECTIVE },
		{ "require", required_argument, NULL, O_REQUIRE },
		{ "settle", required_argument, NULL, O_SETTLE },
		{ "no-settle", no_argument, NULL, O_NOSETTLE },
		{ "warmup", required_argument, NULL, O_WARMUP },
		{ "zswap", no_argument, NULL, O_ZSWAP },
		{ "guard", required_argument, NULL, O_GUARD },
		{ "ablate-rounds", required_argument, NULL, O_ABLATE },
		{ "check-workload", required_argument, NULL, O_CHECK },
		{ "check-metric", required_argument, NULL, O_CHECK_METRIC },
		{ "check-maximize", no_argument, NULL, O_CHECK_MAX },
		{ NULL, 0, NULL, 0 },
	};
	struct search_opts o;
	const char *metric = NULL, *mixfile = NULL, *objective = NULL, *check = NULL, *check_metric = NULL;
	bool zswap = false, no_guards = false;
	struct guard guards[SEARCH_MAX_GUARDS];
	int nguards = 0;
	static struct mix mix;
	int c, i, maximize = -1, check_max = -1;
	long v;
	char why[256];
	struct extract ex = { .n = 0 };

	search_opts_global(&o);
	while ((c = getopt_long(argc, argv, "hw:k:n:T:S:r:o:m:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("search", search_opts_help);
			return 0;
		case 'w':
			if (o.nwl >= SEARCH_MAX_WORKLOADS)
				return usage_error("search", "at most %d --workload options", SEARCH_MAX_WORKLOADS);
			o.wl[o.nwl++].spec = optarg;
			break;
		case O_METRIC:
			metric = optarg;
			break;
		case O_MJSON:
		case O_MREGEX:
		case O_MFILE:
			if (extract_option(&ex,
					   c == O_MJSON	   ? "metric-json"
					   : c == O_MREGEX ? "metric-regex"
							   : "metric-file",
					   optarg) < 0)
				return EXIT_USAGE;
			break;
		case O_MAX:
			maximize = 1;
			break;
		case O_MIN:
			maximize = 0;
			break;
		case 'k':
			o.knobs = optarg;
			break;
		case 'n':
			if (parse_long(optarg, 2, 100000, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--trials %s", why);
			o.trials = (int)v;
			break;
		case 'T':
			if (parse_duration(optarg, &o.time_budget, why, sizeof(why)) < 0 || o.time_budget <= 0)
				return usage_error("search", "--time: %s",
						   o.time_budget <= 0 ? "must be more than 0" : why);
			break;
		case 'S':
			if (strategy_parse(optarg, &o.strategy) < 0)
				return usage_error("search", "--strategy '%s': use bo, random or grid", optarg);
			break;
		case 'r':
			if (parse_long(optarg, 0, 10, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--repeats %s", why);
			o.repeats = (int)v;
			break;
		case O_SEED:
			if (parse_long(optarg, 0, 1L << 40, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--seed %s", why);
			o.seed = (unsigned long)v;
			break;
		case 'o':
			o.out = optarg;
			break;
		case O_APPLY:
			o.apply = true;
			break;
		case 'm':
			if (parse_size(optarg, &o.mem_limit, why, sizeof(why)) < 0)
				return usage_error("search", "--memory-limit: %s", why);
			if (o.mem_limit < (16 << 20))
				return usage_error("search", "--memory-limit %s is too small (at least 16M)", optarg);
			break;
		case 's':
			if (swap_spec_parse(optarg, &o.swapspec, why, sizeof(why)) < 0)
				return usage_error("search", "--swap: %s", why);
			break;
		case O_TIMEOUT:
			if (parse_duration(optarg, &o.timeout, why, sizeof(why)) < 0)
				return usage_error("search", "--timeout: %s", why);
			break;
		case O_BEVERY:
		case O_CROUNDS:
		case O_FINAL:
			if (parse_long(optarg, c == O_FINAL ? 1 : 2, c == O_FINAL ? 8 : 50, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--%s %s",
						   c == O_BEVERY    ? "baseline-every"
						   : c == O_CROUNDS ? "confirm-rounds"
								    : "finalists",
						   why);
			*(c == O_BEVERY	   ? &o.baseline_every
			  : c == O_CROUNDS ? &o.confirm_rounds
					   : &o.finalists) = (int)v;
			break;
		case O_RACE:
			if (parse_long(optarg, 0, 20, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--race-rounds %s", why);
			o.race_rounds = (int)v;
			break;
		case O_CMAX:
			if (parse_long(optarg, 2, CONFIRM_MAX_ROUNDS_OPT, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--confirm-max-rounds %s", why);
			o.confirm_max_rounds = (int)v;
			break;
		case O_MINEFF: {
			char *end;
			errno = 0;
			o.min_effect = strtod(optarg, &end) / 100;
			if (errno || end == optarg || (*end && strcmp(end, "%") != 0) || !(o.min_effect > 0) ||
			    o.min_effect >= 1)
				return usage_error("search",
						   "--min-effect '%s': a percentage above 0 and below 100, e.g. 5%%",
						   optarg);
			break;
		}
		case O_SETTLE:
			if (settle_parse(optarg, &o.settle, why, sizeof(why)) < 0)
				return usage_error("search", "--settle: %s", why);
			break;
		case O_NOSETTLE:
			o.settle = 0;
			break;
		case O_ZSWAP:
			zswap = true;
			break;
		case O_WARMUP:
			if (parse_long(optarg, 0, 16, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--warmup %s", why);
			o.warmup = (int)v;
			break;
		case O_DRY:
			o.dry_run = true;
			break;
		case O_WARM:
			o.warm_start = true;
			break;
		case O_MIX:
			mixfile = optarg;
			break;
		case O_PROBE:
			o.probe = optarg;
			break;
		case O_OBJECTIVE:
			objective = optarg;
			break;
		case O_REQUIRE:
			if (o.nrequire >= SEARCH_MAX_REQUIRE)
				return usage_error("search", "at most %d --require options", SEARCH_MAX_REQUIRE);
			if (requirement_parse(optarg, &o.require[o.nrequire++]) < 0)
				return EXIT_USAGE;
			break;
		case O_GUARD:
			if (strcmp(optarg, "none") == 0) {
				no_guards = true;
				break;
			}
			if (nguards >= SEARCH_MAX_GUARDS - 2)
				return usage_error("search", "at most %d --guard options", SEARCH_MAX_GUARDS - 2);
			if (guard_parse(optarg, &guards[nguards]) < 0)
				return EXIT_USAGE;
			nguards++;
			break;
		case O_ABLATE:
			if (parse_long(optarg, 0, CONFIRM_MAX_ROUNDS_OPT, &v, why, sizeof(why)) < 0)
				return usage_error("search", "--ablate-rounds %s", why);
			o.ablate_rounds = (int)v;
			break;
		case O_CHECK:
			check = optarg;
			break;
		case O_CHECK_METRIC:
			check_metric = optarg;
			break;
		case O_CHECK_MAX:
			check_max = 1;
			break;
		case O_RESUME:
			if (parse_long(optarg, 1, 1L << 40, &o.resume, why, sizeof(why)) < 0)
				return usage_error("search", "--resume %s", why);
			break;
		default:
			return usage_error("search", "unknown option");
		}
	}
	if (optind < argc)
		return usage_error("search", "unexpected argument '%s'", argv[optind]);
	for (i = 0; i < o.nwl; i++)
		o.wl[i].weight = 1;
	if (mixfile) {
		int rc = mix_load(mixfile, &mix);
		if (rc)
			return rc;
		for (i = 0; i < mix.nwl && o.nwl < SEARCH_MAX_WORKLOADS; i++) {
			o.wl[o.nwl].spec = mix.wl[i].run;
			o.wl[o.nwl++].weight = mix.wl[i].weight;
		}
		if (!o.probe && mix.probe[0])
			o.probe = mix.probe;
		if (!o.mem_limit)
			o.mem_limit = mix.memory_limit;
		if (o.swapspec.backend == SWAP_NONE)
			o.swapspec = mix.swap;
		if (!objective && mix.objective[0])
			objective = mix.objective;
		for (i = 0; i < mix.nrequire && o.nrequire < SEARCH_MAX_REQUIRE; i++)
			if (requirement_parse(mix.require[i], &o.require[o.nrequire++]) < 0)
				return EXIT_USAGE;
	}
	if (objective) {
		if (strcmp(objective, "throughput") == 0)
			o.objective = OBJ_THROUGHPUT;
		else if (strcmp(objective, "interactive") == 0)
			o.objective = OBJ_INTERACTIVE;
		else if (strcmp(objective, "balanced") == 0)
			o.objective = OBJ_BALANCED;
		else
			return usage_error("search", "--objective '%s': use throughput, interactive or balanced",
					   objective);
	}
	if (o.probe) {
		char **args, pname[64];
		if (workload_argv(o.probe, &args, pname, sizeof(pname)) < 0)
			return EXIT_USAGE;
		workload_argv_free(args);
	}
	if (!no_guards)
		o.nguard = search_default_guards(o.guard, SEARCH_MAX_GUARDS, o.probe != NULL);
	for (i = 0; i < nguards; i++)
		o.guard[o.nguard++] = guards[i];
	if (o.nwl == 0 && !o.resume)
		return usage_error("search", "name a workload with --workload, e.g. --workload mtest01");
	if (o.confirm_max_rounds < o.confirm_rounds)
		o.confirm_max_rounds = o.confirm_rounds;
	if (machine_overridden() && vt_live()) {
		error("--machine describes another machine: a search of the live kernel records this "
		      "machine's own fingerprint (--machine is for recommend, or with --root to simulate one)");
		return EXIT_USAGE;
	}
	if (zswap && swap_spec_add_zswap(&o.swapspec, why, sizeof(why)) < 0)
		return usage_error("search", "%s", why);
	if (!o.resume)
		o.swap = swap_spec_limit(&o.swapspec);
	if ((o.mem_limit || o.swapspec.backend != SWAP_NONE) && !vt_live() && !o.dry_run)
		return usage_error("search",
				   "--memory-limit and --swap need the live kernel; they cannot be used with --root");
	if (o.trials == 0)
		o.trials = o.time_budget > 0 ? 100000 : (o.resume ? 0 : 30);
	if (o.time_budget > 0 && o.trials == 100000)
		o.trials = 1000;
	if ((ex.n || ex.file[0]) && (o.nwl == 0 || strncmp(o.wl[0].spec, "exec:", 5) != 0))
		return usage_error("search", "--metric-json, --metric-regex and --metric-file read an exec: workload's "
					     "output; give one with --workload exec:CMD");
	if (ex.file[0] && !ex.n)
		return usage_error("search",
				   "--metric-file names where to read; give --metric-json or --metric-regex too");
	for (i = 0; i < o.nwl; i++) {
		int rc;
		if (!(o.wl[i].spec = extract_wrap_spec(o.wl[i].spec, &ex)))
			return EXIT_USAGE;
		rc = search_workload_init(&o.wl[i], o.wl[i].spec, metric, maximize);
		if (rc)
			return rc;
	}
	if ((check_metric || check_max > 0) && !check)
		return usage_error("search", "--check-metric and --check-maximize go with --check-workload");
	if (check) {
		/* its metric: --check-metric, else its own (a built-in's, a tool's default, an
		 * exec{...} spec's first value, an exec: command's elapsed time) */
		int rc = search_workload_init(&o.check, check, check_metric, check_max);
		if (rc)
			return rc;
		o.have_check = true;
	}
	return search_run(&o);
}
