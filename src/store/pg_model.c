// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_model.c: a run read out of PostgreSQL straight into struct
 * run (model/run.h), as sqlite_model.c reads SQLite's: its row, metrics,
 * cases, samples, histograms and monitors' series. store_export() is
 * run_to_export() of it, so a run exports the same bytes from either
 * backend. Values come back as text (pg_read.c says how they read back
 * exactly).
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
	r->id = id;
	r->uuid = xstrdup(PQgetvalue(res, 0, 0));
	r->label = pg_col_dup(res, 0, 1);
	r->host = pg_col_dup(res, 0, 2);
	r->started = pg_col_real(res, 0, 3);
	r->ended = pg_col_real(res, 0, 4);
	pg_writer_col(res, 0, 9, &w);
	r->status = xstrdup(store_status_shown(PQgetvalue(res, 0, 5), r->host, &w));
	r->command = pg_col_dup(res, 0, 6);
	r->schedlab_version = pg_col_dup(res, 0, 7);
	r->ab = pg_col_dup(res, 0, 12);
	r->variant = pg_col_dup(res, 0, 13);
	run_env_figures(r);
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
		int64_t it = pg_col_int(res, i, 1);
		double v = pg_col_real(res, i, 2);

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
 * The two tables of one JSON text a case, name and iteration: the
 * query that reads a case's rows in order, and what a failure names.
 */
struct json_table {
	const char *sql, *what;
	bool hists;		/* histograms, else monitors' series */
};

static const struct json_table hist_table = {
	"SELECT metric, iteration, buckets FROM histograms"
	" WHERE case_id = $1 ORDER BY metric, iteration",
	"cannot read a case's histograms", true,
}, mon_table = {
	"SELECT monitor, iteration, series FROM monitors"
	" WHERE case_id = $1 ORDER BY monitor, iteration",
	"cannot read a case's monitors", false,
};

/*
 * The case's latency histograms (t: &hist_table) or its monitors'
 * series (&mon_table), each checked as it is read by rows.c. Histograms
 * of other names (schedlab run stores none) are checked and left out of
 * the model.
 */
static int load_json_rows(struct pg_store *s, const struct json_table *t,
			  const char *case_id, struct run_case *c)
{
	PGresult *res = pg_query(s, t->sql, 1, &case_id, PGRES_TUPLES_OK,
				 t->what);
	struct hist *check = NULL;
	int64_t id = strtoll(case_id, NULL, 10);
	int rc = 0;

	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res) && !rc; i++) {
		const char *name = PQgetvalue(res, i, 0);
		const char *text = PQgetvalue(res, i, 2);
		int64_t it = pg_col_int(res, i, 1);

		rc = t->hists ?
		     row_hist_load(c, s->base.name, id, name, it, text, &check) :
		     row_mon_load(c, s->base.name, id, name, it, text);
	}
	free(check);
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
	int64_t case_id = pg_col_int(res, i, C_ID);
	json_t *j;

	c->seq = (unsigned)pg_col_int(res, i, C_SEQ);
	c->job = col_dup_empty(res, i, C_JOB, NULL, 0);
	c->workload = col_dup_empty(res, i, C_WORKLOAD, NULL, 0);
	c->version = (unsigned)pg_col_int(res, i, C_VERSION);
	c->params = col_dup_empty(res, i, C_PARAMS, &c->nulls, RUN_NULL_PARAMS);
	c->sweep_keys = col_dup_empty(res, i, C_SWEEP_KEYS, &c->nulls,
				      RUN_NULL_SWEEP_KEYS);
	c->sweep = col_dup_empty(res, i, C_SWEEP, &c->nulls, RUN_NULL_SWEEP);
	c->complete = !strcmp(PQgetvalue(res, i, C_STATUS), "complete");
	c->reason = pg_col_dup(res, i, C_REASON);
	c->niter = (size_t)pg_col_int(res, i, C_ITERATIONS);
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
		     load_json_rows(s, &hist_table, case_id, c) ||
		     load_json_rows(s, &mon_table, case_id, c) ? -1 : 0;
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
