// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab queue add|list|cancel|retry: the fleet's job queue in a
 * PostgreSQL database (store/queue.h, doc/fleet.md). add validates a
 * suite or job file as `run` would and stores its text with where it
 * may run; agents (cmd/agent.c) take the jobs.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "fleet/fleet.h"
#include "harness/needs.h"
#include "harness/plan.h"
#include "model/run.h"
#include "report/render_queue.h"
#include "store/load.h"
#include "store/queue.h"
#include "store/store.h"
#include "util.h"

struct queue_opts {
	const char *db;
	const char *hosts, *tags, *label, *kernel, *iterations, *state;
	unsigned repeat;
	const char *priority;
	struct opt_list sets;
	int format;
	bool help;
};

static const char *const job_states[] = {
	"queued", "running", "done", "failed", "cancelled", NULL
};

/* --help: its text before the options */
static const struct cmd_help queue_help = {
	.head = "usage: schedlab queue add SUITE|JOBFILE [--hosts PATTERN[,PATTERN]] [--tags T[,T]]\n"
		"                      [--repeat N] [--label L] [--priority P] [--kernel RELEASE|BUILDID]\n"
		"                      [--set KEY=VALUE]... [--iterations N|auto] [--db URL]\n"
		"       schedlab queue list [--state S] [--format text|json] [--db URL]\n"
		"       schedlab queue cancel ID... [--db URL]\n"
		"       schedlab queue retry ID... [--db URL]\n\n"
		"The fleet's job queue, in a PostgreSQL database: jobs that agents\n"
		"(schedlab agent) on test machines claim, run and record.\n\nOptions:\n",
};

#define O(f) offsetof(struct queue_opts, f)
static const struct opt_def queue_options[] = {
	{ .name = "db", .type = OPT_STRING, .offset = O(db), .arg = "URL",
	  .help = "the PostgreSQL database of the queue (default: $SCHEDLAB_DB)" },
	{ .name = "hosts", .type = OPT_STRING, .offset = O(hosts),
	  .arg = "PATTERN[,PATTERN]",
	  .help = "add: only agents whose host matches one of these globs (* ?) take it" },
	{ .name = "tags", .type = OPT_STRING, .offset = O(tags), .arg = "T[,T]",
	  .help = "add: only agents that have every one of these tags take it" },
	{ .name = "repeat", .type = OPT_UINT, .offset = O(repeat), .def = "1",
	  .min = 1, .max = 10000, .arg = "N",
	  .help = "add: queue N copies of the job" },
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "L",
	  .help = "add: the label of the job's runs (default: the agent's HOSTNAME-KERNELRELEASE)" },
	{ .name = "priority", .type = OPT_STRING, .offset = O(priority),
	  .def = "0", .arg = "P",
	  .help = "add: higher runs first (-1000000..1000000, default 0)" },
	{ .name = "kernel", .type = OPT_STRING, .offset = O(kernel),
	  .arg = "RELEASE|BUILDID",
	  .help = "add: only an agent running this kernel (uname -r, or its build id) takes it" },
	OPT_ITERATIONS(struct queue_opts, iterations),
	OPT_SET(struct queue_opts, sets),
	{ .name = "state", .type = OPT_STRING, .offset = O(state),
	  .arg = "S", .help = "list: only jobs in state S (queued, running, done, failed, cancelled)" },
	OPT_FORMAT(struct queue_opts, format, FMT(TEXT) | FMT(JSON), "text",
		   "list - text: a table; json: an array of the jobs"),
	OPT_HELP(struct queue_opts, help),
	{ .name = NULL },
};
#undef O

/* user@host, for the record */
static void queued_by(char *buf, size_t len)
{
	struct passwd *pw = getpwuid(geteuid());
	struct utsname u;

	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "?");
	snprintf(buf, len, "%s@%s", pw ? pw->pw_name : "?", u.nodename);
}

