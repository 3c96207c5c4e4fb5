/* SPDX-License-Identifier: GPL-2.0-only */
/* The external tools' workloads: configs and metric indexes. */
#ifndef SCHEDLAB_TOOLS_H
#define SCHEDLAB_TOOLS_H

#include <stdbool.h>
#include <stdio.h>

#include "workload/workload.h"

/* dbench and tbench */
struct dbench_cfg {
	unsigned clients;	/* 0: one per online CPU */
	unsigned time;		/* -t seconds; the tool warms up for time/5 */
	const char *loadfile;	/* -c, or NULL for the tool's default */
	int netns;		/* tbench: enum tbench_netns */
};

enum tbench_netns { NETNS_AUTO, NETNS_YES, NETNS_NO };

enum { DB_MBPS, DB_MAX_LAT, DB_CLIENTS };

/* Shared by dbench.c and tbench.c. */
struct ext_out;
struct metric_def;
extern const char *const dbench_fatal[];
unsigned dbench_clients(const struct dbench_cfg *c);
unsigned dbench_limit_s(const struct dbench_cfg *c);
/* Their numbers as text, for their command lines. */
struct dbench_args {
	char t[16], n[16];
};
/*
 * "TOOL -t T [-D DIR] [-c LOADFILE] N" into argv (dir NULL: no -D),
 * then NULL; returns how many words came before it.
 */
int dbench_argv(char **argv, const char *tool, const struct dbench_cfg *c,
		const char *dir, struct dbench_args *b);
int dbench_results(struct wl_ctx *ctx, const char *tool,
		   const struct ext_out *out, struct wl_result *res);
/* The Throughput line both print, their text format's result(). */
void dbench_text_result(FILE *f, const void *cfg, const struct wl_result *r);

/* Their -t and -c options, TOOL "dbench" or "tbench". */
#define DBENCH_OPTIONS(TOOL)						\
	{ .name = "runtime", .alias = OPT_ALIASES("time"),		\
	  .type = OPT_DURATION,						\
	  .offset = offsetof(struct dbench_cfg, time), .def = "60",	\
	  .min = 2, .max = 86400, .arg = "SECS", .short_flag = 't',	\
	  .help = TOOL " -t: how long it runs, its warm-up "		\
		  "(runtime/5) included (with 1 it reports 0 MB/sec)" }, \
	{ .name = "loadfile", .type = OPT_STRING,			\
	  .offset = offsetof(struct dbench_cfg, loadfile),		\
	  .arg = "FILE", .short_flag = 'c',				\
	  .help = TOOL " -c: the load file (default: dbench's "	\
		  "client.txt)" }

/* Their metric table, from the Throughput line: TOOL's name first. */
#define DBENCH_METRICS(TOOL) {						\
	[DB_MBPS] = { TOOL ".mbps", "MB/s", BETTER_HIGHER, true,	\
		      "the Throughput line " TOOL " printed" },		\
	[DB_MAX_LAT] = { TOOL ".max_latency_ms", "ms", BETTER_LOWER,	\
			 false,						\
			 "max_latency of that line: the slowest operation" }, \
	[DB_CLIENTS] = { TOOL ".clients", "clients", BETTER_NONE,	\
			 false, "the clients it ran, as it printed them" }, \
	{ .name = NULL },						\
}

/* pgbench */
enum pgbench_mode { PGB_SELECT_ONLY, PGB_TPCB_LIKE, PGB_SIMPLE_UPDATE };

struct pgbench_cfg {
	unsigned clients, threads;	/* -c, -j (0: as many as clients) */
	unsigned time;			/* -T seconds */
	unsigned scale;			/* -i -s; 0: from db_size */
	const char *db_size;		/* "22MB", "7484MB", "15GB" */
	int mode;			/* enum pgbench_mode */
	const char *conninfo;		/* an existing server instead */
};

enum { PGB_TPS, PGB_LAT_AVG, PGB_TX, PGB_FAILED, PGB_SCALE, PGB_SETUP_S };

/* sysbench */
enum sysbench_test { SB_OLTP_RO, SB_OLTP_RW, SB_THREADS, SB_CPU };

