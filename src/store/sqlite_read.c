// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_read.c: runs out of the database - finding one by id or
 * label, listing them, and building a run's export document (the form
 * `show`, `compare` and `export` read). The local ids stay out of the
 * document.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "store/export.h"
#include "store/sqlite.h"
#include "util.h"

int store_resolve(struct store *s, const char *spec, int64_t *id)
{
	size_t digits = strspn(spec, "0123456789");
	int rc;

	if (*spec && !spec[digits]) {
		errno = 0;
		*id = strtoll(spec, NULL, 10);
		rc = errno ? 0 : db_query_int(s, "SELECT id FROM runs WHERE id = ?1",
					   NULL, *id, id);
	} else {
		rc = db_query_int(s, "SELECT id FROM runs WHERE label = ?1"
			       " ORDER BY started DESC, id DESC LIMIT 1", spec,
			       0, id);
	}
	if (!rc)
		return error("no run '%s' in %s (see 'schedlab list runs')",
			     spec, s->path);
	return rc < 0 ? -1 : 0;
}

/* A column's text as JSON: null for NULL. Bytes that are not UTF-8 (a
 * command line can hold anything) become '?' rather than lose the field. */
static json_t *col_string(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);
	json_t *j;
	char *copy;

	if (!t)
		return json_null();
	j = json_string(t);
	if (j)
		return j;
	copy = xstrdup(t);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *col_real_or_null(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return json_null();
	return json_real(sqlite3_column_double(st, i));
}

/* A column's text, copied; NULL for NULL. */
static char *col_dup(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return t ? xstrdup(t) : NULL;
}

int store_runs(struct store *s, struct store_run_info **runs, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*runs = NULL;
	*n = 0;

	if (db_prepare(s, "SELECT r.id, r.uuid, r.label, r.host, r.started, r.ended,"
		    " r.status,"
		    " (SELECT count(*) FROM cases c WHERE c.run_id = r.id),"
		    " (SELECT count(*) FROM cases c JOIN samples x"
		    "   ON x.case_id = c.id WHERE c.run_id = r.id)"
		    " FROM runs r ORDER BY r.started DESC, r.id DESC", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_run_info *r;

		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*runs = xrealloc(*runs, cap * sizeof(**runs));
		}
		r = &(*runs)[(*n)++];
		*r = (struct store_run_info){
			.id = sqlite3_column_int64(st, 0),
			.uuid = col_dup(st, 1), .label = col_dup(st, 2),
			.host = col_dup(st, 3),
			.started = sqlite3_column_double(st, 4),
			.ended = sqlite3_column_type(st, 5) == SQLITE_NULL ? NAN :
				 sqlite3_column_double(st, 5),
			.status = col_dup(st, 6),
			.cases = sqlite3_column_int64(st, 7),
			.samples = sqlite3_column_int64(st, 8),
		};
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot list runs");
		store_runs_free(*runs, *n);
		*runs = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void store_runs_free(struct store_run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].uuid);
		free(runs[i].status);
		free(runs[i].label);
		free(runs[i].host);
	}
	free(runs);
}

/* A JSON object kept in a column; NULL after error(). */
static json_t *col_object(struct store *s, sqlite3_stmt *st, int i,
			  const char *what, int64_t id)
{
	const char *t = (const char *)sqlite3_column_text(st, i);
	json_error_t err;
	json_t *j;

	if (!t)
		return json_object();
	j = json_loads(t, 0, &err);
	if (!json_is_object(j)) {
		json_decref(j);
		error("%s: %s of %" PRId64 " is not a JSON object (%s)", s->path,
		      what, id, j ? "another JSON type" : err.text);
		return NULL;
	}
	return j;
}

