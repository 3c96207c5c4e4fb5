// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_read.c: runs out of PostgreSQL (pg.h) - finding one by id,
 * label or uuid, listing them (all, or the runs of one A/B), a case's
 * history (compare's run-to-run noise, run's estimates), a job's series
 * (history: one query for every run), and a run read
 * straight into struct run (model/run.h), as sqlite_model.c reads
 * SQLite's: store_export() is run_to_export() of it, so a run exports
 * the same bytes from either backend.
 *
 * Values come back as text: doubles in PostgreSQL's shortest exact form
 * (extra_float_digits, pg.c), which strtod() reads back to the same bits.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "stats/hist.h"
#include "store/pg.h"
#include "store/rows.h"
#include "util.h"

/* A text column copied; NULL for NULL. */
static char *col_dup(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL :
	       xstrdup(PQgetvalue(res, row, col));
}

static double col_real(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN :
	       strtod(PQgetvalue(res, row, col), NULL);
}

static int64_t col_int(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

/* The first column of sql's first row as *id: 1, 0 when none, -1. */
static int query_id(struct pg_store *s, const char *sql, const char *param,
		    int64_t *id)
{
	PGresult *res;
	int rc;

	if (s->empty)
		return 0;
	res = pg_query(s, sql, 1, &param, PGRES_TUPLES_OK, "cannot find a run");
	if (!res)
		return -1;
	rc = PQntuples(res) > 0;
	if (rc)
		*id = col_int(res, 0, 0);
	PQclear(res);
	return rc;
}

int pg_resolve(struct store *base, const char *spec, int64_t *id)
{
	struct pg_store *s = pg_of(base);
	size_t digits = strspn(spec, "0123456789");
	char num[24];
	int rc;

	if (*spec && !spec[digits]) {
		errno = 0;
		*id = strtoll(spec, NULL, 10);
		snprintf(num, sizeof(num), "%" PRId64, *id);
		rc = errno ? 0 : query_id(s, "SELECT id FROM runs WHERE id = $1",
					  num, id);
	} else {
		char *label = xstrdup_utf8(spec);

		/* store.h's rule: complete with cases, else with cases */
		rc = query_id(s, "SELECT r.id FROM runs r WHERE r.label = $1"
			      " ORDER BY EXISTS (SELECT 1 FROM cases c"
			      "   WHERE c.run_id = r.id) AND r.status = 'complete' DESC,"
			      " EXISTS (SELECT 1 FROM cases c WHERE c.run_id = r.id) DESC,"
			      " r.started DESC, r.id DESC LIMIT 1", label, id);
		free(label);
	}
	if (!rc)
		return error("no run '%s' in %s (see 'schedlab list runs')",
			     spec, s->base.name);
	return rc < 0 ? -1 : 0;
}

int pg_find_uuid(struct store *base, const char *uuid, int64_t *id)
{
	char *u = xstrdup_utf8(uuid);
	int rc = query_id(pg_of(base), "SELECT id FROM runs WHERE uuid = $1", u, id);

	free(u);
	return rc;
}

int pg_runs(struct store *base, struct store_run_info **runs, size_t *n)
{
	struct pg_store *s = pg_of(base);
	PGresult *res;

	*runs = NULL;
	*n = 0;
	if (s->empty)
		return 0;
	res = pg_query(s, "SELECT r.id, r.uuid, r.label, r.host, r.started, r.ended,"
		       " r.status,"
		       " (SELECT count(*) FROM cases c WHERE c.run_id = r.id),"
		       " (SELECT count(*) FROM cases c JOIN samples x"
		       "   ON x.case_id = c.id WHERE c.run_id = r.id),"
		       " r.pid, r.pid_start, r.boot_id,"
		       /* the environment's git item (probe/sysenv.h) */
		       " r.environment #>> '{git,value,describe}',"
		       " r.ab, r.variant"
		       " FROM runs r ORDER BY r.started DESC, r.id DESC", 0, NULL,
		       PGRES_TUPLES_OK, "cannot list runs");
	if (!res)
		return -1;
	*n = (size_t)PQntuples(res);
	*runs = xcalloc(*n + 1, sizeof(**runs));
	for (int i = 0; i < PQntuples(res); i++) {
		struct store_writer w;
		const char *host = PQgetisnull(res, i, 3) ? NULL :
				   PQgetvalue(res, i, 3);

		pg_writer_col(res, i, 9, &w);
		(*runs)[i] = (struct store_run_info){
			.id = col_int(res, i, 0),
			.uuid = col_dup(res, i, 1), .label = col_dup(res, i, 2),
			.host = col_dup(res, i, 3),
			.started = col_real(res, i, 4),
			.ended = col_real(res, i, 5),
			.status = xstrdup(store_status_shown(
				PQgetvalue(res, i, 6), host, &w)),
			.cases = col_int(res, i, 7),
			.samples = col_int(res, i, 8),
			.commit = col_dup(res, i, 12),
			.ab = col_dup(res, i, 13), .variant = col_dup(res, i, 14),
		};
	}
	PQclear(res);
	return 0;
}

int pg_ab_runs(struct store *base, const char *ab, struct store_ab_run **runs,
	       size_t *n)
{
	struct pg_store *s = pg_of(base);
	PGresult *res;
	char *a;

	*runs = NULL;
	*n = 0;
	if (s->empty)
		return 0;
	a = xstrdup_utf8(ab);
	res = pg_query(s, "SELECT id, variant, label FROM runs WHERE ab = $1"
		       " ORDER BY id", 1, (const char *const *)&a,
		       PGRES_TUPLES_OK, "cannot list the runs of an A/B");
	free(a);
	if (!res)
		return -1;
	*n = (size_t)PQntuples(res);
	*runs = xcalloc(*n + 1, sizeof(**runs));
	for (int i = 0; i < PQntuples(res); i++)
		(*runs)[i] = (struct store_ab_run){
			.id = col_int(res, i, 0),
			.variant = col_dup(res, i, 1),
			.label = col_dup(res, i, 2),
		};
	PQclear(res);
	return 0;
}

/* A json column as an object ({} for NULL); NULL after error(). */
static json_t *col_object(struct pg_store *s, const PGresult *res, int row,
			  int col, const char *what, int64_t id)
{
	json_error_t err;
	json_t *j;

	if (PQgetisnull(res, row, col))
		return json_object();
	j = json_loads(PQgetvalue(res, row, col), 0, &err);
	if (!json_is_object(j)) {
		json_decref(j);
		error("%s: %s of %" PRId64 " is not a JSON object (%s)",
		      s->base.name, what, id, j ? "another JSON type" : err.text);
		return NULL;
	}
	return j;
}

static int load_run(struct pg_store *s, int64_t id, const char *idtext,
		    struct run *r)
{
	PGresult *res = pg_query(s, "SELECT uuid, label, host, started, ended,"
				 " status, command, schedlab_version, environment,"
				 " pid, pid_start, boot_id, ab, variant"
				 " FROM runs WHERE id = $1", 1, &idtext,
				 PGRES_TUPLES_OK, "cannot read a run");
	const json_t *busy;
	struct store_writer w;

	if (!res)
		return -1;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return error("no run %" PRId64 " in %s", id, s->base.name);
	}
	r->environment = col_object(s, res, 0, 8, "the environment of run", id);
	if (!r->environment) {
		PQclear(res);
		return -1;
	}
	busy = json_object_get(json_object_get(r->environment, "busy_at_start"),
			       "value");
	r->id = id;
	r->uuid = xstrdup(PQgetvalue(res, 0, 0));
	r->label = col_dup(res, 0, 1);
	r->host = col_dup(res, 0, 2);
	r->started = col_real(res, 0, 3);
	r->ended = col_real(res, 0, 4);
	pg_writer_col(res, 0, 9, &w);
	r->status = xstrdup(store_status_shown(PQgetvalue(res, 0, 5), r->host, &w));
	r->command = col_dup(res, 0, 6);
	r->schedlab_version = col_dup(res, 0, 7);
	r->ab = col_dup(res, 0, 12);
	r->variant = col_dup(res, 0, 13);
	r->busy_at_start = json_is_number(busy) ? json_number_value(busy) : NAN;
	PQclear(res);
	return 0;
}

