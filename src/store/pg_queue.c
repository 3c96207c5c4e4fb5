// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_queue.c: the PostgreSQL backend's job queue (its queue ops,
 * store_int.h; the calls are queue.h's, through queue_ops.c): jobs
 * added, claimed, renewed, finished, released, listed, cancelled and
 * retried, and the agents' rows (listing, cancelling and retrying in
 * pg_queue_admin.c). Texts travel as libpq text parameters; arrays as
 * PostgreSQL array literals (pg_array()).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg.h"
#include "store/queue.h"
#include "store/store_int.h"
#include "util.h"

/* An array literal of n texts: {"a","b\"c"}. Malloc'd. */
static char *pg_array(const char *const *v, size_t n)
{
	size_t len = 3;
	char *buf, *p;

	for (size_t i = 0; i < n; i++)
		len += 2 * strlen(v[i]) + 3;
	p = buf = xmalloc(len);
	*p++ = '{';
	for (size_t i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		*p++ = '"';
		for (const char *c = v[i]; *c; c++) {
			if (*c == '"' || *c == '\\')
				*p++ = '\\';
			*p++ = *c;
		}
		*p++ = '"';
	}
	*p++ = '}';
	*p = '\0';
	return buf;
}

/* A glob pattern as a LIKE pattern: * %, ? _, and % _ \ escaped. */
static char *glob_like(const char *g)
{
	char *buf = xmalloc(2 * strlen(g) + 1), *p = buf;

	for (; *g; g++) {
		if (*g == '*')
			*p++ = '%';
		else if (*g == '?')
			*p++ = '_';
		else {
			if (*g == '%' || *g == '_' || *g == '\\')
				*p++ = '\\';
			*p++ = *g;
		}
	}
	*p = '\0';
	return buf;
}

/* The hosts as given and as LIKE patterns: two array literals. */
static void hosts_arrays(const char *hosts, char **given, char **like)
{
	char **v, **l;
	size_t n;

	n = split_commas(hosts, &v);
	l = xcalloc(n + 1, sizeof(*l));
	for (size_t i = 0; i < n; i++)
		l[i] = glob_like(v[i]);
	*given = pg_array((const char *const *)v, n);
	*like = pg_array((const char *const *)l, n);
	split_free(l, n);
	split_free(v, n);
}

char *queue_hosts_like(const char *hosts)
{
	char *given, *like;

	hosts_arrays(hosts, &given, &like);
	free(given);
	return like;
}

static int pg_queue_add(struct store *base, const struct queue_job *j,
			unsigned repeat, int64_t *ids)
{
	struct pg_store *s = pg_of(base);
	char *sets = pg_array(j->sets, j->nsets);
	char *tags = pg_array(j->tags, j->ntags);
	char *hosts = NULL, *like = NULL;
	char prio[16], rep[16];
	PGresult *res;
	int rc = -1;

	if (j->hosts)
		hosts_arrays(j->hosts, &hosts, &like);
	snprintf(prio, sizeof(prio), "%d", j->priority);
	snprintf(rep, sizeof(rep), "%u", repeat);
	{
		const char *p[] = {
			prio, j->name, j->jobfile, sets, j->iterations,
			j->label, hosts, like, tags, j->kernel,
			j->needs_commands ? "t" : "f",
			j->needs_knobs ? "t" : "f", j->queued_by, rep,
		};

		/* one statement: the copies are added together or not at all */
		res = pg_query(s,
			       "INSERT INTO jobs (priority, name, jobfile, sets,"
			       " iterations, label, hosts, hosts_like, tags, kernel,"
			       " needs_commands, needs_knobs, queued_by)"
			       " SELECT $1::integer, $2, $3, $4::text[], $5, $6,"
			       " $7::text[], $8::text[], $9::text[], $10,"
			       " $11::boolean, $12::boolean, $13"
			       " FROM generate_series(1, $14::integer)"
			       " RETURNING id",
			       14, p, PGRES_TUPLES_OK, "cannot queue the job");
	}
	if (res) {
		for (int i = 0; i < PQntuples(res) && i < (int)repeat; i++)
			ids[i] = pg_col_int(res, i, 0);
		PQclear(res);
		rc = 0;
	}
	free(sets);
	free(tags);
	free(hosts);
	free(like);
	return rc;
}

