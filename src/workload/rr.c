// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr: netperf's loopback tests as scheduler testers run them - N
 * client/server pairs over 127.0.0.1, for a fixed time.
 *
 * TCP_RR / UDP_RR: the client sends a request, blocks until the whole
 * response is back, and does it again: per transaction exactly one
 * send() and one recv() on each side (more only when the kernel splits
 * a large message), two wakeups across tasks. TCP_STREAM: the client
 * sends messages back to back, the server receives them.
 *
 * Every socket is connected before the workers start (loopback.h), on
 * ports the kernel picks; no listener outlives the setup. When the time
 * is up the clients close their ends: a TCP server sees EOF, a UDP
 * server an empty datagram, and all end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "stats/hist.h"
#include "workload/loopback.h"
#include "workload/registry.h"
#include "workload/rr.h"
#include "util.h"

/* What a pair shares with the workload process: shared memory. */
struct rr_pair {
	uint64_t trans;		/* transactions (messages for a stream) */
	uint64_t bytes;		/* received by the server */
	int fds[2];		/* [0] server, [1] client */
	struct hist *lat;	/* the client's; RR tests only */
} __attribute__((aligned(64)));

struct rr_run {
	const struct rr_cfg *cfg;
	struct wl_ctx *ctx;
	struct barrier barrier;
	struct rr_pair *pair;	/* cfg->pairs, shared */
	struct hist *lat;	/* cfg->pairs, shared; NULL for a stream */
	int *stop;		/* shared */
	bool stream;		/* TCP_STREAM: one way, no transactions */
	bool dgram;		/* UDP_RR: a message is one datagram */
};

struct rr_worker {
	struct rr_run *run;
	unsigned nr;
};

static const char *const test_names[] = { "TCP_RR", "UDP_RR", "TCP_STREAM", NULL };

static int stopped(const struct rr_run *run)
{
	return __atomic_load_n(run->stop, __ATOMIC_RELAXED);
}

/* The other end's fds are closed in process mode; threads share them. */
static void close_other(const struct rr_worker *w, int end)
{
	if (w->run->cfg->mode != RR_PROCESS)
		return;
	for (unsigned i = 0; i < w->run->cfg->pairs; i++)
		for (int e = 0; e < 2; e++)
			if (i != w->nr || e != end)
				close(w->run->pair[i].fds[e]);
}

/*
 * recv() (rx) or send() until len bytes came or went. 1 at the end of
 * the stream (EOF, or an empty datagram: the client's goodbye), 0, or -1
 * after wl_fail. A datagram is whole or nothing: one recv() is all there
 * is.
 */
static inline int io_all(struct rr_worker *w, int fd, char *buf, size_t len,
			 bool rx, bool dgram, const char *who)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = rx ? recv(fd, buf + done, len - done, 0) :
				 send(fd, buf + done, len - done, 0);

		if (n < 0)
			return wl_fail_errno(w->run->ctx, "rr: %s %u: %s", who,
					     w->nr + 1, rx ? "recv" : "send");
		if (rx && n == 0)
			return 1;
		done += (size_t)n;
		if (rx && dgram)
			break;
	}
	return 0;
}

/* send() until len bytes went; 0, or -1 after wl_fail. */
static int send_all(struct rr_worker *w, int fd, char *buf, size_t len,
		    const char *who)
{
	return io_all(w, fd, buf, len, false, false, who);
}

/* recv() until len bytes came: io_all()'s answers. */
static int recv_all(struct rr_worker *w, int fd, char *buf, size_t len,
		    bool dgram, const char *who)
{
	return io_all(w, fd, buf, len, true, dgram, who);
}

static int server_main(void *arg)
{
	struct rr_worker *w = arg;
	struct rr_run *run = w->run;
	const struct rr_cfg *cfg = run->cfg;
	struct rr_pair *p = &run->pair[w->nr];
	size_t in = run->stream ? cfg->message_size : cfg->request_size;
	size_t bufsz = in > cfg->response_size ? in : cfg->response_size;
	char *buf = xcalloc(1, bufsz);
	int fd = p->fds[0], rc = 0;

	close_other(w, 0);
	if (barrier_worker(&run->barrier, run->ctx))
		return -1;
	if (run->stream) {
		for (;;) {
			ssize_t n = recv(fd, buf, in, 0);

			if (n < 0) {
				rc = wl_fail_errno(run->ctx, "rr: server %u: recv",
						   w->nr + 1);
				break;
			}
			if (n == 0)
				break;
			/* one writer: a plain add, read by the main side */
			__atomic_store_n(&p->bytes, p->bytes + (uint64_t)n,
					 __ATOMIC_RELAXED);
		}
	} else {
		while (!(rc = recv_all(w, fd, buf, cfg->request_size,
				       run->dgram, "server")) &&
		       !(rc = send_all(w, fd, buf, cfg->response_size, "server")))
			;
		rc = rc < 0 ? -1 : 0;
	}
	free(buf);
	close(fd);
	return rc;
}

