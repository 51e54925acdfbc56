/* report-html.c - `vmtune report --html FILE`: one self-contained page (inline SVG,
 * no script, no request to anywhere) with the charts of a stored run, drawn by
 * gnuplot's SVG terminal. Each chart's data goes to gnuplot as an inline data
 * block of numbers; its titles are fixed words and knob names from the catalogue.
 * What came from the store (workload specs, host names) reaches the page only
 * HTML-escaped. A chart that has nothing to draw says what is missing instead. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "html.h"
#include "knob.h"
#include "search-int.h"
#include "stats.h"
#include "text.h"
#include "vmtune.h"

static bool searched(const struct obs *ob)
{
	return ob->kind == TK_CANDIDATE || ob->kind == TK_REPEAT;
}

/* The original's baseline runs, each relative to their geometric mean (the cost
 * they would have as a trial): their spread is the noise a trial stands in. */
static int baseline_costs(const struct run_view *v, double *c, int *at)
{
	const struct search *S = &v->S;
	double gm[SEARCH_MAX_WORKLOADS] = { 0 }, wsum = 0;
	int n[SEARCH_MAX_WORKLOADS] = { 0 }, i, w, k = 0;

	for (i = 0; i < S->nobs; i++)
		for (w = 0; w < v->o.nwl; w++)
			if (S->obs[i].kind == TK_BASELINE && !S->obs[i].failed && S->obs[i].metric[w] > 0) {
				gm[w] += log(S->obs[i].metric[w]);
				n[w]++;
			}
	for (w = 0; w < v->o.nwl; w++) {
		if (!n[w])
			return 0;
		gm[w] /= n[w];
		wsum += v->o.wl[w].weight;
	}
	for (i = 0; i < S->nobs; i++) {
		double l = 0;
		if (S->obs[i].kind != TK_BASELINE || S->obs[i].failed)
			continue;
		for (w = 0; w < v->o.nwl; w++) {
			double r = log(S->obs[i].metric[w]) - gm[w];
			l += v->o.wl[w].weight / wsum * (v->o.wl[w].maximize ? -r : r);
		}
		c[k] = exp(l);
		at[k++] = i + 1;
	}
	return k;
}

static int chart_trials(struct html *h)
{
	const struct search *S = &((struct run_view *)h->ctx)->S;
	struct gpbuf b = { 0 };
	double bc[MAX_OBS], best = HUGE_VAL, top = 1, lo = HUGE_VAL, hi = -HUGE_VAL;
	int bat[MAX_OBS], nb = baseline_costs(h->ctx, bc, bat), nt = 0, nf = 0, last = 0, i;

	for (i = 0; i < S->nobs; i++)
		if (searched(&S->obs[i])) {
			last = i + 1;
			if (S->obs[i].failed)
				nf++;
			else {
				nt++;
				top = fmax(top, S->obs[i].score);
			}
		}
	if (!nt && !nf) {
		html_missing(h, "chart-trials", "The cost of every trial",
			     "No trial of candidate settings was stored.");
		return 0;
	}
	for (i = 0; i < nb; i++) {
		lo = fmin(lo, bc[i]);
		hi = fmax(hi, bc[i]);
		last = bat[i] > last ? bat[i] : last;
	}
	html_figure_open(h, "chart-trials", "The cost of every trial, in order");
	gpbuf_printf(&b, "$t << EOD\n");
	for (i = 0; i < S->nobs; i++)
		if (searched(&S->obs[i]) && !S->obs[i].failed)
			gpbuf_printf(&b, "%d %.6g\n", i + 1, S->obs[i].score);
	gpbuf_printf(&b, "EOD\n$f << EOD\n");
	for (i = 0; i < S->nobs; i++)
		if (searched(&S->obs[i]) && S->obs[i].failed)
			gpbuf_printf(&b, "%d %.6g\n", i + 1, top * 1.1);
	gpbuf_printf(&b, "EOD\n$best << EOD\n");
	for (i = 0; i < S->nobs; i++)
		if (searched(&S->obs[i]) && !S->obs[i].failed) {
			best = fmin(best, S->obs[i].score);
			gpbuf_printf(&b, "%d %.6g\n", i + 1, best);
		}
	gpbuf_printf(&b, "EOD\n$base << EOD\n");
	for (i = 0; i < nb; i++)
		gpbuf_printf(&b, "%d %.6g\n", bat[i], bc[i]);
	/* the search's measurements only: the confirmation has a chart of its own */
	gpbuf_printf(&b, "EOD\n$band << EOD\n%d %.6g %.6g\n%d %.6g %.6g\nEOD\n", 0, lo, hi, last + 1, lo, hi);
	gpbuf_printf(&b,
		     "set xlabel 'measurement (in the order they were made)'\n"
		     "set ylabel 'cost relative to the original (lower is better)'\n"
		     "set xrange [0:%d]\nset yrange [*:*]\nplot ",
		     last + 1);
	if (nb >= 2)
		gpbuf_printf(&b, "$band using 1:2:3 with filledcurves fc rgb '#dddddd' fs solid 0.6 "
				 "title 'spread of the original settings (baseline runs)', ");
	if (nb)
		gpbuf_printf(&b, "$base using 1:2 with points pt 1 ps 0.8 lc rgb '#777777' title 'baseline run (%d)', ",
			     nb);
	if (nt)
		gpbuf_printf(&b,
			     "$t using 1:2 with points pt 7 ps 0.6 lc rgb '#1f77b4' title 'trial (%d)', "
			     "$best using 1:2 with steps lw 2 lc rgb '#2ca02c' title 'best so far', ",
			     nt);
	if (nf)
		gpbuf_printf(&b, "$f using 1:2 with points pt 2 ps 1 lc rgb '#d62728' title 'failed (%d)', ", nf);
	b.s[b.len - 2] = '\n';
	b.s[b.len - 1] = '\0';
	if (html_draw_buf(h, &b) < 0)
		return -1;
	html_out(
	    h,
	    "<p>Each point is one measurement of candidate settings, scored against the original settings' "
	    "baseline runs around it. %d trial(s), %d failed (drawn at the top), %d baseline run(s).</p>\n</figure>\n",
	    nt, nf, nb);
	return 0;
}

