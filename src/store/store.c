// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/store.c: the store interface (store.h) over its backends: the
 * database's name picks one (a PostgreSQL URL, else a SQLite file), and
 * every call goes through its ops (store_int.h). What needs no backend -
 * the default path, a URL without its password, the export of a loaded
 * run - is here.
 */
#include <fnmatch.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/run.h"
#include "store/store_int.h"
#include "util.h"

bool store_is_url(const char *db)
{
	return !strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11);
}

bool store_missing(const char *db)
{
	return !store_is_url(db) && access(db, F_OK);
}

/*
 * "scheme://user:secret@host/db?password=x&sslmode=y" ->
 * "scheme://user@host/db?sslmode=y".
 */
char *store_url_redact(const char *db)
{
	char *out = xstrdup(db), *auth, *at, *slash, *q, *p;

	if (!store_is_url(db))
		return out;
	auth = strstr(out, "://") + 3;
	slash = auth + strcspn(auth, "/?");
	at = memchr(auth, '@', slash - auth);
	if (at) {
		/* the last '@' before the host: a user name may hold one */
		char *a;

		while ((a = memchr(at + 1, '@', slash - at - 1)))
			at = a;
		p = memchr(auth, ':', at - auth);
		if (p)
			memmove(p, at, strlen(at) + 1);
	}
	q = strchr(out, '?');
	if (!q)
		return out;
	p = q + 1;
	while (*p) {
		size_t len = strcspn(p, "&");

		if (!strncmp(p, "password=", 9)) {
			memmove(p, p + len + (p[len] == '&'),
				strlen(p + len + (p[len] == '&')) + 1);
			continue;
		}
		p += len + (p[len] == '&');
	}
	p = out + strlen(out);
	while (p > q + 1 && p[-1] == '&')
		*--p = '\0';
	if (p == q + 1)
		*q = '\0';
	return out;
}

char *store_command_line(char *const *argv)
{
	size_t n = 0;
	char **v, *words, *out;

	while (argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(argv[i], '=');

		if (store_is_url(argv[i])) {
			v[i] = store_url_redact(argv[i]);
		} else if (eq && store_is_url(eq + 1)) {
			char *r = store_url_redact(eq + 1);

			v[i] = xmalloc((eq + 1 - argv[i]) + strlen(r) + 1);
			sprintf(v[i], "%.*s%s", (int)(eq + 1 - argv[i]), argv[i], r);
			free(r);
		} else {
			v[i] = xstrdup(argv[i]);
		}
	}
	words = argv_join(v, true);
	out = xmalloc(strlen(words) + sizeof("schedlab "));
	sprintf(out, "schedlab %s", words);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(words);
	return out;
}

static struct store *open_store(const char *db, bool write)
{
	return store_is_url(db) ? pg_store_open(db, write)
				: sqlite_store_open(db, write);
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

int store_default_path(char *buf, size_t len)
{
	const char *db = getenv("SCHEDLAB_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (db && *db) {
		n = snprintf(buf, len, "%s", db);
	} else if (xdg && *xdg == '/') {	/* relative ones are invalid */
		n = snprintf(buf, len, "%s/schedlab/results.db", xdg);
	} else {
		if (!home || !*home) {
			struct passwd *pw = getpwuid(getuid());

			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return error("no home directory for the database; set SCHEDLAB_DB");
		n = snprintf(buf, len, "%s/.local/share/schedlab/results.db",
			     home);
	}
	if (n < 0 || (size_t)n >= len)
		return error("database path too long");
	return 0;
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

int store_runs(struct store *s, struct store_run_info **runs, size_t *n)
{
	return s->ops->runs(s, runs, n);
}

void store_runs_free(struct store_run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].uuid);
		free(runs[i].status);
		free(runs[i].label);
		free(runs[i].host);
		free(runs[i].commit);
		free(runs[i].ab);
		free(runs[i].variant);
	}
	free(runs);
}

int store_ab_runs(struct store *s, const char *ab, struct store_ab_run **runs,
		  size_t *n)
{
	return s->ops->ab_runs(s, ab, runs, n);
}

void store_ab_runs_free(struct store_ab_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].variant);
		free(runs[i].label);
	}
	free(runs);
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
		  void (*fn)(void *arg, const double *x, size_t n), void *arg)
{
	return s->ops->history(s, label, host, workload, version, params,
			       metric, max, fn, arg);
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
