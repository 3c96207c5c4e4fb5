// SPDX-License-Identifier: GPL-2.0-only
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "harness/result.h"
#include "report/render.h"
#include "stats/summary.h"
#include "util.h"
#include "version.h"

/* Column c of every row, NaNs left out; returns how many. */
static size_t column(const struct case_result *r, size_t c, double *x)
{
	size_t n = 0;

	for (size_t i = 0; i < r->niter; i++) {
		double v = r->values[i * r->cols.n + c];

		if (!isnan(v))
			x[n++] = v;
	}
	return n;
}

static json_t *metric(const struct case_result *r, size_t c, double *x)
{
	const struct metric_def *d = &r->cols.def[c];
	json_t *samples = json_array();
	size_t n = column(r, c, x);
	double mean = NAN, sd = NAN;

	for (size_t i = 0; i < r->niter; i++) {
		double v = r->values[i * r->cols.n + c];

		json_array_append_new(samples, isnan(v) ? json_null() : json_real(v));
	}
	if (n) {
		stats_amean(x, n, &mean);
		stats_stddev(x, n, &sd);
	}
	return json_pack("{s:o, s:s, s:s, s:b, s:o, s:o}",
			 "value", n ? json_real(mean) : json_null(),
			 "unit", d->unit, "better", better_names[d->better],
			 "headline", d->headline,
			 "stddev", n ? json_real(sd) : json_null(),
			 "samples", samples);
}

int render_json(FILE *f, const struct workload *wl, const void *cfg,
		const struct case_result *r)
{
	json_t *doc, *metrics = json_object(), *process = json_object();
	double *x = xcalloc(r->niter + 1, sizeof(double));
	int rc;

	for (size_t c = 0; c < r->cols.n; c++) {
		const char *name = r->cols.def[c].name;

		if (c < r->cols.nworkload) {
			json_object_set_new(metrics, name, metric(r, c, x));
		} else if (c >= r->cols.probe0) {
			/* a probe not available here is left out */
			if (column(r, c, x))
				json_object_set_new(metrics, name, metric(r, c, x));
		} else {
			size_t n = column(r, c, x);
			double mean = NAN;

			if (n)
				stats_amean(x, n, &mean);
			json_object_set_new(process, strchr(name, '.') + 1,
					    n ? json_real(mean) : json_null());
		}
	}
	doc = json_pack("{s:s, s:s, s:s, s:o, s:s, s:I, s:o, s:o}",
		"schema", BENCH_SCHEMA,
		"schedlab_version", SCHEDLAB_VERSION,
		"workload", wl->name,
		"parameters", json_parameters(wl, cfg),
		"status", "ok",
		"runs", (json_int_t)r->niter,
		"metrics", metrics,
		"process", process);
	rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			JSON_REAL_PRECISION(12));
	fputc('\n', f);
	json_decref(doc);
	free(x);
	return rc;
}

void render_repeat_summary(FILE *f, const struct case_result *r)
{
	double *x = xcalloc(r->niter + 1, sizeof(double));

	fputc('\n', f);
	for (size_t c = 0; c < r->cols.nworkload; c++) {
		const struct metric_def *d = &r->cols.def[c];
		size_t n = column(r, c, x);
		double mean, sem;

		if (!n || stats_amean(x, n, &mean) || stats_sem(x, n, &sem))
			continue;
		fprintf(f, " %17.6f +- %.6f %s %s", mean, sem, d->unit, d->name);
		if (mean != 0)
			fprintf(f, "  ( +-%6.2f%% )", 100 * sem / fabs(mean));
		fputc('\n', f);
	}
	fprintf(f, "\n %zu runs; +- is the standard error of the mean, as in perf stat --repeat\n",
		r->niter);
	free(x);
}
