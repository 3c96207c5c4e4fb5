// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_life.c: SQLite's side of a run's life (life.h): the
 * writer read from a row, and every running run whose writer is gone
 * marked abandoned, with the time it was noticed as its end.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/sqlite.h"
#include "util.h"

void store_writer_col(sqlite3_stmt *st, int col, struct store_writer *w)
{
	const char *boot = (const char *)sqlite3_column_text(st, col + 2);

	w->pid = sqlite3_column_int64(st, col);
	w->start = sqlite3_column_int64(st, col + 1);
	snprintf(w->boot, sizeof(w->boot), "%s", boot ? boot : "");
}

int store_mark_abandoned(struct sqlite_store *s)
{
	sqlite3_stmt *sel = NULL, *upd = NULL;
	struct store_writer w;
	struct timespec ts;
	int rc = -1, step;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (db_prepare(s, "SELECT id, host, pid, pid_start, boot_id FROM runs"
		       " WHERE status = 'running' AND pid IS NOT NULL", &sel) ||
	    db_prepare(s, "UPDATE runs SET status = 'abandoned', ended = ?"
		       " WHERE id = ? AND status = 'running'", &upd))
		goto out;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		store_writer_col(sel, 2, &w);
		if (!store_writer_gone((const char *)sqlite3_column_text(sel, 1),
				       &w))
			continue;
		sqlite3_bind_double(upd, 1, (double)ts.tv_sec +
				    (double)ts.tv_nsec / 1e9);
		sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
		if (db_step_done(upd) != SQLITE_DONE) {
			db_error(s, "cannot mark abandoned runs");
			goto out;
		}
	}
	if (step != SQLITE_DONE)
		db_error(s, "cannot look for abandoned runs");
	else
		rc = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	return rc;
}
