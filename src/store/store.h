/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store: where runs are kept. SQLite by default (store/sqlite.c: the
 * connection and schema; sqlite_write.c; sqlite_read.c), PostgreSQL for
 * a fleet (store/pg*.c, libpq), picked by the database's name
 * (store_scheme()) behind this one interface (backend.c, store_int.h);
 * the schemas are in doc/store.md and doc/fleet.md. The store never interprets values: it keeps what it is
 * given and hands back an export document (checked, read and written by
 * store/export.c). The one exception is upgrading runs stored before
 * case identities (schema 3, export_upgrade()), whose parameter strings
 * harness/identity.h rewrites.
 *
 * The export document ("schedlab-run/1", doc/export.md) is the one
 * in-memory form of a stored run: `show` and `compare` read it, whether
 * it came from a database or from a file, and import takes it back.
 */
#ifndef SCHEDLAB_STORE_H
#define SCHEDLAB_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "metric.h"

#define EXPORT_SCHEMA "schedlab-run/1"

struct store;
struct hist;

/*
 * Opens the database at path for writing, creating it (and its
 * directory) and migrating its schema as needed. NULL after error()
 * naming the file: not a database (another program's file, a damaged
 * schema_version), a schema newer than this binary, a place that cannot
 * be written, or damaged pages (PRAGMA quick_check, so that a run that
 * could not be stored is refused before it starts). A file that is
 * refused is left as it was: nothing is written before these checks. Several processes may hold one database open
 * and write to it at once: writers queue for up to 30 s.
 */
struct store *store_open(const char *path);
/*
 * Opens the database at path for reading only (list, show, export,
 * compare): nothing is created and nothing written, so a database in a
 * read-only directory or on a read-only filesystem can be read. Refuses
 * what store_open() refuses, but for damaged pages that the reads do not
 * touch. A schema older than this binary's is upgraded by store_open()
 * when the file can be written, else refused.
 */
struct store *store_open_ro(const char *path);
void store_close(struct store *s);

/*
 * The database as messages name it: the path it was opened with, or a
 * URL with its password left out (store_url_redact()).
 */
const char *store_path(const struct store *s);

/* "sqlite" or "postgresql". */
const char *store_kind(const struct store *s);

/*
 * A kind of database and the names that choose it, a row of the table of
 * schemes (store/backend.c): a PostgreSQL database is named by a libpq
 * URI, "postgresql://..." or "postgres://..." (credentials through
 * libpq's usual means: PGPASSFILE, PGSERVICEFILE, ?service=, sslmode);
 * any other name is a SQLite file.
 */
struct store_scheme {
	const char *kind;	/* "sqlite", "postgresql", as store_kind() */
	const char *prefix;	/* what a name starts with; NULL: the rest */
	bool file;		/* a file: may be missing; no password in it */
	bool queue;		/* keeps the job queue (store/queue.h) */
	struct store *(*open)(const char *db, bool write);	/* NULL: error() */
};

/* The row of the table of schemes that db's name chooses; never NULL. */
const struct store_scheme *store_scheme(const char *db);

/*
 * db without a password: a URL's "user:secret@" becomes "user@" and a
 * password=... parameter is dropped, so that no message, stored command
 * line or log holds one. Anything else is copied. Malloc'd.
 */
char *store_url_redact(const char *db);

/*
 * The command line to store with a run: "schedlab " and argv's words
 * (argv_join()), every database URL in them, alone or after '=', with
 * its password left out (store_url_redact()). Malloc'd.
 */
char *store_command_line(char *const *argv);

/*
 * Whether db is a SQLite file that does not exist (readers say "no
 * database" rather than create one). Never true of a URL.
 */
bool store_missing(const char *db);

/* The default database: $SCHEDLAB_DB, else $XDG_DATA_HOME/schedlab/results.db,
 * else ~/.local/share/schedlab/results.db. */
int store_default_path(char *buf, size_t len);

