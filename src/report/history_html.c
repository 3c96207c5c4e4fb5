// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/history_html.c: `schedlab history --format html` - one
 * self-contained page: per case of the job a plot drawn by gnuplot
 * (report/plot.h) of every run's median with its IQR and min-max, the
 * segments' levels and the change points marked, then the table of the
 * runs with the change points between them, and the change points in
 * words. Without gnuplot the page has its tables and says why there is
 * no plot.
 */
#include <math.h>
#include <string.h>

#include "report/render_history.h"
#include "report/html.h"
#include "report/plot.h"
#include "util.h"

static const char *css =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1150px;color:#222;line-height:1.35}"
	"h1{font-size:1.5em;border-bottom:2px solid #444;padding-bottom:.2em}"
	"h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #aaa}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right}"
	"th{background:#f2f2f2}td.l,th.l{text-align:left}"
	"tr.change td{background:#fde0e0;text-align:left;font-weight:bold}"
	"tr.change.better td{background:#dff5e1}"
	".plot svg{max-width:100%;height:auto}.plot{margin:.5em 0}"
	".noplot{border:1px dashed #999;padding:.6em;color:#555;background:#fafafa}"
	"code{background:#f2f2f2;padding:0 .2em}";

static bool worse(const struct history *h, double pct)
{
	return h->metric->better != BETTER_NONE &&
	       (pct > 0) == (h->metric->better == BETTER_LOWER);
}

/* The plot of series k: x the run's place in the order. */
static size_t queue_plot(const struct history *h, size_t k, struct plot_batch *pb)
{
	const struct history_series *s = &h->series[k];
	char title[512];
	size_t id;
	FILE *g;

	if (!s->n)
		return PLOT_NONE;
	g = plot_begin(pb, *s->name ? s->name : h->job, 1000, 420, &id);
	if (!g)
		return PLOT_NONE;
	fprintf(g, "$d%zu_runs << EOD\n", id);
	for (size_t i = 0; i < s->n; i++) {
		const struct history_run *r = &s->runs[i];

		if (isfinite(r->median))
			fprintf(g, "%zu %.9g %.9g %.9g %.9g %.9g\n", i + 1, r->median,
				r->q1, r->q3, r->min, r->max);
	}
	/* each segment's level, from the change points' medians */
	fprintf(g, "EOD\n$d%zu_levels << EOD\n", id);
	for (size_t i = 0; i < s->npoints; i++) {
		const struct cp_point *p = &s->points[i].cp;

		if (!i)
			fprintf(g, "%g %.9g\n%g %.9g\n\n", (double)p->before_from + 0.5,
				p->before, (double)p->index + 0.5, p->before);
		fprintf(g, "%g %.9g\n%g %.9g\n\n", (double)p->index + 0.5, p->after,
			(double)p->after_to + 0.5, p->after);
	}
	fprintf(g, "EOD\n");
	for (size_t i = 0; i < s->npoints; i++) {
		const struct cp_point *p = &s->points[i].cp;
		char lab[64];

		snprintf(lab, sizeof(lab), "%+.1f%%", p->change_pct);
		fprintf(g, "set arrow %zu from first %g, graph 0 to first %g, graph 1 nohead"
			" dt 2 lw 2 lc rgb '%s'\nset label %zu ", i + 1, (double)p->index + 0.5,
			(double)p->index + 0.5, worse(h, p->change_pct) ? "#c62828" : "#1a7f37",
			i + 1);
		plot_quote(g, lab);
		fprintf(g, " at first %g, graph 0.96 left offset 0.5,0\n", (double)p->index + 0.5);
	}
	snprintf(title, sizeof(title), "%s%s%s: %s (%s is better), by %s", h->job,
		 *s->name ? " " : "", s->name, h->metric->name,
		 better_word(h->metric->better), history_by_names[h->by]);
	fprintf(g, "set title ");
	plot_quote(g, title);
	fprintf(g, "\nset xlabel 'run (in order)'\nset ylabel ");
	plot_quote(g, *h->metric->unit ? h->metric->unit : "count");
	fprintf(g, "\nset key outside bmargin center horizontal\nset xrange [0.5:%g]\nset offsets 0, 0, graph 0.08, graph 0.08\n"
		"plot $d%zu_runs using 1:2:5:6 with yerrorbars pt 7 ps 0 lc rgb '#9e9e9e' title 'min-max'"
		", $d%zu_runs using 1:2:3:4 with yerrorbars pt 7 ps 0.7 lw 2 lc rgb '%s' title 'median and IQR'",
		(double)s->n + 0.5, id, id, plot_colour(0));
	if (s->npoints)
		fprintf(g, ", $d%zu_levels using 1:2 with lines lw 2 lc rgb '#555555' title 'level'", id);
	fprintf(g, "\n");
	return id;
}

