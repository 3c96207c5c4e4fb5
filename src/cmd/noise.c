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

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *case_label(const struct noise_case *c)
{
	return *c->params ? c->params : "(defaults)";
}

static void text_noise(FILE *f, const struct noise_set *s, const char *job)
{
	const char *host = NULL;

	for (size_t i = 0; i < s->n; i++) {
		const struct noise_case *c = &s->cases[i];

		if (!i || (c->host ? !host || strcmp(host, c->host) : !!host)) {
			host = c->host;
			fprintf(f, "%s%s on %s: %s%s%s%s\n", i ? "\n" : "", job,
				host ? host : "(no host)", c->metric,
				*c->unit ? " (" : "", c->unit, *c->unit ? ")" : "");
			fprintf(f, "%-28s %5s %6s %5s %9s %8s %8s %6s %10s\n", "case",
				"runs", "labels", "pairs", "between", "offset", "within",
				"iters", "iteration");
		}
		fprintf(f, "%-28s %5u %6u %5u ", case_label(c), c->m.runs,
			c->m.groups, c->m.pairs);
		if (c->known)
			fprintf(f, "%8.1f%% %7.1f%% ", 100 * c->m.between,
				100 * c->m.offset);
		else
			fprintf(f, "%9s %8s ", "-", "-");
		if (isfinite(c->m.within))
			fprintf(f, "%7.1f%% ", 100 * c->m.within);
		else
			fprintf(f, "%8s ", "-");
		fprintf(f, "%6.0f ", c->m.iters);
		if (isfinite(c->iter_s))
			fprintf(f, "%9.3gs\n", c->iter_s);
		else
			fprintf(f, "%10s\n", "-");
		if (!c->known)
			fprintf(f, "  (between runs unknown: %u neighbouring runs of one label, %d needed: schedlab calibrate)\n",
				c->m.pairs, NOISE_MIN_PAIRS);
		else if (c->m.cut)
			fprintf(f, "  (%u of %u differences left out as absurd, beyond %g robust sds)\n",
				c->m.cut, c->m.pairs, NOISE_CUT_Z);
		if (c->m.speeds > 1)
			fprintf(f, "  (two speeds: %.4g in %u runs, %.4g in %u; the switches are counted in between, not cut: alternate the states compared, schedlab campaign)\n",
				c->m.speed_lo, c->m.speed_runs_lo, c->m.speed_hi,
				c->m.speed_runs_hi);
		if (c->known && isfinite(c->m.gap_max))
			fprintf(f, "  (runs differenced at most %.0f s apart: runs compared further apart than twice that are compared with the noise seen at such gaps, if any)\n",
				c->m.gap_max);
	}
}

static json_t *json_case(const struct noise_case *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "job", json_string(c->job));
	json_object_set_new(o, "host", c->host ? json_string(c->host) : json_null());
	json_object_set_new(o, "params", json_string(c->params));
	json_object_set_new(o, "sweep", json_string(c->sweep));
	json_object_set_new(o, "version", json_integer(c->version));
	json_object_set_new(o, "metric", json_string(c->metric));
	json_object_set_new(o, "known", json_boolean(c->known));
	json_object_set_new(o, "runs", json_integer(c->m.runs));
	json_object_set_new(o, "labels", json_integer(c->m.groups));
	json_object_set_new(o, "pairs", json_integer(c->m.pairs));
	json_object_set_new(o, "pairs_cut", json_integer(c->m.cut));
	json_object_set_new(o, "between_pct", num(c->known ? 100 * c->m.between : NAN));
	json_object_set_new(o, "offset_pct", num(c->known ? 100 * c->m.offset : NAN));
	json_object_set_new(o, "within_pct", num(100 * c->m.within));
	json_object_set_new(o, "df", num(c->known ? c->m.df : NAN));
	json_object_set_new(o, "iterations", num(c->m.iters));
	json_object_set_new(o, "iteration_s", num(c->iter_s));
	json_object_set_new(o, "gap_max_s", num(c->m.gap_max));
	json_object_set_new(o, "speeds", json_integer(c->m.speeds));
	json_object_set_new(o, "speed_medians", c->m.speeds > 1 ?
			    json_pack("[f, f]", c->m.speed_lo, c->m.speed_hi) :
			    json_null());
	json_object_set_new(o, "speed_runs", c->m.speeds > 1 ?
			    json_pack("[i, i]", c->m.speed_runs_lo, c->m.speed_runs_hi) :
			    json_null());
	return o;
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

