// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_schema.c: the SQLite store's schema (doc/store.md) and
 * its migrations. The schema evolves by appending to migrations[]:
 * version N is migrations[N - 1], its SQL and then its C code (version 3
 * rewrites every stored case's parameters as its identity), applied in
 * one transaction with the version bump. A binary refuses a database
 * newer than it knows. sqlite.c opens the file and calls these.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/identity.h"
#include "store/sqlite.h"
#include "util.h"

static int recompute_identities(struct sqlite_store *s);

/* Version N of the schema: its SQL, then, when given, C code. */
struct migration {
	const char *sql;
	int (*after)(struct sqlite_store *s);
};

static const struct migration migrations[] = {
	/* 1: runs, their metric metadata, cases, samples; histograms
	 * reserved for later */
	{ "CREATE TABLE schema_version (version INTEGER NOT NULL);"
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" uuid TEXT UNIQUE NOT NULL,"
	" label TEXT,"
	" host TEXT,"
	" started REAL NOT NULL,"
	" ended REAL,"
	" status TEXT NOT NULL CHECK (status IN"
	"  ('running', 'complete', 'partial', 'failed')),"
	" command TEXT,"
	" schedlab_version TEXT,"
	" environment TEXT NOT NULL DEFAULT '{}');"
	"CREATE INDEX runs_label ON runs (label, started);"
	"CREATE INDEX runs_started ON runs (started);"
	"CREATE TABLE run_metrics ("
	" run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"
	" unit TEXT NOT NULL,"
	" better TEXT NOT NULL CHECK (better IN ('lower', 'higher', 'none')),"
	" headline INTEGER NOT NULL CHECK (headline IN (0, 1)),"
	" help TEXT NOT NULL,"
	" PRIMARY KEY (run_id, name));"
	"CREATE TABLE cases ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL,"
	" job TEXT NOT NULL,"
	" workload TEXT NOT NULL,"
	" params TEXT,"
	" sweep_keys TEXT,"
	" sweep TEXT,"
	" status TEXT NOT NULL,"
	" reason TEXT,"
	" parameters TEXT NOT NULL DEFAULT '{}',"
	" iterations INTEGER NOT NULL CHECK (iterations >= 0),"
	" UNIQUE (run_id, seq));"
	"CREATE TABLE samples ("
	" case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,"
	" metric TEXT NOT NULL,"
	" iteration INTEGER NOT NULL CHECK (iteration >= 1),"
	" value REAL NOT NULL,"
	" PRIMARY KEY (case_id, metric, iteration)) WITHOUT ROWID;"
	"CREATE TABLE histograms ("
	" case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,"
	" metric TEXT NOT NULL,"
	" iteration INTEGER NOT NULL CHECK (iteration >= 1),"
	" buckets TEXT NOT NULL,"
	" PRIMARY KEY (case_id, metric, iteration)) WITHOUT ROWID;", NULL },
	/* 2: the history of a configuration (compare's run-to-run noise,
	 * run's estimates) without a scan of every case */
	{ "CREATE INDEX cases_config ON cases (workload, params);", NULL },
	/* 3: case identity (harness/identity.h): the workload's version,
	 * params down to the options that differ from their defaults,
	 * the run settings beside them */
	{ "ALTER TABLE cases ADD COLUMN version INTEGER NOT NULL DEFAULT 1"
	  " CHECK (version >= 1);"
	  "ALTER TABLE cases ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';"
	  "DROP INDEX cases_config;"
	  "CREATE INDEX cases_config ON cases (workload, version, params);",
	  recompute_identities },
	/* 4: who writes a run (pid, its start time, boot id:
	 * store/sqlite_life.c), so a
	 * run whose writer died is told from one still running, and the
	 * status 'abandoned'. SQLite cannot change a CHECK in place: the
	 * table is rebuilt (sqlite.org/lang_altertable.html, with foreign
	 * keys off: see migrate()) */
	{ "CREATE TABLE runs_new ("
	" id INTEGER PRIMARY KEY,"
	" uuid TEXT UNIQUE NOT NULL,"
	" label TEXT,"
	" host TEXT,"
	" started REAL NOT NULL,"
	" ended REAL,"
	" status TEXT NOT NULL CHECK (status IN"
	"  ('running', 'complete', 'partial', 'failed', 'abandoned')),"
	" command TEXT,"
	" schedlab_version TEXT,"
	" environment TEXT NOT NULL DEFAULT '{}',"
	" pid INTEGER,"
	" pid_start INTEGER,"
	" boot_id TEXT);"
	"INSERT INTO runs_new (id, uuid, label, host, started, ended, status,"
	" command, schedlab_version, environment)"
	" SELECT id, uuid, label, host, started, ended, status, command,"
	" schedlab_version, environment FROM runs;"
	"DROP TABLE runs;"
	"ALTER TABLE runs_new RENAME TO runs;"
	"CREATE INDEX runs_label ON runs (label, started);"
	"CREATE INDEX runs_started ON runs (started);", NULL },
	/* 5: the A/B link - runs made side by side (ab's variants,
	 * judge's live references) share the uuid ab; variant is this
	 * run's name among them */
	{ "ALTER TABLE runs ADD COLUMN ab TEXT;"
	  "ALTER TABLE runs ADD COLUMN variant TEXT;"
	  "CREATE INDEX runs_ab ON runs (ab);", NULL },
	/* 6: kernel A/B campaigns across boots (campaign/campaign.h): one
	 * row a campaign, its whole state one JSON document written in
	 * one transaction, so a boot that dies mid-write leaves the last */
	{ "CREATE TABLE campaigns ("
	  " name TEXT PRIMARY KEY,"
	  " state TEXT NOT NULL,"
	  " created REAL NOT NULL,"
	  " updated REAL NOT NULL);", NULL },
	/* 7: monitors (monitor/monitor.h): an iteration's series of one
	 * monitor in one row, its columns packed as text in one JSON
	 * object, not a row a value. A rowid table: a row of a kilobyte
	 * or more spills into overflow pages of a WITHOUT ROWID one
	 * (measured: 2.4x the bytes of the text) */
	{ "CREATE TABLE monitors ("
	  " case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,"
	  " monitor TEXT NOT NULL,"
	  " iteration INTEGER NOT NULL CHECK (iteration >= 1),"
	  " series TEXT NOT NULL,"
	  " UNIQUE (case_id, monitor, iteration));", NULL },
};

const int sqlite_schema_latest = (int)ARRAY_SIZE(migrations);

/* identity_upgrade(workload, params) as an SQL function. */
static void sql_identity_upgrade(sqlite3_context *ctx, int argc,
				 sqlite3_value **argv)
{
	const char *wl = (const char *)sqlite3_value_text(argv[0]);
	const char *old = (const char *)sqlite3_value_text(argv[1]);
	char *id;

	(void)argc;
	if (!old) {
		sqlite3_result_null(ctx);
		return;
	}
	id = identity_upgrade(wl, old);
	sqlite3_result_text(ctx, id, -1, free);
}

/* Every stored case's full parameter string as its identity. */
static int recompute_identities(struct sqlite_store *s)
{
	int rc;

	if (sqlite3_create_function(s->db, "schedlab_identity_upgrade", 2,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				    sql_identity_upgrade, NULL, NULL) != SQLITE_OK)
		return db_error(s, "cannot recompute case identities");
	rc = db_exec(s, "UPDATE cases SET params ="
		     " schedlab_identity_upgrade(workload, params)"
		     " WHERE params IS NOT NULL",
		     "cannot recompute case identities");
	sqlite3_create_function(s->db, "schedlab_identity_upgrade", 2,
				SQLITE_UTF8, NULL, NULL, NULL, NULL);
	return rc;
}

/*
 * The schema's version, *v: 0 for a new, empty database. -1 after
 * error() for another program's file, a damaged schema_version (it
 * holds one integer row, 1 or more) or one newer than this binary.
 * Reads only.
 */
static int read_schema_version(struct sqlite_store *s, int64_t *v)
{
	int64_t ours, tables;
	sqlite3_stmt *st;
	int rc, rows = 0;
	bool integer = false;

	rc = db_query_int(s, "SELECT count(*) FROM sqlite_master"
		       " WHERE type = 'table' AND name = 'schema_version'",
		       NULL, 0, &ours);
	if (rc < 0)
		return -1;
	if (!ours) {
		*v = 0;
		if (db_query_int(s, "SELECT count(*) FROM sqlite_master", NULL, 0,
			      &tables) < 0)
			return -1;
		if (tables)
			return error("%s: not a schedlab database (it holds tables of another program)",
				     s->path);
		return 0;
	}
	if (db_prepare(s, "SELECT typeof(version) = 'integer', version"
		       " FROM schema_version LIMIT 2", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!rows++) {
			integer = sqlite3_column_int(st, 0);
			*v = sqlite3_column_int64(st, 1);
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot read the schema version");
	if (rows != 1)
		return error("%s: not a schedlab database (its schema_version %s)",
			     s->path, rows ? "has 2 rows" : "is empty");
	if (!integer)
		return error("%s: not a schedlab database (its schema_version is not an integer)",
			     s->path);
	if (*v < 1)
		return error("%s: not a schedlab database (its schema_version is %" PRId64 ")",
			     s->path, *v);
	if (*v > sqlite_schema_latest)
		return error("%s: database schema version %" PRId64
			     " is newer than this schedlab (%d)",
			     s->path, *v, sqlite_schema_latest);
	return 0;
}

/*
 * read_schema_version() in one snapshot: its queries in a transaction of
 * their own unless one is open, so that another process creating the
 * schema between them (a new database two runs open at once) is seen
 * whole or not at all - not as tables without a schema_version.
 */
int sqlite_schema_version(struct sqlite_store *s, int64_t *v)
{
	bool own = sqlite3_get_autocommit(s->db);
	int rc;

	if (own && db_exec(s, "BEGIN", "cannot read the schema version"))
		return -1;
	rc = read_schema_version(s, v);
	if (own)
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

int sqlite_migrate(struct sqlite_store *s)
{
	int64_t v;
	char sql[128];

	if (sqlite_schema_version(s, &v))
		return -1;
	if (v == sqlite_schema_latest)
		return 0;
	/* a table rebuilt (4) must not cascade its drop: no-op inside a
	 * transaction, so set around it */
	sqlite3_exec(s->db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
	if (db_begin(s))
		goto fail;
	/* another process may have migrated it while we waited */
	if (sqlite_schema_version(s, &v))
		goto fail;
	for (; v < sqlite_schema_latest; v++)
		if (db_exec(s, migrations[v].sql, "cannot create the schema") ||
		    (migrations[v].after && migrations[v].after(s)))
			goto fail;
	snprintf(sql, sizeof(sql), "DELETE FROM schema_version;"
		 " INSERT INTO schema_version VALUES (%d)", sqlite_schema_latest);
	if (db_exec(s, sql, "cannot record the schema version") || db_commit(s))
		goto fail;
	sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return 0;
fail:
	db_rollback(s);
	sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return -1;
}
