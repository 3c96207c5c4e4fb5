// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab noise [JOB]: this host's noise model of each case, within a
 * run and between runs (compare/noise_model.h, derived from the stored
 * runs, so it travels with them through export, import, push and
 * pull).
 *
 * schedlab plan JOB --effect PCT: from that model, how many runs a side
 * of how many iterations detect an effect of PCT at compare's error
 * rates (alpha 5%, power 80%), and how long that takes here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "compare/noise_model.h"
#include "compare/noise_plan.h"
#include "model/run.h"
#include "report/render_noise.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"


struct noise_opts {
	const char *db, *host, *metric, *effect;
	int format;
	bool help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help noise_help = {
	.head = "usage: schedlab noise [JOB] [--host GLOB] [OPTIONS]\n\n"
		"This host's noise, per case of each stored job (JOB: its name in the job\n"
		"file; default: every job): the spread of a run's median between runs (from\n"
		"neighbouring runs with one label: a drift and other labels - other kernels -\n"
		"do not count), the part the run's own offset makes, and the iterations'\n"
		"spread within a run. Derived from the stored runs (no other state), so it\n"
		"travels with them (export, import, push, pull). 'schedlab calibrate' makes\n"
		"the runs where there are none; compare and plan use it.\n\nOptions:\n",
	.tail = "\nExit status: 0 shown, 2 bad input or no such job.\n",
};

/* --help: its text before the options, and after them */
static const struct cmd_help plan_help = {
	.head = "usage: schedlab plan JOB --effect PCT [--host GLOB] [OPTIONS]\n\n"
		"How many runs a side, of how many iterations, detect a change of PCT in\n"
		"each case of JOB (its name in the job file) at compare's error rates -\n"
		"alpha 5%, power 80% - by the run-level test (doc/statistics.md), and how\n"
		"long that takes on this host, from 'schedlab noise' and the stored\n"
		"iterations' wall time. Then: run the job that many times with each state\n"
		"(--label base, --label cand) and 'schedlab compare base cand --all'.\n\nOptions:\n",
	.tail = "\nExit status: 0 planned, 2 bad input, no such job or no noise measured (schedlab calibrate).\n",
};

#define O(f) offsetof(struct noise_opts, f)
#define NOISE_COMMON							\
	{ .name = "host", .type = OPT_STRING, .offset = O(host), .arg = "GLOB", \
	  .help = "the hosts GLOB matches, as the shell's ('lkp-*'; default: every host with runs); a run without a host never matches" }, \
	{ .name = "metric", .type = OPT_STRING, .offset = O(metric), .arg = "M", \
	  .help = "the metric (default: the job's headline)" },		\
	OPT_DB(struct noise_opts, db),					\
	OPT_FORMAT(struct noise_opts, format, FMT(TEXT) | FMT(JSON), "text",	\
		   "text: a table per job and host; json: one document (doc/statistics.md)"), \
	OPT_HELP(struct noise_opts, help)

static const struct opt_def noise_options[] = {
	NOISE_COMMON,
	{ .name = NULL },
};

static const struct opt_def plan_options[] = {
	{ .name = "effect", .type = OPT_STRING, .offset = O(effect), .arg = "PCT",
	  .help = "the change to detect, in percent of the median (0.1..1000, e.g. 5 or 5%); required" },
	NOISE_COMMON,
	{ .name = NULL },
};
#undef O

static int parse_effect(const char *s, double *out)
{
	if (!s)
		return error("plan: option --effect PCT is required: the change to detect, a percentage in 0.1..1000 (such as 5 or 5%%)");
	return opt_parse_percent("plan", "effect", s, 0.1, 1000, out);
}

/* The jobs to show: JOB, or every job the store has. */
static int jobs_of(struct store *st, const char *job, const char *who,
		   char ***jobs, size_t *n)
{
	struct store_series_query q = { .job = job ? job : "", .since = NAN };
	struct store_series ss;
	int rc = 0;

	*jobs = NULL;
	*n = 0;
	if (job) {
		*jobs = xcalloc(1, sizeof(char *));
		(*jobs)[(*n)++] = xstrdup(job);
		return 0;
	}
	if (store_series(st, &q, &ss))
		rc = -1;
	else if (!ss.njobs)
		rc = error("%s: no complete runs stored in %s", who, store_path(st));
	for (size_t i = 0; !rc && i < ss.njobs; i++) {
		*jobs = xrealloc(*jobs, (*n + 1) * sizeof(char *));
		(*jobs)[(*n)++] = xstrdup(ss.jobs[i]);
	}
	store_series_free(&ss);
	return rc;
}

static void jobs_free(char **jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(jobs[i]);
	free(jobs);
}

/* The cases of every job into *sets ([njobs]); -1 after error(). */
static int load_sets(struct store *st, const struct noise_opts *o,
		     char **jobs, size_t njobs, struct noise_set *sets,
		     const char *who)
{
	size_t found = 0;

	for (size_t j = 0; j < njobs; j++) {
		struct noise_query q = { .job = jobs[j], .metric = o->metric,
					 .host = o->host };

		if (noise_models(st, &q, &sets[j]))
			return -1;
		found += sets[j].n;
	}
	if (!found && njobs == 1) {
		/* a job or metric the store lacks: say which, and what it has */
		struct store_series_query sq = { .job = jobs[0], .metric = o->metric,
						 .since = NAN };
		struct store_series ss;
		int bad = store_series(st, &sq, &ss) ||
			  series_unknown(who, jobs[0], o->metric, store_path(st), &ss);

		store_series_free(&ss);
		if (bad)
			return -1;
	}
	if (!found)
		return error("%s: no complete runs of %s%s%s%s in %s", who,
			     njobs == 1 ? "job '" : "any job", njobs == 1 ? jobs[0] : "",
			     njobs == 1 ? "'" : "", o->host ? " on the hosts --host matches" : "",
			     store_path(st));
	return 0;
}

static int plan_print(const struct noise_opts *o, const char *job,
		      const struct noise_set *s, double effect)
{
	struct noise_plan_row *rows;
	size_t known = 0;

	for (size_t i = 0; i < s->n; i++)
		known += s->cases[i].known;
	if (!known) {
		error("plan: no run-to-run noise measured for job '%s'%s: %d neighbouring runs of one label are needed (schedlab calibrate JOBFILE makes them)",
		      job, o->host ? " on the hosts --host matches" : " on any host",
		      NOISE_MIN_PAIRS + 1);
		return EXIT_USAGE;
	}
	rows = xcalloc(s->n + 1, sizeof(*rows));
	noise_plan_rows(s, effect, rows);
	if (o->format == FMT_JSON)
		render_plan_json(stdout, rows, s->n, effect);
	else
		render_plan_text(stdout, job, rows, s->n, effect);
	free(rows);
	return EXIT_OK;
}

static int noise_main(int argc, char **argv, bool plan)
{
	const struct opt_def *tab = plan ? plan_options : noise_options;
	const char *who = plan ? "plan" : "noise";
	struct noise_opts o;
	struct cmd_args a = { CMD_ARGS(tab, o), .who = who,
			      .help = plan ? &plan_help : &noise_help };
	struct noise_set *sets = NULL;
	struct store *st = NULL;
	char **jobs = NULL;
	size_t njobs = 0;
	double effect = 0;
	int first, rc;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	rc = EXIT_USAGE;
	if (argc - first > 1) {
		error("%s: one JOB at most, got '%s' too", who, argv[first + 1]);
		return EXIT_USAGE;
	}
	if (plan && (first == argc ? (error("plan: expected JOB, the job to plan (usage: schedlab plan JOB --effect PCT)"), 1) :
		     parse_effect(o.effect, &effect)))
		return EXIT_USAGE;
	st = cmd_store_ro(&a, "runs are stored by 'schedlab run'; 'schedlab calibrate JOB' makes a noise model");
	if (!st)
		goto out;
	if (jobs_of(st, first < argc ? argv[first] : NULL, who, &jobs, &njobs))
		goto out;
	sets = xcalloc(njobs + 1, sizeof(*sets));
	if (load_sets(st, &o, jobs, njobs, sets, who))
		goto out;
	if (plan)
		rc = plan_print(&o, jobs[0], &sets[0], effect);
	else if (o.format == FMT_JSON) {
		render_noise_json(stdout, sets, njobs);
		rc = EXIT_OK;
	} else {
		FILE *f = text_safe(stdout);

		render_noise_text(f, sets, (const char *const *)jobs, njobs);
		fclose(f);
		rc = EXIT_OK;
	}
out:
	for (size_t j = 0; sets && j < njobs; j++)
		noise_set_free(&sets[j]);
	free(sets);
	jobs_free(jobs, njobs);
	cmd_args_done(&a);
	return rc;
}

int cmd_noise(int argc, char **argv)
{
	return noise_main(argc, argv, false);
}

int cmd_plan(int argc, char **argv)
{
	return noise_main(argc, argv, true);
}
