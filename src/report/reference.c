// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text formats that reproduce the reference tools' output lines: what a
 * user pipes through the same scripts as hackbench's or perf bench's.
 */
#include <math.h>
#include <string.h>

#include "report/ext_text.h"
#include "report/render.h"
#include "workload/messaging.h"
#include "workload/pipe.h"
#include "workload/wakeup.h"
#include "workload/compute.h"

void print_secs_ms(FILE *f, double secs)
{
	/* in integer nanoseconds, so truncation matches timeval arithmetic */
	unsigned long long ns = (unsigned long long)llround(secs * 1e9);

	fprintf(f, "%llu.%03llu", ns / 1000000000ull,
		ns % 1000000000ull / 1000000ull);
}

static void hackbench_header(FILE *f, const void *cfgp)
{
	const struct messaging_cfg *c = cfgp;

	fprintf(f, "Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
		c->mode == MSG_THREAD ? "threaded" : "process", c->groups,
		2 * c->fds, c->groups * 2 * c->fds);
	fprintf(f, "Each sender will pass %u messages of %u bytes\n", c->loops,
		c->datasize);
}

static void hackbench_result(FILE *f, const void *cfg,
			     const struct wl_result *r)
{
	(void)cfg;
	fputs("Time: ", f);
	print_secs_ms(f, r->value[MSG_TIME]);
	fputc('\n', f);
}

static void perf_messaging_header(FILE *f, const void *cfgp)
{
	const struct messaging_cfg *c = cfgp;
	const char *what = c->mode == MSG_THREAD ? "threads" : "processes";

	fprintf(f, "# Running 'sched/messaging' benchmark:\n");
	fprintf(f, "# %u sender and receiver %s per group\n", c->fds, what);
	fprintf(f, "# %u groups == %u %s run\n\n", c->groups,
		c->groups * 2 * c->fds, what);
}

static void perf_total_time(FILE *f, double secs)
{
	fprintf(f, " %14s: ", "Total time");
	print_secs_ms(f, secs);
	fprintf(f, " [sec]\n");
}

static void perf_messaging_result(FILE *f, const void *cfg,
				  const struct wl_result *r)
{
	(void)cfg;
	perf_total_time(f, r->value[MSG_TIME]);
}

static void perf_pipe_header(FILE *f, const void *cfgp)
{
	const struct pipe_cfg *c = cfgp;

	fprintf(f, "# Running 'sched/pipe' benchmark:\n");
	/* not in perf's output: results of the two orderings differ ~2x */
	fprintf(f, "# Loop ordering: %s (as perf %s)\n",
		pipe_ordering_names[c->ordering],
		c->ordering == PIPE_ONE_TOKEN ? "up to Linux 6.14" :
						"since Linux 6.15");
	fprintf(f, "# Executed %u pipe operations between two %s\n\n", c->loops,
		c->mode == PIPE_THREAD ? "threads" : "processes");
}

static void perf_pipe_result(FILE *f, const void *cfg,
			     const struct wl_result *r)
{
	(void)cfg;
	perf_total_time(f, r->value[PIPE_TIME]);
	fprintf(f, "\n %14lf usecs/op\n", r->value[PIPE_USECS_PER_OP]);
	fprintf(f, " %14d ops/sec\n", (int)r->value[PIPE_OPS_PER_SEC]);
}

/* schbench prints nothing before its run. */
static void schbench_header(FILE *f, const void *cfg)
{
	(void)f;
	(void)cfg;
}

/*
 * One of schbench's blocks: a title with the total, one line per
 * percentile (the starred one is the headline) with the samples since
 * the line above, then min and max. Latencies in whole microseconds.
 */
static void schbench_block(FILE *f, const char *title, const char *unit,
			   unsigned runtime, const struct wl_result *r, int p,
			   int line_n, int min, const double *pct, int npct,
			   double star)
{
	if (!r->have[min + 2])
		return;		/* --record off */
	fprintf(f, "%s percentiles (%s) runtime %u (s) (%llu total samples)\n",
		title, unit, runtime, (unsigned long long)r->value[min + 2]);
	for (int i = 0; i < npct; i++)
		fprintf(f, "\t%s%4.1fth: %-10llu (%llu samples)\n",
			pct[i] == star ? "* " : "  ", pct[i],
			(unsigned long long)llround(r->value[p + i]),
			(unsigned long long)r->value[line_n + i]);
	fprintf(f, "\t  min=%llu, max=%llu\n",
		(unsigned long long)llround(r->value[min]),
		(unsigned long long)llround(r->value[min + 1]));
}

