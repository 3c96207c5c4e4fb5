/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/store: what a backend gives the store interface
 * (store.h). A backend's handle begins with struct store; backend.c picks
 * the backend by the database's name (its table of schemes) and calls
 * through its ops. SQLite: sqlite*.c. PostgreSQL: pg*.c (libpq).
 *
 * Every op has the contract of the store.h function of the same name;
 * import carries store_import_once()'s once flag.
 */
#ifndef SCHEDLAB_STORE_INT_H
#define SCHEDLAB_STORE_INT_H

#include <stdbool.h>

#include "store/store.h"

struct store_ops {
	const char *kind;	/* "sqlite", "postgresql" */
	void (*close)(struct store *s);
	int (*run_begin)(struct store *s, const struct store_run *r, int64_t *id);
	int (*run_end)(struct store *s, int64_t id, const char *status,
		       double ended, json_t *environment);
	int (*case_add)(struct store *s, int64_t run_id,
			const struct store_case *c);
	int (*resolve)(struct store *s, const char *spec, int64_t *id);
	int (*find_uuid)(struct store *s, const char *uuid, int64_t *id);
	int (*relabel)(struct store *s, const char *uuid, const char *label);
	int (*runs)(struct store *s, struct store_run_info **runs, size_t *n);
	int (*ab_runs)(struct store *s, const char *ab,
		       struct store_ab_run **runs, size_t *n);
	int (*load)(struct store *s, int64_t id, struct run *r);
	/* once: a uuid already stored is 1 with *id its run, not an error */
	int (*import)(struct store *s, json_t *doc, const char *origin,
		      bool once, int64_t *id);
	int (*estimate)(struct store *s, const char *workload, unsigned version,
			const char *params, double *secs);
	int (*history)(struct store *s, const char *label, const char *host,
		       const char *workload, unsigned version,
		       const char *params, const char *metric, unsigned max,
		       store_history_fn *fn, void *arg);
	/* store_series()'s halves: the metrics of q->job's latest complete
	 * case into out->metrics, or, when it has none, the jobs that have
	 * one into out->jobs; then the cases with samples of metric, q->since
	 * applied (q->host and q->label are backend.c's), each added by
	 * series_case_add() in the order store.h gives */
	int (*series_meta)(struct store *s, const char *job,
			   struct store_series *out);
	int (*series)(struct store *s, const struct store_series_query *q,
		      const char *metric, struct store_series *out);
	/* campaigns (store.h); NULL: the backend keeps none */
	int (*campaign_get)(struct store *s, const char *name, json_t **doc);
	int (*campaign_put)(struct store *s, const char *name,
			    const json_t *doc, bool create);
	int (*campaign_names)(struct store *s, char ***names, size_t *n);
	/* the job queue (queue.h); NULL: the backend keeps none (and its
	 * row in backend.c's schemes[] says so) */
	const struct queue_ops *queue;
};

/*
 * A backend's job queue: each op has the contract of the queue.h
 * function of the same name (queue_add() for add), which queue_ops.c
 * calls through it.
 */
struct queue_job;
struct queue_agent;
struct queue_claim;
struct queue_row;
struct queue_ops {
	bool (*connected)(struct store *s);
	int (*add)(struct store *s, const struct queue_job *j, unsigned repeat,
		   int64_t *ids);
	int (*agent_register)(struct store *s, const struct queue_agent *a);
	int (*agent_seen)(struct store *s, const char *name, int64_t job);
	int (*claim)(struct store *s, const struct queue_agent *a,
		     struct queue_claim *c);
	int (*heartbeat)(struct store *s, int64_t id, int attempt,
			 unsigned lease_s, char *why, size_t len);
	int (*finish)(struct store *s, int64_t id, int attempt,
		      const char *agent, int exit_status, const char *reason,
		      json_t *doc, const char *origin, char *why, size_t len);
	int (*release)(struct store *s, int64_t id, int attempt,
		       const char *agent, const char *reason, bool refuse);
	int (*list)(struct store *s, const char *state,
		    struct queue_row **rows, size_t *n);
	int (*cancel)(struct store *s, int64_t id, char *why, size_t len);
	int (*retry)(struct store *s, int64_t id, char *why, size_t len);
};

struct store {
	const struct store_ops *ops;
	/* the database as messages name it: a path, or a URL without its
	 * password (store_url_redact()) */
	char *name;
};

/*
 * The run (complete or partial) and case (complete) a series reads: the
 * SQL condition on cases c and runs r both backends' series ops use.
 */
#define SERIES_CASES "c.status = 'complete' AND r.status IN ('complete', 'partial')"

/*
 * v, an array of *cap elements of size bytes of which n are used, with
 * room for one more: its capacity doubled (16 from none) when full. For
 * the readers that fill an array a row at a time (backend.c).
 */
void *store_grow(void *v, size_t n, size_t *cap, size_t size);

/* A new, empty case at the end of out->cases (backend.c). */
struct store_series_case *series_case_add(struct store_series *out);
/* v appended to c's samples. */
void series_sample_add(struct store_series_case *c, double v);

/* The backends' openers: NULL after error(), as store_open() says. */
struct store *sqlite_store_open(const char *path, bool write);
struct store *pg_store_open(const char *url, bool write);

#endif
