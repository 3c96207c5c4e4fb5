// SPDX-License-Identifier: GPL-2.0-only
/*
 * changepoint: E-Divisive means over one series (changepoint.h says
 * what it promises; doc/statistics.md why this method and how well it
 * does on this machine's noise).
 *
 * The statistic (Matteson and James 2014, with the exponent 1): for a
 * segment split into X = x[0..m) and Y = x[m..m+n),
 *
 *	E = 2/(mn) sum|X_i - Y_j| - sum_{i<k}|X_i - X_k| / C(m,2)
 *	                          - sum_{j<k}|Y_j - Y_k| / C(n,2)
 *	Q = mn/(m+n) * E
 *
 * and the candidate of a segment is the split with the largest Q, with
 * at least min_size values a side (2 at least: C(1,2) is 0). Only the
 * split point is searched, the right side running to the segment's end
 * (the paper's second index kappa fixed at the end; the hierarchical
 * search splits the right side again).
 *
 * Every split is scored in O(L log L) for a segment of L values, not by
 * summing pairs for each split (O(L^3)) nor even O(L^2): with
 * D(t) = sum_{i<t}|x_i - x_t| and S(t) = sum_j |x_t - x_j|, the sums over
 * pairs within the left side are a running sum of D, those within the
 * right side a running sum of S - D from the end, and the sum across is
 * the total less both. S depends only on x_t and the segment's values
 * (it is the same under every permutation), so it comes from one sort;
 * D comes from a Fenwick tree over the values' ranks, holding the count
 * and the sum of the values seen so far below each rank.
 *
 * Significance: the segment's values are shuffled (splitmix64 from a
 * seed of the options and the segment's bounds, so a segment gets the
 * same answer whatever was found elsewhere) and the best Q of each
 * shuffle compared with the one observed; p = (1 + #{Q* >= Q}) /
 * (1 + shuffles). The shuffling stops early once so many shuffles have
 * reached Q that p could no longer fall to alpha (Besag and Clifford's
 * sequential test with h = that count, which gives the decision the full
 * test would): a segment without a step costs a few shuffles, not all.
 *
 * The search is hierarchical: the whole series is one segment; a
 * significant candidate splits its segment in two, each searched the
 * same way; a segment whose candidate is not significant, or that is
 * too short to split, is final. Candidates are taken strongest first,
 * which only matters with max_points. A series without a step is a
 * false alarm only if the first test is, so at most alpha of them are.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/summary.h"
#include "stats/tests.h"
#include "util.h"

#define CP_ALPHA 0.05
#define CP_PERMUTATIONS 199
#define CP_MIN_SIZE 5
#define CP_SEED 0x6368616e6765ULL	/* "change" */
#define CP_CONF 0.95

struct cp_opts {
	double alpha;
	unsigned perms, min_size, max_points;
	uint64_t seed;
};

static void resolve(const struct cp_options *o, struct cp_opts *r)
{
	static const struct cp_options none;

	if (!o)
		o = &none;
	r->alpha = o->alpha ? o->alpha : CP_ALPHA;
	/*
	 * Enough shuffles that 10 of them may reach the observed Q at
	 * p <= alpha: 199 at 0.05, 999 at 0.01; a p is never below
	 * 1 / (1 + shuffles).
	 */
	r->perms = o->permutations;
	if (!r->perms) {
		double need = ceil(10 / r->alpha) - 1;

		r->perms = need > CP_PERMUTATIONS ? (unsigned)fmin(need, 1e6) :
						     CP_PERMUTATIONS;
	}
	r->min_size = o->min_size ? o->min_size : CP_MIN_SIZE;
	if (r->min_size < 2)
		r->min_size = 2;
	r->max_points = o->max_points;
	r->seed = o->seed ? o->seed : CP_SEED;
}

const char *cp_why(const double *x, size_t n, const struct cp_options *o)
{
	struct cp_opts r;

	resolve(o, &r);
	if (!(r.alpha > 0 && r.alpha < 1))
		return "the significance alpha must be between 0 and 1";
	if (n < 2 * (size_t)r.min_size)
		return "too few values: a change point needs twice the minimum segment size";
	if (!x)
		return "no values";
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return "a value is not a finite number (NaN or infinite)";
	return NULL;
}

/* splitmix64, as tests.c's bootstrap uses: small and the same everywhere */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t draw(uint64_t *s, size_t n)
{
	return (size_t)(((unsigned __int128)next_rand(s) * n) >> 64);
}

/* What scoring one segment of up to n values needs, allocated once. */
struct work {
	double *asc;		/* the segment's values ascending, less the min */
	double *s;		/* S of each rank */
	size_t *rank;		/* rank of each position (ties by position) */
	size_t *perm;		/* ranks in shuffled order */
	double *d;		/* D of each position */
	double *fsum;		/* Fenwick tree: sums of the values seen */
	size_t *fcnt;		/* and their counts */
	size_t *order;		/* for ranking */
};

