// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileio: the real sysbench 1.0's fileio test, seed 001's "fileio".
 * Each run prepares its files (untimed), runs the test mode and cleans
 * up, all in a temporary directory that the run owns and the supervisor
 * removes whatever happens. The figures are the ones sysbench printed.
 * mmtests has no sysbench fileio parser to follow (its sysbench
 * extractors are oltp, cpu and threads), so the headline is the I/O the
 * mode does: read plus written MiB/s.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "workload/ext_parse.h"
#include "workload/external.h"
#include "workload/registry.h"
#include "workload/tools.h"
#include "util.h"

static const char *const mode_names[] = { "seqwr", "seqrewr", "seqrd",
					  "rndrd", "rndwr", "rndrw", NULL };
static const char *const sync_names[] = { "fsync", "fdatasync", NULL };

int io_size(const char *s, unsigned long long *bytes)
{
	static const char units[] = "kmgt";
	unsigned long long v = 0;
	const char *u;
	int shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 1ull << 40)
			return -1;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (*s && (u = strchr(units, *s | 0x20)) != NULL) {
		shift = 10 * (int)(u - units + 1);
		s++;
	}
	if (!strcmp(s, "B") || !strcmp(s, "b") || (shift && !strcmp(s, "iB")))
		s += strlen(s);
	if (*s || !v || v > (1ull << 50) >> shift)
		return -1;
	*bytes = v << shift;
	return 0;
}

/* sysbench's --file-extra-flags: a comma list of sync, dsync, direct */
static bool extra_flags_ok(const char *s)
{
	static const char *const ok[] = { "sync", "dsync", "direct" };

	while (*s) {
		size_t n = strcspn(s, ","), i;

		for (i = 0; i < 3; i++)
			if (n == strlen(ok[i]) && !strncmp(s, ok[i], n))
				break;
		if (i == 3)
			return false;
		s += n + (s[n] == ',');
	}
	return true;
}

static int fileio_prepare(const void *cfgp)
{
	const struct fileio_cfg *c = cfgp;
	unsigned long long total, bs;
	struct statvfs vfs;

	if (io_size(c->total_size, &total))
		return error("fileio: option --file-total-size '%s' is not a size (a whole number of bytes, or with K, M, G or T: 64M)",
			     c->total_size), EXIT_USAGE;
	if (io_size(c->block_size, &bs) || bs > 1 << 30)
		return error("fileio: option --file-block-size '%s' is not a size of 1G or less (a whole number of bytes, or with K, M or G: 16K)",
			     c->block_size), EXIT_USAGE;
	if (c->extra_flags && !extra_flags_ok(c->extra_flags))
		return error("fileio: option --file-extra-flags '%s' is not a comma list of sync, dsync and direct",
			     c->extra_flags), EXIT_USAGE;
	if (total / c->files < bs)
		return error("fileio: --file-total-size %s over --file-num %u files is less than one block of --file-block-size %s",
			     c->total_size, c->files, c->block_size), EXIT_USAGE;
	if (!statvfs(ext_tmpbase(), &vfs) &&
	    (double)total > (double)vfs.f_bavail * (double)vfs.f_frsize)
		return error("fileio: --file-total-size %s is more than the %.0f MiB free on %s (TMPDIR chooses where)",
			     c->total_size, (double)vfs.f_bavail *
			     (double)vfs.f_frsize / (1 << 20), ext_tmpbase()),
		       EXIT_USAGE;
	return ext_need("fileio", "sysbench", "sysbench");
}

/* sysbench's fileio arguments, common to prepare, run and cleanup */
struct fi_args {
	char num[32], total[48], bs[48], thr[32], t[32], mode[48];
	char freq[48], all[32], end[32], smode[48], flags[300];
};

static void fileio_argv(char **argv, const struct fileio_cfg *c,
			struct fi_args *b, const char *what)
{
	unsigned long long total = 0, bs = 0;
	int i = 0;

