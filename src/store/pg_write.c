// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_write.c: runs written into PostgreSQL (pg.h). STUB: to be
 * written (issue 16).
 */
#include "store/pg.h"
#include "util.h"

int pg_run_begin(struct store *base, const struct store_run *r, int64_t *id)
{
	(void)r; (void)id;
	return error("%s: not implemented yet", base->name);
}

int pg_run_end(struct store *base, int64_t id, const char *status,
	       double ended, json_t *environment)
{
	(void)id; (void)status; (void)ended; (void)environment;
	return error("%s: not implemented yet", base->name);
}

int pg_case_add(struct store *base, int64_t run_id, const struct store_case *c)
{
	(void)run_id; (void)c;
	return error("%s: not implemented yet", base->name);
}

int pg_import_tx(struct pg_store *s, json_t *doc, const char *origin,
		 bool once, int64_t *id)
{
	(void)doc; (void)origin; (void)once; (void)id;
	return error("%s: not implemented yet", s->base.name);
}

int pg_import(struct store *base, json_t *doc, const char *origin, bool once,
	      int64_t *id)
{
	return pg_import_tx(pg_of(base), doc, origin, once, id);
}