static void run_cell(FILE *f, const struct history_run *r)
{
	fprintf(f, "run %lld '", (long long)r->c->run_id);
	html_esc(f, r->c->label ? r->c->label : "-");
	fputc('\'', f);
}

/* The runs' table, each change point a marked row between its two runs. */
static void runs_table(FILE *f, const struct history *h, const struct history_series *s)
{
	size_t next = 0;
	int cols = h->by == BY_TIME ? 7 : 8;

	fprintf(f, "<table><tr><th>run</th><th class=\"l\">label</th><th class=\"l\">started (UTC)</th>");
	if (h->by != BY_TIME)
		fprintf(f, "<th class=\"l\">%s</th>", h->by == BY_KERNEL ? "kernel" : "commit");
	fprintf(f, "<th>median</th><th>IQR</th><th>min-max</th><th>n</th></tr>\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct history_run *r = &s->runs[i];
		char when[32];

		if (next < s->npoints && s->points[next].cp.index == i) {
			const struct cp_point *p = &s->points[next++].cp;

			fprintf(f, "<tr class=\"change%s\"><td colspan=\"%d\">change: %+.1f%% "
				"[%+.1f%%, %+.1f%%] p=%.3g</td></tr>\n",
				worse(h, p->change_pct) ? "" : " better", cols, p->change_pct,
				p->lo_pct, p->hi_pct, p->p);
		}
		history_when(r->c->started, when, sizeof(when));
		fprintf(f, "<tr><td>%lld</td><td class=\"l\">", (long long)r->c->run_id);
		html_esc(f, r->c->label ? r->c->label : "-");
		fprintf(f, "</td><td class=\"l\">%s</td>", when);
		if (h->by != BY_TIME) {
			fprintf(f, "<td class=\"l\"><code>");
			html_esc(f, h->by == BY_KERNEL ? r->c->kernel : r->commit);
			fprintf(f, "</code></td>");
		}
		fprintf(f, "<td>%.6g</td><td>%.4g-%.4g</td><td>%.4g-%.4g</td><td>%zu</td></tr>\n",
			r->median, r->q1, r->q3, r->min, r->max, r->c->n);
	}
	fprintf(f, "</table>\n");
}

/* Which runs have which settings, when the series' runs differ in them. */
static void settings_note(FILE *f, const struct history_series *s)
{
	if (!s->nsettings)
		return;
	fprintf(f, "<p class=\"note\">The runs' settings differ:");
	for (size_t k = 0; k < s->nsettings; k++) {
		fprintf(f, " <code>");
		html_esc(f, *s->settings[k].settings ? s->settings[k].settings : "none");
		fprintf(f, "</code> in run%s %s%s",
			strpbrk(s->settings[k].runs, ",-") ? "s" : "",
			s->settings[k].runs, k + 1 < s->nsettings ? ";" : ".");
	}
	fprintf(f, "</p>\n");
}

