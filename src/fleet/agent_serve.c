// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent_serve.c: the agent's loop (fleet/agent.h, doc/fleet.md). It
 * claims a job, checks it again (never trusting the queue's columns),
 * runs it as a child `schedlab run` into its local SQLite database
 * (agent_child.c), renews the lease while it runs, and records the run
 * in the queue's database. The result is never lost or doubled: the
 * run's uuid is journaled before the run starts (agent_journal.c) and
 * removed only once the queue has the result; a server that is down is
 * retried with backoff.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/agent.h"
#include "fleet/fleet.h"
#include "harness/needs.h"
#include "harness/plan.h"
#include "store/queue.h"
#include "store/store.h"
#include "util.h"

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
	if (fleet_job_plan("agent", where, c->jobfile, strlen(c->jobfile),
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

/*
 * Claims jobs and takes them until a stop signal (or one job, once): an
 * exit code, or -1 when stopped by a signal.
 */
int agent_serve(struct agent *a, bool once)
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
