// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/boot.c: one boot of a campaign, resumable from any point. The
 * phase of the current boot is written before each act (hook, run) and
 * read back at the next start: a hook that may not have run is judged by
 * the state's check; a run that may not have ended is judged by its
 * uuid in the store (complete: taken; else a new attempt, the old run
 * left as the store marked it). A boot is one child `schedlab run
 * --uuid`, which dies with this process (PR_SET_PDEATHSIG); each child
 * leads a process group that the next resume ends if this one is killed
 * (children.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "model/run.h"
#include "store/store.h"
#include "util.h"

/* Whether the machine is in boot k's state: its check, if any. */
static bool in_state(const struct campaign *c, const char *db, size_t k)
{
	const char *check = c->states[c->boots[k].state].check;

	return !check || campaign_shell(c, db, k, check, true) == 0;
}

/* Calls the hook for the last boot: the machine goes to its state. */
static int hook(struct campaign *c, struct store *st, const char *db)
{
	struct camp_boot *b = &c->boots[c->nboots - 1];
	int rc;

	if (b->hooks >= CAMPAIGN_MAX_HOOKS) {
		char why[256];

		snprintf(why, sizeof(why), "boot %zu never reached state %s: %u calls of the hook, and its check still fails",
			 c->nboots, c->states[b->state].name, b->hooks);
		return campaign_stop(c, st, "lost", 1, why);
	}
	b->phase = PH_HOOKING;
	b->hooks++;
	b->hooked_at = campaign_now();
	if (c->vm) {
		/* a VM boot's kernel is chosen when its run starts */
		b->phase = PH_HOOKED;
		printf("campaign %s: boot %zu of at most %u: state %s, in a VM\n",
		       c->name, c->nboots, c->max_boots, c->states[b->state].name);
		return campaign_save(st, c, false) ? 2 : CAMPAIGN_EXIT_NEXT_BOOT;
	}
	if (campaign_save(st, c, false))
		return 2;
	printf("campaign %s: boot %zu of at most %u: state %s, calling the hook\n",
	       c->name, c->nboots, c->max_boots, c->states[b->state].name);
	rc = campaign_shell(c, db, c->nboots - 1, c->hook, false);
	if (rc) {
		char why[160];

		snprintf(why, sizeof(why), "the hook for boot %zu (state %s) exited %d",
			 c->nboots, c->states[b->state].name, rc);
		return campaign_stop(c, st, "failed", 1, why);
	}
	b->phase = PH_HOOKED;
	return campaign_save(st, c, false) ? 2 : CAMPAIGN_EXIT_NEXT_BOOT;
}

int campaign_first_hook(struct campaign *c, struct store *st, const char *db)
{
	c->boots = xcalloc(c->max_boots + 1, sizeof(*c->boots));
	c->boots[0].state = campaign_state_of(c, 0);
	c->nboots = 1;
	return hook(c, st, db);
}

/*
 * The job as a child `schedlab run`, its run's uuid b->uuid. Resumed by
 * hand on a terminal, the run's progress line shows (its summary goes
 * nowhere); at boot, from the unit, it runs -q.
 */
static int run_job(const struct campaign *c, const char *db, size_t k)
{
	const struct camp_boot *b = &c->boots[k];
	char *label = xasprintf("%s/%s", c->name, c->states[b->state].name);
	bool live = isatty(STDERR_FILENO);
	char *argv[] = { "schedlab", "run", c->job, "--db", (char *)db,
			 "--uuid", (char *)b->uuid, "--label", label,
			 live ? NULL : "-q", NULL };
	char **vm = c->vm ? campaign_vm_argv(c, db, k, label) : NULL;
	pid_t pid;
	int ws;

	if (c->vm && !vm) {
		free(label);
		return error("campaign %s: no kernel image for state %s",
			     c->name, c->states[b->state].name);
	}
	if (vm && !live) {
		/* qemu's boot lines and the guest's run: quiet at boot */
		size_t n = 0;

		while (vm[n])
			n++;
		vm_argv_push(&vm, &n, xstrdup("-q"));
	}
	campaign_boot_env(c, db, k);
	pid = campaign_spawn("/proc/self/exe", vm ? vm : argv, NULL, live);
	ws = pid < 0 ? -1 : campaign_reap(pid);
	campaign_vm_argv_free(vm);
	free(label);
	if (ws < 0)
		return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* 1 when run uuid is stored complete, 0 when not (absent, or left
 * unfinished by a killed attempt), -1 after error(). */
static int run_complete(struct store *st, const char *uuid)
{
	struct run r;
	int64_t id;
	int rc = store_find_uuid(st, uuid, &id);

	if (rc != 1)
		return rc;
	if (store_load(st, id, &r))
		return -1;
	rc = r.status && !strcmp(r.status, "complete");
	run_free(&r);
	return rc;
}

int campaign_boot_state(struct campaign *c, struct store *st, const char *db,
			unsigned s)
{
	char why[160];

	if (c->nboots >= c->max_boots) {
		snprintf(why, sizeof(why), "--max-boots %u spent before the campaign ended",
			 c->max_boots);
		return campaign_stop(c, st, "failed", 1, why);
	}
	c->boots = xrealloc(c->boots, (c->nboots + 1) * sizeof(*c->boots));
	memset(&c->boots[c->nboots], 0, sizeof(*c->boots));
	c->boots[c->nboots].value = NAN;
	c->boots[c->nboots].state = s;
	c->nboots++;
	return hook(c, st, db);
}

/* Why run uuid failed, as it stored it; NULL when it did not say. */
static char *run_reason(struct store *st, const char *uuid)
{
	char *why = NULL;
	struct run r;
	int64_t id;

	if (store_find_uuid(st, uuid, &id) == 1 && !store_load(st, id, &r)) {
		for (size_t i = 0; i < r.ncases && !why; i++)
			if (r.cases[i].reason && *r.cases[i].reason)
				why = xasprintf("%s: %s", r.cases[i].job ? r.cases[i].job : "its case",
						r.cases[i].reason);
		run_free(&r);
	}
	return why;
}

/*
 * After boot k's run exited rc (not 0): whether to run it again. A run
 * killed (with its resume, or by a crash: a signal's status) is made
 * again, CAMPAIGN_MAX_ATTEMPTS starts at most; one that failed by
 * itself (exit 1) CAMPAIGN_MAX_FAILURES times; one refused as bad
 * input (exit 2: the job file gone or changed) not at all. 0: again;
 * else the campaign stopped, resume's exit status.
 */
static int run_failed(struct campaign *c, struct store *st, size_t k, int rc)
{
	struct camp_boot *b = &c->boots[k];
	const char *state = c->states[b->state].name;
	char *why = NULL, *reason;

	if (rc == EXIT_USAGE) {
		why = xasprintf("boot %zu (state %s): the job %s was refused as input (schedlab run exited 2, its error above): fix the job file and start a new campaign",
				k + 1, state, c->job);
		rc = campaign_stop(c, st, "failed", EXIT_USAGE, why);
	} else if (rc == EXIT_RUN_FAILED && ++b->failures >= CAMPAIGN_MAX_FAILURES) {
		reason = run_reason(st, b->uuid);
		why = xasprintf("boot %zu (state %s): the job failed %u times (schedlab run exited 1): %s",
				k + 1, state, b->failures,
				reason ? reason : "its error above");
		free(reason);
		rc = campaign_stop(c, st, "failed", 1, why);
	} else if (rc != EXIT_RUN_FAILED && b->attempts >= CAMPAIGN_MAX_ATTEMPTS) {
		why = xasprintf("boot %zu (state %s): its run was started %u times and never ended by itself (killed, or the machine crashed, each time)",
				k + 1, state, b->attempts);
		rc = campaign_stop(c, st, "failed", 1, why);
	} else {
		rc = 0;
	}
	free(why);
	return rc;
}

/*
 * The run of boot k's attempt that did not complete (killed with its
 * resume, or failed) goes to NAME/STATE/discarded: no reader of the
 * campaign's label counts it, and show still finds it by its uuid.
 * 0, or -1 after error().
 */
static int discard_attempt(struct campaign *c, struct store *st, size_t k)
{
	char *label = xasprintf("%s/%s/discarded", c->name,
				c->states[c->boots[k].state].name);
	int rc = store_relabel(st, c->boots[k].uuid, label);

	free(label);
	return rc;
}

/* Boot k is in its state: its job run (again), recorded. */
static int measure(struct campaign *c, struct store *st, const char *db)
{
	size_t k = c->nboots - 1;
	struct camp_boot *b = &c->boots[k];
	int rc;

	/* the hook worked: CAMPAIGN_MAX_HOOKS counts the calls since the
	 * machine was last in this boot's state (a power cut mid-run comes
	 * back in the default kernel, and is hooked again) */
	b->hooks = 0;

	/* a run that did not complete is made again (run_failed() says how
	 * often): a boot counts only with a complete run */
	do {
		if (b->attempts >= CAMPAIGN_MAX_ATTEMPTS)
			return run_failed(c, st, k, 128 + SIGKILL);
		if (b->attempts && *b->uuid && discard_attempt(c, st, k))
			return 2;
		uuid_new(b->uuid, sizeof(b->uuid));
		b->attempts++;
		b->phase = PH_RUNNING;
		if (campaign_save(st, c, false))
			return 2;
		printf("campaign %s: boot %zu: state %s, run %s\n", c->name, k + 1,
		       c->states[b->state].name, b->uuid);
		rc = run_job(c, db, k);
		if (rc) {
			printf("campaign %s: boot %zu: the run %s exited %d\n",
			       c->name, k + 1, b->uuid, rc);
			if ((rc = run_failed(c, st, k, rc)))
				return rc;
			rc = -1;	/* again */
		}
	} while (rc);
	b->phase = PH_DONE;
	campaign_vm_settle(c, st, k);
	return campaign_save(st, c, false) ? 2 : CAMPAIGN_BOOT_MEASURED;
}

/* A boot awaited: arrived in its state (measure), or not (hook again). */
static int arrive(struct campaign *c, struct store *st, const char *db)
{
	struct camp_boot *b = &c->boots[c->nboots - 1];
	char why[256];

	if (!c->vm && c->deadline_s && campaign_now() > b->hooked_at + c->deadline_s) {
		snprintf(why, sizeof(why), "boot %zu (state %s) did not come back within its deadline of %u s of the hook",
			 c->nboots, c->states[b->state].name, c->deadline_s);
		return campaign_stop(c, st, "lost", 1, why);
	}
	if (!in_state(c, db, c->nboots - 1)) {
		printf("campaign %s: boot %zu: the machine is not in state %s (its check failed)\n",
		       c->name, c->nboots, c->states[b->state].name);
		return hook(c, st, db);
	}
	return measure(c, st, db);
}

int campaign_boot_step(struct campaign *c, struct store *st, const char *db)
{
	struct camp_boot *b = &c->boots[c->nboots - 1];
	int rc;

	switch (b->phase) {
	case PH_DONE:
		return CAMPAIGN_BOOT_MEASURED;
	case PH_RUNNING:
		rc = run_complete(st, b->uuid);
		if (rc < 0)
			return 2;
		if (rc) {
			b->phase = PH_DONE;
			campaign_vm_settle(c, st, c->nboots - 1);
			return campaign_save(st, c, false) ? 2 : CAMPAIGN_BOOT_MEASURED;
		}
		/* killed mid-run: this boot again, if the machine is in its
		 * state (a crash may have rebooted it into another) */
		return in_state(c, db, c->nboots - 1) ? measure(c, st, db) :
			hook(c, st, db);
	case PH_HOOKING:
	case PH_HOOKED:
		return arrive(c, st, db);
	}
	return 2;
}
