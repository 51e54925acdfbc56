/* search-score.c - what a measurement is worth: each trial's cost relative to the
 * level of the original settings around it (their baseline runs smoothed by a fitted
 * drift model, drift.h: slow drift of the machine cancels, noise is averaged out), a
 * mix's weighted geometric mean, the objective's two sides, and the points (distinct
 * settings) with their mean log cost; the probe's side counts lateness in its
 * periods (inter_value). Also the names of
 * strategies and objectives and the --require conditions. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "drift.h"
#include "search-int.h"
#include "size.h"
#include "vmtune.h"

const char *objective_name(enum objective o)
{
	return o == OBJ_THROUGHPUT ? "throughput" : o == OBJ_INTERACTIVE ? "interactive" : "balanced";
}

int requirement_parse(const char *s, struct requirement *r)
{
	const char *op = strpbrk(s, "<>");
	char *end;
	size_t n;

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", s);
	if (!op || op == s || (n = (size_t)(op - s)) >= sizeof(r->name))
		return error("requirement '%s': expected NAME>=VALUE or NAME<=VALUE, e.g. played>=0.99", s);
	memcpy(r->name, s, n);
	r->op = op[1] == '=' ? (op[0] == '<' ? 'l' : 'g') : op[0];
	op += op[1] == '=' ? 2 : 1;
	errno = 0;
	r->value = strtod(op, &end);
	if (errno || end == op || (*end && strcmp(end, "ms") != 0) || !isfinite(r->value))
		return error("requirement '%s': '%s' is not a number (ms may follow)", s, op);
	/* p99_lateness<=20ms: the probe reports it as p99_lateness_ms */
	if (strcmp(end, "ms") == 0 && !strstr(r->name, "_ms")) {
		n = strlen(r->name);
		snprintf(r->name + n, sizeof(r->name) - n, "_ms");
	}
	return 0;
}

bool requirement_met(const struct requirement *q, double v)
{
	switch (q->op) {
	case '<':
		return v < q->value;
	case '>':
		return v > q->value;
	case 'l':
		return v <= q->value;
	default:
		return v >= q->value;
	}
}

int find_point(struct search *S, const long *vals)
{
	int i;

	for (i = 0; i < S->npoints; i++)
		if (memcmp(S->points[i].vals, vals, sizeof(long) * (size_t)S->sp.d) == 0)
			return i;
	return -1;
}

int add_point(struct search *S, const long *vals)
{
	int i = find_point(S, vals);

	if (i >= 0)
		return i;
	if (S->npoints >= MAX_POINTS)
		return -1;
	memset(&S->points[S->npoints], 0, sizeof(S->points[0]));
	memcpy(S->points[S->npoints].vals, vals, sizeof(long) * (size_t)S->sp.d);
	return S->npoints++;
}

/* The interactive side: the probe's p99 lateness, but never less than one period of
 * the probe. sputter's lateness is how long after the end of its period a period's
 * chunk was ready; it plays by the period, and a chunk late by less than one is made
 * up in the next without the player falling behind (and cannot underrun a buffer of
 * two periods or more). Lateness under a period is timer and scheduler jitter, not
 * something the settings did; and as a ratio against an on-time original (0 ms) it is
 * unbounded: with the 1 ms added before, a millisecond of jitter read as a halving or
 * a doubling, and a candidate 10% worse on the metric scored 0.67, "better", under
 * balanced. Floored at the period, sub-period lateness is no signal (a ratio of 1),
 * and above it lateness counts in periods: 30 ms late with 10 ms periods costs three
 * times being on time. (Adding the playback buffer instead, p99 + buffer, was the
 * other scale that means something; but it still lets sub-period jitter move the
 * score, and a 100 ms buffer hides a tripling from 10 to 30 ms under 20%. The
 * buffer's own question, underruns, is the probe's played share, which --require
 * played>=X holds.) The period is the probe spec's -p; a probe that is not sputter,
 * or names none, has sputter's default, 10 ms. */
#define PROBE_PERIOD_DEFAULT_MS 10.0

