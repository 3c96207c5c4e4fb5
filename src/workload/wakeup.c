// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup: schbench's model of a request-serving process, re-implemented
 * from its documented behaviour. -m message threads each hand requests
 * to -t workers. A worker marks itself blocked, pushes itself on its
 * message thread's lock-free list, wakes the message thread and sleeps
 * on its own futex word. The message thread takes the whole list, reads
 * the clock once, stamps every waiter and wakes each. The woken worker
 * measures its wakeup latency (now - stamp), then serves a request:
 * usleep(-s), then -n naive matrix multiplies sized by -F under the lock
 * of the CPU it runs on, and measures the request latency.
 *
 * One process, threads only, no pipes on the hot path: futex(2) and the
 * clock. Each worker records into its own histograms (no sharing), the
 * main thread counts requests every second for the RPS percentiles.
 *
 * schbench's placement (-M/-W), -L, --split, pipe mode (-p), -i
 * reports and -j JSON are here too; wakeup_place.c parses the
 * placement, wakeup_json.c writes the JSON.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "stats/hist.h"
#include "workload/registry.h"
#include "workload/wakeup.h"
#include "util.h"

/*
 * N = sqrt(F * 1024 / 3 / 8): three matrices of 8-byte words fill F KiB
 * (in integers, as schbench: --split's parts may come to 0).
 */
static unsigned matrix_size(unsigned long footprint_kb)
{
	return (unsigned)sqrt((double)(footprint_kb * 1024 / 3 / 8));
}

static uint64_t requests_now(const struct wk_worker *w, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += __atomic_load_n(&w[i].requests, __ATOMIC_RELAXED);
	return sum;
}

static void set_block(struct wl_result *res, int p, int line_n, int min,
		      const struct hist *h, const double *pct, int npct,
		      double scale)
{
	uint64_t below = 0;

	for (int i = 0; i < npct; i++) {
		uint64_t v = hist_percentile(h, pct[i]);
		uint64_t upto = hist_count_upto(h, v);

		wl_set(res, p + i, (double)v / scale);
		/* schbench's "(N samples)": those since the line above */
		wl_set(res, line_n + i, (double)(upto - below));
		below = upto;
	}
	wl_set(res, min, (double)hist_min(h) / scale);
	wl_set(res, min + 1, (double)hist_max(h) / scale);
	wl_set(res, min + 2, (double)hist_count(h));
}

/* Stops everyone: the flag, then every futex word a task may sleep on. */
static void stop_all(struct wk_shared *sh, struct wk_msg *msg, unsigned nmsg,
		     struct wk_worker *wk, unsigned nwk)
{
	__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < nmsg; i++) {
		__atomic_store_n(&msg[i].futex, WK_RUNNING, __ATOMIC_SEQ_CST);
		futex_wake(&msg[i].futex, INT_MAX);
	}
	for (unsigned i = 0; i < nwk; i++) {
		__atomic_store_n(&wk[i].futex, WK_RUNNING, __ATOMIC_SEQ_CST);
		futex_wake(&wk[i].futex, INT_MAX);
	}
}

/*
 * n empty histograms, page-aligned (NULL if there is no memory): a fresh mapping is zero without
 * being touched, so only the pages that values reach become resident
 * (a worker's two histograms are 136 KiB; 16384 workers would need 2 GiB
 * if zeroed up front).
 */
static struct hist *hists(unsigned n)
{
	void *p = mmap(NULL, n * sizeof(struct hist), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * schbench's -i report: the three blocks so far (every latency since
 * the start of the measurement, every second counted) and the requests
 * per second of the last second, on stderr as schbench prints them. The
 * workers keep recording while their histograms are summed: a report
 * may miss the latest few samples, as schbench's does.
 */
static void interval_report(const struct wk_worker *wk, unsigned nwk,
			    struct hist *sum, const struct hist *rps,
			    unsigned secs, double current)
{
	struct wl_result r = { 0 };

	if (sum) {
		memset(sum, 0, 2 * sizeof(*sum));
		for (unsigned i = 0; i < nwk; i++) {
			hist_merge(&sum[0], wk[i].wlat);
			hist_merge(&sum[1], wk[i].rlat);
		}
		set_block(&r, WK_WAKE_P, WK_WAKE_LINE_N, WK_WAKE_MIN, &sum[0],
			  wakeup_lat_pct, WK_NPCT, 1000);
		set_block(&r, WK_REQ_P, WK_REQ_LINE_N, WK_REQ_MIN, &sum[1],
			  wakeup_lat_pct, WK_NPCT, 1000);
	}
	set_block(&r, WK_RPS_P, WK_RPS_LINE_N, WK_RPS_MIN, rps,
		  wakeup_rps_pct, RPS_NPCT, 1);
	wakeup_print_blocks(stderr, secs, &r, "current", current);
	fflush(stderr);
}

static unsigned workers_per_thread(const struct wakeup_cfg *cfg)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned t = cfg->workers;

