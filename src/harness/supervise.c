// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/settings.h"
#include "harness/supervise.h"
#include "harness/switch.h"
#include "probe/cpus.h"
#include "task/instrument.h"
#include "trace/trace.h"
#include "util.h"

/* Only the workload process writes the table, and it is gone by now. */
static void remove_owned(struct wl_ctx *ctx)
{
	for (int i = 0; i < WL_OWNED_MAX; i++) {
		ctx->owned[i][WL_OWNED_LEN - 1] = '\0';
		if (ctx->owned[i][0] && rm_tree(ctx->owned[i]))
			warning("cannot remove %s: %s", ctx->owned[i],
				strerror(errno));
	}
}

int run_status_exit(enum run_status st)
{
	switch (st) {
	case RUN_OK:
		return EXIT_OK;
	case RUN_INTERRUPTED:
		return EXIT_INTERRUPTED;
	default:
		return EXIT_RUN_FAILED;
	}
}

/* The affinity of the workload process: cpus, a cpulist, or NULL. */
static int set_affinity(const char *cpus, struct wl_ctx *ctx)
{
	struct cpumask m;
	cpu_set_t *set;
	size_t size = CPU_ALLOC_SIZE(CPUMASK_MAX_CPUS);
	int cpu, rc;

	if (!cpus)
		return 0;
	if (cpulist_parse(cpus, &m) <= 0)
		return wl_fail(ctx, "cpus '%s' is not a list of CPUs", cpus);
	set = CPU_ALLOC(CPUMASK_MAX_CPUS);
	if (!set)
		return wl_fail_errno(ctx, "cpus");
	CPU_ZERO_S(size, set);
	for_each_cpu(cpu, &m)
		CPU_SET_S((size_t)cpu, size, set);
	rc = sched_setaffinity(0, size, set);
	CPU_FREE(set);
	return rc ? wl_fail_errno(ctx, "cannot run on CPUs %s", cpus) : 0;
}

static void __attribute__((noreturn))
workload_process(const struct workload *wl, const void *cfg,
		 const struct run_settings *rs, struct wl_ctx *ctx, pid_t parent)
{
	struct rusage ru;
	sigset_t none;
	int rc;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	for (int i = 0; i < rs->nclose; i++)
		close(rs->close_fd[i]);	/* the harness's own processes' */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (set_affinity(rs->cpus, ctx))
		_exit(1);
	if (rs->task && task_settings_any(rs->task) &&
	    task_settings_apply(rs->task, ctx))
		_exit(1);
	instrument_setup(ctx);
	rc = wl->run(cfg, ctx, &ctx->result);
	if (!rc)
		instrument_finish(ctx);
	if (!getrusage(RUSAGE_SELF, &ru))
		ctx->maxrss_kib = ru.ru_maxrss;
	_exit(rc ? 1 : 0);
}

struct pids {
	pid_t *v, *ppid;
	size_t n, cap;
};

static void pids_add(struct pids *p, pid_t pid, pid_t ppid)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
		p->ppid = xrealloc(p->ppid, p->cap * sizeof(*p->ppid));
	}
	p->v[p->n] = pid;
	p->ppid[p->n++] = ppid;
}

/*
 * Adds the children of pid, from every thread's
 * /proc/PID/task/TID/children; false when the kernel has no such files
 * (CONFIG_PROC_CHILDREN).
 */
static bool children_of(pid_t pid, struct pids *out)
{
	char path[300];
	struct dirent *e;
	DIR *d;
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		FILE *f;
		long c;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children",
			 (int)pid, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		ok = true;
		while (fscanf(f, "%ld", &c) == 1)
			pids_add(out, (pid_t)c, pid);
		fclose(f);
	}
	if (d)
		closedir(d);
	return ok;
}

/* Every process, with its parent, from /proc/PID/stat. */
static void all_processes(struct pids *out)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		long ppid, pgrp;
		char state;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (!proc_stat_ids(e->d_name, &state, &ppid, &pgrp))
			pids_add(out, (pid_t)atoi(e->d_name), (pid_t)ppid);
	}
	if (d)
		closedir(d);
}

/*
 * The processes below self, into all->v[0..return): a walk down the
 * children files, or where the kernel has none, a ppid walk of every
 * process (moved to the front, pass after pass until one moves none).
 */
