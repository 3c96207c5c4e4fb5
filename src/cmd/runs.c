// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stored runs: schedlab show RUN, schedlab export RUN [-o FILE],
 * schedlab import FILE. RUN is a run id, a label (store_resolve()'s
 * rule: the latest complete run with cases first) or an exported JSON
 * file ("-": standard input).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "compare/session.h"
#include "model/run.h"
#include "report/render_compare.h"
#include "report/run_text.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

struct runs_opts {
	const char *db;
	const char *output;
	const char *max_size;
	int format;		/* enum out_format */
	int layout;		/* enum out_layout */
	int stat;		/* cmp_stat_names[] */
	bool help;
};

/* The run's own view is text or json, the tables text or markdown. */
#define SHOW_WHY "--layout %s with --format %s: the run's own view is text or json, the tables (--layout mmtests, wide, grid, raw) text or markdown"
static const struct out_refusal show_refusals[] = {
	{ LAYOUT(RUN), FMT(MARKDOWN), SHOW_WHY },
	{ LAYOUT(MMTESTS) | LAYOUTS_TABLES, FMT(JSON), SHOW_WHY },
	{ 0 },
};

#define O(f) offsetof(struct runs_opts, f)
static const struct opt_def show_options[] = {
	OPT_DB(struct runs_opts, db),
	OPT_FORMAT(struct runs_opts, format,
		   FMT(TEXT) | FMT(MARKDOWN) | FMT(JSON), "text",
		   "text: the run, its machine and each job's summary; json: the export document; markdown: with --layout"),
	OPT_LAYOUT(struct runs_opts, layout, LAYOUT(RUN) | LAYOUT(MMTESTS) |
		   (LAYOUTS_TABLES & ~LAYOUT(VARIANTS)), "run",
		   "run: the run, its machine and summaries; mmtests, wide, grid, raw, workload: only the tables of compare --layout HOW for this one run (text or markdown)"),
	{ .name = "stat", .type = OPT_ENUM, .offset = O(stat), .def = "mean",
	  .choices = cmp_stat_names, .arg = "STAT",
	  .help = "the statistic of --layout wide, grid and workload, as compare's" },
	OPT_HELP(struct runs_opts, help),
	{ .name = NULL },
};
static const struct opt_def export_options[] = {
	OPT_DB(struct runs_opts, db),
	{ .name = "output", .type = OPT_STRING, .offset = O(output), .short_flag = 'o',
	  .arg = "FILE", .help = "write to FILE (replaced only once complete) instead of standard output" },
	OPT_HELP(struct runs_opts, help),
	{ .name = NULL },
};
static const struct opt_def import_options[] = {
	OPT_DB(struct runs_opts, db),
	{ .name = "max-size", .type = OPT_STRING, .offset = O(max_size), .arg = "SIZE",
	  .help = "refuse a document above SIZE bytes (K, M, G, T; default SCHEDLAB_IMPORT_MAX, else 256M)" },
	OPT_HELP(struct runs_opts, help),
	{ .name = NULL },
};
#undef O

/*
 * The start-up (cmd_parse()) and the one operand; returns its index, or
 * -1 (exit code in *rc).
 */
static int parse(int argc, char **argv, const struct opt_def *tab,
		 struct runs_opts *o, const char *usage, struct cmd_args *a,
		 int *rc)
{
	int first;

	*a = (struct cmd_args){ CMD_ARGS(tab, *o), .usage_line = usage };
	first = cmd_parse(argc, argv, a, rc);
	if (first >= 0 && argc - first != 1) {
		error("%s: expected one argument (usage: schedlab %s)", argv[0], usage);
		*rc = EXIT_USAGE;
		return -1;
	}
	return first;
}

/* The runs of A/B ab in the database the run came from. */
static int show_ab_runs(struct cmd_args *a, const char *ab,
			struct store_ab_run **runs, size_t *n)
{
	struct store *st = cmd_store_ro(a, "see 'schedlab run'");

	return st ? store_ab_runs(st, ab, runs, n) : -1;
}

/* show --layout: the run alone as compare's tables (a one-run comparison). */
static int show_tables(const struct runs_opts *o, const struct run *r,
		       const char *spec)
{
	struct cmp_opts co = compare_opts_default(TEST_MWU);
	struct layout_opts lo = { .stat = o->stat, .markdown = o->format == FMT_MARKDOWN };
	struct comparison c;
	int rc = 0;
	FILE *f;

	if (compare_build(&r, &spec, 1, &co, false, NULL, &c))
		return -1;
	f = text_safe(stdout);
	if (o->layout == LAYOUT_MMTESTS) {
		fputs(lo.markdown ? "```\n" : "", f);
		render_compare_summary(f, &c);
		fputs(lo.markdown ? "```\n" : "", f);
	} else if ((rc = render_layout(f, o->layout, &c, &r, &lo))) {
		error("show: --layout workload: " WL_TABLE_NONE);
	}
	fclose(f);
	compare_free(&c);
	return rc;
}

