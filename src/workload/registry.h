/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry: the table of workloads.
 *
 * To add a workload (the Makefile finds new .c files by itself):
 *  1. write src/workload/NAME.c: a config struct, an option table
 *     (struct opt_def[], with the reference tool's flags as short_flag /
 *     long_flag / set entries), a metric table (dotted names "NAME.x",
 *     unit, direction, one headline), a run() that never prints and
 *     reports failures with wl_fail(), and at the end
 *     `const struct workload wl_NAME = { ... };`
 *  2. add `extern const struct workload wl_NAME;` below and one line to
 *     the table in registry.c.
 *  3. text formats (the reference tool's output): the `formats` member,
 *     see workload.h (helpers in workload/text.h); JSON works without one.
 *  4. tests/integration/test_workloads.sh: its tiny options and headline
 *     metric in the tables there (the test fails for a workload without).
 *  5. doc/schedlab.1: a ".SH WORKLOAD NAME" section naming every option
 *     (test_docs.sh checks), and a line in README.md's workload list.
 *  6. a suite, if it has one: jobs/NAME.job, built into the binary.
 */
#ifndef SCHEDLAB_REGISTRY_H
#define SCHEDLAB_REGISTRY_H

#include "workload/workload.h"

extern const struct workload wl_messaging;
extern const struct workload wl_pipe;
extern const struct workload wl_command;
extern const struct workload wl_dbench;
extern const struct workload wl_tbench;
extern const struct workload wl_pgbench;
extern const struct workload wl_sysbench;
extern const struct workload wl_fileio;
extern const struct workload wl_fio;
extern const struct workload wl_wakeup;
extern const struct workload wl_rr;
extern const struct workload wl_compute;

/* NULL-terminated, in the order `schedlab list workloads` shows. */
extern const struct workload *const workloads[];

const struct workload *workload_find(const char *name);

/* The format called name of the workload called workload (NULL: its default). */
const struct text_format *text_format_find(const char *workload,
					   const char *name);
/* A workload's text formats, the default first; returns how many. */
size_t text_formats(const char *workload, const struct text_format **out,
		    size_t max);

#endif
