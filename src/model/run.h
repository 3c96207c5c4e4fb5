/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model: a stored run as typed data, loaded once and read by every
 * command that reads runs - show, export, compare, judge, report, run's
 * summary. Plain data: it includes nothing above metric.h. The store
 * fills it - store_load() from a database, run_from_export() from an
 * export document (store/store.h), run_load() picks by what RUN is
 * (store/load.h). Readers index values by metric number, never look
 * anything up by string in a JSON tree; statistics over them are
 * src/stats/'s, comparisons src/compare/'s.
 *
 * Everything a struct run points to is owned by it: run_free() releases
 * it all.
 */
#ifndef SCHEDLAB_MODEL_RUN_H
#define SCHEDLAB_MODEL_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric.h"

struct hist;

/* One name=value pair, both as text: an option or a run setting. */
struct run_param {
	char *name;
	char *value;
};

/* The values of one metric in one case, one per iteration. */
struct run_series {
	size_t metric;		/* index into run->metrics */
	double *x;		/* case->niter values; NAN: not measured */
};

/* struct run_case's nulls */
enum {
	RUN_NULL_PARAMS = 1,
	RUN_NULL_SWEEP_KEYS = 2,
	RUN_NULL_SWEEP = 4,
};

struct run_case {
	unsigned seq;		/* place in the run's plan */
	char *job;
	char *workload;
	unsigned version;	/* of what the workload measures (1, 2, ...) */
	/*
	 * The identity within (workload, version): the options that
	 * differ from their defaults, "name=value" in canonical order,
	 * space-separated; "" when every option has its default.
	 */
	char *params;
	struct run_param *param;	/* every option, option-table order */
	size_t nparam;
	struct run_param *setting;	/* run settings that change results
					 * (cpus, ...), by name; none: 0 */
	size_t nsetting;
	char *sweep_keys;	/* swept option names; "" when none */
	char *sweep;		/* their values in this case; "" when none */
	unsigned nulls;		/* RUN_NULL_*: which of the three strings above
				 * the document had as null (export keeps it) */
	json_t *parameters;	/* owned: param as the document has them,
				 * typed, for export; never NULL */
	bool complete;		/* status "complete"; else failed */
	char *reason;		/* why it failed, or NULL */
	size_t niter;
	struct run_series *series;	/* in metric order */
	size_t nseries;
	int *by_metric;		/* [run->nmetrics]: index into series, or -1 */
	struct hist **latency;	/* NULL, or niter entries (NULL: none): the
				 * histograms named "latency", the only ones
				 * schedlab stores; others are not kept */
	/*
	 * The monitors' series (monitor/monitor.h) as the export document
	 * has them: {"NAME": [a series or null per iteration]}, owned; NULL
	 * when the case was not monitored
	 */
	json_t *monitors;
	/* run_merge(): where each run's iterations end in the series, one
	 * per run (the first run's included); 0 runs: one run, all of them */
	size_t *rep_end;
	size_t nrep;
};

struct run {
	int64_t id;		/* local id in the store; -1 from a file */
	char *uuid;
	char *label, *host, *command, *schedlab_version;	/* or NULL */
	/* runs made side by side (ab's variants, judge's live references):
	 * the A/B uuid they share and this run's variant name; NULL: none */
	char *ab, *variant;
	char *status;		/* running, complete, partial, failed */
	double started;		/* Unix time, seconds */
	double ended;		/* NAN while running */
	double busy_at_start;	/* % of CPU used by others; NAN: unknown */
	double others_during;	/* % of its CPUs' time other processes used
				 * while it ran; NAN: unknown */
	json_t *environment;	/* owned; free-form (probe/sysenv.h) */
	struct metric_def *metrics;	/* the union over the cases */
	size_t nmetrics;
	struct run_case *cases;	/* in seq order */
	size_t ncases;
	/* run_merge(): the uuids of the runs merged into this one, and
	 * the earliest and latest start of them all, this one's included
	 * (its own `started` stays) */
	char **merged;
	size_t nmerged;
	double first_started, last_started;
};

void run_free(struct run *r);

/* r->busy_at_start and r->others_during from r->environment (NAN where
 * it does not say). */
void run_env_figures(struct run *r);

/* Releases what one case points to (run_free() does it for every case). */
void run_case_free(struct run_case *c);

/*
 * Appends to each case of into the iterations of the same case of from
 * (job, workload, version, params and sweep alike; a failed one is not
 * taken), remembering where each run's iterations end (rep_end): one
 * side of a comparison made of several runs, whose summary rows pool
 * the iterations and whose test takes each run's median
 * (stats/noise.h). Metrics into lacks are not taken; latency
 * histograms are not merged. Returns how many cases took iterations.
 */
size_t run_merge(struct run *into, const struct run *from);

/* The earliest and the latest start of the runs r holds (merged or
 * not). */
void run_starts(const struct run *r, double *first, double *last);

/* The number of runs a case holds (1 unless merged). */
static inline size_t run_case_runs(const struct run_case *c)
{
	return c->nrep ? c->nrep : 1;
}

/* Iterations [*lo, *hi) of run i of case c (i < run_case_runs(c)). */
void run_case_rep(const struct run_case *c, size_t i, size_t *lo, size_t *hi);

/* Fills c->by_metric from c->series (sorted by metric) for r's metrics. */
void run_case_index(const struct run *r, struct run_case *c);

/*
 * For loaders: c->parameters becomes parameters (owned from now on;
 * NULL: {}) and c->param its members as text; c->setting the members of
 * settings (an object; NULL: none), strings as they are.
 */
void run_case_take_parameters(struct run_case *c, json_t *parameters);
void run_case_set_settings(struct run_case *c, const json_t *settings);

/* The index of a metric in r->metrics, or -1. */
int run_metric(const struct run *r, const char *name);

/* The headline metric of a workload in r, or -1. */
int run_headline(const struct run *r, const char *workload);

/* A case's series of metric m (an index of r->metrics), or NULL. */
static inline const struct run_series *run_series_of(const struct run_case *c,
						     int m)
{
	return m < 0 || c->by_metric[m] < 0 ? NULL : &c->series[c->by_metric[m]];
}

/*
 * The finite values of metric m in case c, in iteration order, into out
 * (room for c->niter); returns how many. Not measured: skipped.
 */
size_t run_samples(const struct run_case *c, int m, double *out);

/* A setting's value, or NULL when the case has none of that name. */
const char *run_setting(const struct run_case *c, const char *name);

#endif
