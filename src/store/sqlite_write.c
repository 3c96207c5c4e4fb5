// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_write.c: runs into the database - as `schedlab run`
 * makes them (begin, one case at a time, end - or the last case and
 * the end together) and from an export document (import). Each call is
 * one BEGIN IMMEDIATE transaction: all of it is stored or, after an
 * error, none. A writer that begins a run or imports one first marks
 * the runs whose writer died abandoned (sqlite_life.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "store/export.h"
#include "store/rows.h"
#include "store/sqlite.h"
#include "util.h"

static int insert_run(struct sqlite_store *s, const struct run_row *r, int64_t *id)
{
	sqlite3_stmt *st = s->ins_run;
	int rc;

	db_bind_text(st, 1, r->uuid);
	db_bind_text(st, 2, r->label);
	db_bind_text(st, 3, r->host);
	sqlite3_bind_double(st, 4, r->started);
	if (!isnan(r->ended))
		sqlite3_bind_double(st, 5, r->ended);
	db_bind_text(st, 6, r->status);
	db_bind_text(st, 7, r->command);
	db_bind_text(st, 8, r->version);
	db_bind_text(st, 9, r->environment);
	if (r->w.pid > 0) {
		sqlite3_bind_int64(st, 10, r->w.pid);
		sqlite3_bind_int64(st, 11, r->w.start);
		db_bind_text(st, 12, *r->w.boot ? r->w.boot : NULL);
	}
	db_bind_text(st, 13, r->ab);
	db_bind_text(st, 14, r->variant);
	rc = db_step_done(st);
	if (rc == SQLITE_CONSTRAINT_UNIQUE)
		return error("%s: a run with UUID %s is already stored", s->path,
			     r->uuid);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot store run %s", r->uuid);
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int insert_metric(struct sqlite_store *s, int64_t run_id, const char *name,
			 const char *unit, const char *better, int headline,
			 const char *help)
{
	sqlite3_stmt *st = s->ins_metric;

	sqlite3_bind_int64(st, 1, run_id);
	db_bind_text(st, 2, name);
	db_bind_text(st, 3, unit ? unit : "");
	db_bind_text(st, 4, better);
	sqlite3_bind_int(st, 5, !!headline);
	db_bind_text(st, 6, help ? help : "");
	if (db_step_done(st) != SQLITE_DONE)
		return db_error(s, "run %" PRId64 ": cannot store metric %s",
				run_id, name);
	return 0;
}

static int insert_case(struct sqlite_store *s, int64_t run_id,
		       const struct case_row *c, int64_t *case_id)
{
	sqlite3_stmt *st = s->ins_case;
	int rc;

	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, c->seq);
	db_bind_text(st, 3, c->job);
	db_bind_text(st, 4, c->workload);
	db_bind_text(st, 5, c->params);
	db_bind_text(st, 6, c->sweep_keys);
	db_bind_text(st, 7, c->sweep);
	db_bind_text(st, 8, c->status);
	db_bind_text(st, 9, c->reason);
	db_bind_text(st, 10, c->parameters);
	sqlite3_bind_int64(st, 11, c->iterations);
	sqlite3_bind_int64(st, 12, c->version);
	db_bind_text(st, 13, c->settings);
	rc = db_step_done(st);
	if (rc == SQLITE_CONSTRAINT_UNIQUE)
		return error("%s: run %" PRId64 " already has a case %" PRId64,
			     s->path, run_id, c->seq);
	if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
		return error("no run %" PRId64 " in %s", run_id, s->path);
	if (rc != SQLITE_DONE)
		return db_error(s, "run %" PRId64 ": cannot store case %" PRId64,
				run_id, c->seq);
	*case_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int insert_sample(struct sqlite_store *s, int64_t case_id, const char *metric,
			 int64_t iteration, double value)
{
	sqlite3_stmt *st = s->ins_sample;

	sqlite3_bind_int64(st, 1, case_id);
	db_bind_text(st, 2, metric);
	sqlite3_bind_int64(st, 3, iteration);
	sqlite3_bind_double(st, 4, value);
	if (db_step_done(st) != SQLITE_DONE)
		return db_error(s, "cannot store sample %s[%" PRId64 "]",
				metric, iteration);
	return 0;
}

/*
 * One row of a (case_id, name, iteration, JSON text) table through
 * statement st: a histogram (hist_to_json's form, compact) or a monitor's
 * series (STORE_JSON_FLAGS); what names it in messages.
 */
static int insert_json(struct sqlite_store *s, sqlite3_stmt *st, size_t flags,
		       const char *what, int64_t case_id, const char *name,
		       int64_t iteration, const json_t *v)
{
	char *text = v ? json_dumps(v, flags) : NULL;
	int rc = 0;

	if (!text)
		return error("%s: cannot encode %s %s[%" PRId64 "]",
			     s->path, what, name, iteration);
	sqlite3_bind_int64(st, 1, case_id);
	db_bind_text(st, 2, name);
	sqlite3_bind_int64(st, 3, iteration);
	db_bind_text(st, 4, text);
	if (db_step_done(st) != SQLITE_DONE)
		rc = db_error(s, "cannot store %s %s[%" PRId64 "]", what, name,
			      iteration);
	free(text);
	return rc;
}

static int insert_hist(struct sqlite_store *s, int64_t case_id,
		       const char *metric, int64_t iteration, const json_t *h)
{
	return insert_json(s, s->ins_hist, JSON_COMPACT, "histogram", case_id,
			   metric, iteration, h);
}

static int insert_mon(struct sqlite_store *s, int64_t case_id,
		      const char *name, int64_t iteration, const json_t *ser)
{
	return insert_json(s, s->ins_mon, STORE_JSON_FLAGS, "monitor", case_id,
			   name, iteration, ser);
}

/* Every series of monitors ({"NAME": [series or null, ...]}) of a case. */
static int insert_mons(struct sqlite_store *s, int64_t case_id,
		       const json_t *monitors)
{
	const char *name;
	json_t *arr, *v;
	size_t i;

	json_object_foreach((json_t *)monitors, name, arr)
		json_array_foreach(arr, i, v)
			if (json_is_object(v) &&
			    insert_mon(s, case_id, name, (int64_t)i + 1, v))
				return -1;
	return 0;
}

int sqlite_run_begin(struct store *base, const struct store_run *r, int64_t *id)
{
	struct sqlite_store *s = sqlite_of(base);
	char uuid[37];
	struct run_row row;
	int rc = -1;

	if (!row_run_begin(&row, s->path, r, uuid) && !db_begin(s)) {
		rc = store_mark_abandoned(s) || insert_run(s, &row, id) ||
		     db_commit(s) ? -1 : 0;
		if (rc)
			db_rollback(s);
	}
	row_run_free(&row);
	return rc;
}

/* The run's end, inside the caller's transaction. env: JSON text or NULL. */
static int update_end(struct sqlite_store *s, int64_t id, const char *status,
		      double ended, const char *env)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (row_end_check(s->path, id, status))
		return -1;
	if (db_prepare(s, "UPDATE runs SET status = ?, ended = ?,"
		    " environment = coalesce(?, environment) WHERE id = ?", &st))
		return -1;
	db_bind_text(st, 1, status);
	sqlite3_bind_double(st, 2, ended);
	db_bind_text(st, 3, env);
	sqlite3_bind_int64(st, 4, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		db_error(s, "run %" PRId64 ": cannot record its end", id);
	else if (!sqlite3_changes(s->db))
		error("no run %" PRId64 " in %s", id, s->path);
	else
		rc = 0;
	sqlite3_finalize(st);
	return rc;
}

int sqlite_run_end(struct store *base, int64_t id, const char *status,
		  double ended, json_t *environment)
{
	struct sqlite_store *s = sqlite_of(base);
	char *env = NULL;
	bool full = false;
	int rc = -1;

	if (environment &&
	    !(env = row_json_text(s->path, environment, "the environment")))
		return -1;
	if (!db_begin(s)) {
		rc = update_end(s, id, status, ended, env) || db_commit(s) ? -1 : 0;
		full = rc && (sqlite3_extended_errcode(s->db) & 0xff) == SQLITE_FULL;
		if (rc)
			db_rollback(s);
	}
	free(env);
	if (!full)
		return rc;
	/*
	 * Disk full (a case may just have failed to store for it): the end
	 * is one row. Once checkpointed the WAL starts over in the space
	 * it already holds, and the row without the grown environment fits
	 * there: the run says how it ended rather than "running".
	 */
	sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
				  NULL, NULL);
	if (db_begin(s))
		return -1;
	rc = update_end(s, id, status, ended, NULL) || db_commit(s) ? -1 : 0;
	if (rc)
		db_rollback(s);
	else
		warning("%s: run %" PRId64 ": its end recorded all the same, without what was measured during the run",
			s->path, id);
	return rc;
}

int sqlite_case_add(struct store *base, int64_t run_id, const struct store_case *c)
{
	struct sqlite_store *s = sqlite_of(base);
	struct case_row row;
	char *env;
	int64_t case_id;
	size_t i, m;

	if (row_case_add(&row, s->path, run_id, c, &env)) {
		row_case_free(&row);
		return -1;
	}
	if (db_begin(s) || insert_case(s, run_id, &row, &case_id))
		goto fail;
	for (m = 0; m < c->nmetrics; m++) {
		const struct metric_def *d = &c->metrics[m];

		if (insert_metric(s, run_id, d->name, d->unit,
				  better_names[d->better], d->headline, d->help))
			goto fail;
	}
	for (i = 0; i < c->niter; i++)
		for (m = 0; m < c->nmetrics; m++) {
			double v = c->values[i * c->nmetrics + m];

			if (!isnan(v) && insert_sample(s, case_id,
					c->metrics[m].name, (int64_t)i + 1, v))
				goto fail;
		}
	for (i = 0; c->latency && i < c->niter; i++) {
		json_t *h;
		int bad;

		if (!c->latency[i])
			continue;
		h = hist_to_json(c->latency[i]);
		bad = insert_hist(s, case_id, "latency", (int64_t)i + 1, h);
		json_decref(h);
		if (bad)
			goto fail;
	}
	if (c->monitors && insert_mons(s, case_id, c->monitors))
		goto fail;
	if (c->run_status &&
	    update_end(s, run_id, c->run_status, c->run_ended, env))
		goto fail;
	fault_stall("case-commit");
	if (db_commit(s))
		goto fail;
	row_case_free(&row);
	free(env);
	return 0;
fail:
	db_rollback(s);
	row_case_free(&row);
	free(env);
	return -1;
}

static int import_case(struct sqlite_store *s, int64_t run_id, json_t *c)
{
	struct case_row row;
	const char *name;
	json_t *arr, *v;
	int64_t case_id;
	size_t i;
	int rc = -1;

	if (row_case_import(&row, s->path, c) ||
	    insert_case(s, run_id, &row, &case_id))
		goto out;
	json_object_foreach(json_object_get(c, "samples"), name, arr)
		json_array_foreach(arr, i, v)
			if (json_is_number(v) &&
			    insert_sample(s, case_id, name, (int64_t)i + 1,
					  json_number_value(v)))
				goto out;
	json_object_foreach(json_object_get(c, "histograms"), name, arr)
		json_array_foreach(arr, i, v)
			if (json_is_object(v) &&
			    insert_hist(s, case_id, name, (int64_t)i + 1, v))
				goto out;
	if (insert_mons(s, case_id, json_object_get(c, "monitors")))
		goto out;
	rc = 0;
out:
	row_case_free(&row);
	return rc;
}

int sqlite_import(struct store *base, json_t *doc, const char *origin,
		  bool once, int64_t *id)
{
	struct sqlite_store *s = sqlite_of(base);
	json_t *m, *c;
	struct run_row row;
	const char *name;
	int64_t other;
	size_t i;
	int rc;

	if (row_run_import(&row, s->path, doc, origin)) {
		row_run_free(&row);
		return -1;
	}
	if (db_begin(s) || store_mark_abandoned(s))
		goto fail;
	rc = db_query_int(s, "SELECT id FROM runs WHERE uuid = ?1", row.uuid, 0,
		       &other);
	if (rc > 0 && once) {
		db_rollback(s);
		row_run_free(&row);
		*id = other;
		return 1;
	}
	if (rc > 0)
		error("%s: run %s is already in %s as run %" PRId64, origin,
		      row.uuid, s->path, other);
	if (rc || insert_run(s, &row, id))
		goto fail;
	json_object_foreach(json_object_get(doc, "metrics"), name, m)
		if (insert_metric(s, *id, name, row_str(m, "unit"),
				  row_str(m, "better"),
				  json_is_true(json_object_get(m, "headline")),
				  row_str(m, "help")))
			goto fail;
	json_array_foreach(json_object_get(doc, "cases"), i, c)
		if (import_case(s, *id, c))
			goto fail;
	if (db_commit(s))
		goto fail;
	row_run_free(&row);
	return 0;
fail:
	db_rollback(s);
	row_run_free(&row);
	return -1;
}