	if (!t)
		t = ncpu > 0 ? (unsigned)ncpu / cfg->message_threads : 1;
	return t ? t : 1;
}

/* A run's state: what its threads share, and what the main side holds. */
struct wk_run {
	const struct wakeup_cfg *cfg;
	struct wl_ctx *ctx;
	struct wk_shared sh;
	struct wakeup_place place;
	unsigned per, nmsg, nwk;
	struct wk_msg *msg;
	struct wk_worker *wk;
	struct hist *wlat, *rlat, *rps, *sum;
	struct tasks t;
	uint64_t start, stop;
};

/* The shared state, the threads' slots and the histograms: 0, or -1
 * after wl_fail(). */
static int run_setup(struct wk_run *r)
{
	const struct wakeup_cfg *cfg = r->cfg;
	struct wk_shared *sh = &r->sh;

	/* --split: the private share's matrices per worker, the rest shared */
	sh->matrix_n = matrix_size((unsigned long)cfg->footprint_kb * cfg->split / 100);
	sh->shared_n = matrix_size((unsigned long)cfg->footprint_kb *
				   (100 - cfg->split) / 100);
	sh->ops_private = cfg->operations * cfg->split / 100;
	sh->ops_shared = cfg->operations - sh->ops_private;
	if (wakeup_place(cfg, &r->place))
		return wl_fail(r->ctx, "wakeup: the CPUs of -M/-W changed since the start");
	sh->place = &r->place;
	sh->nlocks = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (sh->nlocks < 1)
		sh->nlocks = 1;
	if (cfg->rps)
		sh->pace_ns = (uint64_t)r->nwk * 1000000000ull / cfg->rps;
	if (pipe(sh->barrier.ready) || pipe(sh->barrier.wake))
		return wl_fail_errno(r->ctx, "pipe for the start barrier");
	sh->locks = xcalloc_lines((size_t)sh->nlocks, sizeof(*sh->locks));
	r->msg = xcalloc_lines(r->nmsg, sizeof(*r->msg));
	r->wk = xcalloc_lines(r->nwk, sizeof(*r->wk));
	r->rps = xcalloc_lines(1, sizeof(*r->rps));
	if (cfg->record) {
		r->wlat = hists(r->nwk);
		r->rlat = hists(r->nwk);
		if (cfg->interval)
			r->sum = hists(2);
		if (!r->wlat || !r->rlat || (cfg->interval && !r->sum))
			return wl_fail_errno(r->ctx, "wakeup: %u latency histograms",
					     2 * r->nwk);
	}
	if (sh->shared_n) {
		size_t n = 3 * (size_t)sh->shared_n * sh->shared_n;

		sh->shared_mat = xcalloc(n, sizeof(*sh->shared_mat));
		for (size_t k = 0; k < n; k++)
			sh->shared_mat[k] = k;
	}
	return 0;
}

