/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare: what `schedlab compare` and `judge` found, ready to render -
 * one baseline and its candidates, per job the headline metric's
 * summaries and comparisons by sweep value, the scheduler metrics that
 * moved, each run's CPU time, and what could not be compared. Built by
 * compare_build() from typed runs (model/run.h), every number by
 * src/stats/; the renderers only format it: text (mmtests' layout, 80
 * columns for one or two candidates), markdown, csv and json
 * (doc/statistics.md has the schema), the variants' table and the
 * layouts LKML posts use (wide, grid, raw, a workload's own table).
 */
#ifndef SCHEDLAB_REPORT_COMPARE_H
#define SCHEDLAB_REPORT_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "report/mmtests.h"
#include "stats/summary.h"
#include "stats/tests.h"

#define COMPARE_SCHEMA "schedlab-compare/1"

/* A run: column 0 is the baseline. */
struct cmp_run {
	const char *name;	/* its label, or RUN as given */
	const char *spec;	/* RUN as given */
	const char *uuid;
	double user_s, sys_s, elapsed_s;	/* over its compared cases */
};

/* A scheduler metric that changed, as lkp-tests lists them. */
struct cmp_expl {
	const char *metric;
	double base, base_sd_pct;	/* mean, population sd / mean in % */
	double cand, cand_sd_pct;
	double change_pct;		/* 100 * (cand - base) / base; NaN
					 * for a percentage (points) */
	bool points;			/* metric's unit is "%" */
	double change_pt;		/* cand - base, in points; NaN if not */
};

/* One case in one run. */
struct cmp_cell {
	bool present;		/* the run has this case */
	bool ok;		/* ... with samples that summarise */
	const char *failed;	/* why it failed or has none */
	const char *params;	/* when they differ from the baseline's */
	struct summary s;
	const double *x;	/* borrowed: every iteration's value, NaN where */
	size_t n;		/* ... one was not measured (the raw layout) */
	const struct run_case *rc;	/* borrowed: the case (other metrics) */
	double pct[MM_NROWS];	/* mmtests' % against the baseline (points
				 * when points); NaN: n/a */
	struct cmp_result r;	/* candidates: against the baseline */
	/*
	 * The metric is a percentage (unit "%"): a change of it is a
	 * difference in points, + is better as for pct[] - pt, its
	 * interval pt_lo..pt_hi (r's ratio interval at the baseline's
	 * level of the test's statistic); NaN: n/a.
	 */
	bool points;
	double pt, pt_lo, pt_hi;
	/* candidates: the probes were off in its case or the baseline's
	 * (probes = off, or the workload's default), so nothing could move */
	bool probes_off;
	struct cmp_expl *expl;
	size_t nexpl;
};

struct cmp_case {
	const char *sweep;	/* "" when nothing is swept */
	const char *params;	/* the baseline's */
	struct cmp_cell *cell;	/* [nruns] */
};

/*
 * One job and one metric: the headline's table first (metric.headline
 * set), then the others --metrics chose, in the run's metric order.
 * Only the headline's tables decide the verdicts; a metric without a
 * direction (BETTER_NONE) is shown without one.
 */
struct cmp_job {
	const char *job, *workload, *sweep_keys;
	struct metric_def metric;
	struct cmp_case *cases;
	size_t ncases;
	/* [nruns]: mmtests' Gmean ratio row, the geometric mean over the
	 * cases of candidate/baseline means (1 for the baseline); NaN: n/a */
	double *gmean_ratio;
};

struct comparison {
	struct cmp_opts opts;
	const char *match;	/* "params" or "job" */
	struct cmp_run *runs;
	size_t nruns;
	struct cmp_job *jobs;
	size_t njobs;
	/* what was not compared and why, what was compared with a
	 * difference, the machine, outliers: in words */
	char **notes;
	bool *note_left_out;	/* [nnotes]: a case left out (not compared) */
	size_t nnotes;
	enum verdict *verdict;	/* by run (the baseline's unused) */
	enum verdict overall;
	json_t *judge;		/* borrowed: judge's decision, printed by json */
	const char *verdict_text;	/* borrowed: replaces the verdict lines */
	unsigned rows;		/* mmtests rows shown: bit 1 << enum mm_row; 0 all */
	/* a candidate was compared with the run as the unit (stats/noise.h) */
	bool runs_used;
	/* how the text and markdown renderers print it, set by the caller */
	bool ratio;		/* --ratio: the Gmean ratio row per table */
	bool brief;		/* --brief: for an email (compare.c says what) */
	unsigned brief_top;	/* ... with at most this many metrics per case */
};

struct run;
struct store;

/*
 * Matches the cases of runs[0], the baseline, with its candidates' and
 * fills c. Cases match by job, workload, the workload's version and
 * params - or, with match_job, by job, workload, version and sweep
 * values, noting parameters that differ; a case that differs only in
 * the version is not compared, with a note saying so. specs[] are the
 * RUN arguments as given (for names and messages); nruns 1: the
 * baseline's cases alone, summarised (report RUN). st (may be NULL):
 * the store whose earlier runs of each case on the baseline's host give
 * its run-to-run noise (stats/tests.h). -1 after error() when no case
 * can be compared, the message saying what does not match. With nruns
 * 1, every case of the one run, compared with nothing (show --layout).
 * c borrows strings from runs and specs: free it first.
 */
int compare_build(const struct run *const *runs, const char *const *specs,
		  size_t nruns, const struct cmp_opts *o, bool match_job,
		  struct store *st, struct comparison *c);
void compare_free(struct comparison *c);

struct run_noise;
struct run_case;
/*
 * The run-to-run noise of the baseline's case bc for metric, from the
 * repeats of the baseline in st (runs with its label and host) - the
 * one compare_build() uses. NULL when st is NULL or there are fewer
 * than RUN_NOISE_MIN_RUNS.
 */
const struct run_noise *compare_case_noise(struct store *st,
					   const struct run *base,
					   const struct run_case *bc,
					   const char *metric,
					   struct run_noise *rn);

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

/*
 * The statistic of the wide, grid and raw layouts (--stat), by index in
 * cmp_stat_names: 0 "mean" is the headline row compare prints (Hmean
 * for a throughput, Amean for a time), the others as named.
 */
extern const char *const cmp_stat_names[];
enum { STAT_MEAN, STAT_AMEAN, STAT_HMEAN, STAT_GMEAN, STAT_MEDIAN, STAT_MIN,
       STAT_MAX, STAT_SD, STAT_COV, STAT_BAMEAN };
/* Its label as mmtests spells the row ("Hmean", "Median", "CoeffVar"). */
const char *cmp_stat_label(int stat, const struct cmp_job *j);
/* The value of statistic stat of an ok cell (from src/stats/); NaN: undefined. */
double cmp_cell_stat(const struct cmp_cell *cell, int stat);

/*
 * The same of the samples x[0..n) (NaNs skipped) of a metric whose
 * direction is dir; NaN when they do not summarise.
 */
double cmp_samples_stat(const double *x, size_t n, enum better dir, int stat);

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
 * The test as the header names it: "runs-t" (the runs' medians,
 * stats/noise.h) where a candidate was compared by runs, else --test's.
 */
const char *cmp_test_name(const struct comparison *c);

/* The overall verdict and why, as the last line judge prints. */
void render_verdict_line(FILE *f, const struct comparison *c);
/*
 * When no metric of job j moved because the probes were off in its
 * cases, "what moved: nothing to show: probes were off in these cases
 * (probes = on records them)" into buf; else false.
 */
bool cmp_probes_off_line(const struct comparison *c, const struct cmp_job *j,
			 char *buf, size_t len);

#endif
