// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab calibrate JOBFILE|SUITE: this host's run-to-run noise where
 * none is stored - N short runs of the job, each a separate `schedlab
 * run` process (a fresh start, as a user's runs are), stored with one
 * label, within a budget; then the noise model they make (noise.c).
 * Nothing but the runs is stored: the model is derived from them.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "compare/noise_model.h"
#include "options.h"
#include "harness/plan.h"
#include "model/run.h"
#include "report/render_noise.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

struct calibrate_opts {
	const char *db, *label, *budget, *iterations;
	unsigned runs;
	int format;
	bool help, quiet;
};

/* --help: its text before the options, and after them */
static const struct cmd_help calibrate_help = {
	.head = "usage: schedlab calibrate JOBFILE|SUITE [--runs N] [--budget DURATION] [OPTIONS]\n\n"
		"Measures this host's run-to-run noise: runs the job N times, each a separate\n"
		"'schedlab run --quiet' of few iterations, stored under one label, then shows\n"
		"'schedlab noise' of its jobs on this host. compare, judge and plan use it;\n"
		"it travels with the runs (export, import, push, pull).\n\nOptions:\n",
	.tail = "\nExit status: 0 measured, 1 a run failed, 2 bad input, 130 interrupted.\n",
};

#define O(f) offsetof(struct calibrate_opts, f)
static const struct opt_def calibrate_options[] = {
	{ .name = "runs", .type = OPT_UINT, .offset = O(runs), .def = "10",
	  .min = NOISE_CALIBRATE_MIN, .max = 1000, .arg = "N",
	  .help = "separate runs of the job (each a process of its own)" },
	{ .name = "iterations", .type = OPT_STRING, .offset = O(iterations), .def = "5",
	  .arg = "N", .help = "iterations of every case in each run (1..10000): short runs, as the noise between runs is what is measured" },
	{ .name = "budget", .type = OPT_STRING, .offset = O(budget), .arg = "DURATION",
	  .help = "the most wall time for all the runs (30s, 5m, 1h; default none): no run starts that the last ones say would end past it" },
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .def = "calibrate",
	  .arg = "LABEL", .help = "the runs' label (one label: one state, whose runs are differenced)" },
	OPT_DB(struct calibrate_opts, db),
	OPT_FORMAT(struct calibrate_opts, format, FMT(TEXT) | FMT(JSON), "text",
		   "the noise shown at the end: text or json (as schedlab noise)"),
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(quiet), .short_flag = 'q',
	  .help = "no progress lines; the noise at the end only" },
	OPT_HELP(struct calibrate_opts, help),
	{ .name = NULL },
};
#undef O

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * One `schedlab run`; its exit status, or -1 after error(). On a terminal
 * the child keeps its progress line (case, iteration, time left) and its
 * summary goes nowhere; elsewhere it runs --quiet.
 */