/* The change points in words, a list item each. */
static void points_list(FILE *f, const struct history *h, const struct history_series *s)
{
	if (!s->npoints)
		return;
	fprintf(f, "<ol>\n");
	for (size_t i = 0; i < s->npoints; i++) {
		const struct history_point *p = &s->points[i];

		fprintf(f, "<li><b>%+.1f%%</b> [%+.1f%%, %+.1f%%] p=%.3g: %.6g &rarr; %.6g ",
			p->cp.change_pct, p->cp.lo_pct, p->cp.hi_pct, p->cp.p, p->cp.before,
			p->cp.after);
		html_esc(f, h->metric->unit);
		fprintf(f, ", between ");
		run_cell(f, p->good);
		fprintf(f, " and ");
		run_cell(f, p->bad);
		if (h->by == BY_KERNEL) {
			fprintf(f, ", kernels <code>");
			html_esc(f, p->good->c->kernel);
			fprintf(f, "</code> &rarr; <code>");
			html_esc(f, p->bad->c->kernel);
			fprintf(f, "</code>");
		}
		if (strcmp(p->good->settings, p->bad->settings)) {
			fprintf(f, ", settings <code>");
			html_esc(f, *p->good->settings ? p->good->settings : "none");
			fprintf(f, "</code> &rarr; <code>");
			html_esc(f, *p->bad->settings ? p->bad->settings : "none");
			fprintf(f, "</code>: the step may be theirs");
		}
		if (p->bisect) {
			fprintf(f, "<br><code>");
			html_esc(f, p->bisect);
			fprintf(f, "</code><br><code>");
			html_esc(f, p->judge);
			fprintf(f, "</code>");
		}
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ol>\n");
}

/* Series s below its plot: its runs, their settings, its change points. */
static void series_table(FILE *f, const struct history *h, const struct history_series *s)
{
	runs_table(f, h, s);
	settings_note(f, s);
	points_list(f, h, s);
}

int render_history_html(FILE *f, const struct history *h, struct plot_batch *pb)
{
	size_t *ids = xcalloc(h->nseries + 1, sizeof(*ids));
	int rc = 0;

	for (size_t k = 0; k < h->nseries; k++)
		ids[k] = queue_plot(h, k, pb);
	if (plot_have(pb) && h->nseries && plot_draw(pb))
		rc = -1;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>schedlab history: ");
	html_esc(f, h->job);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>schedlab history: ", css);
	html_esc(f, h->job);
	fprintf(f, "</h1>\n<p><code>");
	html_esc(f, h->metric->name);
	fprintf(f, "</code> (");
	html_esc(f, h->metric->unit);
	fprintf(f, ", %s is better), by %s, from ", better_word(h->metric->better),
		history_by_names[h->by]);
	html_esc(f, h->db);
	fprintf(f, ". Change points: E-Divisive means on each run's median, alpha %g, at least "
		"%u runs a side (doc/statistics.md).</p>\n", h->cp.alpha, h->min_size);
	if (!plot_have(pb))
		fprintf(f, "<p class=\"noplot\">No plot: gnuplot is not installed here. "
			"<code>%s</code> and run <code>schedlab history --format html</code> again "
			"to get it.</p>\n", PLOT_HOWTO);
	for (size_t k = 0; k < h->nseries; k++) {
		const struct history_series *s = &h->series[k];
		const char *svg = ids[k] == PLOT_NONE ? NULL : plot_svg(pb, ids[k]);

		fprintf(f, "<h2>case ");
		html_esc(f, *s->name ? s->name : "(the job's one)");
		fprintf(f, ": %zu runs, %zu change point%s</h2>\n", s->n, s->npoints,
			s->npoints == 1 ? "" : "s");
		if (s->why) {
			fprintf(f, "<p>No change points looked for: ");
			html_esc(f, s->why);
			fprintf(f, ".</p>\n");
		}
		if (svg)
			fprintf(f, "<div class=\"plot\">%s</div>\n", svg);
		else if (plot_have(pb))
			fprintf(f, "<p class=\"noplot\">The plot could not be drawn (gnuplot failed: see the warning).</p>\n");
		series_table(f, h, s);
	}
	if (h->nleft) {
		fprintf(f, "<p>%zu run%s left out: ", h->nleft, h->nleft == 1 ? "" : "s");
		html_esc(f, h->left_why);
		fprintf(f, ".</p>\n");
	}
	fprintf(f, "</body></html>\n");
	free(ids);
	return rc;
}
