/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/store: the PostgreSQL store (libpq). pg.c: the
 * connection, the schema (doc/fleet.md, "Schema") and its migrations;
 * pg_write.c: runs and cases written; pg_copy.c: samples and
 * histograms by COPY; pg_read.c: runs listed, resolved and loaded;
 * queue.c: the job queue, in the same database.
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
#include <stdbool.h>
#include <stdint.h>

#include "store/life.h"
#include "store/store_int.h"

/* The schema this binary writes; a newer one is refused. */
#define PG_SCHEMA_VERSION 1

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
 * store_import()'s work inside the caller's transaction (the queue
 * stores a job's run and marks the job done in one): no BEGIN, no
 * COMMIT. once as store_import_once(): 1 when the uuid was there.
 */
int pg_import_tx(struct pg_store *s, json_t *doc, const char *origin,
		 bool once, int64_t *id);

#endif
