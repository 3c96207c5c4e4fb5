/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procfs: pure parsers for the scheduler-metric sources in /proc: a
 * thread's schedstat, sched and status files, the per-CPU lines of
 * /proc/stat, PSI's cpu pressure and /proc/schedstat versions 15 to 17
 * (which needs which kernel config is in the scheduler-metrics
 * reference). Text in, struct out: no file I/O here, so fixtures can
 * drive every parser, and reading the files (and saying why one is
 * missing) is the caller's business.
 *
 * Every parser takes the whole file as (buf, len) - no NUL needed, none
 * read past len - and returns 0, or -1 for text it cannot trust: cut
 * short (the kernel ends every line with '\n', so a last line without
 * one was cut), garbage, a number that does not fit in 64 bits, a
 * missing required field, a field given twice. They print nothing: the
 * caller decides what to say. On -1 *out is all zero (nothing to free).
 */
#ifndef SCHEDLAB_PROCFS_H
#define SCHEDLAB_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cpus.h"
#include "probe/sysenv.h"

/*
 * /proc/PID/task/TID/schedstat: "run_ns wait_ns pcount\n" (fs/proc/
 * base.c proc_pid_schedstat(); "0 0 0" when sched_info is off).
 */
struct task_schedstat {
	uint64_t run_ns;	/* time on a CPU */
	uint64_t wait_ns;	/* time runnable on a run queue */
	uint64_t pcount;	/* times scheduled in */
};

int procfs_parse_task_schedstat(const char *buf, size_t len,
				struct task_schedstat *out);

/*
 * /proc/PID/task/TID/sched (kernel/sched/debug.c proc_sched_show_task()):
 * "comm (pid, #threads: n)", a line of dashes, then "key : value" lines.
 * The first five fields are always there (required); the rest depend on
 * the kernel and on schedstats: the wait/sleep/wakeup counters appear
 * only while kernel.sched_schedstats=1, named "se.statistics.X" up to
 * 5.15 and "X" from 5.16 (and in some 5.15.y stable kernels, which took
 * the change): both are read. Values printed as milliseconds with six
 * decimals are stored in ns. Lines with other keys are skipped.
 */
enum task_sched_field {
	/* required */
	TS_SUM_EXEC_RUNTIME,		/* se.sum_exec_runtime */
	TS_NR_MIGRATIONS,		/* se.nr_migrations */
	TS_NR_SWITCHES,
	TS_NR_VOLUNTARY_SWITCHES,
	TS_NR_INVOLUNTARY_SWITCHES,
	/* printed without schedstats */
	TS_POLICY,
	TS_PRIO,
	TS_SLICE,			/* se.slice, fair tasks, 6.6+ */
	/* schedstats only */
	TS_SUM_SLEEP_RUNTIME,
	TS_SUM_BLOCK_RUNTIME,		/* 5.16+ */
	TS_SLEEP_MAX,
	TS_BLOCK_MAX,
	TS_EXEC_MAX,
	TS_SLICE_MAX,
	TS_WAIT_MAX,
	TS_WAIT_SUM,
	TS_WAIT_COUNT,
	TS_IOWAIT_SUM,
	TS_IOWAIT_COUNT,
	TS_NR_MIGRATIONS_COLD,
	TS_NR_FAILED_MIGRATIONS_AFFINE,
	TS_NR_FAILED_MIGRATIONS_RUNNING,
	TS_NR_FAILED_MIGRATIONS_HOT,
	TS_NR_FORCED_MIGRATIONS,
	TS_NR_WAKEUPS,
	TS_NR_WAKEUPS_SYNC,
	TS_NR_WAKEUPS_MIGRATE,
	TS_NR_WAKEUPS_LOCAL,
	TS_NR_WAKEUPS_REMOTE,
	TS_NR_WAKEUPS_AFFINE,
	TS_NR_WAKEUPS_AFFINE_ATTEMPTS,
	TS_NR_WAKEUPS_PASSIVE,
	TS_NR_WAKEUPS_IDLE,
	TS_CORE_FORCEIDLE_SUM,		/* CONFIG_SCHED_CORE, 5.18+ */
	TS_NR_FIELDS
};

