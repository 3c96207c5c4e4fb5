// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg.c: runs kept in a PostgreSQL database, for a fleet of test
 * machines - the store's ops and its opening; the connection itself is
 * in pg_conn.c. The schema
 * (doc/fleet.md, "Schema") and its migrations are in pg_schema.c,
 * writing runs in pg_write.c, reading them in pg_read.c, the job queue
 * in queue.c.
 *
 * The tables mean what SQLite's mean (doc/store.md), in the schema
 * "schedlab", with PostgreSQL's types: bigint ids from identity columns,
 * double precision times and values (exact both ways: they are sent as
 * %.17g and read back in PostgreSQL's shortest exact form), and json -
 * not jsonb, which would reorder keys - for the documents, so that a run
 * comes back byte for byte as it went in.
 */
#include <stdlib.h>

#include "store/pg.h"
#include "util.h"

static void pg_close(struct store *base)
{
	struct pg_store *s = pg_of(base);

	if (s->conn)
		PQfinish(s->conn);
	free(s->base.name);
	free(s);
}

/* The ops pg_write.c and pg_read.c give (declared there). */
int pg_run_begin(struct store *base, const struct store_run *r, int64_t *id);
int pg_run_end(struct store *base, int64_t id, const char *status,
	       double ended, json_t *environment);
int pg_case_add(struct store *base, int64_t run_id, const struct store_case *c);
int pg_import(struct store *base, json_t *doc, const char *origin, bool once,
	      int64_t *id);
int pg_resolve(struct store *base, const char *spec, int64_t *id);
int pg_find_uuid(struct store *base, const char *uuid, int64_t *id);
int pg_relabel(struct store *base, const char *uuid, const char *label);
int pg_runs(struct store *base, struct store_run_info **runs, size_t *n);
int pg_ab_runs(struct store *base, const char *ab, struct store_ab_run **runs,
	       size_t *n);
int pg_load(struct store *base, int64_t id, struct run *r);
int pg_estimate(struct store *base, const char *workload, unsigned version,
		const char *params, double *secs);
int pg_history(struct store *base, const char *label, const char *host,
	       const char *workload, unsigned version, const char *params,
	       const char *metric, unsigned max,
	       store_history_fn *fn, void *arg);
int pg_series_meta(struct store *base, const char *job,
		   struct store_series *out);
int pg_series(struct store *base, const struct store_series_query *q,
	      const char *metric, struct store_series *out);
int pg_campaign_get(struct store *base, const char *name, json_t **doc);
int pg_campaign_put(struct store *base, const char *name, const json_t *doc,
		    bool create);
int pg_campaign_names(struct store *base, char ***names, size_t *n);

static const struct store_ops pg_ops = {
	.kind = "postgresql",
	.close = pg_close,
	.run_begin = pg_run_begin,
	.run_end = pg_run_end,
	.case_add = pg_case_add,
	.resolve = pg_resolve,
	.find_uuid = pg_find_uuid,
	.relabel = pg_relabel,
	.runs = pg_runs,
	.ab_runs = pg_ab_runs,
	.load = pg_load,
	.import = pg_import,
	.estimate = pg_estimate,
	.history = pg_history,
	.series_meta = pg_series_meta,
	.series = pg_series,
	.campaign_get = pg_campaign_get,
	.campaign_put = pg_campaign_put,
	.campaign_names = pg_campaign_names,
	.queue = &pg_queue_ops,
};

struct store *pg_store_open(const char *url, bool write)
{
	struct pg_store *s = xcalloc(1, sizeof(*s));

	s->base.ops = &pg_ops;
	s->base.name = store_url_redact(url);
	s->write = write;
	s->conn = pg_connect(url, s->base.name);
	if (!s->conn || (write ? pg_migrate(s) : pg_check_read(s))) {
		pg_close(&s->base);
		return NULL;
	}
	return &s->base;
}
