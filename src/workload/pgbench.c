// SPDX-License-Identifier: GPL-2.0-only
/*
 * pgbench: the real pgbench against a throwaway PostgreSQL cluster
 * (pgcluster.h) loaded with `pgbench -i -s SCALE` once per scale, or an
 * existing server (conninfo). The timed region is the pgbench run only;
 * its own tps line is the headline. --db-size turns seed 001's database
 * sizes (22MB, 7484MB, 15GB) into a scale factor.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "workload/ext_parse.h"
#include "workload/external.h"
#include "workload/pgcluster.h"
#include "workload/registry.h"
#include "workload/tools.h"
#include "util.h"

/*
 * Bytes per scale unit on PostgreSQL 15: pgbench -i -s N makes N x
 * 100000 accounts; measured, scale 1 is ~23 MB on disk and each unit
 * adds ~15.6 MB (../shared/reference/external.md).
 */
#define MB (1024.0 * 1024.0)
#define BYTES_PER_SCALE (15.6 * MB)
#define TMPFS_MAGIC 0x01021994

static const char *const mode_names[] = { "select-only", "tpcb-like",
					  "simple-update", NULL };
/* pgbench -b NAME for each mode */
static const char *const builtin[] = { "select-only", "tpcb-like",
				       "simple-update" };

/* "22MB", "7484 MB", "15GB", "1.5G": bytes, or -1. Units of 1024. */
static double parse_size(const char *s)
{
	static const char *const units[] = { "k", "m", "g", "t" };
	char *end;
	double v = strtod(s, &end), mul = 1;

	if (end == s || !isfinite(v) || v <= 0)
		return -1;
	while (*end == ' ')
		end++;
	if (!*end)
		return -1;	/* a unit is needed: MB or GB */
	for (size_t i = 0; i < 4; i++) {
		mul *= 1024;
		if (tolower((unsigned char)*end) != units[i][0])
			continue;
		end++;
		if (*end == 'B' || *end == 'b')
			end++;
		return *end ? -1 : v * mul;
	}
	return -1;
}

static unsigned size_to_scale(double bytes)
{
	double s = round(bytes / BYTES_PER_SCALE);

	return s < 1 ? 1 : (unsigned)s;
}

static unsigned cfg_scale(const struct pgbench_cfg *c)
{
	if (c->scale)
		return c->scale;
	return c->db_size ? size_to_scale(parse_size(c->db_size)) : 1;
}