/* The client's goodbye: EOF for TCP, an empty datagram for UDP. */
static void say_goodbye(const struct rr_cfg *cfg, int fd)
{
	if (cfg->test == RR_UDP_RR && send(fd, "", 0, 0) < 0)
		return;		/* the server is gone already */
	close(fd);
}

static int client_main(void *arg)
{
	struct rr_worker *w = arg;
	struct rr_run *run = w->run;
	const struct rr_cfg *cfg = run->cfg;
	struct rr_pair *p = &run->pair[w->nr];
	bool probing = wl_probing(run->ctx);
	size_t bufsz = run->stream ? cfg->message_size :
		       cfg->request_size > cfg->response_size ?
		       cfg->request_size : cfg->response_size;
	char *buf = xcalloc(1, bufsz);
	int fd = p->fds[1], rc = 0;
	uint64_t t0, t1;

	close_other(w, 1);
	memset(buf, 'r', bufsz);
	if (barrier_worker(&run->barrier, run->ctx))
		return -1;
	if (run->stream) {
		while (!stopped(run)) {
			if (send_all(w, fd, buf, cfg->message_size, "client")) {
				rc = -1;
				break;
			}
			__atomic_store_n(&p->trans, p->trans + 1, __ATOMIC_RELAXED);
		}
		goto out;
	}
	/* one clock read per transaction: its end is the next one's start */
	t0 = now_ns();
	while (!stopped(run)) {
		int r = send_all(w, fd, buf, cfg->request_size, "client");

		if (!r)
			r = recv_all(w, fd, buf, cfg->response_size,
				     run->dgram, "client");
		if (r > 0)
			r = wl_fail_peer(run->ctx,
				"rr: client %u: the server closed the connection",
				w->nr + 1);
		if (r) {
			rc = -1;
			break;
		}
		t1 = now_ns();
		hist_record(p->lat, t1 - t0);
		if (probing)
			wl_message(run->ctx);	/* the CPU; the histogram
						 * goes to the probes */
		t0 = t1;
		__atomic_store_n(&p->trans, p->trans + 1, __ATOMIC_RELAXED);
	}
out:
	free(buf);
	say_goodbye(cfg, fd);
	return rc;
}

static void counts(const struct rr_run *run, uint64_t *trans, uint64_t *bytes)
{
	*trans = *bytes = 0;
	for (unsigned i = 0; i < run->cfg->pairs; i++) {
		*trans += __atomic_load_n(&run->pair[i].trans, __ATOMIC_RELAXED);
		*bytes += __atomic_load_n(&run->pair[i].bytes, __ATOMIC_RELAXED);
	}
}

static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int make_pairs(struct rr_run *run)
{
	const struct rr_cfg *cfg = run->cfg;

	for (unsigned i = 0; i < cfg->pairs; i++) {
		struct rr_pair *p = &run->pair[i];
		int r = cfg->test == RR_UDP_RR ? udp_loopback_pair(p->fds) :
						 tcp_loopback_pair(p->fds);

		if (r)
			return wl_fail_errno(run->ctx,
				"rr: loopback %s pair %u of %u%s",
				cfg->test == RR_UDP_RR ? "UDP" : "TCP", i + 1,
				cfg->pairs,
				errno == EMFILE ? " (raise 'ulimit -n')" : "");
		if (run->lat)
			p->lat = &run->lat[i];
	}
	return 0;
}

static void set_latency(struct wl_result *res, const struct rr_run *run)
{
	static const double pct[] = { 50, 90, 99, 99.9 };
	struct hist *all = run->lat;

	for (unsigned i = 1; i < run->cfg->pairs; i++)
		hist_merge(all, run->pair[i].lat);
	wl_latency_hist(run->ctx, all);
	for (int i = 0; i < 4; i++)
		wl_set(res, RR_P50 + i, (double)hist_percentile(all, pct[i]) / 1000);
	wl_set(res, RR_MIN, (double)hist_min(all) / 1000);
	wl_set(res, RR_MAX, (double)hist_max(all) / 1000);
}