	io_size(c->total_size, &total);
	io_size(c->block_size, &bs);
	snprintf(b->num, sizeof(b->num), "--file-num=%u", c->files);
	snprintf(b->total, sizeof(b->total), "--file-total-size=%llu", total);
	argv[i++] = "sysbench";
	argv[i++] = "fileio";
	argv[i++] = b->num;
	argv[i++] = b->total;
	if (c->extra_flags) {
		snprintf(b->flags, sizeof(b->flags), "--file-extra-flags=%s",
			 c->extra_flags);
		argv[i++] = b->flags;
	}
	if (!strcmp(what, "run")) {
		snprintf(b->mode, sizeof(b->mode), "--file-test-mode=%s",
			 mode_names[c->mode]);
		snprintf(b->bs, sizeof(b->bs), "--file-block-size=%llu", bs);
		snprintf(b->thr, sizeof(b->thr), "--threads=%u", c->threads);
		snprintf(b->t, sizeof(b->t), "--time=%u", c->time);
		snprintf(b->freq, sizeof(b->freq), "--file-fsync-freq=%u",
			 c->fsync_freq);
		snprintf(b->all, sizeof(b->all), "--file-fsync-all=%s",
			 c->fsync_all ? "on" : "off");
		snprintf(b->end, sizeof(b->end), "--file-fsync-end=%s",
			 c->fsync_end ? "on" : "off");
		snprintf(b->smode, sizeof(b->smode), "--file-fsync-mode=%s",
			 sync_names[c->fsync_mode]);
		argv[i++] = b->mode;
		argv[i++] = b->bs;
		argv[i++] = b->thr;
		argv[i++] = b->t;
		argv[i++] = b->freq;
		argv[i++] = b->all;
		argv[i++] = b->end;
		argv[i++] = b->smode;
	}
	argv[i++] = (char *)what;
	argv[i] = NULL;
}

static const char *const sysbench_fatal[] = { "FATAL:", NULL };

/* sysbench fileio prepare or cleanup, in dir */
static int fileio_step(struct wl_ctx *ctx, const struct fileio_cfg *c,
		       const char *dir, const char *what)
{
	char *argv[24], name[32];
	struct ext_cmd cmd = { .what = name, .argv = argv, .dir = dir,
			       .out_fd = -1 };
	struct ext_out out;
	struct fi_args b;
	int rc;

	snprintf(name, sizeof(name), "sysbench fileio %s", what);
	fileio_argv(argv, c, &b, what);
	rc = ext_run(ctx, &cmd, 0, sysbench_fatal, &out, NULL);
	ext_out_free(&out);
	return rc;
}

static int fileio_results(struct wl_ctx *ctx, const struct ext_out *out,
			  struct wl_result *res)
{
	struct fileio_out o;
	char err[512];

	if (parse_sysbench_fileio(out->buf, &o, err, sizeof(err)))
		return wl_fail(ctx, "sysbench fileio: %s", err);
	wl_set(res, FI_MIB, o.read_mib + o.written_mib);
	wl_set(res, FI_READS, o.reads);
	wl_set(res, FI_WRITES, o.writes);
	wl_set(res, FI_FSYNCS, o.fsyncs);
	wl_set(res, FI_READ_MIB, o.read_mib);
	wl_set(res, FI_WRITTEN_MIB, o.written_mib);
	wl_set(res, FI_LAT_MIN, o.sb.lat_min);
	wl_set(res, FI_LAT_AVG, o.sb.lat_avg);
	wl_set(res, FI_LAT_P95, o.sb.lat_p95);
	wl_set(res, FI_LAT_MAX, o.sb.lat_max);
	return 0;
}

static int fileio_run(const void *cfgp, struct wl_ctx *ctx,
		      struct wl_result *res)
{
	const struct fileio_cfg *c = cfgp;
	char dir[256], *argv[24];
	struct ext_cmd cmd = { .what = "sysbench fileio", .argv = argv,
			       .dir = dir, .out_fd = -1 };
	struct ext_out out = { 0 };
	struct fi_args b;
	int rc;

	if (ext_tmpdir(ctx, "fileio", dir, sizeof(dir)))
		return -1;
	rc = fileio_step(ctx, c, dir, "prepare");
	if (!rc) {
		fileio_argv(argv, c, &b, "run");
		rc = ext_run_timed(ctx, &cmd, 2 * c->time + 60,
				   sysbench_fatal, &out);
		if (!rc)
			rc = fileio_results(ctx, &out, res);
		ext_out_free(&out);
		if (!rc)
			rc = fileio_step(ctx, c, dir, "cleanup");
	}
	rm_tree(dir);
	return rc;
}

