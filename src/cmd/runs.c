// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stored runs: schedlab show RUN, schedlab export RUN [-o FILE],
 * schedlab import FILE. RUN is a run id, a label (the latest run with
 * it) or an exported JSON file ("-": standard input).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/rundoc.h"
#include "report/mmtests.h"
#include "report/render.h"
#include "probe/probe.h"
#include "store/store.h"
#include "workload/registry.h"
#include "util.h"

struct runs_opts {
	const char *db;
	const char *output;
	int format;
	bool help;
};

static const char *const show_formats[] = { "text", "json", NULL };

#define O(f) offsetof(struct runs_opts, f)
static const struct opt_def db_option = {
	.name = "db", .type = OPT_STRING, .offset = O(db), .arg = "PATH",
	.help = "the database (default: $SCHEDLAB_DB, else $XDG_DATA_HOME/schedlab/results.db)",
};
static const struct opt_def help_option = {
	.name = "help", .type = OPT_BOOL, .offset = O(help), .short_flag = 'h',
	.help = "show this help",
};
static const struct opt_def show_options[] = {
	db_option,
	{ .name = "format", .type = OPT_ENUM, .offset = O(format), .def = "text",
	  .choices = show_formats, .arg = "FMT",
	  .help = "text: the run, its machine and each job's summary; json: the export document" },
	help_option,
	{ .name = NULL },
};
static const struct opt_def export_options[] = {
	db_option,
	{ .name = "output", .type = OPT_STRING, .offset = O(output), .short_flag = 'o',
	  .arg = "FILE", .help = "write to FILE (replaced only once complete) instead of standard output" },
	help_option,
	{ .name = NULL },
};
static const struct opt_def import_options[] = {
	db_option,
	help_option,
	{ .name = NULL },
};
#undef O

/* Parses options and the one operand; returns its index, or -1 (exit code in *rc). */
static int parse(int argc, char **argv, const struct opt_def *tab,
		 struct runs_opts *o, const char *usage, int *rc)
{
	struct opt_target t = { tab, o };
	int first;

	memset(o, 0, sizeof(*o));
	opts_defaults(tab, o);
	first = opts_parse_argv(&t, 1, argc, argv, argv[0], true);
	*rc = EXIT_USAGE;
	if (first < 0)
		return -1;
	if (o->help) {
		printf("usage: schedlab %s\n\nOptions:\n", usage);
		opts_help(stdout, tab);
		*rc = EXIT_OK;
		return -1;
	}
	if (argc - first != 1) {
		error("%s: expected one argument (usage: schedlab %s)", argv[0], usage);
		return -1;
	}
	return first;
}

