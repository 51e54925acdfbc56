/* cmd-run.c - `vmtune run`: measure workloads under the current (or --set) settings,
 * optionally inside a memory cgroup with enough swap, and print the seed-style
 * "Averages for N runs" block with a 95% confidence interval. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "cgroup.h"
#include "commands.h"
#include "journal.h"
#include "mix.h"
#include "runner.h"
#include "settings.h"
#include "settle.h"
#include "size.h"
#include "stats.h"
#include "swap.h"
#include "vmtune.h"
#include "extract.h"
#include "tools.h"
#include "workload.h"

#define MAX_WORKLOADS 16
#define MAX_RUNS 1000

static const char run_opts[] =
    "  -w, --workload SPEC     workload to run, e.g. \"mtest01 -p 80 -w\", a tool with its own options\n"
    "                          (fio:, stress-ng:, sysbench:, redis:, pgbench:) or exec:CMD (repeatable)\n"
    "      --metric-json NAME=PATH   exec:: NAME is the number at PATH (keys by dots, [\"key\"], [N]) in the\n"
    "                          JSON the command prints (repeatable)\n"
    "      --metric-regex NAME=RE    exec:: NAME is the one group of the last match of RE (repeatable)\n"
    "      --metric-file FILE  read those from FILE, which the command writes, instead of its output\n"
    "      --mix FILE          the workloads, repetitions, probe and limits of a mix (workloads/mixes/)\n"
    "  -n, --runs N            runs of each workload (default 1; with --precision, at least 3)\n"
    "      --precision PCT     repeat until the 95% CI half-width is within PCT% of the centre\n"
    "      --max-runs N        stop there even if --precision is not reached (default 30)\n"
    "      --warmup N          runs of each workload before the counted ones, not counted (default 1)\n"
    "      --settle STEPS      before every run: a list of sync, drop-caches, compact, swap, quiet\n"
    "                          (these five are the default), steady; all; none; -STEP leaves one out\n"
    "      --no-settle         the same as --settle none\n"
    "  -m, --memory-limit SIZE run each workload in a memory cgroup of SIZE (e.g. 256M)\n"
    "  -s, --swap SWAP         SIZE or file:SIZE: make sure SIZE of swap exists (a temporary swapfile in\n"
    "                          the state dir); zram:SIZE[:ALGO]: the free zram0 configured, then reset;\n"
    "                          machine: the machine's own swap as it is. With --memory-limit the\n"
    "                          cgroup may use SIZE of swap (machine: not limited)\n"
    "      --zswap             zswap enabled in front of the swapfile or the machine's swap\n"
    "      --set KNOB=VALUE    run under this setting, restored afterwards (repeatable)\n"
    "      --probe SPEC        an interactivity probe (e.g. \"sputter -p 10ms -B 100ms -s 64M\") played\n"
    "                          beside each run, in the same cgroup, until the workload ends\n"
    "  -t, --timeout DURATION  stop a run after DURATION (default 30m)\n"
    "      --json              machine-readable output\n"
    "  -v                      show the workloads' own output\n";

struct wl_runs {
	const char *spec;
	char name[64];
	char prog[4096]; /* the program, read back in after the cache is dropped */
	long want;	 /* runs asked for */
	int nruns, nok;
	struct run_result *res;
	struct settle_state *before; /* the machine just before each run */
	double *settle_s;	     /* what settling before each run cost */
	int nwarm;
	double warm_elapsed[16];
	struct settle_cost cost;
	unsigned steps;	  /* the settle steps taken */
	double precision; /* --precision as a fraction, or 0 */
	bool precise;	  /* --precision reached */
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
	summarize_robust_at(x, n, w->precision > 0 ? PRECISION_LEVEL : 0.95, s);
	/* times, faults and bytes are never below 0: a t interval of a few noisy runs
	 * can reach there, and is cut at 0 (the precision keeps the wider side) */
	if (s->lo < 0)
		s->lo = 0;
	if (s->ci_lo < 0)
		s->ci_lo = 0;
}

/* Runs whose elapsed time is far from the others: each against the median and MAD
 * of all (modified z-score over 3.5), and the first run against the rest. */
