// SPDX-License-Identifier: GPL-2.0-only
/*
 * model/run_model.c: struct run (model/run.h) as plain data: a case's
 * parameters and settings as text, its series indexed by metric, the
 * lookups every reader uses, and freeing it all. Filling it is the
 * store's: store_load() from a database, run_from_export() from an
 * export document (store/export_run.c), run_load() picks (store/load.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "util.h"

/* A parameter's value as text: strings as they are, the rest as JSON. */
static char *param_text(const json_t *v)
{
	char *s;

	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT |
		       JSON_REAL_PRECISION(17));
	if (!s)
		abort();
	return s;
}

/* An object's members as name=value text pairs; *n: how many. */
static struct run_param *params_of(const json_t *obj, size_t *n)
{
	struct run_param *p;
	const char *name;
	json_t *v;
	size_t i = 0;

	*n = json_object_size(obj);
	if (!*n)
		return NULL;
	p = xcalloc(*n, sizeof(*p));
	json_object_foreach((json_t *)obj, name, v) {
		p[i].name = xstrdup(name);
		p[i].value = param_text(v);
		i++;
	}
	return p;
}

static void params_free(struct run_param *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].value);
	}
	free(p);
}

void run_case_take_parameters(struct run_case *c, json_t *parameters)
{
	json_decref(c->parameters);
	params_free(c->param, c->nparam);
	c->parameters = parameters ? parameters : json_object();
	c->param = params_of(c->parameters, &c->nparam);
}

void run_case_set_settings(struct run_case *c, const json_t *settings)
{
	params_free(c->setting, c->nsetting);
	c->setting = params_of(settings, &c->nsetting);
}

void run_case_index(const struct run *r, struct run_case *c)
{
	free(c->by_metric);
	c->by_metric = xcalloc(r->nmetrics + 1, sizeof(*c->by_metric));
	for (size_t m = 0; m < r->nmetrics; m++)
		c->by_metric[m] = -1;
	for (size_t k = 0; k < c->nseries; k++)
		c->by_metric[c->series[k].metric] = (int)k;
}

void run_case_free(struct run_case *c)
{
	free(c->job);
	free(c->workload);
	free(c->params);
	params_free(c->param, c->nparam);
	params_free(c->setting, c->nsetting);
	json_decref(c->parameters);
	free(c->sweep_keys);
	free(c->sweep);
	free(c->reason);
	for (size_t k = 0; k < c->nseries; k++)
		free(c->series[k].x);
	free(c->series);
	free(c->by_metric);
	if (c->latency)
		for (size_t i = 0; i < c->niter; i++)
			free(c->latency[i]);
	free(c->latency);
	json_decref(c->monitors);
	free(c->rep_end);
	memset(c, 0, sizeof(*c));
}

void run_free(struct run *r)
{
	free(r->uuid);
	free(r->label);
	free(r->host);
	free(r->command);
	free(r->schedlab_version);
	free(r->ab);
	free(r->variant);
	free(r->status);
	json_decref(r->environment);
	for (size_t m = 0; m < r->nmetrics; m++) {
		free((char *)r->metrics[m].name);
		free((char *)r->metrics[m].unit);
		free((char *)r->metrics[m].help);
	}
	free(r->metrics);
	for (size_t i = 0; i < r->ncases; i++)
		run_case_free(&r->cases[i]);
	free(r->cases);
	for (size_t i = 0; i < r->nmerged; i++)
		free(r->merged[i]);
	free(r->merged);
	memset(r, 0, sizeof(*r));
	r->id = -1;
}

int run_metric(const struct run *r, const char *name)
{
	for (size_t m = 0; m < r->nmetrics; m++)
		if (!strcmp(r->metrics[m].name, name))
			return (int)m;
	return -1;
}

int run_headline(const struct run *r, const char *workload)
{
	size_t wl = strlen(workload);

	for (size_t m = 0; m < r->nmetrics; m++) {
		const char *name = r->metrics[m].name;

		if (r->metrics[m].headline && !strncmp(name, workload, wl) &&
		    name[wl] == '.')
			return (int)m;
	}
	return -1;
}

size_t run_samples(const struct run_case *c, int m, double *out)
{
	const struct run_series *s = run_series_of(c, m);
	size_t n = 0;

	if (!s)
		return 0;
	for (size_t i = 0; i < c->niter; i++)
		if (isfinite(s->x[i]))
			out[n++] = s->x[i];
	return n;
}

const char *run_setting(const struct run_case *c, const char *name)
{
	for (size_t i = 0; i < c->nsetting; i++)
		if (!strcmp(c->setting[i].name, name))
			return c->setting[i].value;
	return NULL;
}

static double env_value(const json_t *env, const char *key)
{
	const json_t *v = json_object_get(json_object_get(env, key), "value");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void run_env_figures(struct run *r)
{
	r->busy_at_start = env_value(r->environment, "busy_at_start");
	r->others_during = env_value(r->environment, "others_during_run");
}
