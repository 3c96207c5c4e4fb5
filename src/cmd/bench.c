// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab bench WORKLOAD [OPTIONS]: one workload, once, with the
 * reference tool's flags and output lines (or JSON).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "harness/supervise.h"
#include "report/render.h"
#include "workload/registry.h"
#include "util.h"

#define MAX_FORMATS 8

struct bench_opts {
	int format;		/* index into the workload's format names */
	unsigned timeout;
	bool help;
};

static void bench_usage(FILE *f)
{
	fprintf(f, "usage: schedlab bench WORKLOAD [OPTIONS]\n\n"
		"Runs one workload once and prints what its reference tool prints.\n"
		"'schedlab bench WORKLOAD --help' lists a workload's options.\n\n"
		"Workloads:\n");
	for (size_t i = 0; workloads[i]; i++)
		fprintf(f, "  %-12s %s\n", workloads[i]->name,
			workloads[i]->summary);
}

/* The format choices: the workload's text formats, then json. */
static void format_choices(const struct workload *wl, const char **names)
{
	const struct text_format *tf[MAX_FORMATS];
	size_t n = text_formats(wl->name, tf, MAX_FORMATS - 2);

	for (size_t i = 0; i < n; i++)
		names[i] = tf[i]->name;
	names[n++] = "json";
	names[n] = NULL;
}

static void workload_help(const struct workload *wl,
			  const struct opt_def *common)
{
	printf("usage: schedlab bench %s [OPTIONS]\n\n%s.\nReproduces: %s.\n\n",
	       wl->name, wl->summary, wl->reference);
	printf("Workload options (the long name also works in job files):\n");
	opts_help(stdout, wl->options);
	printf("\nCommon options:\n");
	opts_help(stdout, common);
	printf("\nMetrics (with --format json):\n");
	for (const struct metric_def *m = wl->metrics; m->name; m++)
		printf("  %-24s %-8s %-7s %s%s\n", m->name, m->unit,
		       m->better == BETTER_LOWER ? "lower" :
		       m->better == BETTER_HIGHER ? "higher" : "-",
		       m->help, m->headline ? " (headline)" : "");
	printf("\nExit status: 0 ok, 1 the run failed, 2 bad options, 130 interrupted.\n");
}

int cmd_bench(int argc, char **argv)
{
	const char *names[MAX_FORMATS];
	const struct workload *wl;
	const struct text_format *tf;
	struct bench_opts bo = { 0 };
	struct run_outcome out;
	char who[64];
	void *cfg;
	int rc;

	if (argc < 2) {
		bench_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		bench_usage(stdout);
		return EXIT_OK;
	}
	wl = workload_find(argv[1]);
	if (!wl) {
		error("bench: unknown workload '%s' (see 'schedlab list workloads')",
		      argv[1]);
		return EXIT_USAGE;
	}
	format_choices(wl, names);

	const struct opt_def common[] = {
		{ .name = "format", .type = OPT_ENUM,
		  .offset = offsetof(struct bench_opts, format),
		  .def = names[0], .choices = names, .arg = "FMT",
		  .help = "output: the reference tool's lines, or every measured value as JSON" },
		{ .name = "timeout", .type = OPT_UINT,
		  .offset = offsetof(struct bench_opts, timeout),
		  .min = 1, .max = 31536000, .arg = "SECONDS",
		  .help = "kill every worker and fail after this long (default: no limit)" },
		{ .name = "help", .type = OPT_BOOL,
		  .offset = offsetof(struct bench_opts, help), .short_flag = 'h',
		  .help = "show this help" },
		{ .name = NULL },
	};

	cfg = xcalloc(1, wl->cfg_size);
	opts_defaults(wl->options, cfg);
	opts_defaults(common, &bo);
	snprintf(who, sizeof(who), "bench %s", wl->name);
	struct opt_target targets[] = { { wl->options, cfg }, { common, &bo } };
	if (opts_parse_argv(targets, ARRAY_SIZE(targets), argc - 1, argv + 1,
			    who, false) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (bo.help) {
		workload_help(wl, common);
		rc = EXIT_OK;
		goto out;
	}
	if (wl->prepare && (rc = wl->prepare(cfg)))
		goto out;

	tf = strcmp(names[bo.format], "json") ?
	     text_format_find(wl->name, names[bo.format]) : NULL;
	if (tf)
		tf->header(stdout, cfg);
	if (supervise_run(wl, cfg, bo.timeout, &out)) {
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	if (out.status != RUN_OK) {
		error("%s: %s", wl->name, out.reason);
		rc = run_status_exit(out.status);
		goto out;
	}
	if (tf)
		tf->result(stdout, cfg, &out.result);
	else
		render_json(stdout, wl, cfg, &out);
	rc = EXIT_OK;
out:
	free(cfg);
	return rc;
}