struct sysbench_cfg {
	int test;			/* enum sysbench_test */
	unsigned threads, time;
	unsigned tables, table_size;	/* oltp */
};

enum { SB_EPS, SB_TPS, SB_QPS, SB_LAT_MIN, SB_LAT_AVG, SB_LAT_MAX, SB_LAT_P95,
       SB_N };

/*
 * sysbench's --threads and --time, and the metrics of its Latency block
 * (TOOL "sysbench" or "fileio"), for both: CFG is the config's type.
 * The two order the Latency metrics differently: a table that uses them
 * ends with [SB_N] or [FI_N], not after the last one written.
 */
#define SYSBENCH_OPTIONS(CFG)						\
	{ .name = "threads", .type = OPT_UINT,				\
	  .offset = offsetof(CFG, threads), .def = "1", .min = 1,	\
	  .max = 10000, .arg = "N", .help = "sysbench --threads" },	\
	{ .name = "runtime", .alias = OPT_ALIASES("time"),		\
	  .type = OPT_DURATION, .offset = offsetof(CFG, time),		\
	  .def = "10", .min = 1, .max = 86400, .arg = "SECS",		\
	  .help = "sysbench --time" }
#define SYSBENCH_LATENCY_METRICS(TOOL, MIN, AVG, MAX, P95)		\
	[MIN] = { TOOL ".latency_min_ms", "ms", BETTER_LOWER, false,	\
		  "its Latency min" },					\
	[AVG] = { TOOL ".latency_avg_ms", "ms", BETTER_LOWER, false,	\
		  "its Latency avg" },					\
	[MAX] = { TOOL ".latency_max_ms", "ms", BETTER_LOWER, false,	\
		  "its Latency max" },					\
	[P95] = { TOOL ".latency_p95_ms", "ms", BETTER_LOWER, false,	\
		  "its Latency 95th percentile" }

/* fileio: sysbench fileio */
enum fileio_mode { FI_SEQWR, FI_SEQREWR, FI_SEQRD, FI_RNDRD, FI_RNDWR, FI_RNDRW };
enum fileio_sync { FI_FSYNC, FI_FDATASYNC };

struct fileio_cfg {
	int mode;			/* enum fileio_mode */
	const char *total_size;		/* --file-total-size: "64M" */
	unsigned files;			/* --file-num */
	const char *block_size;		/* --file-block-size: "16K" */
	unsigned threads, time;
	unsigned fsync_freq;		/* --file-fsync-freq, 0: none */
	bool fsync_all, fsync_end;
	int fsync_mode;			/* enum fileio_sync */
	const char *extra_flags;	/* --file-extra-flags: sync,dsync,direct */
};

enum { FI_MIB, FI_READS, FI_WRITES, FI_FSYNCS, FI_READ_MIB, FI_WRITTEN_MIB,
       FI_LAT_MIN, FI_LAT_AVG, FI_LAT_P95, FI_LAT_MAX, FI_N };

/* fio */
enum fio_rw { FIO_READ, FIO_WRITE, FIO_RANDREAD, FIO_RANDWRITE, FIO_RW,
	      FIO_RANDRW };
enum fio_engine { FIO_LIBAIO, FIO_IO_URING, FIO_PSYNC };

struct fio_cfg {
	int rw;				/* enum fio_rw */
	const char *bs, *size;		/* "4k", "64M" */
	int ioengine;			/* enum fio_engine */
	unsigned iodepth, numjobs, runtime;
	const char *jobfile;		/* a fio job file instead */
};

enum { FIO_IOPS, FIO_READ_IOPS, FIO_WRITE_IOPS, FIO_READ_MIB, FIO_WRITE_MIB,
       FIO_READ_LAT, FIO_WRITE_LAT, FIO_READ_P95, FIO_READ_P99,
       FIO_WRITE_P95, FIO_WRITE_P99 };

/*
 * A size as fio and sysbench write it: a whole number of bytes, or with
 * K, M, G or T (powers of 1024, either case, an optional "B" or "iB").
 * 0, or -1 if s is not one or is 0 or above 1 TiB x 1024.
 */
int io_size(const char *s, unsigned long long *bytes);

#endif
