/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * harness/result.h: the harness's results into the run model
 * (model/run.h), for `run`'s summary of what it has just measured, and
 * a case's options as the JSON object stored and exported with it.
 */
#ifndef SCHEDLAB_HARNESS_RESULT_H
#define SCHEDLAB_HARNESS_RESULT_H

#include "model/run.h"

struct plan_case;
struct case_result;
struct workload;

/* Every option of a workload by canonical name: {"groups": 4, ...}. */
json_t *json_parameters(const struct workload *wl, const void *cfg);

/*
 * Appends the case pc ran as res to r, whose metrics gain those of res
 * it lacked (the first to bring a name sets its metadata, as the store
 * does). Returns the new case, r->cases[r->ncases - 1]. Samples are
 * copied: res may be freed at once.
 */
struct run_case *run_case_from_result(struct run *r, const struct plan_case *pc,
				      const struct case_result *res);

#endif
