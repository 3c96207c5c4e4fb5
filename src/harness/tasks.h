/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tasks: the workers of one workload run - forked processes or pthreads -
 * created, released together through hackbench's start barrier, reaped,
 * and killed together when one of them fails.
 *
 * Runs inside the workload process (see supervise.h). A process worker
 * dies with the workload process (PR_SET_PDEATHSIG) and exits 0. A worker
 * that fails (its function returns non-zero after wl_fail()) takes the
 * whole run down at once - a process kills its group, a thread calls
 * _exit(1) - since its peers would otherwise wait for it forever. The
 * supervisor then reaps the group, and the reason recorded with wl_fail()
 * is what the user reads.
 */
#ifndef SCHEDLAB_TASKS_H
#define SCHEDLAB_TASKS_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

struct wl_ctx;

enum task_mode {
	TASK_PROCESS,
	TASK_THREAD,
};

typedef int (*task_fn)(void *arg);

struct task_slot {
	task_fn fn;
	void *arg;
	struct wl_ctx *ctx;
	union {
		pid_t pid;
		pthread_t thread;
	};
};

struct tasks {
	enum task_mode mode;
	unsigned n, cap;
	struct task_slot *slot;
	pthread_attr_t attr;
	struct wl_ctx *ctx;
	pid_t self;
};

/*
 * cap workers at most; stack_extra: bytes a thread worker keeps on its
 * stack beyond the usual (its message buffer), so thread stacks are sized
 * for it instead of overflowing as hackbench's do at large -s.
 */
int tasks_init(struct tasks *t, enum task_mode mode, unsigned cap,
	       size_t stack_extra, struct wl_ctx *ctx);
/* Starts fn(arg) in a new worker. */
int tasks_spawn(struct tasks *t, task_fn fn, void *arg);
/*
 * Waits for every worker: -1 after wl_fail() if one failed, in which case
 * every other worker has been killed.
 */
int tasks_reap(struct tasks *t);
void tasks_free(struct tasks *t);

/*
 * hackbench's start barrier: each worker writes one byte to ready_out and
 * polls wakefd; the main side reads one byte per worker, takes the start
 * time and writes one byte to the wake channel, which nobody reads, so
 * every poller wakes at once.
 */
struct barrier {
	int ready[2];	/* [0] main reads, [1] workers write */
	int wake[2];	/* [0] workers poll, [1] main writes */
};

int barrier_worker(const struct barrier *b, struct wl_ctx *ctx);
int barrier_wait_ready(const struct barrier *b, unsigned n, struct wl_ctx *ctx);
int barrier_release(const struct barrier *b, struct wl_ctx *ctx);

#endif