/* Any string but uuid may be NULL: stored as NULL, exported as null. */
struct store_run {
	const char *uuid;	/* unique across machines: import refuses twins;
				 * NULL: the store makes a random (v4) one */
	const char *label;
	const char *host;
	const char *command;	/* the command line, for the record */
	const char *version;	/* schedlab's */
	double started;		/* Unix time, seconds */
	json_t *environment;	/* borrowed: sysenv_collect(); NULL: {} */
	/* runs made side by side (ab's variants, judge's live references):
	 * the uuid they share and this one's variant name; NULL: none */
	const char *ab;
	const char *variant;
};

/*
 * A run begins with status "running", with this process's pid and boot
 * id: while it is "running" and that process is gone, list, show and
 * export say "abandoned", and the next run begun or imported marks it
 * so (store/sqlite_life.c). *id: its local id.
 */
int store_run_begin(struct store *s, const struct store_run *r, int64_t *id);

/*
 * A run ends "complete", "partial" (interrupted or some cases failed;
 * finished cases kept) or "failed" (no case finished). environment, when
 * not NULL, replaces the stored one (it gains what was measured during
 * the run, such as steal time).
 */
int store_run_end(struct store *s, int64_t id, const char *status,
		  double ended, json_t *environment);

/*
 * One case and all its samples, stored in one transaction. job and
 * workload are required; params, sweep_keys, sweep and reason may be
 * NULL. seq is unique within a run.
 */
struct store_case {
	unsigned seq;
	const char *job, *workload;
	unsigned version;	/* the workload's semantics version; 0: 1 */
	/* params: the identity (harness/identity.h) */
	const char *params, *sweep_keys, *sweep;
	const char *status;	/* "complete" or "failed" */
	const char *reason;	/* why it failed, or NULL */
	json_t *parameters;	/* borrowed: {"groups": 4, "ipc": "pipe", ...};
				 * NULL: {} */
	json_t *settings;	/* borrowed: run settings, {"cpus": "0-1"};
				 * NULL: {} */
	const struct metric_def *metrics;	/* metadata of each column */
	size_t nmetrics;
	size_t niter;
	const double *values;	/* niter rows x nmetrics; NAN: not measured
				 * (not stored); +-inf is refused */
	/* NULL, or niter entries: each row's latency histogram as the
	 * probes recorded it (NULL: none), kept as histogram "latency" */
	struct hist *const *latency;
	/* NULL, or the monitors' series as the export document has them:
	 * {"NAME": [a series (monitor_rows_json()'s) or null per
	 * iteration]}, a row per series (borrowed) */
	const json_t *monitors;
	/* not NULL: the run ends with this status ("complete", "partial",
	 * "failed") in the case's own transaction - its last case and its
	 * status are stored together or not at all; run_ended and
	 * run_environment as store_run_end() takes them */
	const char *run_status;
	double run_ended;
	json_t *run_environment;
};

/*
 * The metadata of c->metrics joins the run's (the first case to bring a
 * metric name sets its unit, direction and help for the whole run).
 */
int store_case_add(struct store *s, int64_t run_id, const struct store_case *c);

/*
 * RUN as the user writes it: a run id (all digits), a run's uuid, or a
 * label: of the runs with it, the one that started last among those
 * complete with at least one case; else among those with a case (a
 * partial or failed run); else the last (a run that is starting, or was
 * abandoned before its first case). -1 after error() when there is no
 * such run.
 */
int store_resolve(struct store *s, const char *spec, int64_t *id);

/*
 * The run with this uuid: 1 with *id set, 0 when there is none, -1
 * after error().
 */
int store_find_uuid(struct store *s, const char *uuid, int64_t *id);

/*
 * The run with this uuid gets label (a campaign's attempt it gave up:
 * NAME/STATE/discarded, so that no reader of NAME/STATE counts it).
 * 0 also when there is no such run; -1 after error().
 */
int store_relabel(struct store *s, const char *uuid, const char *label);

/* A stored run as `schedlab list runs` shows it. */
struct store_run_info {
	int64_t id;
	char *uuid, *status;
	char *label, *host;	/* NULL when none */
	char *commit;		/* git describe of its work tree; NULL: none */
	char *ab, *variant;	/* its A/B link (struct store_run); NULL: none */
	double started;		/* Unix time, seconds */
	double ended;		/* NAN while running */
	int64_t cases, samples;
};

