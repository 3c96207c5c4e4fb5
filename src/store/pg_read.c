// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/pg_read.c: runs read from PostgreSQL (pg.h). STUB: to be
 * written (issue 16).
 */
#include "store/pg.h"
#include "util.h"

int pg_resolve(struct store *base, const char *spec, int64_t *id)
{
	(void)spec; (void)id;
	return error("%s: not implemented yet", base->name);
}

int pg_find_uuid(struct store *base, const char *uuid, int64_t *id)
{
	(void)uuid; (void)id;
	return error("%s: not implemented yet", base->name);
}

int pg_runs(struct store *base, struct store_run_info **runs, size_t *n)
{
	(void)runs; (void)n;
	return error("%s: not implemented yet", base->name);
}

int pg_ab_runs(struct store *base, const char *ab, struct store_ab_run **runs,
	       size_t *n)
{
	(void)ab; (void)runs; (void)n;
	return error("%s: not implemented yet", base->name);
}

int pg_load(struct store *base, int64_t id, struct run *r)
{
	(void)id; (void)r;
	return error("%s: not implemented yet", base->name);
}

int pg_estimate(struct store *base, const char *workload, unsigned version,
		const char *params, double *secs)
{
	(void)base; (void)workload; (void)version; (void)params; (void)secs;
	return 0;
}

int pg_history(struct store *base, const char *label, const char *host,
	       const char *workload, unsigned version, const char *params,
	       const char *metric, unsigned max,
	       void (*fn)(void *arg, const double *x, size_t n), void *arg)
{
	(void)base; (void)label; (void)host; (void)workload; (void)version;
	(void)params; (void)metric; (void)max; (void)fn; (void)arg;
	return 0;
}
