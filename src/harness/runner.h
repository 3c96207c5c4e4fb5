/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner: one case of a plan, repeated - warm-up iterations (measured,
 * not kept), then the iterations, each in a supervised workload process,
 * a failed one retried up to the case's `retries` times; around them the
 * workload's untimed setup, before and cleanup commands (casecmd.h).
 *
 * Every iteration gives one row of values: the workload's metrics, then
 * the harness's own (process.wall_s, process.user_s, process.sys_s,
 * process.maxrss_kib, process.leftover_killed: the workload process's
 * wall time, the CPU time of it and its workers, its peak RSS, and the
 * leftovers killed after it ended), then the probes' scheduler metrics
 * (probe/probe.h; NaN where not measured), then, when the case has
 * monitors (monitor/monitor.h), their summary metrics
 * (monitor.NAME.FIELD.mean, .max, .p95), then, when the case is traced
 * by perf-sched (trace/trace.h), trace.sched.* - per iteration, or per
 * case in its last row alone. A monitored iteration keeps its monitors'
 * series too. Warm-ups are neither monitored nor traced.
 */
#ifndef SCHEDLAB_RUNNER_H
#define SCHEDLAB_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/plan.h"
#include "harness/supervise.h"
#include "monitor/monitor.h"
#include "stats/hist.h"
#include "trace/trace.h"

/*
 * The columns of a case's rows: the workload's metrics, then the
 * harness's, then the probes' (enum probe_metric order).
 */
struct metric_cols {
	struct metric_def *def;
	size_t n;
	size_t nworkload;	/* [0, nworkload): the workload's */
	size_t probe0;		/* [probe0, mon0): the probes' */
	size_t mon0;		/* [mon0, trace0): the monitors' summaries */
	size_t trace0;		/* [trace0, n): the tracer's (perf-sched) */
};

void metric_cols_init(struct metric_cols *c, const struct workload *wl);
/* Appends the summary metrics of an open monitor set (borrowed). */
void metric_cols_add_monitors(struct metric_cols *c,
			      const struct monitor_set *m);
/* Appends the metrics of an open tracer (borrowed). */
void metric_cols_add_trace(struct metric_cols *c, const struct trace_hook *t);
void metric_cols_free(struct metric_cols *c);

struct case_result {
	struct metric_cols cols;
	size_t niter;		/* rows kept */
	double *values;		/* niter x cols.n */
	struct hist **latency;	/* niter: the probes' latency histogram of
				 * each row, or NULL */
	unsigned retried;	/* iterations that failed and were run again */
	enum run_status status;	/* RUN_OK when every iteration succeeded */
	char reason[REASON_MAX];
	struct casecmd *cmds;	/* between runner_begin() and runner_end() */
	/* the case's monitors, open from runner_begin() to
	 * case_result_free() (their metric names are the columns'), and
	 * each row's series (monitor_rows_json(); NULL: none) */
	struct monitor_set mon;
	json_t **monitors;
	/* the case's tracer (trace/trace.h), open from runner_begin() to
	 * case_result_free(); a case's scope runs from the warm-ups' end
	 * to runner_end() */
	struct trace_hook trace;
};

/* Called before each iteration; warmup iterations count from 1 too. */
struct runner_progress {
	void (*before)(void *arg, const struct plan_case *c, unsigned iter,
		       bool warmup);
	void *arg;
};

/*
 * Runs the case. Returns 0 with r filled - r->status says whether it
 * completed, failed (an iteration failed retries + 1 times; rows so far
 * kept) or was interrupted or timed out - or -1 if nothing could be
 * started.
 */
int runner_case(const struct plan_case *c, struct case_result *r,
		const struct runner_progress *p);

/*
 * runner_case() in steps, for executors that decide as they go
 * (adaptive counts, interleaved variants): runner_begin() empties r,
 * with room for c->iterations rows, and runs the warm-ups (r->status
 * is not RUN_OK when one failed); runner_step() runs one iteration
 * into r: 0 kept, 1 failed (r->status and r->reason say how; its rows
 * so far kept), -1 nothing could be started. Both return -1 only when
 * nothing could be started.
 */
int runner_begin(const struct plan_case *c, struct case_result *r,
		 const struct runner_progress *p);
int runner_step(const struct plan_case *c, struct case_result *r,
		const struct runner_progress *p);
/*
 * Ends what runner_begin() began: the workload's cleanup command and its
 * working directory (harness/casecmd.h). Every runner_begin() needs one,
 * whatever happened in between; runner_case() calls it itself.
 */
void runner_end(const struct plan_case *c, struct case_result *r);

/* The finite values of column col into x (room for r->niter); how many. */
size_t case_result_column(const struct case_result *r, size_t col, double *x);
/* The column of the workload's headline metric, or -1. */
int case_result_headline(const struct case_result *r);
/*
 * The rows' monitor series as the export document has them: {"NAME":
 * [a series or null per row]}, a new reference, or NULL when none.
 */
json_t *case_result_monitors(const struct case_result *r);
void case_result_free(struct case_result *r);

#endif
