/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * monitor: what the machine did while an iteration ran, sampled over
 * time - mmtests' monitors, lkp-tests' stats - beside the probes'
 * totals (probe/probe.h), which say how much but not when.
 *
 * A monitor reads one system-wide source every monitor_interval (1 s by
 * default) and turns two reads into one row of values over the interval
 * between them: cpu (per-CPU utilization, /proc/stat), runq (run-queue
 * length and blocked tasks, /proc/stat and /proc/loadavg), ctxsw
 * (context switches and interrupts per second), psi (/proc/pressure),
 * vmstat (paging and reclaim, /proc/vmstat), schedstat (/proc/schedstat
 * per CPU and per domain), sched_debug (/sys/kernel/debug/sched/debug or
 * /proc/sched_debug) and cpufreq (sysfs, per CPU). Each says why it is
 * unavailable, as probes do.
 *
 * The monitors of a case sample in a sampler process of their own
 * (pinned to monitor_cpus when asked: monitor_pin()),
 * forked by monitor_start() before the workload process and stopped by
 * monitor_stop() after it is reaped: outside the workload's tasks, which
 * it never touches (a thread in schedlab would make every workload
 * process forked after it a multi-threaded process's child, and its
 * stack and malloc arena theirs). The sampler keeps its rows until it is
 * stopped, then sends them through a pipe and exits; it dies with
 * schedlab (PR_SET_PDEATHSIG) and ignores the terminal's signals, which
 * schedlab takes.
 *
 * What an iteration's monitor keeps is its series (monitor_series_json():
 * a column of numbers as text per field, compact and exact across export
 * and import) and, for each of its summary fields, three metrics of the
 * row: monitor.NAME.FIELD.mean (weighted by each interval's length),
 * .max and .p95, which compare like any metric.
 *
 * $SCHEDLAB_MONITOR_ROOT, when set, is put before every path a monitor
 * reads (/proc/stat is then $SCHEDLAB_MONITOR_ROOT/proc/stat): tests
 * read a fixture of a machine that has what this one lacks.
 */
#ifndef SCHEDLAB_MONITOR_H
#define SCHEDLAB_MONITOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "metric.h"

/*
 * The monitors, one line each: X(ID, name, ops, what it samples). The
 * enum, the names the options accept (MONITORS_ACCEPTED) and the table
 * monitor_info[] are made from it; ops is the struct monitor_ops its
 * source file defines (monitor_src.c, monitor_sched.c). A new monitor is
 * a line here and its ops (doc/architecture.md, "Adding a monitor").
 */
#define MONITOR_LIST(X)							\
	X(CPU, "cpu", cpu_ops, "per-CPU utilization (/proc/stat)")	\
	X(RUNQ, "runq", runq_ops, "runnable and blocked tasks, load average (/proc/stat, /proc/loadavg)") \
	X(CTXSW, "ctxsw", ctxsw_ops, "context switches, interrupts, softirqs and forks per second (/proc/stat)") \
	X(PSI, "psi", psi_ops, "pressure stall: cpu, memory, io (/proc/pressure)") \
	X(VMSTAT, "vmstat", vmstat_ops, "paging, faults and reclaim (/proc/vmstat)") \
	X(SCHEDSTAT, "schedstat", schedstat_ops, "wakeups, run delay per CPU, load balancing per domain (/proc/schedstat)") \
	X(SCHED_DEBUG, "sched_debug", sched_debug_ops, "run-queue lengths and switches per CPU (debugfs sched/debug or /proc/sched_debug)") \
	X(CPUFREQ, "cpufreq", cpufreq_ops, "each CPU's current frequency (sysfs cpufreq)")

#define MON_ENUM_(id, name, ops, summary) MON_##id,
enum monitor_id {
	MONITOR_LIST(MON_ENUM_)
	MON_N
};
#undef MON_ENUM_

#define MON_BIT(id) (1u << (id))
/* `default`: all but sched_debug, whose file is large on a big machine */
#define MON_DEFAULT (((1u << MON_N) - 1) & ~MON_BIT(MON_SCHED_DEBUG))
#define MON_ALL ((1u << MON_N) - 1)

#define MONITOR_INTERVAL_DEF_MS 1000u
#define MONITOR_INTERVAL_MIN_MS 10u
#define MONITOR_INTERVAL_MAX_MS 3600000u

#define MON_NAME_COMMA_(id, name, ops, summary) name ", "
#define MONITORS_ACCEPTED \
	"a comma list of " MONITOR_LIST(MON_NAME_COMMA_) "or default, all or none"
#define MONITOR_INTERVAL_ACCEPTED "a duration in 10ms..1h such as 1s, 250ms or 0.5"

struct monitor_ops;
struct monitor_info {
	const char *name;
	const char *summary;
	const struct monitor_ops *ops;
};
extern const struct monitor_info monitor_info[MON_N];

/*
 * "cpu,psi", "default", "all", "none" (also "off", "") into a mask of
 * MON_BIT()s; -1 with what is wrong in err ("'foo' is not a monitor").
 */
int monitor_parse_list(const char *text, unsigned *mask, char *err, size_t len);
/*
 * The monitors text names one by one (a valid list): "default" and
 * "all" name none, so that a set's members a machine lacks are recorded
 * without a warning on every run, while one asked for by name warns.
 */
unsigned monitor_named(const char *text);
/* "1s", "250ms", "0.5" (seconds), "2m" into milliseconds; -1 as above. */
int monitor_parse_interval(const char *text, unsigned *ms, char *err,
			   size_t len);
/* mask as the list monitor_parse_list() reads back: "cpu,runq" ("" none). */
void monitor_list_format(unsigned mask, char *buf, size_t len);

/*
 * Whether monitor id can run here: 0, or -1 with why in why ("/proc/
 * schedstat: No such file or directory; the kernel needs CONFIG_
 * SCHEDSTATS").
 */
int monitor_available(enum monitor_id id, char *why, size_t len);

/*
 * Warns once for each monitor of mask named (monitor_named()) that
 * cannot run here, saying why; returns the mask of those of mask that
 * can. avail, when not NULL, gets
 * {"NAME": {"available": true}, "NAME": {"available": false, "reason":
 * "..."}} for each of mask (the run's environment keeps it as
 * "monitors").
 */
unsigned monitor_warn_unavailable(unsigned mask, unsigned named, json_t *avail);

/* One column of a monitor's rows. */
struct monitor_col {
	char name[48];		/* "busy_pct", "cpu3.busy_pct", "domain1.lb_count_per_s" */
	const char *unit;
	const char *help;
	bool summary;		/* gets .mean, .max and .p95 metrics */
};

/* What one open monitor reads and keeps between two reads. */
struct monitor_ops;

/* The monitors of a case, opened: their columns, then their sampler. */
struct monitor_set {
	unsigned mask;		/* the monitors opened (available) */
	unsigned interval_ms;
	const struct monitor_ops *ops[MON_N];
	void *state[MON_N];
	size_t col0[MON_N], ncol[MON_N];
	struct monitor_col *col;	/* every monitor's, in enum order */
	size_t ncols;
	/* the summary metrics: 3 per summary column, in column order */
	struct metric_def *metrics;
	size_t nmetrics;
	char *cpus;		/* the sampler's affinity (cpulist); NULL: inherit */
	/* the sampler, between monitor_start() and monitor_stop() */
	pid_t pid;		/* 0: none */
	int ctl_fd, data_fd;	/* -1: none */
};

/* The rows of one iteration: t (end of each interval, s from the start), dt. */
struct monitor_rows {
	size_t n;
	double *t, *dt;
	double *v;		/* n x set->ncols; NAN: not read */
};

/*
 * Opens the monitors of mask that are available (quietly: see
 * monitor_warn_unavailable()) and lays out their columns. An empty mask
 * gives an empty set, which starts nothing. 0, or -1 after error().
 */
int monitor_open(struct monitor_set *s, unsigned mask, unsigned interval_ms);
void monitor_close(struct monitor_set *s);
/*
 * Pins the sampler to cpus (a cpulist, checked; NULL: where schedlab
 * runs), from its next start: monitor_cpus keeps it off the CPUs a
 * workload is measured on. A sampler that cannot be pinned says so and
 * samples unpinned.
 */
void monitor_pin(struct monitor_set *s, const char *cpus);

/*
 * Forks the sampler, which reads every monitor now and then every
 * interval. fds[0..1] get the two descriptors schedlab keeps to it, which
 * the workload process must close; -1 when there is none to start. 0,
 * or -1 after error().
 */
int monitor_start(struct monitor_set *s, int fds[2]);
/*
 * Stops the sampler: it reads once more (when at least a quarter of an
 * interval has passed, or it has no row yet), sends its rows and exits.
 * 0 with rows filled (monitor_rows_free()), or -1 after warning() with
 * rows empty; the sampler is gone either way.
 */
int monitor_stop(struct monitor_set *s, struct monitor_rows *rows);
void monitor_rows_free(struct monitor_rows *rows);

/*
 * {"NAME": series, ...}, one member per monitor of the set: series is
 * {"interval_ms": 1000, "t": "1.000 2.000", "FIELD": "12.5 80", ...}, each
 * column its values as text ("%.5g", "-" where not read). NULL when
 * there are no rows.
 */
json_t *monitor_rows_json(const struct monitor_set *s,
			  const struct monitor_rows *rows);

/* The summary metrics of rows into out[s->nmetrics] (NAN: no value). */
void monitor_summaries(const struct monitor_set *s,
		       const struct monitor_rows *rows, double *out);

/*
 * A column of a stored series back into numbers: *x (malloc'd) gets its
 * values ("-": NAN); returns how many, or -1 if text is not such a
 * column.
 */
long monitor_column_parse(const char *text, double **x);

/* ---- for the monitors (monitor_src.c) ---- */

struct monitor_ops {
	/*
	 * Reads the source once: 0 and state (its first read kept) and the
	 * columns (appended by monitor_col_add()), or -1 with why.
	 */
	int (*open)(void **state, struct monitor_set *s, char *why, size_t len);
	/*
	 * Reads again and writes the columns' values over the dt seconds
	 * since the last read into out (NAN: not known); its state then
	 * holds this read.
	 */
	void (*sample)(void *state, double dt, double *out);
	void (*close)(void *state);
};

#define MON_OPS_DECL_(id, name, ops, summary) extern const struct monitor_ops ops;
MONITOR_LIST(MON_OPS_DECL_)
#undef MON_OPS_DECL_

/* Appends a column to s (the monitor being opened). */
void monitor_col_add(struct monitor_set *s, bool summary, const char *unit,
		     const char *help, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* path under $SCHEDLAB_MONITOR_ROOT, into buf. */
const char *monitor_path(const char *path, char *buf, size_t len);
/* The whole file at monitor_path(path) (NUL-ended; free() it), or NULL. */
char *monitor_slurp(const char *path, size_t *len);

#endif
