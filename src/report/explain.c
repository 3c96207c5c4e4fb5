// SPDX-License-Identifier: GPL-2.0-only
/*
 * The line under a case's summary that says why: the scheduler metrics
 * the probes measured, as means over the case's iterations.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"
#include "report/render.h"

static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n >= len)
		return;
	if (n)
		n += (size_t)snprintf(buf + n, len - n, ", ");
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

#define HAVE(i) (!isnan(pm[i]))

void render_explain(FILE *f, const char *sweep, const char *unit,
		    const double *pm)
{
	char line[512] = "";
	double per_k = HAVE(PM_LAT_N) && pm[PM_LAT_N] > 0 ? pm[PM_LAT_N] / 1000 : NAN;

	if (HAVE(PM_WAIT_PER_SLICE_US))
		add(line, sizeof(line), "run-queue wait %.1f us/switch", pm[PM_WAIT_PER_SLICE_US]);
	/* wait over on-CPU time: past 100% a ratio reads better ("15.0x") */
	if (HAVE(PM_WAIT_PCT) && pm[PM_WAIT_PCT] >= 100)
		add(line, sizeof(line), "waited %.1fx its CPU time", pm[PM_WAIT_PCT] / 100);
	else if (HAVE(PM_WAIT_PCT))
		add(line, sizeof(line), "waited %.1f%% of its CPU time", pm[PM_WAIT_PCT]);
	if (HAVE(PM_MIGRATIONS)) {
		if (!isnan(per_k))
			add(line, sizeof(line), "migrations %.2f per 1k %s",
			    pm[PM_MIGRATIONS] / per_k, unit);
		else
			add(line, sizeof(line), "migrations %.0f", pm[PM_MIGRATIONS]);
	}
	if (HAVE(PM_CPU_MOVES_XLLC) && !isnan(per_k) && pm[PM_CPU_MOVES_XLLC] > 0)
		add(line, sizeof(line), "cross-LLC %.2f per 1k", pm[PM_CPU_MOVES_XLLC] / per_k);
	if (HAVE(PM_INVOL_PCT))
		add(line, sizeof(line), "involuntary switches %.0f%%", pm[PM_INVOL_PCT]);
	if (HAVE(PM_IDLE_WHILE_WAITING_S))
		add(line, sizeof(line), "idle CPU-s while waiting %.2f", pm[PM_IDLE_WHILE_WAITING_S]);
	if (HAVE(PM_LAT_P99))
		add(line, sizeof(line), "latency p50 %.1f us p99 %.1f us",
		    pm[PM_LAT_P50], pm[PM_LAT_P99]);
	if (HAVE(PM_CPU_STEAL_PCT) && pm[PM_CPU_STEAL_PCT] >= 1)
		add(line, sizeof(line), "steal %.0f%%", pm[PM_CPU_STEAL_PCT]);
	if (!*line)
		return;
	fprintf(f, "  %s%s%s\n", *sweep ? sweep : "", *sweep ? ": " : "", line);
}
