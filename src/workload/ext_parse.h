/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ext_parse: the output of the external tools, turned into numbers.
 * Each parser takes the whole output as text and returns 0, or -1 with a
 * one-line reason in err naming what was missing or the line that did
 * not parse. Formats: ../shared/reference/external.md and the captures
 * in tests/fixtures/external/.
 */
#ifndef SCHEDLAB_EXT_PARSE_H
#define SCHEDLAB_EXT_PARSE_H

#include <stddef.h>
#include <stdio.h>

/* dbench and tbench (dbench 4.0) */
struct dbench_out {
	double mbps;		/* Throughput N MB/sec */
	double max_latency_ms;	/* max_latency=N ms */
	unsigned clients, procs;
	unsigned seconds;	/* per-second "execute" lines seen */
	double last_mbps;	/* of the last of them */
};

int parse_dbench(const char *text, struct dbench_out *o, char *err,
		 size_t errlen);

/* pgbench (PostgreSQL 15; also the older "including/excluding connections" tps) */
struct pgbench_out {
	double tps;
	double latency_avg_ms;	/* NaN if absent (it is with -C, for example) */
	double transactions;	/* number of transactions actually processed */
	double failed;		/* number of failed transactions; NaN before PG 15 */
};

int parse_pgbench(const char *text, struct pgbench_out *o, char *err,
		  size_t errlen);

/* sysbench 1.0 run: oltp_* (transactions), cpu (events per second), threads */
struct sysbench_out {
	double tps;		/* transactions: N (X per sec.); NaN if absent */
	double qps;		/* queries: N (X per sec.); NaN if absent */
	double eps;		/* events per second: printed, else events / total time */
	double events, total_s;
	double lat_min, lat_avg, lat_max, lat_p95;	/* ms */
};

int parse_sysbench(const char *text, struct sysbench_out *o, char *err,
		   size_t errlen);

/* sysbench's "Latency (ms):" block with these values, as sysbench prints it */
void print_sysbench_latency(FILE *f, double min, double avg, double max,
			    double p95);

/* sysbench 1.0 fileio run: its File operations and Throughput blocks */
struct fileio_out {
	double reads, writes, fsyncs;	/* reads/s, writes/s, fsyncs/s */
	double read_mib, written_mib;	/* read, MiB/s; written, MiB/s */
	struct sysbench_out sb;		/* total time, events, Latency (ms) */
};

int parse_sysbench_fileio(const char *text, struct fileio_out *o, char *err,
			  size_t errlen);

/*
 * fio 3 --output-format=json (fio_json.c): jobs[] summed - iops and
 * bandwidth added, latency means weighted by their sample counts, the
 * percentiles the largest of the jobs' (one job with --group_reporting).
 * A direction that did no I/O has ios 0 and the rest NaN.
 */
struct fio_dir {
	double ios, iops, mib;		/* total_ios, iops, bw_bytes in MiB/s */
	double lat_avg_us, clat_p95_us, clat_p99_us;	/* lat_ns, clat_ns */
	double lat_n;			/* lat_ns N: the weight of lat_avg_us */
};

struct fio_out {
	struct fio_dir read, write;
	unsigned jobs;
};

int parse_fio(const char *json, struct fio_out *o, char *err, size_t errlen);

#endif