static int chart_knobs(struct html *h)
{
	struct run_view *v = h->ctx;
	struct search *S = &v->S;
	struct gp gp;
	bool model = fit_model(S, &gp) == 0;
	double x[SPACE_MAX + MACHINE_NFEAT];
	int d, i;

	for (d = 0; d < S->sp.d; d++) {
		const struct space_dim *dm = &S->sp.dim[d];
		struct gpbuf b = { 0 };
		char id[64], title[200], val[64];
		int n = 0;

		snprintf(id, sizeof(id), "chart-knob-%d", d + 1);
		snprintf(title, sizeof(title), "%s: measured points and the model", dm->def->name);
		html_figure_open(h, id, title);
		gpbuf_printf(&b, "$m << EOD\n");
		for (i = 0; i < S->nobs; i++)
			if (searched(&S->obs[i]) && !S->obs[i].failed) {
				long val_i = S->points[S->obs[i].point].vals[d];
				gpbuf_printf(&b, "%ld %.6g\n", dm->categorical ? val_i - dm->lo : val_i,
					     S->obs[i].score);
				n++;
			}
		gpbuf_printf(&b, "EOD\n$p << EOD\n");
		if (model) {
			model_x(S, v->rec, x);
			gp_knob_curve(&b, &gp, dm, d, x);
		}
		gpbuf_printf(&b, "EOD\n");
		gp_knob_axis(&b, dm);
		gpbuf_printf(&b, "plot ");
		if (model)
			gpbuf_printf(&b, dm->categorical
					     ? "$p using 1:2:3:4 with yerrorbars pt 5 ps 0.8 lc rgb '#ff7f0e' title "
					       "'model: mean and 95%% band', "
					     : "$p using 1:3:4 with filledcurves fc rgb '#ffdd99' fs solid 0.5 title "
					       "'model: 95%% band', "
					       "$p using 1:2 with lines lw 2 lc rgb '#ff7f0e' title 'model: mean', ");
		gpbuf_printf(&b, "$m using 1:2 with points pt 7 ps 0.6 lc rgb '#1f77b4' title 'measured (%d)'\n", n);
		if (!n && !model) {
			free(b.s);
			html_out(h, "<p class=\"missing\">No successful trial to draw and no model (too few "
				    "points).</p>\n</figure>\n");
			continue;
		}
		if (html_draw_buf(h, &b) < 0) {
			if (model)
				gp_free(&gp);
			return -1;
		}
		html_out(h,
			 "<p>The model's prediction across the knob's range with the other knobs at the recommended "
			 "settings (recommended: %s; original: ",
			 knob_format_value(dm->def, v->rec[d], val, sizeof(val)));
		html_out(h,
			 "%s). The measured points had the other knobs where the search put them.%s</p>\n</figure>\n",
			 knob_format_value(dm->def, dm->original, val, sizeof(val)),
			 model ? "" : " Too few points for a model.");
	}
	if (model)
		gp_free(&gp);
	return 0;
}

