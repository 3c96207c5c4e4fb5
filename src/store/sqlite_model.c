// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_model.c: a stored run straight into struct run
 * (model/run.h) - the database's loader of the model, a handful of
 * prepared statements and no JSON in between but the environment,
 * parameters and settings columns, which hold JSON. It is the one
 * reader of a stored run: store_export() is run_to_export() of it.
 *
 * The cases are read by column name (SELECT *), so that columns added
 * by later schema versions are read when they are there: version and
 * settings (schema 3) default to 1 and none before.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "stats/hist.h"
#include "store/rows.h"
#include "store/sqlite.h"
#include "util.h"

/* The same, "" for NULL, noting it in *nulls (bit) when nulls is given. */
static char *col_dup_empty(sqlite3_stmt *st, int i, unsigned *nulls,
			   unsigned bit)
{
	char *s = db_col_dup(st, i);

	if (s)
		return s;
	if (nulls)
		*nulls |= bit;
	return xstrdup("");
}

/* A JSON object kept in a column ({} for NULL); NULL after error(). */
static json_t *col_object(struct sqlite_store *s, sqlite3_stmt *st, int i,
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

static int load_run(struct sqlite_store *s, int64_t id, struct run *r)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare_arg(s, "SELECT uuid, label, host, started, ended, status,"
		    " command, schedlab_version, environment, pid,"
		    " pid_start, boot_id, ab, variant"
		    " FROM runs WHERE id = ?", NULL, id, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->environment = col_object(s, st, 8, "the environment of run", id);
		rc = r->environment ? 0 : -1;
	} else if (rc == SQLITE_DONE) {
		rc = error("no run %" PRId64 " in %s", id, s->path);
	} else {
		rc = db_error(s, "cannot read run %" PRId64, id);
	}
	if (!rc) {
		struct store_writer w;
		const char *shown;

		r->id = id;
		r->uuid = db_col_dup(st, 0);
		r->label = db_col_dup(st, 1);
		r->host = db_col_dup(st, 2);
		r->started = sqlite3_column_double(st, 3);
		r->ended = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN :
			   sqlite3_column_double(st, 4);
		store_writer_col(st, 9, &w);
		shown = store_status_shown((const char *)sqlite3_column_text(st, 5),
			(const char *)sqlite3_column_text(st, 2), &w);
		r->status = shown ? xstrdup(shown) : NULL;
		r->command = db_col_dup(st, 6);
		r->schedlab_version = db_col_dup(st, 7);
		r->ab = db_col_dup(st, 12);
		r->variant = db_col_dup(st, 13);
		run_env_figures(r);
		if (!r->uuid)
			r->uuid = xstrdup("");
		if (!r->status)
			r->status = xstrdup("");
	}
	sqlite3_finalize(st);
	return rc;
}

/* The run's metric metadata, in the order it was first stored. */
static int load_metrics(struct sqlite_store *s, int64_t id, struct run *r)
{
	sqlite3_stmt *st;
	size_t cap = 16;
	int rc;

	if (db_prepare_arg(s, "SELECT name, unit, better, headline, help"
			   " FROM run_metrics WHERE run_id = ? ORDER BY rowid",
			   NULL, id, &st))
		return -1;
	r->metrics = xcalloc(cap, sizeof(*r->metrics));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct metric_def *d;
		const char *b = (const char *)sqlite3_column_text(st, 2);
		int better = better_parse(b ? b : "");

		/* n + 1: a spare one beside, as from the xcalloc() */
		r->metrics = store_grow(r->metrics, r->nmetrics + 1, &cap,
					 sizeof(*r->metrics));
		d = &r->metrics[r->nmetrics++];
		memset(d, 0, sizeof(*d));
		d->name = db_col_dup(st, 0);
		d->unit = db_col_dup(st, 1);
		d->better = better < 0 ? BETTER_NONE : (enum better)better;
		d->headline = sqlite3_column_int(st, 3);
		d->help = db_col_dup(st, 4);
		if (!d->unit)
			d->unit = xstrdup("");
		if (!d->help)
			d->help = xstrdup("");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot read the metrics of run %" PRId64, id);
	return 0;
}

/*
 * The run's metric indices by name, ascending as strcmp() orders them -
 * the order sample rows come in (the samples' primary key) - so that a
 * case's rows find their metrics in one forward walk.
 */
struct by_name {
	const struct run *r;
	size_t *order;
};

static int cmp_name(const void *a, const void *b, void *arg)
{
	const struct run *r = arg;

	return strcmp(r->metrics[*(const size_t *)a].name,
		      r->metrics[*(const size_t *)b].name);
}

