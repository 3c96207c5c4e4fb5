// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite.c: runs kept in one SQLite file - the connection, opened
 * for writing or reading. The schema (doc/store.md) and its migrations
 * are sqlite_schema.c's; writing runs is in sqlite_write.c, reading them
 * back in sqlite_read.c.
 *
 * Several schedlab processes may write one database at once (a sweep in
 * one terminal, an import in another). The file is in WAL mode and every
 * write is one BEGIN IMMEDIATE transaction, so writers queue on the
 * database lock (for up to the busy timeout) rather than fail half-way
 * through, and readers never wait for them.
 *
 * Opening never writes to a file before it is known to be ours: the
 * writer's open (store_open()) checks that the file and its directory
 * may be written, reads the schema version, runs quick_check, and only
 * then switches to WAL and migrates; the reader's (store_open_ro())
 * writes nothing at all (doc/store.md, "Opening").
 */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite.h"
#include "util.h"

#define BUSY_TIMEOUT_MS 30000

/*
 * How long a writer waits for the lock: 30 s, or for tests
 * $SCHEDLAB_BUSY_TIMEOUT_MS (0..600000; doc/store.md).
 */
static int busy_timeout_ms(void)
{
	const char *e = getenv("SCHEDLAB_BUSY_TIMEOUT_MS");
	char *end;
	long v;

	if (!e || !*e)
		return BUSY_TIMEOUT_MS;
	v = strtol(e, &end, 10);
	if (*end || v < 0 || v > 600000) {
		warning("SCHEDLAB_BUSY_TIMEOUT_MS: expected milliseconds in 0..600000, got '%s': waiting %d",
			e, BUSY_TIMEOUT_MS);
		return BUSY_TIMEOUT_MS;
	}
	return (int)v;
}

/* Why a file cannot be made at path: its directory's access, or 0. */
static int create_errno(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int e = 0;

	if (slash)
		slash[slash == dir] = '\0';
	if (access(slash ? dir : ".", W_OK | X_OK))
		e = errno;
	free(dir);
	return e;
}

/* The first contact with the file: say which of the usual troubles it is. */
static int open_error(struct sqlite_store *s, int rc)
{
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;

	/* SQLite's last try was read-only, which says ENOENT for a file
	 * that it could not create: the directory tells the real story */
	if ((rc & 0xff) == SQLITE_CANTOPEN && sys == ENOENT &&
	    access(s->path, F_OK) && create_errno(s->path))
		sys = create_errno(s->path);

	switch (rc & 0xff) {
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return error("%s: not a schedlab database (%s)", s->path, msg);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return error("%s: database is locked by another process (%s)",
			     s->path, msg);
	}
	if (sys)
		return error("%s: cannot open database (%s: %s)", s->path, msg,
			     strerror(sys));
	return error("%s: cannot open database (%s)", s->path, msg);
}

/* mkdir -p of the directory that holds the database at path. */
static int make_parent(const char *path)
{
	char *dir = xstrdup(path), *p, *bad = NULL;
	struct stat st;
	int rc = 0;

	p = strrchr(dir, '/');
	if (p && p != dir) {
		*p = '\0';
		if (stat(dir, &st))
			bad = mkdir_p(dir, 0755);
	}
	if (bad)
		rc = error_errno("%s: cannot create directory %s", path, bad);
	free(bad);
	free(dir);
	return rc;
}

/* 0 when this process may write the database at path (or create it),
 * else -1 after error() saying why: the file's or its directory's. */
static int check_writable(const char *path)
{
	char *dir;
	int e;

	if (access(path, F_OK) == 0) {
		if (access(path, W_OK))
			return error("%s: cannot write the database (%s)", path,
				     strerror(errno));
	} else if (errno != ENOENT) {
		return error("%s: cannot open database (%s)", path,
			     strerror(errno));
	}
	e = create_errno(path);
	if (!e)
		return 0;
	dir = xstrdup(path);
	*(strrchr(dir, '/') ?: dir) = '\0';
	error("%s: cannot write the database (directory %s: %s)", path,
	      *dir ? dir : ".", strerror(e));
	free(dir);
	return -1;
}

