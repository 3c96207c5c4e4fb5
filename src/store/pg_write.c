// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_write.c: runs into PostgreSQL (pg.h) - as `schedlab run`
 * makes them (begin, one case at a time, end - or the last case and the
 * end together) and from an export document (import, push, an agent's
 * result). Each call is one transaction: all of it is stored or, after
 * an error, none. Rows go in by PQexecParams, samples and histograms -
 * nearly all of a run's bytes - by COPY ... FROM STDIN in text format,
 * one COPY per table per call, sent in big buffers (pg_copy.c).
 *
 * Two imports of one uuid at once store it once: the run's INSERT is
 * ON CONFLICT (uuid) DO NOTHING, which waits for the other transaction
 * and then inserts nothing.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/export.h"
#include "store/life.h"
#include "store/pg.h"
#include "store/rows.h"
#include "util.h"

/*
 * Text parameters, formatted numbers and texts made valid UTF-8 kept
 * beside them: params_free() frees those texts.
 */
struct params {
	const char *v[16];
	char buf[16][32];
	char *own[16];
	int n;
};

static void p_text(struct params *p, const char *v)
{
	p->v[p->n++] = v;
}

/* v as valid UTF-8 (xstrdup_utf8()), owned by p; NULL: NULL */
static void p_utf8(struct params *p, const char *v)
{
	p->own[p->n] = xstrdup_utf8(v);
	p->v[p->n] = p->own[p->n];
	p->n++;
}

static void params_free(struct params *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->own[i]);
}

static void p_int(struct params *p, int64_t x)
{
	snprintf(p->buf[p->n], sizeof(p->buf[0]), "%" PRId64, x);
	p->v[p->n] = p->buf[p->n];
	p->n++;
}

/* NAN: NULL */
static void p_real(struct params *p, double x)
{
	if (isnan(x)) {
		p->v[p->n++] = NULL;
		return;
	}
	snprintf(p->buf[p->n], sizeof(p->buf[0]), "%.17g", x);
	p->v[p->n] = p->buf[p->n];
	p->n++;
}

/*
 * 0 with *id the new run; 1 with *id the run of that uuid already
 * stored (nothing written); -1 after error().
 */
