// SPDX-License-Identifier: GPL-2.0-only
/*
 * One execution of a plan and of the plans run beside it, start to end:
 * the sides checked against each other, the store opened, stop signals
 * blocked, what the plans change on the machine prepared and checked,
 * the machine described, the runs begun, the cases run one after the
 * other (rounds.c) and stored (store_session.c), everything put back, the
 * runs ended, the exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "exec/exec_int.h"
#include "harness/result.h"
#include "harness/settings.h"
#include "harness/supervise.h"
#include "harness/switch.h"
#include "monitor/monitor.h"
#include "probe/probe.h"
#include "store/store.h"
#include "util.h"

/*
 * How much of the machine others used over a short look, in percent of
 * all CPU time; -1 if /proc/stat cannot say. The load average alone is
 * no guide: in some VMs it reads in the thousands on an idle machine.
 */
static double busy_pct(void)
{
	struct cpu_times a, b;
	uint64_t total, idle;

	if (sysenv_cpu_times(&a))
		return -1;
	usleep(200 * 1000);
	if (sysenv_cpu_times(&b))
		return -1;
	total = cpu_times_total(&b) - cpu_times_total(&a);
	idle = (b.idle + b.iowait) - (a.idle + a.iowait);
	return total ? 100.0 * (double)(total - idle) / (double)total : -1;
}

/* The most any case asks for (perf above on above off). */
static enum probe_level plan_probes(const struct plan *plan)
{
	enum probe_level l = PROBES_OFF;

	for (size_t i = 0; i < plan->ncases; i++) {
		if (plan->cases[i].probes == PROBES_PERF)
			return PROBES_PERF;
		if (plan->cases[i].probes == PROBES_ON)
			l = PROBES_ON;
	}
	return l;
}

/* Two cases' settings alike (the cases of a job share theirs). */
static bool same_settings(const struct plan_case *a, const struct plan_case *b)
{
	if (a->nset != b->nset)
		return false;
	for (size_t i = 0; i < a->nset; i++)
		if (strcmp(a->set[i].key, b->set[i].key) ||
		    strcmp(a->set[i].value, b->set[i].value))
			return false;
	return true;
}

/*
 * The task settings the kernel would refuse (a real-time policy without
 * the right, no uclamp), tried in a child before anything runs: 0, or
 * -1 after error() naming the plan and the job.
 */
static int check_tasks(const struct plan *plans, size_t n,
		       const char *const *names)
{
	char err[512];

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < plans[k].ncases; i++) {
			const struct plan_case *c = &plans[k].cases[i];

			if (!task_settings_any(&c->task) ||
			    (i && same_settings(c, &plans[k].cases[i - 1])))
				continue;
			if (task_settings_check(&c->task, err, sizeof(err)))
				return error("%s%sjob [%s]: %s", names[k] ? names[k] : "",
					     names[k] ? ": " : "", c->job, err);
		}
	return 0;
}

/* The variants' plans must have the run's cases, run as the run's are. */
static int check_sides(struct side *sd, size_t n)
{
	const struct plan *p0 = sd[0].plan;

	for (size_t k = 1; k < n; k++) {
		struct plan *p = sd[k].plan;

		if (p->ncases != p0->ncases)
			return error("variant %s: its plan has %zu case%s, the run's %zu (a --set that sweeps?)",
				     sd[k].name, p->ncases, p->ncases == 1 ? "" : "s",
				     p0->ncases);
		for (size_t i = 0; i < p->ncases; i++) {
			struct plan_case *c = &p->cases[i];
			const struct plan_case *c0 = &p0->cases[i];

			if (strcmp(c->job, c0->job) || c->wl != c0->wl)
				return error("variant %s: case %zu is job %s (%s), the run's job %s (%s)",
					     sd[k].name, i + 1, c->job, c->wl->name,
					     c0->job, c0->wl->name);
			c->iterations = c0->iterations;
			c->auto_iter = c0->auto_iter;
			c->min_iter = c0->min_iter;
			c->max_iter = c0->max_iter;
			c->budget_s = c0->budget_s;
		}
	}
	return 0;
}

/* The sides' names, and each as messages name it ("variant NAME"). */
static void name_sides(struct exec *x)
{
	for (size_t k = 0; k < x->nplans; k++) {
		x->sd[k].plan = &x->plans[k];
		x->sd[k].name = k ? x->rq->variants[k - 1].name : x->rq->name;
		x->sd[k].id = -1;
		x->sd[k].stored = true;
		if (k && x->rq->variant_ids)
			x->rq->variant_ids[k - 1] = -1;
	}
}