/* The run's metric metadata, in the order it was first stored. */
static int load_metrics(struct pg_store *s, const char *idtext, struct run *r)
{
	PGresult *res = pg_query(s, "SELECT name, unit, better, headline, help"
				 " FROM run_metrics WHERE run_id = $1 ORDER BY seq",
				 1, &idtext, PGRES_TUPLES_OK,
				 "cannot read the run's metrics");

	if (!res)
		return -1;
	r->nmetrics = (size_t)PQntuples(res);
	r->metrics = xcalloc(r->nmetrics + 1, sizeof(*r->metrics));
	for (size_t m = 0; m < r->nmetrics; m++) {
		struct metric_def *d = &r->metrics[m];
		int better = better_parse(PQgetvalue(res, (int)m, 2));

		d->name = xstrdup(PQgetvalue(res, (int)m, 0));
		d->unit = xstrdup(PQgetvalue(res, (int)m, 1));
		d->better = better < 0 ? BETTER_NONE : (enum better)better;
		d->headline = !strcmp(PQgetvalue(res, (int)m, 3), "t");
		d->help = xstrdup(PQgetvalue(res, (int)m, 4));
	}
	PQclear(res);
	return 0;
}

static int cmp_series(const void *a, const void *b)
{
	const struct run_series *x = a, *y = b;

	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

/* Rows come by metric: the series of the metric of the last row, or a new one. */
static struct run_series *series_for(struct run_case *c, size_t m)
{
	struct run_series *cur;

	for (size_t k = c->nseries; k-- > 0;)
		if (c->series[k].metric == m)
			return &c->series[k];
	cur = &c->series[c->nseries++];
	cur->metric = m;
	cur->x = xmalloc((c->niter + 1) * sizeof(*cur->x));
	for (size_t i = 0; i < c->niter; i++)
		cur->x[i] = NAN;
	return cur;
}

static int load_samples(struct pg_store *s, const struct run *r,
			const char *case_id, struct run_case *c)
{
	PGresult *res = pg_query(s, "SELECT metric, iteration, value FROM samples"
				 " WHERE case_id = $1 ORDER BY metric, iteration",
				 1, &case_id, PGRES_TUPLES_OK,
				 "cannot read a case's samples");
	struct run_series *cur = NULL;
	const char *last = NULL;
	int rc = 0;

	if (!res)
		return -1;
	c->series = xcalloc(r->nmetrics + 1, sizeof(*c->series));
	for (int i = 0; i < PQntuples(res); i++) {
		const char *name = PQgetvalue(res, i, 0);
		int64_t it = col_int(res, i, 1);
		double v = col_real(res, i, 2);

		if (it < 1 || (uint64_t)it > c->niter || !isfinite(v)) {
			rc = error("%s: case %s: sample %s[%" PRId64
				   "] does not fit its case", s->base.name,
				   case_id, name, it);
			break;
		}
		if (!last || strcmp(last, name)) {
			int m = run_metric(r, name);

			if (m < 0) {
				rc = error("%s: case %s has samples of a metric the run does not describe",
					   s->base.name, case_id);
				break;
			}
			cur = series_for(c, (size_t)m);
			last = name;
		}
		cur->x[it - 1] = v;
	}
	PQclear(res);
	if (rc)
		return -1;
	qsort(c->series, c->nseries, sizeof(*c->series), cmp_series);
	run_case_index(r, c);
	return 0;
}

/*
 * The case's latency histograms, each checked as it is read; others
 * (schedlab run stores none) are checked and left out of the model.
 */
static int load_hists(struct pg_store *s, const char *case_id,
		      struct run_case *c)
{
	PGresult *res = pg_query(s, "SELECT metric, iteration, buckets FROM histograms"
				 " WHERE case_id = $1 ORDER BY metric, iteration",
				 1, &case_id, PGRES_TUPLES_OK,
				 "cannot read a case's histograms");
	struct hist *check = NULL;
	int64_t id = strtoll(case_id, NULL, 10);
	int rc = 0;

	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res) && !rc; i++)
		rc = row_hist_load(c, s->base.name, id, PQgetvalue(res, i, 0),
				   col_int(res, i, 1), PQgetvalue(res, i, 2),
				   &check);
	free(check);
	PQclear(res);
	return rc ? -1 : 0;
}

