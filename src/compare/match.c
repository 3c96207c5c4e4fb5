// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/match.c: whether two cases are the same experiment
 * (compare/match.h), the rule compare_build() and judge share.
 */
#include <string.h>

#include "compare/match.h"
#include "model/run.h"

struct case_key case_key_of(const struct run_case *c)
{
	return (struct case_key){ .job = c->job, .workload = c->workload,
				  .version = c->version, .params = c->params,
				  .sweep = c->sweep };
}

enum case_likeness case_likeness(const struct case_key *x,
				 const struct case_key *y, bool match_job)
{
	if (strcmp(x->job, y->job) || strcmp(x->workload, y->workload))
		return CASE_OTHER;
	if (match_job ? strcmp(x->sweep, y->sweep) : strcmp(x->params, y->params))
		return CASE_OTHER;
	return x->version == y->version ? CASE_SAME : CASE_VERSION;
}

const struct run_case *case_find(const struct run *r, const struct case_key *k,
				 bool match_job)
{
	for (size_t i = 0; i < r->ncases; i++) {
		struct case_key x = case_key_of(&r->cases[i]);

		if (case_likeness(&x, k, match_job) == CASE_SAME)
			return &r->cases[i];
	}
	return NULL;
}
