/* cmd-run.c - `vmtune run`: measure workloads under the current (or --set) settings,
 * optionally inside a memory cgroup with enough swap, and print the seed-style
 * "Averages for N runs" block with a 95% confidence interval. */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "commands.h"
#include "journal.h"
#include "mix.h"
#include "runner.h"
#include "settings.h"
#include "size.h"
#include "stats.h"
#include "swap.h"
#include "vmtune.h"
#include "workload.h"

#define MAX_WORKLOADS 16
#define MAX_RUNS 1000

static const char run_opts[] =
    "  -w, --workload SPEC     workload to run, e.g. \"mtest01 -p 80 -w\" or exec:CMD (repeatable)\n"
    "      --mix FILE          the workloads, repetitions, probe and limits of a mix (workloads/mixes/)\n"
    "  -n, --runs N            runs of each workload (default 1)\n"
    "  -m, --memory-limit SIZE run each workload in a memory cgroup of SIZE (e.g. 256M)\n"
    "  -s, --swap SIZE         make sure SIZE of swap exists (temporary swapfile in the state dir);\n"
    "                          with --memory-limit the cgroup may use that much swap\n"
    "      --set KNOB=VALUE    run under this setting, restored afterwards (repeatable)\n"
    "      --probe SPEC        an interactivity probe (e.g. \"sputter -p 10ms -B 100ms -s 64M\") played\n"
    "                          beside each run, in the same cgroup, until the workload ends\n"
    "  -t, --timeout DURATION  stop a run after DURATION (default 30m)\n"
    "      --json              machine-readable output\n"
    "  -v                      show the workloads' own output\n";

struct wl_runs {
	const char *spec;
	char name[64];
	long want; /* runs asked for */
	int nruns, nok;
	struct run_result *res;
};

/* Field order and wording of seed 000's "Averages for 10 mtest01 runs". */
enum { F_USER, F_SYS, F_ELAPSED, F_CPU, F_MAJ, F_MIN, F_COUNT };

static double field(const struct run_result *r, int f)
{
	switch (f) {
	case F_USER:
		return r->user;
	case F_SYS:
		return r->sys;
	case F_ELAPSED:
		return r->elapsed;
	case F_CPU:
		return r->elapsed > 0 ? 100.0 * (r->user + r->sys) / r->elapsed : 0;
	case F_MAJ:
		return (double)r->majflt;
	case F_MIN:
		return (double)r->minflt;
	}
	return NAN;
}

static void summarize_field(const struct wl_runs *w, int f, struct summary *s)
{
	double x[MAX_RUNS];
	int i, n = 0;

	for (i = 0; i < w->nruns; i++)
		if (w->res[i].outcome == RUN_OK)
			x[n++] = f < 0 ? run_value(&w->res[i], "bytes_allocated") : field(&w->res[i], f);
	summarize(x, n, s);
}

/* The sampler's view over all runs: the vmstat beats and the stall time. */
static void print_watch(const struct wl_runs *w)
{
	double samples = 0, missed = 0, gap = 0, si = 0, so = 0, some = 0, full = 0;
	int i;

	for (i = 0; i < w->nruns; i++) {
		const struct run_result *r = &w->res[i];
		if (!isfinite(run_value(r, "sys.samples")))
			continue;
		samples += run_value(r, "sys.samples");
		missed += run_value(r, "sys.missed_beats");
		gap = fmax(gap, run_value(r, "sys.max_gap_s"));
		si += run_value(r, "sys.si_pages");
		so += run_value(r, "sys.so_pages");
		some += run_value(r, "sys.psi_some_ms");
		full += run_value(r, "sys.psi_full_ms");
	}
	printf("%-36s%.0f samples, %.0f missed beat(s), longest gap %.2f s\n", "vmstat 1 while it ran:", samples,
	       missed, gap);
	printf("%-36s%.0f in, %.0f out (pages, all runs)\n", "Swap:", si, so);
	printf("%-36ssome %.0f ms, full %.0f ms (all runs)\n", "Memory pressure stall (PSI):", some, full);
}

