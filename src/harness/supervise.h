/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * supervise: runs one iteration of a workload in a workload process of
 * its own and brings back its result, whatever happens to it.
 *
 * The workload process is forked with its own process group, dies with
 * schedlab (PR_SET_PDEATHSIG) and reports through shared memory. schedlab
 * is a child subreaper, so workers orphaned by a dying workload process
 * come back to it. When the workload process ends - normally, by failure,
 * by timeout or because schedlab got SIGINT/SIGTERM/SIGHUP - the whole
 * group is killed and reaped, then every process still below schedlab
 * (one that left the group with setsid(), adopted by the subreaper) is
 * found in /proc's children files and killed: nothing the workload started survives.
 *
 * SIGINT, SIGTERM and SIGHUP (those not ignored, so nohup still works)
 * are blocked from the first call on and taken synchronously while a
 * workload runs; a signal that arrives between runs interrupts the next
 * one before it starts.
 */
#ifndef SCHEDLAB_SUPERVISE_H
#define SCHEDLAB_SUPERVISE_H

#include "probe/probe.h"
#include "task/wl_ctx.h"
#include "workload/workload.h"

#define RS_KEEP_MAX 2
#define RS_CLOSE_MAX 8

/* How to run one iteration. */
struct run_settings {
	unsigned timeout_s;	/* 0: none */
	const char *cpus;	/* affinity as a cpulist; NULL: inherit */
	int probes;		/* enum probe_level */
	/* nice, policy, env, cgroups (harness/settings.h); NULL: none */
	const struct task_settings *task;
	/*
	 * The harness's own processes beside the workload - the monitors'
	 * sampler (monitor/monitor.h), a tracer's keeper (trace/trace.h):
	 * their pids, which the end of the iteration leaves alone with all
	 * below them (0: none), and the descriptors schedlab keeps to them,
	 * which the workload process closes first (nclose).
	 */
	pid_t keep[RS_KEEP_MAX];
	int close_fd[RS_CLOSE_MAX];
	int nclose;
};

enum run_status {
	RUN_OK,
	RUN_FAILED,
	RUN_TIMEOUT,
	RUN_INTERRUPTED,
};

struct run_outcome {
	enum run_status status;
	char reason[REASON_MAX];	/* one line, when not RUN_OK */
	struct wl_result result;
	double wall_s;		/* the workload process, fork to exit */
	double user_s, sys_s;	/* it and the workers it reaped */
	long maxrss_kib;	/* of the workload process itself */
	unsigned killed;	/* leftover processes killed and reaped */
	double probe[PM_N];	/* NaN: not measured */
	struct hist *latency;	/* what the probes recorded, or NULL; the
				 * caller's to free (run_outcome_release) */
};

/* Frees what an outcome owns; it may then be filled again. */
void run_outcome_release(struct run_outcome *o);

/*
 * Runs wl->run(cfg) in a supervised workload process (rs: timeout, the
 * affinity of the workload process and so of every worker, probes).
 * Returns 0 with out filled (out->status says how it ended), or -1 if the
 * workload process could not even be started.
 */
int supervise_run(const struct workload *wl, const void *cfg,
		  const struct run_settings *rs, struct run_outcome *out);

/*
 * Blocks the stop signals now rather than at the first run, for a
 * command that has state to save before the first run starts.
 */
void supervise_block_signals(void);

/*
 * A stop signal (SIGINT, SIGTERM, SIGHUP) that arrived while they were
 * blocked between runs (while a case was stored), taken off the queue;
 * 0 when none did.
 */
int supervise_stop_pending(void);

/* The exit code for a status: 0, 1 or 130. */
int run_status_exit(enum run_status st);

#endif
