/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store/load.h: runs as the user names them (RUN: an export file, "-"
 * for standard input, else an id, uuid or label in the database) loaded
 * into the run model (model/run.h), and the database a command reads
 * resolved: --db as given, else store_default_path().
 *
 * A struct run_source is one database for one command: resolved and
 * opened once, on first need, and every stored RUN read through that one
 * handle; export files are read beside it, a thread each (reading two
 * 150,000-sample files is most of compare's time).
 */
#ifndef SCHEDLAB_STORE_LOAD_H
#define SCHEDLAB_STORE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

struct run;
struct store;

struct run_source {
	const char *dbopt;	/* --db, or NULL: the default */
	char db[4096];		/* resolved, once resolved */
	struct store *st;	/* open, or NULL */
	bool tried;		/* resolved (and opened, when there) */
	bool missing;		/* no database at db */
	bool failed;		/* it could not be resolved or opened: said */
	bool unresolved;	/* ... resolved: no path (db unset) */
	bool rw;		/* open it read-write (a command that reads
				 * and then writes through the same handle,
				 * judge); false: read-only */
};

/* A source for --db dbopt (NULL: the default); nothing is opened yet. */
void run_source_init(struct run_source *src, const char *dbopt);

/*
 * The database, resolved and opened on the first call, read-only unless
 * src->rw: NULL
 * when there is none (src->missing) or it could not be opened
 * (src->failed, after error()).
 */
struct store *run_source_store(struct run_source *src);

/* RUN into *r; -1 after error() naming RUN, *r then empty. */
int run_source_load(struct run_source *src, const char *spec, struct run *r);

/*
 * n RUNs into runs[]: the files a thread each, the stored ones through
 * the one handle. -1 after every RUN that cannot be loaded has said
 * why; runs[] is then all empty.
 */
int run_source_load_many(struct run_source *src, const char *const *specs,
			 size_t n, struct run *runs);

void run_source_close(struct run_source *src);

/* src, initialised, reads through st, a handle already open (the one a
 * run was just written through), as if it had opened it itself:
 * run_source_close() closes it. */
void run_source_adopt(struct run_source *src, struct store *st);

/* run_source_load() with a source of its own (one RUN, one open). */
int run_load(const char *spec, const char *db, struct run *r);

/* run_source_load_many() with a source of its own. */
int run_load_many(const char *const *specs, size_t n, const char *db,
		  struct run *runs);

/*
 * The database a command reads and writes: --db as given, else
 * store_default_path(). Writes the path; -1 after error().
 */
int run_db_path(const char *db, char *buf, size_t len);

#endif