/* The message threads, then their workers, spawned: 0 or -1. */
static int run_spawn(struct wk_run *r)
{
	const struct wakeup_cfg *cfg = r->cfg;
	size_t mat = 3 * (size_t)r->sh.matrix_n * r->sh.matrix_n;

	if (tasks_init(&r->t, TASK_THREAD, r->nmsg + r->nwk, 0, r->ctx) ||
	    tasks_use_barrier(&r->t, &r->sh.barrier))
		return -1;
	for (unsigned i = 0; i < r->nmsg; i++) {
		r->msg[i].sh = &r->sh;
		r->msg[i].index = i;
		if (tasks_spawn(&r->t, wakeup_message_main, &r->msg[i]))
			return -1;
	}
	for (unsigned i = 0; i < r->nwk; i++) {
		struct wk_worker *w = &r->wk[i];

		w->sh = &r->sh;
		w->msg = &r->msg[i / r->per];
		w->mat = xcalloc(mat ? mat : 1, sizeof(*w->mat));
		if (cfg->pipe_bytes)
			w->page = xcalloc(cfg->pipe_bytes, 1);
		for (size_t k = 0; k < mat; k++)
			w->mat[k] = k;
		if (cfg->record) {
			w->wlat = &r->wlat[i];
			w->rlat = &r->rlat[i];
		}
		if (tasks_spawn(&r->t, wakeup_worker_main, w))
			return -1;
	}
	return 0;
}

/*
 * The timed region: the requests counted every second into the RPS
 * histogram (and -i's reports), then everyone stopped and reaped.
 */
static int run_measure(struct wk_run *r)
{
	const struct wakeup_cfg *cfg = r->cfg;
	uint64_t last = 0, prev;

	__atomic_store_n(&r->sh.measuring, 1, __ATOMIC_SEQ_CST);
	wl_clock_start(r->ctx);
	r->start = now_ns();
	prev = r->start;
	for (unsigned s = 1; s <= cfg->runtime; s++) {
		uint64_t n, now, cur;

		wakeup_sleep_until(r->start + s * 1000000000ull);
		n = requests_now(r->wk, r->nwk);
		now = now_ns();
		/* per second of that interval: this wakeup may come late */
		cur = (uint64_t)llround((double)(n - last) * 1e9 /
					(double)(now - prev));
		hist_record(r->rps, cur);
		last = n;
		prev = now;
		if (cfg->interval && s % cfg->interval == 0)
			interval_report(r->wk, r->nwk, r->sum, r->rps, s,
					(double)cur);
	}
	r->stop = now_ns();
	wl_clock_stop(r->ctx);
	__atomic_store_n(&r->sh.measuring, 0, __ATOMIC_SEQ_CST);
	stop_all(&r->sh, r->msg, r->nmsg, r->wk, r->nwk);
	return tasks_reap(&r->t);
}

/* The blocks, RPS and pipe mode's figures into res: 0, or -1 after
 * wl_fail() when -j's file was not written. */
static int run_results(struct wk_run *r, struct wl_result *res)
{
	const struct wakeup_cfg *cfg = r->cfg;
	double secs = (double)(r->stop - r->start) / 1e9;
	/* with those woken in the window and finished after: one per wakeup */
	uint64_t total = requests_now(r->wk, r->nwk);

	if (cfg->record) {
		for (unsigned i = 1; i < r->nwk; i++) {
			hist_merge(&r->wlat[0], &r->wlat[i]);
			hist_merge(&r->rlat[0], &r->rlat[i]);
		}
		wl_latency_hist(r->ctx, &r->wlat[0]);
		set_block(res, WK_WAKE_P, WK_WAKE_LINE_N, WK_WAKE_MIN, &r->wlat[0],
			  wakeup_lat_pct, WK_NPCT, 1000);
		set_block(res, WK_REQ_P, WK_REQ_LINE_N, WK_REQ_MIN, &r->rlat[0],
			  wakeup_lat_pct, WK_NPCT, 1000);
	}
	set_block(res, WK_RPS_P, WK_RPS_LINE_N, WK_RPS_MIN, r->rps,
		  wakeup_rps_pct, RPS_NPCT, 1);
	if (strcmp(cfg->json, "none") &&
	    wakeup_write_json(cfg, r->wlat, r->rlat, r->rps))
		return wl_fail(r->ctx, "wakeup: -j/--json '%s' not written", cfg->json);
	wl_set(res, WK_RPS_AVG, (double)total / secs);
	wl_set(res, WK_REQUESTS, (double)total);
	if (cfg->pipe_bytes) {
		/* schbench's "avg worker transfer": per worker, per second */
		double ops = (double)total / r->nwk / secs;

		wl_set(res, WK_PIPE_OPS, ops);
		wl_set(res, WK_PIPE_BPS, ops * cfg->pipe_bytes);
		if (cfg->record) {
			uint64_t v = hist_percentile(&r->wlat[0], 20);

			wl_set(res, WK_WAKE_P20, (double)v / 1000);
			wl_set(res, WK_WAKE_P20_N, (double)hist_count_upto(&r->wlat[0], v));
		}
	}
	return 0;
}

