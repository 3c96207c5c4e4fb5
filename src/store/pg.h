/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/store: the PostgreSQL store (libpq). pg.c: the store
 * opened and its ops; pg_conn.c: the connection, statements, errors and
 * transactions; pg_schema.c: the schema (doc/fleet.md, "Schema") and its
 * migrations; pg_write.c: runs and cases written; pg_copy.c: samples and
 * histograms by COPY; pg_read.c: runs listed, resolved and loaded;
 * pg_campaign.c: campaigns' states;
 * pg_queue.c: the job queue, in the same database (its queue ops).
 *
 * Everything lives in the PostgreSQL schema "schedlab" (search_path is
 * set on connecting), so a lab's database may hold other programs'
 * tables beside it. Every helper that can fail says why once, naming
 * the database by its redacted URL (never with a password), and returns
 * -1 or NULL.
 */
#ifndef SCHEDLAB_STORE_PG_H
#define SCHEDLAB_STORE_PG_H

#include <libpq-fe.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "store/life.h"
#include "store/store_int.h"
#include "util.h"

/*
 * libpq's functions, from libpq loaded by pg_connect() (lazylib.h): a
 * schedlab that never opens a PostgreSQL store never maps libpq and the
 * twenty libraries it needs, nor do the workers its workloads fork. The
 * calls read as libpq's; only a connection made by pg_connect() may be
 * passed to them.
 */
struct pq_api {
	__typeof__(PQclear) *PQclear_fn;
	__typeof__(PQcmdTuples) *PQcmdTuples_fn;
	__typeof__(PQconnectdb) *PQconnectdb_fn;
	__typeof__(PQerrorMessage) *PQerrorMessage_fn;
	__typeof__(PQexec) *PQexec_fn;
	__typeof__(PQexecParams) *PQexecParams_fn;
	__typeof__(PQfinish) *PQfinish_fn;
	__typeof__(PQgetResult) *PQgetResult_fn;
	__typeof__(PQgetisnull) *PQgetisnull_fn;
	__typeof__(PQgetvalue) *PQgetvalue_fn;
	__typeof__(PQntuples) *PQntuples_fn;
	__typeof__(PQputCopyData) *PQputCopyData_fn;
	__typeof__(PQputCopyEnd) *PQputCopyEnd_fn;
	__typeof__(PQreset) *PQreset_fn;
	__typeof__(PQresultErrorField) *PQresultErrorField_fn;
	__typeof__(PQresultErrorMessage) *PQresultErrorMessage_fn;
	__typeof__(PQresultStatus) *PQresultStatus_fn;
	__typeof__(PQsetNoticeProcessor) *PQsetNoticeProcessor_fn;
	__typeof__(PQstatus) *PQstatus_fn;
	__typeof__(PQtransactionStatus) *PQtransactionStatus_fn;
};
extern struct pq_api pq_api;

#define PQclear (pq_api.PQclear_fn)
#define PQcmdTuples (pq_api.PQcmdTuples_fn)
#define PQconnectdb (pq_api.PQconnectdb_fn)
#define PQerrorMessage (pq_api.PQerrorMessage_fn)
#define PQexec (pq_api.PQexec_fn)
#define PQexecParams (pq_api.PQexecParams_fn)
#define PQfinish (pq_api.PQfinish_fn)
#define PQgetResult (pq_api.PQgetResult_fn)
#define PQgetisnull (pq_api.PQgetisnull_fn)
#define PQgetvalue (pq_api.PQgetvalue_fn)
#define PQntuples (pq_api.PQntuples_fn)
#define PQputCopyData (pq_api.PQputCopyData_fn)
#define PQputCopyEnd (pq_api.PQputCopyEnd_fn)
#define PQreset (pq_api.PQreset_fn)
#define PQresultErrorField (pq_api.PQresultErrorField_fn)
#define PQresultErrorMessage (pq_api.PQresultErrorMessage_fn)
#define PQresultStatus (pq_api.PQresultStatus_fn)
#define PQsetNoticeProcessor (pq_api.PQsetNoticeProcessor_fn)
#define PQstatus (pq_api.PQstatus_fn)
#define PQtransactionStatus (pq_api.PQtransactionStatus_fn)

/* The schema this binary writes; a newer one is refused. */
#define PG_SCHEMA_VERSION 5

struct pg_store {
	struct store base;	/* first; base.name: the redacted URL */
	PGconn *conn;
	bool write;
	/* a reader's database without the schema: no runs (pg_read.c),
	 * as an empty SQLite file has none */
	bool empty;
};

