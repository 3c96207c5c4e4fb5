// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup_text: schbench's text format for the wakeup workload, beside
 * it because it reads the workload's metric layout (wakeup.h): the
 * wakeup, request and RPS blocks schbench prints at the end of a run.
 */
#include <math.h>

#include "workload/wakeup.h"
#include "workload/workload.h"

/* Where one of schbench's blocks is in the metric table. */
struct schbench_block {
	const char *title, *unit;
	int pct;		/* first percentile value */
	int line_n;		/* first "(N samples)" count */
	int min, max, total;
	const double *pcts;	/* the percentiles, as schbench lists them */
	int npct;
	double star;		/* the headline percentile, starred */
};

static const struct schbench_block blocks[] = {
	{ "Wakeup Latencies", "usec", WK_WAKE_P, WK_WAKE_LINE_N, WK_WAKE_MIN,
	  WK_WAKE_MAX, WK_WAKE_N, wakeup_lat_pct, WK_NPCT, 99 },
	{ "Request Latencies", "usec", WK_REQ_P, WK_REQ_LINE_N, WK_REQ_MIN,
	  WK_REQ_MAX, WK_REQ_N, wakeup_lat_pct, WK_NPCT, 99 },
	{ "RPS", "requests", WK_RPS_P, WK_RPS_LINE_N, WK_RPS_MIN, WK_RPS_MAX,
	  WK_RPS_N, wakeup_rps_pct, RPS_NPCT, 50 },
};

/*
 * A title with the total, one line per percentile (the starred one is
 * the headline) with the samples since the line above, then min and
 * max. Latencies in whole microseconds.
 */
static void print_block(FILE *f, const struct schbench_block *b,
			unsigned runtime, const struct wl_result *r)
{
	if (!r->have[b->total])
		return;		/* --record off */
	fprintf(f, "%s percentiles (%s) runtime %u (s) (%llu total samples)\n",
		b->title, b->unit, runtime,
		(unsigned long long)r->value[b->total]);
	for (int i = 0; i < b->npct; i++)
		fprintf(f, "\t%s%4.1fth: %-10llu (%llu samples)\n",
			b->pcts[i] == b->star ? "* " : "  ", b->pcts[i],
			(unsigned long long)llround(r->value[b->pct + i]),
			(unsigned long long)r->value[b->line_n + i]);
	fprintf(f, "\t  min=%llu, max=%llu\n",
		(unsigned long long)llround(r->value[b->min]),
		(unsigned long long)llround(r->value[b->max]));
}

void wakeup_print_blocks(FILE *f, unsigned runtime, const struct wl_result *r,
			 const char *rps_line, double rps)
{
	for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		print_block(f, &blocks[i], runtime, r);
	fprintf(f, "%s rps: %.2f\n", rps_line, rps);
}

/*
 * Pipe mode (-p): the wakeup block alone, with the 20th percentile
 * first, then each worker's average hand-offs and bytes per second, the
 * bytes in binary units named B, KB, MB... as schbench names them.
 */
static void pipe_result(FILE *f, unsigned runtime, const struct wl_result *r)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB", "PB", "EB" };
	double bps = r->value[WK_PIPE_BPS];
	size_t u = 0;

	if (r->have[WK_WAKE_N]) {
		fprintf(f, "Wakeup Latencies percentiles (usec) runtime %u (s) (%llu total samples)\n",
			runtime, (unsigned long long)r->value[WK_WAKE_N]);
		fprintf(f, "\t  20.0th: %-10llu (%llu samples)\n",
			(unsigned long long)llround(r->value[WK_WAKE_P20]),
			(unsigned long long)r->value[WK_WAKE_P20_N]);
		for (int i = 0; i < WK_NPCT; i++) {
			double n = r->value[WK_WAKE_LINE_N + i];

			if (i == WK_P50)	/* since the 20th's line */
				n -= r->value[WK_WAKE_P20_N];
			fprintf(f, "\t%s%4.1fth: %-10llu (%llu samples)\n",
				i == WK_P99 ? "* " : "  ", wakeup_lat_pct[i],
				(unsigned long long)llround(r->value[WK_WAKE_P + i]),
				(unsigned long long)n);
		}
		fprintf(f, "\t  min=%llu, max=%llu\n",
			(unsigned long long)llround(r->value[WK_WAKE_MIN]),
			(unsigned long long)llround(r->value[WK_WAKE_MAX]));
	}
	while (bps >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		bps /= 1024;
		u++;
	}
	fprintf(f, "avg worker transfer: %.2f ops/sec %.2f%s/s\n",
		r->value[WK_PIPE_OPS], bps, units[u]);
}

/* schbench prints nothing before its run. */
static void schbench_result(FILE *f, const void *cfgp,
			    const struct wl_result *r)
{
	const struct wakeup_cfg *c = cfgp;

	if (c->pipe_bytes)
		pipe_result(f, c->runtime, r);
	else
		wakeup_print_blocks(f, c->runtime, r, "average",
				    r->value[WK_RPS_AVG]);
}

const struct text_format wakeup_formats[] = {
	{ "schbench", "schbench's latency and RPS blocks",
	  NULL, schbench_result, NULL },
	{ .name = NULL },
};