static void run_free(struct wk_run *r)
{
	tasks_free(&r->t);
	for (unsigned i = 0; i < r->nwk; i++) {
		free(r->wk[i].mat);
		free(r->wk[i].page);
	}
	free(r->wk);
	free(r->msg);
	if (r->wlat) {
		munmap(r->wlat, r->nwk * sizeof(*r->wlat));
		munmap(r->rlat, r->nwk * sizeof(*r->rlat));
	}
	if (r->sum)
		munmap(r->sum, 2 * sizeof(*r->sum));
	free(r->rps);
	free(r->sh.shared_mat);
	free(r->sh.locks);
}

static int wakeup_run(const void *cfgp, struct wl_ctx *ctx,
		      struct wl_result *res)
{
	const struct wakeup_cfg *cfg = cfgp;
	unsigned per = workers_per_thread(cfg);
	struct wk_run r = {
		.cfg = cfg, .ctx = ctx, .per = per,
		.nmsg = cfg->message_threads, .nwk = cfg->message_threads * per,
		.sh = { .cfg = cfg, .ctx = ctx, .stamp = cfg->record,
			.probing = wl_probing(ctx) },
	};

	if (run_setup(&r) || run_spawn(&r) ||
	    tasks_wait_ready(&r.t) || tasks_release(&r.t))
		return -1;
	if (cfg->warmup)
		wakeup_sleep_until(now_ns() + cfg->warmup * 1000000000ull);
	if (run_measure(&r) || run_results(&r, res))
		return -1;
	run_free(&r);
	return 0;
}

static int wakeup_prepare(const void *cfgp)
{
	const struct wakeup_cfg *cfg = cfgp;
	unsigned long long n = (unsigned long long)cfg->message_threads *
			       workers_per_thread(cfg);
	struct wakeup_place place;

	if (wakeup_place(cfg, &place))
		return EXIT_USAGE;
	if (cfg->interval && cfg->pipe_bytes) {
		error("wakeup: -i/--interval has no reports in pipe mode (-p), as in schbench");
		return EXIT_USAGE;
	}
	if (cfg->interval && cfg->interval > cfg->runtime) {
		error("wakeup: -i/--interval %u is longer than the runtime (%u s): no report would come",
		      cfg->interval, cfg->runtime);
		return EXIT_USAGE;
	}

	if (n > 16384) {
		error("wakeup: %llu workers (-m x -t) is more than the 16384 allowed",
		      n);
		return EXIT_USAGE;
	}
	if (cfg->rps && cfg->rps < n) {
		error("wakeup: -R/--rps %u is less than one request per second for each of the %llu workers",
		      cfg->rps, n);
		return EXIT_USAGE;
	}
	return 0;
}

