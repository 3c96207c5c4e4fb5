// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/mmtests.h"
#include "stats/summary.h"
#include "util.h"

static const char *const label[MM_NROWS] = {
	"Min", "Amean", "Stddev", "CoeffVar", "Max", "BAmean-95",
};

const char *mm_row_label(int row, bool hmean)
{
	return row == MM_MEAN && hmean ? "Hmean" : label[row];
}

int mm_rows_parse(const char *list, unsigned *mask, char *bad, size_t badlen)
{
	const char *p = list;
	char name[64];

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int row = -1;

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		for (int r = 0; r < MM_NROWS; r++)
			if (!strcasecmp(name, label[r]))
				row = r;
		if (!strcasecmp(name, "hmean") || !strcasecmp(name, "mean"))
			row = MM_MEAN;
		if (row < 0) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -1;
		}
		*mask |= 1u << row;
		p += len + (p[len] == ',');
	}
	if (!*mask) {
		snprintf(bad, badlen, "%s", list);
		return -1;
	}
	return 0;
}

double mm_row_value(const struct summary *s, int row)
{
	switch (row) {
	case MM_MIN: return s->min;
	case MM_MEAN: return s->mean;
	case MM_SD: return s->stddev;
	case MM_COV: return s->coeffvar;
	case MM_MAX: return s->max;
	default: return s->bamean95;
	}
}

double mm_row_pct(int row, double base, double new, enum better dir)
{
	/* a smaller spread is better, whatever the metric's direction */
	return stats_pct_better(base, new, row == MM_SD || row == MM_COV ?
				BETTER_LOWER : dir);
}

double mm_row_pt(int row, double base, double new, enum better dir)
{
	if (row == MM_SD || row == MM_COV || dir == BETTER_LOWER)
		return base - new;
	return new - base;
}

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
