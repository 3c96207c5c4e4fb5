// SPDX-License-Identifier: GPL-2.0-only
/*
 * html: the report page (html.h). Per job: mmtests' rows per sweep
 * value with the percentages against the baseline (bold where the test
 * found the difference significant), each candidate's change, interval,
 * p and verdict; a plot over the sweep values - per run a candlestick
 * (min, quartiles, max), its mean joined by a line, every iteration as
 * a jittered dot; per case the latency CDF of each run (its
 * iterations' histograms merged), log x; the scheduler metrics that
 * moved as a table and a bar chart of their % change; per case with
 * monitors, the runs' timelines side by side (html_timeline.c). Then each run's
 * CPU time, the notes, and the environments side by side, the rows
 * that differ highlighted. Run k has plot_colour(k) everywhere.
 *
 * The plots are queued first (one gnuplot script for the page,
 * html_plots.c), drawn, then the page is written with them and the
 * tables (html_table.c); all text is escaped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/plot.h"
#include "stats/hist.h"
#include "stats/summary.h"
#include "util.h"

/* A value to 6 significant digits, as the text's table; "n/a" if none. */
static const char *css =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1150px;color:#222;line-height:1.35}"
	"h1{font-size:1.6em;border-bottom:2px solid #444;padding-bottom:.2em}"
	"h2{font-size:1.3em;margin-top:2em;border-bottom:1px solid #aaa}"
	"h3{font-size:1.05em;margin:1.2em 0 .4em}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;vertical-align:top}"
	"th{background:#f2f2f2}td.l,th.l{text-align:left}"
	".sig{font-weight:bold}.better{color:#1a7f37}.worse{color:#c62828}"
	".v-improved{background:#dff5e1}.v-regressed{background:#fde0e0}.v-inconclusive{background:#fff4d6}"
	"tr.diff td{background:#fff4d6}"
	".sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.35em;vertical-align:-.1em}"
	".plot svg,.plot img{max-width:100%;height:auto}.plot{margin:.5em 0}"
	".cdfs{display:grid;grid-template-columns:1fr 1fr;gap:.5em}"
	".noplot{border:1px dashed #999;padding:.6em;color:#555;background:#fafafa}"
	"table.env{width:100%;table-layout:fixed}table.env td{overflow-wrap:anywhere}table.env td:first-child{width:16em}"
	"code{background:#f2f2f2;padding:0 .2em}.verdict{font-size:1.1em}";

static void show_plot(const struct page *p, size_t id, const char *what)
{
	FILE *f = p->f;

	if (!p->pb || id == PLOT_NONE) {
		if (p->pb && !plot_have(p->pb))
			fprintf(f, "<p class=\"noplot\">No %s: gnuplot is not installed here. "
				"<code>%s</code> and run <code>schedlab report</code> again to get the plots.</p>\n",
				what, PLOT_HOWTO);
		return;
	}
	if (p->pb->png) {
		fprintf(f, "<div class=\"plot\"><img src=\"");
		html_esc(f, p->pb->name[id]);
		fprintf(f, "\" alt=\"");
		html_esc(f, what);
		fprintf(f, "\"></div>\n");
	} else if (plot_svg(p->pb, id)) {
		fprintf(f, "<div class=\"plot\">%s</div>\n", plot_svg(p->pb, id));
	} else {
		fprintf(f, "<p class=\"noplot\">The %s could not be drawn (gnuplot failed: see the warning).</p>\n",
			what);
	}
}