int cmd_show(int argc, char **argv)
{
	struct runs_opts o;
	struct cmd_args a;
	struct run r;
	json_t *doc;
	int i, rc;

	i = parse(argc, argv, show_options, &o, "show RUN [--db PATH] [--format text|json|markdown] [--layout HOW] [--stat STAT]", &a, &rc);
	if (i < 0)
		goto out;
	rc = EXIT_USAGE;
	if (out_refused("show", show_refusals, o.layout, o.format) ||
	    run_source_load(&a.src, argv[i], &r))
		goto out;
	if (o.layout != LAYOUT_RUN) {
		rc = show_tables(&o, &r, argv[i]) ? EXIT_USAGE : EXIT_OK;
		run_free(&r);
		goto out;
	}
	if (o.format == FMT_JSON) {
		doc = run_to_export(&r);
		export_dump(doc, stdout);
		json_decref(doc);
	} else {
		struct store_ab_run *ab = NULL;
		size_t nab = 0;
		FILE *f;

		if (r.ab && r.id >= 0 && show_ab_runs(&a, r.ab, &ab, &nab)) {
			run_free(&r);
			goto out;
		}
		f = text_safe(stdout);
		render_run_text(f, &r, ab, nab);
		fclose(f);
		store_ab_runs_free(ab, nab);
	}
	run_free(&r);
	rc = EXIT_OK;
out:
	cmd_args_done(&a);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct runs_opts o;
	struct cmd_args a;
	struct run r;
	char tmp[4096];
	sigset_t stop, old;
	json_t *doc;
	FILE *f;
	int i, rc;

	i = parse(argc, argv, export_options, &o, "export RUN [-o FILE] [--db PATH]", &a, &rc);
	if (i >= 0 && run_source_load(&a.src, argv[i], &r)) {
		i = -1;
		rc = EXIT_USAGE;
	}
	cmd_args_done(&a);
	if (i < 0)
		return rc;
	doc = run_to_export(&r);
	run_free(&r);
	if (!o.output || !strcmp(o.output, "-")) {
		rc = export_dump(doc, stdout) ? EXIT_RUN_FAILED : EXIT_OK;
		json_decref(doc);
		return rc;
	}
	/*
	 * Written beside the target, renamed over it once complete. Stop
	 * signals wait until the file is renamed or removed: a Ctrl-C
	 * halfway must not leave FILE.tmp.PID behind.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", o.output, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		json_decref(doc);
		error_errno("export: %s", tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return EXIT_USAGE;
	}
	rc = export_dump(doc, f);
	if (fclose(f) || rc || rename(tmp, o.output)) {
		error_errno("export: %s", o.output);
		unlink(tmp);
		rc = EXIT_RUN_FAILED;
	}
	json_decref(doc);
	sigprocmask(SIG_SETMASK, &old, NULL);	/* a pending stop ends us here */
	return rc;
}

int cmd_import(int argc, char **argv)
{
	struct runs_opts o;
	struct cmd_args a;
	struct export_limit lim;
	struct run r;
	struct store *st;
	json_t *doc;
	int64_t id;
	int i, rc;

	i = parse(argc, argv, import_options, &o, "import FILE [--db PATH] [--max-size SIZE]", &a, &rc);
	if (i < 0)
		return rc;
	if (export_limit(o.max_size, &lim))
		return EXIT_USAGE;
	doc = export_load_limited(argv[i], &lim);
	if (!doc || export_validate(doc, argv[i]) ||
	    export_check_written(doc, argv[i])) {
		json_decref(doc);
		return EXIT_USAGE;
	}
	st = store_open(a.db);
	if (!st) {
		json_decref(doc);
		return EXIT_USAGE;
	}
	rc = store_import(st, doc, argv[i], &id) ? EXIT_USAGE : EXIT_OK;
	if (rc == EXIT_OK && !run_from_export(doc, argv[i], &r)) {
		printf("imported run %lld (%s) into %s\n", (long long)id,
		       r.label ?: "(null)", store_path(st));
		run_free(&r);
	}
	store_close(st);
	json_decref(doc);
	return rc;
}