/* The first workload's metric (the score for a mix) of each side's runs. */
static int side_values(const struct run_view *v, int side, double *y, int max)
{
	const struct search *S = &v->S;
	int i, n = 0;
	bool mix = v->o.nwl > 1;

	for (i = 0; i < S->nobs && n < max; i++) {
		const struct obs *ob = &S->obs[i];
		bool confirmed = false;
		for (int j = 0; j < S->nobs && !confirmed; j++)
			confirmed = S->obs[j].kind == TK_CONFIRM_BASELINE;
		if (ob->failed)
			continue;
		if (side == 0 ? (confirmed ? ob->kind == TK_CONFIRM_BASELINE : ob->kind == TK_BASELINE)
			      : (v->rec_point > 0 && ob->point == v->rec_point &&
				 (confirmed ? ob->kind == TK_CONFIRM : searched(ob))))
			y[n++] = mix ? ob->score : ob->metric[0];
	}
	return n;
}

static int chart_confirm(struct html *h)
{
	struct run_view *v = h->ctx;
	double a[MAX_OBS], c[MAX_OBS];
	int na, nc, i;
	bool confirmed = false;
	struct gpbuf b = { 0 };
	char metric[64];

	for (i = 0; i < v->S.nobs && !confirmed; i++)
		confirmed = v->S.obs[i].kind == TK_CONFIRM_BASELINE;
	if (v->rec_point <= 0 || !v->has_result) {
		html_missing(h, "chart-confirm", "Original against recommended",
			     !v->has_result ? "The run did not finish: nothing was confirmed."
			     : v->refused[0]
				 ? "The recommended settings are the original ones: what was shown better was refused "
				   "(see the decision), so there is nothing to set against them."
				 : "The recommended settings are the original ones: nothing beat them, so there is "
				   "nothing to set against them.");
		return 0;
	}
	na = side_values(v, 0, a, MAX_OBS);
	nc = side_values(v, 1, c, MAX_OBS);
	if (!na || !nc) {
		html_missing(h, "chart-confirm", "Original against recommended",
			     "No completed run of one of the two sides.");
		return 0;
	}
	html_figure_open(h, "chart-confirm",
			 confirmed ? "The confirmation: original against recommended, every run"
				   : "Original against recommended, every run (no confirmation rounds were run)");
	gpbuf_printf(&b, "$a << EOD\n");
	for (i = 0; i < na; i++)
		gpbuf_printf(&b, "%.6g %.6g\n", 1 + 0.3 * ((i % 7) - 3) / 7.0, a[i]);
	gpbuf_printf(&b, "EOD\n$c << EOD\n");
	for (i = 0; i < nc; i++)
		gpbuf_printf(&b, "%.6g %.6g\n", 2 + 0.3 * ((i % 7) - 3) / 7.0, c[i]);
	gpbuf_printf(&b, "EOD\n");
	gpbuf_printf(&b, "set xrange [0.4:2.6]\nset xtics ('original' 1, 'recommended' 2)\nset ylabel '%s'\n",
		     v->o.nwl > 1 ? "score (cost relative to the original)"
				  : gp_word(v->o.wl[0].metric, metric, sizeof(metric)));
	gpbuf_printf(&b,
		     "plot $a using 1:2 with points pt 7 ps 0.8 lc rgb '#777777' title 'original (%d)', "
		     "$c using 1:2 with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'recommended (%d)'\n",
		     na, nc);
	if (html_draw_buf(h, &b) < 0)
		return -1;
	if (v->has_result && v->significant)
		html_out(h,
			 "<p>The change of the cost with the recommended settings: %+.1f%%, 95%% confidence interval "
			 "%+.1f%% .. %+.1f%% (paired rounds; the interval holds over every look and finalist).</p>\n",
			 v->change_pct, v->ci_lo, v->ci_hi);
	else
		html_out(h, "<p>No change was shown to be significant: the run kept the original settings%s.</p>\n",
			 v->has_result ? "" : " (it did not finish)");
	html_out(h, "</figure>\n");
	return 0;
}