static void print_block(const struct wl_runs *w)
{
	static const char *const labels[F_COUNT] = {
		"User time (seconds):",
		"System time (seconds):",
		"Elapsed (wall clock) time:",
		"Percent of CPU this job got:",
		"Major (requiring I/O) page faults:",
		"Minor (reclaiming a frame) faults:",
	};
	static const char *const fmts[F_COUNT] = { "%.3f", "%.3f", "%.3f", "%.2f", "%.1f", "%.1f" };
	struct summary s;
	char buf[512];
	int f, i;

	printf("\nAverages for %d %s runs\n", w->nok, w->name);
	if (w->nok < w->nruns)
		printf("(%d of %d runs did not complete and are not averaged)\n", w->nruns - w->nok, w->nruns);
	summarize_field(w, -1, &s);
	if (isnan(s.mean))
		printf("%-36s%s\n", "bytes allocated:", "n/a");
	else
		printf("%-36s%.0f\n", "bytes allocated:", s.mean);
	for (f = 0; f < F_COUNT; f++) {
		summarize_field(w, f, &s);
		snprintf(buf, sizeof(buf), fmts[f], s.mean);
		printf("%-36s%s\n", labels[f], w->nok ? buf : "n/a");
	}
	summarize_field(w, F_ELAPSED, &s);
	if (s.n >= 2) {
		printf("%-36s%.3f .. %.3f s (+/- %.1f%%)\n", "Elapsed 95% confidence interval:", s.ci_lo, s.ci_hi,
		       100.0 * (s.ci_hi - s.mean) / s.mean);
		printf("%-36s%.1f%%\n", "Elapsed coefficient of variation:", 100.0 * s.cv);
	} else {
		printf("%-36s%s\n", "Elapsed 95% confidence interval:", "n/a (needs 2 or more completed runs)");
	}
	print_watch(w);
	for (i = 0; i < w->nruns; i++) {
		double played = run_value(&w->res[i], "played_s");
		if (isfinite(played))
			printf(
			    "run %d: played %.1f seconds of %.1f second run, %.0f underrun(s), p99 lateness %.1f ms\n",
			    i + 1, played, run_value(&w->res[i], "run_s"), run_value(&w->res[i], "underruns"),
			    run_value(&w->res[i], "p99_lateness_ms"));
		if (w->res[i].outcome != RUN_OK)
			printf("run %d: %s\n", i + 1, run_describe(&w->res[i], buf, sizeof(buf)));
		if (w->res[i].probe_line[0])
			printf("probe, run %d: %s\n", i + 1, w->res[i].probe_line);
	}
}

