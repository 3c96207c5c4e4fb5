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
#include "model/run.h"
#include "report/compare.h"
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
	struct opt_list sets;
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
	  .help = "params: cases with the same job, workload version and parameters; job: the same job and sweep values, parameters may differ" }, \
	OPT_FORMAT(struct compare_opts, format, formats, "text",		\
		   "text (mmtests' layout), markdown, csv or json"),	\
	OPT_HELP(struct compare_opts, help)

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
	OPT_ITERATIONS(struct compare_opts, iterations),
	OPT_SET(struct compare_opts, sets),
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
		"128 the database could not be opened or written, 130 interrupted\n"
		"(git bisect run stops at both).\n");
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

	if (run_db_path(dbopt, db, sizeof(db)) || access(db, F_OK))
		return NULL;
	return store_open_ro(db);
}

static void render(const struct comparison *c, int format)
{
	FILE *f = format == 3 ? stdout : text_safe(stdout);

	switch (format) {
	case 1: render_compare_markdown(f, c); break;
	case 2: render_compare_csv(f, c); break;
	case 3: render_compare_json(f, c); break;
	default: render_compare_text(f, c); break;
	}
	if (f != stdout)
		fclose(f);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct comparison c;
	struct cmp_opts co;
	struct store *st = NULL;
	struct run *runs;
	const struct run **rp;
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
	runs = xcalloc((size_t)n, sizeof(*runs));
	rp = xcalloc((size_t)n, sizeof(*rp));
	if (run_load_many((const char *const *)argv + first, (size_t)n, o.db,
			  runs))
		goto out;
	for (int i = 0; i < n; i++)
		rp[i] = &runs[i];
	st = open_history(o.db);
	if (compare_build(rp, (const char *const *)argv + first, (size_t)n,
			  &co, o.match == 1, st, &c))
		goto out;
	render(&c, o.format);
	compare_free(&c);
	rc = EXIT_OK;
out:
	if (st)
		store_close(st);
	for (int i = 0; i < n; i++)
		run_free(&runs[i]);
	free(runs);
	free(rp);
	return rc;
}

/*
 * The candidate into *r: --run RUN, else a run of the suite stored now.
 * Returns the exit code; r is loaded only when it is EXIT_OK.
 */
static int judge_candidate(const struct compare_opts *o, const char *spec,
			   const char *words, char *name, size_t len,
			   struct run *r)
{
	struct run_request rq = {
		.spec = spec, .label = o->label, .db = o->db,
		.iterations = o->iterations, .quiet = true, .test = o->test,
		.sets = o->sets.v, .nsets = o->sets.n,
	};
	bool store_failed = false;
	char *command;
	int64_t id;
	int rc;

	rq.store_failed = &store_failed;
	if (o->run) {
		snprintf(name, len, "%s", o->run);
		return run_load(o->run, o->db, r) ? EXIT_USAGE : EXIT_OK;
	}
	command = xmalloc(strlen(words) + sizeof("schedlab "));
	sprintf(command, "schedlab %s", words);
	rq.command = command;
	rc = run_suite(&rq, &id);
	free(command);
	if (store_failed && rc != EXIT_INTERRUPTED) {
		/* not the commit's fault: no verdict, and bisect must stop */
		error("judge: the database could not be written: abort (%d)",
		      EXIT_ABORT);
		return EXIT_ABORT;
	}
	if (id < 0 || rc == EXIT_USAGE || rc == EXIT_INTERRUPTED)
		return rc == EXIT_OK ? EXIT_SKIP : rc;	/* 130 stops git bisect run */
	snprintf(name, len, "%lld", (long long)id);
	if (rc != EXIT_OK) {
		error("judge: run %lld did not complete: skip (125)", (long long)id);
		return EXIT_SKIP;
	}
	return run_load(name, o->db, r) ? EXIT_SKIP : EXIT_OK;
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

/* judge; words: its command line as given, for the run it stores. */
static int judge(int argc, char **argv, const char *words)
{
	struct compare_opts o;
	struct comparison c;
	struct cmp_opts co;
	struct store *st;
	struct run runs[2];
	const struct run *rp[2] = { &runs[0], &runs[1] };
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
	if (run_load(o.baseline, o.db, &runs[0]))
		return EXIT_USAGE;
	rc = judge_candidate(&o, first < argc ? argv[first] : NULL, words,
			     cand, sizeof(cand), &runs[1]);
	if (rc != EXIT_OK) {
		run_free(&runs[0]);
		return rc;
	}
	specs[0] = o.baseline;
	specs[1] = cand;
	st = open_history(o.db);
	rc = compare_build(rp, specs, 2, &co, o.match == 1, st, &c);
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
	run_free(&runs[0]);
	run_free(&runs[1]);
	return rc;
}

int cmd_judge(int argc, char **argv)
{
	char *words = argv_join(argv, true);	/* before getopt reorders argv */
	int rc = judge(argc, argv, words);

	free(words);
	return rc;
}
