// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab compare BASE CAND [CAND...]: stored runs side by side in
 * mmtests' layout, with significance, intervals and verdicts.
 * schedlab judge --baseline RUN [SUITE|JOBFILE|--run RUN]: one verdict
 * as an exit code for `git bisect run` - 0 good, 1 bad (a regression
 * beyond the threshold), 125 skip (inconclusive, or the run failed).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "cmd/compare.h"
#include "cmd/rundoc.h"
#include "store/store.h"
#include "util.h"

#define DEFAULT_THRESHOLD "5"

struct compare_opts {
	const char *db;
	const char *threshold;
	const char *baseline;
	const char *run;
	const char *label;
	unsigned iterations;
	int format;
	int test;
	int match;
	bool help;
};

static const char *const formats[] = { "text", "markdown", "csv", "json", NULL };
static const char *const matches[] = { "params", "job", NULL };

#define O(f) offsetof(struct compare_opts, f)
#define COMMON_OPTIONS							\
	OPT_DB(struct compare_opts, db),					\
	{ .name = "test", .type = OPT_ENUM, .offset = O(test),		\
	  .def = "mann-whitney", .choices = stat_test_names, .arg = "TEST", \
	  .help = "what decides significance: bands is mmtests' rule, lkp lkp-tests' (doc/statistics.md)" }, \
	{ .name = "threshold", .type = OPT_STRING, .offset = O(threshold),	\
	  .def = DEFAULT_THRESHOLD, .arg = "PCT",				\
	  .help = "the smallest change that matters, in percent (0..1000)" }, \
	{ .name = "match", .type = OPT_ENUM, .offset = O(match), .def = "params", \
	  .choices = matches, .arg = "HOW",				\
	  .help = "params: cases with the same job and parameters; job: the same job and sweep values, parameters may differ" }, \
	{ .name = "format", .type = OPT_ENUM, .offset = O(format), .def = "text", \
	  .choices = formats, .arg = "FMT",				\
	  .help = "text (mmtests' layout), markdown, csv or json" },	\
	{ .name = "help", .type = OPT_BOOL, .offset = O(help), .short_flag = 'h', \
	  .help = "show this help" }

static const struct opt_def compare_options[] = {
	COMMON_OPTIONS,
	{ .name = NULL },
};

static const struct opt_def judge_options[] = {
	{ .name = "baseline", .type = OPT_STRING, .offset = O(baseline), .arg = "RUN",
	  .help = "the good run to judge against (id, label or exported file); required" },
	{ .name = "run", .type = OPT_STRING, .offset = O(run), .arg = "RUN",
	  .help = "judge this stored run instead of running a suite" },
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "LABEL",
	  .help = "label of the run judge makes (default: HOSTNAME-KERNELRELEASE)" },
	{ .name = "iterations", .type = OPT_UINT, .offset = O(iterations),
	  .min = 1, .max = 10000, .arg = "N",
	  .help = "iterations of every case, instead of the job file's" },
	COMMON_OPTIONS,
	{ .name = NULL },
};
#undef O

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: schedlab compare BASE CAND [CAND...] [OPTIONS]\n\n"
		"Compares stored runs (RUN = id, label or exported JSON file): for each\n"
		"job's headline metric and sweep value mmtests' rows with the percentage\n"
		"against BASE (+ is better, * marks a significant mean), each candidate's\n"
		"change with its interval and verdict, the scheduler metrics that moved,\n"
		"and each run's CPU time.\n\nOptions:\n");
	opts_help(f, compare_options);
	fprintf(f, "\nExit status: 0 compared (whatever the verdict), 2 bad input or nothing to compare.\n");
}

static void judge_usage(FILE *f)
{
	fprintf(f, "usage: schedlab judge --baseline RUN [SUITE|JOBFILE|--run RUN] [OPTIONS]\n\n"
		"Runs a suite (default: quick) or a job file like 'schedlab run', or takes a\n"
		"stored run, compares it with the baseline and says why, for git bisect run.\n\n"
		"Options:\n");
	opts_help(f, judge_options);
	fprintf(f, "\nExit status: 0 no regression beyond the threshold, 1 a regression,\n"
		"125 inconclusive or the run failed (git bisect skips the commit),\n"
		"2 bad input (which git bisect would count as bad: try the command once first),\n"
		"130 interrupted (git bisect run stops).\n");
}

static int parse_threshold(const char *who, const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= 0 && v <= 1000))
		return error("%s: option --threshold: expected a percentage in 0..1000 (such as 5 or 2.5), got '%s'",
			     who, s);
	*out = v;
	return 0;
}

static int parse(int argc, char **argv, const struct opt_def *tab,
		 struct compare_opts *o, struct cmp_opts *co, int *first)
{
	struct opt_target t = { tab, o };

	memset(o, 0, sizeof(*o));
	opts_defaults(tab, o);
	*first = opts_parse_argv(&t, 1, argc, argv, argv[0], true);
	if (*first < 0)
		return -1;
	*co = (struct cmp_opts){ .test = (enum stat_test)o->test, .alpha = 0.05,
				 .nboot = BOOT_RESAMPLES, .seed = BOOT_SEED };
	return o->help ? 0 : parse_threshold(argv[0], o->threshold, &co->threshold);
}

/* The database, when there is one, for the run-to-run noise; else NULL. */
static struct store *open_history(const char *dbopt)
{
	char db[4096];

	if (rundoc_db_path(dbopt, db, sizeof(db)) || access(db, F_OK))
		return NULL;
	return store_open(db);
}

