/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * task: what a workload calls inside its workload process - the result
 * it fills, the failure it records (wl_fail(), task/wl_ctx.c), its clock
 * and the probes' per-message calls (task/instrument.c), and its
 * workers and their start barrier (task/task.c). The harness forks the
 * workload process and maps the memory these write (struct wl_ctx,
 * task/wl_ctx.h); a workload includes this through workload/workload.h.
 */
#ifndef SCHEDLAB_TASK_H
#define SCHEDLAB_TASK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WL_MAX_METRICS 48

/* Values by index into the workload's metric table. */
struct wl_result {
	double value[WL_MAX_METRICS];
	bool have[WL_MAX_METRICS];
};

static inline void wl_set(struct wl_result *r, int idx, double v)
{
	r->value[idx] = v;
	r->have[idx] = true;
}

/* The memory shared with the harness (task/wl_ctx.h). */
struct wl_ctx;

/*
 * Records why the run failed and returns -1. Safe to call from any
 * worker, process or thread. The first reason wins, except that a cause
 * beats a consequence: when a receiver is killed, its senders' EPIPE
 * comes after; the user must read about the kill. wl_fail_errno() counts
 * EPIPE and ECONNRESET as consequences; wl_fail_peer() is for other
 * symptoms of a peer's death (EOF where data was due).
 */
int wl_fail(struct wl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same with ": strerror(errno)" appended. */
int wl_fail_errno(struct wl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int wl_fail_peer(struct wl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The workload's clock. A workload calls wl_clock_start() just before it
 * takes its start time and wl_clock_stop() just after its stop time: the
 * system-wide probes snapshot there (probe/probe.h).
 */
void wl_clock_start(struct wl_ctx *ctx);
void wl_clock_stop(struct wl_ctx *ctx);

/*
 * Whether this run records probes: when false, a workload must add
 * nothing to its hot path (no stamps, no wl_message/wl_latency).
 */
bool wl_probing(const struct wl_ctx *ctx);
/* Per message: notes the CPU the task runs on (moves across CPUs). */
void wl_message(struct wl_ctx *ctx);
/* The same, and records a latency in nanoseconds. */
void wl_latency(struct wl_ctx *ctx, uint64_t ns);
/*
 * For a workload that keeps its own histogram of the latency the probes
 * explain (wakeup, rr): hands it over once, at the end, instead of
 * recording each value twice; the hot path then calls wl_message() for
 * the CPU alone. A no-op when probes are off.
 */
struct hist;
void wl_latency_hist(struct wl_ctx *ctx, const struct hist *h);

/*
 * A directory the run created and owns (a temporary tree for a tool, a
 * database cluster): after the workload process and everything in its
 * process group have ended - normally, by failure, timeout or Ctrl-C -
 * the supervisor removes it if it is still there. -1 after wl_fail() if
 * the path is too long or too many are owned.
 */
int wl_own_dir(struct wl_ctx *ctx, const char *path);

/*
 * Workers (task/task.c)
 *
 * The workers of one workload run - forked processes or pthreads -
 * created, released together through hackbench's start barrier, reaped,
 * and killed together when one of them fails.
 *
 * Runs inside the workload process (see supervise.h). A process worker
 * dies with the workload process (PR_SET_PDEATHSIG) and exits 0, or 1
 * when its function fails (after wl_fail()). The reaping loop sees a
 * failed or killed worker, gathers the statuses of the others that have
 * ended too (so that a killed receiver is reported, not its senders'
 * EPIPE), and kills the group. A thread worker that fails takes the whole
 * workload process down with _exit(1). Either way the supervisor reaps
 * the rest, and the user reads the recorded reason.
 *
 * While the start barrier is up, a worker process that dies would leave
 * the main side waiting for its ready byte forever: a SIGCHLD handler
 * writes a marker byte into the ready channel instead, so the wait ends.
 */
enum task_mode {
	TASK_PROCESS,
	TASK_THREAD,
};

/* The modes' names by enum task_mode, NULL-ended: the workloads' --mode. */
extern const char *const task_mode_names[];

typedef int (*task_fn)(void *arg);

struct task_probe;

struct tasks;
struct task_slot {
	task_fn fn;
	void *arg;
	struct wl_ctx *ctx;
	struct tasks *tasks;
	struct task_probe *probe;	/* its counters; NULL: probes off */
	union {
		pid_t pid;
		pthread_t thread;
	};
};

struct barrier;

struct tasks {
	enum task_mode mode;
	unsigned n, cap;
	unsigned ninline;	/* workers run by the workload process itself */
	struct task_probe *probe;	/* cap slots, shared; NULL: probes off */
	struct task_slot *slot;
	pthread_attr_t attr;
	struct wl_ctx *ctx;
	pid_t self;
	const struct barrier *barrier;
	/*
	 * Thread workers with the probes on linger once their work and
	 * their last look are done, until tasks_let_go(): their exit, and
	 * the kernel's flush of the /proc entries the probes made for them,
	 * then fall after the clock has stopped. busy: those spawned that
	 * have not finished; released: tasks_let_go() says go. Both are
	 * futex words. Once tasks_reap() has seen them all finish, the
	 * context's lingering points here until they are let go.
	 */
	bool linger;
	uint32_t busy, released;
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
 * Runs fn(arg) here, as a worker that is the workload process itself
 * (perf bench sched pipe's parent): it gets a probe slot like the others.
 */
int tasks_run_inline(struct tasks *t, task_fn fn, void *arg);
/*
 * Waits for every worker to end its work: returns 0, or does not return
 * when one failed (the group, this process included, is killed after
 * the reason is recorded). Lingering threads (see struct tasks) are
 * still there: wl_clock_stop() lets them go, after the stop time.
 */
int tasks_reap(struct tasks *t);
/*
 * The run cannot go on (the caller has recorded why): records what
 * happened to workers that have ended and kills the group. Does not
 * return in process mode; in thread mode it _exit()s.
 */
void tasks_abort(struct tasks *t) __attribute__((noreturn));
/*
 * Lets lingering threads exit and joins them: wl_clock_stop() calls it
 * once it has the stop time and before the probes' end, so that their
 * exit records reach the taskstats probe.
 */
void tasks_let_go(struct tasks *t);
/* tasks_let_go(), then frees what tasks_init took. */
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

/* Worker side: says ready, waits for the start. */
int barrier_worker(const struct barrier *b, struct wl_ctx *ctx);
/* Before spawning: the barrier these workers will wait at. */
int tasks_use_barrier(struct tasks *t, const struct barrier *b);
/* Main side: one ready byte per worker spawned. */
int tasks_wait_ready(struct tasks *t);
/* Main side: lets every worker go. */
int tasks_release(struct tasks *t);

/*
 * Main side of a run of fixed duration, after tasks_release(): sleeps
 * until CLOCK_MONOTONIC reaches deadline_ns (now_ns()'s clock) unless a
 * worker process ends first - in such a run, a failure: returns 0 at the
 * deadline, 1 when a worker ended (tasks_reap() then says how). Blocks
 * SIGCHLD in the calling thread. A failing thread worker ends the whole
 * process, so thread mode only sleeps.
 */
int tasks_wait_until(struct tasks *t, uint64_t deadline_ns);

#endif