#define O(f) offsetof(struct fileio_cfg, f)
static const struct opt_def fileio_options[] = {
	{ .name = "mode", .alias = OPT_ALIASES("file-test-mode"),
	  .type = OPT_ENUM, .offset = O(mode), .def = "rndrw",
	  .choices = mode_names, .arg = "MODE",
	  .help = "sysbench --file-test-mode: sequential write, rewrite, read; random read, write, read/write" },
	{ .name = "file-total-size", .alias = OPT_ALIASES("size"),
	  .type = OPT_STRING, .offset = O(total_size), .def = "1G",
	  .arg = "SIZE",
	  .help = "sysbench --file-total-size: all the files together (64M, 2G), prepared before each run, untimed" },
	{ .name = "file-num", .alias = OPT_ALIASES("files"), .type = OPT_UINT,
	  .offset = O(files), .def = "128", .min = 1, .max = 100000,
	  .arg = "N", .help = "sysbench --file-num: how many files" },
	{ .name = "file-block-size", .alias = OPT_ALIASES("block-size", "bs"),
	  .type = OPT_STRING, .offset = O(block_size), .def = "16K",
	  .arg = "SIZE", .help = "sysbench --file-block-size: the size of each I/O" },
	SYSBENCH_OPTIONS(struct fileio_cfg),
	{ .name = "file-fsync-freq", .type = OPT_UINT, .offset = O(fsync_freq),
	  .def = "100", .min = 0, .max = 1000000000, .arg = "N",
	  .help = "sysbench --file-fsync-freq: fsync() after this many requests (0: never)" },
	{ .name = "file-fsync-all", .type = OPT_BOOL, .offset = O(fsync_all),
	  .def = "false",
	  .help = "sysbench --file-fsync-all: fsync() after each write" },
	{ .name = "file-fsync-end", .type = OPT_BOOL, .offset = O(fsync_end),
	  .def = "true",
	  .help = "sysbench --file-fsync-end: fsync() at the end of the test" },
	{ .name = "file-fsync-mode", .type = OPT_ENUM, .offset = O(fsync_mode),
	  .def = "fsync", .choices = sync_names, .arg = "MODE",
	  .help = "sysbench --file-fsync-mode: fsync or fdatasync" },
	{ .name = "file-extra-flags", .type = OPT_STRING,
	  .offset = O(extra_flags), .arg = "LIST",
	  .help = "sysbench --file-extra-flags: open flags, a comma list of sync, dsync, direct" },
	{ .name = NULL },
};
#undef O

static const struct metric_def fileio_metrics[] = {
	[FI_MIB] = { "fileio.mib_per_sec", "MiB/s", BETTER_HIGHER, true,
		     "read plus written MiB/s, as sysbench printed them" },
	[FI_READS] = { "fileio.reads_per_sec", "reads/s", BETTER_HIGHER, false,
		       "its File operations reads/s" },
	[FI_WRITES] = { "fileio.writes_per_sec", "writes/s", BETTER_HIGHER,
			false, "its File operations writes/s" },
	[FI_FSYNCS] = { "fileio.fsyncs_per_sec", "fsyncs/s", BETTER_HIGHER,
			false, "its File operations fsyncs/s" },
	[FI_READ_MIB] = { "fileio.read_mib_per_sec", "MiB/s", BETTER_HIGHER,
			  false, "its Throughput read, MiB/s" },
	[FI_WRITTEN_MIB] = { "fileio.written_mib_per_sec", "MiB/s",
			     BETTER_HIGHER, false,
			     "its Throughput written, MiB/s" },
	SYSBENCH_LATENCY_METRICS("fileio", FI_LAT_MIN, FI_LAT_AVG,
				 FI_LAT_MAX, FI_LAT_P95),
	[FI_N] = { .name = NULL },
};

/* sysbench's File operations, Throughput and Latency blocks */
static void fileio_text_result(FILE *f, const void *cfg,
			       const struct wl_result *r)
{
	(void)cfg;
	fprintf(f, "File operations:\n");
	fprintf(f, "    reads/s:                      %.2f\n", r->value[FI_READS]);
	fprintf(f, "    writes/s:                     %.2f\n", r->value[FI_WRITES]);
	fprintf(f, "    fsyncs/s:                     %.2f\n\n", r->value[FI_FSYNCS]);
	fprintf(f, "Throughput:\n");
	fprintf(f, "    read, MiB/s:                  %.2f\n", r->value[FI_READ_MIB]);
	fprintf(f, "    written, MiB/s:               %.2f\n\n",
		r->value[FI_WRITTEN_MIB]);
	print_sysbench_latency(f, r->value[FI_LAT_MIN], r->value[FI_LAT_AVG],
			       r->value[FI_LAT_MAX], r->value[FI_LAT_P95]);
}

static const struct text_format fileio_formats[] = {
	{ "sysbench", "sysbench fileio's File operations, Throughput and Latency blocks",
	  NULL, fileio_text_result, NULL },
	{ .name = NULL },
};

static double fileio_disk_bytes(const void *cfgp)
{
	const struct fileio_cfg *c = cfgp;
	unsigned long long total = 0;

	io_size(c->total_size, &total);
	return (double)total;
}

const struct workload wl_fileio = {
	.name = "fileio",
	.summary = "the real sysbench fileio: prepare, run a test mode, clean up, in a run-owned directory",
	.reference = "sysbench 1.0 fileio",
	.events = "requests",
	.cfg_size = sizeof(struct fileio_cfg),
	.options = fileio_options,
	.metrics = fileio_metrics,
	.formats = fileio_formats,
	.prepare = fileio_prepare,
	.run = fileio_run,
	.disk_bytes = fileio_disk_bytes,
};
