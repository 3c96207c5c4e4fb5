/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store/rows.h: a run and a case as the backends store them (struct
 * run_row, struct case_row), made from what `schedlab run` hands over
 * (store.h) or from an export document, with the checks the schemas
 * cannot make. Private to src/store; nothing here touches a database:
 * db is the database as messages name it (struct store's name).
 */
#ifndef SCHEDLAB_STORE_ROWS_H
#define SCHEDLAB_STORE_ROWS_H

#include <jansson.h>
#include <stdint.h>

#include "store/life.h"
#include "store/store.h"

struct run_row {
	const char *uuid, *label, *host, *command, *version, *status;
	const char *ab, *variant;	/* the A/B link, or NULL */
	double started, ended;		/* ended: NAN while running */
	char *environment;		/* JSON text, owned */
	struct store_writer w;		/* pid 0: none (imported) */
};

struct case_row {
	int64_t seq;
	const char *job, *workload, *params, *sweep_keys, *sweep;
	const char *status, *reason;
	char *parameters, *settings;	/* JSON text, owned */
	int64_t iterations;
	int64_t version;		/* >= 1 */
};

/* obj as a JSON column keeps it (NULL: {}); free() it. NULL after error(). */
char *row_json_text(const char *db, json_t *obj, const char *what);

/* obj's string at key, or NULL. */
const char *row_str(json_t *obj, const char *key);

/*
 * A new run, "running", written by this process; its uuid r->uuid or
 * a new one in uuid. 0, or -1 after error(); row_run_free() either way.
 */
int row_run_begin(struct run_row *row, const char *db,
		  const struct store_run *r, char uuid[37]);

/*
 * The run of export document doc, from origin (a file name), validated
 * and upgraded to the current version (export.h) first; no writer. 0,
 * or -1 after error(); row_run_free() either way.
 */
int row_run_import(struct run_row *row, const char *db, json_t *doc,
		   const char *origin);

void row_run_free(struct run_row *row);

/* Whether run id may end with status (complete, partial or failed): 0,
 * or -1 after error(). */
int row_end_check(const char *db, int64_t id, const char *status);

/*
 * Case c of run run_id checked (statuses, metrics, finite values: what
 * the schema cannot check) and made a row; *env, where c also ends the
 * run with an environment, that environment's JSON text (else NULL;
 * free() it). 0, or -1 after error(); row_case_free() either way.
 */
int row_case_add(struct case_row *row, const char *db, int64_t run_id,
		 const struct store_case *c, char **env);

/* A case of an export document. 0, or -1 after error(); row_case_free(). */
int row_case_import(struct case_row *row, const char *db, json_t *c);

void row_case_free(struct case_row *row);

struct run_case;
struct hist;

/*
 * Histogram name[it] of case case_id, its JSON text read from the
 * histograms table, checked and put in c (latency), or only checked
 * (any other name) in *check, which the caller frees. 0, or -1 after
 * error() naming the case and histogram.
 */
int row_hist_load(struct run_case *c, const char *db, int64_t case_id,
		  const char *name, int64_t it, const char *text,
		  struct hist **check);

/*
 * Monitor name[it] of case case_id, its JSON text read from the monitors
 * table, checked (export_check_series()) and put in c->monitors. 0, or
 * -1 after error() naming the case and monitor.
 */
int row_mon_load(struct run_case *c, const char *db, int64_t case_id,
		 const char *name, int64_t it, const char *text);

#endif
