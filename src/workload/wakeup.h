/* SPDX-License-Identifier: GPL-2.0-only */
/* wakeup: schbench's wakeup and request latency. */
#ifndef SCHEDLAB_WAKEUP_H
#define SCHEDLAB_WAKEUP_H

#include <stdbool.h>

#include "workload/workload.h"

struct wakeup_cfg {
	unsigned message_threads;	/* -m */
	unsigned workers;		/* -t, per message thread; 0: CPUs / -m */
	unsigned runtime;		/* -r, seconds */
	unsigned warmup;		/* -w, seconds */
	unsigned sleep_us;		/* -s */
	unsigned footprint_kb;		/* -F */
	unsigned operations;		/* -n */
	unsigned rps;			/* -R, 0: closed loop */
	bool record;			/* stamp and record latencies */
};

/*
 * The three blocks schbench prints, each as percentile values, the
 * samples each percentile line covers, min, max and the total.
 */
enum { WK_P50, WK_P90, WK_P99, WK_P999, WK_NPCT };
enum { RPS_P20, RPS_P50, RPS_P90, RPS_NPCT };

enum {
	WK_WAKE_P = 0,			/* + WK_P50..WK_P999 */
	WK_WAKE_MIN = WK_WAKE_P + WK_NPCT,
	WK_WAKE_MAX,
	WK_WAKE_N,
	WK_WAKE_LINE_N,			/* + WK_P50..WK_P999 */
	WK_REQ_P = WK_WAKE_LINE_N + WK_NPCT,
	WK_REQ_MIN = WK_REQ_P + WK_NPCT,
	WK_REQ_MAX,
	WK_REQ_N,
	WK_REQ_LINE_N,
	WK_RPS_P = WK_REQ_LINE_N + WK_NPCT,	/* + RPS_P20..RPS_P90 */
	WK_RPS_MIN = WK_RPS_P + RPS_NPCT,
	WK_RPS_MAX,
	WK_RPS_N,
	WK_RPS_LINE_N,
	WK_RPS_AVG = WK_RPS_LINE_N + RPS_NPCT,
	WK_REQUESTS,
	WK_NMETRICS,
};

/* The percentiles of each block, as schbench lists them. */
extern const double wakeup_lat_pct[WK_NPCT];
extern const double wakeup_rps_pct[RPS_NPCT];

/* schbench's text format (wakeup_text.c). */
extern const struct text_format wakeup_formats[];

#endif
