/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmtests: a job's summary in mmtests' layout - the rows Min, Amean (or
 * Hmean when higher is better), Stddev, CoeffVar, Max, BAmean-95, each
 * for every sweep value, as compare-kernels prints them.
 */
#ifndef SCHEDLAB_REPORT_MMTESTS_H
#define SCHEDLAB_REPORT_MMTESTS_H

#include <stddef.h>
#include <stdio.h>

#include "metric.h"
#include "stats/mmrows.h"
#include "stats/summary.h"

/* The samples of one case: its sweep value ("4", "" when unswept). */
struct sweep_samples {
	const char *sweep;
	const double *x;	/* NaNs are skipped */
	size_t n;
	const char *failed;	/* the reason, when the case failed */
};

/* The block, without the blank line that ends it (explanations may follow). */
void render_job_summary(FILE *f, const char *job, const char *sweep_keys,
			const struct metric_def *m,
			const struct sweep_samples *s, size_t ns);

#endif
