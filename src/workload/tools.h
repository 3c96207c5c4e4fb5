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
int dbench_results(struct wl_ctx *ctx, const char *tool,
		   const struct ext_out *out, struct wl_result *res);
/* The Throughput line both print, their text format's result(). */
void dbench_text_result(FILE *f, const void *cfg, const struct wl_result *r);

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

enum { SB_EPS, SB_TPS, SB_QPS, SB_LAT_MIN, SB_LAT_AVG, SB_LAT_MAX, SB_LAT_P95 };

#endif