static int valid_host_list(const char *what, const char *s)
{
	if (!*s || strspn(s, ", ") == strlen(s))
		return error("queue add: option --%s: expected a comma list of %s, got '%s'",
			     what, !strcmp(what, "hosts") ? "glob patterns" : "tags", s);
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c < ' ' || *c == '"' || *c == '\\' ||
		    *c == '{' || *c == '}')
			return error("queue add: option --%s: '%s' has a character a %s may not hold (a control character, \" \\ { })",
				     what, s, !strcmp(what, "hosts") ? "host pattern" : "tag");
	return 0;
}

static int queue_add_cmd(const struct queue_opts *qo, const char *db,
			 const char *spec)
{
	char where[4096], by[300];
	char *text = NULL, **tags = NULL;
	size_t len, ntags = 0;
	struct plan plan;
	struct plan_needs needs;
	struct store *s = NULL;
	int64_t *ids = NULL;
	int rc = EXIT_USAGE;
	struct run_request rq = { .iterations = qo->iterations };
	char *end;
	long prio = strtol(qo->priority, &end, 10);

	if (!*qo->priority || *end || prio < -1000000 || prio > 1000000)
		return error("queue add: option --priority: expected a whole number in -1000000..1000000 (higher runs first), got '%s'",
			     qo->priority), EXIT_USAGE;

	if (run_check_iterations("queue add", &rq) ||
	    (qo->hosts && valid_host_list("hosts", qo->hosts)) ||
	    (qo->tags && valid_host_list("tags", qo->tags)))
		return EXIT_USAGE;
	if (qo->kernel && (!*qo->kernel || strpbrk(qo->kernel, " \t\n")))
		return error("queue add: option --kernel: expected a kernel release (uname -r) or build id, got '%s'",
			     qo->kernel), EXIT_USAGE;
	if (plan_spec_text(spec, &text, &len, where, sizeof(where)))
		return EXIT_USAGE;
	if (fleet_job_plan("queue", where, text, len, qo->sets.v, qo->sets.n,
			    qo->iterations, &plan))
		goto out;
	plan_needs(&plan, &needs);
	plan_free(&plan);
	if (qo->tags)
		ntags = split_commas(qo->tags, &tags);
	queued_by(by, sizeof(by));
	s = queue_open(db, "queue", true);
	if (!s)
		goto out;
	ids = xcalloc(qo->repeat, sizeof(*ids));
	{
		struct queue_job j = {
			.name = spec, .jobfile = text,
			.sets = qo->sets.v, .nsets = qo->sets.n,
			.iterations = qo->iterations, .label = qo->label,
			.hosts = qo->hosts,
			.tags = (const char *const *)tags, .ntags = ntags,
			.kernel = qo->kernel,
			.priority = (int)prio,
			.needs_commands = needs.commands,
			.needs_knobs = needs.knobs, .queued_by = by,
		};

		if (queue_add(s, &j, qo->repeat, ids)) {
			rc = EXIT_RUN_FAILED;
			goto out;
		}
	}
	for (unsigned i = 0; i < qo->repeat; i++)
		printf("%" PRId64 "\n", ids[i]);
	if (needs.commands)
		fprintf(stderr, "queue: the job runs commands (%s): only an agent started with --allow-commands takes it\n",
			needs.commands_why);
	if (needs.knobs)
		fprintf(stderr, "queue: the job changes the machine (%s): only an agent started with --allow-knobs takes it\n",
			needs.knobs_why);
	rc = EXIT_OK;
out:
	if (s)
		store_close(s);
	split_free(tags, ntags);
	free(ids);
	free(text);
	return rc;
}

static int parse_id(const char *who, const char *s, int64_t *id)
{
	char *end;
	long long v;

	v = strtoll(s, &end, 10);
	if (!*s || *end || v < 1)
		return error("queue %s: '%s' is not a job id (a number from queue add or queue list)",
			     who, s);
	*id = v;
	return 0;
}