static int one_run(const char *spec, const struct calibrate_opts *o,
		   const char *db)
{
	bool live = !o->quiet && isatty(STDERR_FILENO);
	char *argv[] = { "schedlab", "run", (char *)spec, "--label",
			 (char *)o->label, "--iterations", (char *)o->iterations,
			 "--db", (char *)db, live ? NULL : "--quiet", NULL };
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno("calibrate: fork");
	if (!pid) {
		if (live) {
			int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
				_exit(127);
		}
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno("calibrate: waitpid");
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGINT ? EXIT_INTERRUPTED : EXIT_RUN_FAILED;
	return WEXITSTATUS(status);
}

/* The noise model of each job of the label's latest run, on its host,
 * as schedlab noise shows it. */
static int show_noise(const struct calibrate_opts *o, const char *db)
{
	struct store *st = store_open_ro(db);
	struct run r = { 0 };
	int64_t id;
	int rc = EXIT_RUN_FAILED;

	if (!st)
		return EXIT_RUN_FAILED;
	if (store_resolve(st, o->label, &id) || store_load(st, id, &r))
		goto out;
	rc = EXIT_OK;
	for (size_t i = 0; i < r.ncases && rc == EXIT_OK; i++) {
		char host[512];
		struct noise_query q = { .job = r.cases[i].job,
					 .host = r.host ? host : NULL };
		const char *job = r.cases[i].job;
		struct noise_set set;
		bool dup = false;

		for (size_t k = 0; k < i && !dup; k++)
			dup = !strcmp(r.cases[k].job, r.cases[i].job);
		if (dup)
			continue;
		if (r.host)
			noise_glob_exact(r.host, host, sizeof(host));
		if (i)
			putchar('\n');
		if (noise_models(st, &q, &set)) {
			rc = EXIT_USAGE;
		} else if (!set.n) {
			error("calibrate: no complete runs of job '%s' in %s", job, db);
			rc = EXIT_USAGE;
		} else if (o->format == FMT_JSON) {
			render_noise_json(stdout, &set, 1);
		} else {
			FILE *f = text_safe(stdout);

			render_noise_text(f, &set, &job, 1);
			fclose(f);
		}
		noise_set_free(&set);
	}
out:
	run_free(&r);
	store_close(st);
	return rc;
}

/*
 * The job checked before the first run is announced: its mistakes are
 * the first thing said. Its warnings are left to the runs, which say
 * them once each.
 */
static int check_job(const char *spec)
{
	struct plan p;
	int rc;

	error_mute(1);
	rc = plan_load_spec(spec, NULL, 0, &p);
	error_mute(0);
	if (rc && (rc = plan_load_spec(spec, NULL, 0, &p)))	/* says why */
		return rc;
	plan_free(&p);
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_opts o;
	struct cmd_args a = { CMD_ARGS(calibrate_options, o),
			      .help = &calibrate_help };
	unsigned long long budget = 0;
	unsigned it;
	double start, used;
	const char *db = a.db;
	int first, rc;
	unsigned done = 0;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	if (argc - first != 1) {
		error("calibrate: expected one JOBFILE or SUITE, the job to measure (usage: schedlab calibrate JOBFILE [--runs N])");
		return EXIT_USAGE;
	}
	if (plan_parse_iterations(o.iterations, &it) || !it) {
		error("calibrate: option --iterations: expected a whole number in 1..10000, got '%s'",
		      o.iterations);
		return EXIT_USAGE;
	}
	if (o.budget && (opt_parse_duration(o.budget, 31536000, &budget) || budget < 1)) {
		error("calibrate: option --budget: expected a duration of 1s..1 year (30s, 5m, 1h), got '%s'",
		      o.budget);
		return EXIT_USAGE;
	}
	if (!*o.label) {
		error("calibrate: option --label: expected a non-empty label");
		return EXIT_USAGE;
	}
	if (check_job(argv[first]))
		return EXIT_USAGE;
	start = now_s();
	for (unsigned i = 0; i < o.runs; i++) {
		used = now_s() - start;
		/* the next run, as long as the mean of the last ones, must fit */
		if (budget && done && used + used / done > (double)budget) {
			if (!o.quiet)
				fprintf(stderr, "calibrate: budget %s spent after %u runs\n",
					o.budget, done);
			break;
		}
		if (!o.quiet)
			fprintf(stderr, "calibrate: run %u of %u (%s)\n", i + 1,
				o.runs, o.label);
		rc = one_run(argv[first], &o, db);
		if (rc == EXIT_USAGE || rc == EXIT_INTERRUPTED || rc < 0)
			return rc < 0 ? EXIT_RUN_FAILED : rc;
		if (rc) {
			error("calibrate: run %u failed (exit %d): stopping", i + 1, rc);
			return EXIT_RUN_FAILED;
		}
		done++;
	}
	if (done < NOISE_CALIBRATE_MIN)
		fprintf(stderr, "calibrate: %u runs: fewer than the %d a model needs; raise --budget\n",
			done, NOISE_CALIBRATE_MIN);
	return show_noise(&o, db);
}
