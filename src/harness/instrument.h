/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * instrument: what the harness does inside workers for the probes - a
 * per-task slot in shared memory, the CPU tracked message by message,
 * and the worker's own /proc counters read as it ends. tasks.c calls
 * these around every worker; workloads only call wl_message() and
 * wl_latency() (workload.h).
 */
#ifndef SCHEDLAB_INSTRUMENT_H
#define SCHEDLAB_INSTRUMENT_H

#include <stdbool.h>

#include "probe/probe.h"

struct wl_ctx;

/*
 * Before a worker's function: where its counters go (NULL: probes off).
 * A new process or thread starts from zero; a worker that is the
 * workload process itself (inline) takes a baseline now. A worker with a
 * file table of its own (own_fds: a process) keeps its /proc files open
 * from here to its end; threads, which share one table with thousands of
 * others and the workload's own descriptors, open them at each read.
 */
void instrument_task_begin(struct task_probe *slot, bool inline_worker,
			   bool own_fds);
/* Past the start barrier: count from here, not from the task's creation. */
void instrument_task_rebase(void);
/* After it returned success: moves counted, /proc counters read. */
void instrument_task_end(void);

/* In the workload process, around wl->run(). */
void instrument_setup(struct wl_ctx *ctx);
void instrument_finish(struct wl_ctx *ctx);

#endif
