// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor_rows: what becomes of the sampler's rows (monitor.h) - an
 * iteration's series as JSON (monitor_rows_json()), the case's summary
 * metrics (monitor_summaries()), and a stored column read back
 * (monitor_column_parse()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"
#include "stats/summary.h"
#include "util.h"

static json_t *column(const double *x, size_t n, size_t stride, bool time)
{
	size_t cap = n * 14 + 1, len = 0;
	char *buf = xmalloc(cap);
	json_t *j;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		double v = x[i * stride];

		if (isnan(v) || isinf(v))
			len += (size_t)snprintf(buf + len, cap - len, "%s-", i ? " " : "");
		else
			len += (size_t)snprintf(buf + len, cap - len,
						time ? "%s%.3f" : "%s%.5g",
						i ? " " : "", v == 0 ? 0.0 : v);
	}
	j = json_string(buf);
	free(buf);
	return j;
}

json_t *monitor_rows_json(const struct monitor_set *s,
			  const struct monitor_rows *rows)
{
	json_t *all;

	if (!rows->n)
		return NULL;
	all = json_object();
	for (int i = 0; i < MON_N; i++) {
		json_t *ser;

		if (!s->ops[i])
			continue;
		ser = json_object();
		json_object_set_new(ser, "interval_ms",
				    json_integer(s->interval_ms));
		json_object_set_new(ser, "t", column(rows->t, rows->n, 1, true));
		for (size_t k = s->col0[i]; k < s->col0[i] + s->ncol[i]; k++)
			json_object_set_new(ser, s->col[k].name,
					    column(rows->v + k, rows->n, s->ncols,
						   false));
		json_object_set_new(all, monitor_info[i].name, ser);
	}
	return all;
}

void monitor_summaries(const struct monitor_set *s,
		       const struct monitor_rows *rows, double *out)
{
	double *x = xcalloc(rows->n + 1, sizeof(double));
	size_t m = 0;

	for (size_t k = 0; k < s->ncols; k++) {
		double sum = 0, wsum = 0, max = -INFINITY;
		size_t n = 0;

		if (!s->col[k].summary)
			continue;
		for (size_t i = 0; i < rows->n; i++) {
			double v = rows->v[i * s->ncols + k];

			if (!isfinite(v))
				continue;
			sum += v * rows->dt[i];
			wsum += rows->dt[i];
			if (v > max)
				max = v;
			x[n++] = v;
		}
		if (n) {
			stats_sort(x, n);
			out[m] = wsum > 0 ? sum / wsum : x[n / 2];
			out[m + 1] = max;
			out[m + 2] = stats_percentile_sorted(x, n, 95);
		} else {
			out[m] = out[m + 1] = out[m + 2] = NAN;
		}
		m += 3;
	}
	free(x);
}

long monitor_column_parse(const char *text, double **x)
{
	size_t n = 0, cap = 16;
	const char *p = text;

	*x = xmalloc(cap * sizeof(double));
	while (*p) {
		char *end;
		double v;

		if (*p == ' ' || *p == '\t' || *p == '\n') {
			free(*x);	/* one space between values, none around */
			*x = NULL;
			return -1;
		}
		if (*p == '-' && (p[1] == ' ' || !p[1])) {
			v = NAN;
			end = (char *)p + 1;
		} else {
			v = strtod(p, &end);
			if (end == p) {
				free(*x);
				*x = NULL;
				return -1;
			}
		}
		if (n == cap) {
			cap *= 2;
			*x = xrealloc(*x, cap * sizeof(double));
		}
		(*x)[n++] = v;
		p = end;
		if (*p == ' ' && p[1])
			p++;
		else if (*p) {
			free(*x);
			*x = NULL;
			return -1;
		}
	}
	return (long)n;
}
