// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several runs as one side of a comparison (run_merge(), model/run.h):
 * the iterations of the same case in each, one after the other, and
 * where each run's end - the tables pool the iterations, the test
 * between runs (stats/noise.h) takes each run's median.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "util.h"

static bool same_case(const struct run_case *a, const struct run_case *b)
{
	return !strcmp(a->job, b->job) && !strcmp(a->workload, b->workload) &&
	       a->version == b->version && !strcmp(a->params, b->params) &&
	       !strcmp(a->sweep, b->sweep);
}

static void take(struct run *into, struct run_case *c, const struct run *from,
		 const struct run_case *fc)
{
	size_t old = c->niter, n = old + fc->niter;

	if (!c->nrep) {
		c->rep_end = xcalloc(2, sizeof(*c->rep_end));
		c->rep_end[0] = old;
		c->nrep = 1;
	} else {
		c->rep_end = realloc(c->rep_end, (c->nrep + 1) * sizeof(*c->rep_end));
		if (!c->rep_end)
			abort();
	}
	c->rep_end[c->nrep++] = n;
	for (size_t k = 0; k < c->nseries; k++) {
		struct run_series *s = &c->series[k];
		int m = run_metric(from, into->metrics[s->metric].name);
		const struct run_series *fs = run_series_of(fc, m);

		s->x = realloc(s->x, (n + 1) * sizeof(*s->x));
		if (!s->x)
			abort();
		for (size_t i = 0; i < fc->niter; i++)
			s->x[old + i] = fs ? fs->x[i] : NAN;
	}
	if (c->latency) {
		c->latency = realloc(c->latency, (n + 1) * sizeof(*c->latency));
		if (!c->latency)
			abort();
		for (size_t i = old; i < n; i++)
			c->latency[i] = NULL;
	}
	if (c->monitors || fc->monitors) {
		/* each monitor's series grows by from's, null where it had none */
		const char *name;
		json_t *arr;

		if (!c->monitors)
			c->monitors = json_object();
		json_object_foreach(fc->monitors, name, arr)
			if (!json_object_get(c->monitors, name)) {
				json_t *nulls = json_array();

				for (size_t i = 0; i < old; i++)
					json_array_append_new(nulls, json_null());
				json_object_set_new(c->monitors, name, nulls);
			}
		json_object_foreach(c->monitors, name, arr) {
			json_t *from_arr = json_object_get(fc->monitors, name);

			for (size_t i = 0; i < fc->niter; i++) {
				json_t *v = json_array_get(from_arr, i);

				json_array_append(arr, v ? v : json_null());
			}
		}
	}
	c->niter = n;
}

size_t run_merge(struct run *into, const struct run *from)
{
	size_t took = 0;

	for (size_t i = 0; i < into->ncases; i++) {
		struct run_case *c = &into->cases[i];

		if (!c->complete)
			continue;
		for (size_t l = 0; l < from->ncases; l++) {
			const struct run_case *fc = &from->cases[l];

			if (fc->complete && fc->niter && same_case(c, fc)) {
				take(into, c, from, fc);
				took++;
				break;
			}
		}
	}
	if (!into->nmerged)
		into->first_started = into->last_started = into->started;
	into->first_started = fmin(into->first_started, from->started);
	into->last_started = fmax(into->last_started, from->started);
	into->merged = realloc(into->merged, (into->nmerged + 1) * sizeof(char *));
	if (!into->merged)
		abort();
	into->merged[into->nmerged++] = xstrdup(from->uuid ? from->uuid : "");
	return took;
}

void run_case_rep(const struct run_case *c, size_t i, size_t *lo, size_t *hi)
{
	if (!c->nrep) {
		*lo = 0;
		*hi = c->niter;
		return;
	}
	*lo = i ? c->rep_end[i - 1] : 0;
	*hi = c->rep_end[i];
}

void run_starts(const struct run *r, double *first, double *last)
{
	*first = r->nmerged ? r->first_started : r->started;
	*last = r->nmerged ? r->last_started : r->started;
}
