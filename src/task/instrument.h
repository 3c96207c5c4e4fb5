/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * instrument: what is done inside workers for the probes - a per-task
 * slot in shared memory, the CPU tracked message by message, and the
 * worker's own /proc counters read as it ends. task.c calls these around
 * every worker, supervise.c around run(); workloads only call
 * wl_message() and wl_latency() (task/task.h).
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
/*
 * At the start barrier, before the worker says it is ready: count from
 * here, not from the task's creation. Outside the timed region, so that
 * the time from the release to the first message is the same with the
 * probes on and off; what lies between here and the release is one write,
 * the sleep at the barrier (one voluntary switch) and the wait for a CPU
 * once released, which is the timed region's.
 */
void instrument_task_rebase(void);
/* After it returned success: moves counted, /proc counters read. */
void instrument_task_end(void);

/* In the workload process, around wl->run(). */
void instrument_setup(struct wl_ctx *ctx);
void instrument_finish(struct wl_ctx *ctx);

#endif
