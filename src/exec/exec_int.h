/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of exec/ share: one execution's state (struct exec)
 * and each side's (struct side), and what each file does for the
 * others. Not for use outside exec/.
 */
#ifndef SCHEDLAB_EXEC_INT_H
#define SCHEDLAB_EXEC_INT_H

#include <jansson.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "exec/exec.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "model/run.h"
#include "probe/sysenv.h"

struct store;
struct switchboard;

/* The progress line (stderr, on a terminal). */
struct progress {
	bool on;
	const char *side;	/* the variant now running, or NULL */
	size_t ncases;
	uint64_t start;
	unsigned long done, total;	/* iterations, warm-up included */
};

/* What run's own stop rule reads, and what it says of each case that ends. */
struct precise {
	double threshold;	/* the median known to +-threshold/2 */
	struct store *st;	/* the runs the host's noise model is made of */
	const char *host;
	bool brief;		/* a line a case: the reason kept, not printed */
	char stopped[32];	/* the last case's, for its line */
};

/* The knobs' cost, per iteration that switched something. */
struct switching {
	struct switchboard *sb;
	double *us;
	size_t n;
};

/* One plan's run. */
struct side {
	struct plan *plan;
	const char *name;	/* NULL: the run itself; else its variant's */
	char *label;
	int64_t id;
	size_t complete, failed;
	bool stored;
	const char *end_status;	/* stored with the last case */
	struct case_result res;	/* of the case being run */
	bool have_res;
};

/* One execution of plans[0..nplans), from exec_plans() to its end. */
struct exec {
	const struct run_request *rq;
	struct plan *plans;	/* [0] the run's, then rq->variants' */
	size_t nplans;
	struct side *sd;	/* [nplans] */
	const char **names;	/* [nplans] "variant NAME", NULL for the run */
	struct store *st;
	struct switching sw;
	struct progress pr;
	struct runner_progress rp;	/* the progress line's hook */
	struct precise prec;
	struct run_adapt own;		/* run's own rule (adapt.c) */
	const struct run_adapt *ad;	/* rq->adapt, else &own */
	struct run job;		/* the run's cases not yet printed */
	size_t nbrief;		/* cases printed as a line each */
	json_t *env;		/* the machine, stored with every run */
	struct cpu_times t0;	/* at the start: the steal */
	bool have_t0;
	/* at the start, for what others used of the CPUs the run may use
	 * (allowed, its affinity): their times summed, and this process's
	 * and its children's CPU seconds */
	cpu_set_t allowed;
	struct cpu_times mine0;
	double own0;
	bool have_mine0;
	char host[256];
	char label[256 + sizeof(((struct utsname *)0)->release)];
	char ab[40];		/* the uuid linking the sides' runs */
	uint64_t rng;		/* the rounds' order */
	bool interrupted;
	bool stored;		/* every side's every case */
	int rc;
};

/*
 * engine.c: runs plans[0] (the run) and plans[1..nplans) (rq->variants,
 * in order; every plan has the same cases) into db. *run_id: the run's
 * id, -1 when none was begun; rq->variant_ids the others'. Returns
 * run's exit code.
 */
int exec_plans(struct plan *plans, size_t nplans, const struct run_request *rq,
	       const char *db, int64_t *run_id);

/* store_session.c: the store's side of an execution. */
void exec_begin_runs(struct exec *x, int64_t *run_id);
void exec_store_case(struct exec *x, size_t i, bool last);
void exec_end_runs(struct exec *x);
/* What the machine did while the run ran, into the environment: the
 * steal, and the CPU time other processes used. */
void exec_add_during(struct exec *x);
/* At the start: what exec_add_during() measures from, into x. */
void exec_during_begin(struct exec *x);
void exec_add_switching(json_t *env, const struct switching *sw,
			struct run_switch_stats *out);

/*
 * rounds.c: case i of every side, round by round, until its count, its
 * decision or its budget. 0; -1 when nothing could be started.
 * x->interrupted set when a side was interrupted.
 */
int exec_rounds(struct exec *x, size_t i);
void exec_free_results(struct side *sd, size_t n);

/* adapt.c: run's own rule set up in x->prec, x->own and x->ad. */
void exec_adapt_init(struct exec *x);
void exec_note_offset(const struct precise *p, const struct plan_case *c,
		      const struct case_result *r);

/* progress.c: the progress line and the run's own output. */
void exec_progress_init(struct exec *x);
void exec_progress_clear(const struct progress *p);
void exec_job_flush(struct exec *x);
void exec_print_brief(struct exec *x);
void exec_print_foot(const struct exec *x);
void exec_print_run_end(const struct exec *x, size_t k, const char *status,
			bool ended);
/* "m:ss" or "h:mm:ss". */
void fmt_dur(char *buf, size_t len, double s);

#endif
