// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/export_run.c: the run model (model/run.h) from and to the export
 * document (doc/export.md): run_from_export() reads a validated document,
 * run_to_export() writes the one export and show print and import takes
 * back. The document is the store's (export.c checks, reads and writes
 * it); the model only holds what it says.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "stats/hist.h"
#include "store/store.h"
#include "util.h"

/* A string member copied, or NULL when absent or null. */
static char *dup_or_null(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? xstrdup(s) : NULL;
}

/* A string member copied, "" when absent or null; *null notes which. */
static char *dup_or_empty(const json_t *o, const char *key, unsigned *nulls,
			  unsigned bit)
{
	const char *s = json_string_value(json_object_get(o, key));

	if (!s)
		*nulls |= bit;
	return xstrdup(s ? s : "");
}

static double number_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}


static int metrics_from_export(const json_t *metrics, struct run *r)
{
	const char *name;
	json_t *m;
	size_t i = 0;

	r->nmetrics = json_object_size(metrics);
	r->metrics = xcalloc(r->nmetrics + 1, sizeof(*r->metrics));
	json_object_foreach((json_t *)metrics, name, m) {
		struct metric_def *d = &r->metrics[i++];
		int b = better_parse(json_string_value(json_object_get(m, "better")) ?: "");

		d->name = xstrdup(name);
		d->unit = xstrdup(json_string_value(json_object_get(m, "unit")) ?: "");
		d->better = b < 0 ? BETTER_NONE : (enum better)b;
		d->headline = json_is_true(json_object_get(m, "headline"));
		d->help = xstrdup(json_string_value(json_object_get(m, "help")) ?: "");
	}
	return 0;
}


