/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report/render_compare.h: the renderers of a comparison (compare/compare.h,
 * built by compare_build()): they only format it - text (mmtests'
 * layout, 80 columns for one or two candidates), markdown, csv and json
 * (doc/statistics.md has the schema), the variants' table and the
 * layouts LKML posts use (wide, grid, raw, a workload's own table).
 * They read no store and compute nothing src/stats/ computes.
 */
#ifndef SCHEDLAB_REPORT_RENDER_COMPARE_H
#define SCHEDLAB_REPORT_RENDER_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "compare/compare.h"
#include "report/mmtests.h"
#include "report/vocab.h"

void render_compare_text(FILE *f, const struct comparison *c);
void render_compare_markdown(FILE *f, const struct comparison *c);
void render_compare_csv(FILE *f, const struct comparison *c);
void render_compare_json(FILE *f, const struct comparison *c);

/*
 * One table per job in the shape of seed 001's (compare_table.c): the
 * sweep values as row labels, one column per run headed by its variant
 * name, each run's median (or Amean/Hmean for the mean tests) and each
 * candidate's change against the first run, `*` (markdown: bold) where
 * significant. Text fits 80 columns for 3 runs and 2 sweep keys;
 * markdown is a pipe table. `compare --layout variants` and ab print it.
 */
void render_compare_variants(FILE *f, const struct comparison *c,
			     bool markdown);

/* What the wide, grid and raw layouts show (compare --stat, show). */
struct layout_opts {
	int stat;		/* index in cmp_stat_names */
	bool markdown;
	int width;		/* text: split wider tables into blocks; 0: 80 */
};

/*
 * Seed 000's tbench table (compare_layout.c): per job a title naming the
 * statistic, the sweep values as columns, one row per run headed by its
 * whole name; a table wider than lo->width is split into blocks of
 * columns, each repeating the names, as one would in a mail.
 */
void render_compare_wide(FILE *f, const struct comparison *c,
			 const struct layout_opts *lo);
/*
 * Seed 000's `Time: 3.919 4.250 4.116` lines: per job, one line per run
 * and case, "NAME SWEEP: v1 v2 ...", every iteration's value in order
 * ("-" where one was not measured), wrapped under the first value past
 * lo->width.
 */
void render_compare_raw(FILE *f, const struct comparison *c,
			const struct layout_opts *lo);
/*
 * Seed 001's pgbench table (compare_table.c, the variants' code without
 * the change columns): the sweep values as row labels, a column per
 * run holding lo->stat.
 */
void render_compare_grid(FILE *f, const struct comparison *c,
			 const struct layout_opts *lo);

/*
 * The first run's mmtests block per job, without percentages (what
 * `schedlab run` prints under a run; show --layout mmtests).
 */
void render_compare_summary(FILE *f, const struct comparison *c);

/*
 * The table a workload declares (struct workload's table: compute's is
 * AIM7's Tasks, Jobs/Min, JTI, Real, CPU, Jobs/sec/task), per job whose
 * workload has one: a row per sweep value and run, each column lo->stat
 * of its metric (mean: Hmean where higher is better, else Amean). runs
 * are the comparison's, in its order. -1, having printed nothing, when
 * no job's workload declares a table: the caller says WL_TABLE_NONE.
 */
#define WL_TABLE_NONE "no job here runs a workload that declares a table (compute does: AIM7's)"
struct run;
int render_compare_workload(FILE *f, const struct comparison *c,
			    const struct run *const *runs,
			    const struct layout_opts *lo);

/*
 * A table for reading (LAYOUTS_TABLES: variants, wide, grid, raw,
 * workload) by its enum, report/layout.c: 0, or -1 when it has nothing
 * to print (workload: no job's workload declares a table; the caller
 * says WL_TABLE_NONE). runs: the comparison's, in its order.
 */
int render_layout(FILE *f, enum out_layout layout, const struct comparison *c,
		  const struct run *const *runs, const struct layout_opts *lo);

/*
 * The test as the header names it: "runs-t" (the runs' medians,
 * stats/noise.h) where a candidate was compared by runs, else --test's.
 */
/* The comparison's notes after a layout's tables (grid, wide, raw,
 * variants): "Notes:", then each wrapped, or a markdown list. */
void layout_notes(FILE *f, const struct comparison *c, bool markdown);
const char *cmp_test_name(const struct comparison *c);

/* The overall verdict and why, as the last line judge prints. */
/*
 * The decimals of job j's values in mmtests' table, text or page alike:
 * 4, more for values below 1 so that they keep 4 significant digits (at
 * most 8); CoeffVar always 4. compare_text.c.
 */
int cmp_decimals(const struct cmp_job *j);
void render_verdict_line(FILE *f, const struct comparison *c);
/*
 * When no metric of job j moved because the probes were off in its
 * cases, "what moved: nothing to show: probes were off in these cases
 * (probes = on records them)" into buf; else false.
 */
bool cmp_probes_off_line(const struct comparison *c, const struct cmp_job *j,
			 char *buf, size_t len);

/* c in the --format chosen: 0 text, 1 markdown, 2 csv, 3 json, 4 html. */
void render_compare_stdout(const struct comparison *c, enum out_format format);
/*
 * c in a --layout other than mmtests (text or markdown) on stdout; rp
 * its runs (the workload layout reads them). -1 after error() (who's)
 * when the workload layout has no table to print.
 */
int render_layout_stdout(const struct comparison *c,
			 const struct run *const *rp, int layout, int stat,
			 bool markdown, const char *who);

/*
 * compare --by host's hosts (compare/hosts.h), n of them, in a --format
 * other than html on stdout (report/compare_by_host.c).
 */
struct cmp_host;
void render_compare_hosts(const struct cmp_host *h, size_t n,
			  const char *const labels[2], enum out_format format);

#endif
