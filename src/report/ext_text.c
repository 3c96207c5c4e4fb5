// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text formats of the external workloads: the line each tool ends with
 * (what scripts grep for), printed from the values parsed out of the
 * tool's own output, and perf stat's block for command.
 */
#include <math.h>
#include <string.h>

#include "report/ext_text.h"
#include "report/render.h"
#include "stats/summary.h"
#include "workload/command.h"
#include "workload/external.h"
#include "workload/tools.h"
#include "util.h"

void ext_no_header(FILE *f, const void *cfg)
{
	(void)f;
	(void)cfg;
}

/* perf stat prints two more digits than the stddev's first significant one. */
static int perf_precision(double sd)
{
	if (sd > 1)
		return 2;
	if (sd <= 0)
		return 2 + 9;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/* The command as perf stat names it: its words joined with blanks. */
static void print_words(FILE *f, const struct command_cfg *c)
{
	const char *err;
	char **w = ext_split(c->argv, &err);

	for (size_t i = 0; w && w[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", w[i]);
	if (!w)
		fputs(c->argv, f);
	ext_argv_free(w);
}

static void perf_stat_summary(FILE *f, const void *cfgp,
			      const struct case_result *r)
{
	const struct command_cfg *c = cfgp;
	double *t = xcalloc(r->niter + 1, sizeof(double));
	double mean = 0, sd = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->niter; i++) {
		double v = r->values[i * r->cols.n + CMD_TIME];

		if (v == v)
			t[n++] = v;
	}
	if (n > 1) {
		fputs("\n Performance counter stats for '", f);
		print_words(f, c);
		fprintf(f, "' (%zu runs):\n\n", n);
		stats_amean(t, n, &mean);
		stats_stddev(t, n, &sd);
		sd /= sqrt((double)n);	/* perf's +- is the mean's stddev */
		int p = perf_precision(sd);

		fprintf(f, " %17.*f +- %.*f seconds time elapsed", p, mean, p,
			sd);
		if (mean != 0)
			fprintf(f, "  ( +-%6.2f%% )", 100 * sd / mean);
		fputs("\n\n", f);
	} else if (n == 1) {
		const double *row = r->values;

		fputs("\n Performance counter stats for '", f);
		print_words(f, c);
		fputs("':\n\n", f);
		fprintf(f, " %17.9f seconds time elapsed\n\n", t[0]);
		fprintf(f, " %17.9f seconds user\n", row[CMD_USER]);
		fprintf(f, " %17.9f seconds sys\n\n", row[CMD_SYS]);
	}
	free(t);
}

static const struct text_summary summaries[] = {
	{ "command", "perf-stat", perf_stat_summary },
};

const struct text_summary *text_summary_find(const char *workload,
					     const char *format)
{
	for (size_t i = 0; i < ARRAY_SIZE(summaries); i++)
		if (!strcmp(summaries[i].workload, workload) &&
		    !strcmp(summaries[i].format, format))
			return &summaries[i];
	return NULL;
}

/* command's per-run line, for formats that are not perf-stat */
void command_result(FILE *f, const void *cfg, const struct wl_result *r)
{
	(void)cfg;
	fprintf(f, " %17.9f seconds time elapsed\n", r->value[CMD_TIME]);
}

/* dbench's and tbench's last line, from the values parsed out of it */
void dbench_result(FILE *f, const void *cfg, const struct wl_result *r)
{
	(void)cfg;
	fprintf(f, "Throughput %g MB/sec  %d clients  %d procs  max_latency=%.3f ms\n",
		r->value[DB_MBPS], (int)r->value[DB_CLIENTS],
		(int)r->value[DB_CLIENTS], r->value[DB_MAX_LAT]);
}

/* pgbench's last two lines (PostgreSQL 14 and later) */
void pgbench_result(FILE *f, const void *cfg, const struct wl_result *r)
{
	(void)cfg;
	if (r->have[PGB_LAT_AVG])
		fprintf(f, "latency average = %.3f ms\n", r->value[PGB_LAT_AVG]);
	fprintf(f, "tps = %f (without initial connection time)\n",
		r->value[PGB_TPS]);
}

/* sysbench's rate and Latency block, from the values it printed */
void sysbench_result(FILE *f, const void *cfg, const struct wl_result *r)
{
	(void)cfg;
	if (r->have[SB_TPS])
		fprintf(f, "    transactions per sec.:   %.2f\n", r->value[SB_TPS]);
	if (r->have[SB_QPS])
		fprintf(f, "    queries per sec.:        %.2f\n", r->value[SB_QPS]);
	fprintf(f, "    events per second: %8.2f\n\n", r->value[SB_EPS]);
	fprintf(f, "Latency (ms):\n");
	fprintf(f, "         min: %39.2f\n", r->value[SB_LAT_MIN]);
	fprintf(f, "         avg: %39.2f\n", r->value[SB_LAT_AVG]);
	fprintf(f, "         max: %39.2f\n", r->value[SB_LAT_MAX]);
	fprintf(f, "         95th percentile: %27.2f\n", r->value[SB_LAT_P95]);
}
