/* search-report.c - everything a search prints: the plan (and a dry run's
 * estimate), the progress line, the result table with sensitivities and the
 * finalists' intervals, throughput beside interactivity, the trade-off, and what
 * to do after an interruption. The other search files print nothing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "knob.h"
#include "search-int.h"
#include "size.h"
#include "swap.h"
#include "vmtune.h"

static const char *fmt_duration(double s, char *buf, size_t size)
{
	/* rounded to whole units first: 119.7 s is 2m00s, not 1m60s */
	if (s < 90)
		snprintf(buf, size, "%.0fs", s);
	else if (s < 5400)
		snprintf(buf, size, "%ldm%02lds", lround(s) / 60, lround(s) % 60);
	else
		snprintf(buf, size, "%ldh%02ldm", lround(s / 60) / 60, lround(s / 60) % 60);
	return buf;
}

void search_print_plan(const struct search *S, FILE *f)
{
	const struct search_opts *o = S->o;
	int i, baselines = 1 + (o->trials - 1 + o->baseline_every - 1) / o->baseline_every + 1;
	int confirm_runs = o->confirm_rounds * (1 + o->finalists),
	    confirm_max = o->confirm_max_rounds * (1 + o->finalists);
	char a[32], b[32];

	fprintf(f, "search: %d knob(s), strategy %s, seed %lu\n", S->sp.d, strategy_name(o->strategy), o->seed);
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		char v[64], lo[64], hi[64];
		fprintf(f, "  %-28s original %-8s search %s..%s%s\n", dm->def->name,
			knob_format_value(dm->def, dm->original, v, sizeof(v)),
			knob_format_value(dm->def, dm->lo, lo, sizeof(lo)),
			knob_format_value(dm->def, dm->hi, hi, sizeof(hi)), dm->log ? " (log scale)" : "");
	}
	fprintf(f, "workload%s:", o->nwl > 1 ? "s (score: geometric mean of the ratios to the baseline)" : "");
	for (i = 0; i < o->nwl; i++)
		fprintf(f, " %s[%s %s]", o->wl[i].spec, o->wl[i].metric, o->wl[i].maximize ? "max" : "min");
	fprintf(f, "\n");
	if (o->time_budget > 0)
		fprintf(f, "budget: %s, at most %d trials\n", fmt_duration(o->time_budget, a, sizeof(a)), o->trials);
	fprintf(f,
		"plan: %d trials (the first is the original settings) + %d baseline runs + up to %d repeat runs + up "
		"to %d race runs + %d "
		"confirmation runs before the first look (up to %d while a finalist is undecided) = at most %d "
		"measurements of %d workload "
		"run(s) each\n",
		o->trials, baselines, (o->trials - 1) * o->repeats, race_runs(o), confirm_runs, confirm_max,
		o->trials + baselines + (o->trials - 1) * o->repeats + race_runs(o) + confirm_max, o->nwl);
	fprintf(f, "objective: %s", objective_name(o->objective));
	for (i = 0; i < o->nrequire; i++)
		fprintf(f, "%s%s", i ? ", " : ", requiring ", o->require[i].text);
	fprintf(f, "%s%s\n", o->probe ? "; probe: " : "", o->probe ? o->probe : "");
	if (o->mem_limit)
		fprintf(f, "each run in a %s memory cgroup, swap %s\n", format_size(o->mem_limit, a, sizeof(a)),
			o->swap ? format_size(o->swap, b, sizeof(b)) : "not limited");
	if (S->swap_dim >= 0) {
		char sz[32];
		fprintf(f,
			"swap: varied (the pseudo-knob swap): a %s swapfile (or the machine's own swap), %s on "
			"/dev/" SWAP_ZRAM_DEV ", or the swapfile with zswap in front; one on at a time\n",
			format_size(o->swapspec.size, sz, sizeof(sz)), sz);
	} else if (o->swapspec.backend != SWAP_NONE) {
		char d[160];
		fprintf(f, "swap: %s\n", swap_spec_describe(&o->swapspec, d, sizeof(d)));
	}
	{
		char st[128];
		fprintf(f, "before every run: %s; %d warm-up run(s) of each workload first, not counted\n",
			o->root && *o->root
			    ? "nothing settled (a fake tree)"
			    : (o->settle ? settle_format(o->settle, st, sizeof(st)) : "nothing settled"),
			o->warmup);
	}
}

