/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan: a job file (INI, in the manner of fio) expanded into the list of
 * cases a run will execute.
 *
 *   [global]
 *   iterations = 10          ; harness keys: iterations, warmup, timeout,
 *   warmup = 1               ;   retries, cpus - in [global] or a job
 *   timeout = 300s
 *
 *   [hackbench-process-pipes] ; one section per job
 *   workload = messaging
 *   ipc = pipe                ; any option of the workload, by the
 *   groups = 1,4,$ncpu,2*$ncpu ;  canonical name of its option table
 *   loops = 1000
 *
 * Harness keys, in [global] or a job (the job's value wins): iterations
 * (1..10000, default 5, or auto: from min_iterations (default 5) to
 * max_iterations (default 30) as the decision needs, within budget, a
 * duration or none, the most wall time the case may take), warmup (0..1000, default 0), timeout (per
 * iteration: "300", "300s", "5m", "1h", up to a year, or "none"; default
 * none), estimate (a duration: what one iteration takes, for --dry-run's
 * estimate of a case no earlier run in the database tells), retries (0..100, default 0), cpus (a cpulist such as "0-3,8" of
 * CPUs this machine has; default: inherit), probes (on, off or perf,
 * default on: the scheduler metrics of probe/probe.h; perf adds perf's
 * software counters, at a cost on every context switch), monitors (a
 * comma list of monitor/monitor.h's monitors, default, all or none;
 * default none), monitor_interval (10ms..1h, default 1s), monitor_cpus
 * (a cpulist the monitors' sampler is pinned to; default: inherit),
 * trace (perf-sched or a shell command run around the timed region,
 * trace/trace.h; default none), trace_scope (iteration or case),
 * trace_dir (where tracers' output goes; default DB.traces) and
 * trace_tasks (perf-sched's task kinds, comms; default schedlab), and the settings
 * of harness/settings.h (nice, policy, uclamp_min, uclamp_max, env.NAME,
 * cgroup.CONTROLLER.FILE, sysctl.NAME, sched.NAME, sched_feat, scx, a
 * path under /proc or /sys), taken as written. A [variant:NAME] section
 * holds the settings or options of ab's variant NAME (not a job; `run`
 * refuses a file with variants). Every other key of a job is
 * an option of its workload, by its name or an alias (rr's length is
 * runtime; '_' and '-' alike); one option under two names in a section
 * is a mistake. Durations (runtime) take 30, 30s, 2m or 1h. Workload
 * options in [global] apply to the jobs whose workload has them, unless
 * a job sets its own; one that no job's workload has is a mistake.
 * plan_load_with() applies run --set KEY=VALUE over the file.
 *
 * A value with a comma or a range is a sweep: "1,4,8", "1..16",
 * "1..16:2" (step), "1..64:*2" (doubling; the end is included only when
 * a step lands on it), "pipe,socket" (names). Terms may use $ncpu, the
 * online CPUs (or $SCHEDLAB_NCPU when set, for tests): "$ncpu",
 * "2*$ncpu", "$ncpu*2", "$ncpu/2" (integer division; a term that comes
 * to 0 is a mistake). Values repeated by the expansion are dropped, the
 * first kept. Several swept options in one job give their cartesian
 * product, the first swept key outermost ([global]'s before the job's).
 * A plan has at most PLAN_MAX_CASES cases.
 *
 * Everything is validated while loading, with the option table of the
 * job's workload; a mistake is reported as "FILE:LINE: ..." naming the
 * option and what it accepts, and plan_load() returns -1 (exit 2).
 */
#ifndef SCHEDLAB_PLAN_H
#define SCHEDLAB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "harness/settings.h"
#include "stats/tests.h"
#include "workload/workload.h"

#define PLAN_MAX_CASES 10000

struct plan_case {
	unsigned seq;		/* 1-based, in run order */
	char *job;		/* the section name */
	const struct workload *wl;
	void *cfg;		/* the workload's config, every option set */
	/*
	 * With the workload and its version, what identifies a case
	 * across runs (harness/identity.h): the options that differ from
	 * their defaults, "name=value" sorted by name; "" when none.
	 */
	char *params;
	char *sweep_keys;	/* swept option names, space-separated; "" if none */
	char *sweep;		/* their values in this case, e.g. "4" or "4 pipe" */
	unsigned iterations;	/* default 5; auto: at most max_iter */
	/*
	 * iterations = auto: after min_iter, as many as the decision the
	 * run is for needs (stats/sequential.h), up to max_iter and the
	 * budget (wall seconds of the case; 0: none)
	 */
	bool auto_iter;
	unsigned min_iter, max_iter, budget_s;
	unsigned warmup;	/* default 0 */
	unsigned timeout_s;	/* per iteration; default 0 = none */
	/* what the job says one iteration takes, for --dry-run; 0: unsaid */
	unsigned estimate_s;
	unsigned retries;	/* of a failed iteration; default 0 */
	/* cpus and probes (when not on) are stored with the case as its
	 * run settings (identity_settings()) */
	char *cpus;		/* affinity as a cpulist; NULL: inherit */
	int probes;		/* enum probe_level: on (0), off, perf */
	/* monitors (monitor/monitor.h): MON_BIT()s, 0 for none; ms;
	 * those named one by one (a set's members are not: monitor_named()) */
	unsigned monitors, monitor_ms, monitors_named;
	char *monitor_cpus;	/* the sampler's affinity, a cpulist; NULL: inherit */
	/*
	 * Tracing hooks (trace/trace.h): trace (TRACE_PERF_SCHED or a
	 * shell command; NULL: off), trace_scope (enum trace_scope),
	 * trace_dir (NULL: the database's path plus ".traces"), trace_tasks
	 * (perf-sched's task kinds), and trace_root, the run's directory
	 * under trace_dir, which the executor sets once it knows the run's
	 * uuid (NULL: the case is not traced).
	 */
	char *trace;
	int trace_scope;
	char *trace_dir, *trace_tasks, *trace_root;
	/*
	 * Settings (harness/settings.h: nice, policy, env.*, cgroup.*,
	 * sysctl.*, ...) as written, sorted by key; stored with the case
	 * as run settings too. task: the task settings among them, parsed
	 * (its cgroup_procs filled by switch_prepare()).
	 */
	struct setting *set;
	size_t nset;
	struct task_settings task;
};

/*
 * A [variant:NAME] section of a job file: ab's variant NAME, its lines
 * as KEY=VALUE over every job (as run --set applies them).
 */
struct plan_variant {
	char *name;
	char **sets;		/* "KEY=VALUE", in file order */
	char **origins;		/* "FILE:LINE" of each */
	size_t nsets;
	unsigned line;		/* the section's */
};

struct plan {
	char *source;		/* the file read, or "built in" */
	char *name;		/* the file's name without directory and .job */
	struct plan_case *cases;
	size_t ncases;
	struct plan_variant *variants;	/* [variant:NAME] sections, in order */
	size_t nvariants;
};

/*
 * A --set over a job file: KEY=VALUE or JOB.KEY=VALUE, and where it
 * came from for messages (NULL: "--set TEXT"; ab's variants: "variant
 * slice: TEXT" or the job file's line).
 */
struct plan_set {
	const char *text;
	const char *origin;
};

/*
 * Loads and expands a job file into *p, which plan_free() releases.
 * Returns -1 after saying what is wrong, *p then empty.
 */
int plan_load(const char *path, struct plan *p);

/*
 * plan_load() with run --set arguments applied over the file: each
 * "KEY=VALUE" to every job that has KEY (a harness key, or an option of
 * its workload by any of its names), "JOB.KEY=VALUE" to job JOB alone;
 * VALUE is read as in the file, sweeps included. Mistakes are reported
 * as "--set KEY=VALUE: ...".
 */
int plan_load_with(const char *path, const char *const *sets, size_t nsets,
		   struct plan *p);

/*
 * SPEC, a job file's path or a suite's name, loaded as plan_load_with()
 * does. A path (it has a '/', ends in .job or names an existing file)
 * is always a file; a name is looked up in $SCHEDLAB_JOBS, then among
 * the suites built into the binary from jobs/ (harness/suites.h). A
 * built-in suite's messages name it "NAME.job"; its plan's source is
 * "built in". -1 after saying what is wrong (exit 2).
 */
int plan_load_spec(const char *spec, const char *const *sets, size_t nsets,
		   struct plan *p);
/* plan_load_spec() with each set's origin. */
int plan_load_sets(const char *spec, const struct plan_set *sets, size_t nsets,
		   struct plan *p);

/*
 * SPEC's job file text as plan_load_spec() would read it (a file, one of
 * $SCHEDLAB_JOBS, a built-in suite) into *text (malloc'd, NUL-ended,
 * *len bytes), and into where the name its messages use (the path, or
 * "NAME.job"): what `queue add` stores. -1 after error().
 */
int plan_spec_text(const char *spec, char **text, size_t *len, char *where,
		   size_t wlen);

/*
 * A job file held in memory loaded as plan_load_sets() loads a file:
 * WHERE names it in messages ("quick.job:12: ..."), SOURCE in the
 * printed plan.
 */
int plan_load_text_sets(const char *where, const char *source,
			const char *text, size_t len,
			const struct plan_set *sets, size_t nsets,
			struct plan *p);

/*
 * The suites plan_load_spec() can find, $SCHEDLAB_JOBS's under its
 * name and then the built-in ones not replaced by those: each one's
 * name and the first comment line of its file. -1 if writing failed.
 */
int plan_list_suites(FILE *f);

/*
 * The expanded plan for --dry-run: a header line (name, source, cases,
 * iterations), then per case its seq, job, workload, swept values,
 * iterations+warmup and every option's value ("name=value", in
 * option-table order).
 */
void plan_print(FILE *f, const struct plan *p);

/*
 * Warns (stderr, before anything runs) of the cases whose iteration
 * count is too small for test t to reach significance at alpha in a
 * comparison of two such runs (stats_min_samples()), one line per
 * distinct count, naming the jobs unless every case has it:
 * "3 iterations: mann-whitney cannot reach p < 0.05 below 4 a side;
 * use 5 or more, or --iterations auto". Returns the lines printed.
 */
int plan_warn_power(const struct plan *p, enum stat_test t, double alpha);

void plan_free(struct plan *p);

/* A variant's set and its origin added; all of it freed. */
void plan_variant_add(struct plan_variant *v, const char *set,
		      const char *origin);
void plan_variant_free(struct plan_variant *v);

/* Whether name may name a variant: 1..32 of letters, digits, _ - . + */
bool plan_variant_name_ok(const char *name);

/*
 * Whether name may name a job (a job file's [section], so a stored
 * case's job): 1..PLAN_JOB_NAME_MAX of letters, digits, . _ - +, and
 * not "global".
 */
#define PLAN_JOB_NAME_MAX 64
bool plan_job_name_ok(const char *name);

/*
 * An iteration count as a job file or --iterations gives it: 0 with *n
 * the count (1..10000), or 0 for auto; -1 not a count, -2 out of range.
 */
int plan_parse_iterations(const char *s, unsigned *n);
#define PLAN_ITERATIONS_ACCEPTED "a whole number in 1..10000, or auto"


#endif