static int queue_change_cmd(const char *who, const char *db, int argc,
			    char **argv, int first)
{
	int (*fn)(struct store *, int64_t, char *, size_t) =
		!strcmp(who, "cancel") ? queue_cancel : queue_retry;
	struct store *s;
	int64_t id = 0;
	char why[128];
	int rc = EXIT_OK;

	if (first >= argc)
		return error("queue %s: expected one job id or more", who), EXIT_USAGE;
	for (int i = first; i < argc; i++)
		if (parse_id(who, argv[i], &id))
			return EXIT_USAGE;
	s = queue_open(db, "queue", true);
	if (!s)
		return EXIT_USAGE;
	for (int i = first; i < argc; i++) {
		parse_id(who, argv[i], &id);
		switch (fn(s, id, why, sizeof(why))) {
		case 0:
			printf("%" PRId64 " %s\n", id,
			       !strcmp(who, "cancel") ? "cancelled" : "queued");
			break;
		case 1:
			error("queue %s: job %" PRId64 ": %s; %s", who, id, why,
			      !strcmp(who, "cancel") ?
			      "only a queued or running job can be cancelled" :
			      "only a failed or cancelled job can be retried");
			rc = EXIT_RUN_FAILED;
			break;
		default:
			store_close(s);
			return EXIT_RUN_FAILED;
		}
	}
	store_close(s);
	return rc;
}

/* An option of another subcommand than sub: said, -1. */
static int misplaced(const struct queue_opts *qo, const char *sub)
{
	bool add = !strcmp(sub, "add"), list = !strcmp(sub, "list");
	const char *o = NULL;

	if (!add) {
		if (qo->hosts)
			o = "--hosts";
		else if (qo->tags)
			o = "--tags";
		else if (qo->label)
			o = "--label";
		else if (qo->kernel)
			o = "--kernel";
		else if (qo->iterations)
			o = "--iterations";
		else if (qo->sets.n)
			o = "--set";
		else if (qo->repeat != 1)
			o = "--repeat";
		else if (strcmp(qo->priority, "0"))
			o = "--priority";
		if (o)
			return error("queue %s: option %s is queue add's", sub, o);
	}
	if (!list && (qo->state || qo->format != FMT_TEXT))
		return error("queue %s: option %s is queue list's", sub,
			     qo->state ? "--state" : "--format");
	return 0;
}

/* queue list: the jobs of the queue at db, those in state (NULL: all). */
static int queue_list_cmd(const char *db, const char *state, int format)
{
	struct queue_row *rows;
	struct store *s;
	size_t n;
	int rc;

	s = queue_open(db, "queue", false);
	if (!s)
		return EXIT_USAGE;
	if (queue_list(s, state, &rows, &n)) {
		store_close(s);
		return EXIT_USAGE;
	}
	store_close(s);
	rc = format == FMT_JSON ? render_queue_json(stdout, rows, n) :
				  render_queue_text(stdout, rows, n);
	queue_rows_free(rows, n);
	return rc ? EXIT_RUN_FAILED : EXIT_OK;
}

int cmd_queue(int argc, char **argv)
{
	struct queue_opts qo;
	struct cmd_args a = { CMD_ARGS(queue_options, qo), .help = &queue_help };
	const char *sub, *db = a.db;
	int first, rc;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	if (first >= argc) {
		cmd_usage(stderr, &a);
		return EXIT_USAGE;
	}
	sub = argv[first++];
	if (qo.state) {
		size_t k;

		for (k = 0; job_states[k] && strcmp(job_states[k], qo.state); k++)
			;
		if (!job_states[k])
			return error("queue list: option --state: expected one of queued, running, done, failed, cancelled, got '%s'",
				     qo.state), EXIT_USAGE;
	}
	if (misplaced(&qo, sub))
		return EXIT_USAGE;
	if (!strcmp(sub, "add")) {
		if (argc - first != 1)
			return error("queue add: expected one SUITE or JOBFILE%s",
				     first < argc ? ", got more" : ""), EXIT_USAGE;
		return queue_add_cmd(&qo, db, argv[first]);
	}
	if (!strcmp(sub, "list")) {
		if (first < argc)
			return error("queue list: unexpected '%s'", argv[first]),
			       EXIT_USAGE;
		return queue_list_cmd(db, qo.state, qo.format);
	}
	if (!strcmp(sub, "cancel") || !strcmp(sub, "retry"))
		return queue_change_cmd(sub, db, argc, argv, first);
	error("queue: unknown subcommand '%s' (expected add, list, cancel or retry)",
	      sub);
	return EXIT_USAGE;
}
