// SPDX-License-Identifier: GPL-2.0-only
/*
 * command: times any program, as `perf stat --null --repeat N ARGV` does:
 * the clock runs from just before the fork to just after the reap. The
 * program runs with execvp, not through a shell unless shell = true; its
 * output is captured and dropped (kept for the message when it fails): a
 * command that exits with a status other than 0 fails the iteration. The
 * directory of the running schedlab is put first on PATH.
 *
 * setup, before, cleanup and workdir are shell commands around the case,
 * run untimed by the harness (harness/casecmd.h); with any of them, the
 * command runs in the case's working directory, $SCHEDLAB_WORKDIR.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "stats/summary.h"
#include "workload/command.h"
#include "workload/external.h"
#include "workload/registry.h"
#include "util.h"

char **command_argv(const struct command_cfg *c, const char **err)
{
	char **words = ext_split(c->argv, err), **argv;

	if (!c->shell || !words)
		return words;
	/*
	 * The script: one quoted word (as bench joins a single operand),
	 * else the text as written (argv = a | b in a job file).
	 */
	argv = xcalloc(4, sizeof(*argv));
	argv[0] = xstrdup("/bin/sh");
	argv[1] = xstrdup("-c");
	argv[2] = xstrdup(words[1] ? c->argv : words[0]);
	ext_argv_free(words);
	return argv;
}

/*
 * The directory of this schedlab goes first on PATH, so that a command
 * that runs schedlab (jobs/command.job times its messaging workload)
 * runs this one, installed or not.
 */
static void path_with_self(void)
{
	static bool done;
	const char *path = getenv("PATH");
	char self[PATH_MAX], *slash, *np;
	ssize_t n;

	if (done)
		return;
	done = true;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	np = xmalloc(strlen(self) + (path ? strlen(path) : 0) + 2);
	sprintf(np, "%s%s%s", self, path ? ":" : "", path ? path : "");
	setenv("PATH", np, 1);
	free(np);
}

static int command_prepare(const void *cfgp)
{
	const struct command_cfg *c = cfgp;
	const char *err;
	char **argv;
	int rc;

	path_with_self();
	if (!c->argv)
		return error("bench command: no command to run (schedlab bench command [OPTIONS] -- PROGRAM [ARGS...], or argv = ... in a job file)"),
		       EXIT_USAGE;
	argv = command_argv(c, &err);
	if (!argv)
		return error("command: cannot split argv '%s': %s", c->argv,
			     err), EXIT_USAGE;
	rc = ext_on_path(argv[0]) ? 0 :
	     (error("command: '%s' is not on PATH or is not executable",
		    argv[0]), EXIT_USAGE);
	ext_argv_free(argv);
	return rc;
}

static int command_run(const void *cfgp, struct wl_ctx *ctx,
		       struct wl_result *res)
{
	const struct command_cfg *c = cfgp;
	struct ext_cmd cmd = { .what = "the command", .out_fd = -1 };
	struct ext_out out;
	struct rusage ru;
	const char *err;
	char **argv = command_argv(c, &err);
	uint64_t start, stop;
	int rc;

	if (!argv)
		return wl_fail(ctx, "cannot split argv: %s", err);
	cmd.argv = argv;
	cmd.dir = getenv("SCHEDLAB_WORKDIR");
	if (c->n) {
		char n[16];

		snprintf(n, sizeof(n), "%u", c->n);
		setenv("SCHEDLAB_N", n, 1);
	}
	wl_clock_start(ctx);
	start = now_ns();
	rc = ext_run(ctx, &cmd, 0, NULL, &out, &ru);
	stop = now_ns();
	wl_clock_stop(ctx);
	ext_out_free(&out);
	ext_argv_free(argv);
	if (rc)
		return -1;
	wl_set(res, CMD_TIME, (double)(stop - start) / 1e9);
	wl_set(res, CMD_USER, tv_s(&ru.ru_utime));
	wl_set(res, CMD_SYS, tv_s(&ru.ru_stime));
	return 0;
}

