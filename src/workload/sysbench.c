// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysbench: the real sysbench 1.0. oltp_read_only and oltp_read_write
 * run through its pgsql driver against the throwaway PostgreSQL cluster
 * of pgcluster.h (seed 003 used MySQL; PostgreSQL is what Debian ships
 * with a sysbench driver here), prepared once per tables x table-size;
 * threads (yield and mutex: scheduler-heavy) and cpu need no server.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "workload/ext_parse.h"
#include "workload/external.h"
#include "workload/pgcluster.h"
#include "workload/registry.h"
#include "workload/tools.h"
#include "util.h"

static const char *const test_names[] = { "oltp_read_only",
					  "oltp_read_write", "threads", "cpu",
					  NULL };

static bool oltp(const struct sysbench_cfg *c)
{
	return c->test == SB_OLTP_RO || c->test == SB_OLTP_RW;
}

static int sysbench_prepare(const void *cfgp)
{
	const struct sysbench_cfg *c = cfgp;
	int rc = ext_need("sysbench", "sysbench", "sysbench");

	if (!rc && oltp(c))
		rc = pg_prepare("sysbench", true);
	return rc;
}

/* The pgsql driver's options: argv[*i...], with buffers in b. */
struct sb_db {
	char host[300], tables[32], size[32];
};

static void db_args(char **argv, int *i, const struct sysbench_cfg *c,
		    const struct pg_server *s, struct sb_db *b)
{
	snprintf(b->host, sizeof(b->host), "--pgsql-host=%s", s->sock);
	snprintf(b->tables, sizeof(b->tables), "--tables=%u", c->tables);
	snprintf(b->size, sizeof(b->size), "--table-size=%u", c->table_size);
	argv[(*i)++] = "--db-driver=pgsql";
	argv[(*i)++] = b->host;
	argv[(*i)++] = "--pgsql-user=" PG_USER;
	argv[(*i)++] = "--pgsql-db=" PG_DB;
	argv[(*i)++] = b->tables;
	argv[(*i)++] = b->size;
}

static int load(struct wl_ctx *ctx, const struct pg_server *s, void *arg)
{
	const struct sysbench_cfg *c = arg;
	char *argv[16];
	struct ext_cmd cmd = { .what = "sysbench prepare", .argv = argv,
			       .out_fd = -1 };
	struct ext_out out;
	struct sb_db b;
	int i = 0, rc;

	argv[i++] = "sysbench";
	argv[i++] = "oltp_read_only";	/* the tables are the same for both */
	db_args(argv, &i, c, s, &b);
	argv[i++] = "prepare";
	argv[i] = NULL;
	rc = ext_run(ctx, &cmd, 0, NULL, &out, NULL);
	ext_out_free(&out);
	return rc;
}

static const char *const sysbench_fatal[] = { "FATAL:", NULL };

/* sysbench's output parsed into res; 0, or -1 after wl_fail(). */
static int sysbench_results(struct wl_ctx *ctx, const struct ext_out *out,
			    struct wl_result *res)
{
	struct sysbench_out o;
	char err[512];

	if (parse_sysbench(out->buf, &o, err, sizeof(err)))
		return wl_fail(ctx, "sysbench: %s", err);
	wl_set(res, SB_EPS, o.eps);
	if (!isnan(o.tps))
		wl_set(res, SB_TPS, o.tps);
	if (!isnan(o.qps))
		wl_set(res, SB_QPS, o.qps);
	wl_set(res, SB_LAT_MIN, o.lat_min);
	wl_set(res, SB_LAT_AVG, o.lat_avg);
	wl_set(res, SB_LAT_MAX, o.lat_max);
	wl_set(res, SB_LAT_P95, o.lat_p95);
	return 0;
}

static int sysbench_run(const void *cfgp, struct wl_ctx *ctx,
			struct wl_result *res)
{
	const struct sysbench_cfg *c = cfgp;
	char threads[32], t[32], key[64];
	char *argv[20];
	struct ext_cmd cmd = { .what = "sysbench", .argv = argv, .out_fd = -1 };
	struct pg_server srv = { .setup_s = NAN };
	struct ext_out out;
	struct sb_db b;
	int i = 0, rc;

