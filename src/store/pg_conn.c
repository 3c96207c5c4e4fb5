// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_conn.c: a PostgreSQL connection and what every statement
 * goes through - libpq loaded when first needed, the session's settings,
 * errors on one line, transactions, a reconnect before a write. A leaf:
 * pg.c opens the store with it, and the schema, the reads, the writes,
 * the campaigns and the queue speak through it.
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