static json_t *export_run(struct store *s, int64_t id, json_t **environment)
{
	sqlite3_stmt *st;
	json_t *run = NULL;
	int rc;

	if (db_prepare(s, "SELECT uuid, label, host, started, ended, status,"
		    " command, schedlab_version, environment FROM runs"
		    " WHERE id = ?", &st))
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*environment = col_object(s, st, 8, "the environment of run", id);
		if (*environment)
			run = json_object();
	} else if (rc == SQLITE_DONE) {
		error("no run %" PRId64 " in %s", id, s->path);
	} else {
		db_error(s, "cannot read run %" PRId64, id);
	}
	if (run) {
		json_object_set_new(run, "uuid", col_string(st, 0));
		json_object_set_new(run, "label", col_string(st, 1));
		json_object_set_new(run, "host", col_string(st, 2));
		json_object_set_new(run, "started",
				    json_real(sqlite3_column_double(st, 3)));
		json_object_set_new(run, "ended", col_real_or_null(st, 4));
		json_object_set_new(run, "status", col_string(st, 5));
		json_object_set_new(run, "command", col_string(st, 6));
		json_object_set_new(run, "schedlab_version", col_string(st, 7));
	}
	sqlite3_finalize(st);
	return run;
}

/* The run's metric metadata, in the order it was first stored. */
static json_t *export_metrics(struct store *s, int64_t id)
{
	sqlite3_stmt *st;
	json_t *metrics = json_object();
	int rc;

	if (db_prepare(s, "SELECT name, unit, better, headline, help FROM run_metrics"
		    " WHERE run_id = ? ORDER BY rowid", &st)) {
		json_decref(metrics);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *m = json_object();

		json_object_set_new(m, "unit", col_string(st, 1));
		json_object_set_new(m, "better", col_string(st, 2));
		json_object_set_new(m, "headline",
				    json_boolean(sqlite3_column_int(st, 3)));
		json_object_set_new(m, "help", col_string(st, 4));
		json_object_set_new(metrics,
				    (const char *)sqlite3_column_text(st, 0), m);
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the metrics of run %" PRId64, id);
		json_decref(metrics);
		metrics = NULL;
	}
	sqlite3_finalize(st);
	return metrics;
}

/*
 * obj[name]: an array of one entry per iteration, made of nulls when
 * missing. NULL when name cannot be a key (not UTF-8).
 */
static json_t *per_iteration(json_t *obj, const char *name, int64_t niter)
{
	json_t *arr = json_object_get(obj, name);

	if (arr)
		return arr;
	arr = json_array();
	for (int64_t i = 0; i < niter; i++)
		json_array_append_new(arr, json_null());
	return json_object_set_new(obj, name, arr) ? NULL : arr;
}

/*
 * {"metric": [one value or null per iteration]} of one case, metrics in
 * the run's order. st: the samples query, bound here, reset on return.
 */
static json_t *case_samples(struct store *s, sqlite3_stmt *st, int64_t case_id,
			    int64_t niter, json_t *metrics)
{
	json_t *found = json_object(), *samples = NULL, *arr, *meta;
	const char *name;
	int rc;

	sqlite3_bind_int64(st, 1, case_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t it = sqlite3_column_int64(st, 1);
		double v = sqlite3_column_double(st, 2);

		name = (const char *)sqlite3_column_text(st, 0);
		if (it < 1 || it > niter || !isfinite(v)) {
			error("%s: case %" PRId64 ": sample %s[%" PRId64
			      "] does not fit its case", s->path, case_id,
			      name, it);
			goto out;
		}
		arr = per_iteration(found, name, niter);
		if (!arr) {
			error("%s: case %" PRId64 ": metric name is not UTF-8",
			      s->path, case_id);
			goto out;
		}
		json_array_set_new(arr, (size_t)(it - 1), json_real(v));
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the samples of case %" PRId64, case_id);
		goto out;
	}
	samples = json_object();
	json_object_foreach(metrics, name, meta)
		if ((arr = json_object_get(found, name)))
			json_object_set(samples, name, arr);
	if (json_object_size(samples) != json_object_size(found)) {
		error("%s: case %" PRId64 " has samples of a metric the run does not describe",
		      s->path, case_id);
		json_decref(samples);
		samples = NULL;
	}
out:
	sqlite3_reset(st);
	json_decref(found);
	return samples;
}

