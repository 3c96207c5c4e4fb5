// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/bisect_model.c: the bisect mode's arithmetic (doc/statistics.md,
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

/*
 * The level model. The machine's level wanders between boots (a random
 * walk: its variance grows by (r s)^2 a unit of time, a unit the median
 * time between two boots); a boot's value is the level at its time, plus
 * its state's effect (0 good, D bad, the candidate one or the other),
 * plus noise of sd s. A Kalman filter over the boots in time order
 * gives each boot's innovation - its value less what the boots before
 * it predicted - and its variance; the innovations are independent, so
 * the likelihood of any hypothesis is their product. r = 0 is a level
 * that never moves (every reference ever booted pooled); a large r
 * compares each boot with its neighbours only. r, D and s are estimated
 * from the references' boots, and the calls take r at its upper bound:
 * drift taken too small would let old references place a new candidate.
 */
struct obs {
	double y;		/* the boot's value */
	double t;		/* its time, in median gaps between boots */
	int kind;		/* 0 good, 1 bad, 2 the candidate */
};

/* Every boot's time in units of the median gap between consecutive
 * hook calls (one a boot where the times are unknown), into t. */
static void boot_times(const struct campaign *c, double *t)
{
	double *gap = xcalloc(c->nboots + 1, sizeof(double)), med = 1;
	size_t n = 0;

	for (size_t k = 1; k < c->nboots; k++) {
		double g = c->boots[k].hooked_at - c->boots[k - 1].hooked_at;

		if (c->boots[k - 1].hooked_at > 0 && g > 0)
			gap[n++] = g;
	}
	if (n && (stats_median(gap, n, &med) || !(med > 0)))
		med = 1;
	for (size_t k = 0; k < c->nboots; k++) {
		double g = k ? c->boots[k].hooked_at - c->boots[k - 1].hooked_at : 0;

		t[k] = !k ? 0 : t[k - 1] + (c->boots[k - 1].hooked_at > 0 && g / med > 1 ?
					    g / med : 1);
	}
	free(gap);
}

/* The measured boots of the references, and of step p's candidate where
 * p is not NULL, in time order, into o (room for c->nboots); how many. */
static size_t observations(const struct campaign *c, const struct camp_step *p,
			   struct obs *o)
{
	double *t = xcalloc(c->nboots + 1, sizeof(double));
	size_t n = 0;

	boot_times(c, t);
	for (size_t k = 0; k < c->nboots; k++) {
		const struct camp_boot *bt = &c->boots[k];
		int kind = bt->state < 2 ? (int)bt->state :
			   p && bt->state == p->state && k >= p->from ? 2 : -1;

		if (kind >= 0 && bt->phase == PH_DONE && isfinite(bt->value))
			o[n++] = (struct obs){ .y = bt->value, .t = t[k], .kind = kind };
	}
	free(t);
	return n;
}

/* Sums over the innovations (the first, the level's start, left out) of
 * the filter at drift r, noise 1: of a^2/F, a b/F and b^2/F, a the
 * innovations of y less d times bad, b those of the indicator of `col`
 * (1 bad, 2 the candidate), F their variances; and of log F. */
struct sums {
	double aa, ab, bb, logf;
	size_t m;		/* innovations summed */
};

static void kfilter(const struct obs *o, size_t n, double r, double d, int col,
		    struct sums *sm)
{
	double la = 0, lb = 0, p = 0;

	memset(sm, 0, sizeof(*sm));
	for (size_t k = 0; k < n; k++) {
		double y = o[k].y - (o[k].kind == 1 ? d : 0);
		double z = o[k].kind == col ? 1 : 0, f, a, b;

		if (!k) {	/* a diffuse start: the first boot is the level */
			la = y;
			lb = z;
			p = 1;
			continue;
		}
		p += r * r * (o[k].t - o[k - 1].t);
		f = p + 1;
		a = y - la;
		b = z - lb;
		la += p / f * a;
		lb += p / f * b;
		p /= f;
		sm->aa += a * a / f;
		sm->ab += a * b / f;
		sm->bb += b * b / f;
		sm->logf += log(f);
		sm->m++;
	}
}

/* The drift ratios tried: 0, then 0.01 growing by 30% to about 5. */
#define DRIFT_GRID 26
static double drift_at(int i)
{
	return i ? 0.01 * pow(1.3, i - 1) : 0;
}