static inline struct pg_store *pg_of(struct store *base)
{
	return (struct pg_store *)base;
}

/*
 * Connects to url (a postgresql:// URI; credentials by libpq's means),
 * client_encoding UTF8, search_path schedlab, messages at warning and
 * above. name: the redacted URL, for messages. NULL after error().
 */
PGconn *pg_connect(const char *url, const char *name);

/*
 * "NAME: WHAT (the server's message)", -1. res may be NULL (the
 * connection's message is used).
 */
int pg_error(struct pg_store *s, const PGresult *res, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Runs sql with no parameters; want: PGRES_COMMAND_OK or
 * PGRES_TUPLES_OK. -1 after pg_error() saying what failed.
 */
int pg_exec(struct pg_store *s, const char *sql, const char *what);

/*
 * sql with n text parameters (a NULL one is SQL NULL). The result, its
 * status checked against want (PGRES_COMMAND_OK or PGRES_TUPLES_OK), or
 * NULL after pg_error(). PQclear() it.
 */
PGresult *pg_query(struct pg_store *s, const char *sql, int n,
		   const char *const *params, ExecStatusType want,
		   const char *what);

/* The writer of runs columns pid, pid_start, boot_id at col.. of row. */
void pg_writer_col(const PGresult *res, int row, int col,
		   struct store_writer *w);

/*
 * The schema (pg_schema.c): a writer's brought up to this binary's
 * version, migrating it under a lock; a reader's checked to be that
 * version, or absent (s->empty then). -1 after error().
 */
int pg_migrate(struct pg_store *s);
int pg_check_read(struct pg_store *s);

int pg_begin(struct pg_store *s);	/* BEGIN */
/*
 * BEGIN for a write of the store (a case, a run's end, an import): a
 * connection the server dropped since the last write (a restart) is
 * made again first, so that a long run loses no more than the case
 * that was being stored while the server was down.
 */
int pg_begin_write(struct pg_store *s);
int pg_commit(struct pg_store *s);
void pg_rollback(struct pg_store *s);	/* says nothing */

/*
 * One COPY ... FROM STDIN (pg_copy.c): copy_begin() sends sql, the rows
 * are added with copy_sample() or copy_hist() (case_id: the case's id
 * and a tab) each followed by copy_row_end(), and copy_end() ends it -
 * ok false: cancelled, nothing stored - and frees the buffer. Each says
 * why it failed, naming table.
 */
struct copy {
	struct pg_store *s;
	const char *table;
	char *buf;
	size_t len, cap;
	bool open, failed;
};
int copy_begin(struct copy *c, struct pg_store *s, const char *table,
	       const char *sql);
void copy_sample(struct copy *c, const char *case_id, const char *metric,
		 int64_t iteration, double value);
void copy_hist(struct copy *c, const char *case_id, const char *metric,
	       int64_t iteration, const char *buckets);
int copy_row_end(struct copy *c);
int copy_end(struct copy *c, bool ok);

/*
 * In the caller's transaction, by COPY (pg_copy.c): case c's samples
 * and latency histograms as case case_id; every case of an export
 * document's cases array, case k as ids[k]. -1 after error().
 */
int pg_copy_case(struct pg_store *s, int64_t case_id,
		 const struct store_case *c);
int pg_copy_import(struct pg_store *s, json_t *cases, const int64_t *ids);

/*
 * store_import()'s work inside the caller's transaction (the queue
 * stores a job's run and marks the job done in one): no BEGIN, no
 * COMMIT. once as store_import_once(): 1 when the uuid was there.
 */
int pg_import_tx(struct pg_store *s, json_t *doc, const char *origin,
		 bool once, int64_t *id);

/* The job queue's ops (pg_queue.c), in pg.c's table. */
extern const struct queue_ops pg_queue_ops;
/* Its ops that list, cancel and retry jobs (pg_queue_admin.c). */
int pg_queue_list(struct store *base, const char *state,
		  struct queue_row **rows, size_t *n);
int pg_queue_cancel(struct store *s, int64_t id, char *why, size_t len);
int pg_queue_retry(struct store *s, int64_t id, char *why, size_t len);

/* A result's columns, for pg_read.c and pg_model.c. */
/* A text column copied; NULL for NULL. */
static inline char *pg_col_dup(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL :
	       xstrdup(PQgetvalue(res, row, col));
}

static inline double pg_col_real(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN :
	       strtod(PQgetvalue(res, row, col), NULL);
}

static inline int64_t pg_col_int(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

#endif
