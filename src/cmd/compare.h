/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/cmd: compare_build() matches the cases of a baseline
 * and its candidates (export documents) and fills a comparison
 * (report/compare.h) with summaries, tests, verdicts and the scheduler
 * metrics that moved. compare and judge both use it.
 */
#ifndef SCHEDLAB_CMD_COMPARE_H
#define SCHEDLAB_CMD_COMPARE_H

#include <jansson.h>
#include <stdbool.h>

#include "report/compare.h"

struct store;

/*
 * docs[0] is the baseline; specs[] are the RUN arguments as given (for
 * names and messages). match_job: match cases by job and sweep values
 * only, noting parameters that differ (default: by job, workload and
 * every parameter). st (may be NULL): the store whose earlier runs of
 * each case on the baseline's host give its run-to-run noise
 * (stats/tests.h). -1 after error() when no case can be compared, the
 * message saying what does not match. c borrows strings from docs.
 */
int compare_build(json_t *const *docs, const char *const *specs,
		  size_t nruns, const struct cmp_opts *o, bool match_job,
		  struct store *st, struct comparison *c);
void compare_free(struct comparison *c);

#endif