static int pg_queue_agent_register(struct store *base,
				   const struct queue_agent *a)
{
	char *tags = pg_array(a->tags, a->ntags);
	char pid[24];
	const char *p[] = {
		a->name, a->host, tags, a->kernel, a->build_id,
		a->allow_commands ? "t" : "f", a->allow_knobs ? "t" : "f", pid,
	};
	PGresult *res;

	snprintf(pid, sizeof(pid), "%ld", a->pid);
	res = pg_query(pg_of(base),
		       "INSERT INTO agents (name, host, tags, kernel, build_id,"
		       " allow_commands, allow_knobs, pid)"
		       " VALUES ($1, $2, $3::text[], $4, $5, $6::boolean,"
		       " $7::boolean, $8::bigint)"
		       " ON CONFLICT (name) DO UPDATE SET host = EXCLUDED.host,"
		       " tags = EXCLUDED.tags, kernel = EXCLUDED.kernel,"
		       " build_id = EXCLUDED.build_id,"
		       " allow_commands = EXCLUDED.allow_commands,"
		       " allow_knobs = EXCLUDED.allow_knobs, pid = EXCLUDED.pid,"
		       " started = now(), seen = now(), job = NULL",
		       8, p, PGRES_COMMAND_OK, "cannot register the agent");
	free(tags);
	PQclear(res);
	return res ? 0 : -1;
}

static int pg_queue_agent_seen(struct store *base, const char *name,
			       int64_t job)
{
	char id[24];
	const char *p[] = { name, job ? id : NULL };
	PGresult *res;

	snprintf(id, sizeof(id), "%" PRId64, job);
	res = pg_query(pg_of(base),
		       "UPDATE agents SET seen = now(), job = $2::bigint WHERE name = $1",
		       2, p, PGRES_COMMAND_OK, "cannot update the agent's row");
	PQclear(res);
	return res ? 0 : -1;
}

/* A json array of strings (array_to_json()'s text) into a vector. */
static size_t json_strings(const char *text, char ***out)
{
	json_t *a = json_loads(text, JSON_DECODE_ANY, NULL);
	size_t n = json_is_array(a) ? json_array_size(a) : 0;
	char **v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++) {
		const char *t = json_string_value(json_array_get(a, i));

		v[i] = xstrdup(t ? t : "");
	}
	json_decref(a);
	*out = v;
	return n;
}

/* Whether a job fits agent $1 (host $3, tags $4, kernel $5 or build id
 * $6, what it allows $7 $8). */
#define FITS								\
	" (hosts_like IS NULL OR $3::text LIKE ANY (hosts_like))"	\
	" AND tags <@ $4::text[]"					\
	" AND (kernel IS NULL OR kernel = $5::text OR kernel = $6::text)" \
	" AND (NOT needs_commands OR $7::boolean)"			\
	" AND (NOT needs_knobs OR $8::boolean)"				\
	" AND NOT ($1::text = ANY (refused_by))"

