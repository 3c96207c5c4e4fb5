/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_cli: what `schedlab compare` (compare_cli.c, and
 * compare_hosts.c for --by host) and `judge` (judge.c) share - their options (what they mean: compare/cmp_opts.h),
 * the store whose history gives the run-to-run noise, and the renderers
 * by --format.
 */
#ifndef SCHEDLAB_CMD_COMPARE_CLI_H
#define SCHEDLAB_CMD_COMPARE_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "compare/cmp_opts.h"
#include "report/render_compare.h"

#define DEFAULT_THRESHOLD "5"

struct compare_opts {
	const char *db;
	const char *threshold;
	const char *baseline;
	const char *run;
	const char *label;
	const char *good, *bad;
	struct opt_list good_sets, bad_sets;
	const char *iterations, *budget;
	const char *monitors, *monitor_interval;	/* judge's --monitor */
	struct trace_opts trace;	/* judge's --trace and its kin */
	unsigned min_iter, max_iter;
	struct opt_list sets;
	int format;		/* enum out_format */
	int layout;		/* compare's: enum out_layout */
	int by;			/* compare's --by: enum cmp_by */
	int stat;		/* compare's --stat: cmp_stat_names[] */
	const char *rows;	/* compare's --rows: mmtests rows, NULL all */
	int test;		/* cmp_test_choices[]: CMP_TEST_AUTO, ... */
	int unit;		/* --unit: enum cmp_unit */
	int match;		/* --match: enum cmp_match */
	const char *metrics;	/* --metrics, into cmp_opts */
	bool ratio;
	bool all;		/* compare's --all: a label is all its runs */
	unsigned brief;		/* --brief[=N]: its N; 0: not brief */
	bool help;
};

/* The most --brief=N takes: more is not brief. */
#define BRIEF_MAX 50
#define BRIEF_DEFAULT "3"


#define COMMON_OPTIONS							\
	OPT_DB(struct compare_opts, db),					\
	{ .name = "test", .type = OPT_ENUM, .offset = offsetof(struct compare_opts, test),		\
	  .def = "auto", .choices = cmp_test_choices, .arg = "TEST",	\
	  .help = CMP_TEST_HELP },					\
	{ .name = "threshold", .type = OPT_STRING, .offset = offsetof(struct compare_opts, threshold),	\
	  .def = DEFAULT_THRESHOLD, .arg = "PCT",				\
	  .help = "the smallest change that matters, in percent (0..1000: 5, 5% or 5.0%)" }, \
	{ .name = "unit", .type = OPT_ENUM, .offset = offsetof(struct compare_opts, unit), \
	  .def = "run", .choices = compare_units, .arg = "UNIT",		\
	  .help = "what is replicated between separate runs: run (each run's median; a side of one run decides only with this host's measured run-to-run noise: schedlab noise) or iteration (--test over the iterations: right only for interleaved runs; ab's and live references' always are)" }, \
	{ .name = "match", .type = OPT_ENUM, .offset = offsetof(struct compare_opts, match), .def = "params", \
	  .choices = compare_matches, .arg = "HOW",				\
	  .help = "params: cases with the same job, workload version and parameters; job: the same job and sweep values, parameters may differ" }, \
	{ .name = "metrics", .type = OPT_STRING, .offset = offsetof(struct compare_opts, metrics), \
	  .def = "headline", .arg = "WHICH",					\
	  .help = "which metrics get tables: headline, all (the workload's) or globs such as 'wakeup.p*,sched.*'; the verdict is the headline's" }, \
	{ .name = "ratio", .type = OPT_BOOL, .offset = offsetof(struct compare_opts, ratio), \
	  .help = "add mmtests' Gmean row (--print-ratio): per candidate the geometric mean over the cases of its mean / the baseline's" }, \
	{ .name = "brief", .type = OPT_UINT, .offset = offsetof(struct compare_opts, brief), \
	  .def = "0", .min = 0, .max = BRIEF_MAX, .bare = BRIEF_DEFAULT, .arg = "N", \
	  .help = "for an email: per case the mean row, the change and verdict, at most N (default " BRIEF_DEFAULT ") metrics that moved; no Duration block; 0: not brief" }, \
	OPT_FORMAT(struct compare_opts, format, COMPARE_FORMATS, "text",		\
		   "text (mmtests' layout), markdown, csv, json or html (a page: compare draws its plots, judge its tables)"),	\
	OPT_HELP(struct compare_opts, help)


/* The formats of compare, judge and ab; the layouts of compare and ab. */
#define COMPARE_FORMATS \
	(FMT(TEXT) | FMT(MARKDOWN) | FMT(CSV) | FMT(JSON) | FMT(HTML))
#define COMPARE_LAYOUTS (LAYOUT(MMTESTS) | LAYOUTS_TABLES)

/* What o says about how c is printed (--ratio, --brief) into c. */
static inline void compare_style(const struct compare_opts *o, struct comparison *c)
{
	c->ratio = o->ratio;
	c->brief = o->brief > 0;
	c->brief_top = o->brief;
}
/*
 * compare BASE CAND --by host (compare_hosts.c): specs[0..n) are the
 * operands, which must be two labels; rows is --rows parsed; a the
 * command's start-up, whose database it reads. An exit
 * code, having said why when it is not 0.
 */
int compare_by_host(const struct compare_opts *o, const struct cmp_opts *co,
		    unsigned rows, char *const *specs, int nspecs,
		    struct cmd_args *a);

#endif
