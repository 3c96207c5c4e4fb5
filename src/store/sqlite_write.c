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
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "stats/hist.h"
#include "store/export.h"
#include "store/sqlite.h"
#include "util.h"

/* A random (version 4) UUID. */
static void make_uuid(char out[37])
{
	uint8_t b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		/* no entropy source: time and pid still tell runs apart */
		uint64_t x = now_ns() ^ ((uint64_t)getpid() << 32) ^
			     (uint64_t)time(NULL);

		for (size_t i = 0; i < sizeof(b); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			b[i] = (uint8_t)x;
		}
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4],
		 b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

/* obj as a column keeps it (NULL: {}); free() it. NULL after error(). */
static char *json_text(struct sqlite_store *s, json_t *obj, const char *what)
{
	char *text;

	if (!obj)
		return xstrdup("{}");
	if (!json_is_object(obj)) {
		error("%s: %s is not a JSON object", s->path, what);
		return NULL;
	}
	text = json_dumps(obj, STORE_JSON_FLAGS);
	if (!text)
		error("%s: cannot encode %s as JSON", s->path, what);
	return text;
}

struct run_row {
	const char *uuid, *label, *host, *command, *version, *status;
	const char *ab, *variant;	/* the A/B link, or NULL */
	double started, ended;		/* ended: NAN while running */
	const char *environment;	/* JSON text */
	struct store_writer w;		/* pid 0: none (imported) */
};

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

struct case_row {
	int64_t seq;
	const char *job, *workload, *params, *sweep_keys, *sweep;
	const char *status, *reason;
	const char *parameters;		/* JSON text */
	int64_t iterations;
	int64_t version;		/* >= 1 */
	const char *settings;		/* JSON text */
};

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

/* A histogram as its JSON text (hist_to_json's form, compact). */
static int insert_hist(struct sqlite_store *s, int64_t case_id, const char *metric,
		       int64_t iteration, const json_t *h)
{
	sqlite3_stmt *st = s->ins_hist;
	char *text = h ? json_dumps(h, JSON_COMPACT) : NULL;
	int rc = 0;

	if (!text)
		return error("%s: cannot encode histogram %s[%" PRId64 "]",
			     s->path, metric, iteration);
	sqlite3_bind_int64(st, 1, case_id);
	db_bind_text(st, 2, metric);
	sqlite3_bind_int64(st, 3, iteration);
	db_bind_text(st, 4, text);
	if (db_step_done(st) != SQLITE_DONE)
		rc = db_error(s, "cannot store histogram %s[%" PRId64 "]",
			      metric, iteration);
	free(text);
	return rc;
}

int sqlite_run_begin(struct store *base, const struct store_run *r, int64_t *id)
{
	struct sqlite_store *s = sqlite_of(base);
	char uuid[37];
	struct run_row row = {
		.uuid = r->uuid, .label = r->label, .host = r->host,
		.command = r->command, .version = r->version,
		.ab = r->ab, .variant = r->variant,
		.status = "running", .started = r->started, .ended = NAN,
	};
	char *env = json_text(s, r->environment, "the environment");
	int rc = -1;

	if (!env)
		return -1;
	if (!row.uuid) {
		make_uuid(uuid);
		row.uuid = uuid;
	}
	row.environment = env;
	store_writer_self(&row.w);
	if (!db_begin(s)) {
		rc = store_mark_abandoned(s) || insert_run(s, &row, id) ||
		     db_commit(s) ? -1 : 0;
		if (rc)
			db_rollback(s);
	}
	free(env);
	return rc;
}

