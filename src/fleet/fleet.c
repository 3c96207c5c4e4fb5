// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet.c: a queued job's plan (fleet/fleet.h), loaded as `run`
 * loads a job file - by `queue add` before it is queued, and by the
 * agent again before it runs it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fleet/fleet.h"
#include "harness/plan.h"
#include "util.h"

int fleet_job_plan(const char *who, const char *where, const char *text,
		    size_t len, const char *const *sets, size_t nsets,
		    const char *iterations, struct plan *p)
{
	struct plan_set *v = xcalloc(nsets + 2, sizeof(*v));
	char it[64];
	size_t k = 0;
	int rc;

	for (size_t i = 0; i < nsets; i++)
		v[k++].text = sets[i];
	if (iterations) {
		snprintf(it, sizeof(it), "iterations=%.40s", iterations);
		v[k].text = it;
		v[k++].origin = "--iterations";
	}
	rc = plan_load_text_sets(where, where, text, len, v, k, p);
	free(v);
	if (!rc && p->nvariants) {
		error("%s: %s has [variant:...] sections; ab jobs cannot be queued",
		      who, where);
		plan_free(p);
		return -1;
	}
	return rc;
}
