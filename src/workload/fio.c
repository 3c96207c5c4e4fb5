// SPDX-License-Identifier: GPL-2.0-only
/*
 * fio: the real fio 3 as the asynchronous-I/O workload (seed 001's
 * aiostress has no Debian package; fio's libaio and io_uring engines do
 * what it did). One job from the options here, or the user's fio job
 * file (jobfile=PATH); either way its files go in a temporary directory
 * the run owns (--directory, which a job file must leave alone), and
 * fio writes --output-format=json there, parsed with jansson
 * (fio_json.c). --group_reporting makes numjobs one set of figures.
 * The headline is read plus write IOPS.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/ext_parse.h"
#include "workload/external.h"
#include "workload/registry.h"
#include "workload/tools.h"
#include "util.h"

static const char *const rw_names[] = { "read", "write", "randread",
					"randwrite", "rw", "randrw", NULL };
static const char *const engine_names[] = { "libaio", "io_uring", "psync",
					    NULL };

/*
 * A job file's keys that would put its files outside the run's
 * directory: "directory" and "filename" (with any blanks around '=').
 * Returns the line number of the first, 0 if none, -1 if unreadable.
 */
static int jobfile_places_files(const char *path, char *key, size_t len)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	int n = 0, found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *s = line + strspn(line, " \t");
		size_t k = strcspn(s, " \t=");

		n++;
		if ((k == 9 && !strncmp(s, "directory", 9)) ||
		    (k == 8 && !strncmp(s, "filename", 8)) ||
		    (k == 13 && !strncmp(s, "filename_format", 13))) {
			snprintf(key, len, "%.*s", (int)k, s);
			found = n;
		}
	}
	fclose(f);
	return found;
}

static int fio_prepare(const void *cfgp)
{
	const struct fio_cfg *c = cfgp;
	unsigned long long v;
	char key[32];
	int line;

	if (c->jobfile) {
		line = jobfile_places_files(c->jobfile, key, sizeof(key));
		if (line < 0)
			return error_errno("fio: option --jobfile '%s' cannot be read",
					   c->jobfile), EXIT_USAGE;
		if (line)
			return error("fio: option --jobfile '%s' sets %s= (line %d): its files go in the run's own temporary directory, so leave it out",
				     c->jobfile, key, line), EXIT_USAGE;
	}
	if (io_size(c->bs, &v) || v > 1 << 30)
		return error("fio: option --bs '%s' is not a size of 1G or less (a whole number of bytes, or with K, M or G: 4k)",
			     c->bs), EXIT_USAGE;
	if (io_size(c->size, &v))
		return error("fio: option --size '%s' is not a size (a whole number of bytes, or with K, M, G or T: 64M)",
			     c->size), EXIT_USAGE;
	return ext_need("fio", "fio", "fio");
}

struct fio_args {
	char dir[300], out[320], rw[32], bs[48], size[48], eng[32], depth[32];
	char jobs[32], rt[32];
};

static void fio_argv(char **argv, const struct fio_cfg *c, const char *dir,
		     struct fio_args *b)
{
	unsigned long long bs = 0, size = 0;
	int i = 0;

	snprintf(b->dir, sizeof(b->dir), "--directory=%s", dir);
	snprintf(b->out, sizeof(b->out), "--output=%s/fio.json", dir);
	argv[i++] = "fio";
	argv[i++] = "--output-format=json";
	argv[i++] = b->out;
	argv[i++] = "--group_reporting";
	argv[i++] = b->dir;
	if (c->jobfile) {
		argv[i++] = (char *)c->jobfile;
		argv[i] = NULL;
		return;
	}
	io_size(c->bs, &bs);
	io_size(c->size, &size);
	snprintf(b->rw, sizeof(b->rw), "--rw=%s", rw_names[c->rw]);
	snprintf(b->bs, sizeof(b->bs), "--bs=%llu", bs);
	snprintf(b->size, sizeof(b->size), "--size=%llu", size);
	snprintf(b->eng, sizeof(b->eng), "--ioengine=%s",
		 engine_names[c->ioengine]);
	snprintf(b->depth, sizeof(b->depth), "--iodepth=%u", c->iodepth);
	snprintf(b->jobs, sizeof(b->jobs), "--numjobs=%u", c->numjobs);
	snprintf(b->rt, sizeof(b->rt), "--runtime=%u", c->runtime);
	argv[i++] = "--name=schedlab";
	argv[i++] = b->rw;
	argv[i++] = b->bs;
	argv[i++] = b->size;
	argv[i++] = b->eng;
	argv[i++] = b->depth;
	argv[i++] = b->jobs;
	argv[i++] = b->rt;
	argv[i++] = "--time_based";
	argv[i] = NULL;
}

