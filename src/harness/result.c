// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness/result.c: a case as the harness just ran it (a plan case and
 * its case_result) into the run model, so that `run` summarises what it
 * measured with the code `show` uses for what was stored; and a case's
 * options as JSON (json_parameters()), as stored and exported.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/identity.h"
#include "harness/result.h"
#include "harness/runner.h"
#include "options.h"
#include "stats/hist.h"
#include "util.h"
#include "workload/workload.h"

json_t *json_parameters(const struct workload *wl, const void *cfg)
{
	json_t *p = json_object();

	for (const struct opt_def *o = wl->options; o->name; o++) {
		const void *v = (const char *)cfg + o->offset;
		char buf[64];

		if (o->set)
			continue;
		switch (o->type) {
		case OPT_UINT:
		case OPT_DURATION:
			json_object_set_new(p, o->name,
				json_integer(*(const unsigned int *)v));
			break;
		case OPT_BOOL:
			json_object_set_new(p, o->name,
				json_boolean(*(const bool *)v));
			break;
		case OPT_ENUM:
		case OPT_STRING:
		case OPT_LIST:
			opt_format(o, cfg, buf, sizeof(buf));
			json_object_set_new(p, o->name, json_string(buf));
			break;
		}
	}
	return p;
}

/* The index of d in r->metrics, added (copied) when r lacks it. */
static size_t metric_add(struct run *r, const struct metric_def *d)
{
	int m = run_metric(r, d->name);
	struct metric_def *n;

	if (m >= 0)
		return (size_t)m;
	r->metrics = realloc(r->metrics, (r->nmetrics + 1) * sizeof(*r->metrics));
	if (!r->metrics)
		abort();
	n = &r->metrics[r->nmetrics];
	*n = *d;
	n->name = xstrdup(d->name);
	n->unit = xstrdup(d->unit ? d->unit : "");
	n->help = xstrdup(d->help ? d->help : "");
	return r->nmetrics++;
}

struct run_case *run_case_from_result(struct run *r, const struct plan_case *pc,
				      const struct case_result *res)
{
	size_t before = r->nmetrics, *col_metric;
	struct run_case *c;
	json_t *settings;

	col_metric = xcalloc(res->cols.n + 1, sizeof(*col_metric));
	for (size_t k = 0; k < res->cols.n; k++)
		col_metric[k] = metric_add(r, &res->cols.def[k]);
	/* the cases before this one index the metrics they had */
	if (r->nmetrics != before)
		for (size_t i = 0; i < r->ncases; i++)
			run_case_index(r, &r->cases[i]);
	r->cases = realloc(r->cases, (r->ncases + 1) * sizeof(*r->cases));
	if (!r->cases)
		abort();
	c = &r->cases[r->ncases++];
	memset(c, 0, sizeof(*c));
	c->seq = pc->seq;
	c->job = xstrdup(pc->job);
	c->workload = xstrdup(pc->wl->name);
	c->version = identity_version(pc->wl);
	c->params = xstrdup(pc->params ? pc->params : "");
	c->sweep_keys = xstrdup(pc->sweep_keys ? pc->sweep_keys : "");
	c->sweep = xstrdup(pc->sweep ? pc->sweep : "");
	c->complete = res->status == RUN_OK;
	c->reason = c->complete ? NULL : xstrdup(res->reason);
	run_case_take_parameters(c, json_parameters(pc->wl, pc->cfg));
	settings = identity_settings(pc);
	run_case_set_settings(c, settings);
	json_decref(settings);
	c->niter = res->niter;
	/* a series for each metric measured at least once, as stored */
	c->series = xcalloc(res->cols.n + 1, sizeof(*c->series));
	for (size_t k = 0; k < res->cols.n; k++) {
		struct run_series *s = &c->series[c->nseries];
		bool any = false;

		for (size_t i = 0; i < res->niter; i++)
			any |= !isnan(res->values[i * res->cols.n + k]);
		if (!any)
			continue;
		s->metric = col_metric[k];
		s->x = xcalloc(res->niter + 1, sizeof(*s->x));
		for (size_t i = 0; i < res->niter; i++)
			s->x[i] = res->values[i * res->cols.n + k];
		c->nseries++;
	}
	/* columns follow the run's metric order unless the run began with
	 * another workload: sort, as the loaders do */
	for (size_t a = 1; a < c->nseries; a++)
		for (size_t b = a; b > 0 && c->series[b - 1].metric >
					    c->series[b].metric; b--) {
			struct run_series t = c->series[b];

			c->series[b] = c->series[b - 1];
			c->series[b - 1] = t;
		}
	run_case_index(r, c);
	for (size_t i = 0; res->latency && i < res->niter; i++) {
		if (!res->latency[i])
			continue;
		if (!c->latency)
			c->latency = xcalloc(res->niter, sizeof(*c->latency));
		c->latency[i] = xcalloc_lines(1, sizeof(struct hist));
		memcpy(c->latency[i], res->latency[i], sizeof(struct hist));
	}
	c->monitors = case_result_monitors(res);
	free(col_metric);
	return c;
}