static void schbench_result(FILE *f, const void *cfgp,
			    const struct wl_result *r)
{
	const struct wakeup_cfg *c = cfgp;

	schbench_block(f, "Wakeup Latencies", "usec", c->runtime, r, WK_WAKE_P,
		       WK_WAKE_LINE_N, WK_WAKE_MIN, wakeup_lat_pct, WK_NPCT, 99);
	schbench_block(f, "Request Latencies", "usec", c->runtime, r, WK_REQ_P,
		       WK_REQ_LINE_N, WK_REQ_MIN, wakeup_lat_pct, WK_NPCT, 99);
	schbench_block(f, "RPS", "requests", c->runtime, r, WK_RPS_P,
		       WK_RPS_LINE_N, WK_RPS_MIN, wakeup_rps_pct, RPS_NPCT, 50);
	fprintf(f, "average rps: %.2f\n", r->value[WK_RPS_AVG]);
}

/*
 * AIM7's multiuser table as LKML posts show it (seed 000): columns at
 * 8-character stops, Jobs/Min two wide. The title names the mix, so the
 * rows are never taken for AIM7's own workfile.
 */
static void aim7_header(FILE *f, const void *cfgp)
{
	const struct compute_cfg *c = cfgp;

	fprintf(f, "schedlab compute - AIM7-style multiuser load, job mix %s, %u jobs per task\n\n",
		compute_mix_names[c->mix], c->jobs);
	fprintf(f, "%-8s%-16s%-8s%-8s%-8s%s\n", "Tasks", "Jobs/Min", "JTI",
		"Real", "CPU", "Jobs/sec/task");
}

static void aim7_result(FILE *f, const void *cfgp, const struct wl_result *r)
{
	const struct compute_cfg *c = cfgp;

	fprintf(f, "%-8u%-16.1f%-8d%-8.1f%-8.1f%.4f\n", c->tasks,
		r->value[CMP_JOBS_PER_MIN], (int)r->value[CMP_JTI],
		r->value[CMP_REAL], r->value[CMP_CPU],
		r->value[CMP_JOBS_PER_SEC_TASK]);
}

/* The first entry for a workload is its default format. */
static const struct text_format formats[] = {
	{ "messaging", "hackbench", "hackbench's three lines",
	  hackbench_header, hackbench_result },
	{ "messaging", "perf", "perf bench sched messaging's block",
	  perf_messaging_header, perf_messaging_result },
	{ "pipe", "perf", "perf bench sched pipe's block",
	  perf_pipe_header, perf_pipe_result },
	{ "command", "perf-stat", "perf stat --null's elapsed-time block",
	  ext_no_header, command_result },
	{ "dbench", "dbench", "dbench's Throughput line",
	  ext_no_header, dbench_result },
	{ "tbench", "tbench", "tbench's Throughput line",
	  ext_no_header, dbench_result },
	{ "pgbench", "pgbench", "pgbench's latency average and tps lines",
	  ext_no_header, pgbench_result },
	{ "sysbench", "sysbench", "sysbench's rates and Latency block",
	  ext_no_header, sysbench_result },
	{ "wakeup", "schbench", "schbench's latency and RPS blocks",
	  schbench_header, schbench_result },
	{ "compute", "aim7", "AIM7's multiuser table row",
	  aim7_header, aim7_result },
};

const struct text_format *text_format_find(const char *workload,
					   const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].workload, workload) &&
		    (!name || !strcmp(formats[i].name, name)))
			return &formats[i];
	return NULL;
}

size_t text_formats(const char *workload, const struct text_format **out,
		    size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].workload, workload) && n < max)
			out[n++] = &formats[i];
	return n;
}