/* The run's end, inside the caller's transaction. env: JSON text or NULL. */
static int update_end(struct sqlite_store *s, int64_t id, const char *status,
		      double ended, const char *env)
{
	static const char *const ends[] = { "complete", "partial", "failed", NULL };
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (!status || !export_one_of(status, ends))
		return error("%s: run %" PRId64 ": cannot end with status '%s'",
			     s->path, id, status ? status : "(null)");
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

	if (environment && !(env = json_text(s, environment, "the environment")))
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

/* What the schema cannot check, before anything is locked. */
static int check_case(struct sqlite_store *s, int64_t run_id, const struct store_case *c)
{
	if (!c->job || !c->workload)
		return error("%s: run %" PRId64 ": case %u has no %s", s->path,
			     run_id, c->seq, c->job ? "workload" : "job");
	if (!c->status || !export_one_of(c->status, export_case_statuses))
		return error("%s: run %" PRId64 ": case %u: bad status '%s'",
			     s->path, run_id, c->seq,
			     c->status ? c->status : "(null)");
	if (c->niter && c->nmetrics && !c->values)
		return error("%s: run %" PRId64 ": case %u: no values", s->path,
			     run_id, c->seq);
	for (size_t m = 0; m < c->nmetrics; m++) {
		const struct metric_def *d = &c->metrics[m];

		if (!d->name || !*d->name || (unsigned)d->better > BETTER_NONE)
			return error("%s: run %" PRId64 ": case %u: metric %zu has no name or direction",
				     s->path, run_id, c->seq, m);
		for (size_t i = 0; i < c->niter; i++)
			if (isinf(c->values[i * c->nmetrics + m]))
				return error("%s: run %" PRId64 ": case %u: %s, iteration %zu: infinite value",
					     s->path, run_id, c->seq, d->name,
					     i + 1);
	}
	return 0;
}

int sqlite_case_add(struct store *base, int64_t run_id, const struct store_case *c)
{
	struct sqlite_store *s = sqlite_of(base);
	struct case_row row = {
		.seq = c->seq, .job = c->job, .workload = c->workload,
		.params = c->params, .sweep_keys = c->sweep_keys,
		.sweep = c->sweep, .status = c->status, .reason = c->reason,
		.iterations = (int64_t)c->niter,
		.version = c->version ? c->version : 1,
	};
	char *parameters, *settings = NULL, *env = NULL;
	int64_t case_id;
	size_t i, m;

	if (check_case(s, run_id, c))
		return -1;
	parameters = json_text(s, c->parameters, "the case's parameters");
	if (!parameters ||
	    !(settings = json_text(s, c->settings, "the case's settings")) ||
	    (c->run_status && c->run_environment &&
	     !(env = json_text(s, c->run_environment, "the environment")))) {
		free(parameters);
		free(settings);
		return -1;
	}
	row.parameters = parameters;
	row.settings = settings;
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
	if ((c->run_status &&
	     update_end(s, run_id, c->run_status, c->run_ended, env)) ||
	    db_commit(s))
		goto fail;
	free(parameters);
	free(settings);
	free(env);
	return 0;
fail:
	db_rollback(s);
	free(parameters);
	free(settings);
	free(env);
	return -1;
}

static const char *str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static int import_case(struct sqlite_store *s, int64_t run_id, json_t *c)
{
	struct case_row row = {
		.seq = json_integer_value(json_object_get(c, "seq")),
		.job = str(c, "job"), .workload = str(c, "workload"),
		.params = str(c, "params"), .sweep_keys = str(c, "sweep_keys"),
		.sweep = str(c, "sweep"), .status = str(c, "status"),
		.reason = str(c, "reason"),
		.iterations = json_integer_value(json_object_get(c, "iterations")),
		.version = json_integer_value(json_object_get(c, "version")),
	};
	char *parameters = json_text(s, json_object_get(c, "parameters"),
				     "the case's parameters");
	char *settings = json_text(s, json_object_get(c, "settings"),
				   "the case's settings");
	const char *name;
	json_t *arr, *v;
	int64_t case_id;
	size_t i;
	int rc = -1;

	if (!parameters || !settings)
		goto out;
	row.parameters = parameters;
	row.settings = settings;
	if (row.version < 1)
		row.version = 1;
	if (insert_case(s, run_id, &row, &case_id))
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
	rc = 0;
out:
	free(parameters);
	free(settings);
	return rc;
}

int sqlite_import(struct store *base, json_t *doc, const char *origin,
		  bool once, int64_t *id)
{
	struct sqlite_store *s = sqlite_of(base);
	json_t *run = json_object_get(doc, "run"), *m, *c;
	json_t *ended = json_object_get(run, "ended");
	struct run_row row;
	const char *name;
	char *env;
	int64_t other;
	size_t i;
	int rc;

	if (export_validate(doc, origin))
		return -1;
	export_upgrade(doc);
	env = json_text(s, json_object_get(doc, "environment"),
			"the environment");
	if (!env)
		return -1;
	row = (struct run_row){
		.uuid = str(run, "uuid"), .label = str(run, "label"),
		.host = str(run, "host"), .command = str(run, "command"),
		.version = str(run, "schedlab_version"),
		.ab = str(run, "ab"), .variant = str(run, "variant"),
		.status = str(run, "status"),
		.started = json_number_value(json_object_get(run, "started")),
		.ended = json_is_number(ended) ? json_number_value(ended) : NAN,
		.environment = env,
	};
	if (db_begin(s) || store_mark_abandoned(s))
		goto fail;
	rc = db_query_int(s, "SELECT id FROM runs WHERE uuid = ?1", row.uuid, 0,
		       &other);
	if (rc > 0 && once) {
		db_rollback(s);
		free(env);
		*id = other;
		return 1;
	}
	if (rc > 0)
		error("%s: run %s is already in %s as run %" PRId64, origin,
		      row.uuid, s->path, other);
	if (rc || insert_run(s, &row, id))
		goto fail;
	json_object_foreach(json_object_get(doc, "metrics"), name, m)
		if (insert_metric(s, *id, name, str(m, "unit"), str(m, "better"),
				  json_is_true(json_object_get(m, "headline")),
				  str(m, "help")))
			goto fail;
	json_array_foreach(json_object_get(doc, "cases"), i, c)
		if (import_case(s, *id, c))
			goto fail;
	if (db_commit(s))
		goto fail;
	free(env);
	return 0;
fail:
	db_rollback(s);
	free(env);
	return -1;
}
