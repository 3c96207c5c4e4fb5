/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace: a tracer run around the timed region - `trace = perf-sched`
 * (perf sched record, then perf sched latency's table parsed into
 * metrics trace.sched.*) or `trace = COMMAND` (any shell command: ftrace
 * through trace-cmd, bpftrace, ...), per iteration or per case
 * (trace_scope). Off by default.
 *
 * A tracer runs in a keeper process of schedlab's (schedlab-trace), a
 * child subreaper that forks it into a process group of its own, stops
 * it when told - SIGINT to the group, then SIGTERM, then SIGKILL, each
 * after a grace period - and kills whatever of it is left, setsid()
 * escapees included, before it reports the tracer's end and exits. When
 * schedlab dies the keeper's control pipe reads end-of-file and it does
 * the same: no tracer outlives the run.
 *
 * What a tracer writes is kept in its directory: ROOT/c<case>-i<iter>
 * (ROOT/c<case> per case), ROOT being trace_dir/<run-uuid>, trace_dir
 * by default the database's path plus ".traces". The tracer's standard
 * output and error go to trace.stdout and trace.stderr there (removed
 * when empty). A COMMAND gets $SCHEDLAB_TRACE_DIR (that directory),
 * $SCHEDLAB_RUN_UUID, $SCHEDLAB_CASE, $SCHEDLAB_JOB and
 * $SCHEDLAB_ITERATION ("" per case). perf-sched keeps perf sched
 * latency's table as sched-latency.txt; its perf.data is removed once
 * read.
 *
 * A tracer never fails the iteration it traces: one that cannot start,
 * that exits early or with an error, or whose output cannot be read is
 * reported in one warning, and perf-sched that cannot record (no perf,
 * no permission, no tracefs) is off for the rest of the case.
 */
#ifndef SCHEDLAB_TRACE_H
#define SCHEDLAB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "metric.h"

#define TRACE_PERF_SCHED "perf-sched"

enum trace_scope { TRACE_ITERATION, TRACE_CASE };
extern const char *const trace_scope_names[];	/* "iteration", "case" */

#define TRACE_ACCEPTED "perf-sched, a shell command, or none"
#define TRACE_TASKS_ACCEPTED "a comma list of up to 8 task names (comm, 1 to 15 characters, no ',' or '|')"
#define TRACE_TASKS_MAX 8
#define TRACE_TASKS_DEF "schedlab"
#define TRACE_CMD_MAX 4000

/*
 * A trace key's value checked: "none", "off" and "" are off (*on
 * false); -1 with what is wrong in err.
 */
int trace_parse(const char *text, bool *on, char *err, size_t len);
/* trace_tasks: a comma list of comms; -1 with what is wrong in err. */
int trace_parse_tasks(const char *text, char *err, size_t len);

/* What a case asks for (harness/plan.h's plan_case holds it). */
struct trace_spec {
	const char *trace;	/* TRACE_PERF_SCHED or a command; NULL: off */
	int scope;		/* enum trace_scope */
	const char *tasks;	/* trace_tasks; NULL: TRACE_TASKS_DEF */
	const char *root;	/* the run's directory: trace_dir/<uuid> */
	const char *uuid;	/* the run's uuid; NULL: from root's name */
	const char *job;
	unsigned seq;		/* the case's number */
};

/* The default trace_dir of a database: "DB.traces", a directory beside it. */
char *trace_default_dir(const char *db);

/* A case's tracer: its metrics and, between start and stop, its keeper. */
struct trace_hook {
	struct trace_spec spec;
	bool on;		/* false: off, or off after a failure */
	bool perf;		/* perf-sched */
	char **kinds;		/* perf-sched's task kinds: comms, then "other" */
	size_t nkinds;
	struct metric_def *metrics;	/* perf-sched's; the names owned */
	size_t nmetrics;
	/* while it runs */
	pid_t keeper, pgid;	/* 0: none */
	int ctl_fd, st_fd;	/* to the keeper and from it */
	int pctl_fd, pack_fd;	/* perf's --control, schedlab's ends */
	char dir[4096];
	unsigned iter;		/* 0: the case */
	bool warned;
};

/*
 * Opens a case's tracer (off when spec->trace is NULL): perf-sched's
 * metrics laid out, said unavailable once when perf is not on PATH
 * (then off). Never fails.
 */
void trace_open(struct trace_hook *t, const struct trace_spec *spec);
void trace_close(struct trace_hook *t);

/*
 * Starts the tracer for iteration iter (1-based; 0 for the case) and,
 * for perf-sched, waits until it records. 0 started, -1 not (off, or it
 * failed, said).
 */
int trace_start(struct trace_hook *t, unsigned iter);
/*
 * The descriptors schedlab keeps to a running tracer, which a workload
 * process must close, into fds (room for TRACE_FDS_MAX): how many.
 */
#define TRACE_FDS_MAX 4
int trace_fds(const struct trace_hook *t, int *fds);
/*
 * Stops the tracer and waits for it; perf-sched's metrics into
 * out[t->nmetrics] (NAN: not measured; out NULL: perf's data is not
 * read, as for an interrupted iteration). 0, or -1 after a warning.
 */
int trace_stop(struct trace_hook *t, double *out);
/* Whether the tracer runs, and its keeper's pid (0: none). */
pid_t trace_pid(const struct trace_hook *t);
/*
 * Whether pid is a keeper this process started and has not stopped:
 * what the end of an iteration must not kill (harness/supervise.c).
 */
bool trace_keeps(pid_t pid);

/* ---- perf-sched (trace_perf.c) ---- */

/* The kinds and metrics of perf-sched for trace_tasks (comma list). */
void trace_perf_layout(struct trace_hook *t, const char *tasks);
/* perf's argv (static strings and dir's; free() the vector). */
char **trace_perf_argv(const char *dir);
/*
 * perf sched latency on dir/perf.data into dir/sched-latency.txt, then
 * parsed into out[t->nmetrics]; perf.data removed. 0, or -1 with why.
 */
int trace_perf_report(const struct trace_hook *t, const char *dir,
		      double *out, char *why, size_t len);
/*
 * perf sched latency's table (text) into out[t->nmetrics]: -1 when it
 * has none.
 */
int trace_perf_parse(const struct trace_hook *t, const char *text,
		     double *out);

#endif
