/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * render: results to text. Renderers never compute statistics and never
 * run anything; they format what a workload measured.
 *
 * The text formats that reproduce a reference tool's output line for
 * line (hackbench, perf bench) belong to their workloads (the formats
 * member of struct workload); the helpers they share are in
 * workload/text.h. JSON carries every measured value with its unit and
 * direction.
 */
#ifndef SCHEDLAB_RENDER_H
#define SCHEDLAB_RENDER_H

#include <jansson.h>
#include <stdio.h>

#include "harness/runner.h"
#include "workload/workload.h"

#define BENCH_SCHEMA "schedlab-bench/1"

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

/*
 * One value of it as a person reads it: scalars as themselves (reals to
 * 6 significant digits, yes/no), arrays space-separated, nested ones in
 * parentheses, objects as k=v; never JSON. env_text.c.
 */
void render_env_value(FILE *f, const json_t *v);

/*
 * The machine's shape in a few words, for a header naming the host:
 * "2 packages, 16 cores, 32 CPUs, 2 LLCs, SMT on" from what env
 * recorded (what was not recorded is left out; nothing: ""). Into buf.
 */
void render_topology_brief(char *buf, size_t len, const json_t *env);

#endif
