/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise: the run as the unit of replication (doc/statistics.md, "Runs
 * as replicates"). Pure functions, like tests.h.
 *
 * Iterations of one run share its offset (the boot, page placement,
 * frequency, the neighbours of that hour); two runs differ by more than
 * their iterations show. So:
 *
 *  - noise_estimate(): a host's noise model for one case from the
 *    medians of its stored runs: the spread of a run's median between
 *    runs (robust to an outlying run and to a slow drift: successive
 *    differences within a label, an absurd one left out), and the spread
 *    of the iterations within a run (the median of the runs' robust
 *    CoeffVar);
 *  - noise_compare(): two sides of one or more runs each, tested with
 *    the run as the unit: a t-test on the logs of the runs' medians, its
 *    variance pooled from the sides' own runs and the model's;
 *  - noise_runs_needed(), noise_mde(): the planner's arithmetic.
 */
#ifndef SCHEDLAB_STATS_NOISE_H
#define SCHEDLAB_STATS_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "metric.h"
#include "stats/tests.h"

/* One stored run of a case. */
struct noise_obs {
	unsigned group;		/* runs of one state (one label): only
				 * neighbours in a group are differenced */
	double median;		/* of its iterations; > 0 */
	double cv;		/* its iterations' robust CoeffVar, a fraction;
				 * NAN: fewer than 3 iterations */
	size_t n;		/* its iterations */
	double t;		/* when it started, Unix seconds; NAN: unknown */
};

/* The level of the F test that sets the host's model aside when the
 * runs compared spread more than it (noise_compare()). */
#define NOISE_MODEL_CHECK 0.05

/* The fewest differences of neighbouring runs a model is made from. */
#define NOISE_MIN_PAIRS 3
/* The fewest runs of one label that make a model: NOISE_MIN_PAIRS + 1. */
#define NOISE_CALIBRATE_MIN (NOISE_MIN_PAIRS + 1)
/* A difference beyond this many robust sds is left out as absurd. */
#define NOISE_CUT_Z 5.0
/*
 * Two speeds (noise_estimate()): the runs of one label, sorted by
 * their median, split where the gap between neighbours is largest
 * against the spread within the two sides, each NOISE_SPEED_MIN_RUNS
 * runs at least: two speeds when that gap is NOISE_SPEED_SEP pooled
 * sds or more and a ratio of NOISE_SPEED_MIN_RATIO or more.
 */
#define NOISE_SPEED_MIN_RUNS 2
#define NOISE_SPEED_SEP 4.0
#define NOISE_SPEED_MIN_RATIO 1.1
/* The most runs a side the planner considers. */
#define NOISE_MAX_RUNS 50
/* The planner's power: the chance to detect the effect asked. */
#define NOISE_POWER 0.8

struct noise_model {
	unsigned runs;		/* runs read */
	unsigned groups;	/* labels among them */
	unsigned pairs;		/* neighbouring runs of a label differenced */
	unsigned cut;		/* ... of which left out as absurd */
	double between;		/* sd of the log of a run's median, as the
				 * runs measured it (at `iters` iterations) */
	double offset;		/* the run's own offset alone: between^2 less
				 * what the iterations' spread adds to a median
				 * of `iters` (0 when that is all of it) */
	double within;		/* median of the runs' robust CoeffVar */
	double iters;		/* median iterations a run */
	double df;		/* degrees of freedom credited to between */
	/* the time scale it knows: the longest time between two runs it
	 * differenced (seconds; NAN: no start times), and the range of the
	 * logs of its runs' medians (lo > hi: none) */
	double gap_max;
	double lo, hi;
	/* a host at two speeds: 2, the two speeds' medians (the median of
	 * each side's run medians) and their runs; 1 otherwise. The
	 * differences across the switch are kept in between, not cut. */
	unsigned speeds;
	double speed_lo, speed_hi;
	unsigned speed_runs_lo, speed_runs_hi;
};

/*
 * The model from n runs, in time order within each group. -1 (m filled
 * with what was counted, between NAN) when fewer than NOISE_MIN_PAIRS
 * neighbouring runs of one group could be differenced.
 *
 * between: d = log m_i - log m_{i-1} for neighbours of one group (a
 * slow drift moves neighbours alike; different labels, which may be
 * different kernels, are never differenced); s0 = median |d| /
 * (0.6745 sqrt 2), then the mean square successive difference
 * (von Neumann 1941) of the d within NOISE_CUT_Z * sqrt 2 * s0:
 * between^2 = sum d^2 / (2 kept); df = 2/3 of the kept pairs (the
 * efficiency of successive differences against the sample variance).
 */
int noise_estimate(const struct noise_obs *o, size_t n, struct noise_model *m);

/*
 * The noise of runs about gap seconds apart: the pairs of runs of one
 * group (all pairs, not only neighbours) at least gap / 2 apart give
 * s^2 = the mean of d^2 / 2, with the cut of noise_estimate(). 0 with
 * *s, *pairs and *df (the runs involved less one: the pairs share runs)
 * set; -1 when fewer than NOISE_MIN_PAIRS such pairs are stored.
 */
int noise_at_gap(const struct noise_obs *o, size_t n, double gap, double *s,
		 double *df, unsigned *pairs);

/*
 * The sd of the log of one run's median at iters iterations: offset^2
 * plus the iterations' part, (between^2 - offset^2) * m->iters / iters.
 */
double noise_run_sd(const struct noise_model *m, double iters);

/*
 * Compares the runs of side b with those of side a for a metric with
 * direction dir: ma[0..ra) and mb[0..rb) the medians of each run (> 0;
 * others skipped), ia and ib their iterations (for the model's part at
 * that count), m the host's model of the case or NULL.
 *
 * Statistic: the difference of the means of the logs of the runs'
 * medians; its variance s^2 (1/ra + 1/rb), s^2 pooled from the sides'
 * runs about their means (ra + rb - 2 degrees of freedom) and the
 * model's noise_run_sd() (m->df); p from Student's t at their sum.
 * The model describes the host's other runs: when these runs' own
 * spread exceeds it beyond chance (one-sided F test of their variance
 * against the model's at NOISE_MODEL_CHECK), it is set aside
 * (r->model_aside) and their own spread is used alone.
 * Verdict and change as stats_compare()'s (mmtests' sign, o->threshold,
 * o->alpha); inconclusive without any degree of freedom (one run a side
 * and no model), or when not significant with an interval reaching past
 * the threshold - r->why then says in numbers what the runs could show
 * (r->mde) and how many runs a side would show the threshold
 * (r->runs_needed).
 */
void noise_compare(const double *ma, size_t ra, double ia, const double *mb,
		   size_t rb, double ib, enum better dir,
		   const struct noise_model *m, const struct cmp_opts *o,
		   struct cmp_result *r);

/*
 * Common sense for a huge difference (doc/statistics.md, "One run a
 * side: common sense for huge differences"). One run a side and no
 * model of the host's noise: noise_compare() has no degree of freedom
 * and decides nothing, however large the difference. But some
 * differences no run-to-run noise of a fixed amount of work makes: the
 * median iteration took NOISE_HUGE_RATIO times as long (or 1/that)
 * and used NOISE_HUGE_RATIO times the CPU time (user + system)
 * as well - the work itself changed, not the waiting for a CPU, which
 * a neighbour's load or a slower minute of the host stretches without
 * adding CPU time. a, b: the headline's iterations of each run (lower
 * is better: a duration of fixed work; dir BETTER_HIGHER never
 * decides, its run time being fixed), ca, cb: each iteration's CPU
 * time. When all of that holds (each side CMP_MIN_SAMPLES iterations
 * at least) and the change reaches o->threshold, r (from
 * noise_compare()) becomes improved or regressed, r->huge set, r->why
 * saying so; returns whether it did.
 */
#define NOISE_HUGE_RATIO 2.0
/*
 * ... but not when other processes used more than this % of the time
 * of the CPUs it may use while either run ran (the run's others_during_run): a neighbour
 * that keeps the CPUs busy stretches a workload's CPU time too (more
 * switches, colder caches: messaging's doubled beside a parallel
 * build), so the premise fails. The caller checks it (compare/
 * runs_unit.c); the verdict then stays inconclusive and says why.
 */
#define NOISE_HUGE_OTHERS_MAX 25.0
/*
 * ... nor when either side's median iteration used less CPU time than
 * this (seconds): a few ms of CPU are mostly the start of a process
 * (fork, exec, page faults), which alone differs more than twice
 * between runs - A/A runs of /bin/true, 1.1-2.5 ms of CPU an iteration,
 * met the rule in 52 of 2990 pairs; none of 2490 pairs at 4.7-21 ms
 * did (doc/statistics.md). r->why then says so.
 */
#define NOISE_HUGE_CPU_MIN_S 0.010
bool noise_huge(const double *a, size_t na, const double *ca, size_t nca,
		const double *b, size_t nb, const double *cb, size_t ncb,
		enum better dir, const struct cmp_opts *o, struct cmp_result *r);

/*
 * The smallest margin X in percent that a difference of log means diff
 * with standard error se at df degrees of freedom rules out by
 * equivalence at alpha (two one-sided tests, Schuirmann 1987: the
 * 1 - 2 alpha interval within -X..+X in mmtests' percent): NAN when
 * df < 1 or se is undefined.
 */
double noise_rules_out(double diff, double se, double df, double alpha);

/*
 * The fewest runs a side (1..NOISE_MAX_RUNS) with which an unchanged
 * state is concluded "no change beyond margin%" with NOISE_POWER: runs
 * of sd s, df0 degrees of freedom besides the runs' own (2r - 2); the
 * TOST's sample size at a true difference of 0, (t(1 - alpha, df) +
 * t(1 - (1 - power) / 2, df)) s sqrt(2 / r) <= log(1 + margin / 100).
 * 0 when none. A campaign that wants "no change beyond X%" plans its
 * boots with it (noise_mde() and noise_runs_needed() plan a detection).
 */
unsigned noise_runs_equivalence(double s, double df0, double margin,
				double alpha);

/*
 * What a campaign (boots as runs) plans from a host's model m at iters
 * iterations a run, each look at alpha / looks (its Bonferroni share):
 * per state, the boots that detect effect% with NOISE_POWER
 * (noise_runs_needed()) and those that conclude "no change beyond
 * effect%" of an unchanged state (noise_runs_equivalence()); boots the
 * larger, the one count that answers either way - 2 boots for two
 * states is a --max-boots default. 0 in a field: more than
 * NOISE_MAX_RUNS (boots then 0 too). Not yet called by src/campaign/.
 */
struct noise_boot_plan {
	unsigned detect, no_change, boots;
};
void noise_plan_boots(const struct noise_model *m, double iters, double effect,
		      double alpha, unsigned looks, struct noise_boot_plan *p);

/*
 * Whether n iterations of spread cv (the run's robust CoeffVar, a
 * fraction) already pin its median more tightly than the run's own
 * offset moves it: sqrt(pi/2) cv / sqrt(n) <= m->offset. More
 * iterations then buy nothing a comparison between runs can use; more
 * runs do (doc/statistics.md). false when the model has no offset.
 */
bool noise_iterations_enough(const struct noise_model *m, double cv, double n);
/* That precision, sqrt(pi/2) cv / sqrt(n); NAN when undefined. */
double noise_median_precision(double cv, double n);
/* The robust CoeffVar of x[0..n): 1.4826 MAD / median (sd / median when
 * the MAD is 0); NAN below 3 values or a median <= 0. */
double noise_robust_cv(const double *x, size_t n);

/*
 * The smallest effect in percent (a ratio of medians, 100 (e^x - 1))
 * that ra and rb runs of sd s with df degrees of freedom detect with
 * NOISE_POWER at two-sided alpha: (t(1-alpha/2) + t(power)) s
 * sqrt(1/ra + 1/rb). NAN when df < 1.
 */
double noise_mde(double s, double df, size_t ra, size_t rb, double alpha);

/*
 * The fewest runs a side (1..NOISE_MAX_RUNS) whose noise_mde() is at
 * most effect percent, runs of sd s, df0 degrees of freedom besides
 * those the runs bring (2r - 2); 0 when none.
 */
unsigned noise_runs_needed(double s, double df0, double effect, double alpha);

#endif