#define TS_BIT(f) (1ull << (f))
#define TS_REQUIRED							\
	(TS_BIT(TS_SUM_EXEC_RUNTIME) | TS_BIT(TS_NR_MIGRATIONS) |	\
	 TS_BIT(TS_NR_SWITCHES) | TS_BIT(TS_NR_VOLUNTARY_SWITCHES) |	\
	 TS_BIT(TS_NR_INVOLUNTARY_SWITCHES))

struct task_sched {
	char comm[64];			/* longer names are cut */
	int pid;			/* in the reader's pid namespace */
	int nr_threads;
	uint64_t have;			/* TS_BIT(f) for each field read */
	uint64_t sum_exec_runtime_ns;
	uint64_t nr_migrations;
	uint64_t nr_switches;
	uint64_t nr_voluntary_switches;
	uint64_t nr_involuntary_switches;
	int64_t policy;
	int64_t prio;
	uint64_t slice_ns;
	uint64_t sum_sleep_runtime_ns;
	uint64_t sum_block_runtime_ns;
	uint64_t sleep_max_ns;
	uint64_t block_max_ns;
	uint64_t exec_max_ns;
	uint64_t slice_max_ns;
	uint64_t wait_max_ns;
	uint64_t wait_sum_ns;
	uint64_t wait_count;
	uint64_t iowait_sum_ns;
	uint64_t iowait_count;
	uint64_t nr_migrations_cold;
	uint64_t nr_failed_migrations_affine;
	uint64_t nr_failed_migrations_running;
	uint64_t nr_failed_migrations_hot;
	uint64_t nr_forced_migrations;
	uint64_t nr_wakeups;
	uint64_t nr_wakeups_sync;
	uint64_t nr_wakeups_migrate;
	uint64_t nr_wakeups_local;
	uint64_t nr_wakeups_remote;
	uint64_t nr_wakeups_affine;
	uint64_t nr_wakeups_affine_attempts;
	uint64_t nr_wakeups_passive;
	uint64_t nr_wakeups_idle;
	uint64_t core_forceidle_sum_ns;
};

static inline bool task_sched_has(const struct task_sched *t,
				  enum task_sched_field f)
{
	return t->have & TS_BIT(f);
}

int procfs_parse_task_sched(const char *buf, size_t len,
			    struct task_sched *out);

/* /proc/PID/task/TID/status: the two context-switch counts (required). */
struct task_status {
	uint64_t voluntary_ctxt_switches;
	uint64_t nonvoluntary_ctxt_switches;
};

int procfs_parse_task_status(const char *buf, size_t len,
			     struct task_status *out);

/*
 * /proc/stat's CPU lines (fs/proc/stat.c show_stat()): the aggregate
 * "cpu" line, then a "cpuN" line for each online CPU in increasing
 * order, then "intr" (required: without it the file was cut within the
 * CPU lines; what follows is not read, but must end with '\n'). Offline
 * CPUs have no line: present[N] is false and cpu[N] zero. The aggregate
 * sums every possible CPU, offline ones included. Lines are read with
 * sysenv_parse_cpu_line(); guest and guest_nice (already counted in
 * user and nice) are not kept.
 */
struct stat_cpus {
	struct cpu_times all;		/* the "cpu" line */
	int nr_cpus;			/* highest CPU number + 1 */
	struct cpu_times *cpu;		/* [nr_cpus], indexed by CPU number */
	bool *present;			/* [nr_cpus] */
};

int procfs_parse_stat(const char *buf, size_t len, struct stat_cpus *out);
void stat_cpus_free(struct stat_cpus *s);

/*
 * /proc/pressure/cpu (kernel/sched/psi.c psi_show()): "some avg10=A
 * avg60=B avg300=C total=T" and, from 5.13, a "full" line (all zero at
 * the system level, meaningful in a cgroup's cpu.pressure, which has
 * the same format). Averages are percentages, totals microseconds.
 */
