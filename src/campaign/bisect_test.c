// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/bisect_test.c: the bisect mode's arithmetic (doc/statistics.md,
 * "Kernel bisect on a campaign"). Each boot gives one value, the log of
 * its run's median of the headline metric, read once and kept in the
 * campaign's state. A step's boots come in rounds of three (candidate,
 * good, bad); the references' distance D and the run-to-run noise s are
 * estimated from every step's rounds (each step a block of its own, so
 * that drift between steps is not taken for either), re-estimated at
 * every look. The gate asks whether good and bad differ at all; a
 * step's call is Wald's sequential probability ratio test of "the
 * candidate is good" against "it is bad" on the rounds' differences,
 * looked at after every round.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/bisect.h"
#include "model/run.h"
#include "stats/cdf.h"
#include "stats/noise.h"
#include "stats/summary.h"
#include "store/load.h"
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

/* Boot bt's value: the log of its run's median of the headline metric. */
static int boot_value(const struct campaign *c, struct run_source *src,
		      struct camp_boot *bt)
{
	const char *spec = bt->uuid;
	const struct run_case *cs;
	struct run r;
	double *x, med = NAN;
	size_t n = 0;
	int m;

	if (run_source_load_many(src, &spec, 1, &r))
		return -1;
	cs = r.ncases ? &r.cases[0] : NULL;
	m = cs ? run_headline(&r, cs->workload) : -1;
	x = xcalloc(cs ? cs->niter + 1 : 1, sizeof(*x));
	if (m >= 0)
		n = run_samples(cs, m, x);
	if (n && !stats_median(x, n, &med) && med > 0)
		bt->value = log(med);
	free(x);
	run_free(&r);
	if (!isfinite(bt->value))
		return error("campaign %s: run %s has no positive headline result to bisect by",
			     c->name, bt->uuid);
	return 0;
}

int bisect_values(struct campaign *c, struct store *st)
{
	struct run_source src;

	campaign_run_source(&src, st);	/* the caller's handle, kept open */
	for (size_t k = 0; k < c->nboots; k++) {
		struct camp_boot *bt = &c->boots[k];

		if (bt->phase == PH_DONE && !isfinite(bt->value) &&
		    boot_value(c, &src, bt))
			return -1;
	}
	return 0;
}

/* The block (step) boot k belongs to: the last step begun at or before
 * it; its rounds are compared with each other only. */
static size_t block_of(const struct camp_bisect *b, size_t k)
{
	size_t j = 0;

	for (size_t i = 0; i < b->nsteps; i++)
		if (b->steps[i].from <= k)
			j = i;
	return j;
}

/* The values of state s in block j, in boot order, into v (room for
 * c->nboots); how many. */
static size_t block_values(const struct campaign *c, size_t j, unsigned s,
			   double *v)
{
	size_t n = 0;

	for (size_t k = 0; k < c->nboots; k++)
		if (c->boots[k].state == s && c->boots[k].phase == PH_DONE &&
		    isfinite(c->boots[k].value) && block_of(c->bisect, k) == j)
			v[n++] = c->boots[k].value;
	return n;
}

/*
 * Block j's complete rounds as a two-way layout, rounds by states (good,
 * bad and its candidate, where booted): the residual sum of squares of
 * the additive model - a round's own level taken out, so that the
 * machine's drift between rounds is not taken for noise - with its
 * degrees of freedom, and the sum of the rounds' bad - good.
 */
static size_t block_rounds(const struct campaign *c, size_t j, double *ss,
			   double *df, double *dsum)
{
	unsigned who[3] = { 0, 1, c->bisect->nsteps ? c->bisect->steps[j].state : 0 };
	size_t len[3], n, k = c->bisect->nsteps ? 3 : 2;
	double *v[3], grand = 0, rm, sm[3] = { 0 };

	for (size_t i = 0; i < 3; i++) {
		v[i] = xcalloc(c->nboots + 1, sizeof(double));
		len[i] = i < k ? block_values(c, j, who[i], v[i]) : 0;
	}
	if (k == 3 && !len[2])
		k = 2;		/* its build failed: no candidate */
	n = len[0] < len[1] ? len[0] : len[1];
	if (k == 3 && len[2] < n)
		n = len[2];
	*ss = *df = *dsum = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t t = 0; t < k; t++) {
			sm[t] += v[t][i] / (double)n;
			grand += v[t][i] / (double)(n * k);
		}
		*dsum += v[1][i] - v[0][i];
	}
	for (size_t i = 0; i < n; i++) {
		rm = 0;
		for (size_t t = 0; t < k; t++)
			rm += v[t][i] / (double)k;
		for (size_t t = 0; t < k; t++) {
			double r = v[t][i] - rm - sm[t] + grand;

			*ss += r * r;
		}
	}
	*df = n > 1 ? (double)((n - 1) * (k - 1)) : 0;
	for (size_t i = 0; i < 3; i++)
		free(v[i]);
	return n;
}

