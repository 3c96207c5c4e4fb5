/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subcommands. Each takes argv with argv[0] = its own name, returns an
 * exit code (util.h) and has already said why when that is not 0. To add
 * one: a file here, a prototype below, a line in src/main.c's table, a
 * section in doc/schedlab.1 and README.md.
 */
#ifndef SCHEDLAB_CMD_H
#define SCHEDLAB_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int cmd_bench(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_pull(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_judge(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_campaign(int argc, char **argv);

/*
 * A queued job's plan (queue add's check, and the agent's again): its
 * text, named where in messages, with its --set and --iterations as
 * `run` applies them; a file with variants refused. -1 after error().
 */
struct plan;
int queue_load_plan(const char *who, const char *where, const char *text,
		    size_t len, const char *const *sets, size_t nsets,
		    const char *iterations, struct plan *p);

/*
 * What `schedlab run` does once its options are read, for run and
 * judge: load a suite or job file, run every case, store the run.
 * Returns run's exit code; *run_id is the stored run's id, or -1 when
 * none was begun.
 */
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

/* trace_opts checked: 0, or -1 after error() naming who's option. */
int trace_opts_check(const char *who, const struct trace_opts *t);

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
	bool tables;		/* each job's mmtests tables as it ends,
				 * not a line a case (run's own rule only) */
	int test;		/* enum stat_test it is judged by, for the
				 * plan-time warning; 0: mann-whitney */
	const char *command;	/* the command line, for the record */
	/* when not NULL, set when the database could not be opened or
	 * written (judge aborts the bisection rather than blame a commit) */
	bool *store_failed;
};

/*
 * The options of run, ab and judge that choose iteration counts and
 * monitors, checked: 0, or -1 after error() naming who's option.
 */
int run_check_iterations(const char *who, const struct run_request *rq);

/* --threshold PCT (0..1000) into *out: 0, or -1 after error(). */
int parse_percent(const char *who, const char *s, double *out);

int run_suite(const struct run_request *rq, int64_t *run_id);

/*
 * --dry-run: the plan printed with its estimated time (for every plan
 * run beside it too), the variants' plans loaded and checked. An exit
 * code.
 */
int run_dry(const struct run_request *rq);

#endif
