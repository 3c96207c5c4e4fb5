// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	c->def = xcalloc(c->n, sizeof(*c->def));
	memcpy(c->def, wl->metrics, n * sizeof(*c->def));
	memcpy(c->def + n, harness_metrics, sizeof(harness_metrics));
	memcpy(c->def + c->probe0, probe_metrics, sizeof(probe_metrics));
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
}

/* One iteration, retried; 0 when it succeeded, else the last outcome says why. */
static int attempt(const struct plan_case *c, struct case_result *r,
		   struct run_outcome *o)
{
	struct run_settings rs = { c->timeout_s, c->cpus, c->probes };

	for (unsigned a = 0;; a++) {
		run_outcome_release(o);
		if (supervise_run(c->wl, c->cfg, &rs, o))
			return -1;
		if (o->status == RUN_OK)
			return 0;
		/* a signal or the user stopping us is not retried */
		if (o->status == RUN_INTERRUPTED || a >= c->retries)
			return 1;
		r->retried++;
	}
}

int runner_case(const struct plan_case *c, struct case_result *r,
		const struct runner_progress *p)
{
	struct run_outcome o = { .latency = NULL };
	unsigned total = c->warmup + c->iterations;

	memset(r, 0, sizeof(*r));
	metric_cols_init(&r->cols, c->wl);
	r->values = xcalloc((size_t)c->iterations * r->cols.n, sizeof(double));
	r->latency = xcalloc(c->iterations ? c->iterations : 1,
			     sizeof(*r->latency));
	for (unsigned i = 0; i < total; i++) {
		bool warm = i < c->warmup;
		int rc;

		if (p && p->before)
			p->before(p->arg, c, warm ? i + 1 : i - c->warmup + 1,
				  warm);
		rc = attempt(c, r, &o);
		if (rc < 0)
			return -1;
		if (rc) {
			r->status = o.status;
			snprintf(r->reason, sizeof(r->reason), "%s%.*s",
				 warm ? "warm-up: " : "",
				 (int)sizeof(r->reason) - 16, o.reason);
			run_outcome_release(&o);
			return 0;
		}
		if (!warm) {
			r->latency[r->niter] = o.latency;	/* now the row's */
			o.latency = NULL;
			fill_row(r, &o, r->values + r->niter++ * r->cols.n);
		}
	}
	run_outcome_release(&o);
	r->status = RUN_OK;
	return 0;
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
}