static void print_outliers(const struct wl_runs *w, const struct summary *s)
{
	double rest[MAX_RUNS];
	int i, n = 0, first = -1;
	struct summary r;

	for (i = 0; i < w->nruns; i++) {
		if (w->res[i].outcome != RUN_OK)
			continue;
		if (first < 0)
			first = i;
		else
			rest[n++] = w->res[i].elapsed;
		double z = modified_z(w->res[i].elapsed, s->median, s->mad), d = w->res[i].elapsed - s->median;
		if (s->n < 5 || !(fabs(z) > 3.5))
			continue;
		if (s->mad > 0)
			printf("warning: run %d (%.3f s) is an outlier: %s than the median %.3f s by %.1f MADs\n",
			       i + 1, w->res[i].elapsed, d > 0 ? "slower" : "faster", s->median, fabs(d) / s->mad);
		else if (fabs(d) > 0.05 * s->median) /* most runs alike to the last digit: no scale but 5% */
			printf("warning: run %d (%.3f s) is an outlier: %.0f%% %s than the %.3f s most runs took\n",
			       i + 1, w->res[i].elapsed, 100 * fabs(d) / s->median, d > 0 ? "slower" : "faster",
			       s->median);
	}
	if (first < 0 || n < 3)
		return;
	summarize_robust(rest, n, &r);
	double d = w->res[first].elapsed - r.median, z = modified_z(w->res[first].elapsed, r.median, r.mad);
	if (fabs(z) > 3.5 && fabs(d) > 0.05 * r.median)
		printf("warning: the first run (run %d, %.3f s) is unlike the rest (median %.3f s): "
		       "a cold start; more --warmup runs would leave it out\n",
		       first + 1, w->res[first].elapsed, r.median);
}