/* "file:PATH?immutable=1", PATH %-escaped as a URI needs it. */
static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri = xmalloc(strlen(path) * 3 + sizeof("file:?immutable=1")), *q;

	q = stpcpy(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (strchr("%?#", *p) || *p < 0x20 || *p >= 0x7f) {
			*q++ = '%';
			*q++ = hex[*p >> 4];
			*q++ = hex[*p & 15];
		} else {
			*q++ = (char)*p;
		}
	}
	strcpy(q, "?immutable=1");
	return uri;
}

/*
 * The connection, and the first statement that reads the file: its
 * SQLite code (SQLITE_OK), the error not yet said. Reads nothing else
 * and writes nothing.
 */
static int connect(struct sqlite_store *s, int flags, bool immutable)
{
	char *uri = NULL;
	sqlite3_stmt *st;
	int rc;

	flags |= SQLITE_OPEN_NOMUTEX;
	if (immutable) {
		uri = immutable_uri(s->path);
		flags |= SQLITE_OPEN_URI;
	}
	sqlite3_close(s->db);
	s->db = NULL;
	rc = sqlite3_open_v2(uri ?: s->path, &s->db, flags, NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_extended_result_codes(s->db, 1);
	if (!s->busy_ms)
		s->busy_ms = busy_timeout_ms();
	sqlite3_busy_timeout(s->db, s->busy_ms);
	rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1,
				&st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW)
			rc = SQLITE_OK;
	}
	return rc;
}

/* PRAGMA quick_check: -1 after error() when the file is damaged. */
static int quick_check(struct sqlite_store *s)
{
	static const char db_main[] = "*** in database main ***\n";
	sqlite3_stmt *st;
	const char *what;
	char *line;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		what = (const char *)sqlite3_column_text(st, 0);
		if (what && !strcmp(what, "ok")) {
			sqlite3_finalize(st);
			return 0;
		}
		/* its first trouble, on one line */
		what = what ?: "no answer";
		if (!strncmp(what, db_main, sizeof(db_main) - 1))
			what += sizeof(db_main) - 1;
		line = xstrdup(what);
		for (char *p = line; *p; p++)
			if (*p == '\n')
				*p = ' ';
		error("%s: the database is corrupt (quick_check: %s)", s->path,
		      line);
		free(line);
	} else if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) {
		error("%s: the database is corrupt (quick_check: %s)", s->path,
		      sqlite3_errmsg(s->db));
	} else {
		db_error(s, "cannot check the database");
	}
	sqlite3_finalize(st);
	return -1;
}

/*
 * The writer's open: identify the file before anything is written to
 * it (another program's, damaged or newer: refused as it is), check its
 * pages, then WAL, the schema's migrations and the statements writes
 * use.
 */
static int open_write(struct sqlite_store *s)
{
	int64_t v;
	int rc;

	if (make_parent(s->path) || check_writable(s->path))
		return -1;
	rc = connect(s, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, false);
	if (rc != SQLITE_OK)
		return open_error(s, rc);
	if (sqlite_schema_version(s, &v) || (v && quick_check(s)))
		return -1;
	/*
	 * The first statement that writes. Switching a new database to
	 * WAL needs an exclusive lock, and SQLite does not call the busy
	 * handler for it: a second schedlab creating the same database at
	 * the same moment gets SQLITE_BUSY at once. Wait here as the busy
	 * timeout would.
	 */
	for (int waited = 0;; waited += 10) {
		rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY || waited >= s->busy_ms)
			break;
		usleep(10 * 1000);
	}
	if (rc != SQLITE_OK)
		return open_error(s, rc);
	if (db_exec(s, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON",
		 "cannot set up the connection") || sqlite_migrate(s))
		return -1;
	if (db_prepare(s, "INSERT INTO runs (uuid, label, host, started, ended,"
		    " status, command, schedlab_version, environment, pid,"
		    " pid_start, boot_id, ab, variant)"
		    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    &s->ins_run) ||
	    db_prepare(s, "INSERT OR IGNORE INTO run_metrics (run_id, name, unit,"
		    " better, headline, help) VALUES (?, ?, ?, ?, ?, ?)",
		    &s->ins_metric) ||
	    db_prepare(s, "INSERT INTO cases (run_id, seq, job, workload, params,"
		    " sweep_keys, sweep, status, reason, parameters, iterations,"
		    " version, settings)"
		    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    &s->ins_case) ||
	    db_prepare(s, "INSERT INTO samples (case_id, metric, iteration, value)"
		    " VALUES (?, ?, ?, ?)", &s->ins_sample) ||
	    db_prepare(s, "INSERT INTO histograms (case_id, metric, iteration,"
		    " buckets) VALUES (?, ?, ?, ?)", &s->ins_hist) ||
	    db_prepare(s, "INSERT INTO monitors (case_id, monitor, iteration,"
		    " series) VALUES (?, ?, ?, ?)", &s->ins_mon))
		return -1;
	return 0;
}

