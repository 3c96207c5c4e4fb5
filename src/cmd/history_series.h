/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_series.h: history's model from the store's answer
 * (history_series.c): history.c groups, orders (history_order.h) and
 * summarises, then detects the change points and renders.
 */
#ifndef SCHEDLAB_CMD_HISTORY_SERIES_H
#define SCHEDLAB_CMD_HISTORY_SERIES_H

#include "report/history.h"
#include "store/store.h"

/* The cases of ss into h, one series per case identity, in first-seen order. */
void history_group(const struct store_series *ss, struct history *h);

/*
 * Each run of h's series summarised (median, quartiles, min, max), and
 * the settings its runs differ in, which runs have which.
 */
void history_summarise(struct history *h);

#endif