static size_t descendants(pid_t self, struct pids *all)
{
	size_t found = 0;
	bool more = true;

	all->n = 0;
	if (children_of(self, all)) {
		for (size_t i = 0; i < all->n; i++)
			children_of(all->v[i], all);
		return all->n;
	}
	all_processes(all);
	while (more) {
		more = false;
		for (size_t i = found; i < all->n; i++) {
			bool below = all->ppid[i] == self;

			for (size_t j = 0; j < found && !below; j++)
				below = all->ppid[i] == all->v[j];
			if (below) {
				pid_t t = all->v[i], tp = all->ppid[i];

				all->v[i] = all->v[found];
				all->ppid[i] = all->ppid[found];
				all->v[found] = t;
				all->ppid[found++] = tp;
				more = true;
			}
		}
	}
	return found;
}

static bool kept(const pid_t *keep, pid_t pid)
{
	for (int i = 0; i < RS_KEEP_MAX; i++)
		if (keep[i] && keep[i] == pid)
			return true;
	return false;
}

/*
 * Marks in mine[] the processes of all->v[0..found) that are kept or
 * below one that is: descendants() lists a parent before its children.
 */
static void mark_kept(const struct pids *all, size_t found,
		      const pid_t *keep, bool *mine)
{
	for (size_t i = 0; i < found; i++) {
		mine[i] = kept(keep, all->v[i]) || trace_keeps(all->v[i]);
		for (size_t j = 0; j < i && !mine[i]; j++)
			mine[i] = mine[j] && all->v[j] == all->ppid[i];
	}
}

/*
 * Kills every process below schedlab and reaps it, but keep's (the
 * monitors' sampler and a tracer's keeper, each with what is below it,
 * stopped by their owners after this) and a sched_ext scheduler of
 * switch.h's. When a case ends, all the others are the case's: the
 * workload process is the only other child schedlab forks, and as a
 * child subreaper schedlab adopts whatever its descendants orphan. A
 * program that called setsid() left the process group killed above,
 * but not this tree. Round after round, until none is left (a killed
 * parent's children are adopted in between); returns how many were
 * reaped. In a clean case it costs one read of schedlab's children
 * files.
 */
static unsigned kill_descendants(const pid_t *keep)
{
	struct pids all = { 0 };
	pid_t self = getpid();
	unsigned reaped = 0;

	for (int round = 0; round < 2000; round++) {
		size_t found = descendants(self, &all), killed = 0;
		bool *mine = xcalloc(found + 1, sizeof(*mine));

		mark_kept(&all, found, keep, mine);
		/* a sched_ext scheduler of harness/switch.h's is not the case's */
		for (size_t i = 0; i < found; i++)
			if (!switch_keeps(all.v[i]) && !mine[i] &&
			    !kill(all.v[i], SIGKILL))
				killed++;
		free(mine);
		/* a kept process that died (a sampler that failed) is reaped
		 * here but is none of the case's leftovers */
		for (pid_t p; (p = waitpid(-1, NULL, WNOHANG)) > 0;)
			reaped += !kept(keep, p) && !trace_keeps(p);
		if (!killed)
			break;
		usleep(1000);
	}
	free(all.v);
	free(all.ppid);
	return reaped;
}

/*
 * Waits until the workload process has ended (without reaping it, so its
 * pid - the group id - stays reserved), the deadline passes or a signal
 * asks us to stop.
 */