static void job_section(const struct page *p, size_t ji)
{
	const struct comparison *c = p->c;
	const struct cmp_job *j = &c->jobs[ji];
	FILE *f = p->f;

	fprintf(f, "<h2 id=\"job%zu\">", ji);
	html_esc(f, j->job);
	if (*j->sweep_keys) {
		fputs(" by ", f);
		html_esc(f, j->sweep_keys);
	}
	fputs(": ", f);
	html_esc(f, j->metric.name);
	fprintf(f, " <small>(");
	html_esc(f, *j->metric.unit ? j->metric.unit : "count");
	if (j->metric.better == BETTER_NONE)
		fprintf(f, ", no direction: + is more, no verdict)</small></h2>\n");
	else
		fprintf(f, ", %s is better)</small></h2>\n",
			better_word(j->metric.better));
	/* the picture first, then its numbers */
	if (p->runs) {
		show_plot(p, p->jp[ji].sweep, "plot over the sweep values");
		if (p->pb && p->jp[ji].sweep != PLOT_NONE)
			fprintf(f, "<p>Per run: a candlestick of min, quartiles and max (the thick bar the median), the mean %s, every iteration a dot.</p>\n",
				html_by_run(j) ? "a circle" : "joined by a line");
	}
	html_mm_table(f, c, j);
	html_change_table(f, c, j);
	if (p->runs) {
		bool any = false;
		for (size_t i = 0; i < j->ncases; i++)
			any |= p->jp[ji].cdf[i] != PLOT_NONE;
		if (any && p->pb && plot_have(p->pb)) {
			fprintf(f, "<h3>Latency distributions</h3>\n<div class=\"cdfs\">\n");
			for (size_t i = 0; i < j->ncases; i++)
				if (p->jp[ji].cdf[i] != PLOT_NONE)
					show_plot(p, p->jp[ji].cdf[i], "latency CDF");
			fprintf(f, "</div>\n");
		} else if (p->pb && !plot_have(p->pb)) {
			show_plot(p, PLOT_NONE, "latency distributions");
		}
	}
	if (p->runs && p->pb) {
		bool any = false;

		for (size_t i = 0; i < j->ncases; i++)
			any |= p->jp[ji].timeline[i] != PLOT_NONE || p->jp[ji].mon[i].n;
		if (any) {
			fprintf(f, "<h3>Timelines</h3>\n<p>Each monitor sampled, over each run's iterations laid end to end: cpu and runq together, a dashed line where each iteration begins, per CPU white idle and dark busy (grey: no sample), below the tasks runnable; then every other monitor, its columns over all CPUs (per-CPU columns are in the export).</p>\n");
			for (size_t i = 0; i < j->ncases; i++) {
				const struct mon_plots *mp = &p->jp[ji].mon[i];

				if (p->jp[ji].timeline[i] != PLOT_NONE)
					show_plot(p, p->jp[ji].timeline[i], "timeline");
				for (size_t m = 0; m < mp->n; m++) {
					if (mp->p[m].shown < mp->p[m].ncols) {
						fprintf(f, "<p>Monitor ");
						html_esc(f, mp->p[m].name);
						fprintf(f, ": the %zu of its %zu columns that moved most.</p>\n",
							mp->p[m].shown, mp->p[m].ncols);
					}
					show_plot(p, mp->p[m].id, "monitor timeline");
				}
			}
		}
	}
	html_expl_table(f, c, j);
	if (p->runs && p->jp[ji].expl != PLOT_NONE)
		show_plot(p, p->jp[ji].expl, "chart of the metrics that moved");
}

static void runs_table(const struct page *p)
{
	const struct comparison *c = p->c;
	FILE *f = p->f;

	fprintf(f, "<table><tr><th class=\"l\">run</th><th class=\"l\">as given</th><th class=\"l\">uuid</th><th class=\"l\">host</th><th class=\"l\">role</th><th class=\"l\">verdict</th></tr>\n");
	for (size_t k = 0; k < c->nruns; k++) {
		const struct run *r = p->runs ? p->runs[k] : NULL;

		fprintf(f, "<tr><td class=\"l\">");
		html_swatch(f, k);
		html_esc(f, c->runs[k].name);
		fprintf(f, "</td><td class=\"l\">");
		html_esc(f, c->runs[k].spec);
		fprintf(f, "</td><td class=\"l\"><code>");
		html_esc(f, c->runs[k].uuid);
		fprintf(f, "</code></td><td class=\"l\">");
		html_esc(f, r && r->host ? r->host : "");
		fprintf(f, "</td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>\n",
			k ? "candidate" : "baseline",
			k ? verdict_names[c->verdict[k]] : "");
	}
	fprintf(f, "</table>\n");
}

