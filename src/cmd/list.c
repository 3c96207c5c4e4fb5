// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab list [workloads|suites|runs] [--db PATH] [--format text|json]
 * [--ab RUN] [--host PATTERN]: --ab lists only the runs of RUN's A/B (the
 * runs made beside it by ab or judge's live references), --host only the
 * runs of the hosts PATTERN (a glob) matches. The table has a HOST column
 * when the runs listed come from more than one host (a fleet's database).
 */
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/plan.h"
#include "model/run.h"
#include "store/load.h"
#include "store/store.h"
#include "workload/registry.h"
#include "util.h"

struct list_opts {
	const char *db;
	const char *ab;
	const char *host;
	int format;
	bool help;
};


static const struct opt_def list_options[] = {
	OPT_DB(struct list_opts, db),
	OPT_FORMAT(struct list_opts, format, FMT(TEXT) | FMT(JSON), "text",
		   "for runs - text: a table; json: an array of the runs"),
	{ .name = "ab", .type = OPT_STRING, .offset = offsetof(struct list_opts, ab),
	  .arg = "RUN", .help = "for runs - only the runs of RUN's A/B (RUN: id or label of any of them)" },
	{ .name = "host", .type = OPT_STRING, .offset = offsetof(struct list_opts, host),
	  .arg = "PATTERN", .help = "for runs - only the runs of the hosts PATTERN matches, a glob as the shell's ('lkp-*'); a run without a host never matches" },
	OPT_HELP(struct list_opts, help),
	{ .name = NULL },
};

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* The runs as a JSON array, newest first; 0, or -1 if stdout failed. */
static int runs_json(const struct store_run_info *runs, size_t n)
{
	json_t *a = json_array();
	int rc;

	for (size_t i = 0; i < n; i++) {
		const struct store_run_info *r = &runs[i];

		json_array_append_new(a, json_pack("{s:I, s:s, s:o, s:o, s:f, "
			"s:o, s:s, s:I, s:I, s:o, s:o, s:o}", "id", (json_int_t)r->id,
			"uuid", r->uuid ? r->uuid : "", "label", str_or_null(r->label),
			"host", str_or_null(r->host), "started", r->started,
			"ended", isnan(r->ended) ? json_null() : json_real(r->ended),
			"status", r->status ? r->status : "", "cases",
			(json_int_t)r->cases, "samples", (json_int_t)r->samples,
			"commit", str_or_null(r->commit), "ab", str_or_null(r->ab),
			"variant", str_or_null(r->variant)));
	}
	rc = json_dumpf(a, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			JSON_REAL_PRECISION(17));
	fputc('\n', stdout);
	json_decref(a);
	return rc;
}

/*
 * Keeps of runs[0..*n) the runs of spec's A/B, in their order; the rest
 * are freed. -1 after error() when spec is no run or was made alone.
 */
static int only_ab(struct store *st, const char *spec,
		   struct store_run_info *runs, size_t *n)
{
	struct store_run_info *other;
	const char *ab = NULL;
	size_t kept = 0, nother = 0;
	int64_t id;

	if (store_resolve(st, spec, &id))
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (runs[i].id == id)
			ab = runs[i].ab;
	if (!ab)
		return error("list: --ab %s: run %lld was not made beside others (it has no A/B)",
			     spec, (long long)id);
	other = xcalloc(*n, sizeof(*other));
	for (size_t i = 0; i < *n; i++) {
		if (runs[i].ab && !strcmp(runs[i].ab, ab))
			runs[kept++] = runs[i];
		else
			other[nother++] = runs[i];
	}
	*n = kept;
	store_runs_free(other, nother);
	return 0;
}

/* Keeps of runs[0..*n) those whose host matches pattern, in order. */
static void only_hosts(const char *pattern, struct store_run_info *runs,
		       size_t *n)
{
	struct store_run_info *other = xcalloc(*n ? *n : 1, sizeof(*other));
	size_t kept = 0, nother = 0;

	for (size_t i = 0; i < *n; i++) {
		if (runs[i].host && !fnmatch(pattern, runs[i].host, 0))
			runs[kept++] = runs[i];
		else
			other[nother++] = runs[i];
	}
	*n = kept;
	store_runs_free(other, nother);
}

/* Whether the runs come from more than one host (no host counts as one). */
static bool many_hosts(const struct store_run_info *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!runs[i].host != !runs[0].host ||
		    (runs[i].host && strcmp(runs[i].host, runs[0].host)))
			return true;
	return false;
}