static enum run_status wait_end(pid_t pid, const sigset_t *set,
				uint64_t deadline, int *signo)
{
	for (;;) {
		siginfo_t si = { 0 };
		struct timespec ts, *tsp = NULL;
		int sig;

		if (waitid(P_PID, (id_t)pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			return RUN_OK;
		if (deadline) {
			uint64_t now = now_ns();

			if (now >= deadline)
				return RUN_TIMEOUT;
			ts.tv_sec = (time_t)((deadline - now) / 1000000000ull);
			ts.tv_nsec = (long)((deadline - now) % 1000000000ull);
			tsp = &ts;
		}
		sig = sigtimedwait(set, NULL, tsp);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*signo = sig;
			return RUN_INTERRUPTED;
		}
		/* SIGCHLD (ours or an adopted orphan's), EAGAIN, EINTR: look again */
	}
}

/*
 * SIGCHLD, and the stop signals that are not ignored: a blocked signal is
 * queued even when ignored, and under nohup SIGHUP must not stop a run.
 */
static void stop_signals(sigset_t *set)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	for (size_t i = 0; i < ARRAY_SIZE(stop); i++) {
		struct sigaction sa;

		if (sigaction(stop[i], NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(set, stop[i]);
	}
}

void supervise_block_signals(void)
{
	sigset_t set;

	stop_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

int supervise_stop_pending(void)
{
	static const struct timespec now = { 0, 0 };
	sigset_t set;
	int sig;

	stop_signals(&set);
	sigdelset(&set, SIGCHLD);
	sig = sigtimedwait(&set, NULL, &now);
	return sig > 0 ? sig : 0;
}

void run_outcome_release(struct run_outcome *o)
{
	free(o->latency);
	o->latency = NULL;
}

/* The result area the workload process writes and this one reads,
 * shared across the fork, its probes NAN until measured. NULL after
 * error(). */
static struct wl_ctx *shared_ctx(const struct run_settings *rs)
{
	struct wl_ctx *ctx = mmap(NULL, sizeof(*ctx), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (ctx == MAP_FAILED) {
		error_errno("mmap of the shared result area");
		return NULL;
	}
	ctx->probes = rs->probes != PROBES_OFF;
	ctx->perf = rs->probes == PROBES_PERF;
	for (int i = 0; i < PM_N; i++)
		ctx->probe[i] = NAN;
	return ctx;
}

/* The workload's process group killed and reaped, its times in out
 * (wall from t0), then whatever it left behind: the group's strays and
 * the descendants that left it, counted in out->killed. *status: the
 * workload process's wait status. */
static void end_group(pid_t pid, const pid_t *keep, uint64_t t0,
		      struct run_outcome *out, int *status)
{
	struct rusage ru;

	/* Kill the group while the leader's pid still holds the group id. */
	kill(-pid, SIGKILL);
	while (wait4(pid, status, 0, &ru) < 0 && errno == EINTR)
		;
	out->wall_s = (double)(now_ns() - t0) / 1e9;
	out->user_s = tv_s(&ru.ru_utime);
	out->sys_s = tv_s(&ru.ru_stime);
	/* Reap what the group left behind, adopted as a subreaper. */
	for (;;) {
		pid_t p = waitpid(-pid, NULL, 0);

		if (p > 0)
			out->killed++;
		else if (errno != EINTR)
			break;
	}
	/* and what left the group: setsid() children, adopted or not yet */
	out->killed += kill_descendants(keep);
}

/* The run's outcome from the shared area and how it ended: its result,
 * probes and latencies, and its status with the reason for it. */
static void take_outcome(const struct wl_ctx *ctx, enum run_status st,
			 int signo, int status, unsigned timeout_s,
			 struct run_outcome *out)
{
	out->result = ctx->result;
	memcpy(out->probe, ctx->probe, sizeof(out->probe));
	out->maxrss_kib = ctx->maxrss_kib;
	if (hist_count(&ctx->latency)) {
		out->latency = xcalloc_lines(1, sizeof(*out->latency));
		*out->latency = ctx->latency;
	}
	if (st == RUN_INTERRUPTED) {
		snprintf(out->reason, sizeof(out->reason),
			 "interrupted by SIG%s", sigabbrev_np(signo));
	} else if (st == RUN_TIMEOUT) {
		snprintf(out->reason, sizeof(out->reason),
			 "timed out after %u s", timeout_s);
	} else if (ctx->failed && ctx->reason[0]) {
		st = RUN_FAILED;
		snprintf(out->reason, sizeof(out->reason), "%s", ctx->reason);
	} else if (WIFSIGNALED(status)) {
		st = RUN_FAILED;
		snprintf(out->reason, sizeof(out->reason),
			 "workload process killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WEXITSTATUS(status)) {
		st = RUN_FAILED;
		snprintf(out->reason, sizeof(out->reason),
			 "workload process exited with status %d",
			 WEXITSTATUS(status));
	}
	out->status = st;
}

int supervise_run(const struct workload *wl, const void *cfg,
		  const struct run_settings *rs, struct run_outcome *out)
{
	unsigned timeout_s = rs->timeout_s;
	struct wl_ctx *ctx;
	sigset_t set;
	uint64_t t0, deadline = 0;
	pid_t parent = getpid(), pid;
	int status = 0, signo = 0;
	enum run_status st;

	memset(out, 0, sizeof(*out));
	ctx = shared_ctx(rs);
	if (!ctx)
		return -1;

	stop_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		warning("cannot become a child subreaper: %s", strerror(errno));

	fflush(NULL);		/* or forked children may repeat buffered output */
	t0 = now_ns();
	if (timeout_s)
		deadline = t0 + (uint64_t)timeout_s * 1000000000ull;
	pid = fork();
	if (pid < 0) {
		error_errno("fork of the workload process");
		munmap(ctx, sizeof(*ctx));
		return -1;
	}
	if (pid == 0)
		workload_process(wl, cfg, rs, ctx, parent);
	setpgid(pid, pid);	/* both sides, so no race decides */

	st = wait_end(pid, &set, deadline, &signo);
	end_group(pid, rs->keep, t0, out, &status);
	remove_owned(ctx);
	take_outcome(ctx, st, signo, status, timeout_s, out);
	munmap(ctx, sizeof(*ctx));
	return 0;
}