/* The time a search would take, from the runs of the same workloads stored in
 * the database, if there are any (a dry run opens it read-only and makes none). */
static void dry_run_estimate(const struct search *S)
{
	const struct search_opts *o = S->o;
	int runs = o->trials + 1 + (o->trials - 1 + o->baseline_every - 1) / o->baseline_every + 1 + race_runs(o) +
		   o->confirm_rounds * (1 + o->finalists);
	double per = 0;
	struct store *db;
	char a[32];
	long n;
	int w;

	if (!store_exists(S->o->db) || store_open(&db, S->o->db) < 0) {
		printf("time: no runs of these workloads are stored yet to estimate it from\n");
		return;
	}
	for (w = 0; w < o->nwl; w++) {
		double m = store_mean_run_seconds(db, o->wl[w].spec, &n);
		if (n == 0) {
			printf("time: no run of '%s' is stored yet to estimate it from\n", o->wl[w].spec);
			store_close(db);
			return;
		}
		per += m;
	}
	store_close(db);
	printf("time: about %s for %d measurements without repeats (stored runs average %.1f s per measurement)%s\n",
	       fmt_duration(per * runs, a, sizeof(a)), runs, per,
	       o->time_budget > 0 ? "; the --time budget caps it" : "");
}

void search_progress(struct search *S, const struct obs *ob, const char *what)
{
	char desc[512], eta[32], val[32], val2[32], bar[32] = "";
	const struct point *best;
	double per = S->runs ? S->run_time_sum / S->runs : 0, left;
	int b = best_point(S), i, filled;

	if (S->o->quiet)
		return;
	left = per * (S->o->trials - S->trials_done) * (1 + 1.0 / S->o->baseline_every) * S->o->nwl +
	       per * (race_runs(S->o) + S->o->confirm_rounds * (1 + S->o->finalists)) * S->o->nwl;
	if (S->o->time_budget > 0 && left > S->o->time_budget - (vt_now() - S->t0))
		left = fmax(0, S->o->time_budget - (vt_now() - S->t0)) +
		       per * (race_runs(S->o) + S->o->confirm_rounds * (1 + S->o->finalists));
	best = b >= 0 ? &S->points[b] : NULL;
	if (progress_inplace() && !S->o->echo) {
		filled = S->o->trials ? 20 * S->trials_done / S->o->trials : 0;
		bar[0] = '[';
		for (i = 0; i < 20; i++)
			bar[i + 1] = i < filled ? '#' : '.';
		bar[21] = ']';
		bar[22] = ' ';
		bar[23] = '\0';
	}
	progress(!S->o->echo, "%strial %d%s%-4s %-9s %s: %s %s, ratio %.3f, best %.3f, ETA %s", bar, S->trials_done,
		 S->o->time_budget > 0 ? "" : "/",
		 S->o->time_budget > 0 ? "" : (snprintf(val, sizeof(val), "%d", S->o->trials), val), what,
		 space_describe(&S->sp, S->points[ob->point].vals, false, desc, sizeof(desc)), S->o->wl[0].metric,
		 ob->failed ? "failed" : (snprintf(val2, sizeof(val2), "%.4g", ob->metric[0]), val2), ob->score,
		 best ? exp(best->mean_log) : 1.0, fmt_duration(left, eta, sizeof(eta)));
}

/* Throughput and interactivity of the original and the recommended settings, from
 * the confirmation runs (the same rounds, alternating). Without a confirmation (no
 * candidate beat the original on the search's runs), the original's side comes from
 * its baseline runs during the search, and the header says so. */
