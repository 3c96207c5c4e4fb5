// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/backend.c: the store interface (store.h) over its backends. The
 * table of schemes below is the one place that knows them: a database's
 * name picks its row (a PostgreSQL URL, else a SQLite file), and every
 * call goes through the opened backend's ops (store_int.h).
 *
 * A backend of another kind: its ops (store_int.h), its opener, a row
 * here; doc/architecture.md has the recipe.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "store/store_int.h"
#include "util.h"

/* The kinds of database, by the name's prefix; the last row: the rest. */
static const struct store_scheme schemes[] = {
	{ .kind = "postgresql", .prefix = "postgresql://", .queue = true,
	  .open = pg_store_open },
	{ .kind = "postgresql", .prefix = "postgres://", .queue = true,
	  .open = pg_store_open },
	{ .kind = "sqlite", .file = true, .open = sqlite_store_open },
};

const struct store_scheme *store_scheme(const char *db)
{
	size_t i;

	for (i = 0; i + 1 < ARRAY_SIZE(schemes); i++)
		if (!strncmp(db, schemes[i].prefix, strlen(schemes[i].prefix)))
			break;
	return &schemes[i];
}

static struct store *open_store(const char *db, bool write)
{
	return store_scheme(db)->open(db, write);
}

struct store *store_open(const char *path)
{
	return open_store(path, true);
}

struct store *store_open_ro(const char *path)
{
	return open_store(path, false);
}

void store_close(struct store *s)
{
	if (s)
		s->ops->close(s);
}

const char *store_path(const struct store *s)
{
	return s->name;
}

const char *store_kind(const struct store *s)
{
	return s->ops->kind;
}

int store_run_begin(struct store *s, const struct store_run *r, int64_t *id)
{
	return s->ops->run_begin(s, r, id);
}

int store_run_end(struct store *s, int64_t id, const char *status,
		  double ended, json_t *environment)
{
	return s->ops->run_end(s, id, status, ended, environment);
}

int store_case_add(struct store *s, int64_t run_id, const struct store_case *c)
{
	return s->ops->case_add(s, run_id, c);
}

/*
 * A uuid is looked up here, for every backend, before the backend's own
 * resolve (ids and labels): a label that happens to look like a uuid of
 * no run still resolves as a label.
 */
int store_resolve(struct store *s, const char *spec, int64_t *id)
{
	if (uuid_valid(spec)) {
		int rc = store_find_uuid(s, spec, id);

		if (rc)
			return rc < 0 ? -1 : 0;
	}
	return s->ops->resolve(s, spec, id);
}

int store_find_uuid(struct store *s, const char *uuid, int64_t *id)
{
	return s->ops->find_uuid(s, uuid, id);
}

int store_relabel(struct store *s, const char *uuid, const char *label)
{
	return s->ops->relabel(s, uuid, label);
}

int store_runs(struct store *s, struct store_run_info **runs, size_t *n)
{
	return s->ops->runs(s, runs, n);
}

int store_ab_runs(struct store *s, const char *ab, struct store_ab_run **runs,
		  size_t *n)
{
	return s->ops->ab_runs(s, ab, runs, n);
}

int store_load(struct store *s, int64_t id, struct run *r)
{
	return s->ops->load(s, id, r);
}

/* The export document is the model's: one reader of a run per backend. */
json_t *store_export(struct store *s, int64_t id)
{
	struct run r;
	json_t *doc;

	if (store_load(s, id, &r))
		return NULL;
	doc = run_to_export(&r);
	run_free(&r);
	return doc;
}

int store_import(struct store *s, json_t *doc, const char *origin,
		 int64_t *id)
{
	return s->ops->import(s, doc, origin, false, id);
}

int store_import_once(struct store *s, json_t *doc, const char *origin,
		      int64_t *id)
{
	return s->ops->import(s, doc, origin, true, id);
}

int store_estimate(struct store *s, const char *workload, unsigned version,
		   const char *params, double *secs)
{
	return s->ops->estimate(s, workload, version, params, secs);
}

