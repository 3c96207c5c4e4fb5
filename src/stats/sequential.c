// SPDX-License-Identifier: GPL-2.0-only
#include "stats/cdf.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/sequential.h"
#include "stats/summary.h"
#include "stats/tests.h"
#include "util.h"

const char *const seq_decision_names[] = { "undecided", "good", "bad", NULL };

static unsigned grow(unsigned n)
{
	unsigned next = n + (n + 1) / 2;	/* ceil(1.5 n) */

	return next > n ? next : n + 1;
}

unsigned seq_nlooks(unsigned min, unsigned max)
{
	unsigned k = 1;

	if (min < 1)
		min = 1;
	for (unsigned n = min; n < max; n = grow(n))
		k++;
	return k;
}

bool seq_is_look(unsigned n, unsigned min, unsigned max)
{
	if (n == max)
		return true;
	for (unsigned l = min < 1 ? 1 : min; l < max && l <= n; l = grow(l))
		if (l == n)
			return true;
	return false;
}

double seq_alpha(double alpha, unsigned min, unsigned max)
{
	return alpha / seq_nlooks(min, max);
}

/* The fewest samples with which the sign test can reject at level a. */
static unsigned sign_min_n(double a)
{
	unsigned n = 1;

	while (2 * pow(0.5, n) > a)
		n++;
	return n;
}

double seq_alpha_sign(double alpha, unsigned min, unsigned max)
{
	unsigned k_all = seq_nlooks(min, max);

	for (unsigned k = 1; k < k_all; k++) {
		unsigned nmin = sign_min_n(alpha / k), able = 0;

		for (unsigned n = min < 1 ? 1 : min;; n = grow(n)) {
			if (n >= max) {
				able += max >= nmin;
				break;
			}
			able += n >= nmin;
		}
		if (able <= k)
			return alpha / k;
	}
	return alpha / k_all;
}

/* The sign test's k for n samples at 1 - conf (two-sided); 0: none. */
static size_t sign_k(size_t n, double conf)
{
	double a = 1 - conf;
	size_t k = 0;

	/* P(B <= k - 1) grows with k: the largest k with 2 P <= a */
	while (k + 1 <= (n + 1) / 2 &&
	       2 * gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n) <= a)
		k++;
	return k;
}

int stats_median_ci(const double *x, size_t n, double conf, double *lo,
		    double *hi)
{
	size_t k = n ? sign_k(n, conf) : 0;
	double *s;

	if (!k)
		return -1;
	s = xmalloc(n * sizeof(*s));
	for (size_t i = 0; i < n; i++)
		s[i] = x[i];
	stats_sort(s, n);
	*lo = s[k - 1];
	*hi = s[n - k];
	free(s);
	return 0;
}

bool seq_precise(const double *x, size_t n, double threshold_pct,
		 char *why, size_t len)
{
	double lo, hi, med, half = threshold_pct / 2;

	if (stats_median(x, n, &med) || stats_median_ci(x, n, 0.95, &lo, &hi)) {
		snprintf(why, len, "too few iterations for a 95%% interval of the median");
		return false;
	}
	if (!(med > 0) && !(med < 0)) {
		snprintf(why, len, "a median of 0 has no relative interval");
		return false;
	}
	lo = 100 * (lo / med - 1);
	hi = 100 * (hi / med - 1);
	if (med < 0) {
		double t = lo;

		lo = -hi;
		hi = -t;
	}
	snprintf(why, len, "95%% interval of the median %+.1f%%..%+.1f%%, %s +-%.3g%%",
		 lo, hi, lo >= -half && hi <= half ? "within" : "not yet within",
		 half);
	return lo >= -half && hi <= half;
}

/*
 * The exact null distribution of W+ for the (doubled, so integer)
 * ranks r[0..n): the count of the 2^n sign assignments giving each
 * sum, as doubles (n <= 60 keeps 2^n exact enough).
 */
