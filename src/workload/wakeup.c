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

enum { BLOCKED = 0, RUNNING = 1 };

struct wk_msg;

struct wk_worker {
	uint32_t futex;			/* BLOCKED / RUNNING */
	struct wk_worker *next;		/* on its message thread's list */
	uint64_t wake_ns;		/* stamped by the message thread */
	uint64_t requests;		/* served while measuring */
	struct wk_msg *msg;
	struct wk_shared *sh;
	unsigned long *mat;		/* three N x N matrices */
	unsigned char *page;		/* -p: the "transfer" buffer */
	struct hist *wlat, *rlat;
} __attribute__((aligned(64)));

struct wk_msg {
	uint32_t futex;
	struct wk_worker *head;		/* waiting workers, pushed with CAS */
	struct wk_shared *sh;
	unsigned index;
} __attribute__((aligned(64)));

/* A per-CPU lock on its own cache line. */
struct wk_lock {
	int held;
} __attribute__((aligned(64)));

struct wk_shared {
	const struct wakeup_cfg *cfg;
	struct wl_ctx *ctx;
	struct barrier barrier;
	int stop;			/* set once: everyone leaves */
	int measuring;			/* past the warm-up */
	bool stamp;			/* record latencies (and stamp) */
	bool probing;
	unsigned matrix_n;		/* each worker's own matrices */
	unsigned shared_n;		/* --split: everyone's, 0: none */
	unsigned long *shared_mat;
	unsigned ops_private, ops_shared;
	const struct wakeup_place *place;
	uint64_t pace_ns;		/* -R: each worker's interval; 0: closed loop */
	int nlocks;
	struct wk_lock *locks;
};