static json_t *json_plan(const struct noise_case *c, double effect)
{
	json_t *o = json_case(c);
	struct noise_plan best, one;

	if (!c->known) {
		json_object_set_new(o, "plan", json_null());
		return o;
	}
	noise_plan_case(c, effect, 0, &best);
	noise_plan_case(c, effect, (unsigned)fmax(1, round(c->m.iters)), &one);
	json_object_set_new(o, "one_run_mde_pct",
			    num(noise_mde(noise_run_sd(&c->m, c->m.iters), c->m.df, 1, 1,
					  NOISE_PLAN_ALPHA)));
	json_object_set_new(o, "plan", !best.runs ? json_null() :
		json_pack("{s:i, s:i, s:o, s:o}", "runs_a_side", best.runs,
			  "iterations", best.iters, "mde_pct", num(best.mde),
			  "seconds", num(isfinite(c->iter_s) ? best.seconds : NAN)));
	/* "no change beyond effect%" of an unchanged state (TOST, power
	 * NOISE_POWER) at the stored iterations: a campaign's boots */
	{
		unsigned re = noise_runs_equivalence(noise_run_sd(&c->m, c->m.iters),
						     c->m.df, effect, NOISE_PLAN_ALPHA);

		json_object_set_new(o, "no_change_runs_a_side",
				    re ? json_integer(re) : json_null());
	}
	json_object_set_new(o, "plan_at_stored_iterations", !one.runs ? json_null() :
		json_pack("{s:i, s:i, s:o, s:o}", "runs_a_side", one.runs,
			  "iterations", one.iters, "mde_pct", num(one.mde),
			  "seconds", num(isfinite(c->iter_s) ? one.seconds : NAN)));
	return o;
}

static void text_duration(FILE *f, double secs)
{
	if (!isfinite(secs))
		fprintf(f, "%9s", "?");
	else if (secs < 120)
		fprintf(f, "%8.0fs", ceil(secs));
	else if (secs < 7200)
		fprintf(f, "%7.0fmin", ceil(secs / 60));
	else
		fprintf(f, "%8.1fh", secs / 3600);
}

static int plan_print(const struct noise_opts *o, const char *job,
		      const struct noise_set *s, double effect)
{
	size_t known = 0;

	for (size_t i = 0; i < s->n; i++)
		known += s->cases[i].known;
	if (!known) {
		error("plan: no run-to-run noise measured for job '%s'%s: %d neighbouring runs of one label are needed (schedlab calibrate JOBFILE makes them)",
		      job, o->host ? " on the hosts --host matches" : " on any host",
		      NOISE_MIN_PAIRS + 1);
		return EXIT_USAGE;
	}
	if (o->format == FMT_JSON) {
		json_t *doc = json_object(), *cases = json_array();

		json_object_set_new(doc, "schema", json_string("schedlab-plan/1"));
		json_object_set_new(doc, "effect_pct", json_real(effect));
		/* compare's --threshold for the runs planned: half the effect */
		json_object_set_new(doc, "threshold_pct", json_real(effect / 2));
		json_object_set_new(doc, "alpha", json_real(NOISE_PLAN_ALPHA));
		json_object_set_new(doc, "power", json_real(NOISE_POWER));
		for (size_t i = 0; i < s->n; i++)
			json_array_append_new(cases, json_plan(&s->cases[i], effect));
		json_object_set_new(doc, "cases", cases);
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(doc);
		return EXIT_OK;
	}
	printf("%s: detect %g%% at alpha %g%%, power %g%% (the run the unit; time for both sides, %.1fs a run to start)\n",
	       job, effect, 100 * NOISE_PLAN_ALPHA, 100 * NOISE_POWER, NOISE_RUN_OVERHEAD_S);
	printf("%-28s %-10s %8s %9s %10s %7s %9s\n", "case", "host", "between",
	       "one run", "runs/side", "iters", "time");
	for (size_t i = 0; i < s->n; i++) {
		const struct noise_case *c = &s->cases[i];
		char *host = text_field(c->host, "-");
		struct noise_plan best;

		printf("%-28s %-10s ", case_label(c), host);
		free(host);
		if (!c->known) {
			printf("%8s %9s %10s %7s %9s\n", "-", "-", "-", "-", "-");
			printf("  (between runs unknown: schedlab calibrate)\n");
			continue;
		}
		noise_plan_case(c, effect, 0, &best);
		printf("%7.1f%% %8.0f%% ", 100 * c->m.between,
		       noise_mde(noise_run_sd(&c->m, c->m.iters), c->m.df, 1, 1, NOISE_PLAN_ALPHA));
		if (!best.runs) {
			printf("%10s %7s %9s\n", ">50", "-", "-");
			continue;
		}
		printf("%10u %7u ", best.runs, best.iters);
		text_duration(stdout, isfinite(c->iter_s) ? best.seconds : NAN);
		putchar('\n');
	}
	printf("\n'one run': the smallest change one run a side (of the stored iterations) can show.\n"
	       "Then: schedlab run JOBFILE --label base --iterations N, runs/side times with\n"
	       "each state, and 'schedlab compare base cand --all --threshold %g': a verdict\n"
	       "needs the change beyond the threshold, and at a threshold of %g%% a change of\n"
	       "%g%% falls short of it half the time.\n", effect / 2, effect, effect);
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
		json_t *doc = json_object(), *cases = json_array();

		json_object_set_new(doc, "schema", json_string("schedlab-noise/1"));
		json_object_set_new(doc, "min_pairs", json_integer(NOISE_MIN_PAIRS));
		for (size_t j = 0; j < njobs; j++)
			for (size_t i = 0; i < sets[j].n; i++)
				json_array_append_new(cases, json_case(&sets[j].cases[i]));
		json_object_set_new(doc, "cases", cases);
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(doc);
		rc = EXIT_OK;
	} else {
		FILE *f = text_safe(stdout);

		for (size_t j = 0, shown = 0; j < njobs; j++) {
			if (!sets[j].n)
				continue;
			if (shown++)
				fputc('\n', f);
			text_noise(f, &sets[j], jobs[j]);
		}
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