void bisect_estimate(const struct campaign *c, struct bis_est *e)
{
	struct obs *o = xcalloc(c->nboots + 1, sizeof(*o));
	size_t n = observations(c, NULL, o);
	double ll[DRIFT_GRID], se[DRIFT_GRID], best = -INFINITY;
	struct sums sm;
	int use = -1;

	memset(e, 0, sizeof(*e));
	e->d = e->se = e->p = e->s = e->d_use = e->s_use = NAN;
	e->refs = (unsigned)n;
	/* the profile likelihood of each drift ratio, D and s taken out */
	for (int i = 0; i < DRIFT_GRID; i++) {
		double rss;

		kfilter(o, n, drift_at(i), 0, 1, &sm);
		rss = sm.bb > 0 ? sm.aa - sm.ab * sm.ab / sm.bb : 0;
		ll[i] = sm.m > 2 && rss > 0 ?
			-0.5 * (double)sm.m * log(rss / (double)sm.m) - 0.5 * sm.logf :
			-INFINITY;
		se[i] = isfinite(ll[i]) ? sqrt(rss / ((double)sm.m - 1) / sm.bb) : 0;
		best = ll[i] > best ? ll[i] : best;
	}
	if (!isfinite(best)) {
		free(o);
		return;
	}
	/* the drift least favourable to D among those the boots allow:
	 * of the ratios whose likelihood is within 0.82 of the best (a
	 * one-sided 90% region), the one that leaves D least certain.
	 * Few boots cannot tell noise from drift: taken for drift, the
	 * noise would come out small and D too certain. The region is kept
	 * for the calls, which must hold at each of its drifts */
	for (int i = 0; i < DRIFT_GRID; i++)
		if (ll[i] >= best - 0.82) {
			e->region |= 1u << i;
			e->r_most = drift_at(i);
			if (use < 0 || se[i] > se[use])
				use = i;
		}

	e->r = drift_at(use);
	kfilter(o, n, e->r, 0, 1, &sm);
	e->df = (double)sm.m - 1;
	e->d = sm.ab / sm.bb;
	e->s = sqrt((sm.aa - sm.ab * sm.ab / sm.bb) / e->df);
	e->se = e->s / sqrt(sm.bb);
	e->p = 2 * gsl_cdf_tdist_Q(fabs(e->d / e->se), e->df);
	/* what the calls use: the distance no larger than its lower
	 * one-sigma bound (half of it at least), the noise no smaller than
	 * its upper 90% bound - a distance taken too large, or a noise too
	 * small, would make a wrong call likelier than its alpha */
	e->d_use = copysign(fmax(fabs(e->d) - e->se, fabs(e->d) / 2), e->d);
	e->s_use = e->s * sqrt(e->df / gsl_cdf_chisq_Pinv(0.10, e->df));
	free(o);
}

/*
 * The gate: Wald's test of "good and bad do not differ" against "they
 * differ by the threshold", one each way. The references' boots give D
 * with its standard error (the level model's); the log likelihood ratio
 * of a distance delta against none is (delta d - delta^2 / 2) / se^2,
 * the noise at its upper bound. Called different when either way's ratio
 * reaches log((1 - miss) / (alpha / 2)), or when D is measured at the
 * threshold or more and the mixture's ratio (mixture_llr(): it grows
 * with the distance measured, where Wald's at the threshold gains only
 * delta |D| a round) reaches log(1 / BISECT_GATE_MIX_ALPHA); the same
 * when Wald's both fall to
 * log(miss / (1 - alpha / 2)).
 */
static double gate_upper(void)
{
	return log((1 - BISECT_GATE_MISS) / (BISECT_ALPHA / 2));
}

/*
 * The normal mixture's log likelihood ratio for distance d seen with
 * standard error se: the ratio of N(delta, se) to N(0, se) averaged over
 * delta ~ N(0, tau^2), in closed form.
 */
static double mixture_llr(double d, double se)
{
	double v = se * se, t2 = BISECT_GATE_TAU * BISECT_GATE_TAU;

	return -0.5 * log1p(t2 / v) + d * d * t2 / (2 * v * (v + t2));
}

int bisect_gate(const struct bis_est *e, double threshold, double *llr)
{
	double delta = log1p(threshold / 100), se;

	*llr = NAN;
	if (!(e->se > 0) || !(e->s_use > 0) || !(e->s > 0) || !(delta > 0))
		return 0;
	se = e->se * e->s_use / e->s;
	*llr = (delta * fabs(e->d) - delta * delta / 2) / (se * se);
	if (e->refs < 2 * BISECT_GATE_FIRST)
		return 0;
	/* the mixture speeds up distances measured at the threshold or
	 * more; it never gates one measured below it (the threshold is the
	 * user's: what is smaller is not worth a bisection) */
	if (*llr >= gate_upper() ||
	    (fabs(e->d) >= delta &&
	     mixture_llr(e->d, se) >= log(1 / BISECT_GATE_MIX_ALPHA)))
		return 1;
	if (*llr <= log(BISECT_GATE_MISS / (1 - BISECT_ALPHA / 2)))
		return -1;
	return 0;
}

unsigned bisect_gate_plan(const struct bis_est *e, double threshold,
			  unsigned rounds)
{
	double delta = log1p(threshold / 100), v;

	if (!(e->s_use > 0) || !(delta > 0))
		return 0;
	/* a round's variance of D: from the rounds so far (the drift the
	 * level model allows taken in), else 2 s^2 (a level that stays);
	 * when good and bad differ by the threshold the ratio grows by
	 * delta^2 / (2 v) a round: rounds until it reaches the bound */
	v = rounds && e->se > 0 && e->s > 0 ?
	    rounds * (e->se * e->s_use / e->s) * (e->se * e->s_use / e->s) :
	    2 * e->s_use * e->s_use;
	return (unsigned)ceil(gate_upper() * 2 * v / (delta * delta));
}

