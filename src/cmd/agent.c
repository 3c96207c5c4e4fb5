// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab agent: a test machine's end of the fleet's queue
 * (store/queue.h, doc/fleet.md). Here its options are checked and the
 * agent set up (its name, tags, state directory, kernel); the daemon
 * itself - claim, check, run, lease, journal, record - is the fleet
 * room's (fleet/agent.h).
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

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "fleet/agent.h"
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

int cmd_agent(int argc, char **argv)
{
	struct agent_opts ao;
	struct cmd_args ca = { CMD_ARGS(agent_options, ao), .help = &agent_help,
			       .no_operands = true };
	struct agent a = { 0 };
	int rc;

	if (cmd_parse(argc, argv, &ca, &rc) < 0)
		return rc;
	rc = EXIT_USAGE;
	if (setup(&a, &ao, ca.db))
		goto out;
	agent_catch_stop();
	if (agent_connect(&a))
		goto out;
	agent_say(&a, "started on %s (kernel %s), queue %s, results first into %s",
		  a.me.host, a.kernel, store_path(a.q), a.local);
	if (agent_recover(&a))
		goto stopped;
	rc = agent_serve(&a, ao.once);
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