/*
 * The reader's open: it writes nothing, so a database in a read-only
 * directory or on a read-only filesystem can be read. Where this process
 * may write the file and its directory, the connection is a read-write
 * one all the same (never creating the file), because only such a
 * connection removes the -wal and -shm files when it is the last to
 * close. Else it is read-only; where SQLite cannot even read a WAL
 * database that way (it needs a -shm file and cannot make one there),
 * the file is opened immutable: nothing can write it from here either.
 * 1: the schema is older than this binary's and the database must be
 * opened for writing, which upgrades it.
 */
static int open_read(struct sqlite_store *s)
{
	bool may_write = !access(s->path, W_OK) && !create_errno(s->path);
	int64_t v;
	int rc;

	rc = connect(s, may_write ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY,
		     false);
	if (!may_write && ((rc & 0xff) == SQLITE_CANTOPEN ||
			   (rc & 0xff) == SQLITE_READONLY))
		rc = connect(s, SQLITE_OPEN_READONLY, true);
	if (rc != SQLITE_OK)
		return open_error(s, rc);
	if (sqlite_schema_version(s, &v))
		return -1;
	if (v == sqlite_schema_latest)
		return 0;
	if (!may_write)
		return error("%s: database schema version %" PRId64
			     " is older than this schedlab (%d), which cannot upgrade it here (%s)",
			     s->path, v, sqlite_schema_latest,
			     strerror(access(s->path, W_OK) ? errno : create_errno(s->path)));
	return 1;
}

static const struct store_ops sqlite_ops = {
	.kind = "sqlite",
	.close = sqlite_close,
	.run_begin = sqlite_run_begin,
	.run_end = sqlite_run_end,
	.case_add = sqlite_case_add,
	.resolve = sqlite_resolve,
	.find_uuid = sqlite_find_uuid,
	.relabel = sqlite_relabel,
	.runs = sqlite_runs,
	.ab_runs = sqlite_ab_runs,
	.load = sqlite_load,
	.import = sqlite_import,
	.estimate = sqlite_estimate,
	.history = sqlite_history,
	.series_meta = sqlite_series_meta,
	.campaign_get = sqlite_campaign_get,
	.campaign_put = sqlite_campaign_put,
	.campaign_names = sqlite_campaign_names,
	.series = sqlite_series,
};

struct store *sqlite_store_open(const char *path, bool write)
{
	struct sqlite_store *s = xcalloc(1, sizeof(*s));
	int rc;

	s->base.ops = &sqlite_ops;
	s->path = xstrdup(path);
	s->base.name = s->path;
	rc = write ? open_write(s) : open_read(s);
	if (!rc)
		return &s->base;
	sqlite_close(&s->base);
	return rc > 0 ? sqlite_store_open(path, true) : NULL;
}

void sqlite_close(struct store *base)
{
	struct sqlite_store *s = sqlite_of(base);

	sqlite3_finalize(s->ins_run);
	sqlite3_finalize(s->ins_metric);
	sqlite3_finalize(s->ins_case);
	sqlite3_finalize(s->ins_sample);
	sqlite3_finalize(s->ins_hist);
	sqlite3_finalize(s->ins_mon);
	sqlite3_finalize(s->sel_history);
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}


