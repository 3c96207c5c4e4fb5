// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab history JOB: where a series of stored runs of one job
 * stepped. Its options checked, the store reads the job's cases in one
 * query (store_series()), the history engine (history/history.h) makes
 * them series, orders, summarises and looks for change points, and the
 * model goes to a renderer (report/render_history.h): text, json or an HTML
 * page with a plot.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "history/history.h"
#include "model/run.h"
#include "report/render_history.h"
#include "report/plot.h"
#include "stats/summary.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

struct history_opts {
	const char *db, *metric, *host, *label, *since, *repo, *output, *alpha;
	int by, format;
	unsigned min_size;
	bool help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help history_help = {
	.head = "usage: schedlab history JOB [--metric M] [--host PATTERN] [--label GLOB]\n"
		"       [--since DATE] [--by time|commit|kernel] [--repo DIR] [--db DB]\n"
		"       [--format text|json|html] [-o DIR] [--alpha A] [--min-size N]\n\n"
		"The stored runs of job JOB in order, one series per case of the job (a sweep\n"
		"has one per value), each run named by its label with its median and spread,\n"
		"and the change points in the series of the runs' medians: between which two\n"
		"runs, the level before and after, the change with its 95% interval and its p\n"
		"(E-Divisive means, a permutation test; doc/statistics.md). By commit, each\n"
		"change point comes with the git bisect and schedlab judge lines that narrow\n"
		"it down.\n\nOptions:\n",
	.tail = "\nExit status: 0 written (change points or none), 1 writing failed,\n"
		"2 bad input (an unknown job or metric, a bad DATE, too few runs).\n",
};

#define O(f) offsetof(struct history_opts, f)
static const struct opt_def history_options[] = {
	{ .name = "metric", .type = OPT_STRING, .offset = O(metric), .arg = "M",
	  .help = "the metric of the series (default: the job's headline)" },
	{ .name = "host", .type = OPT_STRING, .offset = O(host), .arg = "PATTERN",
	  .help = "only the runs of the hosts PATTERN matches, a glob as the shell's ('lkp-*'); a run without a host never matches" },
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "GLOB",
	  .help = "only the runs whose label GLOB matches ('nightly-*'); a run without a label never matches" },
	{ .name = "since", .type = OPT_STRING, .offset = O(since), .arg = "DATE",
	  .help = "only the runs started at or after DATE (UTC): 2026-12-01, 2026-12-01T10:00, 2026-12-01T10:00:00 or a Unix time" },
	{ .name = "by", .type = OPT_ENUM, .offset = O(by), .def = "time",
	  .choices = history_by_names, .arg = "ORDER",
	  .help = "time: by start time; commit: by the label as a commit of the git repository (--repo), in git rev-list --topo-order order; kernel: by the kernel release, in version order" },
	{ .name = "repo", .type = OPT_STRING, .offset = O(repo), .arg = "DIR",
	  .help = "with --by commit: the git repository whose commits the labels name (default: the current directory)" },
	OPT_DB(struct history_opts, db),
	OPT_FORMAT(struct history_opts, format,
		   FMT(TEXT) | FMT(JSON) | FMT(HTML), "text",
		   "text: a table per case with the change points marked; json: one schedlab-history/1 document (doc/statistics.md); html: DIR/index.html with a plot (-o)"),
	{ .name = "output", .type = OPT_STRING, .offset = O(output), .arg = "DIR",
	  .short_flag = 'o', .help = "with --format html: the directory to write index.html into (made when missing)" },
	{ .name = "alpha", .type = OPT_STRING, .offset = O(alpha), .def = "0.05",
	  .arg = "A", .help = "the significance each change point must reach, above 0 and at most 0.5" },
	{ .name = "min-size", .type = OPT_UINT, .offset = O(min_size), .def = "5",
	  .min = 2, .max = 10000, .arg = "N",
	  .help = "the fewest runs on either side of a change point" },
	OPT_HELP(struct history_opts, help),
	{ .name = NULL },
};
#undef O

/* --since DATE as Unix time: the forms --help names, UTC. */
static int parse_since(const char *s, double *t)
{
	static const char *const forms[] = {
		"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M",
		"%Y-%m-%d %H:%M", "%Y-%m-%d", NULL,
	};
	char *end;

	if (*s && !s[strspn(s, "0123456789.")]) {
		errno = 0;
		*t = strtod(s, &end);
		if (!errno && !*end && isfinite(*t))
			return 0;
	}
	for (size_t i = 0; forms[i]; i++) {
		struct tm tm = { 0 };

		end = strptime(s, forms[i], &tm);
		if (end && !*end) {
			*t = (double)timegm(&tm);
			return 0;
		}
	}
	return error("history: --since '%s' is not a date (accepted: 2026-12-01, "
		     "2026-12-01T10:00, 2026-12-01T10:00:00, or a Unix time such as 1796119200)", s);
}

static int parse_alpha(const char *s, double *a)
{
	char *end;

	errno = 0;
	*a = strtod(s, &end);
	if (errno || end == s || *end || !(*a > 0 && *a <= 0.5))
		return error("history: --alpha '%s' is not a significance level "
			     "(accepted: a number above 0 and at most 0.5, such as 0.05)", s);
	return 0;
}

