/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload interface. Each workload is one file in src/workload/ that
 * ends with one `const struct workload wl_NAME`: its name, a one-line
 * summary, the option table that drives the command line, job files and
 * --help, the metric table that gives every value it returns a unit and
 * a direction, and run().
 *
 * run() executes in a workload process that the harness forks, puts in
 * its own process group and watches (timeout, Ctrl-C, cleanup). It fills
 * a wl_result and returns 0, or calls wl_fail() and returns -1. It never
 * prints. What it measured becomes text through the workload's own text
 * formats (struct text_format below, printed by bench; the shared line
 * helpers are in workload/text.h) or the renderers in src/report/.
 */
#ifndef SCHEDLAB_WORKLOAD_H
#define SCHEDLAB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "options.h"
#include "metric.h"
#include "task/task.h"

/*
 * The rows of a case's iterations, for a format's summary(): n rows of
 * ncols values each, the workload's metrics first, in its table's order.
 */
struct wl_rows {
	const double *values;
	size_t n, ncols;
};

/*
 * Untimed shell commands around the cases of a workload (command's
 * setup, before, cleanup and workdir keys; harness/casecmd.h runs them).
 * A member is NULL or "" when not given.
 */
struct wl_case_cmds {
	const char *setup;	/* once per case, before its warm-up */
	const char *before;	/* before each iteration */
	const char *cleanup;	/* once per case, however it ends */
	const char *workdir;	/* where they and the case run; NULL: a
				 * temporary directory of the run */
};

/*
 * A text format: the reference tool's lines for this workload, byte for
 * byte, so scripts that parse the tool's output keep working. header()
 * (optional) prints before the run, as the tool does; result() one
 * run's lines. A format that prints all the runs at once (perf stat
 * --repeat's block) has summary(), which bench calls instead of
 * result() per run and the repeat footer.
 */
struct text_format {
	const char *name;
	const char *help;
	void (*header)(FILE *f, const void *cfg);
	void (*result)(FILE *f, const void *cfg, const struct wl_result *r);
	void (*summary)(FILE *f, const void *cfg, const struct wl_rows *r);
};

/*
 * A multi-metric table a workload's results are posted in (compute:
 * AIM7's), printed from stored runs by compare/show --layout workload: a
 * column for the sweep value headed key, then one per metric.
 */
#define WL_TABLE_MAX 8
struct wl_table {
	const char *key;		/* the sweep column: "Tasks" */
	/*
	 * --layout workload lists every iteration as well, a row each, the
	 * runs side by side (seed 000's AIM7 posts), before the table of
	 * each column's statistic.
	 */
	bool iterations;
	struct wl_table_col {
		const char *metric;	/* "compute.jti" */
		const char *heading;	/* "JTI" */
		int decimals;
	} col[WL_TABLE_MAX];		/* ends at the first NULL metric */
};

struct workload {
	const char *name;
	const char *summary;
	const char *reference;	/* the tool(s) it reproduces */
	const char *events;	/* what one latency sample is: "msgs", "ops" */
	/*
	 * The semantics version of what it measures (0 here means 1): bump
	 * it when a change makes its numbers incomparable with older runs'
	 * (harness/identity.h); an option added with a default that keeps
	 * the old behaviour does not.
	 */
	unsigned version;
	size_t cfg_size;
	const struct opt_def *options;
	const struct metric_def *metrics;	/* ends with { .name = NULL } */
	/* text formats, the default first; ends with { .name = NULL } */
	const struct text_format *formats;
	const struct wl_table *table;	/* optional */
	/*
	 * Optional. Runs in the schedlab process before anything is
	 * spawned: checks that need more than one option or the machine's
	 * limits, and adjusts limits (e.g. RLIMIT_NOFILE). Returns 0, or an
	 * exit code (EXIT_USAGE, EXIT_RUN_FAILED) after saying why.
	 */
	int (*prepare)(const void *cfg);
	int (*run)(const void *cfg, struct wl_ctx *ctx, struct wl_result *res);
	/*
	 * Optional: the case's commands (struct wl_case_cmds) into out.
	 * With it, every case runs in a working directory of its own,
	 * $SCHEDLAB_WORKDIR in the environment of run()'s process.
	 */
	void (*case_cmds)(const void *cfg, struct wl_case_cmds *out);
	/*
	 * Optional: why the probes change what this configuration measures
	 * (a bistable one, which their few nanoseconds a message tip), or
	 * NULL when they do not. Where it says why, run and bench leave the
	 * probes off unless asked for them (probes = on, --probes=on) and
	 * say so: the time is then the reference tool's, as bench's text.
	 */
	const char *(*probes_tip)(const void *cfg);
	/*
	 * Optional: the most bytes a case of this configuration writes to
	 * the file system (its database, its files), for a VM's writable
	 * layer (vm/vm_run.c); none means a few MB at most.
	 */
	double (*disk_bytes)(const void *cfg);
};

/* Index of a metric in wl->metrics, or -1. */
int wl_metric_index(const struct workload *wl, const char *name);
/* The text format called name (NULL: the default), or NULL. */
const struct text_format *wl_format_find(const struct workload *wl,
					 const char *name);

#endif
