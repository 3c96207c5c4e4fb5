/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * campaign/bisect.h: the bisect mode's pieces shared between its files
 * (bisect.c drives the steps and git; bisect_test.c the arithmetic).
 * The entry points are campaign.h's bisect_*().
 */
#ifndef SCHEDLAB_CAMPAIGN_BISECT_H
#define SCHEDLAB_CAMPAIGN_BISECT_H

#include "campaign/campaign.h"

/* b's runs against a's, the run the unit. */
struct bis_test {
	double lr;		/* log of b over a: ratio of the geometric means
				 * of the runs' medians */
	double p;		/* the two-sided p of the run-level test */
	double noise;		/* the run-to-run noise it used, sd of a log */
	unsigned ra, rb;	/* runs a side */
};

/* States a and b compared, their boots from boot `from` on; -1 after
 * error(). */
int bisect_test(const struct campaign *c, const char *db, unsigned a,
		unsigned b, size_t from, struct bis_test *t);

/* After the gate: the distance, the step's first look (plan), its most
 * boots (max_step_opt, 0: 3 times the plan, 4 at least) and its looks:
 * boots of the candidate, each reference booted as often beside it. */
void bisect_plan(struct camp_bisect *b, const struct bis_test *gate,
		 unsigned max_step_opt);

/* The call on step p's candidate at a look, by the references' boots
 * in its rounds: "good", "bad" or NULL (none yet), *why its words
 * (replaced). -1 after error(). */
int bisect_call(const struct campaign *c, const char *db,
		const struct camp_step *p, const char **call, char **why);

#endif
