// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/budget.c: the boots a campaign may spend, when --max-boots is
 * not given, from this host's noise model of the job's cases (compare/
 * noise_model.h, stats/noise.h's noise_plan_boots()): per state the
 * boots that detect --threshold, or conclude "no change beyond" it, each
 * look at CAMPAIGN_ALPHA shared by the looks those boots allow; the
 * largest over the job's cases, times the states. Without a model, 20,
 * and the campaign says how to get one.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "campaign/campaign.h"
#include "compare/noise_model.h"
#include "harness/plan.h"
#include "util.h"

#define CAMPAIGN_DEFAULT_BOOTS 20

/* Boots per state for case k of plan p on host, or 0 (no model). */
static unsigned case_boots(struct store *st, const struct plan *p, size_t k,
			   const char *host, double threshold, double *between)
{
	struct plan_case *pc = &p->cases[k];
	struct noise_query q = { .job = pc->job, .host = host,
				 .params = pc->params, .sweep = pc->sweep,
				 .version = pc->wl->version };
	struct noise_model m;
	struct noise_boot_plan bp;
	unsigned looks = 1, boots = 0;

	if (noise_model_case(st, &q, &m) != 1)
		return 0;
	/* the looks depend on the boots: one round of planning more */
	for (int i = 0; i < 2; i++) {
		noise_plan_boots(&m, (double)pc->iterations, threshold,
				 CAMPAIGN_ALPHA, looks, &bp);
		if (!bp.boots)
			return 0;
		boots = bp.boots;
		looks = boots > 2 ? boots - 1 : 1;
	}
	*between = m.between;
	return boots;
}

unsigned campaign_plan_boots(struct store *st, const struct campaign *c)
{
	struct plan p;
	struct utsname u;
	char host[512];
	unsigned per = 0, b;
	double between = 0, s;

	if (c->vm || uname(&u))
		goto none;
	noise_glob_exact(u.nodename, host, sizeof(host));
	error_mute(1);
	if (plan_load_spec(c->job, NULL, 0, &p)) {
		error_mute(0);
		goto none;
	}
	for (size_t k = 0; k < p.ncases; k++) {
		s = 0;
		b = case_boots(st, &p, k, host, c->threshold, &s);
		if (b > per) {
			per = b;
			between = s;
		}
	}
	error_mute(0);
	plan_free(&p);
	if (!per || per * c->nstates > 1000)
		goto none;
	if (per < 2)	/* a campaign compares rounds: two at least */
		per = 2;
	printf("campaign %s: --max-boots %zu, from this host's noise (%.1f%% between runs): %u boots a state detect %g%% or rule it out\n",
	       c->name, per * c->nstates, 100 * between, per, c->threshold);
	return per * (unsigned)c->nstates;
none:
	printf("campaign %s: --max-boots %d: %s\n", c->name, CAMPAIGN_DEFAULT_BOOTS,
	       c->vm ? "a VM's noise is not this host's (bench/vm-campaigns.sh measures it)" :
	       "no noise model of the job on this host that sizes it ('schedlab calibrate JOB' makes one; then the planner does)");
	return CAMPAIGN_DEFAULT_BOOTS;
}

double campaign_job_noise(struct store *st, const struct campaign *c)
{
	struct plan p;
	struct utsname u;
	struct noise_model m;
	char host[512];
	double s = 0;

	if (c->vm || uname(&u))
		return 0;
	noise_glob_exact(u.nodename, host, sizeof(host));
	error_mute(1);
	if (!plan_load_spec(c->job, NULL, 0, &p)) {
		struct plan_case *pc = p.ncases ? &p.cases[0] : NULL;
		struct noise_query q = { .job = pc ? pc->job : NULL, .host = host,
					 .params = pc ? pc->params : NULL,
					 .sweep = pc ? pc->sweep : NULL,
					 .version = pc ? pc->wl->version : 0 };

		if (pc && noise_model_case(st, &q, &m) == 1)
			s = m.between;
		plan_free(&p);
	}
	error_mute(0);
	return s;
}
