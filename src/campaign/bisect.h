/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * campaign/bisect.h: the bisect mode's pieces shared between its files
 * (bisect.c drives the steps and git; bisect_model.c the arithmetic).
 * The entry points are campaign.h's bisect_*().
 */
#ifndef SCHEDLAB_CAMPAIGN_BISECT_H
#define SCHEDLAB_CAMPAIGN_BISECT_H

#include "campaign/campaign.h"

/*
 * What the references' boots so far say, through the level model of
 * bisect_model.c (the machine's level a random walk between boots): the
 * references' distance and the run-to-run noise, as logs, and the
 * drift.
 */
struct bis_est {
	double d;		/* log(bad / good), the level's drift taken
				 * out */
	double se;		/* its standard error */
	double p;		/* two-sided p of d against 0 (t, df) */
	double s;		/* the noise: sd of a boot's value about the
				 * level at its time and its state's effect */
	double r;		/* the level's drift: its sd a median gap
				 * between boots, in units of s; the one,
				 * within a one-sided 90% likelihood
				 * region, least favourable to D */
	unsigned region;	/* the drifts the boots allow: bit i for
				 * the grid's i-th, within that region;
				 * a call must hold at each of them */
	double r_most;		/* the largest of them (r or more) */
	double df;		/* its degrees of freedom */
	double d_use, s_use;	/* what the calls use: d shrunk to its
				 * lower one-sigma bound, s raised to its
				 * upper 90% bound */
	unsigned refs;		/* boots of good and bad, together */
};

/* Each measured boot's value (the log of its run's median of the
 * headline), read through st where not yet known; -1 after error(). */
int bisect_values(struct campaign *c, struct store *st);

/* The estimates from the values known (bisect_values() first). */
void bisect_estimate(const struct campaign *c, struct bis_est *e);

/* Complete rounds (candidate, good and bad each) of step p. */
unsigned bisect_rounds(const struct campaign *c, const struct camp_step *p);

/* Boots of step p measured: its candidate's and the references'. */
unsigned bisect_step_boots(const struct campaign *c, const struct camp_step *p);

/* The gate on the estimates e: 1 good and bad differ, -1 they are shown
 * to differ by less than threshold%, 0 not yet; *llr the log likelihood
 * ratio of a distance of the threshold against none. */
int bisect_gate(const struct bis_est *e, double threshold, double *llr);

/* The rounds the gate is expected to take when good and bad differ by
 * threshold% (Wald's approximation), from the estimates e of `rounds`
 * rounds (0: e's noise alone, beforehand); 0 when not yet known. */
unsigned bisect_gate_plan(const struct bis_est *e, double threshold,
			  unsigned rounds);

/* The rounds a step is expected to take (Wald's approximation), from
 * e's distance and noise; BISECT_MIN_REFS at least. */
unsigned bisect_step_plan(const struct bis_est *e);
/* A step's most rounds, where it plans `plan` (no --max-step-boots):
 * BISECT_STEP_FACTOR times it, BISECT_STEP_MIN at least. Wald's rounds
 * have a long tail: a 30% step given 3 to 6 boots was skipped. */
unsigned bisect_step_limit(unsigned plan);

/* Beforehand: the boots a bisection of `steps` steps needs when a
 * distance of threshold% is seen through noise s (sd of a log): the
 * gate's rounds, a step's, and the boots in all. */
unsigned bisect_predict(double s, double threshold, unsigned steps,
			unsigned *gate_rounds, unsigned *step_rounds);

/* The call on step p's candidate by the sequential probability ratio
 * test of its boots against the level model, e the estimates: "good",
 * "bad" or NULL (none yet), *why its words (replaced). */
int bisect_call(const struct campaign *c, const struct camp_step *p,
		const struct bis_est *e, const char **call, char **why);

#endif
