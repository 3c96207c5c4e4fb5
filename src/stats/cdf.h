/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The distribution functions of gsl that the statistics call, from
 * libgsl loaded on the first call (lazylib.h), not linked: a workload's
 * workers never map it. Include this instead of <gsl/gsl_cdf.h>; the
 * calls read as gsl's.
 */
#ifndef SCHEDLAB_STATS_CDF_H
#define SCHEDLAB_STATS_CDF_H

#include <gsl/gsl_cdf.h>

struct gsl_cdf_api {
	__typeof__(gsl_cdf_binomial_P) *binomial_P;
	__typeof__(gsl_cdf_chisq_Pinv) *chisq_Pinv;
	__typeof__(gsl_cdf_fdist_Q) *fdist_Q;
	__typeof__(gsl_cdf_tdist_Pinv) *tdist_Pinv;
	__typeof__(gsl_cdf_tdist_Q) *tdist_Q;
	__typeof__(gsl_cdf_ugaussian_P) *ugaussian_P;
	__typeof__(gsl_cdf_ugaussian_Q) *ugaussian_Q;
	__typeof__(gsl_cdf_ugaussian_Pinv) *ugaussian_Pinv;
	__typeof__(gsl_cdf_ugaussian_Qinv) *ugaussian_Qinv;
};

/* The functions, libgsl loaded first if need be (exit 128 if it cannot be). */
const struct gsl_cdf_api *gsl_cdf(void);

#define gsl_cdf_binomial_P(k, p, n) (gsl_cdf()->binomial_P((k), (p), (n)))
#define gsl_cdf_chisq_Pinv(P, nu) (gsl_cdf()->chisq_Pinv((P), (nu)))
#define gsl_cdf_fdist_Q(x, nu1, nu2) (gsl_cdf()->fdist_Q((x), (nu1), (nu2)))
#define gsl_cdf_tdist_Pinv(P, nu) (gsl_cdf()->tdist_Pinv((P), (nu)))
#define gsl_cdf_tdist_Q(x, nu) (gsl_cdf()->tdist_Q((x), (nu)))
#define gsl_cdf_ugaussian_P(x) (gsl_cdf()->ugaussian_P(x))
#define gsl_cdf_ugaussian_Q(x) (gsl_cdf()->ugaussian_Q(x))
#define gsl_cdf_ugaussian_Pinv(P) (gsl_cdf()->ugaussian_Pinv(P))
#define gsl_cdf_ugaussian_Qinv(Q) (gsl_cdf()->ugaussian_Qinv(Q))

#endif
