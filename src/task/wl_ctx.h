/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_ctx: the memory the harness shares with a workload process and all
 * its workers (task/task.h names it, struct wl_ctx): the failure reason
 * and its rank, the result, the probes' state. harness/supervise.c maps
 * and reads it; wl_ctx.c, instrument.c and task.c fill it inside the
 * workload process.
 */
#ifndef SCHEDLAB_WL_CTX_H
#define SCHEDLAB_WL_CTX_H

#include <stdatomic.h>

#include "probe/probe.h"
#include "task/task.h"

#define REASON_MAX 512
#define WL_OWNED_MAX 4		/* directories a run may own */
#define WL_OWNED_LEN 256

enum fail_rank {
	FAIL_NONE,
	FAIL_CONSEQUENCE,	/* a symptom of a peer's failure */
	FAIL_CAUSE,
};

/* Shared with the workload process and all its workers. */
struct wl_ctx {
	atomic_flag lock;	/* held while the reason is written */
	int failed;		/* enum fail_rank of the reason */
	char reason[REASON_MAX];
	struct wl_result result;
	long maxrss_kib;	/* of the workload process, at its end */

	/* probes (probe/probe.h); set up in the workload process */
	bool probes;		/* record them: set by the supervisor */
	bool perf;		/* perf's counters too */
	double probe[PM_N];	/* by enum probe_metric; NaN: not measured */
	uint64_t clock_t0;	/* wl_clock_start() */
	double clock_s;		/* the workload's timed region */
	uint64_t probe_end_ns;	/* the probes' own work at the end */
	struct probe_state *ps;
	/* threads done but not gone (workload/workload.h): wl_clock_stop() */
	struct tasks *lingering;
	struct hist *lat;	/* per-CPU latency histograms, shared */
	int nlat;
	struct cpu_topo topo;
	struct hist latency;	/* the per-CPU ones merged, at the end */

	/* wl_own_dir(): removed by the supervisor after the group is gone */
	char owned[WL_OWNED_MAX][WL_OWNED_LEN];
};

/* Records a failure of the given rank; see wl_fail(). */
void wl_fail_rank(struct wl_ctx *ctx, enum fail_rank rank, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));

#endif