/*
 * Every run, newest first, into *runs (*n of them; store_runs_free()
 * releases them). -1 after error().
 */
int store_runs(struct store *s, struct store_run_info **runs, size_t *n);
void store_runs_free(struct store_run_info *runs, size_t n);

/* One of the runs of an A/B. */
struct store_ab_run {
	int64_t id;
	char *variant;		/* NULL when none was stored */
	char *label;		/* NULL when none */
};

/*
 * The runs whose ab is ab (struct store_run), ordered by id, into *runs
 * (*n of them, 0 when none; store_ab_runs_free() releases them). -1
 * after error().
 */
int store_ab_runs(struct store *s, const char *ab, struct store_ab_run **runs,
		  size_t *n);
void store_ab_runs_free(struct store_ab_run *runs, size_t n);

/*
 * Run id, read straight into *r (model/run.h): the model's loader for
 * the database, one snapshot even while another process adds cases.
 * -1 after error() naming the database; *r is then empty.
 */
struct run;
int store_load(struct store *s, int64_t id, struct run *r);

/* The export document of a run; NULL after error(). */
json_t *store_export(struct store *s, int64_t id);

/*
 * Checks that doc is a complete export document; origin names it in
 * messages, with the JSON path of what is wrong:
 * "run.json: cases[2].samples.messaging.time[3]: expected a number or
 * null". -1 after error().
 */
int export_validate(json_t *doc, const char *origin);

/*
 * Checks that a validated doc holds only what `schedlab run` could have
 * written, by the rules run applies: a uuid as uuid_new() makes it, a
 * label that is not empty, a host as --host takes it, times from 1970
 * to 9999, job names as a job file's sections, workloads this schedlab
 * has, an A/B link of a uuid and a variant name. import applies it;
 * readers of a file (show, compare) show what they are given. -1 after
 * error() naming origin, the member and what is accepted.
 */
int export_check_written(json_t *doc, const char *origin);

/*
 * Writes doc as export files are written (2-space indent, keys in
 * order, doubles with 17 significant digits so they read back exactly)
 * and a newline. Says nothing: -1 with errno set when writing fails, for
 * the caller, who knows the file's name, to report.
 */
int export_dump(json_t *doc, FILE *f);

/*
 * Brings a validated document written before case identities (cases
 * without "version") up to date, in place: such a case gets version 1,
 * settings {} and its full parameter string rewritten by
 * identity_upgrade(). Cases that have a version are left alone.
 */
void export_upgrade(json_t *doc);

/*
 * Reads an export document from path ("-": stdin), validates it and
 * upgrades it (export_upgrade()).
 * NULL after error(): "FILE:LINE:COL: ..." for broken JSON (a truncated
 * file included), "FILE: not a schedlab export (...)" for other JSON.
 */
json_t *export_load(const char *path);

struct run;
/*
 * A validated export document into the run model *r (store/export_run.c);
 * -1 after error() naming origin.
 */
int run_from_export(const json_t *doc, const char *origin, struct run *r);

/* The export document of r (doc/export.md), as export and show print it. */
json_t *run_to_export(const struct run *r);

/*
 * The most bytes a document may have: export_load() reads no further,
 * and refuses a regular file above it before parsing. opt (the import
 * option --max-size, or NULL), else SCHEDLAB_IMPORT_MAX, else 256 MiB;
 * a size is bytes or K, M, G, T (binary), from 1 byte to 1T. -1 after
 * saying which setting is bad.
 */
#define EXPORT_MAX_DEFAULT	(256ull << 20)
struct export_limit {
	unsigned long long bytes;
	const char *from;	/* "--max-size", "SCHEDLAB_IMPORT_MAX", "the default" */
};
int export_limit(const char *opt, struct export_limit *lim);
/* export_load() under lim instead of export_limit(NULL, ...)'s. */
json_t *export_load_limited(const char *path, const struct export_limit *lim);

/*
 * Stores an export document as a new run (same uuid), in one
 * transaction: on any error nothing is written. Validates it first;
 * refuses a uuid already in the database. origin names the document in
 * messages. *id: the new run's local id.
 */