/* Wakes the owner of *word if it was BLOCKED: one FUTEX_WAKE at most. */
static void wake_word(uint32_t *word)
{
	uint32_t old = BLOCKED;

	if (__atomic_compare_exchange_n(word, &old, RUNNING, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		futex_wake(word, 1);
}

/* Sleeps while *word is BLOCKED and nobody said stop. */
static void wait_word(uint32_t *word, const int *stop)
{
	while (__atomic_load_n(word, __ATOMIC_SEQ_CST) == BLOCKED &&
	       !__atomic_load_n(stop, __ATOMIC_SEQ_CST))
		futex_wait(word, BLOCKED);
}

/*
 * N = sqrt(F * 1024 / 3 / 8): three matrices of 8-byte words fill F KiB
 * (in integers, as schbench: --split's parts may come to 0).
 */
static unsigned matrix_size(unsigned long footprint_kb)
{
	return (unsigned)sqrt((double)(footprint_kb * 1024 / 3 / 8));
}

static void matrix_multiply(unsigned long *m, unsigned n)
{
	unsigned long *a = m, *b = m + (size_t)n * n, *c = b + (size_t)n * n;

	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++) {
			unsigned long sum = 0;

			for (unsigned k = 0; k < n; k++)
				sum += a[i * n + k] * b[k * n + j];
			c[i * n + j] = sum;
		}
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * The lock of the CPU this runs on, spinning with trylock; if the task
 * moved while it waited, it lets go and takes the new CPU's. Being
 * preempted while holding it stalls the next request on that CPU: that
 * is what makes preemption in the middle of a request expensive.
 */
static struct wk_lock *cpu_lock(struct wk_shared *sh)
{
	for (;;) {
		int cpu = sched_getcpu();
		struct wk_lock *l = &sh->locks[cpu >= 0 && cpu < sh->nlocks ?
					       cpu : 0];

		if (__atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE)) {
			cpu_relax();
			continue;
		}
		if (sched_getcpu() == cpu || sh->nlocks == 1)
			return l;
		__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
	}
}

/*
 * -n multiplies: --split's shared share on everyone's matrices first,
 * then the rest on the worker's own (without --split: all its own).
 */
static void do_work(struct wk_worker *w)
{
	struct wk_shared *sh = w->sh;
	struct wk_lock *l = sh->cfg->locking ? cpu_lock(sh) : NULL;

	if (sh->shared_n)
		for (unsigned i = 0; i < sh->ops_shared; i++)
			matrix_multiply(sh->shared_mat, sh->shared_n);
	if (sh->matrix_n)
		for (unsigned i = 0; i < sh->ops_private; i++)
			matrix_multiply(w->mat, sh->matrix_n);
	if (!l)
		return;
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static int worker_main(void *arg)
{
	struct wk_worker *w = arg;
	struct wk_shared *sh = w->sh;
	struct wk_msg *m = w->msg;
	uint64_t next = 0;

	if (wakeup_pin_worker(sh->place))
		return wl_fail_errno(sh->ctx, "wakeup: pinning a worker to -W/--worker_cpus");
	if (barrier_worker(&sh->barrier, sh->ctx))
		return -1;
	if (sh->pace_ns)
		next = now_ns();
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		struct wk_worker *head;
		bool measuring;
		uint64_t t0 = 0;

		if (sh->pace_ns) {
			/* -R: this worker's share of the requested rate */
			next += sh->pace_ns;
			sleep_until(next);
		}
		if (w->page)	/* -p: the worker writes its "message" */
			memset(w->page, 2, sh->cfg->pipe_bytes);
		__atomic_store_n(&w->futex, BLOCKED, __ATOMIC_SEQ_CST);
		head = __atomic_load_n(&m->head, __ATOMIC_RELAXED);
		do
			w->next = head;
		while (!__atomic_compare_exchange_n(&m->head, &head, w, true,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED));
		wake_word(&m->futex);
		wait_word(&w->futex, &sh->stop);
		if (__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST))
			break;

		measuring = __atomic_load_n(&sh->measuring, __ATOMIC_RELAXED);
		if (sh->stamp && measuring) {
			uint64_t now = now_ns(), wake = w->wake_ns;
			uint64_t lat = now > wake ? now - wake : 0;

			hist_record(w->wlat, lat);
			if (sh->probing)
				wl_message(sh->ctx);	/* the CPU; wlat goes
							 * to the probes */
			t0 = now;
		}
		if (!w->page) {	/* -p: a hand-off is all there is */
			if (sh->cfg->sleep_us)
				usleep(sh->cfg->sleep_us);
			do_work(w);
		}
		if (measuring) {
			if (sh->stamp)
				hist_record(w->rlat, now_ns() - t0);
			__atomic_store_n(&w->requests, w->requests + 1,
					 __ATOMIC_RELAXED);
		}
	}
	return 0;
}

