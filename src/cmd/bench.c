// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab bench [-r N] WORKLOAD [OPTIONS]: one workload, with the
 * reference tool's flags and output lines (or JSON), repeated N times
 * like `perf stat --repeat N` or `perf bench -r N`.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/runner.h"
#include "probe/probe.h"
#include "report/render.h"
#include "store/store.h"
#include "trace/trace.h"
#include "workload/external.h"
#include "workload/registry.h"
#include "util.h"

#define MAX_FORMATS 8
#define MAX_REPEAT 100000

struct bench_opts {
	int format;		/* index into the workload's format names */
	unsigned timeout;
	unsigned repeat;
	int probes;		/* enum probe_level */
	const char *monitors, *monitor_interval;
	struct trace_opts trace;
	bool help;
};

static void bench_usage(FILE *f)
{
	fprintf(f, "usage: schedlab bench [-r N] WORKLOAD [OPTIONS]\n"
		"       schedlab bench [-r N] command [OPTIONS] -- PROGRAM [ARGS...]\n\n"
		"Runs one workload and prints what its reference tool prints.\n"
		"-r N, --repeat N: run it N times and add mean +- stddev, as perf stat --repeat.\n"
		"'schedlab bench WORKLOAD --help' lists a workload's options.\n\n"
		"Workloads:\n");
	for (size_t i = 0; workloads[i]; i++)
		fprintf(f, "  %-12s %s\n", workloads[i]->name,
			workloads[i]->summary);
}

/* The format choices: the workload's text formats, then json. */
static void format_choices(const struct workload *wl, const char **names)
{
	size_t n = 0;

	for (const struct text_format *tf = wl->formats;
	     tf && tf->name && n < MAX_FORMATS - 2; tf++)
		names[n++] = tf->name;
	names[n++] = "json";
	names[n] = NULL;
}

static void workload_help(const struct workload *wl,
			  const struct opt_def *common)
{
	printf("usage: schedlab bench [-r N] %s [OPTIONS]\n\n%s.\nReproduces: %s.\n\n",
	       wl->name, wl->summary, wl->reference);
	printf("Workload options (the long name also works in job files):\n");
	opts_help(stdout, wl->options);
	printf("\nCommon options:\n");
	opts_help(stdout, common);
	printf("\nMetrics (with --format json):\n");
	for (const struct metric_def *m = wl->metrics; m->name; m++)
		printf("  %-24s %-8s %-7s %s%s\n", m->name, m->unit,
		       better_word(m->better),
		       m->help, m->headline ? " (headline)" : "");
	printf("\nExit status: 0 ok, 1 the run failed, 2 bad options, 130 interrupted.\n");
}

/* Row i of a case result as the wl_result a text format prints. */
static void row_result(const struct case_result *r, size_t i,
		       struct wl_result *out)
{
	const double *row = r->values + i * r->cols.n;

	memset(out, 0, sizeof(*out));
	for (size_t m = 0; m < r->cols.nworkload; m++)
		if (row[m] == row[m])	/* not NaN */
			wl_set(out, (int)m, row[m]);
}

/*
 * Options before the workload name: -r N / --repeat N, as perf bench -r.
 * Returns the index of the workload name, or -1 after an error.
 */
static int leading_options(int argc, char **argv, struct bench_opts *bo)
{
	static const struct opt_def repeat[] = {
		{ .name = "repeat", .type = OPT_UINT,
		  .offset = offsetof(struct bench_opts, repeat),
		  .min = 1, .max = MAX_REPEAT, .short_flag = 'r',
		  .help = "run it N times" },
		{ .name = NULL },
	};
	int i = 1;

	while (i < argc && argv[i][0] == '-' && strcmp(argv[i], "-h") &&
	       strcmp(argv[i], "--help")) {
		const char *v = NULL;

		if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--repeat"))
			v = argv[++i];
		else if (!strncmp(argv[i], "--repeat=", 9))
			v = argv[i] + 9;
		else if (!strncmp(argv[i], "-r", 2))
			v = argv[i] + 2;
		else
			return error("bench: unknown option '%s' before the workload name (see 'schedlab bench --help')",
				     argv[i]);
		if (!v)
			return error("bench: option -r/--repeat needs a value (a whole number in 1..%d)",
				     MAX_REPEAT);
		if (opt_set(&repeat[0], bo, v, "bench: option -r/--repeat"))
			return -1;
		i++;
	}
	return i;
}

