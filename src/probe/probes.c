// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler-metric probes: the metric table, the sources in the
 * order they snapshot, availability, and what is derived from several
 * sources (see probe.h; each source is one file, see source.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe.h"
#include "probe/source.h"
#include "util.h"

#define M(name, unit, better, help) { name, unit, better, false, help }
const struct metric_def probe_metrics[PM_N] = {
	[PM_RUN_S] = M("sched.run_s", "s", BETTER_NONE, "on-CPU time of the workload's tasks, summed (schedstat)"),
	[PM_WAIT_S] = M("sched.wait_s", "s", BETTER_LOWER, "time the tasks spent runnable in a run queue, summed (schedstat)"),
	[PM_SLICES] = M("sched.timeslices", "switches", BETTER_NONE, "times the tasks were scheduled in (schedstat pcount)"),
	[PM_WAIT_PER_SLICE_US] = M("sched.wait_per_slice_us", "us", BETTER_LOWER, "run-queue wait per time scheduled in"),
	[PM_WAIT_PCT] = M("sched.wait_pct", "%", BETTER_LOWER, "run-queue wait as a percentage of on-CPU time"),
	[PM_MIGRATIONS] = M("sched.migrations", "migrations", BETTER_NONE, "migrations of the tasks, summed (se.nr_migrations)"),
	[PM_CTXSW_VOL] = M("sched.ctxsw_vol", "switches", BETTER_NONE, "voluntary context switches of the tasks"),
	[PM_CTXSW_INVOL] = M("sched.ctxsw_invol", "switches", BETTER_NONE, "involuntary context switches (preemptions) of the tasks"),
	[PM_INVOL_PCT] = M("sched.ctxsw_invol_pct", "%", BETTER_NONE, "involuntary switches as a percentage of all"),
	[PM_RU_NVCSW] = M("rusage.nvcsw", "switches", BETTER_NONE, "voluntary switches, getrusage of the workload process and its workers"),
	[PM_RU_NIVCSW] = M("rusage.nivcsw", "switches", BETTER_NONE, "involuntary switches, getrusage"),
	[PM_CPU_BUSY_PCT] = M("cpu.busy_pct", "%", BETTER_NONE, "CPU time busy over all online CPUs (/proc/stat)"),
	[PM_CPU_IDLE_PCT] = M("cpu.idle_pct", "%", BETTER_NONE, "CPU time idle over all online CPUs"),
	[PM_CPU_IOWAIT_PCT] = M("cpu.iowait_pct", "%", BETTER_NONE, "CPU time in iowait"),
	[PM_CPU_STEAL_PCT] = M("cpu.steal_pct", "%", BETTER_LOWER, "CPU time stolen by the hypervisor"),
	[PM_CPU_IDLE_S] = M("cpu.idle_s", "CPU-s", BETTER_NONE, "idle CPU-seconds over the interval, all online CPUs"),
	[PM_IDLE_WHILE_WAITING_S] = M("cpu.idle_while_waiting_s", "CPU-s", BETTER_LOWER,
		"idle CPU-seconds while tasks waited in run queues: idle CPU-s x min(1, wait task-s / interval s), "
		"an estimate that assumes both spread evenly over the interval"),
	[PM_PSI_SOME_US] = M("psi.cpu_some_us", "us", BETTER_LOWER, "time some task waited for a CPU (/proc/pressure/cpu)"),
	[PM_SS_TTWU] = M("schedstat.ttwu", "wakeups", BETTER_NONE, "wakeups, all CPUs (/proc/schedstat)"),
	[PM_SS_TTWU_LOCAL_PCT] = M("schedstat.ttwu_local_pct", "%", BETTER_NONE, "wakeups on the waker's CPU"),
	[PM_SS_RUN_DELAY_S] = M("schedstat.run_delay_s", "s", BETTER_LOWER, "run-queue wait of every task, all CPUs"),
	[PM_SS_WAKE_REMOTE] = M("schedstat.ttwu_wake_remote", "wakeups", BETTER_NONE, "wakeups of a task last run on another CPU of the domain"),
	[PM_SS_MOVE_AFFINE] = M("schedstat.ttwu_move_affine", "wakeups", BETTER_NONE, "wake-affine pulls"),
	[PM_SS_LB_COUNT] = M("schedstat.lb_count", "balances", BETTER_NONE, "load-balance attempts, all domains and idle types"),
	[PM_SS_LB_FAILED] = M("schedstat.lb_failed", "balances", BETTER_NONE, "load-balance attempts that failed to move a task"),
	[PM_PERF_CS] = M("perf.context_switches", "switches", BETTER_NONE, "PERF_COUNT_SW_CONTEXT_SWITCHES, inherited by every worker"),
	[PM_PERF_MIGRATIONS] = M("perf.cpu_migrations", "migrations", BETTER_NONE, "PERF_COUNT_SW_CPU_MIGRATIONS, inherited"),
	[PM_PERF_TASK_CLOCK_S] = M("perf.task_clock_s", "s", BETTER_NONE, "PERF_COUNT_SW_TASK_CLOCK, inherited"),
	[PM_TS_CPU_DELAY_S] = M("taskstats.cpu_delay_s", "s", BETTER_LOWER,
		"run-queue wait of the workload's tasks by delay accounting, sent by the kernel as each exited (taskstats)"),
	[PM_TS_CPU_COUNT] = M("taskstats.cpu_count", "timeslices", BETTER_NONE, "times the exited tasks were scheduled in (taskstats)"),
	[PM_TS_TASKS] = M("taskstats.tasks", "tasks", BETTER_NONE, "the workload's tasks whose exit taskstats reported"),
	[PM_LAT_P50] = M("latency.p50_us", "us", BETTER_LOWER, "median latency measured inside the workload"),
	[PM_LAT_P90] = M("latency.p90_us", "us", BETTER_LOWER, "90th percentile latency"),
	[PM_LAT_P99] = M("latency.p99_us", "us", BETTER_LOWER, "99th percentile latency"),
	[PM_LAT_P999] = M("latency.p999_us", "us", BETTER_LOWER, "99.9th percentile latency"),
	[PM_LAT_MAX] = M("latency.max_us", "us", BETTER_LOWER, "largest latency"),
	[PM_LAT_N] = M("latency.samples", "samples", BETTER_NONE, "latencies recorded"),
	[PM_CPU_MOVES] = M("sched.cpu_moves", "moves", BETTER_NONE, "changes of CPU seen message by message (sched_getcpu)"),
	[PM_CPU_MOVES_XLLC] = M("sched.cpu_moves_xllc", "moves", BETTER_NONE, "of which to a CPU under another last-level cache"),
	[PM_PROBE_END_MS] = M("probes.end_cost_ms", "ms", BETTER_NONE, "the probes' own work at the end of the iteration: snapshots, sums, percentiles"),
	[PM_CPU_MOVES_XNODE] = M("sched.cpu_moves_xnode", "moves", BETTER_NONE, "of which to another NUMA node"),
};
#undef M

/* available() of a source that snapshots a /proc file. */
static bool snap_available(const struct probe_snap_kind *k, char *why,
			   size_t len)
{
	void *snap = xcalloc(1, k->size);
	bool ok = probe_snap_read(k, snap);

	if (ok && k->release)
		k->release(snap);
	free(snap);
	return probe_file_ok(k->path, ok, k->hint, why, len);
}

/* open() of such a source: its state, no snapshot yet. */
static void *snap_open(const struct probe_snap_kind *k)
{
	struct probe_snap *s = xcalloc(1, sizeof(*s));

	s->kind = k;
	s->s0 = xcalloc(1, k->size);
	return s;
}

/* begin() of such a source: the snapshot at the start. */
static void snap_begin(void *st)
{
	struct probe_snap *s = st;

	s->have = probe_snap_read(s->kind, s->s0);
}

/* close() of such a source. */
static void snap_close(void *st)
{
	struct probe_snap *s = st;

	if (s->have && s->kind->release)
		s->kind->release(s->s0);
	free(s->s0);
	free(s);
}

const char *const probe_level_names[] = { "on", "off", "perf", NULL };

/*
 * The system-wide sources, in the order they snapshot at the clock's
 * start (last to first, so the most sensitive is read nearest to it) and
 * at its stop (first to last): perf's counters, then rusage, then the
 * /proc files, and the taskstats records, which only need the workers
 * gone.
 */
static const struct probe_source *const snapshots[] = {
	&probe_perf, &probe_rusage, &probe_proc_stat, &probe_psi,
	&probe_proc_schedstat, &probe_taskstats,
};
#define NSNAP ARRAY_SIZE(snapshots)

/* Every source, as availability lists them. */
static const struct probe_source *const all[] = {
	&probe_task_schedstat, &probe_task_sched, &probe_rusage,
	&probe_proc_stat, &probe_psi, &probe_proc_schedstat,
	&probe_taskstats, &probe_perf,
};

struct probe_state {
	void *st[NSNAP];	/* NULL: not measuring */
};

struct probe_state *probe_open(bool perf)
{
	struct probe_state *ps = xcalloc(1, sizeof(*ps));
	enum probe_level level = perf ? PROBES_PERF : PROBES_ON;

	for (size_t i = 0; i < NSNAP; i++)
		ps->st[i] = snapshots[i]->snap ?
			    snap_open(snapshots[i]->snap) :
			    snapshots[i]->open(level);
	return ps;
}

void probe_begin(struct probe_state *ps)
{
	for (size_t i = NSNAP; i-- > 0;)
		if (ps->st[i] && snapshots[i]->snap)
			snap_begin(ps->st[i]);
		else if (ps->st[i] && snapshots[i]->begin)
			snapshots[i]->begin(ps->st[i]);
}

void probe_end(struct probe_state *ps, double *out)
{
	for (size_t i = 0; i < NSNAP; i++)
		if (ps->st[i])
			snapshots[i]->end(ps->st[i], out);
}

void probe_close(struct probe_state *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < NSNAP; i++)
		if (ps->st[i] && snapshots[i]->snap)
			snap_close(ps->st[i]);
		else if (ps->st[i])
			snapshots[i]->close(ps->st[i]);
	free(ps);
}

json_t *probes_availability(enum probe_level level)
{
	json_t *j = json_object();

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		char why[256] = "";
		bool ok = all[i]->snap ?
			  snap_available(all[i]->snap, why, sizeof(why)) :
			  all[i]->available(level, why, sizeof(why));

		if (ok)
			json_object_set_new(j, all[i]->name,
					    json_pack("{s:b}", "available", 1));
		else
			json_object_set_new(j, all[i]->name,
					    json_pack("{s:b, s:s}", "available", 0,
						      "reason", why));
	}
	return j;
}

void probe_derive(double *out, double interval_s)
{
	double waiting;

	if (isnan(out[PM_CPU_IDLE_S]) || isnan(out[PM_WAIT_S]) || interval_s <= 0)
		return;
	/*
	 * Idle CPU-seconds over the interval, times the share of it during
	 * which some task is taken to be waiting (at most all of it): the
	 * two are known only as totals over the same interval.
	 */
	waiting = out[PM_WAIT_S] / interval_s;
	out[PM_IDLE_WHILE_WAITING_S] = out[PM_CPU_IDLE_S] * (waiting < 1 ? waiting : 1);
}