/* The case's monitors' series, each checked as it is read. */
static int load_mons(struct pg_store *s, const char *case_id,
		     struct run_case *c)
{
	PGresult *res = pg_query(s, "SELECT monitor, iteration, series FROM monitors"
				 " WHERE case_id = $1 ORDER BY monitor, iteration",
				 1, &case_id, PGRES_TUPLES_OK,
				 "cannot read a case's monitors");
	int64_t id = strtoll(case_id, NULL, 10);
	int rc = 0;

	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res) && !rc; i++)
		rc = row_mon_load(c, s->base.name, id, PQgetvalue(res, i, 0),
				  col_int(res, i, 1), PQgetvalue(res, i, 2));
	PQclear(res);
	return rc ? -1 : 0;
}

/* The columns of the cases query. */
enum {
	C_ID, C_SEQ, C_JOB, C_WORKLOAD, C_VERSION, C_PARAMS, C_SWEEP_KEYS,
	C_SWEEP, C_STATUS, C_REASON, C_PARAMETERS, C_SETTINGS, C_ITERATIONS,
};

/* NULL is "" in the model, noted in c->nulls (bit). */
static char *col_dup_empty(const PGresult *res, int row, int col,
			   unsigned *nulls, unsigned bit)
{
	if (!PQgetisnull(res, row, col))
		return xstrdup(PQgetvalue(res, row, col));
	if (nulls)
		*nulls |= bit;
	return xstrdup("");
}