int store_import(struct store *s, json_t *doc, const char *origin,
		 int64_t *id);

/*
 * store_import(), but a uuid already stored is no error: 1 with *id the
 * run already there, and nothing written (push and pull are idempotent:
 * two of them at once store the run once). 0: stored as *id.
 */
int store_import_once(struct store *s, json_t *doc, const char *origin,
		      int64_t *id);

/*
 * The mean wall time of one iteration of a case with this identity
 * (workload, version, params), from the latest three complete ones
 * stored: 1 with *secs set, 0 when there is none, -1 after error().
 */
int store_estimate(struct store *s, const char *workload, unsigned version,
		   const char *params, double *secs);

/* store_history()'s fn: the samples of one case, in iteration order. */
typedef void store_history_fn(void *arg, const double *x, size_t n);

/*
 * The repeats of one case, for the run-to-run noise compare accounts
 * for: the samples of metric in the latest max complete cases with this
 * workload, version and params from runs with this label (NULL: none match) on
 * host (NULL: runs without one), one call of fn per case with its
 * samples in iteration order. Returns how many cases, or -1 after
 * error().
 */
int store_history(struct store *s, const char *label, const char *host,
		  const char *workload, unsigned version, const char *params,
		  const char *metric, unsigned max,
		  store_history_fn *fn, void *arg);

/*
 * A series of one job for `schedlab history`: the complete cases named
 * job of the complete and partial runs, each with its run's identity and
 * the samples of one metric, read in one query whatever the number of
 * runs.
 */
struct store_series_query {
	const char *job;	/* required */
	const char *metric;	/* NULL: the job's headline */
	/* globs as the shell's (fnmatch(3), the same on both backends); a
	 * run without a host or label never matches one; NULL: any */
	const char *host, *label;
	double since;		/* runs started at or after (Unix time); NAN: any */
};

struct store_series_metric {
	char *name, *unit;
	enum better better;
	bool headline;
};

struct store_series_case {
	int64_t run_id;
	char *uuid, *label, *host;	/* label, host NULL when none */
	char *kernel;		/* the environment's kernel release; NULL: none */
	char *command;		/* the run's command line; NULL: none */
	double started;		/* Unix time */
	unsigned version;	/* the workload's semantics version */
	char *params, *sweep_keys, *sweep;	/* NULL when none */
	char *settings;		/* the case's settings, JSON text ("{}": none) */
	double *x;		/* the metric's samples, in iteration order */
	size_t n;
};

struct store_series {
	/* the job's metrics, from its latest complete case; none when the
	 * job has no complete case: jobs[] then names the jobs that have */
	struct store_series_metric *metrics;
	size_t nmetrics;
	char **jobs;
	size_t njobs;
	/* the metric read (q->metric or the headline): an entry of
	 * metrics[], NULL when the job has none such (cases[] is empty) */
	const struct store_series_metric *metric;
	/* by start time, then run id, then case order within the run */
	struct store_series_case *cases;
	size_t ncases;
};

/*
 * q's series into *out (store_series_free() releases it, also after an
 * error). 0 also when the job or metric is unknown (out->metric NULL:
 * see metrics[] and jobs[]); -1 after error().
 */
int store_series(struct store *s, const struct store_series_query *q,
		 struct store_series *out);
void store_series_free(struct store_series *out);

/*
 * Campaigns across boots (campaign/campaign.h): each a name and one JSON
 * document, its whole state, replaced in one transaction. The store
 * keeps the document; it never reads it. SQLite only: a PostgreSQL
 * store refuses them, saying so.
 *
 * store_campaign_get(): 1 with *doc (the caller's), 0 when there is no
 * campaign name, -1 after error(). store_campaign_put(): 0; with create,
 * 1 (nothing written) when name exists; without, -1 when it does not.
 * store_campaign_names(): every name, oldest first (split_free()).
 */
int store_campaign_get(struct store *s, const char *name, json_t **doc);
int store_campaign_put(struct store *s, const char *name, const json_t *doc,
		       bool create);
int store_campaign_names(struct store *s, char ***names, size_t *n);

#endif
