// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/bisect_test.c: the bisect mode's arithmetic - the runs of
 * two states compared as `compare A+B C+D` compares them (the run the
 * unit: report/compare.h, stats/noise.h; no test of its own), the gate
 * on the references, the planner's boots a step, the step's looks and
 * its call (doc/statistics.md, "Kernel bisect on a campaign").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/bisect.h"
#include "model/run.h"
#include "report/compare.h"
#include "stats/noise.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

unsigned bisect_runs_since(const struct campaign *c, unsigned s, size_t from)
{
	unsigned n = 0;

	for (size_t k = from; k < c->nboots; k++)
		n += c->boots[k].state == s && c->boots[k].phase == PH_DONE;
	return n;
}

unsigned bisect_runs_of(const struct campaign *c, unsigned s)
{
	return bisect_runs_since(c, s, 0);
}

/* The first headline case's result in cmp into t; -1 when none. */
static int first_result(const struct comparison *cmp, struct bis_test *t)
{
	for (size_t j = 0; j < cmp->njobs; j++) {
		const struct cmp_job *cj = &cmp->jobs[j];
		enum better dir = cj->metric.better;

		if (!cj->metric.headline)
			continue;
		for (size_t k = 0; k < cj->ncases; k++) {
			const struct cmp_cell *cell = &cj->cases[k].cell[1];
			double ratio;

			if (!cell->present || !cell->ok || !isfinite(cell->r.change))
				continue;
			/* the change is in mmtests' sign, + better: back to
			 * the ratio of the geometric means, b over a */
			ratio = dir == BETTER_LOWER ? 1 - cell->r.change / 100 :
				1 + cell->r.change / 100;
			t->lr = ratio > 0 ? log(ratio) : NAN;
			t->p = cell->r.p;
			t->noise = cell->r.noise_pct / 100;
			t->ra = cell->r.runs_a;
			t->rb = cell->r.runs_b;
			return isfinite(t->lr) ? 0 : -1;
		}
	}
	return -1;
}

int bisect_test(const struct campaign *c, const char *db, unsigned a,
		unsigned b, size_t from, struct bis_test *t)
{
	size_t n = 0, na;
	const char **specs = xcalloc(c->nboots + 1, sizeof(*specs));
	const char *names[2] = { c->states[a].name, c->states[b].name };
	const struct run *rp[2];
	struct run *runs = NULL;
	struct cmp_opts co = { .alpha = 0.05, .threshold = c->threshold,
			       .nboot = BOOT_RESAMPLES, .seed = BOOT_SEED,
			       .runs_unit = true };
	struct comparison cmp;
	struct store *st = NULL;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->p = t->lr = t->noise = NAN;
	for (size_t k = from; k < c->nboots; k++)
		if (c->boots[k].state == a && c->boots[k].phase == PH_DONE)
			specs[n++] = c->boots[k].uuid;
	na = n;
	for (size_t k = from; k < c->nboots; k++)
		if (c->boots[k].state == b && c->boots[k].phase == PH_DONE)
			specs[n++] = c->boots[k].uuid;
	if (!na || na == n)
		goto out;
	runs = xcalloc(n, sizeof(*runs));
	if (run_load_many(specs, n, db, runs))
		goto out;
	for (size_t k = 1; k < n; k++)
		if (k != na)
			run_merge(&runs[k < na ? 0 : na], &runs[k]);
	rp[0] = &runs[0];
	rp[1] = &runs[na];
	st = store_open_ro(db);	/* the host's noise model; none is fine */
	if (compare_build(rp, names, 2, &co, false, st, &cmp))
		goto out;
	rc = first_result(&cmp, t);
	if (rc)
		error("campaign %s: runs of %s and %s have no headline result to compare",
		      c->name, names[0], names[1]);
	compare_free(&cmp);
out:
	if (st)
		store_close(st);
	for (size_t k = 0; runs && k < n; k++)
		run_free(&runs[k]);
	free(runs);
	free(specs);
	return rc;
}

