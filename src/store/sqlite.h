/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/store: the SQLite store (sqlite.c: opening;
 * sqlite_schema.c: schema, migrations) and the statement helpers
 * (sqlite_db.c) that its writing half (sqlite_write.c), reading half
 * (sqlite_read.c) and the rest share. Every helper
 * that can fail says why once, naming the database, and returns -1.
 */
#ifndef SCHEDLAB_STORE_SQLITE_H
#define SCHEDLAB_STORE_SQLITE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/life.h"
#include "store/store_int.h"

struct sqlite_store {
	struct store base;	/* first: store_int.h */
	sqlite3 *db;
	char *path;
	int busy_ms;		/* the busy timeout, once read */
	/* the statements every write uses, prepared once */
	sqlite3_stmt *ins_run, *ins_metric, *ins_case, *ins_sample, *ins_hist;
	sqlite3_stmt *ins_mon;
	/* compare asks for a case's history once per case: prepared once */
	sqlite3_stmt *sel_history;
};

static inline struct sqlite_store *sqlite_of(struct store *base)
{
	return (struct sqlite_store *)base;
}

/* The ops of store_int.h, in the files named. */
void sqlite_close(struct store *base);			/* sqlite.c */
int sqlite_run_begin(struct store *base, const struct store_run *r,
		     int64_t *id);			/* sqlite_write.c */
int sqlite_run_end(struct store *base, int64_t id, const char *status,
		   double ended, json_t *environment);
int sqlite_case_add(struct store *base, int64_t run_id,
		    const struct store_case *c);
int sqlite_import(struct store *base, json_t *doc, const char *origin,
		  bool once, int64_t *id);
int sqlite_resolve(struct store *base, const char *spec,
		   int64_t *id);			/* sqlite_read.c */
int sqlite_find_uuid(struct store *base, const char *uuid, int64_t *id);
int sqlite_relabel(struct store *base, const char *uuid, const char *label);
int sqlite_runs(struct store *base, struct store_run_info **runs, size_t *n);
int sqlite_ab_runs(struct store *base, const char *ab,
		   struct store_ab_run **runs, size_t *n);
int sqlite_estimate(struct store *base, const char *workload,
		    unsigned version, const char *params, double *secs);
int sqlite_history(struct store *base, const char *label, const char *host,
		   const char *workload, unsigned version, const char *params,
		   const char *metric, unsigned max,
		   store_history_fn *fn, void *arg);
int sqlite_series_meta(struct store *base, const char *job,
		       struct store_series *out);
int sqlite_series(struct store *base, const struct store_series_query *q,
		  const char *metric, struct store_series *out);
int sqlite_campaign_get(struct store *base, const char *name,
			json_t **doc);			/* sqlite_campaign.c */
int sqlite_campaign_put(struct store *base, const char *name,
			const json_t *doc, bool create);
int sqlite_campaign_names(struct store *base, char ***names, size_t *n);
int sqlite_load(struct store *base, int64_t id,
		struct run *r);				/* sqlite_model.c */

/* "FILE: WHAT (sqlite's message)", -1 */
int db_error(struct sqlite_store *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Runs sql; what says what failed. */
int db_exec(struct sqlite_store *s, const char *sql, const char *what);
/* Takes the write lock now, waiting for other writers if need be. */
int db_begin(struct sqlite_store *s);
int db_commit(struct sqlite_store *s);
/* Ends the open transaction, if any, undoing it. Says nothing. */
void db_rollback(struct sqlite_store *s);
int db_prepare(struct sqlite_store *s, const char *sql, sqlite3_stmt **st);
/*
 * sql prepared, its ?1 bound to text when not NULL (text must outlive
 * the next step), else to num when sql has a parameter: the queries
 * that take one.
 */
int db_prepare_arg(struct sqlite_store *s, const char *sql, const char *text,
		   int64_t num, sqlite3_stmt **st);
/* Binds v, or NULL for a NULL pointer; v must outlive the next step. */
void db_bind_text(sqlite3_stmt *st, int i, const char *v);
/*
 * A text column copied by xstrdup_utf8() (NULL for NULL): a run whose
 * text is not UTF-8 still exports as JSON rather than lose the field.
 */
char *db_col_dup(sqlite3_stmt *st, int i);
/* Runs a statement that returns no row and readies it for reuse:
 * SQLITE_DONE or the (extended) error code. Says nothing. */
int db_step_done(sqlite3_stmt *st);
/*
 * The first column of sql's first row, ?1 bound to text when not NULL,
 * else to num when sql has a parameter. 1: found, 0: no row, -1 after
 * error().
 */
int db_query_int(struct sqlite_store *s, const char *sql, const char *text,
		 int64_t num, int64_t *out);

/* sqlite_life.c: is a run's writer alive? (life.h) */
/*
 * The writer of runs columns pid, pid_start, boot_id at col, col + 1
 * and col + 2 of st's row (pid 0 when NULL).
 */
void store_writer_col(sqlite3_stmt *st, int col, struct store_writer *w);
/* In the caller's transaction: every running run whose writer is gone
 * becomes abandoned, ended now. */
int store_mark_abandoned(struct sqlite_store *s);

/* sqlite_schema.c: the schema's version this binary writes, */
extern const int sqlite_schema_latest;
/* the file's (0: none yet; -1 after error(), a newer one refused), read
 * in one snapshot, */
int sqlite_schema_version(struct sqlite_store *s, int64_t *v);
/* and the file brought up to it in one transaction. */
int sqlite_migrate(struct sqlite_store *s);

#endif
