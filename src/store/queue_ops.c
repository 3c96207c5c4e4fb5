// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/queue_ops.c: the job queue's calls (queue.h) through the
 * backend's queue ops (store_int.h; PostgreSQL's are pg_queue.c's), and
 * what is the same for every backend: the open that refuses a store
 * without a queue, and freeing what the ops return.
 */
#include <stdlib.h>
#include <string.h>

#include "store/queue.h"
#include "store/store_int.h"
#include "util.h"

struct store *queue_open(const char *url, const char *who, bool write)
{
	if (!store_scheme(url)->queue) {
		error("%s: the job queue lives in a PostgreSQL database (--db postgresql://...), not in the SQLite file '%s'",
		      who, url);
		return NULL;
	}
	return write ? store_open(url) : store_open_ro(url);
}

/* The store's queue ops, or NULL after error() when it keeps none. */
static const struct queue_ops *ops(struct store *s)
{
	if (!s->ops->queue)
		error("%s: this %s store keeps no job queue", s->name,
		      s->ops->kind);
	return s->ops->queue;
}

bool queue_connected(struct store *s)
{
	return s->ops->queue && s->ops->queue->connected(s);
}

int queue_add(struct store *s, const struct queue_job *j, unsigned repeat,
	      int64_t *ids)
{
	const struct queue_ops *q = ops(s);

	return q ? q->add(s, j, repeat, ids) : -1;
}

int queue_agent_register(struct store *s, const struct queue_agent *a)
{
	const struct queue_ops *q = ops(s);

	return q ? q->agent_register(s, a) : -1;
}

int queue_agent_seen(struct store *s, const char *name, int64_t job)
{
	const struct queue_ops *q = ops(s);

	return q ? q->agent_seen(s, name, job) : -1;
}

int queue_claim(struct store *s, const struct queue_agent *a,
		struct queue_claim *c)
{
	const struct queue_ops *q = ops(s);

	return q ? q->claim(s, a, c) : -1;
}

int queue_heartbeat(struct store *s, int64_t id, int attempt,
		    unsigned lease_s, char *why, size_t len)
{
	const struct queue_ops *q = ops(s);

	return q ? q->heartbeat(s, id, attempt, lease_s, why, len) : -1;
}

int queue_finish(struct store *s, int64_t id, int attempt, const char *agent,
		 int exit_status, const char *reason, json_t *doc,
		 const char *origin, char *why, size_t len)
{
	const struct queue_ops *q = ops(s);

	return q ? q->finish(s, id, attempt, agent, exit_status, reason, doc,
			     origin, why, len) : -1;
}

int queue_release(struct store *s, int64_t id, int attempt, const char *agent,
		  const char *reason, bool refuse)
{
	const struct queue_ops *q = ops(s);

	return q ? q->release(s, id, attempt, agent, reason, refuse) : -1;
}

int queue_list(struct store *s, const char *state, struct queue_row **rows,
	       size_t *n)
{
	const struct queue_ops *q = ops(s);

	return q ? q->list(s, state, rows, n) : -1;
}

int queue_cancel(struct store *s, int64_t id, char *why, size_t len)
{
	const struct queue_ops *q = ops(s);

	return q ? q->cancel(s, id, why, len) : -1;
}

int queue_retry(struct store *s, int64_t id, char *why, size_t len)
{
	const struct queue_ops *q = ops(s);

	return q ? q->retry(s, id, why, len) : -1;
}

void queue_claim_free(struct queue_claim *c)
{
	for (size_t i = 0; i < c->nsets; i++)
		free(c->sets[i]);
	free(c->sets);
	free(c->name);
	free(c->jobfile);
	free(c->iterations);
	free(c->label);
	memset(c, 0, sizeof(*c));
}

void queue_rows_free(struct queue_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].state);
		free(rows[i].name);
		free(rows[i].label);
		free(rows[i].hosts);
		free(rows[i].tags);
		free(rows[i].kernel);
		free(rows[i].agent);
		free(rows[i].run_uuid);
		free(rows[i].reason);
	}
	free(rows);
}
