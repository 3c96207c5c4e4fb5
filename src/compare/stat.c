// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/stat.c: the statistic --stat names (compare/compare.h) of a
 * compared cell or of samples, each from src/stats/, and its label as
 * mmtests spells the row: what the wide, grid, raw and workload layouts
 * and show's tables print.
 */
#include <math.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "util.h"

const char *const cmp_stat_names[] = {
	"mean", "amean", "hmean", "gmean", "median", "min", "max", "stddev",
	"coeffvar", "bamean95", NULL,
};

const char *cmp_stat_label(int stat, const struct cmp_job *j)
{
	static const char *const label[] = {
		NULL, "Amean", "Hmean", "Gmean", "Median", "Min", "Max",
		"Stddev", "CoeffVar", "BAmean-95",
	};

	if (stat == STAT_MEAN)
		return mm_row_label(MM_MEAN, j->metric.better == BETTER_HIGHER);
	return label[stat];
}

double cmp_cell_stat(const struct cmp_cell *cell, int stat)
{
	double *x, v = NAN;
	size_t n = 0;
	int rc = -1;

	switch (stat) {
	case STAT_MEAN: return cell->s.mean;
	case STAT_MEDIAN: return cell->s.median;
	case STAT_MIN: return cell->s.min;
	case STAT_MAX: return cell->s.max;
	case STAT_SD: return cell->s.stddev;
	case STAT_COV: return cell->s.coeffvar;
	case STAT_BAMEAN: return cell->s.bamean95;
	}
	x = xcalloc(cell->n + 1, sizeof(*x));
	for (size_t i = 0; i < cell->n; i++)
		if (isfinite(cell->x[i]))
			x[n++] = cell->x[i];
	if (stat == STAT_AMEAN)
		rc = stats_amean(x, n, &v);
	else if (stat == STAT_HMEAN)
		rc = stats_hmean(x, n, &v);
	else if (stat == STAT_GMEAN)
		rc = stats_gmean(x, n, &v);
	free(x);
	return rc ? NAN : v;
}

double cmp_samples_stat(const double *x, size_t n, enum better dir, int stat)
{
	struct cmp_cell cell = { .x = x, .n = n };
	double *y = xcalloc(n + 1, sizeof(*y)), v;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			y[m++] = x[i];
	cell.ok = !summarize(y, m, dir, &cell.s);
	v = cell.ok ? cmp_cell_stat(&cell, stat) : NAN;
	free(y);
	return v;
}
