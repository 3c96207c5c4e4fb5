// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab compare BASE CAND [CAND...]: stored runs side by side in
 * mmtests' layout, with significance, intervals and verdicts, or with
 * --layout variants|wide|grid|raw|workload in the shapes LKML posts use
 * (doc/tables.md).
 * The parsing, history and rendering it shares with judge (judge.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "cmd/cmd.h"
#include "cmd/compare_cli.h"
#include "cmd/setup.h"
#include "compare/session.h"
#include "model/run.h"
#include "report/render_compare.h"
#include "report/html.h"
#include "report/plot.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

/* The most runs one side of a comparison takes. */
#define SIDE_MAX 100

/* --help: its text before the options, and after them */
static const struct cmd_help compare_help = {
	.head = "usage: schedlab compare BASE CAND [CAND...] [OPTIONS]\n"
		"       schedlab compare BASE1+BASE2+... CAND1+CAND2+... [OPTIONS]\n"
		"       schedlab compare BASE CAND --by host [OPTIONS]\n\n"
		"Compares stored runs (RUN = id, label or exported JSON file): for each\n"
		"job's headline metric and sweep value mmtests' rows with the percentage\n"
		"against BASE (+ is better, * marks a significant mean), each candidate's\n"
		"change with its interval and verdict, the scheduler metrics that moved,\n"
		"and each run's CPU time. --layout wide, grid, raw and workload print\n"
		"the other tables posted to LKML (doc/tables.md). Between separate runs\n"
		"the run is the unit: a side of several runs (RUN+RUN+..., or --all with a\n"
		"label) is tested by its runs' medians; a side of one run gets a verdict only\n"
		"where this host's run-to-run noise of the case is measured (schedlab noise).\n\nOptions:\n",
	.tail = "\nExit status: 0 compared (whatever the verdict), 2 bad input or nothing to compare.\n",
};

/* The tables for reading take text or markdown; the rest have it all. */
static const struct out_refusal compare_refusals[] = {
	{ LAYOUTS_TABLES, FMT(HTML),
	  "--layout %s is a table for text or markdown; --format %s draws its own tables and plots (use --layout mmtests)" },
	{ LAYOUTS_TABLES, FMT(CSV) | FMT(JSON),
	  "--layout %s is a table for reading (--format text or markdown); --format %s has every number already" },
	{ 0 },
};

static const struct opt_def compare_options[] = {
	COMMON_OPTIONS,
	OPT_LAYOUT(struct compare_opts, layout, COMPARE_LAYOUTS, "mmtests",
	  "mmtests: its rows for each sweep value, changes, verdicts, metrics that moved; variants: one table per job, a column per run with each change; wide: the sweep values as columns, a row per run; grid: the sweep values as rows, a column per run; raw: every iteration's value, a line per run and case; workload: the table the workload declares (compute: AIM7's columns), a row per sweep value and run (all but mmtests: text or markdown)"),
	{ .name = "stat", .type = OPT_ENUM, .offset = offsetof(struct compare_opts, stat),
	  .def = "mean", .choices = cmp_stat_names, .arg = "STAT",
	  .help = "the statistic of --layout wide, grid and workload; mean: the headline row (Hmean for a throughput, Amean for a time)" },
	{ .name = "by", .type = OPT_ENUM, .offset = offsetof(struct compare_opts, by),
	  .def = "run", .choices = compare_bys, .arg = "WHAT",
	  .help = "run: the RUNs as given; host: BASE and CAND are labels, compared on every host that has a run with each (the run a label stands for there: the latest complete one with cases first), a block per host and a verdict line per host (--layout mmtests; text, markdown, csv or json)" },
	{ .name = "all", .type = OPT_BOOL, .offset = offsetof(struct compare_opts, all),
	  .help = "each LABEL operand stands for every complete run with that label and cases, on the host of the latest of them (at most 100), not the latest alone: a side of several runs, the run the unit of the test (--unit run)" },
	{ .name = "rows", .type = OPT_STRING, .offset = offsetof(struct compare_opts, rows),
	  .arg = "ROW,...",
	  .help = "the mmtests rows shown, e.g. Amean,Stddev (Min, Amean or Hmean or Mean, Stddev, CoeffVar, Max, BAmean-95; any case)" },
	{ .name = NULL },
};

/*
 * A side's operand as runs: "A+B+C" is three (every part non-empty, so
 * that a label such as "6.1.0+" stays one); with --all a label is every
 * complete run with it (and cases) on the host of the latest of them. Appends the RUN
 * specs to *specs. -1 after error().
 */
static int side_specs(const char *operand, bool all, struct store *st,
		      char ***specs, size_t *n)
{
	char *copy = xstrdup(operand), *save, *t;
	bool split = *operand && operand[strlen(operand) - 1] != '+' &&
		     *operand != '+' && !strstr(operand, "++") &&
		     strchr(operand, '+') && access(operand, F_OK);
	size_t before = *n;

	for (t = split ? strtok_r(copy, "+", &save) : copy; t;
	     t = split ? strtok_r(NULL, "+", &save) : NULL) {
		struct store_run_info *ri = NULL;
		size_t nri = 0, got = 0;
		const char *host = NULL;
		bool label = false, hosted = false;

		if (all && st && strspn(t, "0123456789") != strlen(t) &&
		    access(t, F_OK) && !store_runs(st, &ri, &nri)) {
			for (size_t i = 0; i < nri; i++) {
				if (!ri[i].label || strcmp(ri[i].label, t))
					continue;
				label = true;
				if (strcmp(ri[i].status, "complete") ||
				    !ri[i].cases)
					continue;
				if (!hosted) {	/* the latest complete run's */
					hosted = true;
					host = ri[i].host;
				}
				if (!ri[i].host != !host ||
				    (host && strcmp(ri[i].host, host)) ||
				    got == SIDE_MAX)
					continue;
				*specs = xrealloc(*specs, (*n + 1) * sizeof(**specs));
				(*specs)[(*n)++] = xasprintf("%lld", (long long)ri[i].id);
				got++;
			}
			store_runs_free(ri, nri);
		}
		if (!label) {
			*specs = xrealloc(*specs, (*n + 1) * sizeof(**specs));
			(*specs)[(*n)++] = xstrdup(t);
		} else if (!got) {
			error("compare: --all: no complete run labelled '%s'", t);
			free(copy);
			return -1;
		}
		if (!split)
			break;
	}
	free(copy);
	if (*n - before > SIDE_MAX) {
		error("compare: '%s' names %zu runs; a side takes 1..%d", operand,
		      *n - before, SIDE_MAX);
		return -1;
	}
	return 0;
}

/* --rows parsed into *rows (0: all), with --layout mmtests only. -1 after error(). */
static int rows_of(const struct compare_opts *o, unsigned *rows)
{
	char bad[128];

	*rows = 0;
	if (!o->rows)
		return 0;
	if (o->layout != LAYOUT_MMTESTS)
		return error("compare: --rows selects the rows of --layout mmtests, not of --layout %s",
			     out_layout_names[o->layout]);
	if (mm_rows_parse(o->rows, rows, bad, sizeof(bad)))
		return error("compare: --rows: no row '%s'; the rows are %s",
			     bad, MM_ROW_NAMES);
	return 0;
}

/* c, of the runs rp, printed as o's --layout and --format say; an exit code. */
static int compare_print(const struct compare_opts *o, const struct comparison *c,
			 const struct run *const *rp)
{
	struct plot_batch pb;

	if (o->layout != LAYOUT_MMTESTS)
		return render_layout_stdout(c, rp, o->layout, o->stat,
					     o->format == FMT_MARKDOWN, "compare") ?
		       EXIT_USAGE : EXIT_OK;
	if (o->format != FMT_HTML) {
		render_compare_stdout(c, o->format);
	} else if (!plot_open(&pb, false)) {
		/* the report's page, its plots inlined (report.c) */
		render_html_page(stdout, c, rp, &pb);
		plot_close(&pb);
	} else {
		render_compare_html(stdout, c);
	}
	return EXIT_OK;
}

/*
 * The n operands' runs (a side each: side_specs()) loaded into s and
 * compared into *c. -1 after error().
 */
static int compare_sides(const struct compare_opts *o, const struct cmp_opts *co,
			 char *const *operands, int n, struct compare_session *s,
			 struct comparison *c)
{
	struct store *st = compare_session_store(s);
	size_t nspecs = 0, *side_end = NULL;
	char **specs = NULL;
	int rc = -1;

	/* a database that is there but cannot be opened has said why */
	if (s->src.failed && !s->src.unresolved)
		return -1;
	side_end = xcalloc((size_t)n, sizeof(*side_end));
	for (int i = 0; i < n; i++) {
		if (side_specs(operands[i], o->all, st, &specs, &nspecs))
			goto out;
		side_end[i] = nspecs;
	}
	if (!compare_session_load(s, (const char *const *)specs, nspecs,
				  side_end, (size_t)n) &&
	    !compare_session_decide(s, "compare", o->test,
				    (const char *const *)operands, co,
				    o->match == MATCH_JOB, c))
		rc = 0;
out:
	for (size_t i = 0; i < nspecs; i++)
		free(specs[i]);
	free(specs);
	free(side_end);
	return rc;
}

/*
 * When an operand is a campaign's label (NAME/STATE of an A/B campaign
 * in this store), why the campaign's own verdict on these runs is
 * wider: it looks at them more than once. On stdout, after the table.
 */
static void campaign_note(struct store *st, char *const *operands, int n)
{
	for (int i = 0; st && i < n; i++) {
		const char *slash = strchr(operands[i], '/');
		struct campaign c;
		char *name;
		int bad;

		if (!slash || slash == operands[i])
			continue;
		name = xasprintf("%.*s", (int)(slash - operands[i]), operands[i]);
		error_mute(1);
		bad = campaign_load(st, name, &c);
		error_mute(0);
		if (!bad && !c.bisect && campaign_looks(&c) > 1)
			printf("\nnote: %s's runs are campaign %s's: its own verdict looks at them up to %u times, each at p < %.4f (its %.0f%% false-alarm rate shared among the looks), so its interval and what it could show are wider than this comparison's, which looks once\n",
			       operands[i], name, campaign_looks(&c),
			       CAMPAIGN_ALPHA / campaign_looks(&c), 100 * CAMPAIGN_ALPHA);
		if (!bad)
			campaign_free(&c);
		free(name);
		if (!bad)
			return;
	}
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct cmd_args a = { CMD_ARGS(compare_options, o), .help = &compare_help };
	struct comparison c;
	struct cmp_opts co;
	struct compare_session s;
	int first, n, rc;
	unsigned rows;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	if (compare_opts_from("compare", o.test, o.unit, o.threshold, o.metrics, &co) ||
	    out_refused("compare", compare_refusals, o.layout, o.format) ||
	    rows_of(&o, &rows))
		return EXIT_USAGE;
	n = argc - first;
	if (o.by == BY_HOST) {
		if (o.layout != LAYOUT_MMTESTS) {
			error("compare: --by host prints mmtests' layout per host, not --layout %s",
			      out_layout_names[o.layout]);
			return EXIT_USAGE;
		}
		rc = compare_by_host(&o, &co, rows, argv + first, n, &a);
		cmd_args_done(&a);
		return rc;
	}
	if (n < 2) {
		error("compare: expected a baseline and at least one candidate (usage: schedlab compare BASE CAND [CAND...])");
		return EXIT_USAGE;
	}
	rc = EXIT_USAGE;
	compare_session_init(&s, o.db);
	if (!compare_sides(&o, &co, argv + first, n, &s, &c)) {
		c.rows = rows;
		compare_style(&o, &c);
		rc = compare_print(&o, &c, s.rp);
		if (!rc && o.format == FMT_TEXT)
			campaign_note(compare_session_store(&s), argv + first, n);
		compare_free(&c);
	}
	compare_session_close(&s);
	return rc;
}
