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

#include <json-c/json.h>

#include "knob.h"
#include "search-int.h"
#include "size.h"
#include "swap.h"
#include "text.h"
#include "vmtune.h"

static const char *short_name(const char *name)
{
	return strncmp(name, "vm.", 3) == 0 ? name + 3 : name;
}

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
	int i;
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
	{
		/* new bests in a random order of n trials: about ln n + 0.58 (the harmonic number) */
		int n = o->trials - 1, base = 1 + (n + o->baseline_every - 1) / o->baseline_every + 1;
		int reps = n > 0 ? (int)lround(o->repeats * (log(n) + 0.5772)) : 0;
		int first_look = o->confirm_rounds * (1 + o->finalists),
		    most = o->confirm_max_rounds * (1 + o->finalists);
		int walk = ablate_runs(S);

		if (o->time_budget > 0)
			fprintf(f,
				"plan: %s in all: trials until what is left is what the rest usually takes, or half; "
				"then %d race runs, %d confirmation runs "
				"to the first look (up to %d while a finalist is undecided and the time allows)%s%s%s; "
				"each measurement runs %d workload(s)\n",
				fmt_duration(o->time_budget, a, sizeof(a)), race_runs(o), first_look, most,
				walk ? ", and the walk back to the smallest change in the time left, at least " : "",
				walk ? fmt_duration(ABLATE_BUDGET_SHARE * o->time_budget, b, sizeof(b)) : "",
				walk ? " (a fifth)" : "", o->nwl);
		else
			fprintf(
			    f,
			    "plan: about %d measurements: %d trials (the first is the original settings), %d baseline "
			    "runs, about %d repeats of new bests, %d race runs, %d confirmation runs to the first "
			    "look (up to %d while a finalist is undecided), about %d to walk back to the smallest "
			    "change and confirm it; each measurement runs %d workload(s)\n",
			    o->trials + base + reps + race_runs(o) + first_look + walk, o->trials, base, reps,
			    race_runs(o), first_look, most, walk, o->nwl);
		(void)b;
	}
	if (o->nguard) {
		fprintf(f, "guards:");
		for (i = 0; i < o->nguard; i++)
			fprintf(f, "%s %s%s", i ? "," : "", o->guard[i].text, o->guard[i].dflt ? " (default)" : "");
		fprintf(f, "; a candidate breaking one is not recommended\n");
	} else {
		fprintf(f, "guards: none (--guard none)\n");
	}
	if (o->have_check)
		fprintf(f,
			"check: the recommendation on %s[%s %s] against the original settings, %d runs to the first "
			"look (up to %d); refused if it makes that workload worse\n",
			o->check.spec, o->check.metric, o->check.maximize ? "max" : "min", check_runs(o),
			2 * o->confirm_max_rounds);
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
		   o->confirm_rounds * (1 + o->finalists) + ablate_runs(S);
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

/* The knobs of vals that differ from the original, short names, in at most width
 * columns: "page-cluster=6 swappiness=140 +3 more" */
static const char *changes_text(const struct space *sp, const long *vals, size_t width, char *buf, size_t size)
{
	size_t n = 0;
	int i, shown = 0, changed = 0;
	char v[64], item[128];

	buf[0] = '\0';
	for (i = 0; i < sp->d; i++)
		changed += vals[i] != sp->dim[i].original;
	if (!changed) {
		snprintf(buf, size, "(original settings)");
		return buf;
	}
	for (i = 0; i < sp->d; i++) {
		size_t len, more;
		if (vals[i] == sp->dim[i].original)
			continue;
		len = (size_t)snprintf(item, sizeof(item), "%s%s=%s", n ? " " : "", short_name(sp->dim[i].def->name),
				       knob_format_value(sp->dim[i].def, vals[i], v, sizeof(v)));
		more = changed - shown > 1 ? 9 : 0; /* room for " +N more" */
		if (n + len + more > width || n + len >= size)
			break;
		memcpy(buf + n, item, len + 1);
		n += len;
		shown++;
	}
	if (shown < changed)
		snprintf(buf + n, size - n, "%s+%d more", n ? " " : "", changed - shown);
	return buf;
}