static int message_main(void *arg)
{
	struct wk_msg *m = arg;
	struct wk_shared *sh = m->sh;

	if (wakeup_pin_message(sh->place, m->index))
		return wl_fail_errno(sh->ctx, "wakeup: pinning message thread %u to -M/--message_cpus",
				     m->index);
	if (barrier_worker(&sh->barrier, sh->ctx))
		return -1;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		struct wk_worker *w;
		uint64_t now = 0;

		/* blocked first: a push after the exchange below wakes us */
		__atomic_store_n(&m->futex, BLOCKED, __ATOMIC_SEQ_CST);
		w = __atomic_exchange_n(&m->head, NULL, __ATOMIC_ACQUIRE);
		if (w && sh->stamp)
			now = now_ns();
		while (w) {
			struct wk_worker *next = w->next;

			if (w->page) {
				/* -p: the answer, then a stamp of its own */
				memset(w->page, 1, sh->cfg->pipe_bytes);
				if (sh->stamp)
					now = now_ns();
			}
			w->wake_ns = now;
			wake_word(&w->futex);
			w = next;
		}
		wait_word(&m->futex, &sh->stop);
	}
	return 0;
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
		__atomic_store_n(&msg[i].futex, RUNNING, __ATOMIC_SEQ_CST);
		futex_wake(&msg[i].futex, INT_MAX);
	}
	for (unsigned i = 0; i < nwk; i++) {
		__atomic_store_n(&wk[i].futex, RUNNING, __ATOMIC_SEQ_CST);
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

static int wakeup_run(const void *cfgp, struct wl_ctx *ctx,
		      struct wl_result *res)
{
	const struct wakeup_cfg *cfg = cfgp;
	unsigned per = workers_per_thread(cfg);
	unsigned nmsg = cfg->message_threads, nwk = nmsg * per;
	struct wk_shared sh = { .cfg = cfg, .ctx = ctx, .stamp = cfg->record,
				.probing = wl_probing(ctx) };
	struct hist *wlat = NULL, *rlat = NULL, *rps, *sum = NULL;
	struct wakeup_place place;
	struct wk_worker *wk;
	struct wk_msg *msg;
	struct tasks t;
	uint64_t start, stop, last, prev, total;
	size_t mat;

	/* --split: the private share's matrices per worker, the rest shared */
	sh.matrix_n = matrix_size((unsigned long)cfg->footprint_kb * cfg->split / 100);
	sh.shared_n = matrix_size((unsigned long)cfg->footprint_kb *
				  (100 - cfg->split) / 100);
	sh.ops_private = cfg->operations * cfg->split / 100;
	sh.ops_shared = cfg->operations - sh.ops_private;
	if (wakeup_place(cfg, &place))
		return wl_fail(ctx, "wakeup: the CPUs of -M/-W changed since the start");
	sh.place = &place;
	sh.nlocks = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (sh.nlocks < 1)
		sh.nlocks = 1;
	if (cfg->rps)
		sh.pace_ns = (uint64_t)nwk * 1000000000ull / cfg->rps;
	if (pipe(sh.barrier.ready) || pipe(sh.barrier.wake))
		return wl_fail_errno(ctx, "pipe for the start barrier");
	sh.locks = xcalloc_lines((size_t)sh.nlocks, sizeof(*sh.locks));
	msg = xcalloc_lines(nmsg, sizeof(*msg));
	wk = xcalloc_lines(nwk, sizeof(*wk));
	rps = xcalloc_lines(1, sizeof(*rps));
	if (cfg->record) {
		wlat = hists(nwk);
		rlat = hists(nwk);
		if (cfg->interval)
			sum = hists(2);
		if (!wlat || !rlat || (cfg->interval && !sum))
			return wl_fail_errno(ctx, "wakeup: %u latency histograms",
					     2 * nwk);
	}
	if (sh.shared_n) {
		size_t n = 3 * (size_t)sh.shared_n * sh.shared_n;

		sh.shared_mat = xcalloc(n, sizeof(*sh.shared_mat));
		for (size_t k = 0; k < n; k++)
			sh.shared_mat[k] = k;
	}
	mat = 3 * (size_t)sh.matrix_n * sh.matrix_n;
	if (tasks_init(&t, TASK_THREAD, nmsg + nwk, 0, ctx) ||
	    tasks_use_barrier(&t, &sh.barrier))
		return -1;
	for (unsigned i = 0; i < nmsg; i++) {
		msg[i].sh = &sh;
		msg[i].index = i;
		if (tasks_spawn(&t, message_main, &msg[i]))
			return -1;
	}
	for (unsigned i = 0; i < nwk; i++) {
		struct wk_worker *w = &wk[i];

		w->sh = &sh;
		w->msg = &msg[i / per];
		w->mat = xcalloc(mat ? mat : 1, sizeof(*w->mat));
		if (cfg->pipe_bytes)
			w->page = xcalloc(cfg->pipe_bytes, 1);
		for (size_t k = 0; k < mat; k++)
			w->mat[k] = k;
		if (cfg->record) {
			w->wlat = &wlat[i];
			w->rlat = &rlat[i];
		}
		if (tasks_spawn(&t, worker_main, w))
			return -1;
	}
	if (tasks_wait_ready(&t) || tasks_release(&t))
		return -1;
	if (cfg->warmup)
		sleep_until(now_ns() + cfg->warmup * 1000000000ull);

	__atomic_store_n(&sh.measuring, 1, __ATOMIC_SEQ_CST);
	wl_clock_start(ctx);
	start = now_ns();
	last = 0;
	prev = start;
	for (unsigned s = 1; s <= cfg->runtime; s++) {
		uint64_t n, now, cur;

		sleep_until(start + s * 1000000000ull);
		n = requests_now(wk, nwk);
		now = now_ns();
		/* per second of that interval: this wakeup may come late */
		cur = (uint64_t)llround((double)(n - last) * 1e9 /
					(double)(now - prev));
		hist_record(rps, cur);
		last = n;
		prev = now;
		if (cfg->interval && s % cfg->interval == 0)
			interval_report(wk, nwk, sum, rps, s, (double)cur);
	}
	stop = now_ns();
	wl_clock_stop(ctx);
	__atomic_store_n(&sh.measuring, 0, __ATOMIC_SEQ_CST);
	stop_all(&sh, msg, nmsg, wk, nwk);
	if (tasks_reap(&t))
		return -1;
	/* with those woken in the window and finished after: one per wakeup */
	total = requests_now(wk, nwk);

	if (cfg->record) {
		for (unsigned i = 1; i < nwk; i++) {
			hist_merge(&wlat[0], &wlat[i]);
			hist_merge(&rlat[0], &rlat[i]);
		}
		wl_latency_hist(ctx, &wlat[0]);
		set_block(res, WK_WAKE_P, WK_WAKE_LINE_N, WK_WAKE_MIN, &wlat[0],
			  wakeup_lat_pct, WK_NPCT, 1000);
		set_block(res, WK_REQ_P, WK_REQ_LINE_N, WK_REQ_MIN, &rlat[0],
			  wakeup_lat_pct, WK_NPCT, 1000);
	}
	set_block(res, WK_RPS_P, WK_RPS_LINE_N, WK_RPS_MIN, rps,
		  wakeup_rps_pct, RPS_NPCT, 1);
	if (strcmp(cfg->json, "none") &&
	    wakeup_write_json(cfg, wlat, rlat, rps))
		return wl_fail(ctx, "wakeup: -j/--json '%s' not written", cfg->json);
	wl_set(res, WK_RPS_AVG, (double)total / ((double)(stop - start) / 1e9));
	wl_set(res, WK_REQUESTS, (double)total);
	if (cfg->pipe_bytes) {
		/* schbench's "avg worker transfer": per worker, per second */
		double ops = (double)total / nwk / ((double)(stop - start) / 1e9);

		wl_set(res, WK_PIPE_OPS, ops);
		wl_set(res, WK_PIPE_BPS, ops * cfg->pipe_bytes);
		if (cfg->record) {
			uint64_t v = hist_percentile(&wlat[0], 20);

			wl_set(res, WK_WAKE_P20, (double)v / 1000);
			wl_set(res, WK_WAKE_P20_N, (double)hist_count_upto(&wlat[0], v));
		}
	}

	tasks_free(&t);
	for (unsigned i = 0; i < nwk; i++) {
		free(wk[i].mat);
		free(wk[i].page);
	}
	free(wk);
	free(msg);
	if (wlat) {
		munmap(wlat, nwk * sizeof(*wlat));
		munmap(rlat, nwk * sizeof(*rlat));
	}
	if (sum)
		munmap(sum, 2 * sizeof(*sum));
	free(rps);
	free(sh.shared_mat);
	free(sh.locks);
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

const double wakeup_lat_pct[WK_NPCT] = { 50, 90, 99, 99.9 };
const double wakeup_rps_pct[RPS_NPCT] = { 20, 50, 90 };

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

#define LAT(base, what, hl)						\
	[base + WK_P50] = { "wakeup." what "p50_us", "us", BETTER_LOWER, false, \
			    what "latency, 50th percentile" },		\
	[base + WK_P90] = { "wakeup." what "p90_us", "us", BETTER_LOWER, false, \
			    what "latency, 90th percentile" },		\
	[base + WK_P99] = { "wakeup." what "p99_us", "us", BETTER_LOWER, hl, \
			    what "latency, 99th percentile" },		\
	[base + WK_P999] = { "wakeup." what "p999_us", "us", BETTER_LOWER, false, \
			     what "latency, 99.9th percentile" }
#define LINE_N(base, what, pfx, p)					\
	[base + p] = { "wakeup." what pfx "_n", "samples", BETTER_NONE, false, \
		       "samples above the previous percentile up to this one" }

static const struct metric_def wakeup_metrics[] = {
	LAT(WK_WAKE_P, "", true),
	[WK_WAKE_MIN] = { "wakeup.min_us", "us", BETTER_LOWER, false,
			  "smallest wakeup latency" },
	[WK_WAKE_MAX] = { "wakeup.max_us", "us", BETTER_LOWER, false,
			  "largest wakeup latency" },
	[WK_WAKE_N] = { "wakeup.samples", "samples", BETTER_NONE, false,
			"wakeup latencies recorded" },
	LINE_N(WK_WAKE_LINE_N, "", "p50", WK_P50),
	LINE_N(WK_WAKE_LINE_N, "", "p90", WK_P90),
	LINE_N(WK_WAKE_LINE_N, "", "p99", WK_P99),
	LINE_N(WK_WAKE_LINE_N, "", "p999", WK_P999),
	LAT(WK_REQ_P, "request_", false),
	[WK_REQ_MIN] = { "wakeup.request_min_us", "us", BETTER_LOWER, false,
			 "smallest request latency" },
	[WK_REQ_MAX] = { "wakeup.request_max_us", "us", BETTER_LOWER, false,
			 "largest request latency" },
	[WK_REQ_N] = { "wakeup.request_samples", "samples", BETTER_NONE, false,
		       "request latencies recorded" },
	LINE_N(WK_REQ_LINE_N, "request_", "p50", WK_P50),
	LINE_N(WK_REQ_LINE_N, "request_", "p90", WK_P90),
	LINE_N(WK_REQ_LINE_N, "request_", "p99", WK_P99),
	LINE_N(WK_REQ_LINE_N, "request_", "p999", WK_P999),
	[WK_RPS_P + RPS_P20] = { "wakeup.rps_p20", "req/s", BETTER_HIGHER, false,
				 "requests per second, 20th percentile of the seconds" },
	[WK_RPS_P + RPS_P50] = { "wakeup.rps_p50", "req/s", BETTER_HIGHER, false,
				 "requests per second, median of the seconds" },
	[WK_RPS_P + RPS_P90] = { "wakeup.rps_p90", "req/s", BETTER_HIGHER, false,
				 "requests per second, 90th percentile of the seconds" },
	[WK_RPS_MIN] = { "wakeup.rps_min", "req/s", BETTER_HIGHER, false,
			 "requests in the slowest second" },
	[WK_RPS_MAX] = { "wakeup.rps_max", "req/s", BETTER_HIGHER, false,
			 "requests in the fastest second" },
	[WK_RPS_N] = { "wakeup.rps_samples", "s", BETTER_NONE, false,
		       "seconds counted" },
	LINE_N(WK_RPS_LINE_N, "rps_", "p20", RPS_P20),
	LINE_N(WK_RPS_LINE_N, "rps_", "p50", RPS_P50),
	LINE_N(WK_RPS_LINE_N, "rps_", "p90", RPS_P90),
	[WK_RPS_AVG] = { "wakeup.rps", "req/s", BETTER_HIGHER, false,
			 "requests per second over the runtime (schbench's average rps)" },
	[WK_REQUESTS] = { "wakeup.requests", "req", BETTER_NONE, false,
			  "requests served while measuring" },
	[WK_WAKE_P20] = { "wakeup.p20_us", "us", BETTER_LOWER, false,
			  "wakeup latency, 20th percentile (pipe mode)" },
	[WK_WAKE_P20_N] = { "wakeup.p20_n", "samples", BETTER_NONE, false,
			    "samples at or below the 20th percentile (pipe mode)" },
	[WK_PIPE_OPS] = { "wakeup.transfer_ops", "ops/s", BETTER_HIGHER, false,
			  "hand-offs per second per worker (pipe mode)" },
	[WK_PIPE_BPS] = { "wakeup.transfer_bytes", "B/s", BETTER_HIGHER, false,
			  "bytes per second per worker (pipe mode)" },
	{ .name = NULL },
};
#undef LAT
#undef LINE_N

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
