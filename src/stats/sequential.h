/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sequential: decisions taken while the samples are still coming -
 * adaptive iteration counts that keep their error rates however often
 * the data is looked at. Pure functions, like the rest of src/stats/.
 *
 * The design (doc/statistics.md, "Adaptive iterations", has the reasons
 * and the measured error rates): an adaptive case is looked at after
 * `min` iterations and then each time the count has grown by half
 * (ceil(1.5 n)), and at `max`: min = 5, max = 30 gives the looks
 * 5 8 12 18 27 30. Every look tests at alpha / K, K the number of looks
 * (Bonferroni over the looks), so the chance that any look raises a
 * false alarm is at most alpha whatever the correlation between looks
 * and whenever the sampling stops: the union bound needs no model of
 * the sequence. Geometric spacing keeps K small (6 for 5..30), which is
 * what the bound charges for.
 */
#ifndef SCHEDLAB_STATS_SEQUENTIAL_H
#define SCHEDLAB_STATS_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

/* The looks of an adaptive case with min..max iterations (1 <= min <= max). */
unsigned seq_nlooks(unsigned min, unsigned max);
bool seq_is_look(unsigned n, unsigned min, unsigned max);

/* The level every look tests at: alpha / seq_nlooks(min, max). */
double seq_alpha(double alpha, unsigned min, unsigned max);

/*
 * The same for a sign test (seq_classify()): a look with too few
 * samples for the sign test to reject at all cannot raise an alarm and
 * costs nothing, so the level is alpha / k for the smallest k at least
 * the number of looks that can reject at alpha / k (5..30 at 0.01: the
 * looks 12 18 27 30, each at 0.0025).
 */
double seq_alpha_sign(double alpha, unsigned min, unsigned max);

/*
 * The distribution-free interval of the median of x (n samples, finite)
 * from the sign test: [x(k), x(n+1-k)] of the sorted samples with the
 * largest k such that 2 P(Binomial(n, 1/2) <= k - 1) <= 1 - conf; its
 * coverage is at least conf for any continuous distribution. -1 when n
 * is too small for any such k (no interval at this confidence).
 */
int stats_median_ci(const double *x, size_t n, double conf, double *lo,
		    double *hi);

/*
 * Whether a run's case is precise enough to decide a later comparison
 * at threshold_pct: the 95% interval of its median within
 * +-threshold_pct / 2 of the median. why says so, or what is missing.
 */
bool seq_precise(const double *x, size_t n, double threshold_pct,
		 char *why, size_t len);

/*
 * Does x differ from y, measured in pairs (x_i and y_i in round i, run
 * side by side)? The Mann-Whitney rank sum of x among all 2n values,
 * against its distribution when each round's pair is swapped or not at
 * random: the within-round permutation test, exact (by enumerating the
 * 2^k swaps' sums, k the rounds without a tie) whenever x_i and y_i are
 * exchangeable in each round - however the machine drifted between
 * rounds, and whatever the noise's shape. Ranks, not differences: a
 * burst that slows one side of a round counts one rank, and the rounds
 * where neither side was disturbed (the tight cluster near the minimum
 * of timings) carry the test. Two-sided p; midranks for ties; a round
 * whose pair ties is left out. -1 when no round is left.
 */
int stats_paired_rank_sum(const double *x, const double *y, size_t n,
			  double *p);


/*
 * Bisecting between two known states: is the candidate c the good state
 * g or the bad one b? In log scale, so that changes are ratios. Paired
 * (rounds that ran good, candidate and bad side by side: element i of
 * each from round i), with stats_paired_rank_sum(): when the candidate
 * is the good state, c_i and g_i are exchangeable within round i
 * whatever the machine did then - the test is exact without a model of
 * the noise or the drift. Unpaired (stored references), Mann-Whitney
 * between the samples.
 *
 * bad: c differs from g toward b at alpha; good: c differs from b
 * toward g at alpha (both: the nearer, by pos); both tests two-sided.
 * When the candidate is exactly the good state, calling it bad needs
 * the first test to reject a true null: at most alpha at one look -
 * and likewise for the bad state. No decision unless g and b differ
 * (the same test between them, at alpha_refs: a gate against
 * references that are the same program, not part of the guarantee,
 * so that it may use the unadjusted level).
 *
 * pos places the candidate on the line from good (0) to bad (1): 1/2 +
 * the median of t_i / |log(b/g)|, t_i = s (log c_i - (log g_i + log b_i)
 * / 2) (paired; unpaired from the midpoint of the references' median
 * logs), s the direction from good to bad; lo, hi from the sign-test
 * 95% interval of that median (NAN when undefined).
 */
enum seq_decision { SEQ_UNDECIDED, SEQ_GOOD, SEQ_BAD };
extern const char *const seq_decision_names[];	/* "undecided", "good", "bad" */

struct seq_class {
	enum seq_decision decision;
	size_t n;		/* candidate samples (rounds when paired) */
	double pos, lo, hi;	/* 0 good, 1 bad */
	double ref_pct;		/* 100 * (b/g - 1) of the references' medians */
	bool refs_differ;
	char why[160];
};

/* -1 when a side has no positive finite sample (logs are undefined). */
int seq_classify(const double *c, size_t nc, const double *g, size_t ng,
		 const double *b, size_t nb, bool paired, double alpha,
		 double alpha_refs, struct seq_class *r);

#endif
