// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers for the reference tools' lines; the formats themselves live
 * beside their workloads (the formats member of struct workload).
 */
#include <math.h>

#include "workload/text.h"

void print_secs_ms(FILE *f, double secs)
{
	/* in integer nanoseconds, so truncation matches timeval arithmetic */
	unsigned long long ns = (unsigned long long)llround(secs * 1e9);

	fprintf(f, "%llu.%03llu", ns / 1000000000ull,
		ns % 1000000000ull / 1000000ull);
}

void perf_total_time(FILE *f, double secs)
{
	fprintf(f, " %14s: ", "Total time");
	print_secs_ms(f, secs);
	fprintf(f, " [sec]\n");
}
