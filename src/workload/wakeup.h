/* SPDX-License-Identifier: GPL-2.0-only */
/* wakeup: schbench's wakeup and request latency. */
#ifndef SCHEDLAB_WAKEUP_H
#define SCHEDLAB_WAKEUP_H

#include <stdbool.h>
#include <stdio.h>

#include "probe/cpus.h"
#include "stats/hist.h"
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
	bool locking;			/* off: -L, no per-CPU lock */
	unsigned split;			/* --split: % of -F private per worker */
	const char *message_cpus;	/* -M: cpulist, auto, or none */
	const char *worker_cpus;	/* -W: cpulist, auto, or none */
	unsigned interval;		/* -i: seconds between reports, 0: none */
	const char *json;		/* -j: schbench's JSON to this file, -: stdout */
	const char *jobname;		/* -J: in that JSON */
	unsigned pipe_bytes;		/* -p: pipe mode's transfer size, 0: off */
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
	WK_WAKE_P20,			/* pipe mode's extra percentile */
	WK_WAKE_P20_N,			/* samples at or below it */
	WK_PIPE_OPS,			/* pipe mode: hand-offs/s per worker */
	WK_PIPE_BPS,			/* pipe mode: bytes/s per worker */
	WK_NMETRICS,
};

/* The percentiles of each block, as schbench lists them. */
extern const double wakeup_lat_pct[WK_NPCT];
extern const double wakeup_rps_pct[RPS_NPCT];
/* The metric table (wakeup_metrics.c), WK_NMETRICS entries and its end. */
extern const struct metric_def wakeup_metrics[];

/*
 * schbench's -M / -W (wakeup_place.c): message thread i on the i-th CPU
 * of msg (round robin), every worker on all of wk. "auto" (either one):
 * the message threads on the first allowed CPUs, one each, the workers
 * on the allowed CPUs left.
 */
struct wakeup_place {
	bool pin_msg, pin_wk;
	int nmsg;			/* CPUs in msg */
	struct cpumask msg, wk;
};

/* Fills p from cfg; -1 after saying which option is wrong and why. */
int wakeup_place(const struct wakeup_cfg *cfg, struct wakeup_place *p);
/* Pins the calling thread: 0, or -1 with errno. */
int wakeup_pin_message(const struct wakeup_place *p, unsigned index);
int wakeup_pin_worker(const struct wakeup_place *p);

/*
 * schbench's -j JSON (wakeup_json.c) from the merged histograms (NULL
 * latencies: --record off): to cfg->json, "-" for stdout. 0, or -1 after
 * saying why.
 */
int wakeup_write_json(const struct wakeup_cfg *cfg, const struct hist *wlat,
		      const struct hist *rlat, const struct hist *rps);

/* schbench's text format (wakeup_text.c). */
extern const struct text_format wakeup_formats[];

/*
 * schbench's three blocks and "average rps" (or, for the interval
 * reports, "current rps") for a run of runtime seconds.
 */
void wakeup_print_blocks(FILE *f, unsigned runtime, const struct wl_result *r,
			 const char *rps_line, double rps);

/*
 * A run's threads and what they share (wakeup.c sets them up,
 * wakeup_thread.c runs them).
 */
enum { WK_BLOCKED = 0, WK_RUNNING = 1 };

struct wk_msg;

struct wk_worker {
	uint32_t futex;			/* WK_BLOCKED / WK_RUNNING */
	struct wk_worker *next;		/* on its message thread's list */
	uint64_t wake_ns;		/* stamped by the message thread */
	uint64_t requests;		/* served while measuring */
	struct wk_msg *msg;
	struct wk_shared *sh;
	unsigned long *mat;		/* three N x N matrices */
	unsigned char *page;		/* -p: the "transfer" buffer */
	struct hist *wlat, *rlat;
} __attribute__((aligned(64)));

struct wk_msg {
	uint32_t futex;
	struct wk_worker *head;		/* waiting workers, pushed with CAS */
	struct wk_shared *sh;
	unsigned index;
} __attribute__((aligned(64)));

/* A per-CPU lock on its own cache line. */
struct wk_lock {
	int held;
} __attribute__((aligned(64)));

struct wk_shared {
	const struct wakeup_cfg *cfg;
	struct wl_ctx *ctx;
	struct barrier barrier;
	int stop;			/* set once: everyone leaves */
	int measuring;			/* past the warm-up */
	bool stamp;			/* record latencies (and stamp) */
	bool probing;
	unsigned matrix_n;		/* each worker's own matrices */
	unsigned shared_n;		/* --split: everyone's, 0: none */
	unsigned long *shared_mat;
	unsigned ops_private, ops_shared;
	const struct wakeup_place *place;
	uint64_t pace_ns;		/* -R: each worker's interval; 0: closed loop */
	int nlocks;
	struct wk_lock *locks;
};

/* wakeup_thread.c: the two kinds of thread (task_fn), and a sleep to an
 * absolute CLOCK_MONOTONIC time. */
int wakeup_worker_main(void *arg);
int wakeup_message_main(void *arg);
void wakeup_sleep_until(uint64_t ns);

#endif