static int print_results(const struct workload *wl, const void *cfg,
			 const struct text_format *tf,
			 const struct case_result *r)
{
	struct wl_result res;

	if (!tf)
		return render_json(stdout, wl, cfg, r);
	if (tf->summary) {
		struct wl_rows rows = { r->values, r->niter, r->cols.n };

		tf->summary(stdout, cfg, &rows);
		return 0;
	}
	for (size_t i = 0; i < r->niter; i++) {
		row_result(r, i, &res);
		tf->result(stdout, cfg, &res);
	}
	if (r->niter > 1)
		render_repeat_summary(stdout, r);
	return 0;
}

/* --monitor and --monitor-interval into a mask and milliseconds. */
static int bench_monitors(const char *who, const struct bench_opts *bo,
			  unsigned *mask, unsigned *ms)
{
	char err[256];

	*mask = 0;
	*ms = MONITOR_INTERVAL_DEF_MS;
	if (bo->monitors && monitor_parse_list(bo->monitors, mask, err, sizeof(err)))
		return error("%s: option --monitor: %s (expected %s)", who, err,
			     MONITORS_ACCEPTED);
	if (bo->monitor_interval &&
	    monitor_parse_interval(bo->monitor_interval, ms, err, sizeof(err)))
		return error("%s: option --monitor-interval: %s (expected %s)", who,
			     err, MONITOR_INTERVAL_ACCEPTED);
	return 0;
}

static bool trace_on(const struct trace_opts *t)
{
	char err[256];
	bool on = false;

	return t->trace && !trace_parse(t->trace, &on, err, sizeof(err)) && on;
}

/*
 * Where bench's tracer writes: --trace-dir, or beside the default
 * database, then a new uuid; NULL after error().
 */
static char *bench_trace_root(const struct trace_opts *t)
{
	char db[4096], uuid[40], *dir, *root;

	if (!trace_on(t))
		return xstrdup("");
	if (t->dir)
		dir = xstrdup(t->dir);
	else if (!store_default_path(db, sizeof(db)))
		dir = trace_default_dir(db);
	else
		return NULL;
	uuid_new(uuid, sizeof(uuid));
	root = xasprintf("%s/%s", dir, uuid);
	fprintf(stderr, "trace: output in %s\n", root);
	free(dir);
	return root;
}

/* The common options, beside the workload's; format's choices are names. */
static const struct opt_def common_template[] = {
	/* not the vocabulary of report/vocab.h: the workload's own
	 * reference texts, or json */
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct bench_opts, format), .arg = "FMT",
	  .help = "output: the reference tool's lines, or every measured value as JSON" },
	{ .name = "timeout", .type = OPT_DURATION,
	  .offset = offsetof(struct bench_opts, timeout),
	  .min = 1, .max = 31536000, .arg = "SECONDS",
	  .help = "kill every worker and fail after this long, per run (default: no limit)" },
	{ .name = "repeat", .type = OPT_UINT,
	  .offset = offsetof(struct bench_opts, repeat), .def = "1",
	  .min = 1, .max = MAX_REPEAT, .arg = "N",
	  .help = "run N times, then mean +- stddev as perf stat --repeat (also -r N before WORKLOAD)" },
	{ .name = "probes", .type = OPT_ENUM,
	  .offset = offsetof(struct bench_opts, probes),
	  .choices = probe_level_names, .arg = "LEVEL",
	  .help = "scheduler metrics and latency: on (the default with --format json); "
		  "off (the workload alone, as the reference tool; the default with its text); "
		  "perf (also perf's software counters, which slow every context switch)" },
	OPT_MONITOR(struct bench_opts, monitors, monitor_interval),
	OPT_TRACE(struct bench_opts, trace),
	{ .name = "help", .type = OPT_BOOL,
	  .offset = offsetof(struct bench_opts, help), .short_flag = 'h',
	  .help = "show this help" },
	{ .name = NULL },
};
#define NCOMMON ARRAY_SIZE(common_template)

/*
 * The reference tools' text stands in for the tool: the workload alone,
 * as it would run. JSON says everything measured. --probes unless given.
 */
static int default_probes(const struct workload *wl, const void *cfg,
			  const struct text_format *tf)
{
	const char *why = wl->probes_tip ? wl->probes_tip(cfg) : NULL;

	if (tf)
		return PROBES_OFF;
	if (!why)
		return PROBES_ON;
	warning("%s: probes off: %s; --probes=on records them anyway",
		wl->name, why);
	return PROBES_OFF;
}

