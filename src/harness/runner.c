// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/casecmd.h"
#include "harness/runner.h"
#include "util.h"

enum { H_WALL, H_USER, H_SYS, H_RSS, H_LEFT, H_N };

static const struct metric_def harness_metrics[H_N] = {
	[H_WALL] = { "process.wall_s", "s", BETTER_NONE, false,
		     "the workload process, fork to exit (creating and reaping workers included)" },
	[H_USER] = { "process.user_s", "s", BETTER_NONE, false,
		     "user CPU time of the workload process and its workers" },
	[H_SYS] = { "process.sys_s", "s", BETTER_NONE, false,
		    "system CPU time of the workload process and its workers" },
	[H_RSS] = { "process.maxrss_kib", "KiB", BETTER_NONE, false,
		    "peak RSS of the workload process itself" },
	[H_LEFT] = { "process.leftover_killed", "tasks", BETTER_NONE, false,
		     "processes of the run still there after the workload process ended, killed; 0 in a clean run" },
};

void metric_cols_init(struct metric_cols *c, const struct workload *wl)
{
	size_t n = 0;

	while (wl->metrics[n].name)
		n++;
	c->nworkload = n;
	c->probe0 = n + H_N;
	c->n = n + H_N + PM_N;
	c->mon0 = c->trace0 = c->n;
	c->def = xcalloc(c->n, sizeof(*c->def));
	memcpy(c->def, wl->metrics, n * sizeof(*c->def));
	memcpy(c->def + n, harness_metrics, sizeof(harness_metrics));
	memcpy(c->def + c->probe0, probe_metrics, sizeof(probe_metrics));
}

void metric_cols_add_monitors(struct metric_cols *c,
			      const struct monitor_set *m)
{
	c->mon0 = c->n;
	c->trace0 = c->n;
	if (!m->nmetrics)
		return;		/* none of them available here */
	c->def = xrealloc(c->def, (c->n + m->nmetrics) * sizeof(*c->def));
	memcpy(c->def + c->n, m->metrics, m->nmetrics * sizeof(*c->def));
	c->n += m->nmetrics;
	c->trace0 = c->n;
}

void metric_cols_add_trace(struct metric_cols *c, const struct trace_hook *t)
{
	c->trace0 = c->n;
	if (!t->nmetrics)
		return;
	c->def = xrealloc(c->def, (c->n + t->nmetrics) * sizeof(*c->def));
	memcpy(c->def + c->n, t->metrics, t->nmetrics * sizeof(*c->def));
	c->n += t->nmetrics;
}

void metric_cols_free(struct metric_cols *c)
{
	free(c->def);
	c->def = NULL;
}

static void fill_row(const struct case_result *r, const struct run_outcome *o,
		     double *row)
{
	size_t nw = r->cols.nworkload;

	for (size_t i = 0; i < nw; i++)
		row[i] = o->result.have[i] ? o->result.value[i] : NAN;
	row[nw + H_WALL] = o->wall_s;
	row[nw + H_USER] = o->user_s;
	row[nw + H_SYS] = o->sys_s;
	row[nw + H_RSS] = (double)o->maxrss_kib;
	row[nw + H_LEFT] = o->killed;
	memcpy(row + r->cols.probe0, o->probe, sizeof(o->probe));
	for (size_t i = r->cols.mon0; i < r->cols.n; i++)
		row[i] = NAN;
}

/* The descriptors and pids of the harness's processes, for rs. */
static void keep_add(struct run_settings *rs, int slot, pid_t pid,
		     const int *fds, int nfds)
{
	rs->keep[slot] = pid;
	for (int i = 0; i < nfds && rs->nclose < RS_CLOSE_MAX; i++)
		rs->close_fd[rs->nclose++] = fds[i];
}

/*
 * supervise_run() with the case's monitors sampling around it into rows
 * and its tracer (an iteration's) around them, its metrics into tv
 * (NULL for both: a warm-up); a sampler or tracer that cannot start or
 * end well costs the iteration its series or trace, not its result.
 */
static int monitored_run(const struct plan_case *c, struct case_result *r,
			 struct run_settings *rs, struct run_outcome *o,
			 struct monitor_rows *rows, double *tv)
{
	int fds[TRACE_FDS_MAX], n, rc;
	bool traced = false;

