// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab agent: a test machine's end of the fleet's queue
 * (store/queue.h, doc/fleet.md). It registers, then claims a job, checks
 * it again (never trusting the queue's columns), runs it as a child
 * `schedlab run` into its local SQLite database, renews the lease while
 * it runs, and records the run in the queue's database. The result is
 * never lost or doubled: the run's uuid is journaled before the run
 * starts (one small fsynced file per attempt in the agent's state
 * directory), and removed only once the queue has the result; a server
 * that is down is retried with backoff, and every start uploads what
 * an earlier agent left.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/agent_int.h"
#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/journal.h"
#include "harness/needs.h"
#include "harness/plan.h"
#include "model/run.h"
#include "probe/sysenv.h"
#include "store/load.h"
#include "store/queue.h"
#include "store/store.h"
#include "util.h"

struct agent_opts {
	const char *db, *name, *host, *tags, *local_db;
	unsigned poll, lease;
	bool once, allow_commands, allow_knobs, help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help agent_help = {
	.head = "usage: schedlab agent --db URL [--name NAME] [--host NAME] [--tags T,...] [--once]\n"
		"                      [--poll SECS] [--lease SECS] [--local-db PATH]\n"
		"                      [--allow-commands] [--allow-knobs]\n\n"
		"On a test machine: claims the queue's jobs that fit it, runs each into the\n"
		"local SQLite database first, and records the run in the queue's database.\n\n"
		"Options:\n",
	.tail = "\nExit status: 0 (--once: the job was done, or there was none), 1 the job\n"
		"failed, 2 bad options or no queue, 130 stopped by a signal.\n",
};

#define O(f) offsetof(struct agent_opts, f)
static const struct opt_def agent_options[] = {
	{ .name = "db", .type = OPT_STRING, .offset = O(db), .arg = "URL",
	  .help = "the queue's PostgreSQL database (default: $SCHEDLAB_DB); credentials through PGPASSFILE or PGSERVICEFILE" },
	{ .name = "name", .type = OPT_STRING, .offset = O(name), .arg = "NAME",
	  .help = "the agent's name, unique in the fleet (default: the host name)" },
	{ .name = "host", .type = OPT_STRING, .offset = O(host), .arg = "NAME",
	  .help = "the host its runs are stored with and jobs' --hosts match (default: the node name)" },
	{ .name = "tags", .type = OPT_STRING, .offset = O(tags), .arg = "T,...",
	  .help = "what this machine offers; it takes the jobs whose tags it has all of" },
	{ .name = "once", .type = OPT_BOOL, .offset = O(once),
	  .help = "take one job, run it, record it and exit (0 also when there was none)" },
	{ .name = "poll", .type = OPT_DURATION, .offset = O(poll), .def = "10",
	  .min = 1, .max = 3600, .arg = "SECS",
	  .help = "how long to wait when the queue has nothing for it" },
	{ .name = "lease", .type = OPT_DURATION, .offset = O(lease), .def = "60",
	  .min = 3, .max = 86400, .arg = "SECS",
	  .help = "a claim's lease, renewed every third of it; a job whose agent died is handed out again after it" },
	{ .name = "local-db", .type = OPT_STRING, .offset = O(local_db),
	  .arg = "PATH",
	  .help = "the SQLite database runs go to first (default: results.db in the agent's state directory)" },
	{ .name = "allow-commands", .type = OPT_BOOL, .offset = O(allow_commands),
	  .help = "take jobs that run commands (workload command, env.*, scx): the queue's writers can run anything here" },
	{ .name = "allow-knobs", .type = OPT_BOOL, .offset = O(allow_knobs),
	  .help = "take jobs that change the machine (sysctl.*, sched.*, sched_feat, /proc or /sys paths, cgroup.*, scx)" },
	OPT_HELP(struct agent_opts, help),
	{ .name = NULL },
};
#undef O

volatile sig_atomic_t agent_stop;

static void on_stop(int sig)
{
	agent_stop = sig;
}

void agent_say(const struct agent *a, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "agent %s: ", a->me.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

double agent_now(void)
{
	return (double)now_ns() / 1e9;
}

/* Sleeps secs, or less when a stop signal comes. */
void agent_nap(double secs)
{
	double end = agent_now() + secs;

	while (!agent_stop && agent_now() < end) {
		double left = end - agent_now();
		struct timespec ts = { .tv_sec = (time_t)left,
				       .tv_nsec = (long)((left - (double)(time_t)left) * 1e9) };

		if (left <= 0)
			break;
		nanosleep(&ts, NULL);
	}
}

/* The queue's connection, made again (and the agent registered) if lost. */
int agent_connect(struct agent *a)
{
	if (a->q && queue_connected(a->q))
		return 0;
	if (a->q)
		store_close(a->q);
	a->q = queue_open(a->url, "agent", true);
	if (!a->q)
		return -1;
	a->me.pid = (long)getpid();
	if (queue_agent_register(a->q, &a->me)) {
		store_close(a->q);
		a->q = NULL;
		return -1;
	}
	return 0;
}

/* Refused: back to the queue with the agent in its refused_by. */
static void refuse(struct agent *a, const struct queue_claim *c,
		   const char *what, const char *why, const char *option)
{
	char reason[400];

	snprintf(reason, sizeof(reason), "refused by %s: %s (%s)", a->me.name,
		 what, why);
	agent_say(a, "job %" PRId64 " refused: %s (%s); start the agent with %s to take such jobs",
		  c->id, what, why, option);
	queue_release(a->q, c->id, c->attempt, a->me.name, reason, true);
}

/*
 * Whether claimed job c loads here (the queue's text checked again, never
 * trusted) and this agent may run what it needs: 0; else it is failed
 * or refused in the queue, and -1.
 */
static int job_allowed(struct agent *a, const struct queue_claim *c)
{
	char where[160], w[160];
	struct plan plan;
	struct plan_needs needs;

	snprintf(where, sizeof(where), "job %" PRId64 " (%.100s)", c->id, c->name);
	if (queue_load_plan("agent", where, c->jobfile, strlen(c->jobfile),
			    (const char *const *)c->sets, c->nsets,
			    c->iterations, &plan)) {
		agent_say(a, "job %" PRId64 ": does not load here; failed", c->id);
		queue_finish(a->q, c->id, c->attempt, a->me.name, EXIT_USAGE,
			     "the job does not load on its agent (see the agent's log)",
			     NULL, NULL, w, sizeof(w));
		return -1;
	}
	plan_needs(&plan, &needs);
	plan_free(&plan);
	if (needs.commands && !a->me.allow_commands) {
		refuse(a, c, "it runs commands", needs.commands_why,
		       "--allow-commands");
		return -1;
	}
	if (needs.knobs && !a->me.allow_knobs) {
		refuse(a, c, "it changes the machine", needs.knobs_why,
		       "--allow-knobs");
		return -1;
	}
	return 0;
}

/*
 * One claimed job, from the check to its recorded result. The exit
 * status of the job (0 done), or -1 when the agent was stopped.
 */
static int take(struct agent *a, const struct queue_claim *c)
{
	char dir[PATH_MAX], file[PATH_MAX + 120], fname[120];
	struct pending p = { .job = c->id, .attempt = c->attempt,
			     .exit_status = -1 };
	enum stop_why why;
	pid_t pid;
	int status, rc;

	agent_say(a, "job %" PRId64 ": claimed (attempt %d): %s", c->id,
		  c->attempt, c->name);
	queue_agent_seen(a->q, a->me.name, c->id);
	if (job_allowed(a, c))
		return EXIT_USAGE;
	uuid_new(p.uuid, sizeof(p.uuid));
	if (agent_pending_write(a, &p))
		goto give_back;
	snprintf(dir, sizeof(dir), "%s/job-%" PRId64 ".XXXXXX", a->dir, c->id);
	if (!mkdtemp(dir)) {
		error_errno("agent: cannot make a directory in '%s'", a->dir);
		agent_pending_remove(a, &p);
		goto give_back;
	}
	agent_job_file_name(c->name, fname, sizeof(fname));
	snprintf(file, sizeof(file), "%s/%s", dir, fname);
	if (agent_write_file(file, c->jobfile) ||
	    (pid = agent_spawn_run(a, c, file, p.uuid)) < 0) {
		rm_tree(dir);
		agent_pending_remove(a, &p);
		goto give_back;
	}
	agent_say(a, "job %" PRId64 ": running as run %s (pid %ld)", c->id, p.uuid,
		  (long)pid);
	why = agent_watch(a, c, pid, &status);
	rm_tree(dir);
	if (why == RUN_LOST) {
		agent_pending_remove(a, &p);
		return EXIT_RUN_FAILED;
	}
	if (why == RUN_STOPPED) {
		if (!agent_connect(a) &&
		    !queue_release(a->q, c->id, c->attempt, a->me.name,
				   "its agent was stopped", false))
			agent_pending_remove(a, &p);
		return -1;
	}
	p.exit_status = status;
	if (agent_pending_write(a, &p))
		error("agent: job %" PRId64 ": the result is not journaled; recording it now",
		      c->id);
	rc = agent_record(a, &p);
	if (rc < 0)
		return -1;
	return rc ? EXIT_RUN_FAILED : status ? EXIT_RUN_FAILED : EXIT_OK;
give_back:
	queue_release(a->q, c->id, c->attempt, a->me.name,
		      "its agent could not start it", false);
	return EXIT_RUN_FAILED;
}

/* ---- setting up ---- */

static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 64 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n &&
	       *s != '.';
}

static int make_dirs(const char *path)
{
	char *bad = mkdir_p(path, 0700);

	if (!bad)
		return 0;
	error_errno("agent: cannot make the directory '%s'", bad);
	free(bad);
	return -1;
}

static void kernel_ids(struct agent *a)
{
	struct utsname u;
	json_t *b = sysenv_build_id();
	const char *id = json_string_value(sysenv_item_value(b));

	if (!uname(&u))
		snprintf(a->kernel, sizeof(a->kernel), "%s", u.release);
	if (id)
		snprintf(a->build_id, sizeof(a->build_id), "%s", id);
	json_decref(b);
	a->me.kernel = a->kernel;
	a->me.build_id = *a->build_id ? a->build_id : NULL;
}

static int setup(struct agent *a, const struct agent_opts *ao, const char *url)
{
	static struct utsname u;
	char state[PATH_MAX - 400];

	if (!store_scheme(url)->queue)
		return error("agent: the job queue lives in a PostgreSQL database (--db postgresql://...), not in the SQLite file '%s'",
			     url);
	a->url = url;
	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "localhost");
	a->me.host = ao->host ? ao->host : u.nodename;
	a->me.name = ao->name ? ao->name : a->me.host;
	if (!name_ok(a->me.name))
		return error("agent: option --name: '%s' is not an agent name (1 to 64 letters, digits, '.', '_' or '-')",
			     a->me.name);
	if (!*a->me.host || strlen(a->me.host) > 255 ||
	    strpbrk(a->me.host, " \t\n/"))
		return error("agent: option --host: '%s' is not a host name (1 to 255 characters, no blank or '/')",
			     a->me.host);
	if (ao->tags) {
		const char *s = ao->tags;

		a->tags = xcalloc(strlen(s) + 2, sizeof(*a->tags));
		while (*s) {
			size_t k = strcspn(s, ",");

			if (k)
				a->tags[a->ntags++] = strndup(s, k);
			s += k + (s[k] == ',');
		}
		if (!a->ntags)
			return error("agent: option --tags: expected a comma list of tags, got '%s'",
				     ao->tags);
	}
	a->me.tags = (const char *const *)a->tags;
	a->me.ntags = a->ntags;
	a->me.allow_commands = ao->allow_commands;
	a->me.allow_knobs = ao->allow_knobs;
	a->me.lease_s = ao->lease;
	a->poll = ao->poll;
	kernel_ids(a);
	if (switch_state_dir(state, sizeof(state)))
		return error("agent: no state directory for its journal (set SCHEDLAB_STATE_DIR or HOME)");
	snprintf(a->dir, sizeof(a->dir), "%s/agent/%s", state, a->me.name);
	if (make_dirs(a->dir))
		return -1;
	if (ao->local_db)
		snprintf(a->local, sizeof(a->local), "%s", ao->local_db);
	else
		snprintf(a->local, sizeof(a->local), "%s/results.db", a->dir);
	if (!store_scheme(a->local)->file)
		return error("agent: option --local-db: expected a SQLite file, got a URL");
	return 0;
}

/*
 * Claims jobs and takes them until a stop signal (or one job, once): an
 * exit code, or -1 when stopped by a signal.
 */
static int serve(struct agent *a, bool once)
{
	unsigned delay = 1;
	int rc = EXIT_OK;

	while (!agent_stop) {
		struct queue_claim c;
		int got;

		if (agent_connect(a)) {
			agent_say(a, "the queue is unreachable; trying again in %us", delay);
			agent_nap(delay);
			delay = delay * 2 > 60 ? 60 : delay * 2;
			continue;
		}
		got = queue_claim(a->q, &a->me, &c);
		if (got < 0) {
			agent_nap(delay);
			delay = delay * 2 > 60 ? 60 : delay * 2;
			continue;
		}
		delay = 1;
		if (!got) {
			if (once) {
				agent_say(a, "nothing to do");
				break;
			}
			queue_agent_seen(a->q, a->me.name, 0);
			agent_nap(a->poll);
			continue;
		}
		rc = take(a, &c);
		queue_claim_free(&c);
		if (rc < 0 || once)
			return rc;
		rc = EXIT_OK;
	}
	return rc;
}

int cmd_agent(int argc, char **argv)
{
	struct agent_opts ao;
	struct cmd_args ca = { CMD_ARGS(agent_options, ao), .help = &agent_help,
			       .no_operands = true };
	struct agent a = { 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	int rc;

	if (cmd_parse(argc, argv, &ca, &rc) < 0)
		return rc;
	rc = EXIT_USAGE;
	if (setup(&a, &ao, ca.db))
		goto out;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (agent_connect(&a))
		goto out;
	agent_say(&a, "started on %s (kernel %s), queue %s, results first into %s",
		  a.me.host, a.kernel, store_path(a.q), a.local);
	if (agent_recover(&a))
		goto stopped;
	rc = serve(&a, ao.once);
	if (rc >= 0 && !agent_stop)
		goto out;
stopped:
	agent_say(&a, "stopped by signal %d", (int)agent_stop);
	rc = EXIT_INTERRUPTED;
out:
	if (a.q) {
		if (queue_connected(a.q))
			queue_agent_seen(a.q, a.me.name, 0);
		store_close(a.q);
	}
	for (size_t i = 0; i < a.ntags; i++)
		free(a.tags[i]);
	free(a.tags);
	return rc;
}
