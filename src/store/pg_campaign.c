// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_campaign.c: PostgreSQL's table of campaigns (store.h), as
 * SQLite's (sqlite_campaign.c): a campaign's name and its state, one
 * JSON document replaced whole by one statement in one transaction - a
 * machine that dies around the commit leaves the old document or the
 * new one. A fleet's lab machine keeps its campaign where its runs go,
 * so that a reinstalled disk loses neither.
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg.h"
#include "util.h"

int pg_campaign_get(struct store *base, const char *name, json_t **doc)
{
	struct pg_store *s = pg_of(base);
	char *n = xstrdup_utf8(name);
	const char *params[] = { n };
	json_error_t je;
	PGresult *res;
	int rc = 0;

	if (s->empty) {		/* read-only, no schema yet: no campaign */
		free(n);
		return 0;
	}
	res = pg_query(s, "SELECT state FROM campaigns WHERE name = $1", 1,
		       params, PGRES_TUPLES_OK, "cannot read a campaign");
	if (!res) {
		free(n);
		return -1;
	}
	if (PQntuples(res) == 1) {
		*doc = json_loads(PQgetvalue(res, 0, 0), 0, &je);
		rc = *doc ? 1 : error("%s: campaign '%s': its state is not JSON (%s)",
				      s->base.name, name, je.text);
	}
	PQclear(res);
	free(n);
	return rc;
}

int pg_campaign_put(struct store *base, const char *name, const json_t *doc,
		    bool create)
{
	struct pg_store *s = pg_of(base);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	char *n = xstrdup_utf8(name);
	const char *params[] = { n, text };
	PGresult *res = NULL;
	int rc = -1;

	if (!text) {
		error("%s: campaign '%s': cannot encode its state", s->base.name,
		      name);
		goto out;
	}
	if (pg_begin_write(s))
		goto out;
	res = pg_query(s, create ?
		       "INSERT INTO campaigns (name, state) VALUES ($1, $2)"
		       " ON CONFLICT (name) DO NOTHING" :
		       "UPDATE campaigns SET state = $2, updated = now()"
		       " WHERE name = $1", 2, params, PGRES_COMMAND_OK,
		       "cannot write a campaign");
	if (!res) {
		pg_rollback(s);
		goto out;
	}
	if (!strcmp(PQcmdTuples(res), "0")) {
		pg_rollback(s);
		rc = create ? 1 : error("%s: no campaign '%s' that this login may write (a campaign is its starter's: another machine's login changes none of it)",
					s->base.name, name);
		goto out;
	}
	rc = pg_commit(s) ? -1 : 0;
	if (rc)
		pg_rollback(s);
out:
	if (res)
		PQclear(res);
	free(text);
	free(n);
	return rc;
}

int pg_campaign_names(struct store *base, char ***names, size_t *n)
{
	struct pg_store *s = pg_of(base);
	PGresult *res;

	if (s->empty)
		return 0;
	res = pg_query(s, "SELECT name FROM campaigns ORDER BY created, name", 0,
		       NULL, PGRES_TUPLES_OK, "cannot list the campaigns");
	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res); i++) {
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = xstrdup(PQgetvalue(res, i, 0));
	}
	PQclear(res);
	return 0;
}
