/* search-guard.c - what a change costs besides the metric. Every run records the
 * workload's peak footprint (memory and swap of its cgroup at their peak, or its
 * largest resident set where the kernel keeps no peak), the swap-out, the major
 * faults, the memory stall time (PSI) and the probe's p99 lateness and share
 * played. How each moved with a setting is measured in the confirmation's paired
 * rounds: the mean paired difference against the original's run of the same round,
 * relative to the original's mean (below a floor, the floor: 1 MB of footprint or
 * swap-out, 10 faults, 10 ms of stall, 5 ms of lateness, so that a change from
 * nothing to a trace is not read as a ratio), with its 95% t interval. A limit is
 * broken when the estimate lies past it: a setting recommended has to look harmless
 * on the runs that confirmed it, not merely not be shown harmful. */
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "search-int.h"
#include "size.h"
#include "text.h"
#include "vmtune.h"

static const struct {
	const char *name, *unit, *what;
	double floor;
} guards[GUARD_NWHAT] = {
	[GUARD_FOOTPRINT] = { "footprint", "MB", "peak memory+swap", 1 },
	[GUARD_SWAPOUT] = { "swapout", "MB", "swapped out", 1 },
	[GUARD_MAJFLT] = { "majflt", "", "major faults", 10 },
	[GUARD_PSI] = { "psi", "ms", "memory stall (PSI some)", 10 },
	[GUARD_P99] = { "p99", "ms", "probe p99 lateness", 5 },
	[GUARD_PLAYED] = { "played", "", "probe played", 0.01 },
};

const char *guard_name(enum guard_what w)
{
	return w < GUARD_NWHAT ? guards[w].name : "?";
}

const char *guard_unit(enum guard_what w)
{
	return w < GUARD_NWHAT ? guards[w].unit : "";
}

const char *guard_format(enum guard_what w, double v, char *buf, size_t size)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else if (w == GUARD_PLAYED)
		snprintf(buf, size, "%.1f%%", 100 * v);
	else
		snprintf(buf, size, "%.4g%s%s", v, guards[w].unit[0] ? " " : "", guards[w].unit);
	return buf;
}

int guard_parse(const char *s, struct guard *g)
{
	const char *op = strpbrk(s, "<>");
	char name[32], *end;
	size_t n;
	int w;

	memset(g, 0, sizeof(*g));
	snprintf(g->text, sizeof(g->text), "%s", s);
	if (!op || op == s || (op[1] != '=') || (n = (size_t)(op - s)) >= sizeof(name))
		return error("guard '%s': expected NAME<=LIMIT or NAME>=LIMIT, e.g. footprint<=+10%% or played>=0.99",
			     s);
	memcpy(name, s, n);
	name[n] = '\0';
	if (strcmp(name, "p99_lateness") == 0)
		snprintf(name, sizeof(name), "p99");
	for (w = 0; w < GUARD_NWHAT && strcmp(name, guards[w].name) != 0; w++)
		;
	if (w == GUARD_NWHAT)
		return error("guard '%s': unknown '%s'; guards are footprint, swapout, majflt, psi, p99, played", s,
			     name);
	g->what = (enum guard_what)w;
	g->op = op[0] == '<' ? 'l' : 'g';
	op += 2;
	errno = 0;
	n = strlen(op);
	if (n > 1 && op[n - 1] == '%') {
		g->relative = true;
		g->limit = strtod(op, &end) / 100;
		if (errno || end == op || end != op + n - 1 || !isfinite(g->limit) || g->limit <= -1)
			return error("guard '%s': '%s' is not a percentage such as +10%%", s, op);
		return 0;
	}
	if (g->what == GUARD_FOOTPRINT || g->what == GUARD_SWAPOUT) {
		uint64_t b;
		char why[128];
		if (parse_size(op, &b, why, sizeof(why)) < 0)
			return error("guard '%s': %s", s, why);
		g->limit = (double)b / (1 << 20);
		return 0;
	}
	g->limit = strtod(op, &end);
	if (errno || end == op || !isfinite(g->limit) ||
	    (*end && !(strcmp(end, "ms") == 0 && (g->what == GUARD_P99 || g->what == GUARD_PSI))))
		return error("guard '%s': '%s' is not a number%s", s, op,
			     g->what == GUARD_P99 || g->what == GUARD_PSI ? " (ms may follow)" : "");
	return 0;
}

int search_default_guards(struct guard *g, int max, bool probe)
{
	int n = 0;

	if (n < max && guard_parse("footprint<=+10%", &g[n]) == 0)
		g[n++].dflt = true;
	if (probe && n < max && guard_parse("p99<=+25%", &g[n]) == 0)
		g[n++].dflt = true;
	return n;
}