/*
 * {"latency": [histogram or null per iteration]} of one case, each
 * histogram checked as it is read; NULL after error(). An empty object
 * when the case has none. st: the histograms query, reset on return.
 */
static json_t *case_hists(struct store *s, sqlite3_stmt *st, int64_t case_id,
			  int64_t niter)
{
	json_t *hists = json_object(), *arr, *h;
	struct hist *check = xcalloc_lines(1, sizeof(*check));
	int rc;

	sqlite3_bind_int64(st, 1, case_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int64_t it = sqlite3_column_int64(st, 1);
		const char *text = (const char *)sqlite3_column_text(st, 2);
		int bad;

		if (it < 1 || it > niter || !text) {
			error("%s: case %" PRId64 ": histogram %s[%" PRId64
			      "] does not fit its case", s->path, case_id,
			      name, it);
			goto fail;
		}
		error_context("%s: case %" PRId64 ": histogram %s[%" PRId64 "]",
			      s->path, case_id, name, it);
		h = json_loads(text, 0, NULL);
		bad = h ? hist_from_json(h, check) : error("not JSON");
		error_context(NULL);
		arr = bad ? NULL : per_iteration(hists, name, niter);
		if (!arr) {
			if (!bad)
				error("%s: case %" PRId64 ": histogram name is not UTF-8",
				      s->path, case_id);
			json_decref(h);
			goto fail;
		}
		json_array_set_new(arr, (size_t)(it - 1), h);
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the histograms of case %" PRId64,
			 case_id);
		goto fail;
	}
	sqlite3_reset(st);
	free(check);
	return hists;
fail:
	sqlite3_reset(st);
	free(check);
	json_decref(hists);
	return NULL;
}

static json_t *export_cases(struct store *s, int64_t id, json_t *metrics)
{
	sqlite3_stmt *cs = NULL, *ss = NULL, *hs = NULL;
	json_t *cases = json_array();
	int rc = SQLITE_ERROR;

	if (db_prepare(s, "SELECT id, seq, job, workload, params, sweep_keys,"
		    " sweep, status, reason, parameters, iterations, version,"
		    " settings FROM cases WHERE run_id = ? ORDER BY seq", &cs) ||
	    db_prepare(s, "SELECT metric, iteration, value FROM samples"
		    " WHERE case_id = ?", &ss) ||
	    db_prepare(s, "SELECT metric, iteration, buckets FROM histograms"
		    " WHERE case_id = ? ORDER BY metric, iteration", &hs))
		goto fail;
	sqlite3_bind_int64(cs, 1, id);
	while ((rc = sqlite3_step(cs)) == SQLITE_ROW) {
		int64_t case_id = sqlite3_column_int64(cs, 0);
		int64_t niter = sqlite3_column_int64(cs, 10);
		json_t *c = json_object(), *parameters, *settings, *samples;
		json_t *hists;

		json_array_append_new(cases, c);
		json_object_set_new(c, "seq",
				    json_integer(sqlite3_column_int64(cs, 1)));
		json_object_set_new(c, "job", col_string(cs, 2));
		json_object_set_new(c, "workload", col_string(cs, 3));
		json_object_set_new(c, "version",
				    json_integer(sqlite3_column_int64(cs, 11)));
		json_object_set_new(c, "params", col_string(cs, 4));
		json_object_set_new(c, "sweep_keys", col_string(cs, 5));
		json_object_set_new(c, "sweep", col_string(cs, 6));
		json_object_set_new(c, "status", col_string(cs, 7));
		json_object_set_new(c, "reason", col_string(cs, 8));
		parameters = col_object(s, cs, 9, "the parameters of case",
					case_id);
		if (!parameters)
			goto fail;
		json_object_set_new(c, "parameters", parameters);
		settings = col_object(s, cs, 12, "the settings of case",
				      case_id);
		if (!settings)
			goto fail;
		json_object_set_new(c, "settings", settings);
		json_object_set_new(c, "iterations", json_integer(niter));
		samples = case_samples(s, ss, case_id, niter, metrics);
		if (!samples)
			goto fail;
		json_object_set_new(c, "samples", samples);
		hists = case_hists(s, hs, case_id, niter);
		if (!hists)
			goto fail;
		/* only where there are some: older documents stay the same */
		if (json_object_size(hists))
			json_object_set_new(c, "histograms", hists);
		else
			json_decref(hists);
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the cases of run %" PRId64, id);
		goto fail;
	}
	sqlite3_finalize(cs);
	sqlite3_finalize(ss);
	sqlite3_finalize(hs);
	return cases;
fail:
	sqlite3_finalize(cs);
	sqlite3_finalize(ss);
	sqlite3_finalize(hs);
	json_decref(cases);
	return NULL;
}