	if (oltp(c)) {
		snprintf(key, sizeof(key), "sysbench-%ux%u", c->tables,
			 c->table_size);
		if (pg_start(ctx, key, load, (void *)c, &srv))
			return -1;
	}
	snprintf(threads, sizeof(threads), "--threads=%u", c->threads);
	snprintf(t, sizeof(t), "--time=%u", c->time);
	argv[i++] = "sysbench";
	argv[i++] = (char *)test_names[c->test];
	if (oltp(c))
		db_args(argv, &i, c, &srv, &b);
	argv[i++] = threads;
	argv[i++] = t;
	argv[i++] = "run";
	argv[i] = NULL;

	rc = ext_run_timed(ctx, &cmd, 2 * c->time + 60, sysbench_fatal, &out);
	pg_stop(&srv);
	if (!rc)
		rc = sysbench_results(ctx, &out, res);
	ext_out_free(&out);
	return rc;
}

#define O(f) offsetof(struct sysbench_cfg, f)
static const struct opt_def sysbench_options[] = {
	{ .name = "test", .type = OPT_ENUM, .offset = O(test),
	  .def = "oltp_read_only", .choices = test_names, .arg = "TEST",
	  .help = "oltp_read_only and oltp_read_write (PostgreSQL), threads, cpu" },
	SYSBENCH_OPTIONS(struct sysbench_cfg),
	{ .name = "tables", .type = OPT_UINT, .offset = O(tables), .def = "1",
	  .min = 1, .max = 1000, .arg = "N",
	  .help = "oltp: sysbench --tables, prepared once" },
	{ .name = "table-size", .type = OPT_UINT, .offset = O(table_size),
	  .def = "10000", .min = 1, .max = 1000000000, .arg = "ROWS",
	  .help = "oltp: sysbench --table-size" },
	{ .name = NULL },
};
#undef O

static const struct metric_def sysbench_metrics[] = {
	[SB_EPS] = { "sysbench.events_per_sec", "events/s", BETTER_HIGHER,
		     true, "oltp: its transactions per second; cpu: its events per second; threads: events / total time" },
	[SB_TPS] = { "sysbench.tps", "tps", BETTER_HIGHER, false,
		     "oltp: transactions per second, as printed" },
	[SB_QPS] = { "sysbench.qps", "qps", BETTER_HIGHER, false,
		     "oltp: queries per second, as printed" },
	SYSBENCH_LATENCY_METRICS("sysbench", SB_LAT_MIN, SB_LAT_AVG,
				 SB_LAT_MAX, SB_LAT_P95),
	[SB_N] = { .name = NULL },
};

/* sysbench's rate and Latency block, from the values it printed */
static void sysbench_text_result(FILE *f, const void *cfg,
				 const struct wl_result *r)
{
	(void)cfg;
	if (r->have[SB_TPS])
		fprintf(f, "    transactions per sec.:   %.2f\n", r->value[SB_TPS]);
	if (r->have[SB_QPS])
		fprintf(f, "    queries per sec.:        %.2f\n", r->value[SB_QPS]);
	fprintf(f, "    events per second: %8.2f\n\n", r->value[SB_EPS]);
	print_sysbench_latency(f, r->value[SB_LAT_MIN], r->value[SB_LAT_AVG],
			       r->value[SB_LAT_MAX], r->value[SB_LAT_P95]);
}

static const struct text_format sysbench_formats[] = {
	{ "sysbench", "sysbench's rates and Latency block",
	  NULL, sysbench_text_result, NULL },
	{ .name = NULL },
};

/* OLTP's cluster: its tables at about 250 bytes a row with the index,
 * and the cluster itself */
static double sysbench_disk_bytes(const void *cfgp)
{
	const struct sysbench_cfg *c = cfgp;

	return (double)c->tables * c->table_size * 250.0 + 96.0 * 1024 * 1024;
}

const struct workload wl_sysbench = {
	.name = "sysbench",
	.summary = "the real sysbench: OLTP on a throwaway PostgreSQL cluster, threads, cpu",
	.reference = "sysbench 1.0",
	.events = "events",
	.cfg_size = sizeof(struct sysbench_cfg),
	.options = sysbench_options,
	.metrics = sysbench_metrics,
	.formats = sysbench_formats,
	.prepare = sysbench_prepare,
	.run = sysbench_run,
	.disk_bytes = sysbench_disk_bytes,
};
