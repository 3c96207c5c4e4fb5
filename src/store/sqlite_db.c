// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_db.c: the SQLite store's statements (store/sqlite.h's
 * db_*()): an error with SQLite's words, a transaction, a statement
 * prepared, bound, stepped and read - the leaf that the connection
 * (sqlite.c) and the schema, write, read, model and campaign files use.
 */
#include <stdarg.h>
#include <stdio.h>

#include "store/sqlite.h"
#include "util.h"

int db_error(struct sqlite_store *s, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return error("%s: %s (%s)", s->path, what, sqlite3_errmsg(s->db));
}

int db_exec(struct sqlite_store *s, const char *sql, const char *what)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(s, "%s", what);
	return 0;
}

int db_begin(struct sqlite_store *s)
{
	return db_exec(s, "BEGIN IMMEDIATE", "cannot lock the database for writing");
}

int db_commit(struct sqlite_store *s)
{
	return db_exec(s, "COMMIT", "cannot commit");
}

void db_rollback(struct sqlite_store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

int db_prepare(struct sqlite_store *s, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_error(s, "cannot prepare a query");
	return 0;
}

void db_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

char *db_col_dup(sqlite3_stmt *st, int i)
{
	return xstrdup_utf8((const char *)sqlite3_column_text(st, i));
}

int db_step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

int db_prepare_arg(struct sqlite_store *s, const char *sql, const char *text,
		   int64_t num, sqlite3_stmt **st)
{
	if (db_prepare(s, sql, st))
		return -1;
	if (text)
		sqlite3_bind_text(*st, 1, text, -1, SQLITE_STATIC);
	else if (sqlite3_bind_parameter_count(*st))
		sqlite3_bind_int64(*st, 1, num);
	return 0;
}

int db_query_int(struct sqlite_store *s, const char *sql, const char *text,
		     int64_t num, int64_t *out)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare_arg(s, sql, text, num, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		db_error(s, "cannot read");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}
