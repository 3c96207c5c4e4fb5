// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/mmtests.c: a job's summary block in mmtests' layout (its rows
 * are stats/mmrows.h's).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/mmtests.h"
#include "stats/summary.h"
#include "util.h"

void render_job_summary(FILE *f, const char *job, const char *sweep_keys,
			const struct metric_def *m,
			const struct sweep_samples *s, size_t ns)
{
	struct summary *sum = xcalloc(ns, sizeof(*sum));
	bool *ok = xcalloc(ns, sizeof(*ok));
	int w = 4;

	for (size_t i = 0; i < ns; i++) {
		double *x = xcalloc(s[i].n + 1, sizeof(double));
		size_t n = 0;
		int len = (int)strlen(s[i].sweep);

		for (size_t k = 0; k < s[i].n; k++)
			if (!isnan(s[i].x[k]))
				x[n++] = s[i].x[k];
		/* a failed case's iterations before it failed: no statistic */
		ok[i] = n && !s[i].failed && !summarize(x, n, m->better, &sum[i]);
		free(x);
		if (len > w)
			w = len;
	}
	fprintf(f, "%s%s%s: %s, %s (%s is better)\n", job,
		*sweep_keys ? " by " : "", sweep_keys, m->name, m->unit,
		better_word(m->better));
	for (int row = 0; row < MM_NROWS; row++) {
		for (size_t i = 0; i < ns; i++) {
			const char *l = mm_row_label(row, m->better == BETTER_HIGHER);
			const char *sw = *s[i].sweep ? s[i].sweep : "-";

			if (ok[i])
				fprintf(f, "%-9s %-*s %12.4f\n", l, w, sw,
					mm_row_value(&sum[i], row));
		}
	}
	/* the cases without statistics after every row of those with them */
	for (size_t i = 0; i < ns; i++)
		if (!ok[i])
			fprintf(f, "%-9s %-*s %s\n", "Failed", w,
				*s[i].sweep ? s[i].sweep : "-",
				s[i].failed ? s[i].failed : "no samples");
	free(sum);
	free(ok);
}