static int chart_probe(struct html *h)
{
	struct run_view *v = h->ctx;
	const struct search *S = &v->S;
	struct gpbuf b = { 0 };
	int i, j, n = 0, nd = 0, np[2] = { 0 };

	if (!v->o.probe) {
		html_missing(h, "chart-probe", "Throughput against interactivity",
			     "This run had no interactivity probe (search --probe), so there is no lateness to show.");
		html_missing(h, "chart-lateness", "The probe's lateness, original against recommended",
			     "No probe: nothing to show.");
		return 0;
	}
	html_figure_open(h, "chart-probe", "Throughput against interactivity, every setting tried");
	gpbuf_printf(&b, "$p << EOD\n");
	for (i = 1; i < S->npoints; i++)
		if (S->points[i].nobs && isfinite(S->points[i].mean_log_t) && isfinite(S->points[i].mean_log_i)) {
			gpbuf_printf(&b, "%.6g %.6g\n", exp(S->points[i].mean_log_t), exp(S->points[i].mean_log_i));
			n++;
		}
	gpbuf_printf(&b, "EOD\n$d << EOD\n");
	for (i = 1; i < S->npoints; i++) {
		const struct point *a = &S->points[i];
		bool dom = false;
		if (!a->nobs || !isfinite(a->mean_log_t) || !isfinite(a->mean_log_i))
			continue;
		for (j = 1; j < S->npoints && !dom; j++) {
			const struct point *c = &S->points[j];
			dom = j != i && c->nobs && isfinite(c->mean_log_t) && isfinite(c->mean_log_i) &&
			      c->mean_log_t <= a->mean_log_t && c->mean_log_i <= a->mean_log_i &&
			      (c->mean_log_t < a->mean_log_t || c->mean_log_i < a->mean_log_i);
		}
		if (!dom) {
			gpbuf_printf(&b, "%.6g %.6g\n", exp(a->mean_log_t), exp(a->mean_log_i));
			nd++;
		}
	}
	gpbuf_printf(&b, "EOD\nset xlabel 'throughput cost (relative to the original)'\n"
			 "set ylabel 'interactive cost (probe p99 lateness, relative)'\n");
	if (!n) {
		free(b.s);
		html_out(h, "<p class=\"missing\">No trial has both sides measured.</p>\n</figure>\n");
	} else {
		gpbuf_printf(&b,
			     "plot $p using 1:2 with points pt 7 ps 0.6 lc rgb '#1f77b4' title 'setting tried (%d)', "
			     "$d using 1:2 with points pt 6 ps 1.6 lw 2 lc rgb '#d62728' title 'not dominated (%d)'\n",
			     n, nd);
		if (html_draw_buf(h, &b) < 0)
			return -1;
		html_out(
		    h, "<p>Lower is better on both axes; the circled settings are beaten on both sides by no other.</p>"
		       "\n</figure>\n");
	}
	html_figure_open(h, "chart-lateness", "The probe's p99 lateness, original against recommended");
	gpbuf_printf(&b, "$l << EOD\n");
	for (int side = 0; side < 2; side++) {
		for (i = 0; i < v->nm; i++) {
			const struct view_meas *m = &v->m[i];
			if (m->wl == 0 && view_meas_side(v, m, side) && isfinite(m->p99)) {
				gpbuf_printf(&b, "%.6g %.6g\n", side + 1 + 0.3 * ((np[side] % 7) - 3) / 7.0, m->p99);
				np[side]++;
			}
		}
		gpbuf_printf(&b, "EOD\n%s", side == 0 ? "$r << EOD\n" : "");
	}
	if (!np[0] && !np[1]) {
		free(b.s);
		html_out(h, "<p class=\"missing\">The probe reported no lateness in these runs.</p>\n</figure>\n");
		return 0;
	}
	gpbuf_printf(&b,
		     "set xrange [0.4:2.6]\nset xtics ('original' 1, 'recommended' 2)\nset ylabel 'p99 lateness (ms)'\n"
		     "plot $l using 1:2 with points pt 7 ps 0.8 lc rgb '#777777' title 'original (%d)', "
		     "$r using 1:2 with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'recommended (%d)'\n",
		     np[0], np[1]);
	if (html_draw_buf(h, &b) < 0)
		return -1;
	html_out(h, "<p>One point per run of the first workload with the probe beside it.</p>\n</figure>\n");
	return 0;
}

