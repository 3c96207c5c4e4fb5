/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/hosts.h: compare BASE CAND --by host's pairs - on each host,
 * the run each label stands for there (store_resolve()'s rule: the
 * latest complete one with cases, else ...), with the comparison
 * cmd/compare_hosts.c builds of them and report/compare_by_host.c
 * renders.
 */
#ifndef SCHEDLAB_COMPARE_HOSTS_H
#define SCHEDLAB_COMPARE_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/compare.h"
#include "model/run.h"
#include "store/store.h"

/* One host: the run each label stands for there (-1: none). */
struct cmp_host {
	const char *host;	/* borrowed from the run list */
	int64_t id[2];
	int rank[2];		/* how well each stands for its label (host_pairs.c) */
	struct run run[2];
	struct comparison c;
	bool built;
	char topology[128];
};

/*
 * The hosts with a run labelled labels[0] or labels[1] (runs newest
 * first, as store_runs() gives them), by name, each with the run of
 * each label that the label stands for there; runs without a host are
 * left out. *n of them, malloc'd.
 */
struct cmp_host *cmp_hosts_find(const struct store_run_info *runs,
				size_t nruns, const char *const labels[2],
				size_t *n);

#endif