static double *signed_rank_counts(const unsigned *r, size_t n, unsigned total)
{
	double *f = xcalloc(total + 1, sizeof(*f));

	f[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (unsigned w = total; w >= r[i]; w--) {
			f[w] += f[w - r[i]];
			if (w == r[i])
				break;
		}
	return f;
}

/* Pooled values with their owner's round, for ranking. */
struct pooled {
	double v;
	size_t round;
	bool is_x;
};

static int cmp_pooled(const void *a, const void *b)
{
	double x = ((const struct pooled *)a)->v, y = ((const struct pooled *)b)->v;

	return (x > y) - (x < y);
}

int stats_paired_rank_sum(const double *x, const double *y, size_t n0,
			  double *p)
{
	struct pooled *pv = xmalloc((2 * n0 + 1) * sizeof(*pv));
	unsigned *rx = xmalloc((n0 + 1) * sizeof(*rx));
	unsigned *ry = xmalloc((n0 + 1) * sizeof(*ry));
	unsigned *d = xmalloc((n0 + 1) * sizeof(*d)), total = 0, w = 0;
	size_t n = 0, m = 0, k = 0;
	double *f, all, lo = 0, hi = 0;

	for (size_t i = 0; i < n0; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			pv[m++] = (struct pooled){ x[i], n, true };
			pv[m++] = (struct pooled){ y[i], n, false };
			n++;
		}
	qsort(pv, m, sizeof(*pv), cmp_pooled);
	for (size_t i = 0; i < m;) {
		size_t j = i;

		while (j + 1 < m && pv[j + 1].v == pv[i].v)
			j++;
		for (size_t q = i; q <= j; q++)	/* 2 x the midrank */
			(pv[q].is_x ? rx : ry)[pv[q].round] = (unsigned)(i + j + 2);
		i = j + 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (rx[i] == ry[i])
			continue;	/* a tie within the round: no information */
		d[k] = rx[i] > ry[i] ? rx[i] - ry[i] : ry[i] - rx[i];
		total += d[k];
		if (rx[i] > ry[i])
			w += d[k];
		k++;
	}
	free(pv);
	free(rx);
	free(ry);
	if (!k) {
		free(d);
		return -1;
	}
	/* exact: each round's pair swapped or not, 2^k assignments */
	f = signed_rank_counts(d, k, total);
	all = ldexp(1, (int)k);
	for (unsigned v = 0; v <= total; v++) {
		if (v <= w)
			lo += f[v];
		if (v >= w)
			hi += f[v];
	}
	*p = 2 * (lo < hi ? lo : hi) / all;
	if (*p > 1)
		*p = 1;
	free(f);
	free(d);
	return 0;
}

static double median_of(const double *x, size_t n)
{
	double m = NAN;

	stats_median(x, n, &m);
	return m;
}

/* The positive finite logs of x; returns how many. */
static size_t logs(const double *x, size_t n, double *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && x[i] > 0)
			out[m++] = log(x[i]);
	return m;
}


/*
 * Whether c differs from ref toward side (+1: c above ref, -1: below)
 * at alpha: paired, the within-round permutation test of the rank sum;
 * unpaired, Mann-Whitney. Both two-sided, so that the direction, read
 * from the same data, cannot spend more than alpha / 2.
 */