/* One case of wl with cfg as bo says, run and printed; an exit code. */
static int bench_run(const struct workload *wl, void *cfg,
		     const struct text_format *tf, const struct bench_opts *bo,
		     unsigned mon, unsigned mon_ms, char *root)
{
	struct case_result r;
	struct plan_case pc;
	int rc;

	if (tf && tf->header)
		tf->header(stdout, cfg);
	pc = (struct plan_case){ .seq = 1, .job = (char *)wl->name, .wl = wl,
				 .task = TASK_SETTINGS_NONE,
				 .cfg = cfg, .iterations = bo->repeat,
				 .timeout_s = bo->timeout, .probes = bo->probes,
				 .monitors = monitor_warn_unavailable(mon,
						monitor_named(bo->monitors), NULL),
				 .monitor_ms = mon_ms,
				 .monitor_cpus = (char *)bo->trace.monitor_cpus,
				 .trace = trace_on(&bo->trace) ? (char *)bo->trace.trace : NULL,
				 .trace_scope = bo->trace.scope &&
						!strcmp(bo->trace.scope, "case") ?
						TRACE_CASE : TRACE_ITERATION,
				 .trace_tasks = (char *)bo->trace.tasks,
				 .trace_root = root };
	if (runner_case(&pc, &r, NULL))
		return EXIT_RUN_FAILED;
	if (r.status != RUN_OK) {
		error("%s: %s", wl->name, r.reason);
		rc = run_status_exit(r.status);
	} else {
		rc = print_results(wl, cfg, tf, &r) ? EXIT_RUN_FAILED : EXIT_OK;
	}
	case_result_free(&r);
	return rc;
}

/* The workload named at argv[w], or NULL after usage or error(). */
static const struct workload *bench_workload(int argc, char **argv, int w,
					     int *rc)
{
	const struct workload *wl;

	*rc = EXIT_USAGE;
	if (w >= argc) {
		bench_usage(stderr);
		return NULL;
	}
	if (!strcmp(argv[w], "-h") || !strcmp(argv[w], "--help")) {
		bench_usage(stdout);
		*rc = EXIT_OK;
		return NULL;
	}
	wl = workload_find(argv[w]);
	if (!wl)
		error("bench: unknown workload '%s' (see 'schedlab list workloads')",
		      argv[w]);
	return wl;
}

int cmd_bench(int argc, char **argv)
{
	const char *names[MAX_FORMATS];
	const struct workload *wl;
	const struct text_format *tf;
	struct bench_opts bo = { .repeat = 1 };
	struct opt_def common[NCOMMON];
	char who[64];
	unsigned mon, mon_ms;
	char *words = NULL;	/* the argv operands, joined */
	char *root = NULL;	/* the tracer's directory */
	void *cfg;
	int rc, w, first;
	bool takes_argv;

	w = leading_options(argc, argv, &bo);
	if (w < 0)
		return EXIT_USAGE;
	wl = bench_workload(argc, argv, w, &rc);
	if (!wl)
		return rc;
	format_choices(wl, names);
	memcpy(common, common_template, sizeof(common));
	common[0].def = names[0];
	common[0].choices = names;

	cfg = xcalloc(1, wl->cfg_size);
	opts_defaults(wl->options, cfg);
	bo.format = 0;
	bo.probes = -1;		/* by --format, unless given */
	snprintf(who, sizeof(who), "bench %s", wl->name);
	struct opt_target targets[] = { { wl->options, cfg }, { common, &bo } };
	/* a workload with an argv option takes the words after -- as it */
	takes_argv = opt_find(wl->options, "argv") != NULL;
	first = opts_parse_argv(targets, ARRAY_SIZE(targets), argc - w,
				argv + w, who, takes_argv);
	rc = EXIT_USAGE;
	if (first < 0)
		goto out;
	if (takes_argv && first < argc - w) {
		words = argv_join(argv + w + first, true);
		if (opt_set(opt_find(wl->options, "argv"), cfg, words, who))
			goto out;
	}
	if (bo.help) {
		workload_help(wl, common);
		rc = EXIT_OK;
		goto out;
	}
	if (bench_monitors(who, &bo, &mon, &mon_ms) ||
	    trace_opts_check(who, &bo.trace) ||
	    (bo.trace.trace && !(root = bench_trace_root(&bo.trace))))
		goto out;
	if (wl->prepare && (rc = wl->prepare(cfg)))
		goto out;
	tf = strcmp(names[bo.format], "json") ?
	     wl_format_find(wl, names[bo.format]) : NULL;
	if (bo.probes < 0)
		bo.probes = default_probes(wl, cfg, tf);
	rc = bench_run(wl, cfg, tf, &bo, mon, mon_ms, root);
out:
	free(root);
	free(words);
	free(cfg);
	return rc;
}