void search_progress(struct search *S, const struct obs *ob, const char *what)
{
	char desc[512], eta[32], head[160], val2[32], bar[32] = "", tn[32];
	const struct point *best;
	double per = S->runs ? S->run_time_sum / S->runs : 0, left, tail;
	int b = best_point(S), i, filled;
	size_t room;

	if (S->o->quiet)
		return;
	tail = per * (race_runs(S->o) + S->o->confirm_rounds * (1 + S->o->finalists) + ablate_runs(S)) * S->o->nwl +
	       per * check_runs(S->o);
	left = per * (S->o->trials - S->trials_done) * (1 + 1.0 / S->o->baseline_every) * S->o->nwl + tail;
	if (S->o->time_budget > 0 && left > S->o->time_budget - (vt_now() - S->t0))
		left = fmax(0, S->o->time_budget - (vt_now() - S->t0));
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
	snprintf(tn, sizeof(tn), S->o->time_budget > 0 ? "%d" : "%d/%d", S->trials_done, S->o->trials);
	snprintf(head, sizeof(head), "%strial %-5s %-9s %s %-7s ratio %.3f, best %.3f, ETA %-5s ", bar, tn, what,
		 S->o->wl[0].metric,
		 ob->failed ? "failed" : (snprintf(val2, sizeof(val2), "%.4g", ob->metric[0]), val2), ob->score,
		 best ? exp(best->mean_log) : 1.0, fmt_duration(left, eta, sizeof(eta)));
	/* one line at 80 columns where it fits; -v shows every knob */
	room = strlen(head) < 80 - 28 ? 80 - strlen(head) : 28; /* at least a knob or two */
	changes_text(&S->sp, S->points[ob->point].vals, S->o->wide ? sizeof(desc) : room, desc, sizeof(desc));
	progress(!S->o->echo, "%s%s", head, desc);
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

/* "+12.3% (+5.1 .. +19.9%)" of a JSON object's share fields, or "" */
static const char *share_text(json_object *x, char *buf, size_t size)
{
	json_object *p, *lo, *hi;

	buf[0] = '\0';
	if (x && json_object_object_get_ex(x, "share_pct", &p) && json_object_object_get_ex(x, "share_lo", &lo) &&
	    json_object_object_get_ex(x, "share_hi", &hi) && json_object_is_type(p, json_type_double) &&
	    isfinite(json_object_get_double(p))) {
		if (isfinite(json_object_get_double(lo)) && isfinite(json_object_get_double(hi)))
			snprintf(buf, size, "%+.1f%% (%+.1f .. %+.1f%%)", json_object_get_double(p),
				 json_object_get_double(lo), json_object_get_double(hi));
		else
			snprintf(buf, size, "%+.1f%% (no interval)", json_object_get_double(p));
	}
	return buf;
}

static const char *jstr(json_object *o, const char *key, char *buf, size_t size)
{
	json_object *x;

	buf[0] = '\0';
	if (o && json_object_object_get_ex(o, key, &x) && json_object_is_type(x, json_type_string))
		text_safe(json_object_get_string(x), buf, size);
	return buf;
}

void search_print_knobs(const struct space *sp, const long *rec, const struct sens *sens, json_object *abl, bool ranges)
{
	json_object *knobs = NULL, *x;
	char a[64], b[64], sh[96], st[64], how[96];
	int i, unchanged = 0, nput = 0, none_found_in = 0;

	if (abl)
		json_object_object_get_ex(abl, "knobs", &knobs);
	printf("\n%-28s %-10s %-11s %-31s %s\n", "CHANGED KNOB", "ORIGINAL", "RECOMMENDED", "PUTTING IT BACK COSTS",
	       "SENSITIVITY");
	for (i = 0; i < sp->d; i++) {
		const struct space_dim *dm = &sp->dim[i];
		if (rec[i] == dm->original)
			continue;
		x = knobs && json_object_object_get_ex(knobs, dm->def->name, &x) ? x : NULL;
		share_text(x, sh, sizeof(sh));
		if (!sh[0])
			snprintf(sh, sizeof(sh), "%s", abl ? jstr(x, "share", how, sizeof(how)) : "not measured");
		if (!sh[0])
			snprintf(sh, sizeof(sh), "-");
		sens_format(&sens[i], st, sizeof(st));
		/* the note below is for a knob the walk measured; one the budget kept says why */
		none_found_in += !sens_found(&sens[i]) && x && json_object_object_get_ex(x, "share_pct", NULL);
		printf("%-28s %-10s %-11s %-31s %s\n", dm->def->name,
		       knob_format_value(dm->def, dm->original, a, sizeof(a)),
		       knob_format_value(dm->def, rec[i], b, sizeof(b)), sh, st);
		if (ranges) {
			char lo[64], hi[64];
			printf("%-28s (searched %s..%s)\n", "", knob_format_value(dm->def, dm->lo, lo, sizeof(lo)),
			       knob_format_value(dm->def, dm->hi, hi, sizeof(hi)));
		}
	}
	for (i = 0; i < sp->d; i++) {
		const struct space_dim *dm = &sp->dim[i];
		if (rec[i] != dm->original)
			continue;
		x = knobs && json_object_object_get_ex(knobs, dm->def->name, &x) ? x : NULL;
		if (!x) {
			unchanged++;
			continue;
		}
		if (!nput++)
			printf("put back to the original by the walk back (what putting it back cost):\n");
		share_text(x, sh, sizeof(sh));
		{
			json_object *lv;
			/* the interval that decided the step, at its own level */
			if (sh[0] && json_object_object_get_ex(x, "share_level", &lv) &&
			    isfinite(json_object_get_double(lv))) {
				char lvs[32], *paren = strchr(sh, '(');
				snprintf(lvs, sizeof(lvs), "%.4g%% interval ", 100 * json_object_get_double(lv));
				if (paren && strlen(sh) + strlen(lvs) < sizeof(sh)) {
					memmove(paren + 1 + strlen(lvs), paren + 1, strlen(paren + 1) + 1);
					memcpy(paren + 1, lvs, strlen(lvs));
				}
			}
		}
		printf("  %-26s %s -> %s: %s%s%s\n", dm->def->name, jstr(x, "confirmed", a, sizeof(a)),
		       knob_format_value(dm->def, dm->original, b, sizeof(b)), jstr(x, "share", how, sizeof(how)),
		       sh[0] ? ", " : "", sh);
	}
	if (unchanged && ranges) {
		printf("searched, and left as the machine has them:\n");
		for (i = 0; i < sp->d; i++) {
			const struct space_dim *dm = &sp->dim[i];
			char lo[64], hi[64], r[140];
			if (rec[i] != dm->original || (knobs && json_object_object_get_ex(knobs, dm->def->name, &x)))
				continue;
			snprintf(r, sizeof(r), "%s..%s", knob_format_value(dm->def, dm->lo, lo, sizeof(lo)),
				 knob_format_value(dm->def, dm->hi, hi, sizeof(hi)));
			printf("  %-26s %-10s %-16s sensitivity %s\n", dm->def->name,
			       knob_format_value(dm->def, dm->original, a, sizeof(a)), r,
			       sens_format(&sens[i], st, sizeof(st)));
		}
	} else if (unchanged) {
		printf("%d other knob(s) searched stay as the machine has them\n", unchanged);
	}
	printf("(putting it back costs: the paired change of the cost when the knob alone goes back to its original\n"
	       " value, measured by the walk back; the whole gain for the last change standing. sensitivity: the\n"
	       " change of the score between the knob's worst and best value by a least-squares fit of its main\n"
	       " effect to the runs measured, 95%% band; none found: the band reaches no change)\n");
	if (none_found_in)
		printf(
		    "(where the sensitivity found none but the knob is in: the walk back measured what putting it\n"
		    " back costs directly, in paired rounds; that measurement, not the fit over the whole search, is\n"
		    " the evidence for it)\n");
}

void search_print_guards(json_object *guards, const char *who)
{
	json_object_iter it;
	bool any = false;

	if (!guards)
		return;
	json_object_object_foreachC(guards, it)
	{
		json_object *x = it.val, *v;
		char name[32], unit[16], lim[64], a[32], b[32];
		double base = NAN, cand = NAN, ch = NAN, lo = NAN, hi = NAN;
		bool broken = false;
		int pairs = 0;

		text_safe(it.key, name, sizeof(name));
		jstr(x, "unit", unit, sizeof(unit));
		jstr(x, "limit", lim, sizeof(lim));
		if (json_object_object_get_ex(x, "original", &v))
			base = json_object_get_double(v);
		if (json_object_object_get_ex(x, "recommended", &v))
			cand = json_object_get_double(v);
		if (json_object_object_get_ex(x, "change_pct", &v))
			ch = json_object_get_double(v);
		if (json_object_object_get_ex(x, "ci95_pct_lo", &v))
			lo = json_object_get_double(v);
		if (json_object_object_get_ex(x, "ci95_pct_hi", &v))
			hi = json_object_get_double(v);
		if (json_object_object_get_ex(x, "broken", &v))
			broken = json_object_get_boolean(v);
		if (json_object_object_get_ex(x, "pairs", &v))
			pairs = json_object_get_int(v);
		if (!any)
			printf("\nguards (%s against the original, paired over %d rounds, 95%% CI):\n", who, pairs);
		any = true;
		if (strcmp(name, "played") == 0) {
			snprintf(a, sizeof(a), "%.1f%%", 100 * base);
			snprintf(b, sizeof(b), "%.1f%%", 100 * cand);
		} else {
			snprintf(a, sizeof(a), "%.4g%s%s", base, unit[0] ? " " : "", unit);
			snprintf(b, sizeof(b), "%.4g%s%s", cand, unit[0] ? " " : "", unit);
		}
		printf("  %-10s %12s -> %-12s %+7.1f%% (%+.1f .. %+.1f%%)%s%s%s\n", name, a, b, ch, lo, hi,
		       lim[0] ? "  limit " : "", lim, lim[0] ? (broken ? ": BROKEN" : ": kept") : "");
	}
}

void search_report(struct search *S, const long *rec, const struct confirm *best_c, int nc, const struct confirm *c,
		   const struct ablation *A)
{
	struct sens sens[SPACE_MAX];
	char b[64];
	int i;
	json_object *abl = A && A->from >= 0 && best_c ? ablation_json(S, A, rec, best_c) : NULL;

	progress_clear();
	sensitivity(S, sens);
	search_print_knobs(&S->sp, rec, sens, abl, false);
	printf("\n");
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
	if (A && A->ran) {
		int kept = 0, untested = 0;
		for (i = 0; i < A->nsteps; i++) {
			kept += A->step[i].outcome == AB_KEPT;
			untested += A->step[i].outcome == AB_STOPPED || A->step[i].outcome == AB_CUT;
		}
		printf("walk back: %d change(s) of the confirmed setting in %d step(s), each at %.2g%% (5%% over at "
		       "most %d steps); %s\n",
		       A->ngroups, A->nsteps, 100 * A->step_alpha, A->max_steps,
		       A->to == A->from && untested == A->nsteps
			   ? "the budget ended it before its first step: every change stays, untested alone"
		       : A->to == A->from && untested ? "every change stays, some untested alone for the budget"
		       : A->to == A->from	      ? "every change stays"
		       : A->final_holds ? "the smallest change was confirmed against the original on its own rounds"
					: A->why);
		if (A->final_tested && isfinite(A->final.change_pct))
			printf("smallest change against the original: cost %+.1f%% (interval %+.1f%% .. %+.1f%%, %d "
			       "paired rounds)%s\n",
			       A->final.change_pct, A->final.ci_lo, A->final.ci_hi, A->final.pairs,
			       A->final_holds ? "" : ": not recommended; the confirmed setting is, whole");
		(void)kept;
	}
	for (i = 0; i < nc; i++)
		if (c[i].guard_broken) {
			char d[512];
			printf("finalist %s is shown better but breaks a guard:",
			       space_describe(&S->sp, S->points[c[i].point].vals, false, d, sizeof(d)));
			for (int k = 0; k < GUARD_NWHAT; k++)
				if (c[i].guards[k].broken)
					printf(" %s %+.1f%% (limit %s)", guard_name((enum guard_what)k),
					       100 * c[i].guards[k].change, S->o->guard[c[i].guards[k].limit].text);
			printf("; not recommended\n");
		}
	if (best_c) {
		json_object *g = guards_json(S, best_c);
		search_print_guards(g, "recommended");
		json_object_put(g);
	}
	json_object_put(abl);
	side_by_side(S, best_c ? best_c->point : -1);
	tradeoff(S);
	if (S->check && S->check->verdict != CHECK_NONE) {
		printf("\n");
		check_print(S->check, S->o->min_effect);
	}
	if (best_c) {
		printf("\n%s: %.4g -> %.4g (%+.1f%%, 95%% CI %+.1f%% .. %+.1f%% of the cost, over every look and "
		       "finalist) with the recommended settings\n",
		       S->o->nwl == 1 ? S->o->wl[0].metric : "score", S->o->nwl == 1 ? best_c->base_metric : 1.0,
		       S->o->nwl == 1 ? best_c->cand_metric : 1 + best_c->change_pct / 100, best_c->change_pct,
		       best_c->ci_lo, best_c->ci_hi);
	} else {
		bool refused = false;
		for (int k = 0; k < nc; k++)
			refused |= c[k].significant && c[k].guard_broken;
		if (S->check && check_refuses(S->check->verdict))
			printf("\nwhat was shown better makes the check workload worse (above): keep the original "
			       "settings (the profile changes nothing: the machine keeps its own values)\n");
		else if (refused)
			printf("\nwhat was shown better breaks a guard (above): keep the original settings "
			       "(the profile changes nothing: the machine keeps its own values)\n");
		else
			printf("\nnothing beat the original settings significantly: keep them "
			       "(the profile changes nothing: the machine keeps its own values)\n");
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
