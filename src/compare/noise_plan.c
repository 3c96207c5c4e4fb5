// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/noise_plan.c: the planner behind `schedlab plan` (noise_plan.h):
 * from a host's noise model of a case, the cheapest runs a side and
 * iterations that detect an effect at compare's error rates.
 */
#include <math.h>
#include <string.h>

#include "compare/noise_plan.h"
#include "stats/noise.h"
#include "util.h"

/* The iteration counts the planner tries. */
static const unsigned plan_iters[] = { 3, 5, 8, 10, 15, 20, 30, 50, 100 };

/*
 * The cheapest (runs, iterations) whose smallest detectable change is
 * at most effect; runs 0 when none within NOISE_MAX_RUNS. fixed: only
 * that iteration count (0: any of plan_iters).
 */
void noise_plan_case(const struct noise_case *c, double effect, unsigned fixed,
		     struct noise_plan *best)
{
	double iter_s = isfinite(c->iter_s) ? c->iter_s : 0;

	memset(best, 0, sizeof(*best));
	best->mde = NAN;
	for (size_t i = 0; i < ARRAY_SIZE(plan_iters) || (fixed && i == 0); i++) {
		unsigned n = fixed ? fixed : plan_iters[i];
		double s = noise_run_sd(&c->m, n);
		unsigned r = noise_runs_needed(s, c->m.df, effect, NOISE_PLAN_ALPHA);
		double secs = 2.0 * r * (n * iter_s + NOISE_RUN_OVERHEAD_S);

		if (r && (!best->runs || secs < best->seconds)) {
			best->runs = r;
			best->iters = n;
			best->seconds = secs;
			best->mde = noise_mde(s, c->m.df + 2.0 * r - 2, r, r, NOISE_PLAN_ALPHA);
		}
		if (fixed)
			break;
	}
}

void noise_plan_rows(const struct noise_set *s, double effect,
		     struct noise_plan_row *rows)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct noise_case *c = &s->cases[i];
		struct noise_plan_row *r = &rows[i];
		double sd;

		*r = (struct noise_plan_row){ .c = c, .one_run_mde = NAN };
		if (!c->known)
			continue;
		sd = noise_run_sd(&c->m, c->m.iters);
		noise_plan_case(c, effect, 0, &r->best);
		noise_plan_case(c, effect, (unsigned)fmax(1, round(c->m.iters)), &r->one);
		r->one_run_mde = noise_mde(sd, c->m.df, 1, 1, NOISE_PLAN_ALPHA);
		r->no_change_runs = noise_runs_equivalence(sd, c->m.df, effect,
							   NOISE_PLAN_ALPHA);
	}
}