static int cmp_series(const void *a, const void *b)
{
	const struct run_series *x = a, *y = b;

	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

static int samples_from_export(const json_t *samples, const char *origin,
			       size_t at, const struct run *r,
			       struct run_case *c)
{
	const char *name;
	json_t *arr;

	c->series = xcalloc(json_object_size(samples) + 1, sizeof(*c->series));
	json_object_foreach((json_t *)samples, name, arr) {
		struct run_series *s = &c->series[c->nseries];
		int m = run_metric(r, name);

		if (m < 0)
			return error("%s: cases[%zu].samples.%s: metric has no entry in \"metrics\"",
				     origin, at, name);
		if (json_array_size(arr) != c->niter)
			return error("%s: cases[%zu].samples.%s: %zu values for %zu iterations",
				     origin, at, name, json_array_size(arr),
				     c->niter);
		s->metric = (size_t)m;
		s->x = xcalloc(c->niter + 1, sizeof(*s->x));
		for (size_t i = 0; i < c->niter; i++)
			s->x[i] = number_or_nan(json_array_get(arr, i));
		c->nseries++;
	}
	qsort(c->series, c->nseries, sizeof(*c->series), cmp_series);
	run_case_index(r, c);
	return 0;
}

/* histograms.latency, when the case has any that is not null. */
static int hists_from_export(const json_t *hists, const char *origin,
			     size_t at, struct run_case *c)
{
	const json_t *arr = json_object_get(hists, "latency");
	bool any = false;
	size_t i;
	json_t *h;

	json_array_foreach((json_t *)arr, i, h)
		any |= !json_is_null(h);
	if (!any)
		return 0;
	if (json_array_size(arr) != c->niter)
		return error("%s: cases[%zu].histograms.latency: %zu histograms for %zu iterations",
			     origin, at, json_array_size(arr), c->niter);
	c->latency = xcalloc(c->niter, sizeof(*c->latency));
	json_array_foreach((json_t *)arr, i, h) {
		int rc;

		if (json_is_null(h))
			continue;
		c->latency[i] = xcalloc_lines(1, sizeof(struct hist));
		error_context("%s: cases[%zu].histograms.latency[%zu]", origin,
			      at, i);
		rc = hist_from_json(h, c->latency[i]);
		error_context(NULL);
		if (rc)
			return -1;
	}
	return 0;
}

static int case_from_export(const json_t *j, const char *origin, size_t at,
			    const struct run *r, struct run_case *c)
{
	const json_t *settings = json_object_get(j, "settings"), *v;
	const json_t *version = json_object_get(j, "version");
	const char *name;

	c->seq = (unsigned)json_integer_value(json_object_get(j, "seq"));
	c->job = xstrdup(json_string_value(json_object_get(j, "job")) ?: "");
	c->workload = xstrdup(json_string_value(json_object_get(j, "workload")) ?: "");
	if (version && (!json_is_integer(version) ||
			json_integer_value(version) < 1 ||
			json_integer_value(version) > 1000000))
		return error("%s: cases[%zu].version: expected an integer from 1 to 1000000",
			     origin, at);
	c->version = version ? (unsigned)json_integer_value(version) : 1;
	c->params = dup_or_empty(j, "params", &c->nulls, RUN_NULL_PARAMS);
	c->sweep_keys = dup_or_empty(j, "sweep_keys", &c->nulls,
				     RUN_NULL_SWEEP_KEYS);
	c->sweep = dup_or_empty(j, "sweep", &c->nulls, RUN_NULL_SWEEP);
	c->complete = !strcmp(json_string_value(json_object_get(j, "status")) ?: "",
			      "complete");
	c->reason = dup_or_null(j, "reason");
	run_case_take_parameters(c, json_deep_copy(json_object_get(j,
							"parameters")));
	if (settings && !json_is_object(settings))
		return error("%s: cases[%zu].settings: expected an object",
			     origin, at);
	json_object_foreach((json_t *)settings, name, v)
		if (!json_is_string(v))
			return error("%s: cases[%zu].settings.%s: expected a string",
				     origin, at, name);
	run_case_set_settings(c, settings);
	c->niter = (size_t)json_integer_value(json_object_get(j, "iterations"));
	if (samples_from_export(json_object_get(j, "samples"), origin, at, r, c))
		return -1;
	if (json_object_size(json_object_get(j, "monitors")))
		c->monitors = json_deep_copy(json_object_get(j, "monitors"));
	return hists_from_export(json_object_get(j, "histograms"), origin, at, c);
}

int run_from_export(const json_t *doc, const char *origin, struct run *r)
{
	const json_t *run = json_object_get(doc, "run");
	const json_t *cases = json_object_get(doc, "cases");
	size_t i;

	memset(r, 0, sizeof(*r));
	r->id = -1;
	if (!json_is_object(run) || !json_is_array(cases))
		return error("%s: not a schedlab export", origin);
	r->uuid = xstrdup(json_string_value(json_object_get(run, "uuid")) ?: "");
	r->label = dup_or_null(run, "label");
	r->host = dup_or_null(run, "host");
	r->command = dup_or_null(run, "command");
	r->schedlab_version = dup_or_null(run, "schedlab_version");
	r->ab = dup_or_null(run, "ab");
	r->variant = dup_or_null(run, "variant");
	r->status = xstrdup(json_string_value(json_object_get(run, "status")) ?: "");
	r->started = number_or_nan(json_object_get(run, "started"));
	r->ended = number_or_nan(json_object_get(run, "ended"));
	r->environment = json_deep_copy(json_object_get(doc, "environment"));
	if (!r->environment)
		r->environment = json_object();
	run_env_figures(r);
	metrics_from_export(json_object_get(doc, "metrics"), r);
	r->ncases = json_array_size(cases);
	r->cases = xcalloc(r->ncases + 1, sizeof(*r->cases));
	for (i = 0; i < r->ncases; i++)
		if (case_from_export(json_array_get(cases, i), origin, i, r,
				     &r->cases[i])) {
			run_free(r);
			return -1;
		}
	return 0;
}


static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *real_or_null(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static json_t *case_to_export(const struct run *r, const struct run_case *c)
{
	json_t *j = json_object(), *settings = json_object(), *samples;

	json_object_set_new(j, "seq", json_integer(c->seq));
	json_object_set_new(j, "job", json_string(c->job));
	json_object_set_new(j, "workload", json_string(c->workload));
	json_object_set_new(j, "version", json_integer(c->version ? c->version : 1));
	json_object_set_new(j, "params", c->nulls & RUN_NULL_PARAMS ?
			    json_null() : json_string(c->params));
	json_object_set_new(j, "sweep_keys", c->nulls & RUN_NULL_SWEEP_KEYS ?
			    json_null() : json_string(c->sweep_keys));
	json_object_set_new(j, "sweep", c->nulls & RUN_NULL_SWEEP ?
			    json_null() : json_string(c->sweep));
	json_object_set_new(j, "status", json_string(c->complete ? "complete" :
						     "failed"));
	json_object_set_new(j, "reason", string_or_null(c->reason));
	json_object_set_new(j, "parameters", c->parameters ?
			    json_deep_copy(c->parameters) : json_object());
	for (size_t i = 0; i < c->nsetting; i++)
		json_object_set_new(settings, c->setting[i].name,
				    json_string(c->setting[i].value));
	json_object_set_new(j, "settings", settings);
	json_object_set_new(j, "iterations", json_integer((json_int_t)c->niter));
	samples = json_object();
	for (size_t k = 0; k < c->nseries; k++) {
		json_t *arr = json_array();

		for (size_t i = 0; i < c->niter; i++)
			json_array_append_new(arr, real_or_null(c->series[k].x[i]));
		json_object_set_new(samples, r->metrics[c->series[k].metric].name,
				    arr);
	}
	json_object_set_new(j, "samples", samples);
	if (c->latency) {
		json_t *h = json_object(), *arr = json_array();

		for (size_t i = 0; i < c->niter; i++)
			json_array_append_new(arr, c->latency[i] ?
					      hist_to_json(c->latency[i]) :
					      json_null());
		json_object_set_new(h, "latency", arr);
		json_object_set_new(j, "histograms", h);
	}
	if (json_object_size(c->monitors)) {
		/* by name, whatever order the loader met them in */
		const char **names = xcalloc(json_object_size(c->monitors),
					     sizeof(*names));
		json_t *mons = json_object(), *v;
		const char *name;
		size_t n = 0;

		json_object_foreach(c->monitors, name, v)
			names[n++] = name;
		qsort(names, n, sizeof(*names), str_cmp);
		for (size_t i = 0; i < n; i++)
			json_object_set(mons, names[i],
					json_object_get(c->monitors, names[i]));
		free(names);
		json_object_set_new(j, "monitors", mons);
	}
	return j;
}

json_t *run_to_export(const struct run *r)
{
	json_t *doc = json_object(), *run = json_object(), *metrics = json_object();
	json_t *cases = json_array();

	json_object_set_new(doc, "schema", json_string(EXPORT_SCHEMA));
	json_object_set_new(run, "uuid", json_string(r->uuid));
	json_object_set_new(run, "label", string_or_null(r->label));
	json_object_set_new(run, "host", string_or_null(r->host));
	json_object_set_new(run, "started", json_real(r->started));
	json_object_set_new(run, "ended", real_or_null(r->ended));
	json_object_set_new(run, "status", json_string(r->status));
	json_object_set_new(run, "command", string_or_null(r->command));
	json_object_set_new(run, "schedlab_version",
			    string_or_null(r->schedlab_version));
	json_object_set_new(run, "ab", string_or_null(r->ab));
	json_object_set_new(run, "variant", string_or_null(r->variant));
	json_object_set_new(doc, "run", run);
	json_object_set_new(doc, "environment", r->environment ?
			    json_deep_copy(r->environment) : json_object());
	for (size_t m = 0; m < r->nmetrics; m++) {
		const struct metric_def *d = &r->metrics[m];
		json_t *o = json_object();

		json_object_set_new(o, "unit", json_string(d->unit));
		json_object_set_new(o, "better", json_string(better_names[d->better]));
		json_object_set_new(o, "headline", json_boolean(d->headline));
		json_object_set_new(o, "help", json_string(d->help));
		json_object_set_new(metrics, d->name, o);
	}
	json_object_set_new(doc, "metrics", metrics);
	for (size_t i = 0; i < r->ncases; i++)
		json_array_append_new(cases, case_to_export(r, &r->cases[i]));
	json_object_set_new(doc, "cases", cases);
	return doc;
}
