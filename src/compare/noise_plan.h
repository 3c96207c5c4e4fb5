/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/noise_plan.h: how many runs of how many iterations detect an
 * effect on this host (schedlab plan): from a case's noise model
 * (noise_model.h) at compare's level, NOISE_PLAN_ALPHA, and power
 * NOISE_POWER (stats/noise.h).
 */
#ifndef SCHEDLAB_COMPARE_NOISE_PLAN_H
#define SCHEDLAB_COMPARE_NOISE_PLAN_H

#include "compare/noise_model.h"

/* compare's level (compare_opts_default()) */
#define NOISE_PLAN_ALPHA 0.05
/* What a run costs besides its iterations: start, probes, the store. */
#define NOISE_RUN_OVERHEAD_S 0.3

/* One plan: runs a side of iters iterations and what they can show. */
struct noise_plan {
	unsigned runs, iters;
	double mde, seconds;	/* seconds: both sides, all runs */
};

/*
 * The cheapest (runs, iterations) for case c whose smallest detectable
 * change is at most effect (percent) into *best; best->runs 0 when none
 * within NOISE_MAX_RUNS. fixed: only that iteration count (0: any the
 * planner tries).
 */
void noise_plan_case(const struct noise_case *c, double effect, unsigned fixed,
		     struct noise_plan *best);

/* What `schedlab plan` shows of a case: its cheapest plan, the plan at
 * its stored iterations, the smallest change one run a side can show
 * (percent), and the runs a side that show "no change beyond effect"
 * of an unchanged state (0: none within reach). Nothing but c for a
 * case whose noise between runs is not known. */
struct noise_plan_row {
	const struct noise_case *c;
	struct noise_plan best, one;
	double one_run_mde;
	unsigned no_change_runs;
};
/* rows[i] for each case of s. */
void noise_plan_rows(const struct noise_set *s, double effect,
		     struct noise_plan_row *rows);

#endif
