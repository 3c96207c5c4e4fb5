// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab report RUN... -o DIR: the runs' comparison (the first RUN
 * the baseline; one RUN alone: a report of that run) as DIR/index.html,
 * one self-contained page with the tables and gnuplot's plots inlined
 * (report/html.h), or with --format png the plots as PNG files in DIR
 * and an index.html showing them. Without gnuplot the page has its
 * tables and says how to get the plots, and report warns once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/compare_cli.h"
#include "cmd/setup.h"
#include "compare/session.h"
#include "model/run.h"
#include "report/html.h"
#include "report/plot.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

struct report_opts {
	const char *db, *output, *threshold;
	int format;
	int test;		/* cmp_test_choices[] */
	int match;		/* enum cmp_match */
	bool help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help report_help = {
	.head = "usage: schedlab report RUN [RUN...] -o DIR [OPTIONS]\n\n"
		"Writes DIR/index.html: the comparison of the runs (the first the baseline;\n"
		"one RUN alone: its own report) as one self-contained page - mmtests' tables,\n"
		"changes and verdicts, per job a plot over the sweep values with every\n"
		"iteration, latency CDFs from the stored histograms, the scheduler metrics\n"
		"that moved as a chart, the environments side by side. The plots need\n"
		"gnuplot in PATH (" PLOT_HOWTO ").\n\nOptions:\n",
	.tail = "\nExit status: 0 written, 1 gnuplot failed (the page has the tables),\n2 bad input.\n",
};

#define O(f) offsetof(struct report_opts, f)
static const struct opt_def report_options[] = {
	OPT_DB(struct report_opts, db),
	{ .name = "output", .type = OPT_STRING, .offset = O(output), .arg = "DIR",
	  .short_flag = 'o', .help = "the directory to write index.html into (made when missing)" },
	OPT_FORMAT(struct report_opts, format, FMT(HTML) | FMT(PNG), "html",
		   "html: one page, the plots inlined as SVG; png: the plots as PNG files in DIR, for a mail or a bug tracker, and an index.html showing them"),
	{ .name = "test", .type = OPT_ENUM, .offset = O(test), .def = "auto",
	  .choices = cmp_test_choices, .arg = "TEST",
	  .help = "what decides significance, as for compare (auto: runs-t between separate runs; a test named decides only runs made side by side)" },
	{ .name = "threshold", .type = OPT_STRING, .offset = O(threshold),
	  .def = DEFAULT_THRESHOLD, .arg = "PCT",
	  .help = "the smallest change that matters, in percent (0..1000: 5, 5% or 5.0%)" },
	{ .name = "match", .type = OPT_ENUM, .offset = O(match), .def = "params",
	  .choices = compare_matches, .arg = "HOW", .help = "how cases match, as for compare" },
	OPT_HELP(struct report_opts, help),
	{ .name = NULL },
};
#undef O

/* The page into DIR/index.html, through a temporary file and rename(). */
static int write_page(const char *dir, const struct comparison *c,
		      const struct run *const *runs, struct plot_batch *pb)
{
	struct atomic_file page;
	int rc;

	if (!atomic_open(&page, "report", dir, "index.html"))
		return -1;
	rc = render_html_page(page.f, c, runs, pb);
	if (pb->png && plot_save_png(pb, dir))
		rc = -1;
	if (atomic_commit(&page, "report"))
		return -1;
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct cmd_args a = { CMD_ARGS(report_options, o), .help = &report_help };
	struct cmp_opts co;
	struct comparison c;
	struct plot_batch pb;
	struct compare_session s;
	int first, n, rc, w;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	/* separate runs: the run the unit, as compare's default */
	if (compare_opts_from("report", o.test, UNIT_RUN, o.threshold, NULL, &co))
		return EXIT_USAGE;
	if (!o.output) {
		error("report: -o/--output DIR is required: the directory to write index.html into");
		return EXIT_USAGE;
	}
	n = argc - first;
	if (n < 1) {
		error("report: expected at least one RUN (usage: schedlab report RUN [RUN...] -o DIR)");
		return EXIT_USAGE;
	}
	if (make_out_dir("report", o.output))
		return EXIT_USAGE;
	rc = EXIT_USAGE;
	compare_session_init(&s, o.db);
	if (compare_session_load(&s, (const char *const *)argv + first, (size_t)n,
				 NULL, (size_t)n) ||
	    compare_session_decide(&s, "report", o.test,
				   (const char *const *)argv + first, &co,
				   o.match == MATCH_JOB, &c))
		goto out;
	if (plot_open(&pb, o.format == FMT_PNG)) {
		rc = EXIT_RUN_FAILED;
		compare_free(&c);
		goto out;
	}
	if (!plot_have(&pb))
		warning("report: no gnuplot in PATH: the page has its tables but no plots (%s)",
			PLOT_HOWTO);
	w = write_page(o.output, &c, s.rp, &pb);
	plot_close(&pb);
	compare_free(&c);
	rc = w ? EXIT_RUN_FAILED : EXIT_OK;
out:
	compare_session_close(&s);
	return rc;
}