/* The sampler's view over all runs: the vmstat beats and the stall time. */
static void print_watch(const struct wl_runs *w)
{
	double samples = 0, missed = 0, gap = 0, si = 0, so = 0, some = 0, full = 0, peak = NAN;
	int i;

	for (i = 0; i < w->nruns; i++) /* fmax keeps the number where one side is NaN */
		peak = fmax(peak, run_value(&w->res[i], "sys.peak_kb"));
	if (isfinite(peak))
		printf("%-36s%.1f MiB (the cgroup's memory and swap at their peak, the largest run)\n",
		       "Footprint:", peak / 1024);

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

/* The numbers the workload itself reported (a tool's, exec's NAME=VALUE or
 * extraction, a built-in's): the mean over the completed runs, min .. max. */
static void print_own_values(const struct wl_runs *w)
{
	const struct run_result *first = NULL;

	for (int i = 0; i < w->nruns && !first; i++)
		if (w->res[i].outcome == RUN_OK)
			first = &w->res[i];
	for (int k = 0; first && k < first->nvalues; k++) {
		const char *name = first->values[k].name;
		double sum = 0, lo = INFINITY, hi = -INFINITY;
		char label[64];
		int n = 0;

		if (strncmp(name, "sys.", 4) == 0)
			continue;
		for (int i = 0; i < w->nruns; i++) {
			double v = w->res[i].outcome == RUN_OK ? run_value(&w->res[i], name) : NAN;
			if (!isfinite(v))
				continue;
			sum += v;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
			n++;
		}
		snprintf(label, sizeof(label), "%s:", name);
		if (n > 1)
			printf("%-36s%.6g (%.6g .. %.6g, %d runs)\n", label, sum / n, lo, hi, n);
		else if (n == 1)
			printf("%-36s%.6g\n", label, sum);
	}
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
	print_own_values(w);
	summarize_field(w, F_ELAPSED, &s);
	if (s.n >= 1) {
		printf("%-36s%.3f s, %.3f s\n", "Elapsed median, MAD:", s.median, s.mad);
		printf("%-36s%.3f .. %.3f s\n", "Elapsed min .. max:", s.min, s.max);
	}
	if (s.method != CI_NONE) {
		printf("%-36s%.3f .. %.3f s (+/- %.1f%%, %s", "Elapsed 95% confidence interval:", s.lo, s.hi,
		       100.0 * summary_rel_halfwidth(&s), ci_method_name(s.method));
		if (s.method == CI_RANK)
			printf("; the runs are not normal, Shapiro-Francia p = %.3f", s.normal_p);
		else if (isnan(s.normal_p))
			printf("; normality not checked under 5 runs");
		if (w->precision > 0)
			printf("; %.1f%% at each look, so that --precision's repeated looks keep 95%%",
			       100 * PRECISION_LEVEL);
		printf(")\n");
		printf("%-36s%.1f%%\n", "Elapsed coefficient of variation:", 100.0 * s.cv);
	} else if (s.n >= 2) {
		printf("%-36s%s\n", "Elapsed 95% confidence interval:",
		       "n/a (the runs are not normal and a rank interval needs 6 or more)");
		printf("%-36s%.1f%%\n", "Elapsed coefficient of variation:", 100.0 * s.cv);
	} else {
		printf("%-36s%s\n", "Elapsed 95% confidence interval:", "n/a (needs 2 or more completed runs)");
	}
	if (w->precision > 0)
		printf("%-36s%s %.1f%% %s after %d runs\n",
		       "Precision:", w->precise ? "reached" : "NOT reached:", 100 * w->precision,
		       w->precise ? "" : "asked (--max-runs ended it)", w->nruns);
	if (w->cost.n) {
		char buf2[256];
		size_t len = 0;
		for (int k = 0; k < SETTLE_NSTEPS; k++)
			if (w->steps & (1u << k))
				len += (size_t)snprintf(buf2 + len, sizeof(buf2) - len, "%s%s %.2f", len ? ", " : "",
							settle_step_name(k), w->cost.s[k] / w->cost.n);
		printf("%-36s%.2f s on average (%s)\n", "Settling before each run:", w->cost.total / w->cost.n, buf2);
		if (w->cost.not_quiet)
			printf("warning: %d time(s) memory pressure or swap I/O had not stopped after 10 s; "
			       "the run went on\n",
			       w->cost.not_quiet);
		if (w->cost.not_steady)
			printf("warning: %d time(s) the CPU still ran over 5%% slow after 30 s (a busy host); "
			       "the run went on\n",
			       w->cost.not_steady);
	} else {
		printf("%-36s%s\n", "Settling before each run:",
		       vt_live() ? "none (--settle none)" : "none (--root: a fake tree has nothing to settle)");
	}
	if (w->nwarm) {
		char buf2[256];
		size_t len = 0;
		for (int k = 0; k < w->nwarm && k < 16; k++)
			len += (size_t)snprintf(buf2 + len, sizeof(buf2) - len, "%s%.3f s", k ? ", " : "",
						w->warm_elapsed[k]);
		printf("%-36s%d (%s)\n", "Warm-up runs (not counted):", w->nwarm, buf2);
	}
	print_outliers(w, &s);
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
	json_object_object_add(avg, "bytes_allocated", json_number(s.mean));
	for (f = 0; f < F_COUNT; f++) {
		summarize_field(w, f, &s);
		json_object_object_add(avg, keys[f], json_number(s.mean));
	}
	json_object_object_add(o, "averages", avg);
	summarize_field(w, F_ELAPSED, &s);
	json_object *ci = json_object_new_array();
	json_object_array_add(ci, json_number(s.ci_lo));
	json_object_array_add(ci, json_number(s.ci_hi));
	json_object_object_add(o, "elapsed_ci95", ci);
	json_object_object_add(o, "elapsed_sd", json_number(s.sd));
	json_object_object_add(o, "elapsed_cv", json_number(s.cv));
	json_object_object_add(o, "elapsed_median", json_number(s.median));
	json_object_object_add(o, "elapsed_mad", json_number(s.mad));
	json_object_object_add(o, "elapsed_min", json_number(s.min));
	json_object_object_add(o, "elapsed_max", json_number(s.max));
	json_object_object_add(o, "normality_p", json_number(s.normal_p));
	{
		json_object *iv = json_object_new_object();
		static const char *const mnames[] = { "none", "t-mean", "rank-median" };
		json_object_object_add(iv, "method", json_object_new_string(mnames[s.method]));
		json_object_object_add(iv, "centre", json_number(s.centre));
		json_object_object_add(iv, "lo", json_number(s.lo));
		json_object_object_add(iv, "hi", json_number(s.hi));
		json_object_object_add(iv, "coverage", s.method != CI_NONE ? json_number(s.coverage) : NULL);
		json_object_object_add(iv, "rel_halfwidth", json_number(summary_rel_halfwidth(&s)));
		json_object_object_add(o, "elapsed_interval", iv);
	}
	if (w->precision > 0) {
		json_object_object_add(o, "precision", json_number(w->precision));
		json_object_object_add(o, "precision_reached", json_object_new_boolean(w->precise));
	}
	{
		json_object *so = json_object_new_object(), *wu = json_object_new_array();
		char sb[128];
		json_object_object_add(so, "steps", json_object_new_string(settle_format(w->steps, sb, sizeof(sb))));
		for (k = 0; k < SETTLE_NSTEPS; k++)
			if (w->steps & (1u << k))
				json_object_object_add(so, settle_step_name(k),
						       json_number(w->cost.n ? w->cost.s[k] / w->cost.n : NAN));
		json_object_object_add(so, "mean_s", json_number(w->cost.n ? w->cost.total / w->cost.n : NAN));
		json_object_object_add(so, "not_quiet", json_object_new_int(w->cost.not_quiet));
		json_object_object_add(so, "not_steady", json_object_new_int(w->cost.not_steady));
		json_object_object_add(o, "settle", so);
		for (k = 0; k < w->nwarm && k < 16; k++)
			json_object_array_add(wu, json_number(w->warm_elapsed[k]));
		json_object_object_add(o, "warmup_elapsed_s", wu);
	}
	for (i = 0; i < w->nruns; i++) {
		const struct run_result *r = &w->res[i];
		json_object *ro = json_object_new_object(), *vals = json_object_new_object();

		json_object_object_add(ro, "outcome", json_object_new_string(run_outcome_name(r->outcome)));
		json_object_object_add(ro, "description", json_object_new_string(run_describe(r, buf, sizeof(buf))));
		for (f = 0; f < F_COUNT; f++)
			json_object_object_add(ro, keys[f], json_number(field(r, f)));
		for (k = 0; k < r->nvalues; k++)
			json_object_object_add(vals, r->values[k].name, json_number(r->values[k].value));
		json_object_object_add(ro, "results", vals);
		if (w->before) {
			json_object *bo = json_object_new_object();
			json_object_object_add(bo, "dirty_kb", json_number(w->before[i].dirty_kb));
			json_object_object_add(bo, "writeback_kb", json_number(w->before[i].writeback_kb));
			json_object_object_add(bo, "cached_kb", json_number(w->before[i].cached_kb));
			json_object_object_add(bo, "free_kb", json_number(w->before[i].free_kb));
			json_object_object_add(bo, "settle_s", json_number(w->settle_s[i]));
			json_object_object_add(bo, "host_reported_kib", json_number(w->before[i].host_reported_kib));
			json_object_object_add(bo, "canary_cpu_ms", json_number(w->before[i].canary_cpu_ms));
			json_object_object_add(bo, "canary_mem_ms", json_number(w->before[i].canary_mem_ms));
			json_object_object_add(ro, "host_reported_during_kib",
					       json_number(w->before[i].host_reported_during_kib));
			json_object_object_add(ro, "before", bo);
		}
		if (r->nprobe || r->probe_line[0]) {
			json_object *pv = json_object_new_object();
			for (k = 0; k < r->nprobe; k++)
				json_object_object_add(pv, r->probe[k].name, json_number(r->probe[k].value));
			json_object_object_add(pv, "ok", json_object_new_boolean(r->probe_ok));
			json_object_object_add(ro, "probe", pv);
		}
		json_object_array_add(runs, ro);
	}
	json_object_object_add(o, "per_run", runs);
	return o;
}

/* Settle, then one run in a fresh cgroup (no charge or swappiness carried over).
 * Returns 0 or the exit code to stop with. */
static int one_run(const struct wl_runs *w, const char *probe, double timeout, uint64_t mem_limit, uint64_t swap_size,
		   const struct settle_opts *so, struct settle_cost *cost, struct settle_state *before,
		   struct run_result *r)
{
	struct run_spec spec = {
		.workload = w->spec, .timeout = timeout, .echo = vt.verbose > 0, .probe = probe, .root = vt.root
	};
	int rc = runner_run_sandboxed(&spec, mem_limit, swap_size, so, cost, before, r);

	return rc == 0 ? 0 : rc == -2 ? EXIT_USAGE : EXIT_ENV;
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
		{ "precision", required_argument, NULL, 'R' },
		{ "max-runs", required_argument, NULL, 'X' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "settle", required_argument, NULL, 'T' },
		{ "no-settle", no_argument, NULL, 'N' },
		{ "zswap", no_argument, NULL, 'Z' },
		{ "metric-json", required_argument, NULL, 'J' },
		{ "metric-regex", required_argument, NULL, 'E' },
		{ "metric-file", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	struct wl_runs wl[MAX_WORKLOADS];
	struct setting set[SETTINGS_MAX];
	int nwl = 0, nset = 0, c, i, k, rc = 0, failed = 0;
	bool tools_used = false;
	struct extract ex = { .n = 0 };
	long runs = 1, max_runs = 30, warmup = 1;
	double precision = 0;
	unsigned steps = SETTLE_DEFAULT;
	uint64_t mem_limit = 0, swap_size = 0;
	struct swap_spec swapspec = { .backend = SWAP_NONE };
	bool zswap = false;
	double timeout = 1800;
	const char *probe = NULL, *mixfile = NULL;
	struct mix mix;
	char why[256], swapfile[PATH_MAX] = "", a[32], b[32], sw[64], probe_prog[4096] = "";
	bool runs_given = false;
	json_object *out = NULL;

	while ((c = getopt_long(argc, argv, "hw:n:m:s:t:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("run", run_opts);
			return 0;
		case 'J':
		case 'E':
		case 'F':
			if (extract_option(&ex,
					   c == 'J'   ? "metric-json"
					   : c == 'E' ? "metric-regex"
						      : "metric-file",
					   optarg) < 0)
				return EXIT_USAGE;
			break;
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
			if (swap_spec_parse(optarg, &swapspec, why, sizeof(why)) < 0)
				return usage_error("run", "--swap: %s", why);
			break;
		case 'Z':
			zswap = true;
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
		case 'R': {
			char *end;
			errno = 0;
			precision = strtod(optarg, &end);
			if (end == optarg || errno || (*end && strcmp(end, "%") != 0) || !(precision >= 0.1) ||
			    precision > 100)
				return usage_error(
				    "run", "--precision '%s': a percentage from 0.1%% to 100%%, e.g. 3%%", optarg);
			precision /= 100;
			break;
		}
		case 'X':
			if (parse_long(optarg, 2, MAX_RUNS, &max_runs, why, sizeof(why)) < 0)
				return usage_error("run", "--max-runs %s", why);
			break;
		case 'W':
			if (parse_long(optarg, 0, 16, &warmup, why, sizeof(why)) < 0)
				return usage_error("run", "--warmup %s", why);
			break;
		case 'T':
			if (settle_parse(optarg, &steps, why, sizeof(why)) < 0)
				return usage_error("run", "--settle: %s", why);
			break;
		case 'N':
			steps = 0;
			break;
		default:
			return usage_error("run", "unknown option");
		}
	}
	if (optind < argc)
		return usage_error("run", "unexpected argument '%s'", argv[optind]);
	if (precision > 0 && !runs_given)
		runs = 3;
	if (precision > 0 && max_runs < runs)
		return usage_error("run", "--max-runs %ld is below --runs %ld", max_runs, runs);
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
		if (swapspec.backend == SWAP_NONE)
			swapspec = mix.swap;
		info("mix %s: %d workload(s)%s%s", mix.name[0] ? mix.name : mixfile, mix.nwl, probe ? ", probe " : "",
		     probe ? probe : "");
	}
	if (zswap && swap_spec_add_zswap(&swapspec, why, sizeof(why)) < 0)
		return usage_error("run", "%s", why);
	swap_size = swap_spec_limit(&swapspec);
	if (nwl == 0)
		return usage_error(
		    "run", "name a workload with --workload, e.g. --workload \"mtest01 -p 80 -w\", or --mix FILE");
	if ((ex.n || ex.file[0]) && (nwl == 0 || strncmp(wl[0].spec, "exec:", 5) != 0))
		return usage_error("run", "--metric-json, --metric-regex and --metric-file read an exec: workload's "
					  "output; give one with --workload exec:CMD");
	for (i = 0; i < nwl; i++)
		if (!(wl[i].spec = extract_wrap_spec(wl[i].spec, &ex)))
			return EXIT_USAGE;
	/* validate every workload spec before anything changes; a bare built-in name
	 * takes the options search gives it ("mtest01" is "mtest01 -p 80 -w") */
	for (i = 0; i < nwl; i++) {
		char **args;
		wl[i].spec = workload_alias(wl[i].spec);
		if (workload_argv(wl[i].spec, &args, wl[i].name, sizeof(wl[i].name)) < 0)
			return EXIT_USAGE;
		snprintf(wl[i].prog, sizeof(wl[i].prog), "%s", args[0]);
		workload_argv_free(args);
		wl[i].steps = vt_live() ? steps : 0; /* a fake tree has no caches to drop */
		wl[i].precision = precision;
	}
	if (probe) {
		char **args, pname[64];
		if (workload_argv(probe, &args, pname, sizeof(pname)) < 0)
			return EXIT_USAGE;
		snprintf(probe_prog, sizeof(probe_prog), "%s", args[0]);
		workload_argv_free(args);
	}
	if ((mem_limit || swapspec.backend != SWAP_NONE) && !vt_live())
		return usage_error("run",
				   "--memory-limit and --swap need the live kernel; they cannot be used with --root");

	if (nset && (rc = settings_check(set, nset)) != 0)
		return rc;
	/* a tool's data directory (and server) is a resource: journalled in a session */
	for (i = 0; i < nwl && !tools_used; i++)
		tools_used = tool_of(wl[i].spec, NULL) != NULL;
	if (nset || mem_limit || swapspec.backend != SWAP_NONE || tools_used) {
		if ((rc = session_begin()) != 0)
			return rc;
		if (swap_setup(&swapspec, swapfile, sizeof(swapfile)) < 0)
			return EXIT_ENV;
		if (nset && (rc = settings_apply(set, nset, false)) != 0)
			return rc;
	}
	if (mem_limit)
		info("memory limit %s, swap %s", format_size(mem_limit, a, sizeof(a)),
		     swap_size ? format_size(swap_size, b, sizeof(b)) : "not limited");

	for (i = 0; i < nwl && !vt_interrupted; i++) {
		long cap = precision > 0 ? (max_runs > wl[i].want ? max_runs : wl[i].want) : wl[i].want;
		const char *warmfiles[2] = { wl[i].prog, probe_prog };
		struct settle_opts so = { .steps = wl[i].steps,
					  .root = vt.root,
					  .swapfile = swapfile,
					  .warm = warmfiles,
					  .nwarm = probe ? 2 : 1 };

		wl[i].res = calloc((size_t)cap, sizeof(*wl[i].res));
		wl[i].before = calloc((size_t)cap, sizeof(*wl[i].before));
		wl[i].settle_s = calloc((size_t)cap, sizeof(*wl[i].settle_s));
		if (!wl[i].res || !wl[i].before || !wl[i].settle_s) {
			error("out of memory");
			return EXIT_INTERNAL;
		}
		for (k = 0; k < warmup && !vt_interrupted; k++) {
			struct run_result r;
			char desc[512];
			struct settle_cost wc = { 0 };

			if ((rc = one_run(&wl[i], probe, timeout, mem_limit, swap_size, &so, &wc, NULL, &r)) != 0)
				return rc;
			if (r.outcome == RUN_INTERRUPTED)
				break;
			if (k < 16)
				wl[i].warm_elapsed[k] = r.elapsed;
			wl[i].nwarm++;
			info("%s warm-up %d/%ld: %s, %.2f s elapsed (not counted)", wl[i].name, k + 1, warmup,
			     run_describe(&r, desc, sizeof(desc)), r.elapsed);
		}
		for (k = 0; k < cap && !vt_interrupted; k++) {
			struct run_result *r = &wl[i].res[k];
			char desc[512];
			double before = wl[i].cost.total;

			if (k >= wl[i].want && wl[i].precise)
				break;
			if ((rc = one_run(&wl[i], probe, timeout, mem_limit, swap_size, &so, &wl[i].cost,
					  &wl[i].before[k], r)) != 0)
				return rc;
			wl[i].settle_s[k] = wl[i].cost.total - before;
			wl[i].nruns++;
			if (r->outcome == RUN_OK)
				wl[i].nok++;
			else if (r->outcome != RUN_INTERRUPTED)
				failed++;
			{
				/* the progress line: this run, the fastest so far, and the time the rest should take */
				double best = HUGE_VAL, sum = 0, left;
				long total = precision > 0 ? cap : wl[i].want;
				char eta[32], bs[32] = "none";
				for (int j = 0; j <= k; j++) {
					sum += wl[i].res[j].elapsed + wl[i].settle_s[j];
					if (wl[i].res[j].outcome == RUN_OK && wl[i].res[j].elapsed < best)
						best = wl[i].res[j].elapsed;
				}
				left = sum / (k + 1) * (double)(total - k - 1);
				if (left < 90)
					snprintf(eta, sizeof(eta), "%.0fs", left);
				else /* whole seconds first, so that 119.7 s is 2m00s and not 1m60s */
					snprintf(eta, sizeof(eta), "%ldm%02lds", lround(left) / 60, lround(left) % 60);
				if (isfinite(best))
					snprintf(bs, sizeof(bs), "%.2f s", best);
				progress(
				    vt.verbose == 0,
				    "vmtune: %s run %d/%ld: %s, %.2f s elapsed, %ld major fault%s; best %s, ETA %s%s",
				    wl[i].name, k + 1, total, run_describe(r, desc, sizeof(desc)), r->elapsed,
				    r->majflt, r->majflt == 1 ? "" : "s", bs, eta,
				    i + 1 < nwl ? " (this workload)" : "");
			}
			if (probe)
				info("  probe: %s", r->probe_line[0] ? r->probe_line : "no result");
			if (precision > 0) {
				struct summary sm;
				summarize_field(&wl[i], F_ELAPSED, &sm);
				double h = summary_rel_halfwidth(&sm);
				wl[i].precise = h <= precision;
				if (k + 1 >= wl[i].want)
					info("  %.1f%% CI +/- %s%.1f%% (%s), target %.1f%%", 100 * PRECISION_LEVEL,
					     isfinite(h) ? "" : "?", isfinite(h) ? 100 * h : 0.0,
					     ci_method_name(sm.method), 100 * precision);
			}
		}
		if (precision > 0 && !wl[i].precise && !vt_interrupted)
			warning("%s: the interval did not come within %.1f%% in %d runs (--max-runs %ld)", wl[i].name,
				100 * precision, wl[i].nruns, max_runs);
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
		json_object_object_add(out, "swap_backend",
				       swapspec.backend != SWAP_NONE
					   ? json_object_new_string(swap_spec_format(&swapspec, sw, sizeof(sw)))
					   : NULL);
		json_object_object_add(out, "interrupted", json_object_new_boolean(vt_interrupted != 0));
		printf("%s\n",
		       json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(out);
	} else {
		for (i = 0; i < nwl; i++)
			if (wl[i].nruns)
				print_block(&wl[i]);
	}
	for (i = 0; i < nwl; i++) {
		free(wl[i].res);
		free(wl[i].before);
		free(wl[i].settle_s);
	}
	if (vt_interrupted) {
		error("interrupted by signal %d; settings are being restored", (int)vt_interrupted);
		return 128 + vt_interrupted;
	}
	return rc ? rc : failed ? EXIT_CHECK : 0;
}
