// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/store.c - how fast the SQLite store keeps and hands back runs;
 * figures for doc/store.md, no pass or fail. `make bench-store` builds
 * and runs it; `build/bench/store [DIR]` puts the databases in DIR
 * (default $TMPDIR or /tmp; the file system decides much of the cost of
 * a commit).
 *
 *   store    100,000 samples into one run: 100 cases x 10 iterations x
 *            100 metrics, and 1000 cases x 10 iterations x 10 metrics
 *            (one transaction per case, as `schedlab run` does)
 *   export   a 10,000-sample run (100 cases x 10 x 10) to a document,
 *            and that document to text, as `show` and `export` do
 *   import   the same document into an empty database
 *   load     a 100,000-sample run (100 cases x 10 x 100) into the run
 *            model (store_load()), as show, compare and export do, and
 *            the model back to a document (run_to_export())
 *
 * Targets: storing 100,000 samples < 1 s; export of 10,000 < 100 ms;
 * loading 100,000 < 50 ms (all of `show` for such a run).
 */
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "store/store.h"
#include "util.h"

#define REPEAT 5

static char dir[512];
static int ndb;

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static struct store *fresh_store(void)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/bench-%d.db", dir, ndb++);
	return store_open(path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void report(const char *what, double *ms, double target_ms)
{
	qsort(ms, REPEAT, sizeof(*ms), cmp_double);
	printf("%-44s %9.1f ms %9.1f ms   %s\n", what, ms[0], ms[REPEAT / 2],
	       ms[REPEAT / 2] < target_ms ? "ok" : "OVER TARGET");
}

/* One run of ncases x niter x nmet samples; its id, or -1. */
static int64_t store_run(struct store *s, const struct metric_def *defs,
			 unsigned ncases, unsigned niter, unsigned nmet,
			 const char *label)
{
	double *v = xcalloc((size_t)niter * nmet, sizeof(*v));
	struct store_run r = {
		.label = label, .host = "bench", .command = "bench/store",
		.version = "bench", .started = 1,
	};
	int64_t id;

	if (store_run_begin(s, &r, &id))
		return -1;
	for (unsigned c = 0; c < ncases; c++) {
		struct store_case sc = {
			.seq = c, .job = "bench", .workload = "messaging",
			.params = "groups=4", .status = "complete",
			.metrics = defs, .nmetrics = nmet, .niter = niter,
			.values = v,
		};

		for (size_t i = 0; i < (size_t)niter * nmet; i++)
			v[i] = 1.0 + c * 1e-3 + i * 1e-7;
		if (store_case_add(s, id, &sc))
			return -1;
	}
	free(v);
	return store_run_end(s, id, "complete", 2, NULL) ? -1 : id;
}

static int bench_store(const struct metric_def *defs, unsigned ncases,
		       unsigned niter, unsigned nmet)
{
	double ms[REPEAT];
	char what[128];

	for (int k = 0; k < REPEAT; k++) {
		struct store *s = fresh_store();
		uint64_t t0;

		if (!s)
			return -1;
		t0 = now_ns();
		if (store_run(s, defs, ncases, niter, nmet, "store") < 0)
			return -1;
		ms[k] = (now_ns() - t0) / 1e6;
		store_close(s);
	}
	snprintf(what, sizeof(what), "store %u samples (%u x %u x %u)",
		 ncases * niter * nmet, ncases, niter, nmet);
	report(what, ms, 1000);
	return 0;
}

static int bench_export(const struct metric_def *defs)
{
	double exp_ms[REPEAT], dump_ms[REPEAT], imp_ms[REPEAT];
	struct store *s = fresh_store();
	int64_t id = s ? store_run(s, defs, 100, 10, 10, "export") : -1;
	size_t len = 0;

	if (id < 0)
		return -1;
	for (int k = 0; k < REPEAT; k++) {
		uint64_t t0 = now_ns(), t1;
		json_t *doc = store_export(s, id);
		char *text = NULL;
		FILE *f;
		struct store *dst;
		int64_t other;

		if (!doc)
			return -1;
		t1 = now_ns();
		f = open_memstream(&text, &len);
		if (!f || export_dump(doc, f))
			return error("cannot write the export to memory");
		fclose(f);
		exp_ms[k] = (t1 - t0) / 1e6;
		dump_ms[k] = (now_ns() - t1) / 1e6;
		free(text);
		dst = fresh_store();
		if (!dst)
			return -1;
		t0 = now_ns();
		if (store_import(dst, doc, "bench", &other))
			return -1;
		imp_ms[k] = (now_ns() - t0) / 1e6;
		store_close(dst);
		json_decref(doc);
	}
	report("export 10000 samples (database -> document)", exp_ms, 100);
	report("export 10000 samples (document -> text)", dump_ms, 100);
	report("import 10000 samples (document -> database)", imp_ms, 1000);
	printf("(the document is %zu bytes)\n", len);
	store_close(s);
	return 0;
}

static int bench_load(const struct metric_def *defs)
{
	double load_ms[REPEAT], doc_ms[REPEAT];
	struct store *s = fresh_store();
	int64_t id = s ? store_run(s, defs, 100, 10, 100, "load") : -1;

	if (id < 0)
		return -1;
	for (int k = 0; k < REPEAT; k++) {
		uint64_t t0 = now_ns(), t1;
		struct run r;
		json_t *doc;

		if (store_load(s, id, &r))
			return -1;
		t1 = now_ns();
		doc = run_to_export(&r);
		load_ms[k] = (t1 - t0) / 1e6;
		doc_ms[k] = (now_ns() - t1) / 1e6;
		json_decref(doc);
		run_free(&r);
	}
	report("load 100000 samples (database -> model)", load_ms, 50);
	report("100000 samples (model -> document)", doc_ms, 1000);
	store_close(s);
	return 0;
}

int main(int argc, char **argv)
{
	static struct metric_def defs[100];
	static char names[100][32];
	const char *t = getenv("TMPDIR");
	int rc;

	snprintf(dir, sizeof(dir), "%s/schedlab-bench-XXXXXX",
		 argc > 1 ? argv[1] : t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		error_errno("%s: cannot create", dir);
		return 1;
	}
	for (int i = 0; i < 100; i++) {
		snprintf(names[i], sizeof(names[i]), "bench.metric_%02d", i);
		defs[i] = (struct metric_def){
			.name = names[i], .unit = "us", .better = BETTER_LOWER,
			.headline = !i, .help = "a benchmark value",
		};
	}
	printf("databases in %s; %d runs each, min and median\n", dir, REPEAT);
	printf("%-44s %12s %12s\n", "", "min", "median");
	rc = bench_store(defs, 100, 10, 100) || bench_store(defs, 1000, 10, 10) ||
	     bench_export(defs) || bench_load(defs);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return rc ? 1 : 0;
}