/* The step's next look after one at r boots. */
static unsigned next_look(unsigned r)
{
	unsigned g = (3 * r + 1) / 2;

	return g > r ? g : r + 1;
}

bool bisect_is_look(const struct camp_bisect *b, unsigned n)
{
	for (unsigned r = b->plan; r < b->max_step; r = next_look(r))
		if (n == r)
			return true;
	return n == b->max_step;
}

static unsigned count_looks(unsigned plan, unsigned max)
{
	unsigned k = 1;

	for (unsigned r = plan; r < max; r = next_look(r))
		k++;
	return k;
}

/*
 * The fewest boots r of a candidate whose test against the wrong
 * reference (r boots of it, in the step's rounds) detects the
 * references' distance with NOISE_POWER at alpha: the planner's
 * noise_mde() with the sides' own degrees of freedom.
 */
static unsigned plan_runs(double s, double distance, double alpha)
{
	double effect = 100 * expm1(fabs(distance));

	for (unsigned r = 1; r < NOISE_MAX_RUNS; r++) {
		double mde = noise_mde(s, 2.0 * r - 2, r, r, alpha);

		if (isfinite(mde) && mde <= effect)
			return r;
	}
	return NOISE_MAX_RUNS;
}

void bisect_plan(struct camp_bisect *b, const struct bis_test *gate,
		 unsigned max_step_opt)
{
	unsigned plan = plan_runs(gate->noise, gate->lr, BISECT_ALPHA);

	b->distance = gate->lr;
	b->noise = isfinite(gate->noise) ? gate->noise : 0;
	/* room for a step the planner's first look leaves undecided (its
	 * runs spread more than the references' said): a skip leaves git
	 * a commit it cannot place, so boots are added rather, the looks
	 * they bring charged in b->looks below */
	b->max_step = max_step_opt ? max_step_opt :
		      BISECT_STEP_FACTOR * plan > BISECT_STEP_MIN ?
		      BISECT_STEP_FACTOR * plan : BISECT_STEP_MIN;
	if (b->max_step > NOISE_MAX_RUNS)
		b->max_step = NOISE_MAX_RUNS;
	/* the first look where a call is likely, at the alpha its share of
	 * the looks leaves (twice: the share depends on the first look) */
	for (int i = 0; i < 2; i++) {
		b->looks = count_looks(plan, b->max_step);
		plan = plan_runs(gate->noise, gate->lr, BISECT_ALPHA / b->looks);
		if (plan > b->max_step)
			plan = b->max_step;
	}
	b->plan = plan;
	b->looks = count_looks(plan, b->max_step);
}

int bisect_call(const struct campaign *c, const char *db,
		const struct camp_step *p, const char **call, char **why)
{
	unsigned s = p->state;
	const struct camp_bisect *b = c->bisect;
	double alpha = BISECT_ALPHA / b->looks, pos;
	struct bis_test g, x;
	bool bad, good;

	*call = NULL;
	if (bisect_test(c, db, 0, s, p->from, &g) ||
	    bisect_test(c, db, 1, s, p->from, &x))
		return -1;
	/* the candidate leans toward bad when it moved from good the way
	 * bad did; toward good when it sits on good's side of bad */
	bad = g.p < alpha && g.lr * b->distance > 0;
	good = x.p < alpha && x.lr * b->distance < 0;
	pos = g.lr / b->distance;
	if (bad && good)
		*call = pos > 0.5 ? "bad" : "good";
	else if (bad || good)
		*call = bad ? "bad" : "good";
	free(*why);
	*why = xasprintf("%u boots: /good %.3f (p=%.2g), /bad %.3f (p=%.2g), position %.2f (0 good, 1 bad); a call needs p < %.2g",
			 bisect_runs_of(c, s), exp(g.lr), g.p, exp(x.lr), x.p,
			 pos, alpha);
	return 0;
}
