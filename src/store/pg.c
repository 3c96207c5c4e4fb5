// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg.c: runs kept in a PostgreSQL database, for a fleet of test
 * machines - the connection and the store's ops. The schema
 * (doc/fleet.md, "Schema") and its migrations are in pg_schema.c,
 * writing runs in pg_write.c, reading them in pg_read.c, the job queue
 * in queue.c.
 *
 * The tables mean what SQLite's mean (doc/store.md), in the schema
 * "schedlab", with PostgreSQL's types: bigint ids from identity columns,
 * double precision times and values (exact both ways: they are sent as
 * %.17g and read back in PostgreSQL's shortest exact form), and json -
 * not jsonb, which would reorder keys - for the documents, so that a run
 * comes back byte for byte as it went in.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazylib.h"
#include "store/pg.h"
#include "util.h"

/*
 * libpq's message on one line: "ERROR:  " and the final newline gone,
 * each line break and the indent after it one space. Into buf.
 */
static const char *one_line(const char *msg, char *buf, size_t len)
{
	size_t n = 0;

	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	for (; *msg && n + 1 < len; msg++) {
		if (*msg == '\n' || *msg == '\r' || *msg == '\t') {
			while (msg[1] == '\n' || msg[1] == '\r' || msg[1] == '\t' ||
			       msg[1] == ' ')
				msg++;
			if (msg[1])
				buf[n++] = ' ';
			continue;
		}
		buf[n++] = *msg;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

int pg_error(struct pg_store *s, const PGresult *res, const char *fmt, ...)
{
	const char *msg = res ? PQresultErrorMessage(res) : "";
	char what[512], line[1024];
	va_list ap;

	if (!*msg)
		msg = PQerrorMessage(s->conn);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return error("%s: %s (%s)", s->base.name, what,
		     one_line(msg, line, sizeof(line)));
}

PGresult *pg_query(struct pg_store *s, const char *sql, int n,
		   const char *const *params, ExecStatusType want,
		   const char *what)
{
	PGresult *res = PQexecParams(s->conn, sql, n, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(res) != want) {
		pg_error(s, res, "%s", what);
		PQclear(res);
		return NULL;
	}
	return res;
}

int pg_exec(struct pg_store *s, const char *sql, const char *what)
{
	PGresult *res = PQexec(s->conn, sql);
	ExecStatusType st = PQresultStatus(res);

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		pg_error(s, res, "%s", what);
		PQclear(res);
		return -1;
	}
	PQclear(res);
	return 0;
}

void pg_writer_col(const PGresult *res, int row, int col,
		   struct store_writer *w)
{
	w->pid = PQgetisnull(res, row, col) ? 0 :
		 strtoll(PQgetvalue(res, row, col), NULL, 10);
	w->start = PQgetisnull(res, row, col + 1) ? 0 :
		   strtoll(PQgetvalue(res, row, col + 1), NULL, 10);
	snprintf(w->boot, sizeof(w->boot), "%s", PQgetvalue(res, row, col + 2));
}

int pg_begin(struct pg_store *s)
{
	return pg_exec(s, "BEGIN", "cannot begin a transaction");
}

int pg_commit(struct pg_store *s)
{
	return pg_exec(s, "COMMIT", "cannot commit");
}

void pg_rollback(struct pg_store *s)
{
	if (PQtransactionStatus(s->conn) != PQTRANS_IDLE)
		PQclear(PQexec(s->conn, "ROLLBACK"));
}

/* libpq's notices (NOTICE: relation exists...) are not the user's business */
static void quiet_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* What every session needs: search_path, UTF-8, exact doubles, no notices. */
static int session_setup(PGconn *c, const char *name)
{
	PGresult *res;
	char line[1024];

	PQsetNoticeProcessor(c, quiet_notice, NULL);
	res = PQexec(c, "SET client_encoding = 'UTF8';"
		     " SET search_path = schedlab;"
		     " SET client_min_messages = warning;"
		     " SET extra_float_digits = 1");
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		error("%s: cannot set up the session (%s)", name,
		      one_line(PQresultErrorMessage(res), line, sizeof(line)));
		PQclear(res);
		return -1;
	}
	PQclear(res);
	return 0;
}

struct pq_api pq_api;

static const struct lazy_fn pq_fns[] = {
	{ "PQclear", (void **)&pq_api.PQclear_fn },
	{ "PQcmdTuples", (void **)&pq_api.PQcmdTuples_fn },
	{ "PQconnectdb", (void **)&pq_api.PQconnectdb_fn },
	{ "PQerrorMessage", (void **)&pq_api.PQerrorMessage_fn },
	{ "PQexec", (void **)&pq_api.PQexec_fn },
	{ "PQexecParams", (void **)&pq_api.PQexecParams_fn },
	{ "PQfinish", (void **)&pq_api.PQfinish_fn },
	{ "PQgetResult", (void **)&pq_api.PQgetResult_fn },
	{ "PQgetisnull", (void **)&pq_api.PQgetisnull_fn },
	{ "PQgetvalue", (void **)&pq_api.PQgetvalue_fn },
	{ "PQntuples", (void **)&pq_api.PQntuples_fn },
	{ "PQputCopyData", (void **)&pq_api.PQputCopyData_fn },
	{ "PQputCopyEnd", (void **)&pq_api.PQputCopyEnd_fn },
	{ "PQreset", (void **)&pq_api.PQreset_fn },
	{ "PQresultErrorField", (void **)&pq_api.PQresultErrorField_fn },
	{ "PQresultErrorMessage", (void **)&pq_api.PQresultErrorMessage_fn },
	{ "PQresultStatus", (void **)&pq_api.PQresultStatus_fn },
	{ "PQsetNoticeProcessor", (void **)&pq_api.PQsetNoticeProcessor_fn },
	{ "PQstatus", (void **)&pq_api.PQstatus_fn },
	{ "PQtransactionStatus", (void **)&pq_api.PQtransactionStatus_fn },
};

static struct lazylib libpq = {
	.soname = PQ_SONAME, .package = PQ_PACKAGE,
	.fns = pq_fns, .n = sizeof(pq_fns) / sizeof(pq_fns[0]),
};

PGconn *pg_connect(const char *url, const char *name)
{
	PGconn *c;
	char line[1024];

	if (lazylib_load(&libpq, line, sizeof(line))) {
		error("%s: %s", name, line);
		return NULL;
	}
	c = PQconnectdb(url);

	if (PQstatus(c) != CONNECTION_OK) {
		error("%s: cannot connect (%s)", name,
		      one_line(PQerrorMessage(c), line, sizeof(line)));
		PQfinish(c);
		return NULL;
	}
	if (session_setup(c, name)) {
		PQfinish(c);
		return NULL;
	}
	return c;
}

int pg_begin_write(struct pg_store *s)
{
	char line[1024];
	PGresult *res;

	if (PQstatus(s->conn) == CONNECTION_OK) {
		res = PQexec(s->conn, "BEGIN");
		if (PQresultStatus(res) == PGRES_COMMAND_OK) {
			PQclear(res);
			return 0;
		}
		if (PQstatus(s->conn) == CONNECTION_OK) {
			pg_error(s, res, "cannot begin a transaction");
			PQclear(res);
			return -1;
		}
		PQclear(res);
	}
	/* the server went away since (a restart): nothing was sent yet */
	PQreset(s->conn);
	if (PQstatus(s->conn) != CONNECTION_OK)
		return error("%s: cannot connect (%s)", s->base.name,
			     one_line(PQerrorMessage(s->conn), line, sizeof(line)));
	if (session_setup(s->conn, s->base.name))
		return -1;
	return pg_begin(s);
}

static void pg_close(struct store *base)
{
	struct pg_store *s = pg_of(base);

	if (s->conn)
		PQfinish(s->conn);
	free(s->base.name);
	free(s);
}

/* The ops pg_write.c and pg_read.c give (declared there). */
int pg_run_begin(struct store *base, const struct store_run *r, int64_t *id);
int pg_run_end(struct store *base, int64_t id, const char *status,
	       double ended, json_t *environment);
int pg_case_add(struct store *base, int64_t run_id, const struct store_case *c);
int pg_import(struct store *base, json_t *doc, const char *origin, bool once,
	      int64_t *id);
int pg_resolve(struct store *base, const char *spec, int64_t *id);
int pg_find_uuid(struct store *base, const char *uuid, int64_t *id);
int pg_relabel(struct store *base, const char *uuid, const char *label);
int pg_runs(struct store *base, struct store_run_info **runs, size_t *n);
int pg_ab_runs(struct store *base, const char *ab, struct store_ab_run **runs,
	       size_t *n);
int pg_load(struct store *base, int64_t id, struct run *r);
int pg_estimate(struct store *base, const char *workload, unsigned version,
		const char *params, double *secs);
int pg_history(struct store *base, const char *label, const char *host,
	       const char *workload, unsigned version, const char *params,
	       const char *metric, unsigned max,
	       store_history_fn *fn, void *arg);
int pg_series_meta(struct store *base, const char *job,
		   struct store_series *out);
int pg_series(struct store *base, const struct store_series_query *q,
	      const char *metric, struct store_series *out);
int pg_campaign_get(struct store *base, const char *name, json_t **doc);
int pg_campaign_put(struct store *base, const char *name, const json_t *doc,
		    bool create);
int pg_campaign_names(struct store *base, char ***names, size_t *n);

static const struct store_ops pg_ops = {
	.kind = "postgresql",
	.close = pg_close,
	.run_begin = pg_run_begin,
	.run_end = pg_run_end,
	.case_add = pg_case_add,
	.resolve = pg_resolve,
	.find_uuid = pg_find_uuid,
	.relabel = pg_relabel,
	.runs = pg_runs,
	.ab_runs = pg_ab_runs,
	.load = pg_load,
	.import = pg_import,
	.estimate = pg_estimate,
	.history = pg_history,
	.series_meta = pg_series_meta,
	.series = pg_series,
	.campaign_get = pg_campaign_get,
	.campaign_put = pg_campaign_put,
	.campaign_names = pg_campaign_names,
	.queue = &pg_queue_ops,
};

struct store *pg_store_open(const char *url, bool write)
{
	struct pg_store *s = xcalloc(1, sizeof(*s));

	s->base.ops = &pg_ops;
	s->base.name = store_url_redact(url);
	s->write = write;
	s->conn = pg_connect(url, s->base.name);
	if (!s->conn || (write ? pg_migrate(s) : pg_check_read(s))) {
		pg_close(&s->base);
		return NULL;
	}
	return &s->base;
}