static double mem_available(void)
{
	char line[256];
	double kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

/* The database, with its indexes and WAL, must fit where it is made. */
static int check_room(const struct pgbench_cfg *c, unsigned scale)
{
	double need = (scale * BYTES_PER_SCALE + 8 * MB) * 1.5, avail, mem;
	const char *where = pg_root();
	struct statvfs vfs;
	struct statfs fs;

	if (statvfs(where, &vfs))
		return 0;	/* cannot tell: let initdb find out */
	avail = (double)vfs.f_bavail * (double)vfs.f_frsize;
	if (need > avail) {
		error("pgbench: scale %u%s%s%s needs about %.0f MB on %s, which has %.0f MB free (TMPDIR chooses where)",
		      scale, c->db_size ? " (--db-size " : "",
		      c->db_size ? c->db_size : "", c->db_size ? ")" : "",
		      need / MB, where, avail / MB);
		return EXIT_USAGE;
	}
	/* on tmpfs the database is memory */
	mem = mem_available();
	if (!statfs(where, &fs) && fs.f_type == TMPFS_MAGIC && mem > 0 &&
	    need > mem) {
		error("pgbench: scale %u needs about %.0f MB on %s, a tmpfs, and only %.0f MB of memory is available",
		      scale, need / MB, where, mem / MB);
		return EXIT_USAGE;
	}
	return 0;
}

static int pgbench_prepare(const void *cfgp)
{
	const struct pgbench_cfg *c = cfgp;
	int rc;

	if (c->db_size && parse_size(c->db_size) < 0)
		return error("pgbench: option --db-size '%s' is not a size (expected a number and a unit: 22MB, 7484MB, 15GB)",
			     c->db_size), EXIT_USAGE;
	if (c->db_size && c->scale)
		return error("pgbench: give --db-size or -s/--scale, not both"),
		       EXIT_USAGE;
	if (c->conninfo && (c->db_size || c->scale))
		return error("pgbench: with --conninfo the server is yours to load (pgbench -i); --db-size and -s/--scale are for schedlab's own cluster"),
		       EXIT_USAGE;
	if (c->threads > c->clients)
		return error("pgbench: -j/--threads %u is more than -c/--clients %u",
			     c->threads, c->clients), EXIT_USAGE;
	rc = pg_prepare("pgbench", !c->conninfo);
	/* the server's CPU serving the run is the run's, not another's */
	if (!rc && c->conninfo)
		proc_serving_add(pg_conninfo_server(c->conninfo));
	if (rc || c->conninfo)
		return rc;
	return check_room(c, cfg_scale(c));
}

static void pg_conn_args(char **argv, int *i, const struct pg_server *s)
{
	argv[(*i)++] = "-h";
	argv[(*i)++] = (char *)s->sock;
	argv[(*i)++] = "-U";
	argv[(*i)++] = PG_USER;
}

static int load(struct wl_ctx *ctx, const struct pg_server *s, void *arg)
{
	char prog[PATH_MAX], scale[16];
	char *argv[12];
	struct ext_cmd c = { .what = "pgbench -i", .argv = argv, .out_fd = -1 };
	struct ext_out out;
	int i = 0, rc;

	snprintf(scale, sizeof(scale), "%u", *(unsigned *)arg);
	argv[i++] = (char *)pg_bin("pgbench", prog, sizeof(prog));
	argv[i++] = "-i";
	argv[i++] = "-s";
	argv[i++] = scale;
	pg_conn_args(argv, &i, s);
	argv[i++] = PG_DB;
	argv[i] = NULL;
	rc = ext_run(ctx, &c, 0, NULL, &out, NULL);
	ext_out_free(&out);
	return rc;
}

/* pgbench's output parsed into res; 0, or -1 after wl_fail(). */
static int pgbench_results(struct wl_ctx *ctx, const struct ext_out *out,
			   struct wl_result *res)
{
	struct pgbench_out o;
	char err[512];

	if (parse_pgbench(out->buf, &o, err, sizeof(err)))
		return wl_fail(ctx, "pgbench: %s", err);
	wl_set(res, PGB_TPS, o.tps);
	if (!isnan(o.latency_avg_ms))
		wl_set(res, PGB_LAT_AVG, o.latency_avg_ms);
	wl_set(res, PGB_TX, o.transactions);
	if (!isnan(o.failed))
		wl_set(res, PGB_FAILED, o.failed);
	return 0;
}

static int pgbench_run(const void *cfgp, struct wl_ctx *ctx,
		       struct wl_result *res)
{
	const struct pgbench_cfg *c = cfgp;
	unsigned scale = cfg_scale(c);
	char prog[PATH_MAX], nc[16], nj[16], t[16], key[32];
	char *argv[20];
	struct ext_cmd cmd = { .what = "pgbench", .argv = argv, .out_fd = -1 };
	struct pg_server srv = { .setup_s = NAN };
	struct ext_out out;
	int i = 0, rc;

	if (!c->conninfo) {
		snprintf(key, sizeof(key), "pgbench-s%u", scale);
		if (pg_start(ctx, key, load, &scale, &srv))
			return -1;
	}
	snprintf(nc, sizeof(nc), "%u", c->clients);
	snprintf(nj, sizeof(nj), "%u", c->threads ? c->threads : c->clients);
	snprintf(t, sizeof(t), "%u", c->time);
	argv[i++] = (char *)pg_bin("pgbench", prog, sizeof(prog));
	argv[i++] = "-n";
	argv[i++] = "-b";
	argv[i++] = (char *)builtin[c->mode];
	argv[i++] = "-c";
	argv[i++] = nc;
	argv[i++] = "-j";
	argv[i++] = nj;
	argv[i++] = "-T";
	argv[i++] = t;
	if (c->conninfo) {
		argv[i++] = (char *)c->conninfo;
	} else {
		pg_conn_args(argv, &i, &srv);
		argv[i++] = PG_DB;
	}
	argv[i] = NULL;

	rc = ext_run_timed(ctx, &cmd, 2 * c->time + 60, NULL, &out);
	pg_stop(&srv);
	if (!rc)
		rc = pgbench_results(ctx, &out, res);
	ext_out_free(&out);
	if (rc)
		return -1;
	if (!c->conninfo)
		wl_set(res, PGB_SCALE, scale);
	if (!isnan(srv.setup_s))
		wl_set(res, PGB_SETUP_S, srv.setup_s);
	return 0;
}

#define O(f) offsetof(struct pgbench_cfg, f)
static const struct opt_def pgbench_options[] = {
	{ .name = "clients", .type = OPT_UINT, .offset = O(clients),
	  .def = "1", .min = 1, .max = 10000, .arg = "N", .short_flag = 'c',
	  .help = "pgbench -c: client connections" },
	{ .name = "threads", .type = OPT_UINT, .offset = O(threads),
	  .def = "0", .min = 0, .max = 10000, .arg = "N", .short_flag = 'j',
	  .help = "pgbench -j: its threads; 0: one per client" },
	{ .name = "runtime", .alias = OPT_ALIASES("time"), .type = OPT_DURATION,
	  .offset = O(time), .def = "10", .min = 1, .max = 86400, .arg = "SECS",
	  .short_flag = 'T',
	  .help = "pgbench -T: how long it runs" },
	{ .name = "mode", .type = OPT_ENUM, .offset = O(mode),
	  .def = "tpcb-like", .choices = mode_names, .arg = "SCRIPT",
	  .help = "pgbench -b: the built-in script" },
	{ .name = "mode", .set = "select-only", .short_flag = 'S',
	  .help = "select-only (pgbench -S)" },
	{ .name = "mode", .set = "simple-update", .short_flag = 'N',
	  .help = "simple-update (pgbench -N)" },
	{ .name = "scale", .type = OPT_UINT, .offset = O(scale), .def = "0",
	  .min = 0, .max = 100000, .arg = "N", .short_flag = 's',
	  .help = "pgbench -i -s: the scale factor the cluster is loaded at; 0: from --db-size, else 1" },
	{ .name = "db-size", .type = OPT_STRING, .offset = O(db_size),
	  .arg = "SIZE",
	  .help = "the database size instead, as seed 001 gives it (22MB, 7484MB, 15GB): ~15.6 MB per scale unit" },
	{ .name = "conninfo", .type = OPT_STRING, .offset = O(conninfo),
	  .arg = "CONNINFO",
	  .help = "an existing server, already loaded with pgbench -i "
		  "(\"host=/run/postgresql dbname=bench\"), instead of a throwaway cluster" },
	{ .name = NULL },
};
#undef O

static const struct metric_def pgbench_metrics[] = {
	[PGB_TPS] = { "pgbench.tps", "tps", BETTER_HIGHER, true,
		      "its tps line (without the initial connection time)" },
	[PGB_LAT_AVG] = { "pgbench.latency_avg_ms", "ms", BETTER_LOWER, false,
			  "its latency average" },
	[PGB_TX] = { "pgbench.transactions", "tx", BETTER_NONE, false,
		     "transactions actually processed" },
	[PGB_FAILED] = { "pgbench.failed", "tx", BETTER_LOWER, false,
			 "failed transactions" },
	[PGB_SCALE] = { "pgbench.scale", "scale", BETTER_NONE, false,
			"the scale factor of the throwaway cluster" },
	[PGB_SETUP_S] = { "pgbench.setup_s", "s", BETTER_NONE, false,
			  "initdb, start and pgbench -i, when this run made the cluster" },
	{ .name = NULL },
};

/* pgbench's last two lines (PostgreSQL 14 and later) */
static void pgbench_text_result(FILE *f, const void *cfg,
				const struct wl_result *r)
{
	(void)cfg;
	if (r->have[PGB_LAT_AVG])
		fprintf(f, "latency average = %.3f ms\n", r->value[PGB_LAT_AVG]);
	fprintf(f, "tps = %f (without initial connection time)\n",
		r->value[PGB_TPS]);
}

static const struct text_format pgbench_formats[] = {
	{ "pgbench", "pgbench's latency average and tps lines",
	  NULL, pgbench_text_result, NULL },
	{ .name = NULL },
};

/* the database, its indexes and WAL, as check_room() reckons them */
static double pgbench_disk_bytes(const void *cfgp)
{
	return (cfg_scale(cfgp) * BYTES_PER_SCALE + 8 * MB) * 1.5 + 64 * MB;
}

const struct workload wl_pgbench = {
	.name = "pgbench",
	.summary = "the real pgbench against a throwaway PostgreSQL cluster (or --conninfo)",
	.reference = "pgbench (PostgreSQL 15)",
	.events = "tx",
	.cfg_size = sizeof(struct pgbench_cfg),
	.options = pgbench_options,
	.metrics = pgbench_metrics,
	.formats = pgbench_formats,
	.prepare = pgbench_prepare,
	.run = pgbench_run,
	.disk_bytes = pgbench_disk_bytes,
};
