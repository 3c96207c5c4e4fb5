// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_read.c: runs out of the database - finding one by id or
 * label, listing them (all, or the runs of one A/B), a case's history
 * (compare's run-to-run noise, run's estimates), a job's series (history:
 * one query for every run), and a run's export document, which is the
 * model's (sqlite_model.c reads the run). The local ids stay out of the
 * document.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "store/sqlite.h"
#include "util.h"

int sqlite_resolve(struct store *base, const char *spec, int64_t *id)
{
	struct sqlite_store *s = sqlite_of(base);
	size_t digits = strspn(spec, "0123456789");
	int rc;

	if (*spec && !spec[digits]) {
		errno = 0;
		*id = strtoll(spec, NULL, 10);
		rc = errno ? 0 : db_query_int(s, "SELECT id FROM runs WHERE id = ?1",
					   NULL, *id, id);
	} else {
		/* store.h's rule: complete with cases, else with cases */
		rc = db_query_int(s, "SELECT r.id FROM runs r WHERE r.label = ?1"
			       " ORDER BY EXISTS (SELECT 1 FROM cases c"
			       "   WHERE c.run_id = r.id) AND r.status = 'complete' DESC,"
			       " EXISTS (SELECT 1 FROM cases c WHERE c.run_id = r.id) DESC,"
			       " r.started DESC, r.id DESC LIMIT 1", spec, 0, id);
	}
	if (!rc)
		return error("no run '%s' in %s (see 'schedlab list runs')",
			     spec, s->path);
	return rc < 0 ? -1 : 0;
}

int sqlite_find_uuid(struct store *base, const char *uuid, int64_t *id)
{
	return db_query_int(sqlite_of(base), "SELECT id FROM runs WHERE uuid = ?1",
			    uuid, 0, id);
}

int sqlite_relabel(struct store *base, const char *uuid, const char *label)
{
	struct sqlite_store *s = sqlite_of(base);
	sqlite3_stmt *st;
	int rc = 0;

	if (db_prepare(s, "UPDATE runs SET label = ?1 WHERE uuid = ?2", &st))
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, uuid, -1, SQLITE_TRANSIENT);
	if (db_step_done(st) != SQLITE_DONE)
		rc = db_error(s, "cannot relabel run %s", uuid);
	sqlite3_finalize(st);
	return rc;
}