void bisect_estimate(const struct campaign *c, struct bis_est *e)
{
	const struct camp_bisect *b = c->bisect;
	size_t nblocks = b->nsteps ? b->nsteps : 1;
	double ss = 0, wsum = 0, dsum = 0;

	memset(e, 0, sizeof(*e));
	for (size_t j = 0; j < nblocks; j++) {
		double bss, bdf, bd;
		size_t n = block_rounds(c, j, &bss, &bdf, &bd);

		ss += bss;
		e->df += bdf;
		/* a block's mean of bad - good has variance 2 s^2 / n */
		wsum += (double)n / 2;
		dsum += bd / 2;
		e->refs += (unsigned)(2 * n);
	}
	e->s = e->df > 0 ? sqrt(ss / e->df) : NAN;
	e->d = wsum > 0 ? dsum / wsum : NAN;
	e->se = wsum > 0 ? e->s / sqrt(wsum) : NAN;
	e->p = e->df > 0 && e->se > 0 ? 2 * gsl_cdf_tdist_Q(fabs(e->d / e->se), e->df) :
	       NAN;
	/* what the calls use: the distance no larger than its lower
	 * one-sigma bound (half of it at least), the noise no smaller than
	 * its upper 75% bound - a distance taken too large, or a noise too
	 * small, would make a wrong call likelier than its alpha */
	e->d_use = copysign(fmax(fabs(e->d) - e->se, fabs(e->d) / 2), e->d);
	e->s_use = e->df > 0 ? e->s * sqrt(e->df / gsl_cdf_chisq_Pinv(0.25, e->df)) : NAN;
}

/* The gate's looks: rounds 2, 3, 4, 6, 9, 13, ... of the first step. */
static unsigned next_look(unsigned r)
{
	unsigned g = (3 * r + 1) / 2;

	return g > r ? g : r + 1;
}

unsigned bisect_gate_look(unsigned rounds)
{
	unsigned j = 1;

	for (unsigned r = BISECT_MIN_REFS; r <= rounds; r = next_look(r), j++)
		if (r == rounds)
			return j;
	return 0;
}

double bisect_gate_alpha(unsigned look)
{
	/* alpha spent over the looks, however many: alpha / (j (j + 1))
	 * sums to alpha */
	return BISECT_ALPHA / ((double)look * (look + 1));
}

unsigned bisect_gate_plan(const struct bis_est *e, double threshold,
			  unsigned look)
{
	double delta = log1p(threshold / 100), z;

	if (!(e->s_use > 0) || !(delta > 0))
		return 0;
	/* rounds a side at which a distance of the threshold is found with
	 * NOISE_POWER at this look's alpha (the normal approximation; the
	 * looks to come are stricter, so this is the fewest) */
	z = gsl_cdf_ugaussian_Qinv(bisect_gate_alpha(look) / 2) +
	    gsl_cdf_ugaussian_Pinv(NOISE_POWER);
	return (unsigned)ceil(2 * (z * e->s_use / delta) * (z * e->s_use / delta));
}

/* Wald's boundary: a call is wrong with probability at most alpha. */
static double sprt_bound(void)
{
	return log((1 - BISECT_ALPHA) / BISECT_ALPHA);
}

unsigned bisect_step_plan(const struct bis_est *e)
{
	/* the rounds' differences drift by D^2 / (3 s^2) a round toward
	 * the side the candidate is on: rounds until the bound is reached */
	double drift = e->d_use * e->d_use / (3 * e->s_use * e->s_use);
	double r = drift > 0 ? ceil(sprt_bound() / drift) : INFINITY;

	return r < BISECT_MIN_REFS ? BISECT_MIN_REFS : r > BISECT_MAX_STEP ?
	       BISECT_MAX_STEP : (unsigned)r;
}

unsigned bisect_rounds(const struct campaign *c, const struct camp_step *p)
{
	unsigned n = bisect_runs_since(c, p->state, p->from);

	for (unsigned s = 0; s < 2; s++) {
		unsigned r = bisect_runs_since(c, s, p->from);

		n = r < n ? r : n;
	}
	return n;
}

int bisect_call(const struct campaign *c, const struct camp_step *p,
		const struct bis_est *e, const char **call, char **why)
{
	size_t j = (size_t)(p - c->bisect->steps);
	double *v[3], llr = 0, a = sprt_bound(), pos = NAN, sum = 0;
	unsigned who[3] = { p->state, 0, 1 };
	size_t n = bisect_rounds(c, p);

	*call = NULL;
	for (int i = 0; i < 3; i++) {
		v[i] = xcalloc(c->nboots + 1, sizeof(double));
		block_values(c, j, who[i], v[i]);
	}
	/* each round's candidate against the midpoint of its references:
	 * -D/2 if it is good, +D/2 if bad, variance 1.5 s^2 */
	for (size_t i = 0; i < n; i++)
		sum += v[0][i] - (v[1][i] + v[2][i]) / 2;
	if (n && e->s_use > 0 && e->d_use != 0) {
		llr = 2 * e->d_use * sum / (3 * e->s_use * e->s_use);
		pos = 0.5 + sum / (double)n / e->d;
		if (llr >= a)
			*call = "bad";
		else if (llr <= -a)
			*call = "good";
	}
	for (int i = 0; i < 3; i++)
		free(v[i]);
	free(*why);
	*why = xasprintf("%zu rounds: position %.2f (0 good, 1 bad), log likelihood ratio %+.2f (a call at +-%.2f)",
			 n, pos, llr, a);
	return 0;
}

unsigned bisect_predict(double s, double threshold, unsigned steps,
			unsigned *gate_rounds, unsigned *step_rounds)
{
	struct bis_est e = { .s = s, .s_use = s, .d = log1p(threshold / 100),
			     .d_use = log1p(threshold / 100) };
	unsigned r = BISECT_MIN_REFS, first;

	/* the gate's first look at or past the rounds it plans there */
	while (r < BISECT_MAX_REFS &&
	       r < bisect_gate_plan(&e, threshold, bisect_gate_look(r)))
		r = next_look(r);
	*gate_rounds = r;
	*step_rounds = bisect_step_plan(&e);
	/* the first step's rounds are the gate's */
	first = r > *step_rounds ? r : *step_rounds;
	return 3 * (first + *step_rounds * (steps > 1 ? steps - 1 : 0));
}