#define O(f) offsetof(struct wakeup_cfg, f)
static const struct opt_def wakeup_options[] = {
	{ .name = "message_threads", .type = OPT_UINT, .offset = O(message_threads),
	  .def = "1", .min = 1, .max = 1024, .arg = "NUM", .short_flag = 'm',
	  .help = "message threads, each handing requests to its workers" },
	{ .name = "workers", .type = OPT_UINT, .offset = O(workers),
	  .def = "0", .min = 0, .max = 16384, .arg = "NUM", .short_flag = 't',
	  .alias = OPT_ALIASES("threads"),
	  .help = "workers per message thread (0: online CPUs / message threads)" },
	{ .name = "runtime", .type = OPT_DURATION, .offset = O(runtime),
	  .def = "30", .min = 1, .max = 31536000, .arg = "SECS",
	  .short_flag = 'r', .help = "measured seconds, after the warm-up" },
	{ .name = "warmup_s", .type = OPT_DURATION, .offset = O(warmup),
	  .def = "0", .min = 0, .max = 86400, .arg = "SECS",
	  .short_flag = 'w', .alias = OPT_ALIASES("warmuptime"), .help = "seconds run before measuring, whatever the runtime" },
	{ .name = "sleep_us", .type = OPT_UINT, .offset = O(sleep_us),
	  .def = "100", .min = 0, .max = 10000000, .arg = "USEC",
	  .short_flag = 's', .alias = OPT_ALIASES("sleeptime"),
	  .help = "each request first sleeps this long (usleep)" },
	{ .name = "footprint_kb", .type = OPT_UINT, .offset = O(footprint_kb),
	  .def = "256", .min = 1, .max = 1048576, .arg = "KIB",
	  .short_flag = 'F', .alias = OPT_ALIASES("cache_footprint"),
	  .help = "the three matrices of a request's work fill this many KiB" },
	{ .name = "operations", .type = OPT_UINT, .offset = O(operations),
	  .def = "5", .min = 0, .max = 100000, .arg = "NUM", .short_flag = 'n',
	  .help = "matrix multiplies per request, under the CPU's lock" },
	{ .name = "rps", .type = OPT_UINT, .offset = O(rps), .def = "0",
	  .min = 0, .max = 100000000, .arg = "RPS", .short_flag = 'R',
	  .help = "pace all workers together at this many requests per second (0: closed loop)" },
	{ .name = "record", .type = OPT_BOOL, .offset = O(record), .def = "true",
	  .help = "stamp and record the latencies (off: RPS only, to measure recording's cost)" },
	{ .name = "locking", .type = OPT_BOOL, .offset = O(locking), .def = "true",
	  .help = "take the CPU's lock around a request's multiplies" },
	{ .name = "locking", .set = "false", .short_flag = 'L',
	  .long_flag = "no-locking", .help = "no per-CPU lock during the work (schbench's -L)" },
	{ .name = "split", .type = OPT_UINT, .offset = O(split), .def = "100",
	  .min = 0, .max = 100, .arg = "PERCENT",
	  .help = "percent of -F (and of -n) private to each worker, the rest on matrices all share" },
	{ .name = "message_cpus", .type = OPT_STRING, .offset = O(message_cpus),
	  .def = "none", .arg = "CPUS", .short_flag = 'M',
	  .help = "message thread i on the i-th CPU of this cpulist (auto: one CPU each, workers on the rest; none)" },
	{ .name = "worker_cpus", .type = OPT_STRING, .offset = O(worker_cpus),
	  .def = "none", .arg = "CPUS", .short_flag = 'W',
	  .help = "workers on these CPUs, a cpulist (auto: as -M auto; none)" },
	{ .name = "pipe_bytes", .type = OPT_UINT, .offset = O(pipe_bytes),
	  .def = "0", .min = 0, .max = 1048576, .arg = "BYTES", .short_flag = 'p',
	  .alias = OPT_ALIASES("pipe"),
	  .help = "pipe mode: each hand-off writes this many bytes each way, no sleep, no work (0: off)" },
	{ .name = "interval", .type = OPT_DURATION, .offset = O(interval),
	  .def = "0", .min = 0, .max = 86400, .arg = "SECS", .short_flag = 'i',
	  .alias = OPT_ALIASES("intervaltime"),
	  .help = "print schbench's blocks so far on stderr every SECS of the runtime (0: none)" },
	{ .name = "json", .type = OPT_STRING, .offset = O(json), .def = "none",
	  .arg = "FILE", .short_flag = 'j',
	  .help = "also write schbench's JSON to FILE at the end (-: stdout; none)" },
	{ .name = "jobname", .type = OPT_STRING, .offset = O(jobname), .def = "none",
	  .arg = "NAME", .short_flag = 'J',
	  .help = "the jobname in the -j JSON (none: no jobname)" },
	{ .name = NULL },
};
#undef O

const struct workload wl_wakeup = {
	.name = "wakeup",
	.summary = "message threads waking workers through futexes, wakeup and request latency (schbench)",
	.reference = "schbench",
	.events = "wakeups",
	.cfg_size = sizeof(struct wakeup_cfg),
	.options = wakeup_options,
	.metrics = wakeup_metrics,
	.formats = wakeup_formats,
	.prepare = wakeup_prepare,
	.run = wakeup_run,
};
