// SPDX-License-Identifier: GPL-2.0-only
#include "lazylib.h"
#include "stats/cdf.h"

static struct gsl_cdf_api api;

static const struct lazy_fn fns[] = {
	{ "gsl_cdf_binomial_P", (void **)&api.binomial_P },
	{ "gsl_cdf_chisq_Pinv", (void **)&api.chisq_Pinv },
	{ "gsl_cdf_fdist_Q", (void **)&api.fdist_Q },
	{ "gsl_cdf_tdist_Pinv", (void **)&api.tdist_Pinv },
	{ "gsl_cdf_tdist_Q", (void **)&api.tdist_Q },
	{ "gsl_cdf_ugaussian_P", (void **)&api.ugaussian_P },
	{ "gsl_cdf_ugaussian_Q", (void **)&api.ugaussian_Q },
	{ "gsl_cdf_ugaussian_Pinv", (void **)&api.ugaussian_Pinv },
	{ "gsl_cdf_ugaussian_Qinv", (void **)&api.ugaussian_Qinv },
};

static struct lazylib gsl = {
	.soname = GSL_SONAME, .package = GSL_PACKAGE,
	.fns = fns, .n = sizeof(fns) / sizeof(fns[0]),
};

const struct gsl_cdf_api *gsl_cdf(void)
{
	lazylib_need(&gsl);
	return &api;
}
