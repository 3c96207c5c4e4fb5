// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/ext_parse.h"
#include "workload/external.h"

#define LINE_MAX_LEN 512

/*
 * Calls fn on each line of text (without its newline, leading blanks
 * skipped); stops when fn returns non-zero and returns that.
 */
static int each_line(const char *text, int (*fn)(const char *line, void *arg),
		     void *arg)
{
	char line[LINE_MAX_LEN];

	while (text && *text) {
		size_t n = strcspn(text, "\n");
		const char *s = text;
		int rc;

		while (n && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		rc = fn(line, arg);
		if (rc)
			return rc;
		text = s + n + (s[n] == '\n');
	}
	return 0;
}

static int missing(const char *text, const char *what, char *err,
		   size_t errlen)
{
	char last[160];

	if (!text || !*text) {
		snprintf(err, errlen, "no output, so no %s line", what);
		return -1;
	}
	snprintf(err, errlen, "no %s line in its output (its last line: '%s')",
		 what, ext_last_line(text, last, sizeof(last)));
	return -1;
}

/* A number, finite and not negative, at s; s itself must hold one. */
static bool number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end != s && isfinite(*v) && *v >= 0;
}

/* A line's key, and where the number after it goes in the output. */
struct line_key {
	const char *key;
	size_t off;
};

/*
 * The number after whichever of keys[n] starts line into out at its
 * offset; -1 when it is not a number, else 0 (no key matched too).
 */
static int keyed_number(const char *line, const struct line_key *keys,
			size_t n, void *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(keys[i].key);

		if (!strncmp(line, keys[i].key, k) &&
		    !number(line + k, (double *)((char *)out + keys[i].off)))
			return -1;
	}
	return 0;
}

/* --- dbench / tbench ------------------------------------------------- */

struct dbench_scan {
	struct dbench_out *o;
	bool have_tp;
	int cleanup;		/* clients left in the last cleanup line; -1: none */
	char cleanup_line[128];
	char *err;
	size_t errlen;
};

