// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab run [SUITE|JOBFILE]: expand the plan, run every case, store
 * each as it finishes, print each job's summary in mmtests' layout.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/run_exec.h"
#include "cmd/setup.h"
#include "harness/identity.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "harness/result.h"
#include "model/run.h"
#include "probe/cpus.h"
#include "probe/probe.h"
#include "probe/sysenv.h"
#include "report/render.h"
#include "report/run_text.h"
#include "store/load.h"
#include "store/store.h"
#include "trace/trace.h"
#include "util.h"
#include "version.h"

struct run_opts {
	const char *label;
	const char *uuid, *host;
	const char *db;
	const char *iterations, *budget, *threshold;
	const char *monitors, *monitor_interval;
	struct trace_opts trace;
	unsigned min_iter, max_iter;
	struct opt_list sets;
	bool dry_run;
	bool quiet;
	bool tables;
	bool help;
};

#define O(f) offsetof(struct run_opts, f)
static const struct opt_def run_options[] = {
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "LABEL",
	  .help = "name the run (default: HOSTNAME-KERNELRELEASE); 'schedlab show LABEL' finds the latest" },
	OPT_DB(struct run_opts, db),
	{ .name = "host", .type = OPT_STRING, .offset = O(host), .arg = "NAME",
	  .help = "the host name stored with the run (default: the node name); for machines that share one" },
	{ .name = "uuid", .type = OPT_STRING, .offset = O(uuid), .arg = "UUID",
	  .help = "the run's uuid (default: a new random one), for a program that runs schedlab and then finds its run" },
	OPT_ITERATIONS(struct run_opts, iterations),
	OPT_ADAPTIVE(struct run_opts, min_iter, max_iter, budget),
	{ .name = "threshold", .type = OPT_STRING, .offset = O(threshold),
	  .def = "5", .arg = "PCT",
	  .help = "with auto: add iterations until each median is known to +-PCT/2 (0..1000)" },
	OPT_SET(struct run_opts, sets),
	OPT_MONITOR(struct run_opts, monitors, monitor_interval),
	OPT_TRACE(struct run_opts, trace),
	{ .name = "dry-run", .type = OPT_BOOL, .offset = O(dry_run), .short_flag = 'n',
	  .help = "print the expanded plan and its estimated time; run nothing" },
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(quiet), .short_flag = 'q',
	  .help = "no progress and no summary; errors only" },
	{ .name = "tables", .type = OPT_BOOL, .offset = O(tables),
	  .help = "print each job's mmtests table and scheduler metrics as it ends, instead of a line a case" },
	OPT_HELP(struct run_opts, help),
	{ .name = NULL },
};
#undef O

static void run_usage(FILE *f)
{
	fprintf(f, "usage: schedlab run [SUITE|JOBFILE] [OPTIONS]\n\n"
		"Runs every case of a suite (default: quick) or a job file, repeats it,\n"
		"stores every sample with the machine's description, and prints a line\n"
		"a case as it ends: the headline's median and spread, the iterations,\n"
		"the smallest change two such runs side by side would show, and why it\n"
		"stopped (--tables: each job's mmtests table instead; 'schedlab show RUN'\n"
		"prints them later). On a terminal a progress line says which case and\n"
		"iteration runs, and about how long is left.\n\nOptions:\n");
	opts_help(f, run_options);
	fprintf(f, "\nExit status: 0 every case completed, 1 a case failed, 2 bad input,\n"
		"130 interrupted (the finished cases are kept; the run is marked partial).\n");
}

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

int parse_percent(const char *who, const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= 0 && v <= 1000))
		return error("%s: option --threshold: expected a percentage in 0..1000 (such as 5 or 2.5), got '%s'",
			     who, s);
	*out = v;
	return 0;
}

int run_check_iterations(const char *who, const struct run_request *rq)
{
	unsigned long long v;
	const char *it = rq->iterations;

	unsigned n;
	int rc = it ? plan_parse_iterations(it, &n) : 0;

	if (rc)
		return error("%s: option --iterations: '%s' %s (expected %s)", who,
			     it, rc == -1 ? "is not a number" : "is out of range",
			     PLAN_ITERATIONS_ACCEPTED);
	if (rq->budget && strcmp(rq->budget, "none") &&
	    (opt_parse_duration(rq->budget, 31536000, &v) || v < 1))
		return error("%s: option --budget: expected a duration in 1s..8760h such as 30s, 5m or 1h, or none, got '%s'",
			     who, rq->budget);
	if (rq->min_iter && rq->max_iter && rq->min_iter > rq->max_iter)
		return error("%s: option --min-iterations: %u is above --max-iterations %u",
			     who, rq->min_iter, rq->max_iter);
	if (rq->monitors) {
		char err[256];
		unsigned mask;

		if (strlen(rq->monitors) > 200 ||
		    monitor_parse_list(rq->monitors, &mask, err, sizeof(err)))
			return error("%s: option --monitor: %s (expected %s)", who,
				     strlen(rq->monitors) > 200 ? "too long a list" : err,
				     MONITORS_ACCEPTED);
	}
	if (rq->monitor_interval) {
		char err[256];
		unsigned ms;

		if (strlen(rq->monitor_interval) > 40 ||
		    monitor_parse_interval(rq->monitor_interval, &ms, err, sizeof(err)))
			return error("%s: option --monitor-interval: %s (expected %s)",
				     who, strlen(rq->monitor_interval) > 40 ?
				     "too long" : err, MONITOR_INTERVAL_ACCEPTED);
	}
	return trace_opts_check(who, &rq->trace);
}

