/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model/result.h: the harness's results into the run model (run.h), for
 * `run`'s summary of what it has just measured.
 */
#ifndef SCHEDLAB_MODEL_RESULT_H
#define SCHEDLAB_MODEL_RESULT_H

#include "model/run.h"

struct plan_case;
struct case_result;

/*
 * Appends the case pc ran as res to r, whose metrics gain those of res
 * it lacked (the first to bring a name sets its metadata, as the store
 * does). Returns the new case, r->cases[r->ncases - 1]. Samples are
 * copied: res may be freed at once.
 */
struct run_case *run_case_from_result(struct run *r, const struct plan_case *pc,
				      const struct case_result *res);

#endif