static void side_by_side(const struct search *S, int rec)
{
	double m[2] = { 0 }, p99[2] = { 0 }, played[2] = { 0 };
	int n[2] = { 0 }, np[2] = { 0 }, j, k;
	enum trial_kind base = TK_CONFIRM_BASELINE;

	for (j = 0; j < S->nobs; j++)
		if (!S->obs[j].failed && S->obs[j].kind == TK_CONFIRM_BASELINE)
			break;
	if (j == S->nobs)
		base = TK_BASELINE;
	for (j = 0; j < S->nobs; j++) {
		const struct obs *ob = &S->obs[j];
		if (ob->failed || !(ob->kind == base || (ob->kind == TK_CONFIRM && ob->point == rec)))
			continue;
		k = ob->kind == TK_CONFIRM ? 1 : 0;
		m[k] += ob->metric[0];
		n[k]++;
		if (isfinite(ob->inter[0])) {
			p99[k] += ob->inter[0] - 1;
			played[k] += ob->played[0];
			np[k]++;
		}
	}
	if (!n[0] || (!np[0] && rec < 0))
		return;
	printf("\n%-34s %-14s %s\n", base == TK_BASELINE ? "(the original's baseline runs)" : "", "ORIGINAL",
	       rec >= 0 ? "RECOMMENDED" : "");
	printf("%-34s %-14.4g ", S->o->wl[0].metric, m[0] / n[0]);
	if (rec >= 0 && n[1])
		printf("%.4g", m[1] / n[1]);
	printf("\n");
	if (!np[0])
		return;
	printf("%-34s %-14.1f ", "probe p99 lateness (ms)", p99[0] / np[0]);
	if (rec >= 0 && np[1])
		printf("%.1f", p99[1] / np[1]);
	printf("\n%-34s %-14.1f ", "probe played (%)", 100 * played[0] / np[0]);
	if (rec >= 0 && np[1])
		printf("%.1f", 100 * played[1] / np[1]);
	printf("\n");
}

/* The candidates no other candidate beats on both throughput and interactivity. */
static void tradeoff(const struct search *S)
{
	int i, j, shown = 0;
	char d[512];

	for (i = 0; i < S->npoints; i++)
		if (isfinite(S->points[i].mean_log_i))
			break;
	if (i == S->npoints)
		return;
	printf("\ntrade-off (not beaten on both sides by another candidate; cost relative to the original):\n");
	for (i = 1; i < S->npoints && shown < 10; i++) {
		const struct point *a = &S->points[i];
		bool dominated = false;
		if (!isfinite(a->mean_log_t) || !isfinite(a->mean_log_i))
			continue;
		for (j = 1; j < S->npoints && !dominated; j++) {
			const struct point *b = &S->points[j];
			dominated = j != i && isfinite(b->mean_log_t) && isfinite(b->mean_log_i) &&
				    b->mean_log_t <= a->mean_log_t && b->mean_log_i <= a->mean_log_i &&
				    (b->mean_log_t < a->mean_log_t || b->mean_log_i < a->mean_log_i);
		}
		if (dominated)
			continue;
		printf("  throughput cost %.3f, interactive cost %.3f: %s\n", exp(a->mean_log_t), exp(a->mean_log_i),
		       space_describe(&S->sp, a->vals, false, d, sizeof(d)));
		shown++;
	}
}

