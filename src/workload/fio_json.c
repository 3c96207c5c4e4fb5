// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio_json: fio 3's --output-format=json, its jobs[] read and write
 * objects turned into the figures of struct fio_out (ext_parse.h).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workload/ext_parse.h"

/* A number member of obj (an integer or a real), or NaN. */
static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* clat_ns.percentile["95.000000"] in microseconds, or NaN */
static double pct_us(const json_t *dir, const char *key)
{
	const json_t *p = json_object_get(json_object_get(dir, "clat_ns"),
					  "percentile");

	return num(p, key) / 1000;
}

/* Adds one job's direction (name: "read" or "write") to d. */
static int add_dir(const json_t *job, const char *name, struct fio_dir *d,
		   char *err, size_t errlen)
{
	const json_t *dir = json_object_get(job, name);
	double ios, iops, bw, lat, n;

	if (!json_is_object(dir)) {
		snprintf(err, errlen, "a job has no '%s' object", name);
		return -1;
	}
	ios = num(dir, "total_ios");
	iops = num(dir, "iops");
	bw = num(dir, "bw_bytes");
	if (isnan(ios) || isnan(iops) || isnan(bw) || ios < 0) {
		snprintf(err, errlen, "a job's '%s' lacks total_ios, iops or bw_bytes",
			 name);
		return -1;
	}
	if (ios == 0)
		return 0;
	lat = num(json_object_get(dir, "lat_ns"), "mean") / 1000;
	n = num(json_object_get(dir, "lat_ns"), "N");
	if (isnan(lat) || isnan(n) || n <= 0) {
		snprintf(err, errlen, "a job's '%s' has I/O but no lat_ns mean",
			 name);
		return -1;
	}
	if (d->ios == 0) {
		d->lat_avg_us = 0;
		d->lat_n = 0;
	}
	d->ios += ios;
	d->iops += iops;
	d->mib += bw / (1024 * 1024);
	d->lat_avg_us = (d->lat_avg_us * d->lat_n + lat * n) / (d->lat_n + n);
	d->lat_n += n;
	/* fmax() ignores a NaN: a job without percentiles */
	d->clat_p95_us = fmax(d->clat_p95_us, pct_us(dir, "95.000000"));
	d->clat_p99_us = fmax(d->clat_p99_us, pct_us(dir, "99.000000"));
	return 0;
}

int parse_fio(const char *text, struct fio_out *o, char *err, size_t errlen)
{
	const struct fio_dir none = { .lat_avg_us = NAN, .clat_p95_us = NAN,
				      .clat_p99_us = NAN };
	const char *start = text ? strchr(text, '{') : NULL;
	json_error_t jerr;
	json_t *root, *jobs, *job;
	size_t i;
	int rc = 0;

	o->read = o->write = none;
	o->jobs = 0;
	if (!start) {
		snprintf(err, errlen, "no JSON in its output");
		return -1;
	}
	root = json_loads(start, JSON_DISABLE_EOF_CHECK, &jerr);
	if (!root) {
		snprintf(err, errlen, "its JSON does not parse: %s (line %d)",
			 jerr.text, jerr.line);
		return -1;
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs) || !json_array_size(jobs)) {
		snprintf(err, errlen, "its JSON has no jobs[]");
		rc = -1;
	}
	json_array_foreach(rc ? NULL : jobs, i, job) {
		double e = num(job, "error");

		if (!isnan(e) && e != 0) {
			snprintf(err, errlen, "job '%s' ended with error %.0f",
				 json_string_value(json_object_get(job, "jobname")) ?: "?",
				 e);
			rc = -1;
			break;
		}
		if (add_dir(job, "read", &o->read, err, errlen) ||
		    add_dir(job, "write", &o->write, err, errlen)) {
			rc = -1;
			break;
		}
		o->jobs++;
	}
	if (!rc && o->read.ios + o->write.ios == 0) {
		snprintf(err, errlen, "its jobs did no I/O");
		rc = -1;
	}
	json_decref(root);
	return rc;
}