static void fmt_time(char *buf, size_t len, const json_t *t)
{
	time_t s;
	struct tm tm;

	if (!json_is_number(t)) {
		snprintf(buf, len, "-");
		return;
	}
	s = (time_t)json_number_value(t);
	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* The mean of a case's samples of one metric; NaN when it has none. */
static double case_mean(const json_t *c, const char *metric)
{
	const json_t *arr = json_object_get(json_object_get(c, "samples"), metric);
	double sum = 0;
	size_t n = 0, i;
	json_t *v;

	json_array_foreach((json_t *)arr, i, v)
		if (json_is_number(v)) {
			sum += json_number_value(v);
			n++;
		}
	return n ? sum / (double)n : NAN;
}

static void explain_case(const json_t *c)
{
	const struct workload *wl = workload_find(
		json_string_value(json_object_get(c, "workload")));
	double pm[PM_N];

	for (size_t m = 0; m < PM_N; m++)
		pm[m] = case_mean(c, probe_metrics[m].name);
	render_explain(stdout, json_string_value(json_object_get(c, "sweep")),
		       wl && wl->events ? wl->events : "events", pm);
}

/* Cases [from, to) of one job. */
static void show_job(const json_t *doc, size_t from, size_t to)
{
	const json_t *cases = json_object_get(doc, "cases");
	const json_t *metrics = json_object_get(doc, "metrics");
	const json_t *c0 = json_array_get(cases, from);
	const char *mname = rundoc_headline(metrics,
		json_string_value(json_object_get(c0, "workload")));
	const json_t *meta;
	struct sweep_samples *s;
	struct metric_def m;
	size_t n = to - from;

	if (!mname)
		return;
	meta = json_object_get(metrics, mname);
	m = (struct metric_def){ .name = mname,
		.unit = json_string_value(json_object_get(meta, "unit")),
		.better = rundoc_better(json_string_value(json_object_get(meta, "better"))),
		.headline = true };
	s = xcalloc(n, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(cases, from + i);
		const json_t *arr = json_object_get(json_object_get(c, "samples"), mname);
		double *x = xcalloc(json_array_size(arr) + 1, sizeof(double));

		for (size_t k = 0; k < json_array_size(arr); k++) {
			const json_t *v = json_array_get(arr, k);

			x[k] = json_is_number(v) ? json_number_value(v) : NAN;
		}
		s[i].sweep = json_string_value(json_object_get(c, "sweep"));
		s[i].x = x;
		s[i].n = json_array_size(arr);
		s[i].failed = strcmp(json_string_value(json_object_get(c, "status")),
				     "complete") ?
			      json_string_value(json_object_get(c, "reason")) : NULL;
	}
	render_job_summary(stdout, json_string_value(json_object_get(c0, "job")),
			   json_string_value(json_object_get(c0, "sweep_keys")),
			   &m, s, n);
	for (size_t i = 0; i < n; i++)
		explain_case(json_array_get(cases, from + i));
	putchar('\n');
	for (size_t i = 0; i < n; i++)
		free((double *)s[i].x);
	free(s);
}

/* Which scheduler-metric sources the run had, and why not. */
static void show_probes(const json_t *probes)
{
	const char *name;
	json_t *p;

	if (!json_is_object(probes))
		return;
	json_object_foreach((json_t *)probes, name, p) {
		if (json_is_true(json_object_get(p, "available")))
			continue;
		printf("%-17s not available (%s)\n", name,
		       json_string_value(json_object_get(p, "reason")) ?: "?");
	}
}

static void show_text(const json_t *doc)
{
	const json_t *run = json_object_get(doc, "run");
	const json_t *cases = json_object_get(doc, "cases");
	char a[64], b[64];
	size_t from = 0, n = json_array_size(cases);

	fmt_time(a, sizeof(a), json_object_get(run, "started"));
	fmt_time(b, sizeof(b), json_object_get(run, "ended"));
	printf("run        %s\nstatus     %s, %zu case%s\nstarted    %s\nended      %s\n"
	       "host       %s\ncommand    %s\nuuid       %s\n\n",
	       json_string_value(json_object_get(run, "label")),
	       json_string_value(json_object_get(run, "status")), n,
	       n == 1 ? "" : "s", a, b,
	       json_string_value(json_object_get(run, "host")),
	       json_string_value(json_object_get(run, "command")),
	       json_string_value(json_object_get(run, "uuid")));
	render_env_text(stdout, json_object_get(doc, "environment"));
	show_probes(json_object_get(json_object_get(doc, "environment"), "probes"));
	putchar('\n');
	for (size_t i = 1; i <= n; i++) {
		const char *job = json_string_value(json_object_get(
			json_array_get(cases, from), "job"));

		if (i < n && !strcmp(job, json_string_value(json_object_get(
					 json_array_get(cases, i), "job"))))
			continue;
		show_job(doc, from, i);
		from = i;
	}
}

int cmd_show(int argc, char **argv)
{
	struct runs_opts o;
	json_t *doc;
	int i, rc;

	i = parse(argc, argv, show_options, &o, "show RUN [--db PATH] [--format text|json]", &rc);
	if (i < 0)
		return rc;
	doc = rundoc_load(argv[i], o.db);
	if (!doc)
		return EXIT_USAGE;
	if (o.format == 1)
		export_dump(doc, stdout);
	else
		show_text(doc);
	json_decref(doc);
	return EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
	struct runs_opts o;
	char tmp[4096];
	json_t *doc;
	FILE *f;
	int i, rc;

	i = parse(argc, argv, export_options, &o, "export RUN [-o FILE] [--db PATH]", &rc);
	if (i < 0)
		return rc;
	doc = rundoc_load(argv[i], o.db);
	if (!doc)
		return EXIT_USAGE;
	if (!o.output || !strcmp(o.output, "-")) {
		rc = export_dump(doc, stdout) ? EXIT_RUN_FAILED : EXIT_OK;
		json_decref(doc);
		return rc;
	}
	/* written beside the target, renamed over it once complete */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", o.output, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		json_decref(doc);
		error_errno("export: %s", tmp);
		return EXIT_USAGE;
	}
	rc = export_dump(doc, f);
	if (fclose(f) || rc || rename(tmp, o.output)) {
		error_errno("export: %s", o.output);
		unlink(tmp);
		rc = EXIT_RUN_FAILED;
	}
	json_decref(doc);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	struct runs_opts o;
	struct store *st;
	char db[4096];
	json_t *doc;
	int64_t id;
	int i, rc;

	i = parse(argc, argv, import_options, &o, "import FILE [--db PATH]", &rc);
	if (i < 0)
		return rc;
	doc = export_load(argv[i]);
	if (!doc || export_validate(doc, argv[i]) || rundoc_db_path(o.db, db, sizeof(db))) {
		json_decref(doc);
		return EXIT_USAGE;
	}
	st = store_open(db);
	if (!st) {
		json_decref(doc);
		return EXIT_USAGE;
	}
	rc = store_import(st, doc, argv[i], &id) ? EXIT_USAGE : EXIT_OK;
	if (rc == EXIT_OK)
		printf("imported run %lld (%s) into %s\n", (long long)id,
		       json_string_value(json_object_get(json_object_get(doc, "run"),
							 "label")), db);
	store_close(st);
	json_decref(doc);
	return rc;
}