/* A list of names for a message: "a, b, c" (at most 20, then "..."). */
static char *name_list(char *const *names, size_t n)
{
	size_t len = 8;
	char *s, *p;

	for (size_t i = 0; i < n && i < 20; i++)
		len += strlen(names[i]) + 2;
	s = p = xmalloc(len);
	*p = '\0';
	for (size_t i = 0; i < n && i < 20; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", names[i]);
	if (n > 20)
		strcpy(p, ", ...");
	return s;
}

int series_unknown(const char *who, const char *job, const char *metric,
		   const char *db, const struct store_series *ss)
{
	char **names;
	char *list;

	if (!ss->nmetrics && !ss->njobs)
		return error("%s: no job '%s' in %s: it has no complete runs yet", who, job, db);
	if (!ss->nmetrics) {
		list = name_list(ss->jobs, ss->njobs);
		error("%s: no job '%s' in %s (its jobs: %s)", who, job, db, list);
		free(list);
		return -1;
	}
	if (ss->metric)
		return 0;
	names = xcalloc(ss->nmetrics + 1, sizeof(*names));
	for (size_t i = 0; i < ss->nmetrics; i++)
		names[i] = ss->metrics[i].name;
	list = name_list(names, ss->nmetrics);
	error("%s: job '%s' has no metric '%s' (its metrics: %s)", who, job,
	      metric ? metric : "(headline)", list);
	free(list);
	free(names);
	return -1;
}

/* DIR/index.html through a temporary file and rename(): 0, 1 written
 * without its plot (gnuplot failed), -1 after error(). */
static int write_page(const char *dir, const struct history *h)
{
	struct atomic_file page;
	struct plot_batch pb;
	int rc;

	if (plot_open(&pb, false))
		return -1;
	if (!plot_have(&pb))
		warning("history: no gnuplot in PATH: the page has its tables but no plot (%s)",
			PLOT_HOWTO);
	if (!atomic_open(&page, "history", dir, "index.html")) {
		plot_close(&pb);
		return -1;
	}
	rc = render_history_html(page.f, h, &pb) ? 1 : 0;
	plot_close(&pb);
	if (atomic_commit(&page, "history"))
		return -1;
	return rc;
}

static int history_checks(const struct history_opts *o, int nargs, char **args,
			  struct store_series_query *q, double *alpha)
{
	if (nargs != 1) {
		if (nargs)
			error("history: expected one JOB, got %d (usage: schedlab history JOB [OPTIONS])", nargs);
		else
			error("history: expected a JOB, the name of a job of the stored runs (usage: schedlab history JOB [OPTIONS])");
		return -1;
	}
	q->job = args[0];
	q->metric = o->metric;
	q->host = o->host;
	q->label = o->label;
	q->since = NAN;
	if (o->since && parse_since(o->since, &q->since))
		return -1;
	if (parse_alpha(o->alpha, alpha))
		return -1;
	if (o->format == FMT_HTML && !o->output)
		return error("history: --format html needs -o/--output DIR: the directory to write index.html into");
	if (o->format != FMT_HTML && o->output)
		return error("history: -o/--output is for --format html");
	if (o->repo && o->by != BY_COMMIT)
		return error("history: --repo is for --by commit");
	return 0;
}

int cmd_history(int argc, char **argv)
{
	struct history_opts o;
	struct cmd_args a = { CMD_ARGS(history_options, o), .who = "history",
			      .help = &history_help };
	struct store_series_query q;
	struct store_series ss = { 0 };
	struct history h = { 0 };
	struct history_order ord = { 0 };
	struct store *st;
	double alpha;
	int first, rc;
	FILE *f;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	rc = EXIT_USAGE;
	if (history_checks(&o, argc - first, argv + first, &q, &alpha))
		return EXIT_USAGE;
	st = cmd_store_ro(&a, "runs are stored by 'schedlab run'");
	if (!st || store_series(st, &q, &ss)) {
		cmd_args_done(&a);
		store_series_free(&ss);
		return EXIT_USAGE;
	}
	h = (struct history){
		.job = q.job, .db = store_path(st), .metric = ss.metric,
		.by = (enum history_by)o.by, .min_size = o.min_size,
		.cp = { .alpha = alpha, .min_size = o.min_size },
	};
	if (series_unknown("history", q.job, q.metric, h.db, &ss))
		goto out;
	if (!ss.ncases) {
		error("history: no runs of job '%s' match%s%s%s%s%s%s", q.job,
		      o.host ? " --host " : "", o.host ? o.host : "",
		      o.label ? " --label " : "", o.label ? o.label : "",
		      o.since ? " --since " : "", o.since ? o.since : "");
		goto out;
	}
	history_group(&ss, &h);
	if (history_order(&h, o.repo, &ord))
		goto out;
	history_summarise(&h);
	if (history_detect(&h, o.db))
		goto out;
	if (o.format == FMT_HTML) {
		if (make_out_dir("history", o.output))
			goto out;
		rc = write_page(o.output, &h);
		rc = rc < 0 ? EXIT_USAGE : rc ? EXIT_RUN_FAILED : EXIT_OK;
		goto out;
	}
	f = o.format == FMT_JSON ? stdout : text_safe(stdout);
	rc = o.format == FMT_JSON ? render_history_json(f, &h) : render_history_text(f, &h);
	if (f != stdout && fclose(f))
		rc = -1;
	rc = rc ? EXIT_RUN_FAILED : EXIT_OK;
out:
	history_order_free(&ord);
	history_free(&h);
	store_series_free(&ss);
	cmd_args_done(&a);
	return rc;
}