static int rr_run(const void *cfgp, struct wl_ctx *ctx, struct wl_result *res)
{
	const struct rr_cfg *cfg = cfgp;
	bool process = cfg->mode == RR_PROCESS;
	bool stream = cfg->test == RR_TCP_STREAM;
	struct rr_run run = { .cfg = cfg, .ctx = ctx, .stream = stream,
			      .dgram = cfg->test == RR_UDP_RR };
	struct rr_worker *wk;
	struct tasks t;
	uint64_t start, stop, tr0, by0, tr1, by1;
	double secs;

	run.pair = shared(cfg->pairs * sizeof(*run.pair));
	run.stop = shared(sizeof(*run.stop));
	if (!stream)
		run.lat = shared(cfg->pairs * sizeof(*run.lat));
	if (!run.pair || !run.stop || (!stream && !run.lat))
		return wl_fail_errno(ctx, "rr: shared memory for %u pairs",
				     cfg->pairs);
	if (pipe(run.barrier.ready) || pipe(run.barrier.wake))
		return wl_fail_errno(ctx, "rr: pipe for the start barrier");
	if (make_pairs(&run))
		return -1;
	wk = xcalloc(2 * (size_t)cfg->pairs, sizeof(*wk));
	if (tasks_init(&t, process ? TASK_PROCESS : TASK_THREAD,
		       2 * cfg->pairs, 0, ctx) ||
	    tasks_use_barrier(&t, &run.barrier))
		return -1;
	for (unsigned i = 0; i < cfg->pairs; i++) {
		wk[2 * i] = (struct rr_worker){ &run, i };
		wk[2 * i + 1] = (struct rr_worker){ &run, i };
		if (tasks_spawn(&t, server_main, &wk[2 * i]) ||
		    tasks_spawn(&t, client_main, &wk[2 * i + 1]))
			return -1;
	}
	if (process)
		for (unsigned i = 0; i < cfg->pairs; i++) {
			close(run.pair[i].fds[0]);
			close(run.pair[i].fds[1]);
		}

	if (tasks_wait_ready(&t) || tasks_release(&t))
		return -1;
	wl_clock_start(ctx);
	start = now_ns();
	counts(&run, &tr0, &by0);
	/* a worker that ends early failed: stop, and let reaping say why */
	tasks_wait_until(&t, start + cfg->length * 1000000000ull);
	counts(&run, &tr1, &by1);
	stop = now_ns();
	wl_clock_stop(ctx);
	__atomic_store_n(run.stop, 1, __ATOMIC_RELAXED);
	if (tasks_reap(&t))
		return -1;

	secs = (double)(stop - start) / 1e9;
	wl_set(res, RR_TRANS_PER_S, (double)(tr1 - tr0) / secs);
	wl_set(res, RR_TRANSACTIONS, (double)(tr1 - tr0));
	if (stream)
		wl_set(res, RR_MB_PER_S, (double)(by1 - by0) / 1e6 / secs);
	else
		wl_set(res, RR_MB_PER_S, (double)(tr1 - tr0) *
		       (cfg->request_size + cfg->response_size) / 1e6 / secs);
	if (!stream)
		set_latency(res, &run);
	tasks_free(&t);
	free(wk);
	if (run.lat)
		munmap(run.lat, cfg->pairs * sizeof(*run.lat));
	munmap(run.pair, cfg->pairs * sizeof(*run.pair));
	munmap(run.stop, sizeof(*run.stop));
	return 0;
}

static int rr_prepare(const void *cfgp)
{
	const struct rr_cfg *cfg = cfgp;
	/* every pair's two sockets are open in the workload process at once */
	unsigned long long need = 2ull * cfg->pairs + 16;
	struct nofile_limits lim;
	int rc;

	if (cfg->test == RR_UDP_RR &&
	    (cfg->request_size > 65507 || cfg->response_size > 65507)) {
		error("rr: UDP_RR sizes are at most 65507 bytes (one datagram); got --request-size %u --response-size %u",
		      cfg->request_size, cfg->response_size);
		return EXIT_USAGE;
	}
	rc = nofile_raise(need, &lim);
	if (rc <= 0)
		return rc ? EXIT_RUN_FAILED : 0;
	error("rr: %u pairs need %llu file descriptors, but the hard limit is %llu: raise it with 'ulimit -Hn %llu' as root",
	      cfg->pairs, need, lim.hard, need);
	return EXIT_RUN_FAILED;
}

