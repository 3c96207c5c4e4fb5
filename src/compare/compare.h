/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/compare.h: the comparison - what `schedlab compare`, judge,
 * ab, report, show's tables and campaigns found, ready to render: one
 * baseline and its candidates, per job the headline metric's summaries
 * and comparisons by sweep value, the scheduler metrics that moved,
 * each run's CPU time, and what could not be compared. Built by
 * compare_build() (compare/compare.c) from typed runs (model/run.h),
 * cases matched by compare/match.h, every number by src/stats/; the
 * renderers (report/render_compare.h) only format it. compare/session.h loads
 * the runs and builds it for a command.
 */
#ifndef SCHEDLAB_COMPARE_COMPARE_H
#define SCHEDLAB_COMPARE_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats/mmrows.h"
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

#endif
