// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_read.c: runs out of PostgreSQL (pg.h) - finding one by id,
 * label or uuid, listing them (all, or the runs of one A/B), a case's
 * history (compare's run-to-run noise, run's estimates) and a job's
 * series (history: one query for every run). A run read straight into
 * struct run is pg_model.c's.
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
		*id = pg_col_int(res, 0, 0);
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

int pg_relabel(struct store *base, const char *uuid, const char *label)
{
	char *u = xstrdup_utf8(uuid), *l = xstrdup_utf8(label);
	const char *v[2] = { l, u };
	PGresult *res = pg_query(pg_of(base), "UPDATE runs SET label = $1 WHERE uuid = $2",
				 2, v, PGRES_COMMAND_OK, "cannot relabel a run");

	int rc = res ? 0 : -1;

	free(u);
	free(l);
	PQclear(res);
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
			.id = pg_col_int(res, i, 0),
			.uuid = pg_col_dup(res, i, 1), .label = pg_col_dup(res, i, 2),
			.host = pg_col_dup(res, i, 3),
			.started = pg_col_real(res, i, 4),
			.ended = pg_col_real(res, i, 5),
			.status = xstrdup(store_status_shown(
				PQgetvalue(res, i, 6), host, &w)),
			.cases = pg_col_int(res, i, 7),
			.samples = pg_col_int(res, i, 8),
			.commit = pg_col_dup(res, i, 12),
			.ab = pg_col_dup(res, i, 13), .variant = pg_col_dup(res, i, 14),
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
			.id = pg_col_int(res, i, 0),
			.variant = pg_col_dup(res, i, 1),
			.label = pg_col_dup(res, i, 2),
		};
	PQclear(res);
	return 0;
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
		*secs = pg_col_real(res, 0, 0);
		rc = 1;
	}
	PQclear(res);
	return rc;
}

int pg_history(struct store *base, const char *label, const char *host,
	       const char *workload, unsigned version, const char *params,
	       const char *metric, unsigned max,
	       store_history_fn *fn, void *arg)
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
		x[i] = pg_col_real(res, i, 1);
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
				.name = pg_col_dup(res, i, 0), .unit = pg_col_dup(res, i, 1),
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
		out->jobs[i] = pg_col_dup(res, i, 0);
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
			c->run_id = pg_col_int(res, i, 1);
			c->uuid = pg_col_dup(res, i, 2);
			c->label = pg_col_dup(res, i, 3);
			c->host = pg_col_dup(res, i, 4);
			c->started = pg_col_real(res, i, 5);
			c->kernel = pg_col_dup(res, i, 6);
			c->version = (unsigned)pg_col_int(res, i, 7);
			c->params = pg_col_dup(res, i, 8);
			c->sweep_keys = pg_col_dup(res, i, 9);
			c->sweep = pg_col_dup(res, i, 10);
			c->command = pg_col_dup(res, i, 12);
			c->settings = pg_col_dup(res, i, 13);
		}
		series_sample_add(c, pg_col_real(res, i, 11));
	}
	PQclear(res);
	return 0;
}