static void by_name_init(struct by_name *bn, const struct run *r)
{
	bn->r = r;
	bn->order = xcalloc(r->nmetrics + 1, sizeof(*bn->order));
	for (size_t m = 0; m < r->nmetrics; m++)
		bn->order[m] = m;
	qsort_r(bn->order, r->nmetrics, sizeof(*bn->order), cmp_name,
		(void *)r);
}

/* name's metric, looking from *at onwards (names come ascending); -1: none. */
static int metric_of(const struct by_name *bn, const char *name, size_t *at)
{
	const struct run *r = bn->r;

	for (; *at < r->nmetrics; ++*at) {
		int c = strcmp(r->metrics[bn->order[*at]].name, name);

		if (!c)
			return (int)bn->order[*at];
		if (c > 0)
			break;
	}
	/* not in order after all: look everywhere */
	*at = 0;
	return run_metric(r, name);
}

static int cmp_series(const void *a, const void *b)
{
	const struct run_series *x = a, *y = b;

	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

/* st: the samples query, bound here, reset on return. */
static int load_samples(struct sqlite_store *s, sqlite3_stmt *st, int64_t case_id,
			const struct by_name *bn, struct run_case *c)
{
	const struct run *r = bn->r;
	struct run_series *cur = NULL;
	size_t at = 0;
	int rc, ret = -1;

	c->series = xcalloc(r->nmetrics + 1, sizeof(*c->series));
	sqlite3_bind_int64(st, 1, case_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int64_t it = sqlite3_column_int64(st, 1);
		double v = sqlite3_column_double(st, 2);
		int m;

		if (it < 1 || (uint64_t)it > c->niter || !isfinite(v)) {
			error("%s: case %" PRId64 ": sample %s[%" PRId64
			      "] does not fit its case", s->path, case_id,
			      name, it);
			goto out;
		}
		m = metric_of(bn, name ? name : "", &at);
		if (m < 0) {
			error("%s: case %" PRId64 " has samples of a metric the run does not describe",
			      s->path, case_id);
			goto out;
		}
		if (!cur || cur->metric != (size_t)m) {
			/* a new metric: rows come by metric, so a new series */
			cur = NULL;
			for (size_t k = 0; k < c->nseries && !cur; k++)
				if (c->series[k].metric == (size_t)m)
					cur = &c->series[k];
			if (!cur) {
				cur = &c->series[c->nseries++];
				cur->metric = (size_t)m;
				cur->x = xmalloc((c->niter + 1) * sizeof(*cur->x));
				for (size_t i = 0; i < c->niter; i++)
					cur->x[i] = NAN;
			}
		}
		cur->x[it - 1] = v;
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the samples of case %" PRId64, case_id);
		goto out;
	}
	qsort(c->series, c->nseries, sizeof(*c->series), cmp_series);
	run_case_index(r, c);
	ret = 0;
out:
	sqlite3_reset(st);
	return ret;
}

/*
 * The case's latency histograms (hists) or its monitors' series, each
 * checked as it is read by rows.c: the two tables have one shape
 * (case_id, name, iteration, JSON text). Histograms of other names
 * (none is stored by schedlab run) are checked and left out of the
 * model. st: the table's query, reset on return; NULL (monitors in a
 * database before schema 7): none.
 */
static int load_json_rows(struct sqlite_store *s, sqlite3_stmt *st,
			  bool hists, int64_t case_id, struct run_case *c)
{
	struct hist *check = NULL;
	int rc, ret = -1;

	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, case_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int64_t it = sqlite3_column_int64(st, 1);
		const char *text = (const char *)sqlite3_column_text(st, 2);

		if (hists ?
		    row_hist_load(c, s->path, case_id, name, it, text, &check) :
		    row_mon_load(c, s->path, case_id, name, it, text))
			goto out;
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the %s of case %" PRId64,
			 hists ? "histograms" : "monitors", case_id);
		goto out;
	}
	ret = 0;
out:
	free(check);
	sqlite3_reset(st);
	return ret;
}

/* The columns of the cases query, found by name. */
enum {
	C_ID, C_SEQ, C_JOB, C_WORKLOAD, C_VERSION, C_PARAMS, C_SWEEP_KEYS,
	C_SWEEP, C_STATUS, C_REASON, C_PARAMETERS, C_SETTINGS, C_ITERATIONS,
	C_N
};

static const char *const case_columns[C_N] = {
	"id", "seq", "job", "workload", "version", "params", "sweep_keys",
	"sweep", "status", "reason", "parameters", "settings", "iterations",
};

static int load_case(struct sqlite_store *s, sqlite3_stmt *cs, const int *col,
		     struct run_case *c)
{
	int64_t case_id = sqlite3_column_int64(cs, col[C_ID]);
	const char *status;
	json_t *j;

