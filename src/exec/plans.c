// SPDX-License-Identifier: GPL-2.0-only
/*
 * A request's plans: its SUITE or JOBFILE loaded with its --set, then
 * each variant's, then its iteration, monitor and trace options as
 * harness keys over every job; prepared and handed to the engine
 * (exec_run()), or printed with their estimated time (exec_dry()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_int.h"
#include "harness/identity.h"
#include "harness/plan.h"
#include "model/run.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

/*
 * --dry-run's estimate, from earlier runs of the same cases in db, else
 * from the job's estimate key; -1 when db exists but is no schedlab
 * database (a real run would fail).
 */
static int print_estimate(const struct plan *plan, const char *path,
			  size_t nplans)
{
	char *db = store_url_redact(path);	/* as messages name it */
	struct store *st = NULL;
	size_t known = 0, said = 0;
	double total = 0, secs;
	char d[32];

	if (!store_missing(path) && !(st = store_open_ro(path))) {
		free(db);
		return -1;
	}
	for (size_t i = 0; i < plan->ncases; i++) {
		const struct plan_case *c = &plan->cases[i];

		if (st && store_estimate(st, c->wl->name, identity_version(c->wl),
					 c->params, &secs) == 1) {
			total += secs * (c->iterations + c->warmup);
			known++;
		} else if (c->estimate_s) {
			total += (double)c->estimate_s * (c->iterations + c->warmup);
			said++;
		}
	}
	if (st)
		store_close(st);
	if (!known && !said) {
		printf("estimated time: unknown (no earlier run of these cases in %s)\n", db);
		free(db);
		return 0;
	}
	fmt_dur(d, sizeof(d), total * (double)plan->ncases /
		(double)(known + said) * (double)nplans);
	if (said == plan->ncases)
		printf("estimated time: %s (from the job's estimate per iteration; no earlier run of these cases in %s)\n",
		       d, db);
	else if (said)
		printf("estimated time: %s (from earlier runs of %zu of the %zu cases in %s, the job's estimate for %zu%s)\n",
		       d, known, plan->ncases, db, said,
		       known + said < plan->ncases ? ", the others at the average" : "");
	else if (plan->ncases == 1)
		printf("estimated time: %s (from an earlier run of the case in %s)\n",
		       d, db);
	else if (known == plan->ncases && known == 2)
		printf("estimated time: %s (from earlier runs of both cases in %s)\n",
		       d, db);
	else if (known == plan->ncases)
		printf("estimated time: %s (from earlier runs of all %zu cases in %s)\n",
		       d, known, db);
	else
		printf("estimated time: %s (from earlier runs of %zu of the %zu cases in %s; %s)\n",
		       d, known, plan->ncases, db,
		       plan->ncases - known == 1 ? "the other counted at the average" :
		       "the others counted at their average");
	free(db);
	return 0;
}

/* The trace options as harness keys, into opt[*o...] (free()d by the caller). */
static void trace_keys(const struct trace_opts *t, char **opt, size_t *o)
{
	if (t->trace)
		opt[(*o)++] = xasprintf("trace=%s", t->trace);
	if (t->scope)
		opt[(*o)++] = xasprintf("trace_scope=%s", t->scope);
	if (t->dir)
		opt[(*o)++] = xasprintf("trace_dir=%s", t->dir);
	if (t->tasks)
		opt[(*o)++] = xasprintf("trace_tasks=%s", t->tasks);
	if (t->monitor_cpus)
		opt[(*o)++] = xasprintf("monitor_cpus=%s", t->monitor_cpus);
}

/*
 * The plan of a SUITE or JOBFILE (NULL: quick) with the run's --set,
 * then extra's (a variant's), then the iteration options as harness
 * keys over every job.
 */
static int load_plan(const struct run_request *rq, const struct run_variant *extra,
		     struct plan *plan)
{
	size_t n = rq->nsets + (extra ? extra->nsets : 0), k = 0;
	struct plan_set *sets = xcalloc(n + 11, sizeof(*sets));
	char opt[6][256];	/* the iteration and monitor options, as harness keys */
	char *topt[5];		/* the trace options' */
	size_t o = 0, to = 0;
	int rc;