/* ---- the page ---- */

/* The notes that are (left_out) or are not of cases left out, headed. */
static void notes_list(FILE *f, const struct comparison *c, bool left_out,
		       const char *heading)
{
	bool head = false;

	for (size_t i = 0; i < c->nnotes; i++) {
		if (c->note_left_out[i] != left_out)
			continue;
		if (!head)
			fprintf(f, "<h2>%s</h2>\n<ul>\n", heading);
		head = true;
		fprintf(f, "<li>");
		html_esc(f, c->notes[i]);
		fprintf(f, "</li>\n");
	}
	if (head)
		fprintf(f, "</ul>\n");
}

int render_html_page(FILE *f, const struct comparison *c,
		     const struct run *const *runs, struct plot_batch *pb)
{
	struct page p = { f, c, runs, runs ? pb : NULL, NULL };
	int rc = 0;

	p.jp = xcalloc(c->njobs + 1, sizeof(*p.jp));
	if (p.pb) {
		html_queue_plots(&p);
		if (plot_draw(p.pb))
			rc = -1;
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>schedlab report: ");
	for (size_t k = 0; k < c->nruns; k++) {
		fputs(k ? " vs " : "", f);
		html_esc(f, c->runs[k].name);
	}
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>schedlab report: ", css);
	for (size_t k = 0; k < c->nruns; k++) {
		fputs(k ? " vs " : "", f);
		html_esc(f, c->runs[k].name);
	}
	fprintf(f, "</h1>\n");
	runs_table(&p);
	if (c->nruns > 1) {
		fprintf(f, "<p class=\"verdict\">Overall: <b>");
		html_esc(f, verdict_names[c->overall]);
		fprintf(f, "</b> (test: %s, threshold %g%%).", cmp_test_name(c),
			c->opts.threshold);
		if (c->verdict_text) {
			fputs(" ", f);
			html_esc(f, c->verdict_text);
		}
		fprintf(f, "</p>\n");
	}
	if (!runs)
		fprintf(f, "<p class=\"noplot\">Tables only: <code>schedlab report RUN... -o DIR</code> draws the plots.</p>\n");
	else if (p.pb && !plot_have(p.pb))
		fprintf(f, "<p class=\"noplot\">This page has no plots: gnuplot is not installed here. <code>%s</code> and run <code>schedlab report</code> again.</p>\n",
			PLOT_HOWTO);
	if (c->njobs > 1) {
		fprintf(f, "<p>Jobs: ");
		for (size_t ji = 0; ji < c->njobs; ji++) {
			fprintf(f, "%s<a href=\"#job%zu\">", ji ? ", " : "", ji);
			html_esc(f, c->jobs[ji].job);
			fprintf(f, "</a>");
		}
		fprintf(f, "</p>\n");
	}
	for (size_t ji = 0; ji < c->njobs; ji++)
		job_section(&p, ji);
	html_duration_table(f, c);
	/* the cases left out under their heading, the other notes under theirs */
	notes_list(f, c, true, "Not compared");
	notes_list(f, c, false, "Notes");
	if (runs)
		html_environments(f, c, runs);
	fprintf(f, "<p><small>Made by schedlab; every number from its stored runs.</small></p>\n</body></html>\n");
	for (size_t ji = 0; ji < c->njobs; ji++) {
		free(p.jp[ji].cdf);
		free(p.jp[ji].timeline);
		for (size_t i = 0; p.jp[ji].mon && i < p.c->jobs[ji].ncases; i++)
			for (size_t m = 0; m < p.jp[ji].mon[i].n; m++)
				free(p.jp[ji].mon[i].p[m].name);
		free(p.jp[ji].mon);
	}
	free(p.jp);
	return rc;
}

void render_compare_html(FILE *f, const struct comparison *c)
{
	render_html_page(f, c, NULL, NULL);
}