void search_report(struct search *S, const long *rec, const struct confirm *best_c, int nc, const struct confirm *c)
{
	struct sens sens[SPACE_MAX];
	char a[64], b[64];
	int i;

	progress_clear();
	sensitivity(S, sens);
	printf("\n%-30s %-12s %-12s %s\n", "KNOB", "ORIGINAL", "RECOMMENDED", "SENSITIVITY");
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		char s[64];
		printf("%-30s %-12s %-12s %s\n", dm->def->name, knob_format_value(dm->def, dm->original, a, sizeof(a)),
		       knob_format_value(dm->def, rec[i], b, sizeof(b)), sens_format(&sens[i], s, sizeof(s)));
	}
	printf("(sensitivity: the change of the score between the knob's worst and best value, by a least-squares\n"
	       " fit of each knob's main effect to the runs measured, with its 95%% band; none found: the band\n"
	       " reaches no change)\n\n");
	for (i = 0; i < nc; i++) {
		static const char *const said[] = {
			[CD_UNDECIDED] = "undecided when the budget ended",
			[CD_BETTER] = "significant: it costs less",
			[CD_WORSE] = "significant: it costs more",
			[CD_SMALL] = "not significant: shown not to gain the smallest change worth having",
			[CD_FAILED] = "failed in confirmation",
		};
		char d[512], iv[96];
		space_describe(&S->sp, S->points[c[i].point].vals, false, d, sizeof(d));
		if (!isfinite(c[i].change_pct)) {
			printf("finalist %s: %s\n", d,
			       c[i].decision == CD_FAILED ? said[CD_FAILED] : "too few paired runs");
			continue;
		}
		if (isfinite(c[i].ci_lo) && isfinite(c[i].ci_hi) && c[i].ci_lo > -100)
			snprintf(iv, sizeof(iv), "interval %+.1f%% .. %+.1f%%", c[i].ci_lo, c[i].ci_hi);
		else
			snprintf(iv, sizeof(iv), "no interval: %s", c[i].pairs < 2 ? "too few pairs" : "no variance");
		printf("finalist %s: cost %+.1f%% (%s, %d paired rounds), %s\n", d, c[i].change_pct, iv, c[i].pairs,
		       said[c[i].decision]);
	}
	if (nc)
		printf("(each interval is at the level of the look that decided, so that every interval holds at once "
		       "with 95%% confidence over %d look%s and %d finalist%s; smallest change worth having %.0f%%)\n",
		       S->looks, S->looks == 1 ? "" : "s", nc, nc == 1 ? "" : "s", 100 * S->o->min_effect);
	if (S->settle_cost.n) {
		const struct settle_cost *sc = &S->settle_cost;
		printf("settling before each of %d runs: %.2f s on average (", sc->n, sc->total / sc->n);
		for (i = 0, b[0] = 0; i < SETTLE_NSTEPS; i++)
			if (S->settle.steps & (1u << i)) {
				printf("%s%s %.2f", b[0] ? ", " : "", settle_step_name(i), sc->s[i] / sc->n);
				b[0] = 1;
			}
		printf(")\n");
		if (sc->not_quiet)
			printf("warning: before %d run(s) memory pressure or swap I/O had not stopped in 10 s; they "
			       "went on\n",
			       sc->not_quiet);
		if (sc->not_steady)
			printf("warning: before %d run(s) the CPU still ran over 5%% slow after 30 s; they went on\n",
			       sc->not_steady);
	}
	side_by_side(S, best_c ? best_c->point : -1);
	tradeoff(S);
	if (best_c) {
		printf("\n%s: %.4g -> %.4g (%+.1f%%, 95%% CI %+.1f%% .. %+.1f%% of the cost, over every look and "
		       "finalist) with the recommended settings\n",
		       S->o->nwl == 1 ? S->o->wl[0].metric : "score", S->o->nwl == 1 ? best_c->base_metric : 1.0,
		       S->o->nwl == 1 ? best_c->cand_metric : 1 + best_c->change_pct / 100, best_c->change_pct,
		       best_c->ci_lo, best_c->ci_hi);
	} else {
		printf("\nnothing beat the original settings significantly: keep them "
		       "(the profile records the original values)\n");
	}
}

/* A dry run: the plan on stdout, what would be written, and how long it would take. */
void search_print_dry_run(const struct search *S, const char *out)
{
	const struct search_opts *o = S->o;
	bool vary = S->swap_dim >= 0;
	bool swapfile = (o->swapspec.backend == SWAP_FILE || vary) && swap_total() < o->swapspec.size;

	printf("would write: %s (profile), %s (results), %s/journal (originals while it runs)%s%s%s%s\n", out, o->db,
	       o->state_dir, swapfile ? ", a temporary swapfile in " : "", swapfile ? o->state_dir : "",
	       o->swapspec.backend == SWAP_ZRAM || vary ? "; would configure /dev/" SWAP_ZRAM_DEV
							  " as swap (reset at the end)"
							: "",
	       vary		   ? "; would enable zswap for the file+zswap trials (put back at the end)"
	       : o->swapspec.zswap ? "; would enable zswap (put back at the end)"
				   : "");
	dry_run_estimate(S);
}

void search_report_interrupted(const struct search *S)
{
	int b = best_point(S);
	char d[512];

	progress_clear();
	printf("\ninterrupted after %d of %d trials; settings are being restored\n", S->trials_done, S->o->trials);
	if (b >= 0)
		printf("best so far (not confirmed): %s, score %.3f of the original\n",
		       space_describe(&S->sp, S->points[b].vals, false, d, sizeof(d)), exp(S->points[b].mean_log));
	printf("continue with: vmtune search --resume %ld%s%s\n", S->run_id, S->o->db[0] ? " --db " : "", S->o->db);
}

/* A message about the search's progress: on stdout in a dry run (part of the
 * plan), otherwise on stderr unless --quiet. */
void search_say(const struct search *S, const char *fmt, ...)
{
	va_list ap;

	if (S->o->quiet && !S->o->dry_run)
		return;
	va_start(ap, fmt);
	if (S->o->dry_run) {
		vprintf(fmt, ap);
		putchar('\n');
	} else {
		progress_clear();
		fputs("vmtune: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

void search_print(const char *fmt, ...)
{
	va_list ap;

	progress_clear();
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}
