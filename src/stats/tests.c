// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests: significance tests and bootstrap intervals; the verdict of a
 * comparison is tests_verdict.c's. See tests.h for what each function
 * promises; the reasoning behind the default is in doc/statistics.md.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/cdf.h"

#include "stats/summary.h"
#include "stats/tests.h"
#include "util.h"

const char *const stat_test_names[] = { STAT_TEST_LIST(STAT_TEST_NAME_) NULL };

const char *const verdict_names[] = {
	[V_NO_CHANGE] = "no change",
	[V_IMPROVED] = "improved",
	[V_REGRESSED] = "regressed",
	[V_INCONCLUSIVE] = "inconclusive",
};

bool stat_test_medians(enum stat_test t)
{
	return t == TEST_MWU || t == TEST_BOOT_MEDIAN;
}

const char *stat_test_change_of(enum stat_test t)
{
	return stat_test_medians(t) ? "median" : "amean";
}

static double *sorted(const double *x, size_t n)
{
	double *s = xcalloc(n + 1, sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	return s;
}

void stats_mean_var(const double *x, size_t n, double *m, double *v)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	*m = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	*v = n > 1 ? ss / (double)(n - 1) : 0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct welch *r)
{
	double ma, va, mb, vb, sa, sb, se2;

	if (na < 2 || nb < 2)
		return -1;
	stats_mean_var(a, na, &ma, &va);
	stats_mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (!(se2 > 0))
		return -1;
	r->t = (mb - ma) / sqrt(se2);
	r->df = se2 * se2 / (sa * sa / (double)(na - 1) +
			     sb * sb / (double)(nb - 1));
	r->p = 2 * gsl_cdf_tdist_Q(fabs(r->t), r->df);
	if (r->p > 1)
		r->p = 1;
	return 0;
}

/*
 * The exact null distribution of U for sizes m and n without ties: the
 * number of orderings with U = u is the coefficient of q^u in the
 * Gaussian binomial [m+n choose m]_q = prod_{j=1..m} (1 - q^(n+j)) /
 * (1 - q^j). Built one factor at a time (the partial products are the
 * polynomials [n+j choose j]_q), dividing first so that every
 * intermediate is a non-negative count; 128-bit integers hold
 * C(100, 50) ~ 1e29 exactly. Returns P(U <= u).
 */
static double mwu_exact_cdf(size_t m, size_t n, size_t u)
{
	size_t deg = m * n;
	__int128 *f = xcalloc(deg + 1, sizeof(*f));
	__int128 below = 0, total = 0;

	f[0] = 1;
	for (size_t j = 1; j <= m; j++) {
		for (size_t i = j; i <= deg; i++)
			f[i] += f[i - j];
		for (size_t i = deg; i >= n + j && i <= deg; i--)
			f[i] -= f[i - n - j];
	}
	for (size_t i = 0; i <= deg; i++) {
		total += f[i];
		if (i <= u)
			below += f[i];
	}
	free(f);
	return (double)below / (double)total;
}

int stats_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, struct mwu *r)
{
	size_t n = na + nb, i = 0;
	double *v, ranksum = 0, ties = 0, mu, sigma, z, c;
	bool *from_a;

	if (!na || !nb)
		return -1;
	/* pooled, sorted with where each value came from (a before b on ties) */
	v = xcalloc(n, sizeof(*v));
	from_a = xcalloc(n, sizeof(*from_a));
	{
		double *sa = sorted(a, na), *sb = sorted(b, nb);
		size_t x = 0, y = 0;

		while (x < na || y < nb) {
			bool take_a = y == nb || (x < na && sa[x] <= sb[y]);

			from_a[i] = take_a;
			v[i++] = take_a ? sa[x++] : sb[y++];
		}
		free(sa);
		free(sb);
	}
	/* midranks: a run of t equal values shares the mean of its ranks */
	for (i = 0; i < n;) {
		size_t j = i;

		while (j < n && v[j] == v[i])
			j++;
		for (size_t k = i; k < j; k++)
			if (from_a[k])
				ranksum += (double)(i + j + 1) / 2;
		ties += pow((double)(j - i), 3) - (double)(j - i);
		i = j;
	}
	free(v);
	free(from_a);
	r->u = ranksum - (double)na * (double)(na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	if (ties == 0 && na < MWU_EXACT_MAX && nb < MWU_EXACT_MAX) {
		size_t u = (size_t)r->u, lo = u < na * nb - u ? u : na * nb - u;

		r->exact = true;
		r->z = NAN;
		r->p = 2 * mwu_exact_cdf(na, nb, lo);
		if (r->p > 1)
			r->p = 1;
		return 0;
	}
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)(n + 1) - ties / ((double)n * (double)(n - 1))));
	if (!(sigma > 0))
		return -1;
	z = r->u - mu;
	c = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;	/* continuity */
	r->exact = false;
	r->z = (z - c) / sigma;
	r->p = 2 * fmin(gsl_cdf_ugaussian_P(r->z), gsl_cdf_ugaussian_Q(r->z));
	if (r->p > 1)
		r->p = 1;
	return 0;
}

