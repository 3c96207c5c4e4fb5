/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload interface. Each workload is one file in src/workload/ that
 * ends with one `const struct workload wl_NAME`: its name, a one-line
 * summary, the option table that drives the command line, job files and
 * --help, the metric table that gives every value it returns a unit and
 * a direction, and run().
 *
 * run() executes in a workload process that the harness forks, puts in
 * its own process group and watches (timeout, Ctrl-C, cleanup). It fills
 * a wl_result and returns 0, or calls wl_fail() and returns -1. It never
 * prints. What it measured becomes text through the workload's own text
 * formats (struct text_format below, printed by bench; the shared line
 * helpers are in workload/text.h) or the renderers in src/report/.
 */
#ifndef SCHEDLAB_WORKLOAD_H
#define SCHEDLAB_WORKLOAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "options.h"
#include "metric.h"

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

/* Owned by the harness: the memory shared with the workload process. */
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
 * The rows of a case's iterations, for a format's summary(): n rows of
 * ncols values each, the workload's metrics first, in its table's order.
 */
struct wl_rows {
	const double *values;
	size_t n, ncols;
};

/*
 * Untimed shell commands around the cases of a workload (command's
 * setup, before, cleanup and workdir keys; harness/casecmd.h runs them).
 * A member is NULL or "" when not given.
 */
struct wl_case_cmds {
	const char *setup;	/* once per case, before its warm-up */
	const char *before;	/* before each iteration */
	const char *cleanup;	/* once per case, however it ends */
	const char *workdir;	/* where they and the case run; NULL: a
				 * temporary directory of the run */
};

/*
 * A text format: the reference tool's lines for this workload, byte for
 * byte, so scripts that parse the tool's output keep working. header()
 * (optional) prints before the run, as the tool does; result() one
 * run's lines. A format that prints all the runs at once (perf stat
 * --repeat's block) has summary(), which bench calls instead of
 * result() per run and the repeat footer.
 */
struct text_format {
	const char *name;
	const char *help;
	void (*header)(FILE *f, const void *cfg);
	void (*result)(FILE *f, const void *cfg, const struct wl_result *r);
	void (*summary)(FILE *f, const void *cfg, const struct wl_rows *r);
};

/*
 * A multi-metric table a workload's results are posted in (compute:
 * AIM7's), printed from stored runs by compare/show --layout workload: a
 * column for the sweep value headed key, then one per metric.
 */
#define WL_TABLE_MAX 8
struct wl_table {
	const char *key;		/* the sweep column: "Tasks" */
	/*
	 * --layout workload lists every iteration as well, a row each, the
	 * runs side by side (seed 000's AIM7 posts), before the table of
	 * each column's statistic.
	 */
	bool iterations;
	struct wl_table_col {
		const char *metric;	/* "compute.jti" */
		const char *heading;	/* "JTI" */
		int decimals;
	} col[WL_TABLE_MAX];		/* ends at the first NULL metric */
};

struct workload {
	const char *name;
	const char *summary;
	const char *reference;	/* the tool(s) it reproduces */
	const char *events;	/* what one latency sample is: "msgs", "ops" */
	/*
	 * The semantics version of what it measures (0 here means 1): bump
	 * it when a change makes its numbers incomparable with older runs'
	 * (harness/identity.h); an option added with a default that keeps
	 * the old behaviour does not.
	 */
	unsigned version;
	size_t cfg_size;
	const struct opt_def *options;
	const struct metric_def *metrics;	/* ends with { .name = NULL } */
	/* text formats, the default first; ends with { .name = NULL } */
	const struct text_format *formats;
	const struct wl_table *table;	/* optional */
	/*
	 * Optional. Runs in the schedlab process before anything is
	 * spawned: checks that need more than one option or the machine's
	 * limits, and adjusts limits (e.g. RLIMIT_NOFILE). Returns 0, or an
	 * exit code (EXIT_USAGE, EXIT_RUN_FAILED) after saying why.
	 */
	int (*prepare)(const void *cfg);
	int (*run)(const void *cfg, struct wl_ctx *ctx, struct wl_result *res);
	/*
	 * Optional: the case's commands (struct wl_case_cmds) into out.
	 * With it, every case runs in a working directory of its own,
	 * $SCHEDLAB_WORKDIR in the environment of run()'s process.
	 */
	void (*case_cmds)(const void *cfg, struct wl_case_cmds *out);
	/*
	 * Optional: why the probes change what this configuration measures
	 * (a bistable one, which their few nanoseconds a message tip), or
	 * NULL when they do not. Where it says why, run and bench leave the
	 * probes off unless asked for them (probes = on, --probes=on) and
	 * say so: the time is then the reference tool's, as bench's text.
	 */
	const char *(*probes_tip)(const void *cfg);
};

/* Index of a metric in wl->metrics, or -1. */
int wl_metric_index(const struct workload *wl, const char *name);
/* The text format called name (NULL: the default), or NULL. */
const struct text_format *wl_format_find(const struct workload *wl,
					 const char *name);


/*
 * Workers (harness/tasks.c implements them)
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