	memset(rs->keep, 0, sizeof(rs->keep));
	rs->nclose = 0;
	if (rows && c->trace_scope == TRACE_ITERATION)
		traced = !trace_start(&r->trace, (unsigned)r->niter + 1);
	if ((n = trace_fds(&r->trace, fds)))	/* the case's too */
		keep_add(rs, 1, trace_pid(&r->trace), fds, n);
	if (rows) {
		monitor_rows_free(rows);
		if (r->mon.mask && !monitor_start(&r->mon, fds))
			keep_add(rs, 0, r->mon.pid, fds, 2);
	}
	rc = supervise_run(c->wl, c->cfg, rs, o);
	if (rs->keep[0])
		monitor_stop(&r->mon, rows);
	/* an interrupted run is not kept waiting for perf's report */
	if (traced)
		trace_stop(&r->trace, !rc && o->status == RUN_INTERRUPTED ? NULL : tv);
	return rc;
}

/* One iteration, retried; 0 when it succeeded, else the last outcome says why. */
static int attempt(const struct plan_case *c, struct case_result *r,
		   struct run_outcome *o, struct monitor_rows *rows, double *tv)
{
	struct run_settings rs = { .timeout_s = c->timeout_s, .cpus = c->cpus,
				   .probes = c->probes, .task = &c->task };

	for (unsigned a = 0;; a++) {
		run_outcome_release(o);
		/* before failing is the attempt failing, retried alike */
		if (!casecmd_before(r->cmds, c, o) &&
		    monitored_run(c, r, &rs, o, rows, tv))
			return -1;
		if (o->status == RUN_OK)
			return 0;
		/* a signal or the user stopping us is not retried */
		if (o->status == RUN_INTERRUPTED || a >= c->retries)
			return 1;
		r->retried++;
	}
}

/* A failed attempt's status and reason into r. */
static void failed(struct case_result *r, struct run_outcome *o, bool warm)
{
	r->status = o->status;
	snprintf(r->reason, sizeof(r->reason), "%s%.*s", warm ? "warm-up: " : "",
		 (int)sizeof(r->reason) - 16, o->reason);
}

int runner_begin(const struct plan_case *c, struct case_result *r,
		 const struct runner_progress *p)
{
	struct run_outcome o = { .latency = NULL };
	int rc = 0;

	memset(r, 0, sizeof(*r));
	metric_cols_init(&r->cols, c->wl);
	if (c->monitors) {
		monitor_open(&r->mon, c->monitors, c->monitor_ms);
		monitor_pin(&r->mon, c->monitor_cpus);
		metric_cols_add_monitors(&r->cols, &r->mon);
	}
	if (c->trace && c->trace_root) {
		struct trace_spec ts = { .trace = c->trace, .scope = c->trace_scope,
					 .tasks = c->trace_tasks, .root = c->trace_root,
					 .job = c->job, .seq = c->seq };

		trace_open(&r->trace, &ts);
		metric_cols_add_trace(&r->cols, &r->trace);
	} else {
		trace_open(&r->trace, NULL);
	}
	r->values = xcalloc((size_t)(c->iterations ? c->iterations : 1) *
			    r->cols.n, sizeof(double));
	r->latency = xcalloc(c->iterations ? c->iterations : 1,
			     sizeof(*r->latency));
	r->monitors = xcalloc(c->iterations ? c->iterations : 1,
			      sizeof(*r->monitors));
	r->status = casecmd_begin(c, &r->cmds, r->reason, sizeof(r->reason));
	for (unsigned i = 0; i < c->warmup && !rc && r->status == RUN_OK; i++) {
		if (p && p->before)
			p->before(p->arg, c, i + 1, true);
		rc = attempt(c, r, &o, NULL, NULL);
		if (rc > 0)
			failed(r, &o, true);
	}
	run_outcome_release(&o);
	if (!rc && r->status == RUN_OK && c->trace_scope == TRACE_CASE)
		trace_start(&r->trace, 0);
	return rc < 0 ? -1 : 0;
}