/*
 * The two-sided p of U = u (u <= na * nb / 2) without ties, as
 * stats_mann_whitney() computes it for these sizes.
 */
static double mwu_p_at(size_t na, size_t nb, size_t u)
{
	double mu = (double)na * (double)nb / 2, sigma, z, c;

	if (!na || !nb)
		return 1;
	if (na < MWU_EXACT_MAX && nb < MWU_EXACT_MAX)
		return fmin(1, 2 * mwu_exact_cdf(na, nb, u));
	sigma = sqrt((double)na * (double)nb * (double)(na + nb + 1) / 12);
	z = (double)u - mu;
	c = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
	z = (z - c) / sigma;
	return fmin(1, 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z)));
}

double stats_mwu_min_p(size_t na, size_t nb)
{
	return mwu_p_at(na, nb, 0);
}

bool stats_can_reach(enum stat_test t, size_t na, size_t nb, double alpha)
{
	switch (t) {
	case TEST_MWU:
		return stats_mwu_min_p(na, nb) < alpha;
	case TEST_WELCH:
		return na >= 2 && nb >= 2;
	case TEST_LKP:
		return na && nb && (na >= 3 || nb >= 3);
	case TEST_BOOT_MEAN:
	case TEST_BOOT_MEDIAN:
	case TEST_BANDS:
		return na && nb;
	case TEST_N:
		break;
	}
	return false;	/* no default: a new test's case is -Wswitch's to ask for */
}

/* The smallest n >= CMP_MIN_SAMPLES whose U = u (n a side) is significant. */
static size_t smallest_n(enum stat_test t, double alpha, size_t u)
{
	for (size_t n = CMP_MIN_SAMPLES; n <= STATS_MAX_SAMPLES_ASKED; n++)
		if (t == TEST_MWU ? mwu_p_at(n, n, u) < alpha :
		    stats_can_reach(t, n, n, alpha))
			return n;
	return 0;
}

size_t stats_min_samples(enum stat_test t, double alpha)
{
	return smallest_n(t, alpha, 0);
}

size_t stats_advised_samples(enum stat_test t, double alpha)
{
	return smallest_n(t, alpha, 1);
}

/* splitmix64: small, fast, and the same sequence everywhere. */
#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ULL

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += SPLITMIX_GAMMA);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t draw(uint64_t *s, size_t n)
{
	return (size_t)(((unsigned __int128)next_rand(s) * n) >> 64);
}

/*
 * The statistic of one resample of asc[0..n) (ascending). For the
 * median the draws are counted per index and the middle found by
 * walking the counts: O(n), no sort per resample.
 */
static double resample(const double *asc, size_t n, enum boot_stat stat,
		       uint64_t *seed, unsigned *count)
{
	size_t lo = (n - 1) / 2, hi = n / 2, seen, i;
	double sum = 0, mlo;

	if (stat == BOOT_MEAN) {
		for (i = 0; i < n; i++)
			sum += asc[draw(seed, n)];
		return sum / (double)n;
	}
	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[draw(seed, n)]++;
	/* the first index where the running count passes lo, then hi */
	i = 0;
	seen = count[0];
	while (seen <= lo)
		seen += count[++i];
	mlo = asc[i];
	while (seen <= hi)
		seen += count[++i];
	return (mlo + asc[i]) / 2;
}