#define O(f) offsetof(struct rr_cfg, f)
static const struct opt_def rr_options[] = {
	{ .name = "test", .type = OPT_ENUM, .offset = O(test), .def = "TCP_RR",
	  .choices = test_names, .arg = "TEST", .short_flag = 't',
	  .help = "TCP_RR, UDP_RR (request/response) or TCP_STREAM (bulk send), as netperf -t" },
	{ .name = "pairs", .type = OPT_UINT, .offset = O(pairs), .def = "1",
	  .min = 1, .max = 10000, .arg = "NUM", .short_flag = 'P',
	  .help = "client/server pairs running at once" },
	{ .name = "runtime", .alias = OPT_ALIASES("length"), .type = OPT_DURATION,
	  .offset = O(length), .def = "10", .min = 1, .max = 31536000,
	  .arg = "SECS", .short_flag = 'l',
	  .help = "how long each run lasts, as netperf -l" },
	{ .name = "request_size", .type = OPT_UINT, .offset = O(request_size),
	  .def = "1", .min = 1, .max = 1048576, .arg = "BYTES",
	  .help = "bytes a client sends per transaction (netperf -r REQ,)" },
	{ .name = "response_size", .type = OPT_UINT, .offset = O(response_size),
	  .def = "1", .min = 1, .max = 1048576, .arg = "BYTES",
	  .help = "bytes a server answers with (netperf -r ,RESP)" },
	{ .name = "message_size", .type = OPT_UINT, .offset = O(message_size),
	  .def = "16384", .min = 1, .max = 16777216, .arg = "BYTES",
	  .short_flag = 'm',
	  .help = "TCP_STREAM: bytes per send() (netperf -m)" },
	{ .name = "mode", .type = OPT_ENUM, .offset = O(mode), .def = "process",
	  .choices = task_mode_names, .arg = "MODE",
	  .help = "each client and server a process (as netperf and netserver) or a thread" },
	{ .name = "mode", .set = "thread", .short_flag = 'T',
	  .long_flag = "threads", .help = "use POSIX threads" },
	{ .name = NULL },
};
#undef O

static const struct metric_def rr_metrics[] = {
	[RR_TRANS_PER_S] = { "rr.trans_per_s", "trans/s", BETTER_HIGHER, true,
			     "transactions per second, all pairs (TCP_STREAM: messages)" },
	[RR_MB_PER_S] = { "rr.mb_per_s", "MB/s", BETTER_HIGHER, false,
			  "payload bytes per second, 10^6 (TCP_STREAM: received by the servers)" },
	[RR_P50] = { "rr.p50_us", "us", BETTER_LOWER, false,
		     "transaction latency, 50th percentile" },
	[RR_P90] = { "rr.p90_us", "us", BETTER_LOWER, false,
		     "transaction latency, 90th percentile" },
	[RR_P99] = { "rr.p99_us", "us", BETTER_LOWER, false,
		     "transaction latency, 99th percentile" },
	[RR_P999] = { "rr.p999_us", "us", BETTER_LOWER, false,
		      "transaction latency, 99.9th percentile" },
	[RR_MIN] = { "rr.min_us", "us", BETTER_LOWER, false,
		     "fastest transaction" },
	[RR_MAX] = { "rr.max_us", "us", BETTER_LOWER, false,
		     "slowest transaction" },
	[RR_TRANSACTIONS] = { "rr.transactions", "trans", BETTER_NONE, false,
			      "transactions (messages) in the measured time" },
	{ .name = NULL },
};

const struct workload wl_rr = {
	.name = "rr",
	.summary = "loopback client/server pairs: TCP/UDP request/response, TCP stream (netperf)",
	.reference = "netperf TCP_RR, UDP_RR, TCP_STREAM over 127.0.0.1",
	.events = "trans",
	.cfg_size = sizeof(struct rr_cfg),
	.options = rr_options,
	.metrics = rr_metrics,
	.formats = rr_formats,
	.prepare = rr_prepare,
	.run = rr_run,
};
