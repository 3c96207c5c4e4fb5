// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup's metrics: schbench's three blocks (wakeup and request latency,
 * RPS) with the percentiles each lists, and pipe mode's figures.
 */
#include "workload/wakeup.h"

const double wakeup_lat_pct[WK_NPCT] = { 50, 90, 99, 99.9 };
const double wakeup_rps_pct[RPS_NPCT] = { 20, 50, 90 };

#define LAT(base, what, hl)						\
	[base + WK_P50] = { "wakeup." what "p50_us", "us", BETTER_LOWER, false, \
			    what "latency, 50th percentile" },		\
	[base + WK_P90] = { "wakeup." what "p90_us", "us", BETTER_LOWER, false, \
			    what "latency, 90th percentile" },		\
	[base + WK_P99] = { "wakeup." what "p99_us", "us", BETTER_LOWER, hl, \
			    what "latency, 99th percentile" },		\
	[base + WK_P999] = { "wakeup." what "p999_us", "us", BETTER_LOWER, false, \
			     what "latency, 99.9th percentile" }
#define LINE_N(base, what, pfx, p)					\
	[base + p] = { "wakeup." what pfx "_n", "samples", BETTER_NONE, false, \
		       "samples above the previous percentile up to this one" }

/*
 * A latency block, WK_B_P (WAKE or REQ) on: its percentiles (hl: p99 is
 * the headline), min, max, count and the count of each percentile line.
 */
#define LAT_BLOCK(B, what, name, hl)					\
	LAT(WK_##B##_P, what, hl),					\
	[WK_##B##_MIN] = { "wakeup." what "min_us", "us", BETTER_LOWER,	\
			   false, "smallest " name " latency" },	\
	[WK_##B##_MAX] = { "wakeup." what "max_us", "us", BETTER_LOWER,	\
			   false, "largest " name " latency" },		\
	[WK_##B##_N] = { "wakeup." what "samples", "samples",		\
			 BETTER_NONE, false,				\
			 name " latencies recorded" },			\
	LINE_N(WK_##B##_LINE_N, what, "p50", WK_P50),			\
	LINE_N(WK_##B##_LINE_N, what, "p90", WK_P90),			\
	LINE_N(WK_##B##_LINE_N, what, "p99", WK_P99),			\
	LINE_N(WK_##B##_LINE_N, what, "p999", WK_P999)

const struct metric_def wakeup_metrics[] = {
	LAT_BLOCK(WAKE, "", "wakeup", true),
	LAT_BLOCK(REQ, "request_", "request", false),
	[WK_RPS_P + RPS_P20] = { "wakeup.rps_p20", "req/s", BETTER_HIGHER, false,
				 "requests per second, 20th percentile of the seconds" },
	[WK_RPS_P + RPS_P50] = { "wakeup.rps_p50", "req/s", BETTER_HIGHER, false,
				 "requests per second, median of the seconds" },
	[WK_RPS_P + RPS_P90] = { "wakeup.rps_p90", "req/s", BETTER_HIGHER, false,
				 "requests per second, 90th percentile of the seconds" },
	[WK_RPS_MIN] = { "wakeup.rps_min", "req/s", BETTER_HIGHER, false,
			 "requests in the slowest second" },
	[WK_RPS_MAX] = { "wakeup.rps_max", "req/s", BETTER_HIGHER, false,
			 "requests in the fastest second" },
	[WK_RPS_N] = { "wakeup.rps_samples", "s", BETTER_NONE, false,
		       "seconds counted" },
	LINE_N(WK_RPS_LINE_N, "rps_", "p20", RPS_P20),
	LINE_N(WK_RPS_LINE_N, "rps_", "p50", RPS_P50),
	LINE_N(WK_RPS_LINE_N, "rps_", "p90", RPS_P90),
	[WK_RPS_AVG] = { "wakeup.rps", "req/s", BETTER_HIGHER, false,
			 "requests per second over the runtime (schbench's average rps)" },
	[WK_REQUESTS] = { "wakeup.requests", "req", BETTER_NONE, false,
			  "requests served while measuring" },
	[WK_WAKE_P20] = { "wakeup.p20_us", "us", BETTER_LOWER, false,
			  "wakeup latency, 20th percentile (pipe mode)" },
	[WK_WAKE_P20_N] = { "wakeup.p20_n", "samples", BETTER_NONE, false,
			    "samples at or below the 20th percentile (pipe mode)" },
	[WK_PIPE_OPS] = { "wakeup.transfer_ops", "ops/s", BETTER_HIGHER, false,
			  "hand-offs per second per worker (pipe mode)" },
	[WK_PIPE_BPS] = { "wakeup.transfer_bytes", "B/s", BETTER_HIGHER, false,
			  "bytes per second per worker (pipe mode)" },
	{ .name = NULL },
};
#undef LAT
#undef LINE_N
#undef LAT_BLOCK
