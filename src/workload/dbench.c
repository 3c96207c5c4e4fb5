// SPDX-License-Identifier: GPL-2.0-only
/*
 * dbench: the real dbench 4.0 (Debian package dbench), N client
 * processes replaying its load file as file-system calls in a temporary
 * directory that the run owns and the supervisor removes whatever
 * happens. Clients default to the online CPUs, as seed 003 runs it. The
 * headline is dbench's own Throughput line, parsed, not recomputed.
 */
#include <stdio.h>
#include <unistd.h>

#include "workload/ext_parse.h"
#include "workload/external.h"
#include "workload/registry.h"
#include "workload/tools.h"
#include "util.h"

/*
 * What dbench and tbench print when a client is lost for good. A client
 * that dies before it is ready leaves the tool waiting for it forever,
 * printing "1 of 2 processes prepared for launch  N sec" ten times a
 * second: 30 s of that is taken as lost.
 */
const char *const dbench_fatal[] = {
	"failed to start", "Child failed with status", "failed to connect",
	"error reading header", "prepared for launch  30 sec", NULL,
};

unsigned dbench_clients(const struct dbench_cfg *c)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return c->clients ? c->clients : n > 0 ? (unsigned)n : 1;
}

/* The tool's -t plus its cleanup, twice over, and a minute to start. */
unsigned dbench_limit_s(const struct dbench_cfg *c)
{
	return 2 * c->time + 60;
}

int dbench_argv(char **argv, const char *tool, const struct dbench_cfg *c,
		const char *dir, struct dbench_args *b)
{
	int i = 0;

	snprintf(b->t, sizeof(b->t), "%u", c->time);
	snprintf(b->n, sizeof(b->n), "%u", dbench_clients(c));
	argv[i++] = (char *)tool;
	argv[i++] = "-t";
	argv[i++] = b->t;
	if (dir) {
		argv[i++] = "-D";
		argv[i++] = (char *)dir;
	}
	if (c->loadfile) {
		argv[i++] = "-c";
		argv[i++] = (char *)c->loadfile;
	}
	argv[i++] = b->n;
	argv[i] = NULL;
	return i;
}

int dbench_results(struct wl_ctx *ctx, const char *tool,
		   const struct ext_out *out, struct wl_result *res)
{
	struct dbench_out o;
	char err[512];

	if (parse_dbench(out->buf, &o, err, sizeof(err)))
		return wl_fail(ctx, "%s: %s", tool, err);
	wl_set(res, DB_MBPS, o.mbps);
	wl_set(res, DB_MAX_LAT, o.max_latency_ms);
	wl_set(res, DB_CLIENTS, o.clients);
	return 0;
}

static int dbench_prepare(const void *cfg)
{
	(void)cfg;
	return ext_need("dbench", "dbench", "dbench");
}

static int dbench_run(const void *cfgp, struct wl_ctx *ctx,
		      struct wl_result *res)
{
	const struct dbench_cfg *c = cfgp;
	char dir[256], *argv[10];
	struct ext_cmd cmd = { .what = "dbench", .argv = argv, .out_fd = -1 };
	struct dbench_args b;
	struct ext_out out;
	int rc;

	if (ext_tmpdir(ctx, "dbench", dir, sizeof(dir)))
		return -1;
	dbench_argv(argv, "dbench", c, dir, &b);
	rc = ext_run_timed(ctx, &cmd, dbench_limit_s(c), dbench_fatal, &out);
	if (!rc)
		rc = dbench_results(ctx, "dbench", &out, res);
	ext_out_free(&out);
	rm_tree(dir);
	return rc;
}

#define O(f) offsetof(struct dbench_cfg, f)
static const struct opt_def dbench_options[] = {
	{ .name = "clients", .type = OPT_UINT, .offset = O(clients),
	  .def = "0", .min = 0, .max = 10000, .arg = "N",
	  .help = "client processes; 0: one per online CPU (seed 003)" },
	DBENCH_OPTIONS("dbench"),
	{ .name = NULL },
};
#undef O

static const struct metric_def dbench_metrics[] = DBENCH_METRICS("dbench");

/* dbench's and tbench's last line, from the values parsed out of it */
void dbench_text_result(FILE *f, const void *cfg, const struct wl_result *r)
{
	(void)cfg;
	fprintf(f, "Throughput %g MB/sec  %d clients  %d procs  max_latency=%.3f ms\n",
		r->value[DB_MBPS], (int)r->value[DB_CLIENTS],
		(int)r->value[DB_CLIENTS], r->value[DB_MAX_LAT]);
}

static const struct text_format dbench_formats[] = {
	{ "dbench", "dbench's Throughput line", NULL, dbench_text_result, NULL },
	{ .name = NULL },
};

const struct workload wl_dbench = {
	.name = "dbench",
	.summary = "the real dbench: N clients replaying a file-server load in a temporary directory",
	.reference = "dbench 4.0",
	.events = "ops",
	.cfg_size = sizeof(struct dbench_cfg),
	.options = dbench_options,
	.metrics = dbench_metrics,
	.formats = dbench_formats,
	.prepare = dbench_prepare,
	.run = dbench_run,
};