static bool moved(const double *c, const double *ref, size_t n, size_t nref,
		  bool paired, int side, double alpha)
{
	double *d, p, med;
	struct mwu u;
	bool r;

	if (!paired) {
		if (stats_mann_whitney(ref, nref, c, n, &u) || !(u.p < alpha))
			return false;
		return side > 0 ? median_of(c, n) > median_of(ref, nref) :
				  median_of(c, n) < median_of(ref, nref);
	}
	d = xmalloc((n + 1) * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = c[i] - ref[i];
	med = median_of(d, n);
	r = !stats_paired_rank_sum(c, ref, n, &p) && p < alpha &&
	    (side > 0 ? med > 0 : med < 0);
	free(d);
	return r;
}

/* The logs of the build's and references' samples a decision looks at. */
struct seq_logs {
	double *lc, *lg, *lb;	/* the build's, good's, bad's */
	double *t;		/* scratch */
	size_t n, mg, mb;	/* how many of each */
	double delta;		/* log bad - log good, their medians' */
};

/*
 * Takes the logs of c, g and b: paired, of the rounds where all three
 * have a sample; else of each's positive samples. Returns -1 where one
 * has none.
 */
static int seq_logs(struct seq_logs *l, const double *c, size_t nc,
		    const double *g, size_t ng, const double *b, size_t nb,
		    bool paired)
{
	if (!paired) {
		l->mg = logs(g, ng, l->lg);
		l->mb = logs(b, nb, l->lb);
		l->n = logs(c, nc, l->lc);
		if (!l->n || !l->mg || !l->mb)
			return -1;
		l->delta = median_of(l->lb, l->mb) - median_of(l->lg, l->mg);
		return 0;
	}
	for (size_t i = 0; i < nc && i < ng && i < nb; i++)
		if (isfinite(c[i]) && c[i] > 0 && isfinite(g[i]) &&
		    g[i] > 0 && isfinite(b[i]) && b[i] > 0) {
			l->lc[l->n] = log(c[i]);
			l->lg[l->n] = log(g[i]);
			l->lb[l->n] = log(b[i]);
			l->t[l->n] = l->lb[l->n] - l->lg[l->n];
			l->n++;
		}
	l->mg = l->mb = l->n;
	if (!l->n)
		return -1;
	l->delta = median_of(l->t, l->n);
	return 0;
}

/* Where the build sits between good (0) and bad (1), with its 95% interval. */
static void seq_position(struct seq_class *r, struct seq_logs *l, bool paired,
			 double s)
{
	double mid, tmed, tlo, thi;
	bool have_ci;

	/* the rounds' (or medians') offsets from the midpoint */
	mid = paired ? 0 : (median_of(l->lg, l->mg) + median_of(l->lb, l->mb)) / 2;
	for (size_t i = 0; i < l->n; i++)
		l->t[i] = s * (l->lc[i] - (paired ? (l->lg[i] + l->lb[i]) / 2 : mid));
	tmed = median_of(l->t, l->n);
	have_ci = !stats_median_ci(l->t, l->n, 0.95, &tlo, &thi);
	if (fabs(l->delta) > 0) {
		r->pos = 0.5 + tmed / fabs(l->delta);
		if (have_ci) {
			r->lo = 0.5 + tlo / fabs(l->delta);
			r->hi = 0.5 + thi / fabs(l->delta);
		}
	}
}

int seq_classify(const double *c, size_t nc, const double *g, size_t ng,
		 const double *b, size_t nb, bool paired, double alpha,
		 double alpha_refs, struct seq_class *r)
{
	size_t most = nc > ng ? nc : ng, n;
	struct seq_logs l = { 0 };
	bool bad, good;
	double s;
	int rc = -1;

	most = most > nb ? most : nb;
	l.lc = xmalloc((most + 1) * sizeof(double));
	l.lg = xmalloc((most + 1) * sizeof(double));
	l.lb = xmalloc((most + 1) * sizeof(double));
	l.t = xmalloc((most + 1) * sizeof(double));
	*r = (struct seq_class){ .decision = SEQ_UNDECIDED, .pos = NAN,
				 .lo = NAN, .hi = NAN, .ref_pct = NAN };
	if (seq_logs(&l, c, nc, g, ng, b, nb, paired))
		goto out;
	rc = 0;
	n = l.n;
	s = l.delta < 0 ? -1 : 1;
	r->n = n;
	r->ref_pct = 100 * (exp(l.delta) - 1);
	/* the references must differ, in the direction that defines bad */
	r->refs_differ = moved(l.lb, l.lg, l.mb, l.mg, paired, (int)s, alpha_refs);
	/* bad: the build moved off good toward bad; good: off bad toward good */
	bad = moved(l.lc, l.lg, n, l.mg, paired, (int)s, alpha);
	good = moved(l.lc, l.lb, n, l.mb, paired, (int)-s, alpha);
	seq_position(r, &l, paired, s);
	if (paired && n < sign_min_n(alpha)) {
		snprintf(r->why, sizeof(r->why),
			 "too few rounds for a decision at alpha %.3g (%zu of the %u needed)",
			 alpha, n, sign_min_n(alpha));
		goto out;
	}
	if (!r->refs_differ) {
		snprintf(r->why, sizeof(r->why),
			 "the good and bad references do not differ at this level (%+.1f%%, %zu %s)",
			 r->ref_pct, n, paired ? "rounds" : "iterations");
		goto out;
	}
	if (bad && good)	/* off both: between them; the nearer wins */
		r->decision = r->pos > 0.5 ? SEQ_BAD : SEQ_GOOD;
	else if (bad)
		r->decision = SEQ_BAD;
	else if (good)
		r->decision = SEQ_GOOD;
	snprintf(r->why, sizeof(r->why),
		 "%s: position %.2f (0 good, 1 bad; 95%% %.2f..%.2f), %zu %s, references %+.1f%% apart",
		 r->decision == SEQ_BAD ? (good ? "between, nearer bad" : "bad: off good toward bad") :
		 r->decision == SEQ_GOOD ? (bad ? "between, nearer good" : "good: off bad toward good") :
		 "undecided: off neither yet",
		 r->pos, r->lo, r->hi, n, paired ? "rounds" : "iterations",
		 r->ref_pct);
out:
	free(l.lc);
	free(l.lg);
	free(l.lb);
	free(l.t);
	return rc;
}
