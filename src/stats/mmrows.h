/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats/mmrows.h: mmtests' summary rows - Min, Amean (or Hmean when
 * higher is better), Stddev, CoeffVar, Max, BAmean-95 - as numbers: each
 * row's value from a summary (stats/summary.h) and mmtests' percentage
 * against a baseline, for the comparison (src/compare/) and the blocks
 * report/mmtests.h prints.
 */
#ifndef SCHEDLAB_STATS_MMROWS_H
#define SCHEDLAB_STATS_MMROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "metric.h"
#include "stats/summary.h"

/* The rows, in mmtests' order. */
enum mm_row { MM_MIN, MM_MEAN, MM_SD, MM_COV, MM_MAX, MM_BAMEAN, MM_NROWS };

/* "Min", "Amean" (or "Hmean" when hmean), "Stddev", ... */
const char *mm_row_label(int row, bool hmean);
double mm_row_value(const struct summary *s, int row);
/*
 * A --rows list ("Amean,Stddev"; any case; Amean, Hmean and Mean all
 * name the mean row) into a mask of 1 << enum mm_row. -1 with the
 * first name that is no row in bad[len] (empty: the list is).
 */
int mm_rows_parse(const char *list, unsigned *mask, char *bad, size_t len);
/* The names mm_rows_parse() takes, for a message: "Min, Amean, ...". */
#define MM_ROW_NAMES "Min, Amean (or Hmean, Mean), Stddev, CoeffVar, Max, BAmean-95"

/*
 * mmtests' percentage beside a row's value: positive is better. For
 * higher is better new/base*100 - 100, for lower 100 - new/base*100;
 * Stddev and CoeffVar always as lower. 0 when both are 0; NaN when only
 * base is 0 or either is NaN (printed as n/a, never as a number).
 */
double mm_row_pct(int row, double base, double new, enum better dir);
/*
 * The same for a metric that is itself a percentage (unit "%"): the
 * difference in points, positive is better (a percentage of a
 * percentage reads as nonsense: +63803% for 0.01% -> 6.4%).
 */
double mm_row_pt(int row, double base, double new, enum better dir);

#endif