static json_object *json_num(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

static json_object *block_json(const struct wl_runs *w)
{
	static const char *const keys[F_COUNT] = { "user_s",  "system_s",     "elapsed_s",
						   "cpu_pct", "major_faults", "minor_faults" };
	json_object *o = json_object_new_object(), *avg = json_object_new_object(), *runs = json_object_new_array();
	struct summary s;
	char buf[512];
	int f, i, k;

	json_object_object_add(o, "workload", json_object_new_string(w->spec));
	json_object_object_add(o, "name", json_object_new_string(w->name));
	json_object_object_add(o, "runs", json_object_new_int(w->nruns));
	json_object_object_add(o, "completed", json_object_new_int(w->nok));
	summarize_field(w, -1, &s);
	json_object_object_add(avg, "bytes_allocated", json_num(s.mean));
	for (f = 0; f < F_COUNT; f++) {
		summarize_field(w, f, &s);
		json_object_object_add(avg, keys[f], json_num(s.mean));
	}
	json_object_object_add(o, "averages", avg);
	summarize_field(w, F_ELAPSED, &s);
	json_object *ci = json_object_new_array();
	json_object_array_add(ci, json_num(s.ci_lo));
	json_object_array_add(ci, json_num(s.ci_hi));
	json_object_object_add(o, "elapsed_ci95", ci);
	json_object_object_add(o, "elapsed_sd", json_num(s.sd));
	json_object_object_add(o, "elapsed_cv", json_num(s.cv));
	for (i = 0; i < w->nruns; i++) {
		const struct run_result *r = &w->res[i];
		json_object *ro = json_object_new_object(), *vals = json_object_new_object();

		json_object_object_add(ro, "outcome", json_object_new_string(run_outcome_name(r->outcome)));
		json_object_object_add(ro, "description", json_object_new_string(run_describe(r, buf, sizeof(buf))));
		for (f = 0; f < F_COUNT; f++)
			json_object_object_add(ro, keys[f], json_num(field(r, f)));
		for (k = 0; k < r->nvalues; k++)
			json_object_object_add(vals, r->values[k].name, json_object_new_double(r->values[k].value));
		json_object_object_add(ro, "results", vals);
		if (r->nprobe || r->probe_line[0]) {
			json_object *pv = json_object_new_object();
			for (k = 0; k < r->nprobe; k++)
				json_object_object_add(pv, r->probe[k].name, json_object_new_double(r->probe[k].value));
			json_object_object_add(pv, "ok", json_object_new_boolean(r->probe_ok));
			json_object_object_add(ro, "probe", pv);
		}
		json_object_array_add(runs, ro);
	}
	json_object_object_add(o, "per_run", runs);
	return o;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "workload", required_argument, NULL, 'w' },
		{ "runs", required_argument, NULL, 'n' },
		{ "memory-limit", required_argument, NULL, 'm' },
		{ "swap", required_argument, NULL, 's' },
		{ "set", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "probe", required_argument, NULL, 'P' },
		{ "mix", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct wl_runs wl[MAX_WORKLOADS];
	struct setting set[SETTINGS_MAX];
	int nwl = 0, nset = 0, c, i, k, rc = 0, failed = 0;
	long runs = 1;
	uint64_t mem_limit = 0, swap_size = 0;
	double timeout = 1800;
	const char *probe = NULL, *mixfile = NULL;
	struct mix mix;
	char why[256], swapfile[PATH_MAX] = "", a[32], b[32];
	bool runs_given = false;
	json_object *out = NULL;

	while ((c = getopt_long(argc, argv, "hw:n:m:s:t:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("run", run_opts);
			return 0;
		case 'w':
			if (nwl >= MAX_WORKLOADS)
				return usage_error("run", "at most %d --workload options", MAX_WORKLOADS);
			memset(&wl[nwl], 0, sizeof(wl[nwl]));
			wl[nwl++].spec = optarg;
			break;
		case 'n':
			if (parse_long(optarg, 1, MAX_RUNS, &runs, why, sizeof(why)) < 0)
				return usage_error("run", "--runs %s", why);
			runs_given = true;
			break;
		case 'm':
			if (parse_size(optarg, &mem_limit, why, sizeof(why)) < 0)
				return usage_error("run", "--memory-limit: %s", why);
			if (mem_limit < (16 << 20))
				return usage_error("run", "--memory-limit %s is too small (at least 16M)", optarg);
			break;
		case 's':
			if (parse_size(optarg, &swap_size, why, sizeof(why)) < 0)
				return usage_error("run", "--swap: %s", why);
			break;
		case 'S':
			if (nset >= SETTINGS_MAX)
				return usage_error("run", "at most 64 --set options");
			if ((rc = setting_parse(optarg, &set[nset++])) != 0)
				return rc;
			break;
		case 't':
			if (parse_duration(optarg, &timeout, why, sizeof(why)) < 0)
				return usage_error("run", "--timeout: %s", why);
			break;
		case 'j':
			vt.json = 1;
			break;
		case 'P':
			probe = optarg;
			break;
		case 'M':
			mixfile = optarg;
			break;
		default:
			return usage_error("run", "unknown option");
		}
	}
	if (optind < argc)
		return usage_error("run", "unexpected argument '%s'", argv[optind]);
	for (i = 0; i < nwl; i++)
		wl[i].want = runs;
	if (mixfile) {
		if ((rc = mix_load(mixfile, &mix)) != 0)
			return rc;
		for (i = 0; i < mix.nwl && nwl < MAX_WORKLOADS; i++) {
			memset(&wl[nwl], 0, sizeof(wl[nwl]));
			wl[nwl].spec = mix.wl[i].run;
			wl[nwl++].want = runs_given ? runs : mix.wl[i].repeat;
		}
		if (!probe && mix.probe[0])
			probe = mix.probe;
		if (!mem_limit)
			mem_limit = mix.memory_limit;
		if (!swap_size)
			swap_size = mix.swap;
		info("mix %s: %d workload(s)%s%s", mix.name[0] ? mix.name : mixfile, mix.nwl, probe ? ", probe " : "",
		     probe ? probe : "");
	}
	if (nwl == 0)
		return usage_error(
		    "run", "name a workload with --workload, e.g. --workload \"mtest01 -p 80 -w\", or --mix FILE");
	/* validate every workload spec before anything changes */
	for (i = 0; i < nwl; i++) {
		char **args;
		if (workload_argv(wl[i].spec, &args, wl[i].name, sizeof(wl[i].name)) < 0)
			return EXIT_USAGE;
		workload_argv_free(args);
	}
	if (probe) {
		char **args, pname[64];
		if (workload_argv(probe, &args, pname, sizeof(pname)) < 0)
			return EXIT_USAGE;
		workload_argv_free(args);
	}
	if ((mem_limit || swap_size) && !vt_live())
		return usage_error("run",
				   "--memory-limit and --swap need the live kernel; they cannot be used with --root");

	if (nset && (rc = settings_check(set, nset)) != 0)
		return rc;
	if (nset || mem_limit || swap_size) {
		if ((rc = session_begin()) != 0)
			return rc;
		if (swap_size && swap_ensure(swap_size, swapfile, sizeof(swapfile)) < 0)
			return EXIT_ENV;
		if (nset && (rc = settings_apply(set, nset, false)) != 0)
			return rc;
	}
	if (mem_limit)
		info("memory limit %s, swap %s", format_size(mem_limit, a, sizeof(a)),
		     swap_size ? format_size(swap_size, b, sizeof(b)) : "not limited");

	for (i = 0; i < nwl && !vt_interrupted; i++) {
		wl[i].res = calloc((size_t)wl[i].want, sizeof(*wl[i].res));
		if (!wl[i].res) {
			error("out of memory");
			return EXIT_INTERNAL;
		}
		for (k = 0; k < wl[i].want && !vt_interrupted; k++) {
			struct run_spec spec = { .workload = wl[i].spec,
						 .timeout = timeout,
						 .echo = vt.verbose > 0,
						 .probe = probe,
						 .root = vt.root };
			struct cgroup cg;
			struct run_result *r = &wl[i].res[k];
			char desc[512];

			/* a fresh cgroup per run: no charge or swappiness carried over */
			if (mem_limit) {
				if (cgroup_create(&cg, mem_limit, swap_size ? swap_size : CGROUP_UNLIMITED) < 0)
					return EXIT_ENV;
				spec.cg = &cg;
			}
			if (runner_run(&spec, r) < 0) {
				if (mem_limit)
					cgroup_remove(&cg);
				return EXIT_USAGE;
			}
			if (mem_limit && cgroup_remove(&cg) < 0)
				rc = EXIT_ENV;
			wl[i].nruns++;
			if (r->outcome == RUN_OK)
				wl[i].nok++;
			else if (r->outcome != RUN_INTERRUPTED)
				failed++;
			info("%s run %d/%ld: %s, %.2f s elapsed, %ld major faults", wl[i].name, k + 1, wl[i].want,
			     run_describe(r, desc, sizeof(desc)), r->elapsed, r->majflt);
			if (probe)
				info("  probe: %s", r->probe_line[0] ? r->probe_line : "no result");
		}
	}
	if (vt.json) {
		json_object *arr = json_object_new_array();
		out = json_object_new_object();
		for (i = 0; i < nwl; i++)
			if (wl[i].nruns)
				json_object_array_add(arr, block_json(&wl[i]));
		json_object_object_add(out, "workloads", arr);
		if (nset) {
			json_object *so = json_object_new_object();
			for (i = 0; i < nset; i++)
				json_object_object_add(so, set[i].def->name, json_object_new_int64(set[i].value));
			json_object_object_add(out, "settings", so);
		}
		json_object_object_add(out, "memory_limit",
				       mem_limit ? json_object_new_int64((int64_t)mem_limit) : NULL);
		json_object_object_add(out, "swap", swap_size ? json_object_new_int64((int64_t)swap_size) : NULL);
		json_object_object_add(out, "interrupted", json_object_new_boolean(vt_interrupted != 0));
		printf("%s\n",
		       json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(out);
	} else {
		for (i = 0; i < nwl; i++)
			if (wl[i].nruns)
				print_block(&wl[i]);
	}
	for (i = 0; i < nwl; i++)
		free(wl[i].res);
	if (vt_interrupted) {
		error("interrupted by signal %d; settings are being restored", (int)vt_interrupted);
		return 128 + vt_interrupted;
	}
	return rc ? rc : failed ? EXIT_CHECK : 0;
}