static int load_case(struct pg_store *s, const PGresult *res, int i,
		     struct run_case *c)
{
	int64_t case_id = col_int(res, i, C_ID);
	json_t *j;

	c->seq = (unsigned)col_int(res, i, C_SEQ);
	c->job = col_dup_empty(res, i, C_JOB, NULL, 0);
	c->workload = col_dup_empty(res, i, C_WORKLOAD, NULL, 0);
	c->version = (unsigned)col_int(res, i, C_VERSION);
	c->params = col_dup_empty(res, i, C_PARAMS, &c->nulls, RUN_NULL_PARAMS);
	c->sweep_keys = col_dup_empty(res, i, C_SWEEP_KEYS, &c->nulls,
				      RUN_NULL_SWEEP_KEYS);
	c->sweep = col_dup_empty(res, i, C_SWEEP, &c->nulls, RUN_NULL_SWEEP);
	c->complete = !strcmp(PQgetvalue(res, i, C_STATUS), "complete");
	c->reason = col_dup(res, i, C_REASON);
	c->niter = (size_t)col_int(res, i, C_ITERATIONS);
	j = col_object(s, res, i, C_PARAMETERS, "the parameters of case", case_id);
	if (!j)
		return -1;
	run_case_take_parameters(c, j);
	j = col_object(s, res, i, C_SETTINGS, "the settings of case", case_id);
	if (!j)
		return -1;
	run_case_set_settings(c, j);
	json_decref(j);
	return 0;
}

static int load_cases(struct pg_store *s, const char *idtext, struct run *r)
{
	PGresult *res = pg_query(s, "SELECT id, seq, job, workload, version, params,"
				 " sweep_keys, sweep, status, reason, parameters,"
				 " settings, iterations FROM cases WHERE run_id = $1"
				 " ORDER BY seq", 1, &idtext, PGRES_TUPLES_OK,
				 "cannot read the run's cases");
	int rc = 0;

	if (!res)
		return -1;
	r->cases = xcalloc((size_t)PQntuples(res) + 1, sizeof(*r->cases));
	for (int i = 0; i < PQntuples(res) && !rc; i++) {
		struct run_case *c = &r->cases[r->ncases++];
		const char *case_id = PQgetvalue(res, i, C_ID);

		rc = load_case(s, res, i, c) || load_samples(s, r, case_id, c) ||
		     load_hists(s, case_id, c) || load_mons(s, case_id, c) ? -1 : 0;
	}
	PQclear(res);
	return rc;
}