int trace_opts_check(const char *who, const struct trace_opts *t)
{
	long ncfg = sysconf(_SC_NPROCESSORS_CONF);
	struct cpumask m;
	char err[256];
	bool on;
	int n, c;

	if (t->trace && trace_parse(t->trace, &on, err, sizeof(err)))
		return error("%s: option --trace: %s (expected %s)", who, err,
			     TRACE_ACCEPTED);
	if (t->scope && strcmp(t->scope, "iteration") && strcmp(t->scope, "case"))
		return error("%s: option --trace-scope: '%.64s' is not a scope (expected iteration or case)",
			     who, t->scope);
	if (t->dir && (!*t->dir || strlen(t->dir) > 1024))
		return error("%s: option --trace-dir: '%.64s' is not a directory path (expected 1 to 1024 characters)",
			     who, t->dir);
	if (t->tasks && trace_parse_tasks(t->tasks, err, sizeof(err)))
		return error("%s: option --trace-tasks: %s (expected %s)", who, err,
			     TRACE_TASKS_ACCEPTED);
	if (!t->monitor_cpus)
		return 0;
	n = strlen(t->monitor_cpus) > 200 ? -1 : cpulist_parse(t->monitor_cpus, &m);
	if (n <= 0)
		return error("%s: option --monitor-cpus: '%.64s' is not a CPU list (expected CPU numbers and ranges, such as 0-3,8)",
			     who, t->monitor_cpus);
	for_each_cpu(c, &m)
		if (ncfg > 0 && c >= ncfg)
			return error("%s: option --monitor-cpus: '%s' is out of range (expected CPUs in 0-%ld; CPU %d does not exist)",
				     who, t->monitor_cpus, ncfg - 1, c);
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

int run_dry(const struct run_request *rq)
{
	size_t np = 1 + rq->nvariants;
	struct plan *plans = xcalloc(np, sizeof(*plans));
	size_t loaded = 0;
	char db[4096];
	int rc = EXIT_USAGE;

	if (load_plans(rq, plans, &loaded) || run_db_path(rq->db, db, sizeof(db)))
		goto out;
	plan_print(stdout, &plans[0]);
	rc = print_estimate(&plans[0], db, np) ? EXIT_USAGE : EXIT_OK;
out:
	for (size_t k = 0; k < loaded; k++)
		plan_free(&plans[k]);
	free(plans);
	return rc;
}

int run_suite(const struct run_request *rq, int64_t *run_id)
{
	size_t np = 1 + rq->nvariants, loaded = 0;
	struct plan *plans = xcalloc(np, sizeof(*plans));
	char db[4096];
	int rc = EXIT_USAGE;

	*run_id = -1;
	if (load_plans(rq, plans, &loaded) || run_db_path(rq->db, db, sizeof(db)))
		goto out;
	for (size_t k = 0; k < np; k++)
		for (size_t i = 0; i < plans[k].ncases; i++)
			if (plans[k].cases[i].wl->prepare &&
			    (rc = plans[k].cases[i].wl->prepare(plans[k].cases[i].cfg)))
				goto out;
	rc = run_execute(plans, np, rq, db, run_id);
out:
	for (size_t k = 0; k < loaded; k++)
		plan_free(&plans[k]);
	free(plans);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts ro = { 0 };
	struct opt_target t = { run_options, &ro };
	struct run_request rq;
	char *command;
	int64_t id;
	int first, rc;

	opts_defaults(run_options, &ro);
	command = store_command_line(argv);	/* before getopt reorders argv */
	first = opts_parse_argv(&t, 1, argc, argv, "run", true);
	if (first < 0) {
		free(command);
		return EXIT_USAGE;
	}
	rc = EXIT_USAGE;
	if (ro.help) {
		run_usage(stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (argc - first > 1) {
		error("run: one SUITE or JOBFILE at most, got '%s' and '%s'",
		      argv[first], argv[first + 1]);
		goto out;
	}
	rq = (struct run_request){
		.spec = first < argc ? argv[first] : NULL, .label = ro.label,
		.db = ro.db, .uuid = ro.uuid, .host = ro.host,
		.iterations = ro.iterations,
		.min_iter = ro.min_iter, .max_iter = ro.max_iter,
		.budget = ro.budget, .quiet = ro.quiet, .tables = ro.tables,
		.monitors = ro.monitors, .monitor_interval = ro.monitor_interval,
		.trace = ro.trace,
		.sets = ro.sets.v, .nsets = ro.sets.n,
		.command = command,
	};
	if (ro.uuid && !uuid_valid(ro.uuid)) {
		error("run: --uuid: '%s' is not a uuid (expected 8-4-4-4-12 lowercase hex digits)",
		      ro.uuid);
		goto out;
	}
	if (ro.host && (!*ro.host || strlen(ro.host) > 255 ||
			strpbrk(ro.host, " \t\n/"))) {
		error("run: --host: '%s' is not a host name (1 to 255 characters, no blank or '/')",
		      ro.host);
		goto out;
	}
	if (parse_percent("run", ro.threshold, &rq.threshold) ||
	    run_check_iterations("run", &rq))
		goto out;
	rc = ro.dry_run ? run_dry(&rq) : run_suite(&rq, &id);
out:
	free(command);
	return rc;
}
