// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_jobfile: a job file (harness/plan.h) read and expanded from
 * memory by plan_load_text(), the path every job file and built-in
 * suite takes; the plan it makes, if any, is freed. $ncpu is fixed at
 * 4 so that a sweep of $ncpu expands the same on every machine.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "harness/plan.h"
#include "harness/plan_int.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan p;

	setenv("SCHEDLAB_NCPU", "4", 0);
	error_mute(1);
	if (!plan_load_text("fuzz.job", "fuzz.job", (const char *)data, size,
			    NULL, 0, &p))
		plan_free(&p);
	error_mute(0);
	return 0;
}