int pg_load(struct store *base, int64_t id, struct run *r)
{
	struct pg_store *s = pg_of(base);
	bool own = PQtransactionStatus(s->conn) == PQTRANS_IDLE;
	char idtext[24];
	int rc;

	memset(r, 0, sizeof(*r));
	r->id = -1;
	snprintf(idtext, sizeof(idtext), "%" PRId64, id);
	if (s->empty)
		return error("no run %" PRId64 " in %s", id, s->base.name);
	/* one snapshot, even while another process adds cases to the run */
	if (own && pg_exec(s, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
			   "cannot read"))
		return -1;
	rc = load_run(s, id, idtext, r);
	if (!rc)
		rc = load_metrics(s, idtext, r);
	if (!rc)
		rc = load_cases(s, idtext, r);
	if (own)
		pg_rollback(s);
	if (rc)
		run_free(r);
	return rc;
}

int pg_estimate(struct store *base, const char *workload, unsigned version,
		const char *params, double *secs)
{
	struct pg_store *s = pg_of(base);
	char ver[16];
	const char *v[3] = { workload, params, ver };
	PGresult *res;
	int rc = 0;

	if (s->empty)
		return 0;
	snprintf(ver, sizeof(ver), "%u", version ? version : 1);
	res = pg_query(s, "SELECT avg(v.value) FROM samples v"
		       " WHERE v.metric = 'process.wall_s' AND v.case_id IN"
		       " (SELECT id FROM cases WHERE workload = $1"
		       " AND version = $3 AND params = $2 AND status = 'complete'"
		       " ORDER BY id DESC LIMIT 3)", 3, v, PGRES_TUPLES_OK,
		       "cannot estimate");
	if (!res)
		return -1;
	if (PQntuples(res) == 1 && !PQgetisnull(res, 0, 0)) {
		*secs = col_real(res, 0, 0);
		rc = 1;
	}
	PQclear(res);
	return rc;
}

int pg_history(struct store *base, const char *label, const char *host,
	       const char *workload, unsigned version, const char *params,
	       const char *metric, unsigned max,
	       void (*fn)(void *arg, const double *x, size_t n), void *arg)
{
	struct pg_store *s = pg_of(base);
	char ver[16], lim[16];
	const char *v[7] = { host, workload, params, metric, lim, label, ver };
	PGresult *res;
	double *x;
	int count = 0, rows;

	if (s->empty)
		return 0;
	snprintf(ver, sizeof(ver), "%u", version ? version : 1);
	snprintf(lim, sizeof(lim), "%u", max);
	res = pg_query(s, "SELECT v.case_id, v.value FROM samples v"
		       " WHERE v.metric = $4 AND v.case_id IN"
		       " (SELECT c.id FROM cases c JOIN runs r ON r.id = c.run_id"
		       " WHERE c.workload = $2 AND c.version = $7 AND c.params = $3"
		       " AND c.status = 'complete' AND r.host IS NOT DISTINCT FROM $1"
		       " AND r.label = $6 ORDER BY c.id DESC LIMIT $5)"
		       " ORDER BY v.case_id, v.iteration", 7, v, PGRES_TUPLES_OK,
		       "cannot read a case's history");
	if (!res)
		return -1;
	rows = PQntuples(res);
	x = xmalloc(((size_t)rows + 1) * sizeof(*x));
	for (int i = 0, first = 0; i < rows; i++) {
		x[i] = col_real(res, i, 1);
		if (i + 1 == rows || strcmp(PQgetvalue(res, i, 0),
					    PQgetvalue(res, i + 1, 0))) {
			fn(arg, x + first, (size_t)(i + 1 - first));
			count++;
			first = i + 1;
		}
	}
	free(x);
	PQclear(res);
	return count;
}

/* The run (complete or partial) and case (complete) a series reads. */
#define SERIES_CASES "c.status = 'complete' AND r.status IN ('complete', 'partial')"

int pg_series_meta(struct store *base, const char *job,
		   struct store_series *out)
{
	struct pg_store *s = pg_of(base);
	PGresult *res;
	int rows;