/* The longest run of a side that kept a series, or -1. */
static int series_run(const struct run_view *v, int side)
{
	int i, best = -1;

	for (i = 0; i < v->nm; i++)
		if (v->m[i].nser > 0 && v->m[i].wl == 0 && view_meas_side(v, &v->m[i], side) &&
		    (best < 0 || v->m[i].nser > v->m[best].nser))
			best = i;
	return best;
}

static int chart_series(struct html *h)
{
	struct run_view *v = h->ctx;
	int r[2] = { series_run(v, 0), v->rec_point > 0 ? series_run(v, 1) : -1 }, side, i;
	struct gpbuf b = { 0 };
	double tmax = 1;

	if (r[0] < 0 && r[1] < 0) {
		html_missing(
		    h, "chart-series", "vmstat and PSI during a run",
		    "No series of the machine was stored with these runs (runs stored before vmtune kept them).");
		return 0;
	}
	html_figure_open(h, "chart-series", "vmstat and PSI during a run: original (above) and recommended (below)");
	for (side = 0; side < 2; side++)
		if (r[side] >= 0)
			tmax = fmax(tmax, v->m[r[side]].ser[v->m[r[side]].nser - 1].t);
	for (side = 0; side < 2; side++) {
		gpbuf_printf(&b, "$s%d << EOD\n", side);
		if (r[side] >= 0)
			for (i = 0; i < v->m[r[side]].nser; i++) {
				const struct vm_point *p = &v->m[r[side]].ser[i];
				gpbuf_printf(&b, "%.3f %.6g %.6g %.6g %.6g\n", (double)p->t, (double)p->si,
					     (double)p->so, (double)p->free_mb,
					     isfinite(p->psi_some) ? (double)p->psi_some : 0.0);
			}
		gpbuf_printf(&b, "EOD\n");
	}
	gpbuf_printf(
	    &b,
	    "set multiplot layout 2,1\nset xrange [0:%.3f]\n"
	    "set ylabel 'pages/s; stall ms/s'\nset y2label 'free memory (MiB)'\nset y2tics\nset ytics nomirror\n",
	    tmax * 1.02);
	for (side = 0; side < 2; side++) {
		gpbuf_printf(&b, "set title '%s'\nset xlabel '%s'\n",
			     side ? (r[1] >= 0 ? "recommended settings" : "recommended settings: no series")
				  : (r[0] >= 0 ? "original settings" : "original settings: no series"),
			     side ? "seconds since the run started" : "");
		if (r[side] < 0) {
			gpbuf_printf(&b,
				     "set key off\nset label 1 '%s' at graph 0.5, 0.5 center\nset yrange [0:1]\n"
				     "unset y2tics\nunset y2label\nplot 2 notitle\nunset label 1\nset key on\n"
				     "set yrange [*:*]\nset y2tics\nset y2label 'free memory (MiB)'\n",
				     side && v->rec_point <= 0 ? "the original settings were kept: no other side"
							       : "no series was stored for these runs");
			continue;
		}
		gpbuf_printf(
		    &b,
		    "plot $s%d using 1:2 with linespoints pt 7 ps 0.3 lc rgb '#1f77b4' title 'si (%d)', "
		    "$s%d using 1:3 with linespoints pt 7 ps 0.3 lc rgb '#d62728' title 'so (%d)', "
		    "$s%d using 1:5 with linespoints pt 7 ps 0.3 lc rgb '#9467bd' title 'PSI some (%d)', "
		    "$s%d using 1:4 axes x1y2 with linespoints pt 7 ps 0.3 lc rgb '#2ca02c' title 'free (%d)'\n",
		    side, v->m[r[side]].nser, side, v->m[r[side]].nser, side, v->m[r[side]].nser, side,
		    v->m[r[side]].nser);
	}
	gpbuf_printf(&b, "unset multiplot\n");
	if (html_draw_buf_h(h, &b, 640) < 0)
		return -1;
	html_out(h,
		 "<p>The machine during the longest stored run of each side (one point per second of the run, "
		 "thinned in runs over %d s): swap-in and swap-out pages per second, PSI memory stall (some) per "
		 "second, and free memory.</p>\n</figure>\n",
		 SAMPLER_SERIES_MAX);
	return 0;
}