static int dbench_line(const char *line, void *arg)
{
	struct dbench_scan *sc = arg;
	struct dbench_out *o = sc->o;
	const char *p;
	unsigned nproc, sec;
	unsigned long ops;
	double mbps, lat;
	char stage[16];

	/* "   2     38605   218.00 MB/sec  execute   2 sec  latency 214.194 ms" */
	if (sscanf(line, "%u %lu %lf MB/sec %15s %u sec latency %lf ms",
		   &nproc, &ops, &mbps, stage, &sec, &lat) == 6) {
		if (!strcmp(stage, "execute")) {
			o->seconds++;
			o->last_mbps = mbps;
		}
		return 0;
	}
	/*
	 * "   0  cleanup   3 sec": clients still running. It ends at 0,
	 * unless a client died: a killed client's status is not checked by
	 * dbench, which then reports the others' throughput as if nothing
	 * had happened.
	 */
	if (sscanf(line, "%u cleanup %u sec", &nproc, &sec) == 2) {
		sc->cleanup = (int)nproc;
		snprintf(sc->cleanup_line, sizeof(sc->cleanup_line), "%s", line);
		return 0;
	}
	if (strncmp(line, "Throughput", 10))
		return 0;
	/* "Throughput 218.003 MB/sec  2 clients  2 procs  max_latency=219.033 ms" */
	if (!number(line + 10, &o->mbps) || !strstr(line, "MB/sec"))
		goto bad;
	p = strstr(line, "MB/sec");
	if (sscanf(p, "MB/sec %u clients %u procs", &o->clients,
		   &o->procs) != 2) {
		/* options such as -s add words after MB/sec */
		p = strstr(line, "clients");
		while (p && p > line && p[-1] == ' ')
			p--;
		while (p && p > line && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (!p || sscanf(p, "%u clients %u procs", &o->clients,
				 &o->procs) != 2)
			goto bad;
	}
	p = strstr(line, "max_latency=");
	if (!p || !number(p + 12, &o->max_latency_ms))
		goto bad;
	sc->have_tp = true;
	return 0;
bad:
	snprintf(sc->err, sc->errlen, "cannot parse the line '%s'", line);
	return -1;
}

int parse_dbench(const char *text, struct dbench_out *o, char *err,
		 size_t errlen)
{
	struct dbench_scan sc = { .o = o, .cleanup = -1, .err = err,
				  .errlen = errlen };

	memset(o, 0, sizeof(*o));
	if (each_line(text, dbench_line, &sc))
		return -1;
	if (!sc.have_tp)
		return missing(text, "'Throughput'", err, errlen);
	if (sc.cleanup > 0) {
		snprintf(err, errlen, "%d of its clients never finished (did one die?): its last cleanup line is '%s'",
			 sc.cleanup, sc.cleanup_line);
		return -1;
	}
	return 0;
}

/* --- pgbench --------------------------------------------------------- */

struct pgbench_scan {
	struct pgbench_out *o;
	bool tps, tps_final;	/* one seen; the one without connections seen */
	bool tx;
	char *err;
	size_t errlen;
};

static int pgbench_line(const char *line, void *arg)
{
	struct pgbench_scan *sc = arg;
	struct pgbench_out *o = sc->o;
	static const char tx[] = "number of transactions actually processed:";
	static const char failed[] = "number of failed transactions:";
	static const char lat[] = "latency average =";
	double v;

	if (!strncmp(line, "tps = ", 6)) {
		/* older pgbench prints it with and without connecting */
		bool final = strstr(line, "without") || strstr(line, "excluding");

		if (!number(line + 6, &v))
			goto bad;
		if (!sc->tps_final) {
			o->tps = v;
			sc->tps = true;
			sc->tps_final = final;
		}
	} else if (!strncmp(line, tx, sizeof(tx) - 1)) {
		if (!number(line + sizeof(tx) - 1, &o->transactions))
			goto bad;
		sc->tx = true;
	} else if (!strncmp(line, failed, sizeof(failed) - 1)) {
		if (!number(line + sizeof(failed) - 1, &o->failed))
			goto bad;
	} else if (!strncmp(line, lat, sizeof(lat) - 1)) {
		if (!number(line + sizeof(lat) - 1, &o->latency_avg_ms) ||
		    !strstr(line, " ms"))
			goto bad;
	}
	return 0;
bad:
	snprintf(sc->err, sc->errlen, "cannot parse the line '%s'", line);
	return -1;
}

int parse_pgbench(const char *text, struct pgbench_out *o, char *err,
		  size_t errlen)
{
	struct pgbench_scan sc = { o, false, false, false, err, errlen };

	o->tps = o->transactions = 0;
	o->latency_avg_ms = o->failed = NAN;
	if (each_line(text, pgbench_line, &sc))
		return -1;
	if (!sc.tps)
		return missing(text, "'tps = '", err, errlen);
	if (!sc.tx)
		return missing(text, "'number of transactions actually processed'",
			       err, errlen);
	return 0;
}

/* --- sysbench -------------------------------------------------------- */

struct sysbench_scan {
	struct sysbench_out *o;
	bool latency;		/* inside "Latency (ms):" */
	char *err;
	size_t errlen;
};

/* "transactions:   6943   (3110.41 per sec.)": the rate in brackets */
static bool per_sec(const char *s, double *count, double *rate)
{
	const char *b = strchr(s, '(');

	return number(s, count) && b && number(b + 1, rate) &&
	       strstr(b, "per sec.)");
}

static int sysbench_line(const char *line, void *arg)
{
	struct sysbench_scan *sc = arg;
	struct sysbench_out *o = sc->o;
	static const struct line_key lat[] = {
		{ "min:", offsetof(struct sysbench_out, lat_min) },
		{ "avg:", offsetof(struct sysbench_out, lat_avg) },
		{ "max:", offsetof(struct sysbench_out, lat_max) },
		{ "95th percentile:", offsetof(struct sysbench_out, lat_p95) },
	};
	double count;

	if (!*line) {
		sc->latency = false;
		return 0;
	}
	if (!strcmp(line, "Latency (ms):")) {
		sc->latency = true;
		return 0;
	}
	if (sc->latency) {
		if (keyed_number(line, lat, sizeof(lat) / sizeof(lat[0]), o))
			goto bad;
		return 0;
	}
	if (!strncmp(line, "transactions:", 13)) {
		if (!per_sec(line + 13, &count, &o->tps))
			goto bad;
	} else if (!strncmp(line, "queries:", 8)) {
		if (!per_sec(line + 8, &count, &o->qps))
			goto bad;
	} else if (!strncmp(line, "events per second:", 18)) {
		if (!number(line + 18, &o->eps))
			goto bad;
	} else if (!strncmp(line, "total time:", 11)) {
		if (!number(line + 11, &o->total_s) || !strchr(line, 's'))
			goto bad;
	} else if (!strncmp(line, "total number of events:", 23)) {
		if (!number(line + 23, &o->events))
			goto bad;
	}
	return 0;
bad:
	snprintf(sc->err, sc->errlen, "cannot parse the line '%s'", line);
	return -1;
}

void print_sysbench_latency(FILE *f, double min, double avg, double max,
			    double p95)
{
	fprintf(f, "Latency (ms):\n");
	fprintf(f, "         min: %39.2f\n", min);
	fprintf(f, "         avg: %39.2f\n", avg);
	fprintf(f, "         max: %39.2f\n", max);
	fprintf(f, "         95th percentile: %27.2f\n", p95);
}

int parse_sysbench(const char *text, struct sysbench_out *o, char *err,
		   size_t errlen)
{
	struct sysbench_scan sc = { o, false, err, errlen };

	o->tps = o->qps = o->eps = o->events = o->total_s = NAN;
	o->lat_min = o->lat_avg = o->lat_max = o->lat_p95 = NAN;
	if (each_line(text, sysbench_line, &sc))
		return -1;
	if (isnan(o->events) || isnan(o->total_s))
		return missing(text, "'total number of events' and 'total time'",
			       err, errlen);
	if (isnan(o->lat_avg) || isnan(o->lat_p95))
		return missing(text, "'Latency (ms)' avg and 95th percentile",
			       err, errlen);
	/* oltp: the transactions' rate; cpu: its events per second */
	if (!isnan(o->tps))
		o->eps = o->tps;
	else if (isnan(o->eps))
		o->eps = o->total_s > 0 ? o->events / o->total_s : 0;
	return 0;
}

/* --- sysbench fileio ------------------------------------------------- */

struct fileio_scan {
	struct fileio_out *o;
	char *err;
	size_t errlen;
};

static int fileio_line(const char *line, void *arg)
{
	struct fileio_scan *sc = arg;
	struct fileio_out *o = sc->o;
	static const struct line_key keys[] = {
		{ "reads/s:", offsetof(struct fileio_out, reads) },
		{ "writes/s:", offsetof(struct fileio_out, writes) },
		{ "fsyncs/s:", offsetof(struct fileio_out, fsyncs) },
		{ "read, MiB/s:", offsetof(struct fileio_out, read_mib) },
		{ "written, MiB/s:", offsetof(struct fileio_out, written_mib) },
	};

	if (keyed_number(line, keys, sizeof(keys) / sizeof(keys[0]), o)) {
		snprintf(sc->err, sc->errlen, "cannot parse the line '%s'",
			 line);
		return -1;
	}
	return 0;
}

int parse_sysbench_fileio(const char *text, struct fileio_out *o, char *err,
			  size_t errlen)
{
	struct fileio_scan sc = { o, err, errlen };

	o->reads = o->writes = o->fsyncs = o->read_mib = o->written_mib = NAN;
	if (each_line(text, fileio_line, &sc))
		return -1;
	if (isnan(o->reads) || isnan(o->writes) || isnan(o->fsyncs))
		return missing(text, "'File operations' reads/s, writes/s and fsyncs/s",
			       err, errlen);
	if (isnan(o->read_mib) || isnan(o->written_mib))
		return missing(text, "'Throughput' read and written MiB/s", err,
			       errlen);
	return parse_sysbench(text, &o->sb, err, errlen);
}