static int list_runs(const struct list_opts *o, struct cmd_args *a)
{
	struct store_run_info *runs;
	struct store *st = cmd_store_ro(a, NULL);
	bool hosts;
	FILE *f;
	size_t n;
	int rc;

	if (!st && a->src.missing) {
		fprintf(stderr, "no runs yet: no database at %s\n", a->db);
		if (o->format == FMT_JSON)
			puts("[]");
		return EXIT_OK;
	}
	if (!st)
		return EXIT_USAGE;
	rc = store_runs(st, &runs, &n);
	if (!rc && o->ab)
		rc = only_ab(st, o->ab, runs, &n);
	if (!rc && o->host)
		only_hosts(o->host, runs, &n);
	cmd_args_done(a);
	if (rc) {	/* a damaged database, as store_open_ro() would say */
		store_runs_free(runs, n);
		return EXIT_USAGE;
	}
	if (o->format == FMT_JSON) {
		rc = runs_json(runs, n);
		store_runs_free(runs, n);
		return rc ? EXIT_RUN_FAILED : EXIT_OK;
	}
	f = text_safe(stdout);
	hosts = many_hosts(runs, n);
	/* the commit last: a describe has no useful width to pad to */
	fprintf(f, "%5s  %-28s ", "ID", "LABEL");
	if (hosts)
		fprintf(f, "%-16s ", "HOST");
	fprintf(f, "%-16s %-9s %6s %8s  %s\n", "STARTED (UTC)", "STATUS",
		"CASES", "SAMPLES", "COMMIT");
	for (size_t i = 0; i < n; i++) {
		const struct store_run_info *r = &runs[i];
		time_t t = (time_t)r->started;
		char *label = text_field(r->label, "-");
		char *host = text_field(r->host, "-");
		char *commit = text_field(r->commit, "-");
		struct tm tm;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		fprintf(f, "%5lld  %-28s ", (long long)r->id, label);
		if (hosts)
			fprintf(f, "%-16s ", host);
		fprintf(f, "%-16s %-9s %6lld %8lld  %s\n", when, r->status, (long long)r->cases, (long long)r->samples,
			commit);
		free(label);
		free(host);
		free(commit);
	}
	fclose(f);
	store_runs_free(runs, n);
	return EXIT_OK;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o;
	struct cmd_args a = { CMD_ARGS(list_options, o),
		.usage_line = "list [workloads|suites|runs] [--db PATH] "
			      "[--format text|json] [--ab RUN] [--host PATTERN]" };
	const char *what;
	int first, rc;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	if (argc - first > 1) {
		error("list: unexpected argument '%s'", argv[first + 1]);
		return EXIT_USAGE;
	}
	what = first < argc ? argv[first] : "workloads";
	if ((o.ab || o.host) && strcmp(what, "runs")) {
		error("list: --%s is for 'list runs' only", o.ab ? "ab" : "host");
		return EXIT_USAGE;
	}
	if (o.format != FMT_TEXT && strcmp(what, "runs")) {
		error("list: --format %s is for 'list runs' only",
		      out_format_names[o.format]);
		return EXIT_USAGE;
	}
	if (!strcmp(what, "workloads")) {
		for (size_t i = 0; workloads[i]; i++)
			printf("%-12s %s\n", workloads[i]->name,
			       workloads[i]->summary);
		return EXIT_OK;
	}
	if (!strcmp(what, "suites"))
		return plan_list_suites(stdout) ? EXIT_RUN_FAILED : EXIT_OK;
	if (!strcmp(what, "runs"))
		return list_runs(&o, &a);
	error("list: unknown list '%s' (accepted: workloads, suites, runs)", what);
	return EXIT_USAGE;
}
