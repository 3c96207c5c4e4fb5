// SPDX-License-Identifier: GPL-2.0-only
/*
 * history-calib: the change-point detector's detection and false-alarm
 * rates on series drawn from real run medians (one a line on stdin, as
 * bench/history-calib.sh reads them from its stored runs), and its
 * speed. Figures only, no assertions; doc/statistics.md ("History:
 * change points") keeps them.
 *
 * For each series length of LENS (default "60 30"): SERIES (100)
 * series resampled with replacement from the medians, none with a step
 * (any change point reported is a false alarm), then for each step of
 * STEPS (percent, default "5 -5 2 -2 10 -10") as many with the values
 * from a random position on multiplied by 1 + step/100. The position is
 * uniform over [MARGIN, len - MARGIN] (MARGIN 5, the default min_size,
 * whatever MIN_SIZE is, so that every setting is asked the same);
 * found means a change point within +-2 runs of it. NULLS (SERIES):
 * how many series without a step. MIN_SIZE, ALPHA, PERMS: the
 * detector's options (unset or 0: its defaults); SEED (1): of the
 * series. RAMP (0): the step taken over RAMP runs instead of at once
 * (a drift; the value at `at` + k times 1 + step/100 * k/RAMP), found
 * when a point lies within [at - 2, at + RAMP + 2]. SCALE (1): each median's distance from their median times
 * SCALE first - the same shape of noise, larger or smaller, to show
 * where the rates depend on the noise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "stats/changepoint.h"
#include "stats/summary.h"

static uint64_t rng;

static uint64_t next_rand(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t draw(size_t n)
{
	return (size_t)(((unsigned __int128)next_rand() * n) >> 64);
}

static double env_num(const char *name, double def)
{
	const char *v = getenv(name);

	return v && *v ? strtod(v, NULL) : def;
}

static const char *env_str(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/* CPU time of this process (every thread), for speeds on a busy machine */
static double cpu(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 +
	       r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t ramp;

/*
 * len values resampled from pool, those from `at` on times `factor`
 * (reached over `ramp` values)
 */
static void make_series(const double *pool, size_t np, double *x, size_t len,
			size_t at, double factor)
{
	for (size_t i = 0; i < len; i++) {
		double f = 1;

		if (i >= at + ramp)
			f = factor;
		else if (i >= at)
			f = 1 + (factor - 1) * (i - at + 1) / (ramp + 1);
		x[i] = pool[draw(np)] * f;
	}
}

struct tally {
	unsigned series, found, any, extra;
	double sum_err;		/* |change_pct found - step| over the found */
};

static void one(const struct cp_options *o, const double *x, size_t len,
		size_t at, double step, struct tally *t)
{
	struct cp_point *pt;
	size_t np, hit = (size_t)-1;

	if (changepoints(x, len, o, &pt, &np)) {
		fprintf(stderr, "history-calib: %s\n", cp_why(x, len, o));
		exit(1);
	}
	t->series++;
	t->any += np > 0;
	for (size_t k = 0; k < np; k++) {
		size_t d = pt[k].index > at ? pt[k].index - at : at - pt[k].index;

		if (pt[k].index > at && pt[k].index <= at + ramp)
			d = 0;
		if (step && d <= 2 && hit == (size_t)-1)
			hit = k;
		else
			t->extra++;
	}
	if (hit != (size_t)-1) {
		t->found++;
		t->sum_err += fabs(pt[hit].change_pct - step);
	}
	free(pt);
}

int main(void)
{
	size_t np = 0, cap = 256, margin = (size_t)env_num("MARGIN", 5);
	double *pool = malloc(cap * sizeof(*pool)), v, med, mad, t0, scale;
	struct cp_options o = {
		.min_size = (unsigned)env_num("MIN_SIZE", 0),
		.alpha = env_num("ALPHA", 0),
		.permutations = (unsigned)env_num("PERMS", 0),
	};
	unsigned nseries = (unsigned)env_num("SERIES", 100);
	unsigned nnull = (unsigned)env_num("NULLS", nseries);
	char *lens = strdup(env_str("LENS", "60 30"));
	const char *steps = env_str("STEPS", "5 -5 2 -2 10 -10");
	struct cp_point *pt;
	size_t npt;

	rng = (uint64_t)env_num("SEED", 1);
	ramp = (size_t)env_num("RAMP", 0);
	while (scanf("%lf", &v) == 1) {
		if (np == cap)
			pool = realloc(pool, (cap *= 2) * sizeof(*pool));
		pool[np++] = v;
	}
	if (np < 10) {
		fprintf(stderr, "history-calib: %zu medians on stdin, 10 at least\n", np);
		return 1;
	}
	stats_median_mad(pool, np, &med, &mad);
	scale = env_num("SCALE", 1);
	for (size_t i = 0; i < np; i++)
		pool[i] = med + scale * (pool[i] - med);
	stats_median_mad(pool, np, &med, &mad);
	printf("# %zu run medians (spread x %g): median %.6g, MAD/0.6745 %.2f%% of it\n",
	       np, scale, med, 100 * mad / 0.6745 / med);
	printf("# options: min_size %u alpha %g permutations %u (0: default)\n",
	       o.min_size, o.alpha, o.permutations);

	/* the runs themselves, in the order they ran: drift of the machine */
	if (!changepoints(pool, np, &o, &pt, &npt)) {
		printf("# the %zu medians in run order: %zu change points", np, npt);
		for (size_t k = 0; k < npt; k++)
			printf("%s %zu (%+.1f%%, p %.3f)", k ? "," : ":",
			       pt[k].index, pt[k].change_pct, pt[k].p);
		printf("\n");
		free(pt);
	}

	printf("%-5s %-7s %7s %7s %9s %9s\n", "len", "step%", "series",
	       "found%", "any-cp%", "extra/s");
	for (char *sv, *ls = strtok_r(lens, " ,", &sv); ls;
	     ls = strtok_r(NULL, " ,", &sv)) {
		size_t len = strtoul(ls, NULL, 10);
		double *x = calloc(len, sizeof(*x));
		struct tally t = { 0 };
		char *st = strdup(steps), *sv2;
		unsigned done = nnull;

		t0 = now();
		for (unsigned s = 0; s < nnull; s++) {
			make_series(pool, np, x, len, len, 1);
			one(&o, x, len, len, 0, &t);
		}
		printf("%-5zu %-7s %7u %7s %8.1f%% %9.2f\n", len, "none",
		       t.series, "-", 100.0 * t.any / t.series,
		       (double)t.extra / t.series);
		for (char *ss = strtok_r(st, " ,", &sv2); ss;
		     ss = strtok_r(NULL, " ,", &sv2)) {
			double step = strtod(ss, NULL);

			t = (struct tally){ 0 };
			done += nseries;
			for (unsigned s = 0; s < nseries; s++) {
				size_t at = margin + draw(len - 2 * margin - ramp + 1);

				make_series(pool, np, x, len, at, 1 + step / 100);
				one(&o, x, len, at, step, &t);
			}
			printf("%-5zu %-+7g %7u %6.1f%% %8.1f%% %9.2f   size error %.2f points\n",
			       len, step, t.series, 100.0 * t.found / t.series,
			       100.0 * t.any / t.series,
			       (double)t.extra / t.series,
			       t.found ? t.sum_err / t.found : NAN);
		}
		printf("# len %zu: %.2f ms a series\n", len,
		       1e3 * (now() - t0) / done);
		free(st);
		free(x);
	}

	/* speed: 1,000 and 10,000 values, one 5% step in the middle */
	for (size_t len = 1000; len <= 10000; len *= 10) {
		double *x = calloc(len, sizeof(*x));

		double c0;

		make_series(pool, np, x, len, len / 2, 1.05);
		t0 = now();
		c0 = cpu();
		for (int r = 0; r < 5; r++) {
			changepoints(x, len, &o, &pt, &npt);
			free(pt);
		}
		printf("# %zu values, one 5%% step: %.1f ms a call (%.1f ms CPU), %zu points\n",
		       len, 1e3 * (now() - t0) / 5, 1e3 * (cpu() - c0) / 5, npt);
		free(x);
	}
	free(lens);
	free(pool);
	return 0;
}