struct psi_cpu {
	double some_avg10, some_avg60, some_avg300;
	uint64_t some_total_us;
	bool have_full;
	double full_avg10, full_avg60, full_avg300;
	uint64_t full_total_us;
};

int procfs_parse_psi_cpu(const char *buf, size_t len, struct psi_cpu *out);

/*
 * /proc/schedstat, versions 15 (up to 6.9), 16 (6.10-6.13) and 17
 * (6.14+); the layouts and their sources are in procfs.c. Load-balance
 * counters are indexed by enum lb_idle, the same for every version
 * (the kernel's own order changed in version 16).
 */
enum lb_idle {
	LB_BUSY,		/* __CPU_NOT_IDLE */
	LB_IDLE,		/* CPU_IDLE */
	LB_NEWLY_IDLE,		/* CPU_NEWLY_IDLE */
	LB_NR_IDLE
};

struct schedstat_domain {
	int level;				/* N of "domainN" */
	char name[32];				/* "SMT", "MC", ... (v17+); else "" */
	struct cpumask span;
	uint64_t lb_count[LB_NR_IDLE];
	uint64_t lb_balanced[LB_NR_IDLE];
	uint64_t lb_failed[LB_NR_IDLE];
	/*
	 * Up to v16 the kernel printed one sum of the imbalances whatever
	 * their kind; v17 prints them apart and lb_imbalance is their sum,
	 * the number v16 would have printed.
	 */
	uint64_t lb_imbalance[LB_NR_IDLE];
	uint64_t lb_imbalance_load[LB_NR_IDLE];		/* v17+ */
	uint64_t lb_imbalance_util[LB_NR_IDLE];		/* v17+ */
	uint64_t lb_imbalance_task[LB_NR_IDLE];		/* v17+ */
	uint64_t lb_imbalance_misfit[LB_NR_IDLE];	/* v17+ */
	uint64_t lb_gained[LB_NR_IDLE];
	uint64_t lb_hot_gained[LB_NR_IDLE];
	uint64_t lb_nobusyq[LB_NR_IDLE];
	uint64_t lb_nobusyg[LB_NR_IDLE];
	uint64_t alb_count, alb_failed, alb_pushed;
	uint64_t ttwu_wake_remote, ttwu_move_affine, ttwu_move_balance;
};

struct schedstat_cpu {
	int cpu;			/* N of "cpuN" */
	uint64_t yld_count;
	uint64_t sched_count;
	uint64_t sched_goidle;
	uint64_t ttwu_count;
	uint64_t ttwu_local;
	uint64_t rq_cpu_time_ns;
	uint64_t run_delay_ns;
	uint64_t pcount;
	int nr_domains;
	struct schedstat_domain *domains;	/* into schedstat.domains */
};

struct schedstat {
	int version;
	uint64_t timestamp;		/* jiffies */
	bool has_names;			/* domain names (v17+) */
	bool imbalance_split;		/* lb_imbalance_{load,...} (v17+) */
	int nr_cpus;			/* CPU blocks, in file order */
	struct schedstat_cpu *cpus;
	int nr_domains;			/* all CPUs' domains together */
	struct schedstat_domain *domains;
};

/*
 * The N of the first line, "version N", whether or not this parser
 * knows it (so the caller can say "version 18 is not supported"), or
 * -1 when there is no such line.
 */
int procfs_schedstat_version(const char *buf, size_t len);

/*
 * Parses versions 15, 16 and 17; any other version is -1. Field counts
 * are checked exactly, so a patched kernel that kept a version number
 * but added fields is refused rather than misread. A file cut exactly
 * at a line end reads as one with fewer CPUs or domains: only a caller
 * that knows the online CPUs can tell.
 */
int procfs_parse_schedstat(const char *buf, size_t len, struct schedstat *out);
void schedstat_free(struct schedstat *s);

#endif