static void render(const struct comparison *c, int format)
{
	switch (format) {
	case 1: render_compare_markdown(stdout, c); break;
	case 2: render_compare_csv(stdout, c); break;
	case 3: render_compare_json(stdout, c); break;
	default: render_compare_text(stdout, c); break;
	}
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct comparison c;
	struct cmp_opts co;
	struct store *st = NULL;
	json_t **docs;
	int first, n, rc = EXIT_USAGE;

	if (parse(argc, argv, compare_options, &o, &co, &first))
		return EXIT_USAGE;
	if (o.help) {
		compare_usage(stdout);
		return EXIT_OK;
	}
	n = argc - first;
	if (n < 2) {
		error("compare: expected a baseline and at least one candidate (usage: schedlab compare BASE CAND [CAND...])");
		return EXIT_USAGE;
	}
	docs = xcalloc((size_t)n, sizeof(*docs));
	for (int i = 0; i < n; i++)
		if (!(docs[i] = rundoc_load(argv[first + i], o.db)))
			goto out;
	st = open_history(o.db);
	if (compare_build(docs, (const char *const *)argv + first, (size_t)n,
			  &co, o.match == 1, st, &c))
		goto out;
	render(&c, o.format);
	compare_free(&c);
	rc = EXIT_OK;
out:
	if (st)
		store_close(st);
	for (int i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return rc;
}

/* The candidate: --run RUN, else a run of the suite stored now. */
static json_t *judge_candidate(const struct compare_opts *o, const char *spec,
			       int argc, char **argv, char *name, size_t len,
			       int *rc)
{
	struct run_request rq = {
		.spec = spec, .label = o->label, .db = o->db,
		.iterations = o->iterations, .quiet = true,
	};
	char *command;
	int64_t id;
	size_t clen = 32;
	json_t *doc;

	if (o->run) {
		snprintf(name, len, "%s", o->run);
		doc = rundoc_load(o->run, o->db);
		*rc = doc ? EXIT_OK : EXIT_USAGE;
		return doc;
	}
	for (int i = 0; i < argc; i++)
		clen += strlen(argv[i]) + 1;
	command = xcalloc(clen, 1);
	strcpy(command, "schedlab");
	for (int i = 0; i < argc; i++)
		strcat(strcat(command, " "), argv[i]);
	rq.command = command;
	*rc = run_suite(&rq, &id);
	free(command);
	if (id < 0 || *rc == EXIT_USAGE || *rc == EXIT_INTERRUPTED)
		return NULL;	/* 130 stops git bisect run, as Ctrl-C should */
	snprintf(name, len, "%lld", (long long)id);
	if (*rc != EXIT_OK) {
		error("judge: run %lld did not complete: skip (125)", (long long)id);
		*rc = EXIT_SKIP;
		return NULL;
	}
	doc = rundoc_load(name, o->db);
	*rc = doc ? EXIT_OK : EXIT_SKIP;
	return doc;
}

/*
 * The exit code for git bisect: 1 when a case regressed; else 125 when
 * a case cannot rule out a regression as large as the threshold (its
 * interval reaches below -threshold, or nothing could be tested); else
 * 0 - an uncertain improvement is no reason to skip a commit.
 */
static int judge_code(const struct comparison *c)
{
	int rc = EXIT_OK;

	for (size_t j = 0; j < c->njobs; j++)
		for (size_t i = 0; i < c->jobs[j].ncases; i++) {
			const struct cmp_result *r = &c->jobs[j].cases[i].cell[1].r;

			if (r->verdict == V_REGRESSED)
				return EXIT_RUN_FAILED;
			if (r->verdict == V_INCONCLUSIVE &&
			    (isnan(r->lo) || r->lo < -c->opts.threshold))
				rc = EXIT_SKIP;
		}
	return rc;
}

int cmd_judge(int argc, char **argv)
{
	struct compare_opts o;
	struct comparison c;
	struct cmp_opts co;
	struct store *st;
	json_t *docs[2] = { NULL, NULL };
	const char *specs[2];
	char cand[64];
	int first, rc = EXIT_USAGE;

	if (parse(argc, argv, judge_options, &o, &co, &first))
		return EXIT_USAGE;
	if (o.help) {
		judge_usage(stdout);
		return EXIT_OK;
	}
	if (!o.baseline)
		return error("judge: --baseline RUN is required (the good run to judge against)"),
		       EXIT_USAGE;
	if (argc - first > 1 || (o.run && argc - first == 1))
		return error("judge: one of SUITE, JOBFILE or --run RUN, got %s '%s'",
			     o.run ? "--run and" : "also", argv[argc - 1]),
		       EXIT_USAGE;
	docs[0] = rundoc_load(o.baseline, o.db);
	if (!docs[0])
		return EXIT_USAGE;
	docs[1] = judge_candidate(&o, first < argc ? argv[first] : NULL, argc,
				  argv, cand, sizeof(cand), &rc);
	if (!docs[1])
		goto out;
	specs[0] = o.baseline;
	specs[1] = cand;
	st = open_history(o.db);
	rc = compare_build(docs, specs, 2, &co, o.match == 1, st, &c);
	if (st)
		store_close(st);
	if (rc) {
		rc = EXIT_USAGE;
		goto out;
	}
	render(&c, o.format);
	rc = judge_code(&c);
	fprintf(stderr, "judge: %s: exit %d (%s for git bisect: %s)\n",
		verdict_names[c.overall], rc,
		rc == EXIT_OK ? "good" : rc == EXIT_SKIP ? "skip" : "bad",
		rc == EXIT_OK ? "no regression beyond the threshold" :
		rc == EXIT_SKIP ? "a regression can be neither shown nor ruled out" :
		"a regression beyond the threshold");
	compare_free(&c);
out:
	json_decref(docs[0]);
	json_decref(docs[1]);
	return rc;
}
