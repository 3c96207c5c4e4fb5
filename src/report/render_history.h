/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The renderers of `schedlab history`'s model (history/history.h): text
 * and json (report/history_text.c), html (history_html.c). Renderers
 * compute nothing: every number is in the model.
 */
#ifndef SCHEDLAB_REPORT_RENDER_HISTORY_H
#define SCHEDLAB_REPORT_RENDER_HISTORY_H

#include <stdio.h>

#include "history/history.h"

/* Each is 0, or -1 when writing failed (errno set). */
int render_history_text(FILE *f, const struct history *h);
int render_history_json(FILE *f, const struct history *h);
/* The page, its plot drawn by gnuplot when there is one (report/plot.h);
 * -1 after error() when gnuplot failed (the page is written all the same). */
struct plot_batch;
int render_history_html(FILE *f, const struct history *h, struct plot_batch *pb);

/* A run's start as "2026-12-01 10:00" (UTC) into buf. */
void history_when(double t, char *buf, size_t len);

#endif