int store_history(struct store *s, const char *label, const char *host,
		  const char *workload, unsigned version, const char *params,
		  const char *metric, unsigned max,
		  store_history_fn *fn, void *arg)
{
	return s->ops->history(s, label, host, workload, version, params,
			       metric, max, fn, arg);
}

void *store_grow(void *v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 16;
	return xrealloc(v, *cap * size);
}

struct store_series_case *series_case_add(struct store_series *out)
{
	struct store_series_case *c;

	if (!(out->ncases & (out->ncases - 1)))	/* 0, 1, 2, 4, ...: grow */
		out->cases = xrealloc(out->cases, (out->ncases ? 2 * out->ncases : 1) *
				      sizeof(*out->cases));
	c = &out->cases[out->ncases++];
	memset(c, 0, sizeof(*c));
	return c;
}

void series_sample_add(struct store_series_case *c, double v)
{
	if (!(c->n & (c->n - 1)))
		c->x = xrealloc(c->x, (c->n ? 2 * c->n : 1) * sizeof(*c->x));
	c->x[c->n++] = v;
}

static void series_case_free(struct store_series_case *c)
{
	free(c->uuid);
	free(c->label);
	free(c->host);
	free(c->kernel);
	free(c->command);
	free(c->params);
	free(c->sweep_keys);
	free(c->sweep);
	free(c->settings);
	free(c->x);
}

void store_series_free(struct store_series *out)
{
	for (size_t i = 0; i < out->nmetrics; i++) {
		free(out->metrics[i].name);
		free(out->metrics[i].unit);
	}
	free(out->metrics);
	for (size_t i = 0; i < out->njobs; i++)
		free(out->jobs[i]);
	free(out->jobs);
	for (size_t i = 0; i < out->ncases; i++)
		series_case_free(&out->cases[i]);
	free(out->cases);
	memset(out, 0, sizeof(*out));
}

/* A glob that a run without the field never matches. */
static bool glob_keeps(const char *glob, const char *s)
{
	return !glob || (s && !fnmatch(glob, s, 0));
}

int store_series(struct store *s, const struct store_series_query *q,
		 struct store_series *out)
{
	const char *want = q->metric;
	size_t keep = 0;

	memset(out, 0, sizeof(*out));
	if (s->ops->series_meta(s, q->job, out))
		return -1;
	for (size_t i = 0; i < out->nmetrics && !out->metric; i++) {
		const struct store_series_metric *m = &out->metrics[i];

		if (want ? !strcmp(m->name, want) : m->headline)
			out->metric = m;
	}
	if (!out->metric && !want && out->nmetrics)
		out->metric = &out->metrics[0];	/* a job without a headline */
	if (!out->metric)
		return 0;
	if (s->ops->series(s, q, out->metric->name, out))
		return -1;
	/* the globs here, so that they mean the same on every backend */
	for (size_t i = 0; i < out->ncases; i++) {
		struct store_series_case *c = &out->cases[i];

		if (glob_keeps(q->host, c->host) && glob_keeps(q->label, c->label))
			out->cases[keep++] = *c;
		else
			series_case_free(c);
	}
	out->ncases = keep;
	return 0;
}

static int no_campaigns(struct store *s)
{
	return error("%s: campaigns are kept in a SQLite store, not in %s (give --db PATH)",
		     s->name, s->ops->kind);
}

int store_campaign_get(struct store *s, const char *name, json_t **doc)
{
	*doc = NULL;
	return s->ops->campaign_get ? s->ops->campaign_get(s, name, doc) :
		no_campaigns(s);
}

int store_campaign_put(struct store *s, const char *name, const json_t *doc,
		       bool create)
{
	return s->ops->campaign_put ? s->ops->campaign_put(s, name, doc, create) :
		no_campaigns(s);
}

int store_campaign_names(struct store *s, char ***names, size_t *n)
{
	*names = NULL;
	*n = 0;
	return s->ops->campaign_names ? s->ops->campaign_names(s, names, n) :
		no_campaigns(s);
}