static double probe_period_ms(const struct search *S)
{
	static char spec[1024];
	static double ms = PROBE_PERIOD_DEFAULT_MS;
	const char *p = S->o->probe;
	wordexp_t we;
	size_t i;

	if (!p)
		return PROBE_PERIOD_DEFAULT_MS;
	if (spec[0] && strcmp(p, spec) == 0)
		return ms;
	snprintf(spec, sizeof(spec), "%s", p);
	ms = PROBE_PERIOD_DEFAULT_MS;
	if (strncmp(p, "exec:", 5) == 0 || wordexp(p, &we, WRDE_NOCMD) != 0)
		return ms;
	for (i = 1; we.we_wordc && strcmp(we.we_wordv[0], "sputter") == 0 && i < we.we_wordc; i++) {
		const char *a = we.we_wordv[i], *arg = NULL;
		char why[128];
		double v;

		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == 'p')
			arg = a[2] ? a + 2 : i + 1 < we.we_wordc ? we.we_wordv[++i] : NULL;
		else if (strchr("Bsd", a[1]) && !a[2])
			i++; /* an option's argument */
		if (arg && parse_duration(arg, &v, why, sizeof(why)) == 0 && v > 0)
			ms = 1e3 * v;
	}
	wordfree(&we);
	return ms;
}

/* A run's interactive side as the score uses it, from the lateness as held (+1 ms) */
static double inter_value(const struct search *S, double held)
{
	return isfinite(held) ? fmax(held - 1, probe_period_ms(S)) : held;
}

static double side(const struct search *S, const struct obs *ob, int w, bool inter)
{
	return inter ? inter_value(S, ob->inter[w]) : ob->metric[w];
}

static bool is_baseline(const struct obs *ob)
{
	return (ob->kind == TK_BASELINE || ob->kind == TK_CONFIRM_BASELINE) && !ob->failed;
}

/* The level of the original settings at each baseline run, per workload and side
 * (drift.h), set by base_levels for the rescore under way: the log of it where
 * logged[][] (interpolated in the log, as the model's level is), else the run. */
static double level[2][SEARCH_MAX_WORKLOADS][MAX_OBS];
static bool logged[2][SEARCH_MAX_WORKLOADS];

/* The positions and logs of workload w's baseline runs (one side) into t[], y[]; also
 * each run's own value into raw[] by position when raw is not NULL. Returns their count, or -1 when they
 * are not all positive and finite (a probe that printed nothing, a zero): such a side
 * is not modelled on a log scale. */
static int gather(const struct search *S, int w, bool inter, double *t, double *y, double *raw)
{
	int j, n = 0;
	bool logs = true;

	for (j = 0; j < S->nobs; j++)
		if (is_baseline(&S->obs[j])) {
			double v = side(S, &S->obs[j], w, inter);
			if (raw)
				raw[j] = v;
			if (!(isfinite(v) && v > 0))
				logs = false;
			t[n] = j;
			y[n++] = log(v);
		}
	return logs ? n : -1;
}

/* Fit the drift of the baselines of workload w's side and keep the smoothed level
 * at each; a side gather() refuses keeps each run as its level. */
static void base_levels(const struct search *S, int w, bool inter)
{
	static double t[MAX_OBS], y[MAX_OBS], l[MAX_OBS];
	int j, n = gather(S, w, inter, t, y, level[inter][w]);

	logged[inter][w] = false;
	if (n <= 0)
		return;
	drift_smooth(t, y, n, l, NULL);
	for (j = 0, n = 0; j < S->nobs; j++)
		if (is_baseline(&S->obs[j]))
			level[inter][w][j] = l[n++];
	logged[inter][w] = true;
}

bool baseline_drift(const struct search *S, int w, struct drift_fit *fit, double *change)
{
	static double t[MAX_OBS], y[MAX_OBS], l[MAX_OBS];
	int n = gather(S, w, false, t, y, NULL);

	if (n < 2)
		return false;
	drift_smooth(t, y, n, l, fit);
	*change = l[n - 1] - l[0];
	return true;
}

/* The baseline for workload w at position i: linear between the levels at the
 * baselines just before and just after, or the nearest one. */
static double baseline_at(const struct search *S, int i, int w, bool inter)
{
	int j, prev = -1, next = -1;
	const double *lv = level[inter][w];
	double b;

	for (j = i - 1; j >= 0 && prev < 0; j--)
		if (is_baseline(&S->obs[j]))
			prev = j;
	for (j = i + 1; j < S->nobs && next < 0; j++)
		if (is_baseline(&S->obs[j]))
			next = j;
	if (prev >= 0 && next >= 0)
		b = lv[prev] + (lv[next] - lv[prev]) * (double)(i - prev) / (double)(next - prev);
	else if (prev >= 0 || next >= 0)
		b = lv[prev >= 0 ? prev : next];
	else
		return NAN;
	return logged[inter][w] ? exp(b) : b;
}

