/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_exec: the executor behind `schedlab run` and `judge` - the cases
 * of a plan and of the plans run beside it (struct run_variant),
 * interleaved round by round, adaptive cases looked at as they go
 * (stats/sequential.h), each plan's run stored case by case with the
 * machine's description, the run's own summary printed job by job.
 */
#ifndef SCHEDLAB_CMD_RUN_EXEC_H
#define SCHEDLAB_CMD_RUN_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"
#include "harness/plan.h"

/*
 * Runs plans[0] (the run) and plans[1..nplans) (rq->variants, in order;
 * every plan has the same cases) into db. *run_id: the run's id, -1
 * when none was begun; rq->variant_ids the others'. Returns run's exit
 * code.
 */
int run_execute(struct plan *plans, size_t nplans, const struct run_request *rq,
		const char *db, int64_t *run_id);

/*
 * How the reason of a side's case begins (after "stopped after N
 * iterations: ") when it failed because another side did, the name of
 * that side ("the run" for the run itself) after it.
 */
#define RUN_EXEC_OTHER_FAILED "the case failed on"

/* "m:ss" or "h:mm:ss". */
void fmt_dur(char *buf, size_t len, double s);

#endif