	c->seq = (unsigned)sqlite3_column_int64(cs, col[C_SEQ]);
	c->job = col_dup_empty(cs, col[C_JOB], NULL, 0);
	c->workload = col_dup_empty(cs, col[C_WORKLOAD], NULL, 0);
	c->version = col[C_VERSION] < 0 ? 1 :
		     (unsigned)sqlite3_column_int64(cs, col[C_VERSION]);
	c->params = col_dup_empty(cs, col[C_PARAMS], &c->nulls, RUN_NULL_PARAMS);
	c->sweep_keys = col_dup_empty(cs, col[C_SWEEP_KEYS], &c->nulls,
				      RUN_NULL_SWEEP_KEYS);
	c->sweep = col_dup_empty(cs, col[C_SWEEP], &c->nulls, RUN_NULL_SWEEP);
	status = (const char *)sqlite3_column_text(cs, col[C_STATUS]);
	c->complete = status && !strcmp(status, "complete");
	c->reason = db_col_dup(cs, col[C_REASON]);
	c->niter = (size_t)sqlite3_column_int64(cs, col[C_ITERATIONS]);
	j = col_object(s, cs, col[C_PARAMETERS], "the parameters of case",
		       case_id);
	if (!j)
		return -1;
	run_case_take_parameters(c, j);
	if (col[C_SETTINGS] >= 0) {
		j = col_object(s, cs, col[C_SETTINGS], "the settings of case",
			       case_id);
		if (!j)
			return -1;
		run_case_set_settings(c, j);
		json_decref(j);
	}
	return 0;
}

static int load_cases(struct sqlite_store *s, int64_t id, struct run *r)
{
	sqlite3_stmt *cs = NULL, *ss = NULL, *hs = NULL, *ms = NULL;
	int col[C_N], rc = SQLITE_ERROR, ret = -1;
	struct by_name bn;
	size_t cap = 16;

	by_name_init(&bn, r);

	if (db_prepare(s, "SELECT * FROM cases WHERE run_id = ? ORDER BY seq",
		       &cs) ||
	    db_prepare(s, "SELECT metric, iteration, value FROM samples"
		    " WHERE case_id = ? ORDER BY metric, iteration", &ss) ||
	    db_prepare(s, "SELECT metric, iteration, buckets FROM histograms"
		    " WHERE case_id = ? ORDER BY metric, iteration", &hs) ||
	    db_prepare(s, "SELECT monitor, iteration, series FROM monitors"
		    " WHERE case_id = ? ORDER BY monitor, iteration", &ms))
		goto out;
	for (int k = 0; k < C_N; k++) {
		col[k] = -1;
		for (int i = 0; i < sqlite3_column_count(cs); i++)
			if (!strcmp(sqlite3_column_name(cs, i), case_columns[k]))
				col[k] = i;
		if (col[k] < 0 && k != C_VERSION && k != C_SETTINGS) {
			error("%s: table cases has no column %s", s->path,
			      case_columns[k]);
			goto out;
		}
	}
	r->cases = xcalloc(cap, sizeof(*r->cases));
	sqlite3_bind_int64(cs, 1, id);
	while ((rc = sqlite3_step(cs)) == SQLITE_ROW) {
		int64_t case_id = sqlite3_column_int64(cs, col[C_ID]);
		struct run_case *c;

		r->cases = store_grow(r->cases, r->ncases + 1, &cap,
				       sizeof(*r->cases));
		c = &r->cases[r->ncases++];
		memset(c, 0, sizeof(*c));
		if (load_case(s, cs, col, c) ||
		    load_samples(s, ss, case_id, &bn, c) ||
		    load_json_rows(s, hs, true, case_id, c) ||
		    load_json_rows(s, ms, false, case_id, c))
			goto out;
	}
	if (rc != SQLITE_DONE) {
		db_error(s, "cannot read the cases of run %" PRId64, id);
		goto out;
	}
	ret = 0;
out:
	free(bn.order);
	sqlite3_finalize(cs);
	sqlite3_finalize(ss);
	sqlite3_finalize(hs);
	sqlite3_finalize(ms);
	return ret;
}

int sqlite_load(struct store *base, int64_t id, struct run *r)
{
	struct sqlite_store *s = sqlite_of(base);
	int rc;

	memset(r, 0, sizeof(*r));
	r->id = -1;
	/* one snapshot, even while another process adds cases to the run */
	if (db_exec(s, "BEGIN", "cannot read"))
		return -1;
	rc = load_run(s, id, r);
	if (!rc)
		rc = load_metrics(s, id, r);
	if (!rc)
		rc = load_cases(s, id, r);
	db_rollback(s);
	if (rc)
		run_free(r);
	return rc;
}
