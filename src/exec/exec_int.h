/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of exec/ share. Not for use outside exec/.
 */
#ifndef SCHEDLAB_EXEC_INT_H
#define SCHEDLAB_EXEC_INT_H

#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "harness/plan.h"

/*
 * engine.c: runs plans[0] (the run) and plans[1..nplans) (rq->variants,
 * in order; every plan has the same cases) into db. *run_id: the run's
 * id, -1 when none was begun; rq->variant_ids the others'. Returns
 * run's exit code.
 */
int exec_plans(struct plan *plans, size_t nplans, const struct run_request *rq,
	       const char *db, int64_t *run_id);

/* "m:ss" or "h:mm:ss". */
void fmt_dur(char *buf, size_t len, double s);

#endif