int runner_step(const struct plan_case *c, struct case_result *r,
		const struct runner_progress *p)
{
	struct run_outcome o = { .latency = NULL };
	struct monitor_rows rows = { 0 };
	double *tv = xcalloc(r->trace.nmetrics + 1, sizeof(double));
	int rc;

	if (r->niter >= c->iterations)
		return free(tv), error("case %u: no room for iteration %zu (at most %u)",
				       c->seq, r->niter + 1, c->iterations);
	if (p && p->before)
		p->before(p->arg, c, (unsigned)r->niter + 1, false);
	for (size_t i = 0; i < r->trace.nmetrics; i++)
		tv[i] = NAN;
	rc = attempt(c, r, &o, &rows, tv);
	if (rc > 0)
		failed(r, &o, false);
	if (!rc) {
		double *row = r->values + r->niter * r->cols.n;

		r->latency[r->niter] = o.latency;	/* now the row's */
		o.latency = NULL;
		fill_row(r, &o, row);
		if (rows.n) {
			monitor_summaries(&r->mon, &rows, row + r->cols.mon0);
			r->monitors[r->niter] = monitor_rows_json(&r->mon, &rows);
		}
		if (c->trace_scope == TRACE_ITERATION)
			memcpy(row + r->cols.trace0, tv,
			       r->trace.nmetrics * sizeof(double));
		r->niter++;
	}
	free(tv);
	monitor_rows_free(&rows);
	run_outcome_release(&o);
	return rc;
}

void runner_end(const struct plan_case *c, struct case_result *r)
{
	if (trace_pid(&r->trace)) {
		/* a case's trace: one value, in its last row; an interrupted
		 * case's is not read */
		double *tv = xcalloc(r->trace.nmetrics + 1, sizeof(double));
		bool read = r->status != RUN_INTERRUPTED;

		trace_stop(&r->trace, read ? tv : NULL);
		if (read && r->niter)
			memcpy(r->values + (r->niter - 1) * r->cols.n + r->cols.trace0,
			       tv, r->trace.nmetrics * sizeof(double));
		free(tv);
	}
	casecmd_end(r->cmds, c);
	r->cmds = NULL;
}

int runner_case(const struct plan_case *c, struct case_result *r,
		const struct runner_progress *p)
{
	int rc = runner_begin(c, r, p);

	while (!rc && r->status == RUN_OK && r->niter < c->iterations)
		rc = runner_step(c, r, p) < 0 ? -1 : 0;
	runner_end(c, r);
	return rc;
}

size_t case_result_column(const struct case_result *r, size_t col, double *x)
{
	size_t n = 0;

	for (size_t i = 0; i < r->niter; i++) {
		double v = r->values[i * r->cols.n + col];

		if (isfinite(v))
			x[n++] = v;
	}
	return n;
}

int case_result_headline(const struct case_result *r)
{
	for (size_t i = 0; i < r->cols.nworkload; i++)
		if (r->cols.def[i].headline)
			return (int)i;
	return -1;
}

void case_result_free(struct case_result *r)
{
	metric_cols_free(&r->cols);
	free(r->values);
	r->values = NULL;
	if (r->latency)
		for (size_t i = 0; i < r->niter; i++)
			free(r->latency[i]);
	free(r->latency);
	r->latency = NULL;
	if (r->monitors)
		for (size_t i = 0; i < r->niter; i++)
			json_decref(r->monitors[i]);
	free(r->monitors);
	r->monitors = NULL;
	monitor_close(&r->mon);
	trace_close(&r->trace);
}

json_t *case_result_monitors(const struct case_result *r)
{
	json_t *all = NULL;

	for (size_t i = 0; r->monitors && i < r->niter; i++) {
		const char *name;
		json_t *ser;

		json_object_foreach(r->monitors[i], name, ser) {
			json_t *arr;

			if (!all)
				all = json_object();
			arr = json_object_get(all, name);
			if (!arr) {
				arr = json_array();
				for (size_t k = 0; k < r->niter; k++)
					json_array_append_new(arr, json_null());
				json_object_set_new(all, name, arr);
			}
			json_array_set(arr, i, ser);
		}
	}
	return all;
}
