// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/host_pairs.c: the run each label stands for on each host
 * (compare/hosts.h), for compare --by host.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/hosts.h"
#include "util.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cmp_host *)a)->host,
		      ((const struct cmp_host *)b)->host);
}

/*
 * How well a run stands for its label (store_resolve()'s rule): 2
 * complete with cases, 1 with cases, 0 without.
 */
static int label_rank(const struct store_run_info *r)
{
	if (!r->cases)
		return 0;
	return r->status && !strcmp(r->status, "complete") ? 2 : 1;
}

struct cmp_host *cmp_hosts_find(const struct store_run_info *runs,
				size_t nruns, const char *const labels[2],
				size_t *n)
{
	struct cmp_host *h = xcalloc(nruns ? nruns : 1, sizeof(*h));

	*n = 0;
	for (size_t i = 0; i < nruns; i++) {
		const struct store_run_info *r = &runs[i];
		size_t k;
		int which;

		if (!r->host || !r->label)
			continue;
		if (!strcmp(r->label, labels[0]))
			which = 0;
		else if (!strcmp(r->label, labels[1]))
			which = 1;
		else
			continue;
		for (k = 0; k < *n && strcmp(h[k].host, r->host); k++)
			;
		if (k == *n)
			h[(*n)++] = (struct cmp_host){ .host = r->host,
							.id = { -1, -1 } };
		if (h[k].id[which] < 0 || label_rank(r) > h[k].rank[which]) {
			h[k].id[which] = r->id;
			h[k].rank[which] = label_rank(r);
		}
	}
	qsort(h, *n, sizeof(*h), by_name);
	return h;
}
