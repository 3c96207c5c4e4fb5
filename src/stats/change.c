// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats/change.c: a change between two values as the reference tools
 * write it (stats/summary.h) - lkp-tests' %change, mmtests' percentage
 * where positive is better, the coefficient of variation, and the
 * smallest change n samples a side can detect.
 */
#include <math.h>
#include <stddef.h>

#include "stats/cdf.h"
#include "stats/summary.h"

double stats_pct_diff(double base, double new)
{
	if (isnan(base) || isnan(new))
		return NAN;
	if (base == 0)
		return new == 0 ? 0 : NAN;
	return 100 * (new - base) / fabs(base);
}

double stats_pct_better(double base, double new, enum better dir)
{
	if (isnan(base) || isnan(new))
		return NAN;
	if (base == 0)
		return new == 0 ? 0 : NAN;
	if (dir == BETTER_HIGHER)
		return new / base * 100 - 100;
	return 100 - new / base * 100;
}

double stats_mde_pct(double cov_pct, size_t n)
{
	double df = 2.0 * (double)n - 2;

	if (n < 2 || !isfinite(cov_pct))
		return NAN;
	return (gsl_cdf_tdist_Pinv(0.975, df) + gsl_cdf_tdist_Pinv(0.80, df)) *
	       fabs(cov_pct) * sqrt(2.0 / (double)n);
}

double stats_cov(double sd, double mean)
{
	if (isnan(sd) || isnan(mean))
		return NAN;
	if (sd == 0)
		return 0;
	if (mean == 0)
		return NAN;
	return 100 * sd / mean;
}