/* Wald's boundary: a call is wrong with probability at most alpha. */
static double sprt_bound(void)
{
	return log((1 - BISECT_ALPHA) / BISECT_ALPHA);
}

/*
 * The level's variance, in units of the noise, when a candidate's boot
 * is compared with it: the references' boots so far filtered at drift
 * r, one every third boot (a round: the commit twice, a reference once),
 * the level then carried on to the candidate's boots a gap or two on.
 */
static double level_var(const struct bis_est *e)
{
	unsigned n = e->refs < 200 ? e->refs : 200;
	/* the largest drift the boots allow: a call must hold at each */
	double p = 1, r = e->r_most;

	for (unsigned i = 1; i < n; i++) {
		p += 3 * r * r;
		p /= p + 1;
	}
	return p + 1.5 * r * r;
}

unsigned bisect_step_plan(const struct bis_est *e)
{
	/* each of a round's two candidate boots moves the log likelihood
	 * ratio by D^2 / (2 s^2 (1 + P)) toward the side the candidate is
	 * on, P the level's variance: rounds until the bound is reached */
	double drift = e->d_use * e->d_use /
		       (e->s_use * e->s_use * (1 + level_var(e)));
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

unsigned bisect_step_boots(const struct campaign *c, const struct camp_step *p)
{
	return bisect_runs_since(c, p->state, p->from) +
	       bisect_runs_since(c, 0, p->from) + bisect_runs_since(c, 1, p->from);
}

/* The log likelihood ratio of "the candidate is bad" (effect D) against
 * "it is good" (effect 0) from every innovation at drift r. */
static double call_llr(const struct obs *o, size_t n, double r,
		       const struct bis_est *e)
{
	struct sums sm;

	kfilter(o, n, r, e->d_use, 2, &sm);
	return (2 * e->d_use * sm.ab - e->d_use * e->d_use * sm.bb) /
	       (2 * e->s_use * e->s_use);
}

int bisect_call(const struct campaign *c, const struct camp_step *p,
		const struct bis_est *e, const char **call, char **why)
{
	struct obs *o = xcalloc(c->nboots + 1, sizeof(*o));
	size_t n = observations(c, p, o);
	unsigned nc = bisect_runs_since(c, p->state, p->from);
	double llr = 0, a = sprt_bound(), pos = NAN;
	struct sums sm;

	*call = NULL;
	if (nc && e->s_use > 0 && e->d_use != 0) {
		/* the candidate's effect 0 (good) or D (bad): the log
		 * likelihood ratio of the two, from every innovation, at
		 * every drift the boots allow (the model's r among them),
		 * the one nearest none taken (none where two drifts
		 * disagree): a host with two speeds looks like a
		 * level that stays put when all the references are pooled,
		 * and like one that wanders when each boot is compared with
		 * its neighbours - the call must hold under both */
		llr = NAN;
		for (int i = 0; i < DRIFT_GRID; i++) {
			double l;

			if (!(e->region >> i & 1))
				continue;
			l = call_llr(o, n, drift_at(i), e);
			llr = isnan(llr) ? l : l * llr <= 0 ? 0 : fabs(l) < fabs(llr) ? l : llr;
		}
		/* where the boots place it, D as estimated */
		kfilter(o, n, e->r, e->d, 2, &sm);
		pos = sm.bb > 0 ? sm.ab / sm.bb / e->d : NAN;
		if (llr >= a)
			*call = "bad";
		else if (llr <= -a)
			*call = "good";
	}
	free(o);
	free(*why);
	*why = xasprintf("%u boots of it: position %.2f (0 good, 1 bad), log likelihood ratio %+.2f (a call at +-%.2f)",
			 nc, pos, llr, a);
	return 0;
}

unsigned bisect_predict(double s, double threshold, unsigned steps,
			unsigned *gate_rounds, unsigned *step_rounds)
{
	struct bis_est e = { .s = s, .s_use = s, .d = log1p(threshold / 100),
			     .d_use = log1p(threshold / 100) };
	unsigned r = bisect_gate_plan(&e, threshold, 0), first;

	r = r < BISECT_GATE_FIRST ? BISECT_GATE_FIRST : r;
	*gate_rounds = r;
	e.refs = 2 * r;	/* no drift known beforehand */
	*step_rounds = bisect_step_plan(&e);
	/* the first step's rounds are the gate's */
	first = r > *step_rounds ? r : *step_rounds;
	return 3 * (first + *step_rounds * (steps > 1 ? steps - 1 : 0));
}

unsigned bisect_step_limit(unsigned plan)
{
	unsigned most = BISECT_STEP_FACTOR * plan;

	return most < BISECT_STEP_MIN ? BISECT_STEP_MIN : most > BISECT_MAX_STEP ?
	       BISECT_MAX_STEP : most;
}
