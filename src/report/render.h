/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * render: results to text. Renderers never compute statistics and never
 * run anything; they format what a workload measured.
 *
 * Text formats reproduce a reference tool's output line for line
 * (hackbench, perf bench), so scripts that parse those keep working; a
 * format has a header printed before the run and result lines after.
 * JSON carries every measured value with its unit and direction.
 */
#ifndef SCHEDLAB_RENDER_H
#define SCHEDLAB_RENDER_H

#include <jansson.h>
#include <stdio.h>

#include "harness/runner.h"
#include "workload/workload.h"

struct text_format {
	const char *workload;
	const char *name;
	const char *help;
	void (*header)(FILE *f, const void *cfg);
	void (*result)(FILE *f, const void *cfg, const struct wl_result *r);
};

/*
 * A text format that prints all the runs of a case at once, instead of
 * a result line per run and the repeat footer (perf stat --repeat).
 */
struct text_summary {
	const char *workload;
	const char *format;
	void (*print)(FILE *f, const void *cfg, const struct case_result *r);
};

/* The summary printer of a text format, or NULL. */
const struct text_summary *text_summary_find(const char *workload,
					     const char *format);

/* The format called name for a workload (NULL: its default), or NULL. */
const struct text_format *text_format_find(const char *workload,
					   const char *name);
/* A workload's text formats, the default first; returns how many. */
size_t text_formats(const char *workload, const struct text_format **out,
		    size_t max);

/* "%lu.%03lu" of seconds, truncated to milliseconds as the references do. */
void print_secs_ms(FILE *f, double secs);

#define BENCH_SCHEMA "schedlab-bench/1"

/* Every option of a workload by canonical name: {"groups": 4, ...}. */
json_t *json_parameters(const struct workload *wl, const void *cfg);

/* One JSON document for one bench case, all its runs; see doc/json.md. */
int render_json(FILE *f, const struct workload *wl, const void *cfg,
		const struct case_result *r);

/*
 * perf stat --repeat's footer for each workload metric: mean +- the
 * standard error of the mean, and that as a percentage of the mean.
 */
void render_repeat_summary(FILE *f, const struct case_result *r);

/*
 * One line of scheduler metrics under a case's summary: pm holds the
 * means of the probe metrics (enum probe_metric; NaN where absent); unit
 * names what latency.samples counts ("msgs", "ops").
 */
void render_explain(FILE *f, const char *sweep, const char *unit,
		    const double *pm);

/* The environment object (probe/sysenv.h) as aligned text. */
void render_env_text(FILE *f, const json_t *env);

#endif