int sqlite_runs(struct store *base, struct store_run_info **runs, size_t *n)
{
	struct sqlite_store *s = sqlite_of(base);
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*runs = NULL;
	*n = 0;

	if (db_prepare(s, "SELECT r.id, r.uuid, r.label, r.host, r.started, r.ended,"
		    " r.status,"
		    " (SELECT count(*) FROM cases c WHERE c.run_id = r.id),"
		    " (SELECT count(*) FROM cases c JOIN samples x"
		    "   ON x.case_id = c.id WHERE c.run_id = r.id),"
		    " r.pid, r.pid_start, r.boot_id,"
		    /* the environment's git item (probe/sysenv.h) */
		    " CASE WHEN json_valid(r.environment) THEN json_extract("
		    "   r.environment, '$.git.value.describe') END,"
		    " r.ab, r.variant"
		    " FROM runs r ORDER BY r.started DESC, r.id DESC", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_run_info *r;
		struct store_writer w;
		const char *shown;

		*runs = store_grow(*runs, *n, &cap, sizeof(**runs));
		r = &(*runs)[(*n)++];
		store_writer_col(st, 9, &w);
		shown = store_status_shown((const char *)sqlite3_column_text(st, 6),
			(const char *)sqlite3_column_text(st, 3), &w);
		*r = (struct store_run_info){
			.id = sqlite3_column_int64(st, 0),
			.uuid = db_col_dup(st, 1), .label = db_col_dup(st, 2),
			.host = db_col_dup(st, 3),
			.started = sqlite3_column_double(st, 4),
			.ended = sqlite3_column_type(st, 5) == SQLITE_NULL ? NAN :
				 sqlite3_column_double(st, 5),
			.status = shown ? xstrdup(shown) : NULL,
			.cases = sqlite3_column_int64(st, 7),
			.samples = sqlite3_column_int64(st, 8),
			.commit = db_col_dup(st, 12),
			.ab = db_col_dup(st, 13), .variant = db_col_dup(st, 14),
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

int sqlite_ab_runs(struct store *base, const char *ab, struct store_ab_run **runs,
		  size_t *n)
{
	struct sqlite_store *s = sqlite_of(base);
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*runs = NULL;
	*n = 0;
	if (db_prepare(s, "SELECT id, variant, label FROM runs WHERE ab = ?"
		       " ORDER BY id", &st))
		return -1;
	db_bind_text(st, 1, ab);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*runs = store_grow(*runs, *n, &cap, sizeof(**runs));
		(*runs)[(*n)++] = (struct store_ab_run){
			.id = sqlite3_column_int64(st, 0),
			.variant = db_col_dup(st, 1),
			.label = db_col_dup(st, 2),
		};
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot list the runs of A/B %s", ab);
		store_ab_runs_free(*runs, *n);
		*runs = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

int sqlite_estimate(struct store *base, const char *workload, unsigned version,
		   const char *params, double *secs)
{
	struct sqlite_store *s = sqlite_of(base);
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

int sqlite_history(struct store *base, const char *label, const char *host,
		  const char *workload, unsigned version, const char *params,
		  const char *metric, unsigned max,
		  store_history_fn *fn, void *arg)
{
	struct sqlite_store *s = sqlite_of(base);
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

	if (!s->sel_history && db_prepare(s, sql, &s->sel_history))
		return -1;
	st = s->sel_history;
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
		x = store_grow(x, n, &cap, sizeof(*x));
		x[n++] = sqlite3_column_double(st, 1);
	}
	if (n) {
		fn(arg, x, n);
		count++;
	}
	free(x);
	if (rc != SQLITE_DONE)
		count = db_error(s, "history of %s", metric);	/* before the reset */
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return count;
}

int sqlite_series_meta(struct store *base, const char *job,
		       struct store_series *out)
{
	struct sqlite_store *s = sqlite_of(base);
	static const char latest[] =
		"SELECT c.id, c.run_id FROM cases c JOIN runs r ON r.id = c.run_id"
		" WHERE c.job = ?1 AND " SERIES_CASES
		" ORDER BY r.started DESC, c.id DESC LIMIT 1";
	sqlite3_stmt *st;
	int64_t case_id = 0, run_id = 0;
	size_t cap = 0;
	int rc;

	if (db_prepare_arg(s, latest, job, 0, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		case_id = sqlite3_column_int64(st, 0);
		run_id = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(s, "cannot find job %s", job);
	if (rc == SQLITE_DONE) {
		if (db_prepare(s, "SELECT DISTINCT c.job FROM cases c JOIN runs r"
			       " ON r.id = c.run_id WHERE " SERIES_CASES
			       " ORDER BY c.job", &st))
			return -1;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			out->jobs = store_grow(out->jobs, out->njobs, &cap,
					       sizeof(*out->jobs));
			out->jobs[out->njobs++] = db_col_dup(st, 0);
		}
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? 0 : db_error(s, "cannot list jobs");
	}
	if (db_prepare(s, "SELECT m.name, m.unit, m.better, m.headline"
		       " FROM run_metrics m WHERE m.run_id = ?1 AND m.name IN"
		       " (SELECT metric FROM samples WHERE case_id = ?2)"
		       " ORDER BY m.rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, case_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *b = (const char *)sqlite3_column_text(st, 2);
		int better = better_parse(b ? b : "");

		out->metrics = store_grow(out->metrics, out->nmetrics, &cap,
					  sizeof(*out->metrics));
		out->metrics[out->nmetrics++] = (struct store_series_metric){
			.name = db_col_dup(st, 0), .unit = db_col_dup(st, 1),
			.better = better < 0 ? BETTER_NONE : (enum better)better,
			.headline = sqlite3_column_int(st, 3) != 0,
		};
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, "cannot read the metrics of job %s", job);
}

int sqlite_series(struct store *base, const struct store_series_query *q,
		  const char *metric, struct store_series *out)
{
	struct sqlite_store *s = sqlite_of(base);
	static const char sql[] =
		"SELECT c.id, r.id, r.uuid, r.label, r.host, r.started,"
		" CASE WHEN json_valid(r.environment) THEN json_extract("
		"   r.environment, '$.kernel.release.value') END,"
		" c.version, c.params, c.sweep_keys, c.sweep, v.value, r.command,"
		" c.settings"
		/* CROSS JOIN: the job's cases first, then each one's samples by
		 * the primary key; left to itself, SQLite scans every sample */
		" FROM cases c CROSS JOIN runs r ON r.id = c.run_id"
		" CROSS JOIN samples v ON v.case_id = c.id AND v.metric = ?2"
		" WHERE c.job = ?1 AND " SERIES_CASES
		" AND (?3 IS NULL OR r.started >= ?3)"
		" ORDER BY r.started, r.id, c.seq, v.iteration";
	struct store_series_case *c = NULL;
	sqlite3_stmt *st;
	int64_t cur = -1;
	int rc;

	if (db_prepare(s, sql, &st))
		return -1;
	db_bind_text(st, 1, q->job);
	db_bind_text(st, 2, metric);
	if (!isnan(q->since))
		sqlite3_bind_double(st, 3, q->since);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id != cur) {
			const char *k = sqlite3_column_type(st, 6) == SQLITE_TEXT ?
				(const char *)sqlite3_column_text(st, 6) : NULL;

			cur = id;
			c = series_case_add(out);
			c->run_id = sqlite3_column_int64(st, 1);
			c->uuid = db_col_dup(st, 2);
			c->label = db_col_dup(st, 3);
			c->host = db_col_dup(st, 4);
			c->started = sqlite3_column_double(st, 5);
			c->kernel = k ? xstrdup_utf8(k) : NULL;
			c->version = (unsigned)sqlite3_column_int(st, 7);
			c->params = db_col_dup(st, 8);
			c->sweep_keys = db_col_dup(st, 9);
			c->sweep = db_col_dup(st, 10);
			c->command = db_col_dup(st, 12);
			c->settings = db_col_dup(st, 13);
		}
		series_sample_add(c, sqlite3_column_double(st, 11));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, "cannot read the series of job %s", q->job);
}