	if (s->empty)
		return 0;
	res = pg_query(s, "SELECT m.name, m.unit, m.better, m.headline"
		       " FROM run_metrics m, (SELECT c.id, c.run_id FROM cases c"
		       " JOIN runs r ON r.id = c.run_id WHERE c.job = $1 AND "
		       SERIES_CASES " ORDER BY r.started DESC, c.id DESC LIMIT 1) l"
		       " WHERE m.run_id = l.run_id AND m.name IN"
		       " (SELECT metric FROM samples WHERE case_id = l.id)"
		       " ORDER BY m.seq", 1, &job, PGRES_TUPLES_OK,
		       "cannot read a job's metrics");
	if (!res)
		return -1;
	rows = PQntuples(res);
	if (rows) {
		out->metrics = xcalloc((size_t)rows, sizeof(*out->metrics));
		for (int i = 0; i < rows; i++) {
			int better = better_parse(PQgetvalue(res, i, 2));

			out->metrics[i] = (struct store_series_metric){
				.name = col_dup(res, i, 0), .unit = col_dup(res, i, 1),
				.better = better < 0 ? BETTER_NONE : (enum better)better,
				.headline = *PQgetvalue(res, i, 3) == 't',
			};
		}
		out->nmetrics = (size_t)rows;
		PQclear(res);
		return 0;
	}
	PQclear(res);
	res = pg_query(s, "SELECT DISTINCT c.job FROM cases c JOIN runs r"
		       " ON r.id = c.run_id WHERE " SERIES_CASES " ORDER BY c.job",
		       0, NULL, PGRES_TUPLES_OK, "cannot list jobs");
	if (!res)
		return -1;
	rows = PQntuples(res);
	out->jobs = xcalloc((size_t)rows + 1, sizeof(*out->jobs));
	for (int i = 0; i < rows; i++)
		out->jobs[i] = col_dup(res, i, 0);
	out->njobs = (size_t)rows;
	PQclear(res);
	return 0;
}

int pg_series(struct store *base, const struct store_series_query *q,
	      const char *metric, struct store_series *out)
{
	struct pg_store *s = pg_of(base);
	char since[32];
	const char *v[3] = { q->job, metric, NULL };
	struct store_series_case *c = NULL;
	PGresult *res;
	int rows;

	if (s->empty)
		return 0;
	if (!isnan(q->since)) {
		snprintf(since, sizeof(since), "%.17g", q->since);
		v[2] = since;
	}
	res = pg_query(s, "SELECT c.id, r.id, r.uuid, r.label, r.host, r.started,"
		       " r.environment->'kernel'->'release'->>'value',"
		       " c.version, c.params, c.sweep_keys, c.sweep, v.value, r.command,"
		       " c.settings::text"
		       " FROM cases c JOIN runs r ON r.id = c.run_id"
		       " JOIN samples v ON v.case_id = c.id AND v.metric = $2"
		       " WHERE c.job = $1 AND " SERIES_CASES
		       " AND ($3::float8 IS NULL OR r.started >= $3::float8)"
		       " ORDER BY r.started, r.id, c.seq, v.iteration", 3, v,
		       PGRES_TUPLES_OK, "cannot read a job's series");
	if (!res)
		return -1;
	rows = PQntuples(res);
	for (int i = 0; i < rows; i++) {
		if (!i || strcmp(PQgetvalue(res, i, 0), PQgetvalue(res, i - 1, 0))) {
			c = series_case_add(out);
			c->run_id = col_int(res, i, 1);
			c->uuid = col_dup(res, i, 2);
			c->label = col_dup(res, i, 3);
			c->host = col_dup(res, i, 4);
			c->started = col_real(res, i, 5);
			c->kernel = col_dup(res, i, 6);
			c->version = (unsigned)col_int(res, i, 7);
			c->params = col_dup(res, i, 8);
			c->sweep_keys = col_dup(res, i, 9);
			c->sweep = col_dup(res, i, 10);
			c->command = col_dup(res, i, 12);
			c->settings = col_dup(res, i, 13);
		}
		series_sample_add(c, col_real(res, i, 11));
	}
	PQclear(res);
	return 0;
}