static void set_dir(struct wl_result *res, const struct fio_dir *d,
		    int iops, int mib, int lat, int p95, int p99)
{
	if (d->ios == 0)
		return;
	wl_set(res, iops, d->iops);
	wl_set(res, mib, d->mib);
	wl_set(res, lat, d->lat_avg_us);
	if (!isnan(d->clat_p95_us))
		wl_set(res, p95, d->clat_p95_us);
	if (!isnan(d->clat_p99_us))
		wl_set(res, p99, d->clat_p99_us);
}

/* The whole of a small file, NUL-terminated (free it), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 0, n;
	char *buf = NULL;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096)
			buf = xrealloc(buf, cap = 2 * cap + 8192);
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n && len < EXT_OUT_MAX);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static int fio_results(struct wl_ctx *ctx, const char *dir,
		       struct wl_result *res)
{
	char path[320], err[512];
	struct fio_out o;
	char *json;
	int rc;

	snprintf(path, sizeof(path), "%s/fio.json", dir);
	json = slurp(path);
	if (!json)
		return wl_fail_errno(ctx, "fio: cannot read its JSON output %s",
				     path);
	rc = parse_fio(json, &o, err, sizeof(err));
	free(json);
	if (rc)
		return wl_fail(ctx, "fio: %s", err);
	wl_set(res, FIO_IOPS, o.read.iops + o.write.iops);
	set_dir(res, &o.read, FIO_READ_IOPS, FIO_READ_MIB, FIO_READ_LAT,
		FIO_READ_P95, FIO_READ_P99);
	set_dir(res, &o.write, FIO_WRITE_IOPS, FIO_WRITE_MIB, FIO_WRITE_LAT,
		FIO_WRITE_P95, FIO_WRITE_P99);
	return 0;
}

static const char *const fio_fatal[] = { "fio: pid=", NULL };

static int fio_run(const void *cfgp, struct wl_ctx *ctx,
		   struct wl_result *res)
{
	const struct fio_cfg *c = cfgp;
	char dir[256], *argv[24];
	struct ext_cmd cmd = { .what = "fio", .argv = argv, .dir = dir,
			       .out_fd = -1 };
	struct ext_out out;
	struct fio_args b;
	int rc;

	if (ext_tmpdir(ctx, "fio", dir, sizeof(dir)))
		return -1;
	fio_argv(argv, c, dir, &b);
	/* a job file's runtime is its own: the run's timeout bounds it */
	rc = ext_run_timed(ctx, &cmd, c->jobfile ? 0 : 2 * c->runtime + 60,
			   fio_fatal, &out);
	ext_out_free(&out);
	if (!rc)
		rc = fio_results(ctx, dir, res);
	rm_tree(dir);
	return rc;
}