	for (size_t i = 0; i < rq->nsets; i++)
		sets[k++].text = rq->sets[i];
	for (size_t i = 0; extra && i < extra->nsets; i++, k++) {
		sets[k].text = extra->sets[i];
		sets[k].origin = extra->origins ? extra->origins[i] : NULL;
	}
	if (rq->iterations)
		snprintf(opt[o++], sizeof(opt[0]), "iterations=%.40s", rq->iterations);
	if (rq->min_iter)
		snprintf(opt[o++], sizeof(opt[0]), "min_iterations=%u", rq->min_iter);
	if (rq->max_iter)
		snprintf(opt[o++], sizeof(opt[0]), "max_iterations=%u", rq->max_iter);
	if (rq->budget)
		snprintf(opt[o++], sizeof(opt[0]), "budget=%.40s", rq->budget);
	if (rq->monitors)
		snprintf(opt[o++], sizeof(opt[0]), "monitors=%.200s", rq->monitors);
	if (rq->monitor_interval)
		snprintf(opt[o++], sizeof(opt[0]), "monitor_interval=%.40s",
			 rq->monitor_interval);
	for (size_t i = 0; i < o; i++)
		sets[k++].text = opt[i];
	trace_keys(&rq->trace, topt, &to);
	for (size_t i = 0; i < to; i++)
		sets[k++].text = topt[i];
	rc = plan_load_sets(rq->spec ? rq->spec : "quick", sets, k, plan);
	for (size_t i = 0; i < to; i++)
		free(topt[i]);
	free(sets);
	return rc;
}

/* run and judge refuse a job file with ab's variants. */
static int no_variants(const struct run_request *rq, const struct plan *p)
{
	if (rq->ab || !p->nvariants)
		return 0;
	return error("%s has %zu [variant:NAME] section%s ([variant:%s]...): run it with 'schedlab ab %s'",
		     p->source, p->nvariants, p->nvariants == 1 ? "" : "s",
		     p->variants[0].name, rq->spec ? rq->spec : "quick");
}

/*
 * The plan and its variants' plans into plans[0..*loaded); 0 when all
 * of them loaded and the run may take the file's variants.
 */
static int load_plans(const struct run_request *rq, struct plan *plans,
		      size_t *loaded)
{
	for (*loaded = 0; *loaded < 1 + rq->nvariants; (*loaded)++)
		if (load_plan(rq, *loaded ? &rq->variants[*loaded - 1] : rq->own,
			      &plans[*loaded]))
			return -1;
	return no_variants(rq, &plans[0]);
}

int exec_dry(const struct run_request *rq)
{
	size_t np = 1 + rq->nvariants;
	struct plan *plans = xcalloc(np, sizeof(*plans));
	size_t loaded = 0;
	char db[4096];
	int rc = EXIT_USAGE;

	if (load_plans(rq, plans, &loaded) || run_db_path(rq->db, db, sizeof(db)))
		goto out;
	if (rq->checked)
		rq->checked(rq->checked_arg);
	plan_print(stdout, &plans[0]);
	rc = print_estimate(&plans[0], db, np) ? EXIT_USAGE : EXIT_OK;
out:
	for (size_t k = 0; k < loaded; k++)
		plan_free(&plans[k]);
	free(plans);
	return rc;
}

int exec_run(const struct run_request *rq, int64_t *run_id)
{
	size_t np = 1 + rq->nvariants, loaded = 0;
	struct plan *plans = xcalloc(np, sizeof(*plans));
	char db[4096];
	int rc = EXIT_USAGE;

	*run_id = -1;
	if (rq->keep_store)
		*rq->keep_store = NULL;
	if (load_plans(rq, plans, &loaded) || run_db_path(rq->db, db, sizeof(db)))
		goto out;
	for (size_t k = 0; k < np; k++)
		for (size_t i = 0; i < plans[k].ncases; i++)
			if (plans[k].cases[i].wl->prepare &&
			    (rc = plans[k].cases[i].wl->prepare(plans[k].cases[i].cfg)))
				goto out;
	rc = exec_plans(plans, np, rq, db, run_id);
out:
	for (size_t k = 0; k < loaded; k++)
		plan_free(&plans[k]);
	free(plans);
	return rc;
}
