/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/compare_int.h: what the comparison's builder shares among its
 * files - compare.c (the cases paired, the cells filled, the verdicts),
 * notes.c (the notes in words: differences, outliers, what moved, why
 * nothing matched) and runs_unit.c (the run as the unit: the run-to-run noise
 * and the host's models). Not for use outside compare/.
 */
#ifndef SCHEDLAB_COMPARE_INT_H
#define SCHEDLAB_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/compare.h"
#include "compare/match.h"
#include "compare/noise_model.h"
#include "model/run.h"
#include "probe/probe.h"
#include "stats/noise.h"
#include "store/store.h"

/* The earlier runs of a case that its run-to-run noise is measured on. */
#define HISTORY_RUNS 20

/*
 * The fewest values the outlier rule is applied to: with fewer the MAD
 * is one gap between two of them. Even at 5 to 10 normal samples, 13 to
 * 20% of sets have a value past OUTLIER_Z (doc/statistics.md): a note,
 * not a verdict.
 */
#define OUTLIER_MIN_SAMPLES 5
/* Outlying values listed in a note, at most. */
#define OUTLIERS_LISTED 5

/* The note, and the error, when only the workload's version differs. */
#define VERSION_FMT "workload %s measures differently in %s (version %u) than in %s (version %u)"

/* The metrics every case's CPU time is summed from (compare.c). */
#define NDURATION 3

/* Per run, its indices of the metrics every case is read for. */
struct run_index {
	int probe[PM_N];		/* probe_metrics[] */
	int duration[NDURATION];
};

/* What the builder works with besides the comparison it fills. */
struct build {
	const struct run *const *runs;
	const char *const *specs;
	struct run_index *idx;		/* [nruns] */
	bool **used;			/* [nruns][ncases]: matched or noted */
	double *xa, *xb;		/* scratch, room for the most iterations */
	size_t group, ngroup;		/* the last job's tables in c->jobs */
	struct comparison *c;
	/* runs as the unit: the host's noise models of the last job and
	 * metric read (compare/noise_model.h), and the runs left out of them */
	struct store *st;
	struct noise_set ns;
	char *ns_job, *ns_metric;
	const char **exclude;
	size_t nexclude;
	size_t nmodel;			/* headline cases the host's model decided */
	size_t nown;			/* ... the sides' own runs alone decided */
	size_t nrunsunit;		/* ... compared with the run as the unit */
};

/* Collects the median of each earlier run of a case. */
struct medians {
	double x[HISTORY_RUNS];
	size_t n;
};

/* compare.c */
const char *build_case_name(const struct run_case *cs, char *buf, size_t len);

/* How two cases relate, by the one rule (compare/match.h). */
enum case_likeness build_likeness(const struct run_case *x,
				   const struct run_case *y, bool match_job);

/* The finite values of metric m (-1: none) of a case into x. */
size_t build_samples(const struct run_case *cs, int m, double *x);

/* notes.c */
/*
 * The scheduler metrics that changed by lkp-tests' rule, largest first:
 * the probes', then the monitors' means (monitor.NAME.FIELD.mean), as
 * lkp lists its monitors' stats beside the benchmark's.
 */
void build_explain(struct build *b, struct cmp_cell *cell, size_t k,
		    const struct run_case *bc, const struct run_case *cc);

/* Why nothing matched: the first difference found, for the error. */
void build_explain_mismatch(const struct build *b, size_t nruns,
			     bool match_job);

void build_noise_note(const struct build *b);

/*
 * The note on the run-to-run noise the comparison counted, of ncompared
 * cases, nnoise of them tested against a noise; none where the runs are
 * one A/B's sides or a run is alone.
 */
void build_noise_notes(const struct build *b, size_t ncompared, size_t nnoise);
void build_note(struct comparison *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void build_note_out(struct comparison *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The iterations of run k's case cs that are outliers among its own
 * (modified Z-score, stats/summary.h), as a note: an iteration that a
 * neighbour's burst or a migration storm made absurd moves a mean and
 * widens every interval, and is worth a look before the verdict.
 */
void build_outlier_iterations(struct build *b, const struct cmp_job *j,
			       size_t k, const struct run_case *cs);

/*
 * The baseline's median, and each candidate's, against the medians of
 * the baseline's repeats m: a baseline that is itself an outlier among
 * them is a poor reference (another run of it would compare otherwise),
 * and a candidate far outside them differs from every run of the
 * baseline, not only from the one compared.
 */
void build_outlier_runs(struct build *b, const struct cmp_job *j,
			 const struct cmp_case *cc, const struct run_case *bc,
			 const struct medians *m);

/*
 * "loops=100 -> loops=110": the options of x that y has otherwise, and
 * back - from the cases' full parameter lists, so that the message says
 * what differs whatever the identity (params) leaves out; from params
 * when neither case has a list (documents that carry none).
 */
void build_param_diff(const struct run_case *x, const struct run_case *y,
		       char *buf, size_t len);

/* Notes the settings of candidate case x that differ from bc's. */
void build_settings_note(struct comparison *c, size_t k,
			  const struct run_case *bc, const struct run_case *x);

/* runs_unit.c */
/*
 * The run-to-run noise of a case from the repeats of the baseline in
 * the store - the runs with its label and host - and not from every run
 * of the case: in a bisection the database also holds the bad runs,
 * whose difference is the very change to be found. NULL when there is
 * no store or fewer than RUN_NOISE_MIN_RUNS such runs. m: the repeats'
 * medians (none without a store).
 */
const struct run_noise *build_case_noise(struct store *st,
					  const struct run *base,
					  const struct run_case *bc,
					  const char *metric,
					  struct medians *m,
					  struct run_noise *rn);

/* Run k's case cs against the baseline's bc with the run as the unit. */
void build_compare_runs(struct build *b, const struct cmp_job *j,
			 const struct run_case *bc, const struct run_case *cs,
			 size_t k, enum better dir, struct cmp_result *r);

/* The same, the case: its runs as well (noise_at_gap()); NULL: none. */
const struct noise_case *build_host_case(struct build *b,
					 const struct run_case *bc,
					 const char *metric);

/* The host's model of the baseline's case bc for metric; NULL: none. */
const struct noise_model *build_host_model(struct build *b,
					    const struct run_case *bc,
					    const char *metric);

/*
 * Whether run k is compared with the baseline by runs (stats/noise.h):
 * when asked, unless the two were made side by side (one A/B: ab's
 * variants, judge's live references), where the iterations are right.
 */
bool build_runs_unit(const struct build *b, size_t k);

#endif
