// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab campaign bisect: a kernel bisect across boots, its options
 * checked and its campaign made (campaign/bisect.c drives it), and its
 * status: the steps, the boots of each, the time, the first bad commit.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "cmd/campaign_cli.h"
#include "cmd/cmd.h"
#include "harness/plan.h"
#include "store/store.h"
#include "util.h"

static int bisect_check(const struct campaign_opts *o, int n, char **ops)
{
	if (n != 2)
		return error("campaign bisect: expected NAME and JOBFILE (usage: schedlab campaign bisect NAME JOBFILE --repo DIR --good COMMIT --bad COMMIT --build CMD --hook CMD)");
	if (!*ops[0] || strlen(ops[0]) > 64 || strchr(ops[0], '/'))
		return error("campaign bisect: NAME '%s': 1 to 64 characters, no '/'", ops[0]);
	if (o->states.n)
		return error("campaign bisect: --state belongs to campaign start: a bisect's states are its commits");
	if (o->design >= 0 || o->block)
		return error("campaign bisect: --%s belongs to campaign start: a bisect boots each step's commit beside good and bad in shuffled rounds of its own",
			     o->design >= 0 ? "design" : "block");
	if (!o->repo || !o->good || !o->bad)
		return error("campaign bisect: --repo DIR, --good COMMIT and --bad COMMIT are required");
	if (!o->vm && (!o->build || !*o->build))
		return error("campaign bisect: --build CMD is required: the command that builds and installs $SCHEDLAB_COMMIT (with --vm, schedlab builds each commit itself unless --build is given)");
	if (!o->vm && (!o->hook || !*o->hook))
		return error("campaign bisect: --hook CMD is required: the command that boots the machine into $SCHEDLAB_COMMIT (or --vm, to boot the images the build leaves at $SCHEDLAB_IMAGE in qemu from here)");
	return 0;
}

/* The good and bad references as the campaign's first two states. */
static void bisect_states(struct campaign *c, const struct campaign_opts *o,
			  const char *good, const char *bad)
{
	c->states = xcalloc(2, sizeof(*c->states));
	c->states[0].name = xstrdup("good");
	c->states[0].commit = xstrdup(good);
	c->states[1].name = xstrdup("bad");
	c->states[1].commit = xstrdup(bad);
	for (int i = 0; i < 2; i++)
		c->states[i].check = o->check && *o->check ? xstrdup(o->check) : NULL;
	c->nstates = 2;
}

/* A step's call is made on one case: a job of several is refused. */
static int one_case(const char *spec)
{
	struct plan p;
	size_t n;

	if (plan_load_spec(spec, NULL, 0, &p))
		return -1;
	n = p.ncases;
	plan_free(&p);
	if (n != 1)
		return error("campaign bisect: %s has %zu cases; a bisect calls each commit good or bad by one (a job without a sweep: 'schedlab run --dry-run %s' lists them)",
			     spec, n, spec);
	return 0;
}

static int bisect_make(const struct campaign_opts *o, char **ops,
		       struct campaign *c)
{
	char good[41], bad[41], repo[PATH_MAX];
	struct camp_bisect *b;

	if (campaign_vm_opts(o, "campaign bisect", c) ||
	    campaign_kbuild_opts(o, "campaign bisect", c))
		return -1;
	if (bisect_validate(o->repo, o->good, o->bad, good, bad))
		return -1;
	if (!realpath(o->repo, repo))
		return error_errno("campaign bisect: --repo '%s'", o->repo);
	if (opt_parse_percent("campaign bisect", "threshold", o->threshold, 0, 1000, &c->threshold))
		return -1;
	if (one_case(ops[1]))
		return -1;
	c->job = campaign_job_spec(ops[1]);
	if (!c->job)
		return -1;
	bisect_states(c, o, good, bad);
	c->name = xstrdup(ops[0]);
	c->hook = xstrdup(o->hook ? o->hook : "");
	c->max_boots = o->max_boots ? o->max_boots : BISECT_UNPLANNED_BOOTS;
	c->block = 1;
	c->deadline_s = o->deadline;
	c->seed = o->seed ? o->seed : (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
	c->status = xstrdup("running");
	b = c->bisect = xcalloc(1, sizeof(*b));
	b->repo = xstrdup(repo);
	b->build = xstrdup(o->build ? o->build : "");	/* "": vm build's */
	b->max_refs_opt = o->max_refs;
	b->max_refs = o->max_refs ? o->max_refs : BISECT_MAX_REFS;
	b->max_step_opt = o->max_step;
	b->max_step = o->max_step ? o->max_step : BISECT_MAX_STEP;
	b->max_boots_opt = o->max_boots;
	b->distance = b->noise = NAN;
	return 0;
}

int campaign_bisect_start(const struct campaign_opts *o, const char *db, int n,
			  char **ops)
{
	struct campaign c;
	int rc = EXIT_USAGE;

	memset(&c, 0, sizeof(c));
	if (!bisect_check(o, n, ops) && !bisect_make(o, ops, &c))
		rc = campaign_create(&c, db, "campaign bisect", bisect_begin);
	campaign_free(&c);
	return rc;
}
