// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab run [SUITE|JOBFILE]: its options read and checked into a
 * struct run_request, which the engine (exec/exec.h) expands into the
 * plan, runs case by case, stores and summarises; and the checks of the
 * iteration, monitor and trace options that judge, ab, bench and queue
 * share with run.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "exec/exec.h"
#include "harness/plan.h"
#include "probe/cpus.h"
#include "store/store.h"
#include "trace/trace.h"
#include "util.h"

struct run_opts {
	struct run_cmd_opts r;	/* what ab takes too */
	const char *uuid, *host;
	bool dry_run;
	bool tables;
	bool help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help run_help = {
	.head = "usage: schedlab run [SUITE|JOBFILE] [OPTIONS]\n\n"
		"Runs every case of a suite (default: quick) or a job file, repeats it,\n"
		"stores every sample with the machine's description, and prints a line\n"
		"a case as it ends: the headline's median and spread, the iterations,\n"
		"the smallest change two such runs side by side would show, and why it\n"
		"stopped (--tables: each job's mmtests table instead; 'schedlab show RUN'\n"
		"prints them later). On a terminal a progress line says which case and\n"
		"iteration runs, and about how long is left.\n\nOptions:\n",
	.tail = "\nExit status: 0 every case completed, 1 a case failed, 2 bad input,\n"
		"130 interrupted (the finished cases are kept; the run is marked partial).\n",
};

#define O(f) offsetof(struct run_opts, f)
static const struct opt_def run_options[] = {
	{ .name = "label", .type = OPT_STRING, .offset = O(r.label), .arg = "LABEL",
	  .help = "name the run (default: HOSTNAME-KERNELRELEASE); 'schedlab show LABEL' finds the latest" },
	OPT_DB(struct run_opts, r.db),
	{ .name = "host", .type = OPT_STRING, .offset = O(host), .arg = "NAME",
	  .help = "the host name stored with the run (default: the node name); for machines that share one" },
	{ .name = "uuid", .type = OPT_STRING, .offset = O(uuid), .arg = "UUID",
	  .help = "the run's uuid (default: a new random one), for a program that runs schedlab and then finds its run" },
	OPT_ITERATIONS(struct run_opts, r.iterations),
	OPT_ADAPTIVE(struct run_opts, r.min_iter, r.max_iter, r.budget),
	{ .name = "threshold", .type = OPT_STRING, .offset = O(r.threshold),
	  .def = "5", .arg = "PCT",
	  .help = "with auto: add iterations until each median is known to +-PCT/2 (0..1000)" },
	OPT_SET(struct run_opts, r.sets),
	OPT_MONITOR(struct run_opts, r.monitors, r.monitor_interval),
	OPT_TRACE(struct run_opts, r.trace),
	{ .name = "dry-run", .type = OPT_BOOL, .offset = O(dry_run), .short_flag = 'n',
	  .help = "print the expanded plan and its estimated time; run nothing" },
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(r.quiet), .short_flag = 'q',
	  .help = "no progress and no summary; errors only" },
	{ .name = "tables", .type = OPT_BOOL, .offset = O(tables),
	  .help = "print each job's mmtests table and scheduler metrics as it ends, instead of a line a case" },
	OPT_HELP(struct run_opts, help),
	{ .name = NULL },
};
#undef O

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

struct run_request run_request_of(const struct run_cmd_opts *o,
				  const char *spec, const char *command)
{
	return (struct run_request){
		.spec = spec, .label = o->label, .db = o->db,
		.iterations = o->iterations,
		.min_iter = o->min_iter, .max_iter = o->max_iter,
		.budget = o->budget, .quiet = o->quiet,
		.monitors = o->monitors, .monitor_interval = o->monitor_interval,
		.trace = o->trace,
		.sets = o->sets.v, .nsets = o->sets.n,
		.command = command,
	};
}

int cmd_run(int argc, char **argv)
{
	struct run_opts ro;
	struct cmd_args a = { CMD_ARGS(run_options, ro), .help = &run_help };
	struct run_request rq;
	char *command;
	int64_t id;
	int first, rc;

	command = store_command_line(argv);	/* before getopt reorders argv */
	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		goto out;
	rq = run_request_of(&ro.r, first < argc ? argv[first] : NULL, command);
	rq.uuid = ro.uuid;
	rq.host = ro.host;
	rq.tables = ro.tables;
	rc = EXIT_USAGE;
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
	if (opt_parse_percent("run", "threshold", ro.r.threshold, 0, 1000, &rq.threshold) ||
	    run_check_iterations("run", &rq))
		goto out;
	rc = ro.dry_run ? exec_dry(&rq) : exec_run(&rq, &id);
out:
	free(command);
	return rc;
}