static void work_init(struct work *w, size_t n)
{
	w->asc = xcalloc(n, sizeof(*w->asc));
	w->s = xcalloc(n, sizeof(*w->s));
	w->rank = xcalloc(n, sizeof(*w->rank));
	w->perm = xcalloc(n, sizeof(*w->perm));
	w->d = xcalloc(n, sizeof(*w->d));
	w->fsum = xcalloc(n + 1, sizeof(*w->fsum));
	w->fcnt = xcalloc(n + 1, sizeof(*w->fcnt));
	w->order = xcalloc(n, sizeof(*w->order));
}

static void work_free(struct work *w)
{
	free(w->asc);
	free(w->s);
	free(w->rank);
	free(w->perm);
	free(w->d);
	free(w->fsum);
	free(w->fcnt);
	free(w->order);
}

/* qsort_r's comparison: positions by value, ties by position */
static int by_value(const void *a, const void *b, void *arg)
{
	const double *x = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (x[i] != x[j])
		return x[i] < x[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Ranks x[0..L) into w: rank, asc and s. */
static void rank_segment(const double *x, size_t L, struct work *w)
{
	double lo, total = 0, below = 0;

	for (size_t i = 0; i < L; i++)
		w->order[i] = i;
	qsort_r(w->order, L, sizeof(*w->order), by_value, (void *)x);
	/*
	 * Less the smallest value: the statistic only sees differences,
	 * and small magnitudes keep the running sums' rounding small.
	 */
	lo = x[w->order[0]];
	for (size_t r = 0; r < L; r++) {
		w->rank[w->order[r]] = r;
		w->asc[r] = x[w->order[r]] - lo;
		total += w->asc[r];
	}
	for (size_t r = 0; r < L; r++) {
		double v = w->asc[r];

		/* r values at or below, L - 1 - r at or above */
		w->s[r] = v * r - below + (total - below - v) - v * (L - 1 - r);
		below += v;
	}
}

/*
 * The best split of the segment whose values, in order, have the ranks
 * rk[0..L): its Q, and in *tau the size of the left side.
 */
static double best_split(const size_t *rk, size_t L, unsigned min,
			 struct work *w, size_t *tau)
{
	double seen_sum = 0, wl = 0, wr = 0, all = 0, best = -HUGE_VAL;
	size_t i;

	/* Q is negative where the sides look more alike than chance */
	*tau = min;
	memset(w->fsum, 0, (L + 1) * sizeof(*w->fsum));
	memset(w->fcnt, 0, (L + 1) * sizeof(*w->fcnt));
	for (size_t t = 0; t < L; t++) {
		size_t r = rk[t], c_lo = 0;
		double s_lo = 0, v = w->asc[r];

		for (i = r; i; i &= i - 1) {	/* ranks below r */
			s_lo += w->fsum[i];
			c_lo += w->fcnt[i];
		}
		/* seen: t values, c_lo below v, t - c_lo above */
		w->d[t] = v * c_lo - s_lo + (seen_sum - s_lo) - v * (t - c_lo);
		seen_sum += v;
		all += w->d[t];
		for (i = r + 1; i <= L; i += i & -i) {
			w->fsum[i] += v;
			w->fcnt[i]++;
		}
	}
	/* wr over [tau, L) built from the end, wl over [0, tau) from the start */
	for (size_t t = min; t < L; t++)
		wr += w->s[rk[t]] - w->d[t];
	for (size_t t = 0; t < min; t++)
		wl += w->d[t];
	for (size_t k = min; k + min <= L; k++) {
		double m = (double)k, n = (double)(L - k), cross, e, q;

		if (k > min) {
			wl += w->d[k - 1];
			wr -= w->s[rk[k - 1]] - w->d[k - 1];
		}
		cross = all - wl - wr;
		e = 2 * cross / (m * n) - 2 * wl / (m * (m - 1)) -
		    2 * wr / (n * (n - 1));
		q = m * n / (m + n) * e;
		if (q > best) {
			best = q;
			*tau = k;
		}
	}
	return best;
}

struct segment {
	size_t from, to;	/* [from, to) */
	size_t tau;		/* candidate: the first index of the right side */
	double q;
	bool final;
};

/* Scores segment [from, to) of x: its candidate, or final when too short. */
static void score(const double *x, struct segment *g, unsigned min,
		  struct work *w)
{
	size_t L = g->to - g->from, tau = 0;

	g->final = L < 2 * (size_t)min;
	if (g->final)
		return;
	rank_segment(x + g->from, L, w);
	g->q = best_split(w->rank, L, min, w, &tau);
	g->tau = g->from + tau;
}

/*
 * The permutation test of g's candidate: p, or a value above alpha once
 * the test can no longer find it significant.
 */
static double perm_test(const double *x, const struct segment *g,
			const struct cp_opts *o, struct work *w)
{
	size_t L = g->to - g->from, tau;
	uint64_t s = o->seed ^ (g->from * 0xd1b54a32d192ed03ULL) ^
		     (g->to * 0x8cb92ba72f3d8dd7ULL);
	/* p <= alpha needs 1 + reached <= alpha * (1 + perms) */
	double limit = o->alpha * (1.0 + o->perms) - 1;
	/* a shuffle that ties the observed Q counts: rounding aside */
	double q_obs = g->q - 1e-12 * fabs(g->q);
	unsigned reached = 0, done;

	rank_segment(x + g->from, L, w);
	memcpy(w->perm, w->rank, L * sizeof(*w->perm));
	for (done = 0; done < o->perms; done++) {
		for (size_t i = L - 1; i > 0; i--) {
			size_t j = draw(&s, i + 1), t = w->perm[i];

			w->perm[i] = w->perm[j];
			w->perm[j] = t;
		}
		if (best_split(w->perm, L, o->min_size, w, &tau) >= q_obs &&
		    ++reached > limit)
			/* Besag and Clifford: h shuffles reached it in done + 1 */
			return (double)reached / (done + 1);
	}
	return (1.0 + reached) / (1.0 + o->perms);
}

static int by_index(const void *a, const void *b)
{
	size_t i = ((const struct cp_point *)a)->index;
	size_t j = ((const struct cp_point *)b)->index;

	return i < j ? -1 : i > j;
}

/* The levels on either side of each point and the change between them. */
static void levels(const double *x, size_t n, struct cp_point *pt,
		   size_t np, uint64_t seed)
{
	for (size_t k = 0; k < np; k++) {
		struct cp_point *c = &pt[k];
		const double *a, *b;
		struct boot_ci ci;
		size_t na, nb;

		c->before_from = k ? pt[k - 1].index : 0;
		c->after_to = k + 1 < np ? pt[k + 1].index : n;
		a = x + c->before_from;
		na = c->index - c->before_from;
		b = x + c->index;
		nb = c->after_to - c->index;
		stats_median(a, na, &c->before);
		stats_median(b, nb, &c->after);
		c->change_pct = stats_pct_diff(c->before, c->after);
		c->lo_pct = c->hi_pct = NAN;
		if (c->before == 0 ||
		    stats_bootstrap_ratio(a, na, b, nb, BOOT_MEDIAN,
					  BOOT_RESAMPLES, CP_CONF,
					  seed ^ c->index, &ci))
			continue;
		/* (after - before) / |before| = sign(before) * (ratio - 1) */
		if (c->before > 0) {
			c->lo_pct = 100 * (ci.lo - 1);
			c->hi_pct = 100 * (ci.hi - 1);
		} else {
			c->lo_pct = -100 * (ci.hi - 1);
			c->hi_pct = -100 * (ci.lo - 1);
		}
	}
}

int changepoints(const double *x, size_t n, const struct cp_options *opt,
		 struct cp_point **out, size_t *nout)
{
	struct segment *seg;
	struct cp_point *pt;
	size_t nseg = 1, np = 0;
	struct cp_opts o;
	struct work w;

	*out = NULL;
	*nout = 0;
	if (cp_why(x, n, opt))
		return -1;
	resolve(opt, &o);
	/* every point adds a segment; there are at most n / min_size */
	seg = xcalloc(n / o.min_size + 1, sizeof(*seg));
	pt = xcalloc(n / o.min_size + 1, sizeof(*pt));
	work_init(&w, n);
	seg[0] = (struct segment){ .from = 0, .to = n };
	score(x, &seg[0], o.min_size, &w);
	while (!o.max_points || np < o.max_points) {
		struct segment *g = NULL;
		double p;

		for (size_t i = 0; i < nseg; i++)
			if (!seg[i].final && (!g || seg[i].q > g->q))
				g = &seg[i];
		if (!g)
			break;
		p = perm_test(x, g, &o, &w);
		if (!(p <= o.alpha)) {
			g->final = true;
			continue;
		}
		pt[np++] = (struct cp_point){ .index = g->tau, .p = p,
					      .stat = g->q };
		seg[nseg] = (struct segment){ .from = g->tau, .to = g->to };
		g->to = g->tau;
		score(x, g, o.min_size, &w);
		score(x, &seg[nseg++], o.min_size, &w);
	}
	work_free(&w);
	free(seg);
	if (!np) {
		free(pt);
		return 0;
	}
	qsort(pt, np, sizeof(*pt), by_index);
	levels(x, n, pt, np, o.seed);
	*out = pt;
	*nout = np;
	return 0;
}