static int pg_queue_claim(struct store *base, const struct queue_agent *a,
			  struct queue_claim *c)
{
	char *tags = pg_array(a->tags, a->ntags);
	char lease[16];
	const char *p[] = {
		a->name, lease, a->host, tags, a->kernel, a->build_id,
		a->allow_commands ? "t" : "f", a->allow_knobs ? "t" : "f",
	};
	PGresult *res;
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(lease, sizeof(lease), "%u", a->lease_s);
	res = pg_query(pg_of(base),
		       "UPDATE jobs SET state = 'running', agent = $1,"
		       " attempts = attempts + 1,"
		       " lease_until = now() + make_interval(secs => $2::integer),"
		       " started = now(), ended = NULL, exit_status = NULL,"
		       " result_attempt = NULL"
		       " WHERE id = coalesce("
		       /* a job whose agent's lease ran out first (few: one per
			* agent at most, by jobs_leased), then the queued ones
			* in order (jobs_ready): two index scans that stop at
			* the first row that fits, where one WHERE with an OR
			* of both would read and sort every row */
		       " (SELECT id FROM jobs"
		       "  WHERE state = 'running' AND lease_until < now() AND " FITS
		       "  ORDER BY lease_until FOR UPDATE SKIP LOCKED LIMIT 1),"
		       " (SELECT id FROM jobs"
		       "  WHERE state = 'queued' AND " FITS
		       "  ORDER BY priority DESC, id FOR UPDATE SKIP LOCKED LIMIT 1))"
		       " RETURNING id, attempts, name, jobfile, array_to_json(sets),"
		       " iterations, label",
		       8, p, PGRES_TUPLES_OK, "cannot claim a job");
	free(tags);
	if (!res)
		return -1;
	rc = PQntuples(res) == 1;
	if (rc) {
		c->id = pg_col_int(res, 0, 0);
		c->attempt = atoi(PQgetvalue(res, 0, 1));
		c->name = xstrdup(PQgetvalue(res, 0, 2));
		c->jobfile = xstrdup(PQgetvalue(res, 0, 3));
		c->nsets = json_strings(PQgetvalue(res, 0, 4), &c->sets);
		c->iterations = pg_col_dup(res, 0, 5);
		c->label = pg_col_dup(res, 0, 6);
	}
	PQclear(res);
	return rc;
}

/*
 * Why job id is no longer attempt's, from its row: 1 with why set, or
 * -1 after error().
 */
static int not_ours(struct pg_store *s, const char *id, int attempt,
		    char *why, size_t len)
{
	const char *p[] = { id };
	PGresult *res = pg_query(s, "SELECT state, attempts, coalesce(agent, '?'),"
				 " coalesce(result_attempt, attempts)"
				 " FROM jobs WHERE id = $1::bigint",
				 1, p, PGRES_TUPLES_OK, "cannot read the job");
	const char *state;
	int att;

	if (!res)
		return -1;
	if (PQntuples(res) != 1) {
		snprintf(why, len, "it was deleted");
		PQclear(res);
		return 1;
	}
	state = PQgetvalue(res, 0, 0);
	att = atoi(PQgetvalue(res, 0, 1));
	if (!strcmp(state, "cancelled"))
		snprintf(why, len, "it was cancelled");
	else if (!strcmp(state, "done") || !strcmp(state, "failed"))
		snprintf(why, len, "attempt %s (%s) finished it (%s)",
			 PQgetvalue(res, 0, 3), PQgetvalue(res, 0, 2), state);
	else if (att != attempt)
		snprintf(why, len, "%s claimed it again (attempt %d)",
			 PQgetvalue(res, 0, 2), att);
	else
		snprintf(why, len, "it is %s again", state);
	PQclear(res);
	return 1;
}

static int pg_queue_heartbeat(struct store *base, int64_t id, int attempt,
			      unsigned lease_s, char *why, size_t len)
{
	struct pg_store *s = pg_of(base);
	char sid[24], att[16], lease[16];
	const char *p[] = { sid, att, lease };
	PGresult *res;
	int n;

	snprintf(sid, sizeof(sid), "%" PRId64, id);
	snprintf(att, sizeof(att), "%d", attempt);
	snprintf(lease, sizeof(lease), "%u", lease_s);
	res = pg_query(s, "UPDATE jobs SET lease_until = now() +"
		       " make_interval(secs => $3::integer)"
		       " WHERE id = $1::bigint AND attempts = $2::integer"
		       " AND state = 'running'",
		       3, p, PGRES_COMMAND_OK, "cannot renew the job's lease");
	if (!res)
		return -1;
	n = atoi(PQcmdTuples(res));
	PQclear(res);
	return n ? 0 : not_ours(s, sid, attempt, why, len);
}