static void exec_free(struct exec *x)
{
	for (size_t k = 0; k < x->nplans; k++) {
		free(x->sd[k].label);
		free((char *)x->names[k]);
	}
	free(x->names);
	free(x->sd);
}

/*
 * The sides checked, the store opened, stop signals blocked, what the
 * plans change on the machine checked and journalled: 0, or an exit
 * code with nothing left open.
 */
static int exec_open(struct exec *x, const char *db)
{
	x->sd = xcalloc(x->nplans, sizeof(*x->sd));
	x->names = xcalloc(x->nplans, sizeof(*x->names));
	name_sides(x);
	if (check_sides(x->sd, x->nplans)) {
		exec_free(x);
		return EXIT_USAGE;
	}
	x->st = x->rq->store ? x->rq->store : store_open(db);
	if (!x->st) {
		if (x->rq->store_failed)
			*x->rq->store_failed = true;
		exec_free(x);
		return EXIT_USAGE;
	}
	supervise_block_signals();
	for (size_t k = 0; k < x->nplans; k++)
		if (x->sd[k].name)
			x->names[k] = xasprintf("variant %s", x->sd[k].name);
	if (switch_prepare(x->plans, x->nplans, x->names, &x->sw.sb) ||
	    (check_tasks(x->plans, x->nplans, x->names) &&
	     (switch_close(x->sw.sb), 1))) {
		if (!x->rq->store)
			store_close(x->st);
		exec_free(x);
		return EXIT_USAGE;
	}
	return 0;
}

/* The host stored, and the default label: HOSTNAME-KERNELRELEASE. */
static void exec_host(struct exec *x)
{
	struct utsname u;

	snprintf(x->host, sizeof(x->host), "unknown");
	if (x->rq->host)
		snprintf(x->host, sizeof(x->host), "%s", x->rq->host);
	else
		gethostname(x->host, sizeof(x->host) - 1);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(x->label, sizeof(x->label), "%s-%s", x->host, u.release);
	x->prec.st = x->st;
	x->prec.host = x->host;
}

/* The monitors any case asks for, the missing ones warned of, into env. */
static void env_monitors(struct exec *x)
{
	unsigned mon = 0, named = 0;
	json_t *avail;

	for (size_t k = 0; k < x->nplans; k++)
		for (size_t i = 0; i < x->plans[k].ncases; i++) {
			mon |= x->plans[k].cases[i].monitors;
			named |= x->plans[k].cases[i].monitors_named;
		}
	if (!mon)
		return;
	avail = json_object();
	monitor_warn_unavailable(mon, named, avail);
	json_object_set_new(x->env, "monitors", avail);
}

/*
 * The machine's description stored with every run: the system, the
 * probes and monitors available, the rounds' seed, how busy it was;
 * then the warnings that come before anything runs.
 */
static void exec_environment(struct exec *x)
{
	const struct run_request *rq = x->rq;
	uint64_t seed;
	double busy;

	x->env = sysenv_collect();
	json_object_set_new(x->env, "probes",
			    probes_availability(plan_probes(&x->plans[0])));
	env_monitors(x);
	if (rq->seed)
		seed = rq->seed;
	else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = now_ns() ^ (uint64_t)getpid() << 32;
	seed &= (1ULL << 53) - 1;	/* exact in a JSON number */
	x->rng = seed;
	if (x->nplans > 1)
		json_object_set_new(x->env, "interleave_seed",
				    sysenv_item(json_integer((json_int_t)seed)));
	uuid_new(x->ab, sizeof(x->ab));
	busy = busy_pct();
	if (busy >= 0)
		json_object_set_new(x->env, "busy_at_start",
				    sysenv_item(json_real(busy)));
	if (busy > 25)
		warning("the machine was busy when the run started (%.0f%% of CPU time used over 0.2 s): results may be noisy",
			busy);
	/* iterations are the unit only between sides measured in one
	 * run's rounds (ab's variants, judge's live references); separate
	 * runs are compared run against run, whatever their iterations */
	if (x->nplans > 1)
		plan_warn_power(&x->plans[0], (enum stat_test)rq->test, 0.05);
	x->have_t0 = !sysenv_cpu_times(&x->t0);
	exec_during_begin(x);
}