void guard_values(const struct search *S, const struct run_result *r, double *g)
{
	double peak = run_value(r, "sys.peak_kb"), so = run_value(r, "sys.so_pages");

	(void)S;
	g[GUARD_FOOTPRINT] = (isfinite(peak) && peak > 0 ? peak : (double)r->maxrss_kb) / 1024;
	g[GUARD_SWAPOUT] = isfinite(so) ? so * (double)sysconf(_SC_PAGESIZE) / (1 << 20) : NAN;
	g[GUARD_MAJFLT] = (double)r->majflt;
	g[GUARD_PSI] = run_value(r, "sys.psi_some_ms");
	g[GUARD_P99] = run_value(r, "probe.p99_lateness_ms");
	g[GUARD_PLAYED] = run_value(r, "probe.played");
}

/* Over the workloads of a mix: the largest footprint and lateness, the least share
 * played, the sums of the rest. */
void guard_sum(double *acc, const double *g, int w)
{
	for (int k = 0; k < GUARD_NWHAT; k++) {
		if (w == 0 || !isfinite(acc[k]) || !isfinite(g[k]))
			acc[k] = w == 0 ? g[k] : NAN;
		else if (k == GUARD_FOOTPRINT || k == GUARD_P99)
			acc[k] = fmax(acc[k], g[k]);
		else if (k == GUARD_PLAYED)
			acc[k] = fmin(acc[k], g[k]);
		else
			acc[k] += g[k];
	}
}

static bool limit_broken(const struct guard *g, const struct guard_move *m)
{
	double v = g->relative ? m->change : m->cand;

	return g->op == 'l' ? v > g->limit : v < g->limit;
}

bool guard_moves(const struct search *S, int first, int p, enum trial_kind base, enum trial_kind cand,
		 struct guard_move *gm)
{
	bool broken = false;

	for (int k = 0; k < GUARD_NWHAT; k++) {
		struct guard_move *m = &gm[k];
		double sb = 0, sc = 0, sd = 0, sdd = 0, denom, half;
		int j, b = -1, n = 0;

		memset(m, 0, sizeof(*m));
		m->limit = -1;
		m->change = m->lo = m->hi = m->base = m->cand = NAN;
		for (j = first; j < S->nobs; j++) {
			const struct obs *ob = &S->obs[j];
			double d;
			if (ob->kind == base && ob->point == 0) {
				b = ob->failed || !isfinite(ob->guard[k]) ? -1 : j;
				continue;
			}
			if (ob->kind != cand || ob->point != p || ob->failed || b < 0 || !isfinite(ob->guard[k]))
				continue;
			d = ob->guard[k] - S->obs[b].guard[k];
			sb += S->obs[b].guard[k];
			sc += ob->guard[k];
			sd += d;
			sdd += d * d;
			n++;
			b = -1; /* one pair per round */
		}
		if (n < 2)
			continue;
		m->have = true;
		m->pairs = n;
		m->base = sb / n;
		m->cand = sc / n;
		denom = fmax(fabs(m->base), guards[k].floor);
		m->change = sd / n / denom;
		half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(fmax(0, (sdd - sd * sd / n) / (n - 1)) / n) / denom;
		m->lo = m->change - half;
		m->hi = m->change + half;
		for (int q = 0; q < S->o->nguard; q++) {
			const struct guard *g = &S->o->guard[q];
			if (g->what != (enum guard_what)k)
				continue;
			if (m->limit < 0)
				m->limit = q;
			if (limit_broken(g, m)) {
				m->limit = q;
				m->broken = true;
			}
		}
		broken |= m->broken;
	}
	return broken;
}

json_object *guards_json(const struct search *S, const struct confirm *c)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < GUARD_NWHAT; k++) {
		const struct guard_move *m = &c->guards[k];
		json_object *x;
		if (!m->have)
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "unit", json_object_new_string(guards[k].unit));
		json_object_object_add(x, "original", json_number(m->base));
		json_object_object_add(x, "recommended", json_number(m->cand));
		json_object_object_add(x, "change_pct", json_number(100 * m->change));
		json_object_object_add(x, "ci95_pct_lo", json_number(100 * m->lo));
		json_object_object_add(x, "ci95_pct_hi", json_number(100 * m->hi));
		json_object_object_add(x, "pairs", json_object_new_int(m->pairs));
		if (m->limit >= 0)
			json_object_object_add(x, "limit", json_object_new_string(S->o->guard[m->limit].text));
		json_object_object_add(x, "broken", json_object_new_boolean(m->broken));
		json_object_object_add(o, guards[k].name, x);
	}
	return o;
}