static int pg_queue_finish(struct store *base, int64_t id, int attempt,
			   const char *agent, int exit_status,
			   const char *reason, json_t *doc, const char *origin,
			   char *why, size_t len)
{
	struct pg_store *s = pg_of(base);
	char sid[24], st[16], att[16];
	const char *uuid = NULL, *state;
	PGresult *res;
	int64_t run_id;

	snprintf(sid, sizeof(sid), "%" PRId64, id);
	/* whichever attempt finishes first is the result: it and its agent
	 * are recorded, whatever attempt claimed the job since */
	snprintf(att, sizeof(att), "%d", attempt);
	snprintf(st, sizeof(st), "%d", exit_status);
	if (pg_begin(s))
		return -1;
	{
		const char *p[] = { sid };

		res = pg_query(s, "SELECT state, coalesce(result_attempt, attempts),"
			       " coalesce(agent, '?') FROM jobs"
			       " WHERE id = $1::bigint FOR UPDATE",
			       1, p, PGRES_TUPLES_OK, "cannot lock the job");
	}
	if (!res)
		goto fail;
	if (PQntuples(res) != 1) {
		PQclear(res);
		pg_rollback(s);
		snprintf(why, len, "job %" PRId64 " was deleted", id);
		return 1;
	}
	state = PQgetvalue(res, 0, 0);
	if (!strcmp(state, "done") || !strcmp(state, "failed") ||
	    !strcmp(state, "cancelled")) {
		if (!strcmp(state, "cancelled"))
			snprintf(why, len, "it was cancelled");
		else
			snprintf(why, len, "attempt %s (%s) finished it first (%s)",
				 PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2),
				 state);
		PQclear(res);
		pg_rollback(s);
		return 1;
	}
	PQclear(res);
	if (doc) {
		uuid = json_string_value(json_object_get(json_object_get(doc, "run"),
							 "uuid"));
		if (pg_import_tx(s, doc, origin, true, &run_id) < 0)
			goto fail;
	}
	{
		const char *p[] = { sid, st, reason, uuid, agent, att };

		res = pg_query(s, "UPDATE jobs SET state = CASE WHEN $2::integer = 0"
			       " THEN 'done' ELSE 'failed' END, ended = now(),"
			       " exit_status = $2::integer, reason = $3,"
			       " run_uuid = $4, lease_until = NULL,"
			       " agent = $5, result_attempt = $6::integer"
			       " WHERE id = $1::bigint",
			       6, p, PGRES_COMMAND_OK, "cannot mark the job finished");
	}
	if (!res)
		goto fail;
	PQclear(res);
	if (pg_commit(s))
		goto fail;
	return 0;
fail:
	pg_rollback(s);
	return -1;
}

static int pg_queue_release(struct store *base, int64_t id, int attempt,
			    const char *agent, const char *reason, bool refuse)
{
	char sid[24], att[16];
	const char *p[] = { sid, att, agent, reason, refuse ? "t" : "f" };
	PGresult *res;

	snprintf(sid, sizeof(sid), "%" PRId64, id);
	snprintf(att, sizeof(att), "%d", attempt);
	res = pg_query(pg_of(base),
		       "UPDATE jobs SET state = 'queued', lease_until = NULL,"
		       " reason = $4, refused_by = CASE WHEN $5::boolean"
		       " THEN array_append(refused_by, $3::text) ELSE refused_by END"
		       " WHERE id = $1::bigint AND attempts = $2::integer"
		       " AND state = 'running'",
		       5, p, PGRES_COMMAND_OK, "cannot give the job back");
	PQclear(res);
	return res ? 0 : -1;
}

static bool pg_queue_connected(struct store *s)
{
	return PQstatus(pg_of(s)->conn) == CONNECTION_OK;
}

const struct queue_ops pg_queue_ops = {
	.connected = pg_queue_connected,
	.add = pg_queue_add,
	.agent_register = pg_queue_agent_register,
	.agent_seen = pg_queue_agent_seen,
	.claim = pg_queue_claim,
	.heartbeat = pg_queue_heartbeat,
	.finish = pg_queue_finish,
	.release = pg_queue_release,
	.list = pg_queue_list,
	.cancel = pg_queue_cancel,
	.retry = pg_queue_retry,
};
