/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * html: a comparison (report/render_compare.h) as one self-contained HTML page
 * - inline CSS, inline SVG, no script - for `schedlab report` and
 * `compare --format html` (html.c). The tables are the comparison's
 * numbers formatted; the plots are drawn by gnuplot (report/plot.h)
 * from the runs' samples and latency histograms, and from the
 * comparison's explanation metrics, every statistic from src/stats/.
 */
#ifndef SCHEDLAB_REPORT_HTML_H
#define SCHEDLAB_REPORT_HTML_H

#include <stdio.h>

#include "report/render_compare.h"

struct run;
struct plot_batch;

/*
 * The page of c: runs[] are the runs c was built from (NULL: the tables
 * alone, with a line saying `schedlab report` draws the plots). With pb
 * (NULL: no plots) the plots are queued into pb, drawn and inlined (SVG
 * batches) or referenced as their PNG files; a batch without gnuplot
 * gives the page a note, where each plot would be, on how to get them.
 * -1 after error() when gnuplot failed (the page is written all the
 * same, with what was drawn).
 */
int render_html_page(FILE *f, const struct comparison *c,
		     const struct run *const *runs, struct plot_batch *pb);

/* c's tables as a page (compare and judge --format html). */
void render_compare_html(FILE *f, const struct comparison *c);

/* For the page's parts: s escaped for HTML text and attributes. */
void html_esc(FILE *f, const char *s);
/* A <th> of run k's name with its colour. */
void html_run_head(FILE *f, const struct comparison *c, size_t k);
/*
 * The timeline of one case (html_timeline.c): rc[k] is run k's case
 * (NULL: none); per run, side by side, its monitors' per-CPU
 * utilization as a heatmap and run-queue length over its iterations laid
 * end to end, iteration starts marked. Its plot id, or PLOT_NONE when no
 * run has monitor cpu or runq.
 */
struct run_case;
size_t html_queue_timeline(struct plot_batch *pb, const struct comparison *c,
			   const char *title, const struct run_case *const *rc);
/*
 * The timeline of one other monitor of the case (html_timeline.c): per
 * run, side by side, the monitor's all-CPU columns over its iterations
 * laid end to end, the MON_COLS (4) that moved most; *ncols its columns,
 * *shown those plotted. PLOT_NONE when no run sampled it.
 */
size_t html_queue_monitor(struct plot_batch *pb, const struct comparison *c,
			  const char *title, const struct run_case *const *rc,
			  const char *name, size_t *ncols, size_t *shown);
/* The environments side by side (html_env.c). */
void html_environments(FILE *f, const struct comparison *c,
		       const struct run *const *runs);

#endif
