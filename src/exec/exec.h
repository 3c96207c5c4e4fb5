/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exec: the engine behind `schedlab run`, `judge` and `ab` (and so
 * campaigns, whose boots run `schedlab run`): a struct run_request
 * filled by a command -> the plan and the plans run beside it (struct
 * run_variant) -> their cases interleaved round by round in a shuffled
 * order, adaptive cases looked at as they go (stats/sequential.h) ->
 * each plan's run stored case by case with the machine's description,
 * the run's own summary printed case by case or job by job.
 *
 * The files: plans.c (the request's plans, --dry-run), engine.c (one
 * execution from the store opened to the runs ended), store_session.c (the
 * store: runs begun, cases stored, runs ended), rounds.c (one case's
 * rounds on every side), adapt.c (run's own stopping rule) and
 * progress.c (the progress line and the run's own output); exec_int.h
 * is what they share.
 */
#ifndef SCHEDLAB_EXEC_H
#define SCHEDLAB_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plan_case;
struct case_result;

/*
 * A plan run beside the run itself, round by round (every round runs
 * each plan's iteration once, in an order shuffled per round from a
 * recorded seed): the same suite or job file with its own --set
 * overrides applied after the run's. Judge's live references. Stored
 * as a run of its own, labelled LABEL/NAME.
 */
struct run_variant {
	const char *name;
	const char *const *sets;
	size_t nsets;
	/* where each set came from, for messages (NULL: "--set TEXT") */
	const char *const *origins;
};

/* Knobs written before an iteration and put back after it (switch.h). */
struct run_switch_stats {
	unsigned n;		/* iterations that switched something */
	double median_us, max_us;	/* apply + restore, each iteration */
};

/* What decides an adaptive case (iterations = auto). */
struct run_adapt {
	/*
	 * At each look (stats/sequential.h) of case c: r[0] is the run's
	 * own result, r[1..nr) the variants'. true: enough; why says what
	 * decided, or what is still missing.
	 */
	bool (*enough)(void *arg, const struct plan_case *c,
		       const struct case_result *const *r, size_t nr,
		       char *why, size_t len);
	/*
	 * Case c ended after n iterations a side: why is the decision, or
	 * the limit that was hit and the last look's why. NULL: nothing.
	 */
	void (*done)(void *arg, const struct plan_case *c, unsigned n,
		     bool decided, const char *why);
	void *arg;
};

/*
 * --trace, --trace-scope, --trace-dir, --trace-tasks and --monitor-cpus
 * (cmd/setup.h's OPT_TRACE): the job file's keys of those names over
 * every job; NULL: the file's.
 */
struct trace_opts {
	const char *trace, *scope, *dir, *tasks, *monitor_cpus;
};

struct store;

struct run_request {
	const char *spec;	/* SUITE or JOBFILE; NULL: quick */
	const char *label;	/* NULL: HOSTNAME-KERNELRELEASE */
	const char *db;		/* NULL: the default database */
	const char *uuid;	/* the run's uuid (an agent's); NULL: a new one */
	const char *host;	/* the host stored; NULL: the node name */
	/* over the job file's: NULL, a count or "auto"; 0/NULL: the file's */
	const char *iterations;
	unsigned min_iter, max_iter;
	const char *budget;
	/* --monitor, --monitor-interval over the job file's; NULL: its */
	const char *monitors, *monitor_interval;
	struct trace_opts trace;	/* over the job file's; NULL: its */
	double threshold;	/* percent; run's own adaptive rule (0: 5) */
	const char *const *sets;	/* --set KEY=VALUE over the job file */
	size_t nsets;
	const struct run_variant *variants;	/* run beside it; may be NULL */
	size_t nvariants;
	/* the run's own variant name (ab's first variant): labelled
	 * LABEL/NAME too; NULL: the run itself, labelled LABEL */
	const char *name;
	const struct run_variant *own;	/* its sets; NULL: none */
	uint64_t seed;		/* of the rounds' order; 0: a random one */
	bool ab;		/* a job file's [variant:NAME] sections are
				 * ab's (run and judge refuse them); a side's
				 * failure of a case is its own (judge's
				 * sides end together) */
	/* when not NULL: what applying and restoring knobs cost */
	struct run_switch_stats *switch_stats;
	const struct run_adapt *adapt;	/* NULL: seq_precise() at threshold */
	int64_t *variant_ids;	/* [nvariants]: their runs' ids, -1: none */
	bool quiet;		/* no progress, no summary */
	bool no_tables;		/* progress, but no job's mmtests tables:
				 * the caller prints its own layout (ab) */
	bool tables;		/* each job's mmtests tables as it ends,
				 * not a line a case (run's own rule only) */
	int test;		/* enum stat_test it is judged by, for the
				 * plan-time warning; 0: mann-whitney */
	const char *command;	/* the command line, for the record */
	/* when not NULL, set when the database could not be opened or
	 * written (judge aborts the bisection rather than blame a commit) */
	bool *store_failed;
	/* when not NULL, the database's handle is left open here for the
	 * caller to read the run back through and close (judge); NULL
	 * when it was never opened, or was the caller's (store) */
	struct store **keep_store;
	/* when not NULL, the caller's read-write handle of db, written
	 * through and left open (judge, which read its references
	 * through it): the database is opened once a command */
	struct store *store;
	/* when not NULL, called once every input is checked (the plans,
	 * the workloads' limits, the sides, the knobs and task settings)
	 * and before anything runs: ab's header goes there, so that a
	 * mistake is the first thing said; exec_dry() calls it once the
	 * plans are loaded */
	void (*checked)(void *arg);
	void *checked_arg;
};

/*
 * What `schedlab run` does once its options are read, for run, judge
 * and ab: load a suite or job file, run every case, store the run.
 * Returns run's exit code; *run_id is the stored run's id, or -1 when
 * none was begun.
 */
int exec_run(const struct run_request *rq, int64_t *run_id);

/*
 * --dry-run: the plan printed with its estimated time (for every plan
 * run beside it too), the variants' plans loaded and checked. An exit
 * code.
 */
int exec_dry(const struct run_request *rq);

/*
 * How the reason of a side's case begins (after "stopped after N
 * iterations: ") when it failed because another side did, the name of
 * that side ("the run" for the run itself) after it.
 */
#define RUN_EXEC_OTHER_FAILED "the case failed on"

#endif
