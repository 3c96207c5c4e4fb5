// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_campaign.c: SQLite's table of campaigns (store.h): a
 * campaign's name and its state, one JSON document replaced whole in
 * one transaction - a process killed around the commit leaves the old
 * document or the new one, never half of each.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/sqlite.h"
#include "util.h"

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int sqlite_campaign_get(struct store *base, const char *name, json_t **doc)
{
	struct sqlite_store *s = sqlite_of(base);
	sqlite3_stmt *st;
	json_error_t je;
	int rc;

	if (db_prepare_arg(s, "SELECT state FROM campaigns WHERE name = ?",
			   name, 0, &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);

		*doc = json_loads(text ? text : "", 0, &je);
		sqlite3_finalize(st);
		if (!*doc)
			return error("%s: campaign '%s': its state is not JSON (%s)",
				     s->path, name, je.text);
		return 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot read campaign '%s'", name);
	return 0;
}

static int put_row(struct sqlite_store *s, const char *name, const char *text,
		   bool create, int *changed)
{
	sqlite3_stmt *st;
	double now = wall_now();
	int rc;

	if (db_prepare(s, create ?
		       "INSERT OR IGNORE INTO campaigns (state, updated, name, created)"
		       " VALUES (?, ?, ?, ?)" :
		       "UPDATE campaigns SET state = ?, updated = ? WHERE name = ?",
		       &st))
		return -1;
	db_bind_text(st, 1, text);
	sqlite3_bind_double(st, 2, now);
	db_bind_text(st, 3, name);
	if (create)
		sqlite3_bind_double(st, 4, now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot write campaign '%s'", name);
	*changed = sqlite3_changes(s->db);
	return 0;
}

int sqlite_campaign_put(struct store *base, const char *name,
			const json_t *doc, bool create)
{
	struct sqlite_store *s = sqlite_of(base);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	int changed = 0, rc = -1;

	if (!text)
		return error("%s: campaign '%s': cannot encode its state", s->path,
			     name);
	if (db_begin(s) || put_row(s, name, text, create, &changed)) {
		db_rollback(s);
		goto out;
	}
	if (!changed) {
		db_rollback(s);
		rc = create ? 1 : error("%s: no campaign '%s'", s->path, name);
		goto out;
	}
	rc = db_commit(s) ? -1 : 0;
	if (rc)
		db_rollback(s);
out:
	free(text);
	return rc;
}

int sqlite_campaign_names(struct store *base, char ***names, size_t *n)
{
	struct sqlite_store *s = sqlite_of(base);
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(s, "SELECT name FROM campaigns ORDER BY created, name", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot list the campaigns");
	return 0;
}