/*
 * Case i on every side: run, stored, summarised. true when the run
 * stops here (a case that could not be started, an interruption).
 */
static bool exec_case(struct exec *x, size_t i)
{
	const struct plan_case *c = &x->plans[0].cases[i];
	bool last = i + 1 == x->plans[0].ncases;

	snprintf(x->prec.stopped, sizeof(x->prec.stopped), "as asked");
	if (x->job.ncases && strcmp(x->job.cases[0].job, c->job)) {
		exec_progress_clear(&x->pr);
		exec_job_flush(x);
	}
	if (exec_rounds(x, i)) {
		x->rc = EXIT_RUN_FAILED;
		return true;
	}
	if (x->interrupted)
		return true;
	if (x->nplans == 1 && !x->rq->adapt && !x->rq->quiet)
		exec_note_offset(&x->prec, c, &x->sd[0].res);
	/*
	 * Stop signals stay blocked from the case's end to its
	 * store's end (a lock wait included); one that came meanwhile
	 * is taken here or after the store: the case is kept, the run
	 * ends partial, exit 130. The last case carries each run's end
	 * in its own transaction: both are stored, or neither.
	 */
	if (supervise_stop_pending()) {
		x->interrupted = true;
	} else if (last) {
		exec_add_during(x);
		exec_add_switching(x->env, &x->sw, NULL);
	}
	exec_store_case(x, i, last);
	/* a stop while the store waited (and failed, perhaps) still counts */
	if (supervise_stop_pending())
		x->interrupted = true;
	if (!x->rq->quiet && x->sd[0].stored)
		run_case_from_result(&x->job, c, &x->sd[0].res);
	if (x->prec.brief && x->job.ncases)
		exec_print_brief(x);
	exec_free_results(x->sd, x->nplans);
	return x->interrupted;
}

/*
 * After the last case: the summary's end printed, the knobs back and
 * the cgroups gone before the runs end, the runs ended.
 */
static void exec_finish(struct exec *x)
{
	exec_free_results(x->sd, x->nplans);
	exec_progress_clear(&x->pr);
	if (!x->rq->quiet)
		exec_job_flush(x);
	exec_print_foot(x);
	run_free(&x->job);
	if (switch_close(x->sw.sb))
		x->rc = x->rc == EXIT_OK ? EXIT_RUN_FAILED : x->rc;
	x->sw.sb = NULL;
	exec_add_switching(x->env, &x->sw, x->rq->switch_stats);
	free(x->sw.us);
	exec_end_runs(x);
}

/* The store closed, everything freed: the run's exit code. */
static int exec_close(struct exec *x)
{
	size_t kept = x->sd[0].complete + x->sd[0].failed;
	int rc = x->rc;

	if (!x->stored && x->rq->store_failed)
		*x->rq->store_failed = true;
	json_decref(x->env);
	if (x->rq->store)
		;	/* the caller's */
	else if (x->rq->keep_store)
		*x->rq->keep_store = x->st;
	else
		store_close(x->st);
	for (size_t k = 0; k < x->nplans; k++)
		rc = rc == EXIT_OK && x->sd[k].failed ? EXIT_RUN_FAILED : rc;
	exec_free(x);
	if (x->interrupted) {
		error("run: interrupted; the %zu finished case%s kept", kept,
		      kept == 1 ? " is" : "s are");
		return EXIT_INTERRUPTED;
	}
	return rc;
}

int exec_plans(struct plan *plans, size_t nplans, const struct run_request *rq,
	       const char *db, int64_t *run_id)
{
	struct exec x = { .rq = rq, .plans = plans, .nplans = nplans,
			  .job = { .id = -1 }, .stored = true, .rc = EXIT_OK };
	int rc;

	*run_id = -1;
	exec_progress_init(&x);
	exec_adapt_init(&x);
	rc = exec_open(&x, db);
	if (rc)
		return rc;
	if (rq->checked)
		rq->checked(rq->checked_arg);
	exec_host(&x);
	exec_environment(&x);
	exec_begin_runs(&x, run_id);
	for (size_t i = 0; i < plans[0].ncases && x.rc == EXIT_OK; i++)
		if (exec_case(&x, i))
			break;
	exec_finish(&x);
	return exec_close(&x);
}