static int insert_run(struct pg_store *s, const struct run_row *r, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO runs (uuid, label, host, started, ended, status,"
		" command, schedlab_version, environment, pid, pid_start,"
		" boot_id, ab, variant) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,"
		" $9, $10, $11, $12, $13, $14)"
		" ON CONFLICT (uuid) DO NOTHING RETURNING id";
	struct params p = { .n = 0 };
	PGresult *res;
	int rc = -1;

	p_text(&p, r->uuid);
	p_utf8(&p, r->label);
	p_utf8(&p, r->host);
	p_real(&p, r->started);
	p_real(&p, r->ended);
	p_text(&p, r->status);
	p_utf8(&p, r->command);
	p_utf8(&p, r->version);
	p_text(&p, r->environment);
	if (r->w.pid > 0) {
		p_int(&p, r->w.pid);
		p_int(&p, r->w.start);
		p_text(&p, *r->w.boot ? r->w.boot : NULL);
	} else {
		p_text(&p, NULL);
		p_text(&p, NULL);
		p_text(&p, NULL);
	}
	p_utf8(&p, r->ab);
	p_utf8(&p, r->variant);
	res = pg_query(s, sql, p.n, p.v, PGRES_TUPLES_OK, "cannot store a run");
	if (res && PQntuples(res) == 1) {
		*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		rc = 0;
	} else if (res) {
		PQclear(res);
		res = pg_query(s, "SELECT id FROM runs WHERE uuid = $1", 1,
			       &r->uuid, PGRES_TUPLES_OK, "cannot read a run");
		if (res && PQntuples(res) == 1) {
			*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
			rc = 1;
		} else if (res) {
			rc = error("%s: run %s vanished while it was stored",
				   s->base.name, r->uuid);
		}
	}
	PQclear(res);
	params_free(&p);
	return rc;
}

/* A metric joins the run's, after those it has (the first to come sets it). */
static int insert_metric(struct pg_store *s, int64_t run_id, const char *name,
			 const char *unit, const char *better, int headline,
			 const char *help)
{
	static const char sql[] =
		"INSERT INTO run_metrics (run_id, seq, name, unit, better,"
		" headline, help) SELECT $1, coalesce(max(seq), 0) + 1, $2, $3,"
		" $4, $5, $6 FROM run_metrics WHERE run_id = $1"
		" ON CONFLICT (run_id, name) DO NOTHING";
	char *t[3] = { xstrdup_utf8(name), xstrdup_utf8(unit ? unit : ""),
		       xstrdup_utf8(help ? help : "") };
	const char *v[6] = { NULL, t[0], t[1], better, headline ? "t" : "f", t[2] };
	char idbuf[24];
	PGresult *res;

	snprintf(idbuf, sizeof(idbuf), "%" PRId64, run_id);
	v[0] = idbuf;
	res = pg_query(s, sql, 6, v, PGRES_COMMAND_OK, "cannot store a metric");
	for (size_t i = 0; i < 3; i++)
		free(t[i]);
	if (!res)
		return -1;
	PQclear(res);
	return 0;
}

static int insert_case(struct pg_store *s, int64_t run_id,
		       const struct case_row *c, int64_t *case_id)
{
	static const char sql[] =
		"INSERT INTO cases (run_id, seq, job, workload, params,"
		" sweep_keys, sweep, status, reason, parameters, iterations,"
		" version, settings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
		" $10, $11, $12, $13) RETURNING id";
	struct params p = { .n = 0 };
	PGresult *res;
	int rc = -1;

	p_int(&p, run_id);
	p_int(&p, c->seq);
	p_utf8(&p, c->job);
	p_utf8(&p, c->workload);
	p_utf8(&p, c->params);
	p_utf8(&p, c->sweep_keys);
	p_utf8(&p, c->sweep);
	p_utf8(&p, c->status);
	p_utf8(&p, c->reason);
	p_text(&p, c->parameters);
	p_int(&p, c->iterations);
	p_int(&p, c->version);
	p_text(&p, c->settings);
	res = PQexecParams(s->conn, sql, p.n, NULL, p.v, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK) {
		*case_id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		rc = 0;
	} else {
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		if (state && !strcmp(state, "23505"))
			rc = error("%s: run %" PRId64 " already has a case %" PRId64,
				   s->base.name, run_id, c->seq);
		else if (state && !strcmp(state, "23503"))
			rc = error("no run %" PRId64 " in %s", run_id, s->base.name);
		else
			rc = pg_error(s, res, "run %" PRId64 ": cannot store case %"
				      PRId64, run_id, c->seq);
	}
	PQclear(res);
	params_free(&p);
	return rc;
}

/*
 * In the caller's transaction: every running run whose writer is gone
 * (life.h) becomes abandoned, ended now.
 */
static int mark_abandoned(struct pg_store *s)
{
	PGresult *res = pg_query(s, "SELECT id, host, pid, pid_start, boot_id"
				 " FROM runs WHERE status = 'running'"
				 " AND pid IS NOT NULL", 0, NULL,
				 PGRES_TUPLES_OK, "cannot look for abandoned runs");
	struct timespec ts;
	char now[32];
	int rc = 0;

	if (!res)
		return -1;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(now, sizeof(now), "%.17g", (double)ts.tv_sec +
		 (double)ts.tv_nsec / 1e9);
	for (int i = 0; i < PQntuples(res) && !rc; i++) {
		struct store_writer w;
		const char *v[2] = { now, PQgetvalue(res, i, 0) };
		PGresult *u;

		pg_writer_col(res, i, 2, &w);
		if (!store_writer_gone(PQgetisnull(res, i, 1) ? NULL :
				       PQgetvalue(res, i, 1), &w))
			continue;
		u = pg_query(s, "UPDATE runs SET status = 'abandoned', ended = $1"
			     " WHERE id = $2 AND status = 'running'", 2, v,
			     PGRES_COMMAND_OK, "cannot mark abandoned runs");
		if (!u)
			rc = -1;
		PQclear(u);
	}
	PQclear(res);
	return rc;
}

int pg_run_begin(struct store *base, const struct store_run *r, int64_t *id)
{
	struct pg_store *s = pg_of(base);
	char uuid[37];
	struct run_row row;
	int rc = -1;

	if (row_run_begin(&row, s->base.name, r, uuid)) {
		row_run_free(&row);
		return -1;
	}
	if (!pg_begin_write(s)) {
		rc = mark_abandoned(s);
		if (!rc)
			rc = insert_run(s, &row, id);
		if (rc == 1)
			rc = error("%s: a run with UUID %s is already stored",
				   s->base.name, row.uuid);
		if (!rc)
			rc = pg_commit(s);
		if (rc)
			pg_rollback(s);
	}
	row_run_free(&row);
	return rc;
}

/* The run's end, inside the caller's transaction. env: JSON text or NULL. */
static int update_end(struct pg_store *s, int64_t id, const char *status,
		      double ended, const char *env)
{
	struct params p = { .n = 0 };
	PGresult *res;
	int rc = 0;

	if (row_end_check(s->base.name, id, status))
		return -1;
	p_text(&p, status);
	p_real(&p, ended);
	p_text(&p, env);
	p_int(&p, id);
	res = pg_query(s, "UPDATE runs SET status = $1, ended = $2,"
		       " environment = coalesce($3::json, environment)"
		       " WHERE id = $4", p.n, p.v, PGRES_COMMAND_OK,
		       "cannot record the run's end");
	if (!res)
		return -1;
	if (!strcmp(PQcmdTuples(res), "0"))
		rc = error("no run %" PRId64 " in %s", id, s->base.name);
	PQclear(res);
	return rc;
}

int pg_run_end(struct store *base, int64_t id, const char *status,
	       double ended, json_t *environment)
{
	struct pg_store *s = pg_of(base);
	char *env = NULL;
	int rc = -1;

	if (environment &&
	    !(env = row_json_text(s->base.name, environment, "the environment")))
		return -1;
	if (!pg_begin_write(s)) {
		rc = update_end(s, id, status, ended, env) || pg_commit(s) ? -1 : 0;
		if (rc)
			pg_rollback(s);
	}
	free(env);
	return rc;
}

/*
 * Every series of monitors ({"NAME": [series or null, ...]}) of a case,
 * a row each: a few rows a case, not worth a COPY.
 */
static int insert_mons(struct pg_store *s, int64_t case_id,
		       const json_t *monitors)
{
	const char *name;
	json_t *arr, *v;
	char idbuf[24], itbuf[24];
	size_t i;

	snprintf(idbuf, sizeof(idbuf), "%" PRId64, case_id);
	json_object_foreach((json_t *)monitors, name, arr)
		json_array_foreach(arr, i, v) {
			char *text;
			const char *p[4];
			PGresult *res;

			if (!json_is_object(v))
				continue;
			text = json_dumps(v, STORE_JSON_FLAGS);
			if (!text)
				return error("%s: cannot encode monitor %s[%zu]",
					     s->base.name, name, i + 1);
			snprintf(itbuf, sizeof(itbuf), "%zu", i + 1);
			p[0] = idbuf;
			p[1] = name;
			p[2] = itbuf;
			p[3] = text;
			res = pg_query(s, "INSERT INTO monitors (case_id, monitor,"
				       " iteration, series) VALUES ($1, $2, $3, $4)",
				       4, p, PGRES_COMMAND_OK,
				       "cannot store a monitor's series");
			free(text);
			if (!res)
				return -1;
			PQclear(res);
		}
	return 0;
}

int pg_case_add(struct store *base, int64_t run_id, const struct store_case *c)
{
	struct pg_store *s = pg_of(base);
	struct case_row row;
	char *env;
	int64_t case_id;

	if (row_case_add(&row, s->base.name, run_id, c, &env)) {
		row_case_free(&row);
		return -1;
	}
	if (pg_begin_write(s) || insert_case(s, run_id, &row, &case_id))
		goto fail;
	for (size_t m = 0; m < c->nmetrics; m++) {
		const struct metric_def *d = &c->metrics[m];

		if (insert_metric(s, run_id, d->name, d->unit,
				  better_names[d->better], d->headline, d->help))
			goto fail;
	}
	if (pg_copy_case(s, case_id, c) ||
	    (c->monitors && insert_mons(s, case_id, c->monitors)) ||
	    (c->run_status &&
	     update_end(s, run_id, c->run_status, c->run_ended, env)) ||
	    pg_commit(s))
		goto fail;
	row_case_free(&row);
	free(env);
	return 0;
fail:
	pg_rollback(s);
	row_case_free(&row);
	free(env);
	return -1;
}

static int import_case(struct pg_store *s, int64_t run_id, json_t *c,
		       int64_t *case_id)
{
	struct case_row row;
	int rc = -1;

	if (!row_case_import(&row, s->base.name, c))
		rc = insert_case(s, run_id, &row, case_id);
	row_case_free(&row);
	return rc;
}

static int import_mons(struct pg_store *s, json_t *cases, const int64_t *ids)
{
	json_t *c;
	size_t k;

	json_array_foreach(cases, k, c)
		if (insert_mons(s, ids[k], json_object_get(c, "monitors")))
			return -1;
	return 0;
}

int pg_import_tx(struct pg_store *s, json_t *doc, const char *origin,
		 bool once, int64_t *id)
{
	json_t *m, *c, *cases;
	struct run_row row;
	const char *name;
	int64_t *ids = NULL;
	size_t i;
	int rc;

	if (row_run_import(&row, s->base.name, doc, origin)) {
		row_run_free(&row);
		return -1;
	}
	rc = mark_abandoned(s);
	if (!rc)
		rc = insert_run(s, &row, id);
	row_run_free(&row);
	if (rc == 1 && !once)
		return error("%s: run %s is already in %s as run %" PRId64,
			     origin, row.uuid, s->base.name, *id);
	if (rc)
		return rc;
	json_object_foreach(json_object_get(doc, "metrics"), name, m)
		if (insert_metric(s, *id, name, row_str(m, "unit"),
				  row_str(m, "better"),
				  json_is_true(json_object_get(m, "headline")),
				  row_str(m, "help")))
			return -1;
	cases = json_object_get(doc, "cases");
	ids = xcalloc(json_array_size(cases) + 1, sizeof(*ids));
	json_array_foreach(cases, i, c)
		if (import_case(s, *id, c, &ids[i]))
			goto fail;
	if (pg_copy_import(s, cases, ids) || import_mons(s, cases, ids))
		goto fail;
	free(ids);
	return 0;
fail:
	free(ids);
	return -1;
}

int pg_import(struct store *base, json_t *doc, const char *origin, bool once,
	      int64_t *id)
{
	struct pg_store *s = pg_of(base);
	int rc;

	if (pg_begin_write(s))
		return -1;
	rc = pg_import_tx(s, doc, origin, once, id);
	if (rc == 1 || rc < 0 || pg_commit(s)) {
		pg_rollback(s);
		return rc == 1 ? 1 : -1;
	}
	return 0;
}
