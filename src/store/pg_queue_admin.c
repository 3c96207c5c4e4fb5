// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_queue_admin.c: the PostgreSQL job queue as `schedlab queue`
 * tends it (pg_queue.c's ops table holds these): its jobs listed,
 * cancelled and retried.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg.h"
#include "store/queue.h"
#include "util.h"

int pg_queue_list(struct store *base, const char *state,
		  struct queue_row **rows, size_t *n)
{
	const char *p[] = { state };
	PGresult *res;
	struct queue_row *v;
	int nt;

	*rows = NULL;
	*n = 0;
	if (pg_of(base)->empty)		/* no writer has been there: no jobs */
		return 0;
	res = pg_query(pg_of(base),
		       "SELECT id, state, priority, name, label,"
		       " array_to_string(hosts, ','),"
		       " nullif(array_to_string(tags, ','), ''),"
		       " kernel, agent, attempts, run_uuid, reason,"
		       " needs_commands, needs_knobs, exit_status,"
		       " extract(epoch FROM lease_until - now()),"
		       " extract(epoch FROM created), extract(epoch FROM started),"
		       " extract(epoch FROM ended), coalesce(result_attempt, 0)"
		       " FROM jobs WHERE $1::text IS NULL OR state = $1::text"
		       " ORDER BY id",
		       1, p, PGRES_TUPLES_OK, "cannot list the jobs");
	if (!res)
		return -1;
	nt = PQntuples(res);
	v = xcalloc((size_t)nt + 1, sizeof(*v));
	for (int i = 0; i < nt; i++) {
		struct queue_row *r = &v[i];

		r->id = pg_col_int(res, i, 0);
		r->state = xstrdup(PQgetvalue(res, i, 1));
		r->priority = atoi(PQgetvalue(res, i, 2));
		r->name = xstrdup(PQgetvalue(res, i, 3));
		r->label = pg_col_dup(res, i, 4);
		r->hosts = pg_col_dup(res, i, 5);
		r->tags = pg_col_dup(res, i, 6);
		r->kernel = pg_col_dup(res, i, 7);
		r->agent = pg_col_dup(res, i, 8);
		r->attempts = atoi(PQgetvalue(res, i, 9));
		r->run_uuid = pg_col_dup(res, i, 10);
		r->reason = pg_col_dup(res, i, 11);
		r->needs_commands = *PQgetvalue(res, i, 12) == 't';
		r->needs_knobs = *PQgetvalue(res, i, 13) == 't';
		r->exit_status = PQgetisnull(res, i, 14) ? -1 :
				 atoi(PQgetvalue(res, i, 14));
		r->lease_left = strcmp(r->state, "running") ? NAN :
				pg_col_real(res, i, 15);
		r->created = pg_col_real(res, i, 16);
		r->started = pg_col_real(res, i, 17);
		r->ended = pg_col_real(res, i, 18);
		r->result_attempt = atoi(PQgetvalue(res, i, 19));
	}
	PQclear(res);
	*rows = v;
	*n = (size_t)nt;
	return 0;
}

/*
 * sql (an UPDATE of job $1 that changes it only in the states it
 * allows): 0 when it did, else 1 with why naming the state it is in.
 */
static int change_state(struct store *base, int64_t id, const char *sql,
			const char *what, char *why, size_t len)
{
	struct pg_store *s = pg_of(base);
	char sid[24];
	const char *p[] = { sid };
	PGresult *res;
	int n;

	snprintf(sid, sizeof(sid), "%" PRId64, id);
	res = pg_query(s, sql, 1, p, PGRES_COMMAND_OK, what);
	if (!res)
		return -1;
	n = atoi(PQcmdTuples(res));
	PQclear(res);
	if (n)
		return 0;
	res = pg_query(s, "SELECT state FROM jobs WHERE id = $1::bigint", 1, p,
		       PGRES_TUPLES_OK, "cannot read the job");
	if (!res)
		return -1;
	if (PQntuples(res))
		snprintf(why, len, "it is %s", PQgetvalue(res, 0, 0));
	else
		snprintf(why, len, "there is no such job");
	PQclear(res);
	return 1;
}

/* Cancel: a queued or running job ends cancelled. */
static const char cancel_sql[] =
	"UPDATE jobs SET state = 'cancelled',"
	" ended = now(), lease_until = NULL,"
	" reason = 'cancelled'"
	" WHERE id = $1::bigint AND state IN ('queued', 'running')";

/* Retry: a failed or cancelled job is queued again, its result gone. */
static const char retry_sql[] =
	"UPDATE jobs SET state = 'queued',"
	" ended = NULL, lease_until = NULL, exit_status = NULL,"
	" run_uuid = NULL"
	" WHERE id = $1::bigint AND state IN ('failed', 'cancelled')";

int pg_queue_cancel(struct store *s, int64_t id, char *why, size_t len)
{
	return change_state(s, id, cancel_sql, "cannot cancel the job", why, len);
}

int pg_queue_retry(struct store *s, int64_t id, char *why, size_t len)
{
	return change_state(s, id, retry_sql, "cannot retry the job", why, len);
}