json_t *store_export(struct store *s, int64_t id)
{
	json_t *doc = NULL, *run, *environment = NULL, *metrics = NULL, *cases;

	/* one snapshot, even while another process adds cases to the run */
	if (db_exec(s, "BEGIN", "cannot read"))
		return NULL;
	run = export_run(s, id, &environment);
	if (!run)
		goto out;
	metrics = export_metrics(s, id);
	cases = metrics ? export_cases(s, id, metrics) : NULL;
	if (!cases) {
		json_decref(run);
		json_decref(environment);
		json_decref(metrics);
		goto out;
	}
	doc = json_object();
	json_object_set_new(doc, "schema", json_string(EXPORT_SCHEMA));
	json_object_set_new(doc, "run", run);
	json_object_set_new(doc, "environment", environment);
	json_object_set_new(doc, "metrics", metrics);
	json_object_set_new(doc, "cases", cases);
out:
	db_rollback(s);
	return doc;
}

int store_estimate(struct store *s, const char *workload, unsigned version,
		   const char *params, double *secs)
{
	static const char sql[] =
		"SELECT avg(v.value) FROM samples v WHERE v.metric = 'process.wall_s'"
		" AND v.case_id IN (SELECT id FROM cases WHERE workload = ?1"
		" AND version = ?3 AND params = ?2 AND status = 'complete'"
		" ORDER BY id DESC LIMIT 3)";
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(s, sql, &st))
		return -1;
	db_bind_text(st, 1, workload);
	db_bind_text(st, 2, params);
	sqlite3_bind_int64(st, 3, version ? version : 1);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*secs = sqlite3_column_double(st, 0);
		rc = 1;
	} else {
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		     db_error(s, "estimate");
	}
	sqlite3_finalize(st);
	return rc;
}

int store_history(struct store *s, const char *label, const char *host,
		  const char *workload, unsigned version, const char *params,
		  const char *metric, unsigned max,
		  void (*fn)(void *arg, const double *x, size_t n), void *arg)
{
	static const char sql[] =
		"SELECT v.case_id, v.value FROM samples v WHERE v.metric = ?4"
		" AND v.case_id IN (SELECT c.id FROM cases c JOIN runs r"
		" ON r.id = c.run_id WHERE c.workload = ?2 AND c.version = ?7"
		" AND c.params = ?3"
		" AND c.status = 'complete' AND r.host IS ?1 AND r.label = ?6"
		" ORDER BY c.id DESC LIMIT ?5)"
		" ORDER BY v.case_id, v.iteration";
	sqlite3_stmt *st;
	double *x = NULL;
	size_t n = 0, cap = 0;
	int64_t cur = -1;
	int rc, count = 0;

	if (db_prepare(s, sql, &st))
		return -1;
	db_bind_text(st, 1, host);
	db_bind_text(st, 2, workload);
	db_bind_text(st, 3, params);
	db_bind_text(st, 4, metric);
	sqlite3_bind_int(st, 5, (int)max);
	db_bind_text(st, 6, label);
	sqlite3_bind_int64(st, 7, version ? version : 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id != cur && n) {
			fn(arg, x, n);
			count++;
			n = 0;
		}
		cur = id;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			x = realloc(x, cap * sizeof(*x));
			if (!x)
				abort();
		}
		x[n++] = sqlite3_column_double(st, 1);
	}
	if (n) {
		fn(arg, x, n);
		count++;
	}
	free(x);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? count : db_error(s, "history of %s", metric);
}