static void header(struct html *h)
{
	struct run_view *v = h->ctx;
	const struct search *S = &v->S;
	char a[64], b[64], buf[1200];
	int i, failed = 0;

	for (i = 0; i < S->nobs; i++)
		failed += S->obs[i].failed;
	html_out(h, "<table>\n<tr><th>status</th><td>");
	html_esc(h->f, v->status);
	html_out(h, "</td></tr>\n<tr><th>started</th><td>");
	html_esc(h->f, v->started);
	html_out(h, "%s", v->finished[0] ? ", finished " : "");
	html_esc(h->f, v->finished);
	html_out(h, "</td></tr>\n<tr><th>machine</th><td>");
	if (v->has_machine) {
		html_esc(h->f, v->m_machine.hostname);
		html_out(h, ", kernel ");
		html_esc(h->f, v->m_machine.kernel);
		html_out(h, ", %d CPUs, %ld MiB memory, %ld MiB swap", v->m_machine.cpus,
			 v->m_machine.mem_total_kb / 1024, v->m_machine.swap_total_kb / 1024);
	} else {
		html_out(h, "not recorded");
	}
	html_out(h, "</td></tr>\n");
	for (i = 0; i < v->o.nwl; i++) {
		html_out(h, "<tr><th>workload</th><td><code>");
		html_esc(h->f, v->o.wl[i].spec);
		html_out(h, "</code> (");
		html_esc(h->f, v->o.wl[i].metric);
		html_out(h, ", %s is better)</td></tr>\n", v->o.wl[i].maximize ? "higher" : "lower");
	}
	html_out(h, "<tr><th>probe</th><td>");
	if (v->o.probe) {
		html_out(h, "<code>");
		html_esc(h->f, v->o.probe);
		html_out(h, "</code>, objective %s", objective_name(v->o.objective));
	} else {
		html_out(h, "none: interactivity was not measured");
	}
	html_out(h, "</td></tr>\n<tr><th>budget</th><td>%d trials", v->o.trials);
	if (v->o.time_budget > 0)
		html_out(h, ", %.0f s", v->o.time_budget);
	html_out(h,
		 ", strategy %s</td></tr>\n<tr><th>trials</th><td>%d settings tried, %d measurements, %d failed"
		 "</td></tr>\n",
		 strategy_name(v->o.strategy), S->trials_done, S->nobs, failed);
	html_out(h, "<tr><th>decision</th><td>");
	if (!v->has_result)
		html_out(h, "none: the run is %s (the recommended column is the best so far, not confirmed)",
			 strcmp(v->status, "interrupted") == 0 ? "interrupted" : "not finished");
	else if (v->significant)
		html_out(h, "significant: %+.1f%% of the cost (95%% CI %+.1f%% .. %+.1f%%)", v->change_pct, v->ci_lo,
			 v->ci_hi);
	else
		html_out(h, "%s", view_decision(v));
	if (v->check) {
		json_object *x;
		html_out(h, "</td></tr>\n<tr><th>check</th><td>");
		if (json_object_object_get_ex(v->check, "workload", &x) && json_object_is_type(x, json_type_string))
			html_esc(h->f, json_object_get_string(x));
		html_out(h, ": ");
		if (json_object_object_get_ex(v->check, "verdict", &x) && json_object_is_type(x, json_type_string))
			html_esc(h->f, json_object_get_string(x));
		if (json_object_object_get_ex(v->check, "change_pct", &x) && json_object_is_type(x, json_type_double))
			html_out(h, ", %+.1f%% of the cost", json_object_get_double(x));
		if (!strcmp(v->refused, "check"))
			html_out(h, ": the recommendation was refused");
	}
	html_out(
	    h, "</td></tr>\n</table>\n<h2>Settings</h2>\n<table>\n<tr><th>knob</th><th>original</th>"
	       "<th>recommended</th><th>putting it back costs</th><th>range searched</th><th>sensitivity</th></tr>\n");
	for (i = 0; i < S->sp.d; i++) {
		const struct space_dim *dm = &S->sp.dim[i];
		html_out(h, "<tr><td>%s</td><td>%s</td>", dm->def->name,
			 knob_format_value(dm->def, dm->original, a, sizeof(a)));
		html_out(h, "<td>%s</td><td>", knob_format_value(dm->def, v->rec[i], a, sizeof(a)));
		{
			/* numbers only from the stored row: its texts are not printed */
			json_object *kn, *e, *x;
			double pc = NAN, lo = NAN, hi = NAN;
			if (v->ablation && json_object_object_get_ex(v->ablation, "knobs", &kn) &&
			    json_object_object_get_ex(kn, dm->def->name, &e)) {
				if (json_object_object_get_ex(e, "share_pct", &x))
					pc = json_object_get_double(x);
				if (json_object_object_get_ex(e, "share_lo", &x))
					lo = json_object_get_double(x);
				if (json_object_object_get_ex(e, "share_hi", &x))
					hi = json_object_get_double(x);
			}
			if (isfinite(pc) && isfinite(lo) && isfinite(hi))
				html_out(h, "%+.1f%% (%+.1f .. %+.1f%%)%s", pc, lo, hi,
					 v->rec[i] == dm->original ? ", put back" : "");
			else
				html_out(h, "-");
		}
		html_out(h, "</td><td>%s .. %s</td><td>", knob_format_value(dm->def, dm->lo, a, sizeof(a)),
			 knob_format_value(dm->def, dm->hi, b, sizeof(b)));
		html_out(h, "%s", sens_format(&v->sens[i], a, sizeof(a)));
		html_out(h, "</td></tr>\n");
	}
	html_out(
	    h, "</table>\n<p>Sensitivity: the change of the cost between the knob's worst and best value, by a "
	       "least-squares fit of each knob's main effect to the runs measured, with its 95%% band; none found: the "
	       "band reaches no change. Putting it back costs: the paired change of the cost when the knob goes "
	       "back to its original value, measured by the walk back to the smallest change (for the last change "
	       "standing, the whole gain).</p>\n");
	if (v->guards) {
		static const char *const names[] = { "footprint", "swapout", "majflt", "psi", "p99", "played" };
		html_out(h, "<h2>Guards</h2>\n<table>\n<tr><th>guard</th><th>original</th><th>recommended</th>"
			    "<th>change (95%% CI)</th><th>limit broken</th></tr>\n");
		for (size_t g = 0; g < sizeof(names) / sizeof(names[0]); g++) {
			json_object *e, *x;
			double o = NAN, r = NAN, c = NAN, lo = NAN, hi = NAN;
			bool broken = false;
			if (!json_object_object_get_ex(v->guards, names[g], &e))
				continue;
			if (json_object_object_get_ex(e, "original", &x))
				o = json_object_get_double(x);
			if (json_object_object_get_ex(e, "recommended", &x))
				r = json_object_get_double(x);
			if (json_object_object_get_ex(e, "change_pct", &x))
				c = json_object_get_double(x);
			if (json_object_object_get_ex(e, "ci95_pct_lo", &x))
				lo = json_object_get_double(x);
			if (json_object_object_get_ex(e, "ci95_pct_hi", &x))
				hi = json_object_get_double(x);
			if (json_object_object_get_ex(e, "broken", &x))
				broken = json_object_get_boolean(x);
			html_out(h,
				 "<tr><td>%s</td><td>%.4g</td><td>%.4g</td><td>%+.1f%% (%+.1f .. "
				 "%+.1f%%)</td><td>%s</td></tr>\n",
				 names[g], o, r, c, lo, hi, broken ? "yes" : "no");
		}
		html_out(h, "</table>\n");
	}
	(void)buf;
}

int run_view_html(struct run_view *v, const char *path)
{
	struct html h = { .ctx = v };
	char title[64];
	int rc;

	snprintf(title, sizeof(title), "vmtune run %ld", v->id);
	if ((rc = html_open(&h, path, title)) != 0)
		return rc;
	header(&h);
	html_out(&h, "<h2>Charts</h2>\n");
	if (chart_trials(&h) < 0 || chart_knobs(&h) < 0 || chart_confirm(&h) < 0 || chart_probe(&h) < 0 ||
	    chart_series(&h) < 0)
		rc = EXIT_ENV;
	return html_close(&h, rc);
}