#define O(f) offsetof(struct fio_cfg, f)
static const struct opt_def fio_options[] = {
	{ .name = "rw", .alias = OPT_ALIASES("readwrite"), .type = OPT_ENUM,
	  .offset = O(rw), .def = "randread", .choices = rw_names,
	  .arg = "PATTERN", .help = "fio --rw: the I/O pattern" },
	{ .name = "bs", .alias = OPT_ALIASES("blocksize"), .type = OPT_STRING,
	  .offset = O(bs), .def = "4k", .arg = "SIZE",
	  .help = "fio --bs: the size of each I/O" },
	{ .name = "size", .type = OPT_STRING, .offset = O(size), .def = "256M",
	  .arg = "SIZE", .help = "fio --size: each job's file" },
	{ .name = "ioengine", .type = OPT_ENUM, .offset = O(ioengine),
	  .def = "libaio", .choices = engine_names, .arg = "ENGINE",
	  .help = "fio --ioengine: libaio and io_uring asynchronous, psync synchronous" },
	{ .name = "iodepth", .type = OPT_UINT, .offset = O(iodepth),
	  .def = "16", .min = 1, .max = 65536, .arg = "N",
	  .help = "fio --iodepth: I/Os in flight per job" },
	{ .name = "numjobs", .type = OPT_UINT, .offset = O(numjobs),
	  .def = "1", .min = 1, .max = 4096, .arg = "N",
	  .help = "fio --numjobs: processes doing the job, reported together" },
	{ .name = "runtime", .alias = OPT_ALIASES("time"), .type = OPT_DURATION,
	  .offset = O(runtime), .def = "10", .min = 1, .max = 86400,
	  .arg = "SECS", .help = "fio --runtime, time-based" },
	{ .name = "jobfile", .type = OPT_STRING, .offset = O(jobfile),
	  .arg = "PATH",
	  .help = "a fio job file to run instead of the options above (it must not set directory= or filename=)" },
	{ .name = NULL },
};
#undef O

static const struct metric_def fio_metrics[] = {
	[FIO_IOPS] = { "fio.iops", "IOPS", BETTER_HIGHER, true,
		       "read plus write iops of its jobs" },
	[FIO_READ_IOPS] = { "fio.read_iops", "IOPS", BETTER_HIGHER, false,
			    "jobs[].read.iops" },
	[FIO_WRITE_IOPS] = { "fio.write_iops", "IOPS", BETTER_HIGHER, false,
			     "jobs[].write.iops" },
	[FIO_READ_MIB] = { "fio.read_mib_per_sec", "MiB/s", BETTER_HIGHER,
			   false, "jobs[].read.bw_bytes" },
	[FIO_WRITE_MIB] = { "fio.write_mib_per_sec", "MiB/s", BETTER_HIGHER,
			    false, "jobs[].write.bw_bytes" },
	[FIO_READ_LAT] = { "fio.read_lat_avg_us", "us", BETTER_LOWER, false,
			   "jobs[].read.lat_ns mean: submission to completion" },
	[FIO_WRITE_LAT] = { "fio.write_lat_avg_us", "us", BETTER_LOWER, false,
			    "jobs[].write.lat_ns mean" },
	[FIO_READ_P95] = { "fio.read_clat_p95_us", "us", BETTER_LOWER, false,
			   "jobs[].read.clat_ns 95th percentile" },
	[FIO_READ_P99] = { "fio.read_clat_p99_us", "us", BETTER_LOWER, false,
			   "jobs[].read.clat_ns 99th percentile" },
	[FIO_WRITE_P95] = { "fio.write_clat_p95_us", "us", BETTER_LOWER,
			    false, "jobs[].write.clat_ns 95th percentile" },
	[FIO_WRITE_P99] = { "fio.write_clat_p99_us", "us", BETTER_LOWER,
			    false, "jobs[].write.clat_ns 99th percentile" },
	{ .name = NULL },
};

/* a file of --size for each of --numjobs (a job file's own: unknown) */
static double fio_disk_bytes(const void *cfgp)
{
	const struct fio_cfg *c = cfgp;
	unsigned long long size = 0;

	io_size(c->size, &size);
	return (double)size * (c->numjobs ? c->numjobs : 1);
}

const struct workload wl_fio = {
	.name = "fio",
	.summary = "the real fio: asynchronous I/O (libaio, io_uring) from options or a fio job file",
	.reference = "fio 3",
	.events = "I/Os",
	.cfg_size = sizeof(struct fio_cfg),
	.options = fio_options,
	.metrics = fio_metrics,
	.prepare = fio_prepare,
	.run = fio_run,
	.disk_bytes = fio_disk_bytes,
};
