// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_series: the checks of a case's series in an export document
 * (export.c calls them for each case): one value or null per iteration
 * of every metric, the latency histograms, the monitors' series.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "monitor/monitor.h"
#include "stats/hist.h"
#include "store/export.h"
#include "util.h"

/* One value or null per iteration, of metrics the document describes. */
int export_check_samples(const char *origin, json_t *c, const char *at,
			 json_t *metrics)
{
	json_int_t niter = json_integer_value(json_object_get(c, "iterations"));
	const char *name;
	json_t *arr;

	json_object_foreach(json_object_get(c, "samples"), name, arr) {
		char path[512];
		size_t j;
		json_t *v;

		snprintf(path, sizeof(path), "%s.samples.%s", at, name);
		if (!json_object_get(metrics, name))
			return export_bad(origin, path, "metric has no entry in \"metrics\"");
		if (!json_is_array(arr))
			return export_bad(origin, path, "expected an array");
		if ((json_int_t)json_array_size(arr) != niter)
			return export_bad(origin, path,
				   "%zu values for %" JSON_INTEGER_FORMAT
				   " iterations", json_array_size(arr), niter);
		json_array_foreach(arr, j, v) {
			if (json_is_number(v) || json_is_null(v))
				continue;
			snprintf(path, sizeof(path), "%s.samples.%s[%zu]", at,
				 name, j);
			return export_bad(origin, path, "expected a number or null");
		}
	}
	return 0;
}

/*
 * Optional (documents written before histograms were stored have none):
 * {"name": [a histogram (hist_to_json's form) or null per iteration]}.
 */
int export_check_histograms(const char *origin, json_t *c, const char *at)
{
	json_int_t niter = json_integer_value(json_object_get(c, "iterations"));
	json_t *hists = json_object_get(c, "histograms"), *arr, *h;
	struct hist *scratch;
	const char *name;
	char path[512];
	int rc = 0;

	if (!hists)
		return 0;
	snprintf(path, sizeof(path), "%s.histograms", at);
	if (!json_is_object(hists))
		return export_bad(origin, path, "expected an object");
	scratch = xcalloc_lines(1, sizeof(*scratch));
	json_object_foreach(hists, name, arr) {
		size_t j;

		snprintf(path, sizeof(path), "%s.histograms.%s", at, name);
		if (!*name) {
			rc = export_bad(origin, path, "a histogram without a name");
			break;
		}
		if (!json_is_array(arr)) {
			rc = export_bad(origin, path, "expected an array");
			break;
		}
		if ((json_int_t)json_array_size(arr) != niter) {
			rc = export_bad(origin, path, "%zu histograms for %"
				 JSON_INTEGER_FORMAT " iterations",
				 json_array_size(arr), niter);
			break;
		}
		json_array_foreach(arr, j, h) {
			if (json_is_null(h))
				continue;
			error_context("%s: %s[%zu]", origin, path, j);
			rc = hist_from_json(h, scratch);
			error_context(NULL);
			if (rc)
				break;
		}
		if (rc)
			break;
	}
	free(scratch);
	return rc;
}

int export_check_series(const json_t *ser, char *err, size_t len)
{
	const char *key;
	json_t *v;
	long nt = -1;

	if (!json_is_object(ser))
		return snprintf(err, len, "expected an object"), -1;
	if (!json_is_integer(json_object_get(ser, "interval_ms")) ||
	    json_integer_value(json_object_get(ser, "interval_ms")) < 1)
		return snprintf(err, len, "interval_ms: expected a whole number of milliseconds"), -1;
	if (!json_is_string(json_object_get(ser, "t")))
		return snprintf(err, len, "t: expected a column (numbers as text)"), -1;
	json_object_foreach((json_t *)ser, key, v) {
		double *x;
		long n;

		if (!strcmp(key, "interval_ms"))
			continue;
		if (!*key)
			return snprintf(err, len, "a column without a name"), -1;
		if (!json_is_string(v) ||
		    (n = monitor_column_parse(json_string_value(v), &x)) < 0)
			return snprintf(err, len, "%.64s: expected numbers or '-' separated by single spaces", key), -1;
		free(x);
		if (nt < 0 && !strcmp(key, "t"))
			nt = n;
		else if (nt >= 0 && n != nt)
			return snprintf(err, len, "%.64s: %ld values for %ld times", key, n, nt), -1;
	}
	return 0;
}

/*
 * Optional (documents written before monitors were stored have none):
 * {"name": [a series (monitor/monitor.h) or null per iteration]}.
 */
int export_check_monitors(const char *origin, json_t *c, const char *at)
{
	json_int_t niter = json_integer_value(json_object_get(c, "iterations"));
	json_t *mons = json_object_get(c, "monitors"), *arr, *v;
	const char *name;
	char path[512], err[256];
	size_t j;

	if (!mons)
		return 0;
	snprintf(path, sizeof(path), "%s.monitors", at);
	if (!json_is_object(mons))
		return export_bad(origin, path, "expected an object");
	json_object_foreach(mons, name, arr) {
		snprintf(path, sizeof(path), "%s.monitors.%s", at, name);
		if (!*name || strlen(name) > 64)
			return export_bad(origin, path, "a monitor's name must be 1 to 64 characters");
		if (!json_is_array(arr))
			return export_bad(origin, path, "expected an array");
		if ((json_int_t)json_array_size(arr) != niter)
			return export_bad(origin, path, "%zu series for %"
				   JSON_INTEGER_FORMAT " iterations",
				   json_array_size(arr), niter);
		json_array_foreach(arr, j, v) {
			char at2[600];

			if (json_is_null(v))
				continue;
			snprintf(at2, sizeof(at2), "%s[%zu]", path, j);
			if (export_check_series(v, err, sizeof(err)))
				return export_bad(origin, at2, "%s", err);
		}
	}
	return 0;
}

/*
 * Optional (documents written before case identities have neither):
 * "version", an integer in 1..EXPORT_VERSION_MAX, and "settings", an
 * object of strings.
 */

int export_bad(const char *origin, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s: %s: %s", origin, path, msg);
}