#define O(f) offsetof(struct command_cfg, f)
static const struct opt_def command_options[] = {
	{ .name = "argv", .type = OPT_STRING, .offset = O(argv),
	  .arg = "WORDS",
	  .help = "the program and its arguments, split like a shell's words "
		  "('...', \"...\", \\ quote; no expansions); on the command "
		  "line they follow --" },
	{ .name = "shell", .type = OPT_BOOL, .offset = O(shell),
	  .def = "false",
	  .help = "run argv as a /bin/sh -c script (pipes, redirections): the "
		  "one quoted word, or the text as written" },
	{ .name = "n", .type = OPT_UINT, .offset = O(n), .def = "0",
	  .min = 0, .max = 1000000, .arg = "N",
	  .help = "a number for the command, in its environment as "
		  "$SCHEDLAB_N (kbuild's make -j$SCHEDLAB_N); sweeps like any "
		  "number ($ncpu terms); 0 leaves it unset" },
	{ .name = "setup", .type = OPT_STRING, .offset = O(setup),
	  .arg = "SCRIPT",
	  .help = "a /bin/sh script run once per case in the working "
		  "directory, before its warm-up; untimed; failing fails the "
		  "case" },
	{ .name = "before", .type = OPT_STRING, .offset = O(before),
	  .arg = "SCRIPT",
	  .help = "a /bin/sh script run before each iteration (warm-ups and "
		  "retries too), outside the timed and probed run; failing "
		  "fails the iteration" },
	{ .name = "cleanup", .type = OPT_STRING, .offset = O(cleanup),
	  .arg = "SCRIPT",
	  .help = "a /bin/sh script run once per case after its last "
		  "iteration, however the case ends (failure, timeout, "
		  "Ctrl-C); untimed; failing is a warning" },
	{ .name = "workdir", .type = OPT_STRING, .offset = O(workdir),
	  .arg = "DIR",
	  .help = "the directory setup, before, the command and cleanup run "
		  "in (made if missing, kept); default with any of them: a "
		  "temporary directory of the run, removed at the case's end; "
		  "$SCHEDLAB_WORKDIR names it" },
	{ .name = NULL },
};
#undef O

static const struct metric_def command_metrics[] = {
	[CMD_TIME] = { "command.time", "s", BETTER_LOWER, true,
		       "seconds time elapsed: fork to reap, as perf stat" },
	[CMD_USER] = { "command.user_s", "s", BETTER_NONE, false,
		       "user CPU time of the program and the children it waited for" },
	[CMD_SYS] = { "command.sys_s", "s", BETTER_NONE, false,
		      "system CPU time of the program and the children it waited for" },
	{ .name = NULL },
};

/* perf stat prints two more digits than the stddev's first significant one. */
static int perf_precision(double sd)
{
	if (sd > 1)
		return 2;
	if (sd <= 0)
		return 2 + 9;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/* The command as perf stat names it: its words joined with blanks. */
static void print_words(FILE *f, const struct command_cfg *c)
{
	const char *err;
	char **w = ext_split(c->argv, &err);
	char *s;

	if (!w) {
		fputs(c->argv, f);
		return;
	}
	s = argv_join(w, false);
	fputs(s, f);
	free(s);
	ext_argv_free(w);
}

/* perf stat's block for all the runs: mean +- the mean's standard error. */
static void perf_stat_summary(FILE *f, const void *cfgp,
			      const struct wl_rows *r)
{
	const struct command_cfg *c = cfgp;
	double *t = xcalloc(r->n + 1, sizeof(double));
	double mean = 0, sem = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++) {
		double v = r->values[i * r->ncols + CMD_TIME];

		if (v == v)
			t[n++] = v;
	}
	if (n > 1) {
		fputs("\n Performance counter stats for '", f);
		print_words(f, c);
		fprintf(f, "' (%zu runs):\n\n", n);
		stats_amean(t, n, &mean);
		stats_sem(t, n, &sem);
		int p = perf_precision(sem);

		fprintf(f, " %17.*f +- %.*f seconds time elapsed", p, mean, p,
			sem);
		if (mean != 0)
			fprintf(f, "  ( +-%6.2f%% )", 100 * sem / mean);
		fputs("\n\n", f);
	} else if (n == 1) {
		const double *row = r->values;

		fputs("\n Performance counter stats for '", f);
		print_words(f, c);
		fputs("':\n\n", f);
		fprintf(f, " %17.9f seconds time elapsed\n\n", t[0]);
		fprintf(f, " %17.9f seconds user\n", row[CMD_USER]);
		fprintf(f, " %17.9f seconds sys\n\n", row[CMD_SYS]);
	}
	free(t);
}

/* one run's line, where a caller prints runs one by one */
static void perf_stat_result(FILE *f, const void *cfg,
			     const struct wl_result *r)
{
	(void)cfg;
	fprintf(f, " %17.9f seconds time elapsed\n", r->value[CMD_TIME]);
}

static const struct text_format command_formats[] = {
	{ "perf-stat", "perf stat --null's elapsed-time block",
	  NULL, perf_stat_result, perf_stat_summary },
	{ .name = NULL },
};

static void command_case_cmds(const void *cfgp, struct wl_case_cmds *out)
{
	const struct command_cfg *c = cfgp;

	out->setup = c->setup;
	out->before = c->before;
	out->cleanup = c->cleanup;
	out->workdir = c->workdir;
}

const struct workload wl_command = {
	.name = "command",
	.summary = "times any program, repeated (perf stat --null --repeat N PROGRAM)",
	.reference = "perf stat --null",
	.events = "runs",
	.cfg_size = sizeof(struct command_cfg),
	.options = command_options,
	.metrics = command_metrics,
	.formats = command_formats,
	.prepare = command_prepare,
	.run = command_run,
	.case_cmds = command_case_cmds,
};