static double cost_ratio(const struct search_workload *wl, double metric, double base)
{
	return wl->maximize ? base / metric : metric / base;
}

/* The cost of one measurement against baselines bt (throughput) and bi (the
 * probe, on inter_value's scale; a yardstick under a period counts as one, like a
 * run): each side a weighted geometric mean over the mix, then combined as the
 * objective asks. *t and *i get the two sides (log), for the trade-off. */
double obs_cost(const struct search *S, const struct obs *ob, const double *bt, const double *bi, double *t, double *i)
{
	double lt = 0, li = 0, wsum = 0;
	bool have_i = true;
	int w;

	for (w = 0; w < S->o->nwl; w++) {
		double wt = S->o->wl[w].weight;
		lt += wt * log(cost_ratio(&S->o->wl[w], ob->metric[w], bt[w]));
		if (isfinite(ob->inter[w]) && isfinite(bi[w]) && bi[w] > 0)
			li += wt * log(inter_value(S, ob->inter[w]) / fmax(bi[w], probe_period_ms(S)));
		else
			have_i = false;
		wsum += wt;
	}
	lt /= wsum;
	li = have_i ? li / wsum : NAN;
	*t = lt;
	*i = li;
	switch (S->o->objective) {
	case OBJ_INTERACTIVE:
		return exp(li);
	case OBJ_BALANCED:
		return exp((lt + li) / 2);
	default:
		return exp(lt);
	}
}

/* Recompute every score (a new baseline changes the interpolation) and each
 * point's mean. Failed trials get a penalty worse than anything seen. */
void rescore(struct search *S)
{
	double worst = 1;
	int i, w;
	int ti[MAX_POINTS];

	for (w = 0; w < S->o->nwl; w++) {
		base_levels(S, w, false);
		base_levels(S, w, true);
	}
	for (i = 0; i < S->nobs; i++) {
		struct obs *ob = &S->obs[i];
		double bt[SEARCH_MAX_WORKLOADS], bi[SEARCH_MAX_WORKLOADS], lt, li;

		if (ob->kind == TK_BASELINE || ob->kind == TK_CONFIRM_BASELINE) {
			ob->score = 1;
			continue;
		}
		if (ob->failed)
			continue;
		for (w = 0; w < S->o->nwl; w++) {
			bt[w] = baseline_at(S, i, w, false);
			bi[w] = baseline_at(S, i, w, true);
		}
		ob->score = obs_cost(S, ob, bt, bi, &lt, &li);
		if (!isfinite(ob->score))
			ob->score = 1;
		if (ob->score > worst)
			worst = ob->score;
	}
	for (i = 0; i < S->npoints; i++) {
		S->points[i].nobs = 0;
		S->points[i].mean_log = S->points[i].mean_log_t = S->points[i].mean_log_i = 0;
		ti[i] = 0;
	}
	for (i = 0; i < S->nobs; i++) {
		struct obs *ob = &S->obs[i];
		struct point *pt = &S->points[ob->point];
		double bt[SEARCH_MAX_WORKLOADS], bi[SEARCH_MAX_WORKLOADS], lt, li;

		if (ob->kind != TK_CANDIDATE && ob->kind != TK_REPEAT)
			continue;
		if (ob->failed) {
			ob->score = 2 * worst;
		} else {
			for (w = 0; w < S->o->nwl; w++) {
				bt[w] = baseline_at(S, i, w, false);
				bi[w] = baseline_at(S, i, w, true);
			}
			obs_cost(S, ob, bt, bi, &lt, &li);
			if (isfinite(lt) && isfinite(li)) {
				pt->mean_log_t += lt;
				pt->mean_log_i += li;
				ti[ob->point]++;
			}
		}
		pt->mean_log += log(ob->score);
		pt->nobs++;
	}
	for (i = 0; i < S->npoints; i++) {
		if (S->points[i].nobs)
			S->points[i].mean_log /= S->points[i].nobs;
		if (ti[i]) {
			S->points[i].mean_log_t /= ti[i];
			S->points[i].mean_log_i /= ti[i];
		} else {
			S->points[i].mean_log_t = S->points[i].mean_log_i = NAN;
		}
	}
}

/* The best candidate so far (not the original), or -1. */
int best_point(const struct search *S)
{
	int i, best = -1;

	for (i = 1; i < S->npoints; i++)
		if (S->points[i].nobs && (best < 0 || S->points[i].mean_log < S->points[best].mean_log))
			best = i;
	return best;
}
