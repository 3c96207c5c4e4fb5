/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * changepoint: where a series of results stepped, without anyone
 * choosing the pair to compare. A pure function over an array of
 * doubles, in the manner of summary.h and tests.h (no I/O, no global
 * state, input never modified, the same answer every time for the same
 * input and options).
 *
 * The method is E-Divisive means (Matteson and James, "A Nonparametric
 * Approach for Multiple Change Point Analysis of Multivariate Data",
 * JASA 2014): the split that maximises the energy distance between the
 * two sides is a candidate; a permutation test (from a fixed seed) says
 * whether it is significant; the segments on either side are searched
 * the same way, hierarchically, until a candidate is not significant.
 * doc/statistics.md gives the choice, the references and the measured
 * detection and false-alarm rates.
 *
 * Each series value is one run (its median over iterations, say): the
 * runs are the independent units, not the iterations within one.
 */
#ifndef SCHEDLAB_STATS_CHANGEPOINT_H
#define SCHEDLAB_STATS_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct cp_options {
	double alpha;		/* significance of each point; 0: 0.05 */
	unsigned permutations;	/* per candidate; 0: 199, or 10/alpha - 1 for
				 * an alpha below 0.05 (999 at 0.01) */
	unsigned min_size;	/* fewest values a segment may have; 0: 5 (1 is taken as 2) */
	unsigned max_points;	/* most change points; 0: no limit */
	uint64_t seed;		/* of the permutations; 0: a fixed default */
};

struct cp_point {
	size_t index;		/* first value of the new level: the step lies
				 * between x[index - 1] and x[index] */
	double p;		/* the permutation test's p of this point */
	double stat;		/* its energy statistic */
	/* the segments on either side, bounded by the neighbouring points */
	size_t before_from, after_to;	/* [before_from, index), [index, after_to) */
	double before, after;	/* their medians */
	double change_pct;	/* 100 * (after - before) / |before| */
	double lo_pct, hi_pct;	/* its 95% interval (percentile bootstrap of
				 * the ratio of medians, fixed seed) */
};

/*
 * The change points of x[0..n), in increasing index order, into *out
 * (*nout of them; free() *out; NULL and 0 when none). -1 (nothing
 * allocated) when n is too short to have one (n < 2 * min_size), x has
 * a value that is not finite, or alpha is not in (0, 1); cp_why() says
 * which.
 */
int changepoints(const double *x, size_t n, const struct cp_options *o,
		 struct cp_point **out, size_t *nout);

/* Why changepoints() refused x, in words; NULL when it would not. */
const char *cp_why(const double *x, size_t n, const struct cp_options *o);

#endif