static double center(const double *asc, size_t n, enum boot_stat stat)
{
	double sum = 0;

	if (stat == BOOT_MEDIAN)
		return (asc[(n - 1) / 2] + asc[n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		sum += asc[i];
	return sum / (double)n;
}

/* The resamples [from, to) of one bootstrap, for one thread. */
struct boot_part {
	const double *sa, *sb;
	size_t na, nb;
	enum boot_stat stat;
	uint64_t seed;		/* the state before resample `from` */
	unsigned from, to;
	double *ratio;
	bool zero;		/* a resample of a had a centre of 0 */
	pthread_t thread;
};

static void *boot_run(void *arg)
{
	struct boot_part *p = arg;
	unsigned *count = xcalloc(p->na > p->nb ? p->na : p->nb, sizeof(*count));

	for (unsigned k = p->from; k < p->to && !p->zero; k++) {
		double ra = resample(p->sa, p->na, p->stat, &p->seed, count);
		double rb = resample(p->sb, p->nb, p->stat, &p->seed, count);

		p->zero = ra == 0;
		p->ratio[k] = rb / ra;
	}
	free(count);
	return NULL;
}

/*
 * How many threads share a bootstrap: one per online CPU (at most
 * BOOT_THREADS) once it draws enough to pay for starting them.
 */
#define BOOT_THREADS 8
#define BOOT_DRAWS_PER_THREAD 50000

static unsigned boot_threads(unsigned nboot, size_t na, size_t nb)
{
	static long ncpu;
	uint64_t draws = (uint64_t)nboot * (na + nb);
	unsigned t;

	if (!ncpu)
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	t = (unsigned)(draws / BOOT_DRAWS_PER_THREAD);
	if (t > (unsigned)ncpu)
		t = ncpu > 0 ? (unsigned)ncpu : 1;
	if (t > BOOT_THREADS)
		t = BOOT_THREADS;
	return t ? t : 1;
}

int stats_bootstrap_ratio(const double *a, size_t na, const double *b,
			  size_t nb, enum boot_stat stat, unsigned nboot,
			  double conf, uint64_t seed, struct boot_ci *r)
{
	struct boot_part part[BOOT_THREADS];
	double *sa, *sb, *ratio, ca, lo, hi;
	unsigned nt, started = 1;
	bool zero = false;
	int rc = -1;

	if (!na || !nb || nboot < 2 || !(conf > 0 && conf < 1))
		return -1;
	sa = sorted(a, na);
	sb = sorted(b, nb);
	ca = center(sa, na, stat);
	ratio = xcalloc(nboot, sizeof(*ratio));
	if (ca == 0)
		goto out;
	/*
	 * splitmix64 is a counter: the state before resample k is the seed
	 * advanced by k * (na + nb) draws, so the resamples can be shared
	 * among threads and still give the numbers one thread would.
	 */
	nt = boot_threads(nboot, na, nb);
	for (unsigned t = 0; t < nt; t++) {
		unsigned from = (unsigned)((uint64_t)nboot * t / nt);

		part[t] = (struct boot_part){ .sa = sa, .sb = sb, .na = na,
			.nb = nb, .stat = stat, .from = from,
			.to = (unsigned)((uint64_t)nboot * (t + 1) / nt),
			.seed = seed + (uint64_t)from * (na + nb) * SPLITMIX_GAMMA,
			.ratio = ratio };
	}
	for (; started < nt; started++)
		if (pthread_create(&part[started].thread, NULL, boot_run,
				   &part[started]))
			break;
	boot_run(&part[0]);
	for (unsigned t = started; t < nt; t++)	/* not started: done here */
		boot_run(&part[t]);
	for (unsigned t = 1; t < started; t++)
		pthread_join(part[t].thread, NULL);
	for (unsigned t = 0; t < nt; t++)
		zero |= part[t].zero;
	if (zero)
		goto out;
	/* two selections instead of a sort: same values, O(nboot) */
	lo = stats_percentile_select(ratio, nboot, 50 * (1 - conf));
	hi = stats_percentile_select(ratio, nboot, 50 * (1 + conf));
	r->ratio = center(sb, nb, stat) / ca;
	r->lo = lo;
	r->hi = hi;
	rc = 0;
out:
	free(sa);
	free(sb);
	free(ratio);
	return rc;
}

int stats_bands_differ(const double *a, size_t na, const double *b,
		       size_t nb, enum better dir, bool *differ)
{
	struct summary sa, sb;

	if (summarize(a, na, dir, &sa) || summarize(b, nb, dir, &sb) ||
	    isnan(sa.mean) || isnan(sb.mean) || isnan(sa.stddev) ||
	    isnan(sb.stddev))
		return -1;
	*differ = sa.mean + 1.96 * sa.stddev < sb.mean - 1.96 * sb.stddev ||
		  sb.mean + 1.96 * sb.stddev < sa.mean - 1.96 * sa.stddev;
	return 0;
}

int stats_lkp_changed(const double *a, size_t na, const double *b,
		      size_t nb, double min_ratio, bool *changed)
{
	double *sa, *sb, mina, maxa, meda, minb, maxb, medb, ma, mb, va, vb;
	size_t ta, tb;
	bool up, down;

	if (!na || !nb)
		return -1;
	*changed = false;
	if (na < 3 && nb < 3)
		return 0;
	sa = sorted(a, na);
	sb = sorted(b, nb);
	ta = (na >> 5) < 3 ? na >> 5 : 3;
	tb = (nb >> 5) < 3 ? nb >> 5 : 3;
	mina = sa[ta];
	maxa = sa[na - 1 - ta];
	meda = center(sa + ta, na - 2 * ta, BOOT_MEDIAN);
	minb = sb[tb];
	maxb = sb[nb - 1 - tb];
	medb = center(sb + tb, nb - 2 * tb, BOOT_MEDIAN);
	free(sa);
	free(sb);
	up = minb > meda && medb > maxa;
	down = maxb < meda && medb < mina;
	if (!up && !down)
		return 0;
	stats_mean_var(a, na, &ma, &va);
	stats_mean_var(b, nb, &mb, &vb);
	if (ma == 0)
		*changed = mb != 0;
	else
		*changed = mb / ma > min_ratio || mb / ma < 1 / min_ratio;
	return 0;
}
