/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_order: the order of `schedlab history`'s series
 * (report/history.h): by start time as the store gives them, by the
 * kernel release in version order (strverscmp), or by the label as a
 * commit of a git repository in `git rev-list --topo-order --reverse
 * HEAD` order (git run without a shell). Runs that have no place in the
 * order are left out and named once.
 */
#ifndef SCHEDLAB_CMD_HISTORY_ORDER_H
#define SCHEDLAB_CMD_HISTORY_ORDER_H

#include "report/history.h"

/* What the order owns: the repository's commits, which runs point into. */
struct history_order {
	char *text;		/* git's output */
	char **commits;		/* in rev-list order */
	size_t n;
	size_t *sorted;		/* indexes of commits[], by hash */
};

/*
 * Orders h's series by h->by (repo: --by commit's repository, NULL: the
 * current directory). -1 after error() when git fails or no run is left.
 */
int history_order(struct history *h, const char *repo, struct history_order *ord);
void history_order_free(struct history_order *ord);

/*
 * The SUITE or JOBFILE argument of the `schedlab run` that stored c's
 * run, from its command line ("quick" when it had none); NULL when the
 * run was not stored by run. Malloc'd.
 */
char *history_judge_spec(const struct store_series_case *c);

#endif
