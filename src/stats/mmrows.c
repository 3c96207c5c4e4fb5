// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats/mmrows.c: mmtests' summary rows (stats/mmrows.h): their names,
 * a --rows list, each row's value from a summary and the percentage or
 * points beside it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stats/mmrows.h"
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
