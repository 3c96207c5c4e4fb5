/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe: the scheduler metrics recorded with every iteration, whatever
 * the workload - what explains a number.
 *
 * Three kinds, all measured over the workload's timed region:
 *  - system-wide snapshots taken by the workload process when its clock
 *    starts and stops (probe_begin/probe_end, via wl_clock_start/stop):
 *    per-CPU /proc/stat, /proc/pressure/cpu, /proc/schedstat, rusage,
 *    and perf software counters opened before the workers exist so that
 *    every worker inherits them; with them, a taskstats listener that
 *    receives every exiting task's delay accounting (probe/taskstats.h);
 *  - per-task counters each worker reads from /proc/thread-self just
 *    before it ends (task_probe_collect) into its slot of shared memory,
 *    summed by the workload process: schedstat (on-CPU time, run-queue
 *    wait, timeslices) and sched (migrations, switches);
 *  - latency recorded inside the workload (messaging's delivery latency,
 *    pipe's round trip) into per-CPU histograms, and the CPU a task runs
 *    on sampled per message to count moves across CPUs, LLCs and nodes.
 *
 * Each source is one file with the interface of probe/source.h: it says
 * whether it is available and why not (probes_availability), snapshots
 * at the start and end, and fills its metrics; an unavailable one leaves
 * them NaN (not stored) and never fails a run. Metric columns are the same on
 * every machine: enum probe_metric indexes probe_metrics[].
 */
#ifndef SCHEDLAB_PROBE_H
#define SCHEDLAB_PROBE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"
#include "metric.h"

enum probe_metric {
	/* task schedstat, summed over the workload's tasks */
	PM_RUN_S, PM_WAIT_S, PM_SLICES, PM_WAIT_PER_SLICE_US, PM_WAIT_PCT,
	/* task sched */
	PM_MIGRATIONS, PM_CTXSW_VOL, PM_CTXSW_INVOL, PM_INVOL_PCT,
	/* rusage of the workload process and its reaped workers */
	PM_RU_NVCSW, PM_RU_NIVCSW,
	/* per-CPU /proc/stat */
	PM_CPU_BUSY_PCT, PM_CPU_IDLE_PCT, PM_CPU_IOWAIT_PCT, PM_CPU_STEAL_PCT,
	PM_CPU_IDLE_S, PM_IDLE_WHILE_WAITING_S,
	/* /proc/pressure/cpu */
	PM_PSI_SOME_US,
	/* /proc/schedstat */
	PM_SS_TTWU, PM_SS_TTWU_LOCAL_PCT, PM_SS_RUN_DELAY_S,
	PM_SS_WAKE_REMOTE, PM_SS_MOVE_AFFINE, PM_SS_LB_COUNT, PM_SS_LB_FAILED,
	/* perf_event_open software counters */
	PM_PERF_CS, PM_PERF_MIGRATIONS, PM_PERF_TASK_CLOCK_S,
	/* taskstats, as the workload's tasks exited */
	PM_TS_CPU_DELAY_S, PM_TS_CPU_COUNT, PM_TS_TASKS,
	/* latency inside the workload */
	PM_LAT_P50, PM_LAT_P90, PM_LAT_P99, PM_LAT_P999, PM_LAT_MAX, PM_LAT_N,
	/* the CPU sampled per message */
	PM_CPU_MOVES, PM_CPU_MOVES_XLLC, PM_CPU_MOVES_XNODE,
	/* what the probes themselves took at the end of the iteration */
	PM_PROBE_END_MS,
	PM_N
};

extern const struct metric_def probe_metrics[PM_N];

/*
 * What to record: on (the default) is everything but perf's counters,
 * which make every context switch of the workload cost more (measured:
 * +25% per round trip of pipe in a VM); perf adds them; off records
 * nothing. The order is the option's choices (probe_level_names).
 */
enum probe_level { PROBES_ON, PROBES_OFF, PROBES_PERF };
extern const char *const probe_level_names[];

/*
 * {"task_schedstat": {"available": true}, "proc_schedstat":
 * {"available": false, "reason": "..."}, ...}: recorded in a run's
 * environment as "probes", so that show can list what was missing.
 */
json_t *probes_availability(enum probe_level level);

/* Per-task counters, written by a worker into its slot as it ends. */
struct task_probe {
	uint64_t run_ns, wait_ns, slices;	/* schedstat */
	uint64_t migrations, vol, invol;	/* sched */
	uint64_t cpu_moves, cpu_moves_xllc, cpu_moves_xnode;
	uint8_t have_schedstat, have_sched, done;
};

/*
 * A task's own /proc/thread-self/{schedstat,sched}, opened once when it
 * takes its baseline and read again with pread as it ends: one path
 * lookup per file and task, and no read() added to the workload's.
 */
struct task_files {
	int schedstat, sched;	/* -1: not there */
};

/*
 * single: the caller is a process of one thread, which opens
 * /proc/self/... - the same counters. The path through thread-self
 * (/proc/PID/task/TID) ties more proc inodes to the task (its task
 * directory and the thread's own), which its reaper flushes in the
 * parent's wait(), and so in the timed region: at 16,000 tasks,
 * medians of 78 us a task reaped against 71 through /proc/self and 51
 * with no files, in rounds that spread widely (bench/reap-cost.c,
 * doc/benchmarks.md).
 */
void task_files_open(struct task_files *f, bool single);
void task_files_close(struct task_files *f);
/* Reads them into p. */
void task_probe_read(const struct task_files *f, struct task_probe *p);
/* Opens (through thread-self), reads and closes, for one look. */
void task_probe_collect(struct task_probe *p);

/* Where the CPUs sit: LLC and node of each, for counting moves. */
struct cpu_topo {
	int ncpu;
	int *llc, *node;	/* by CPU number; -1 unknown */
};

int cpu_topo_load(struct cpu_topo *t);
void cpu_topo_free(struct cpu_topo *t);

/* Tracks the CPU a task runs on, message by message. */
struct cpu_track {
	int last;
	uint64_t moves, xllc, xnode;
};

static inline void cpu_track_init(struct cpu_track *c)
{
	c->last = -1;
	c->moves = c->xllc = c->xnode = 0;
}

void cpu_track_note(struct cpu_track *c, const struct cpu_topo *t, int cpu);

/*
 * The system-wide probes of one iteration, in the workload process:
 * probe_open before the workers exist (perf counters to inherit), then
 * probe_begin and probe_end at the clock's start and stop.
 */
struct probe_state;

struct probe_state *probe_open(bool perf);
void probe_begin(struct probe_state *ps);
/* Fills out[PM_*] for what it measured; the rest is left alone. */
void probe_end(struct probe_state *ps, double *out);
void probe_close(struct probe_state *ps);

/* Sums task slots into out[PM_*]; interval_s for the idle-while-waiting estimate. */
void task_probes_sum(const struct task_probe *slots, unsigned n, double *out);

/* The latency percentiles of a merged histogram into out[PM_LAT_*]. */
void latency_fill(const struct hist *h, double *out);

/* idle-while-waiting, once both the task and CPU sums are in out. */
void probe_derive(double *out, double interval_s);

#endif
