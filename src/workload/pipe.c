// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe: two workers pass a 4-byte token through two pipes, as perf bench
 * sched pipe does. There is no start barrier: as in perf, the clock runs
 * from before the workers are created until both have been reaped.
 *
 * -n (perf since late 2024): the pipes are O_NONBLOCK and each worker
 * has an epoll instance on its read end; every read is preceded by an
 * epoll_wait() (and retried after one on EAGAIN), so a worker sleeps in
 * epoll_wait rather than in read: three system calls per op a side
 * instead of two. -G SEND,RECV (perf since 6.7): each worker first
 * joins its cgroup (pipe_cgroup.h), inside the timed region as in perf.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "workload/pipe.h"
#include "workload/pipe_cgroup.h"
#include "workload/registry.h"
#include "workload/text.h"
#include "util.h"

struct pipe_worker {
	int nr;			/* 0 reads first in the one-token ordering */
	int rd, wr;
	int peer_rd, peer_wr;	/* the other's ends, closed in process mode */
	int epfd;		/* -n: epoll on rd; -1 otherwise */
	const struct pipe_cfg *cfg;
	const struct pipe_cgroups *cg;	/* -G; NULL otherwise */
	struct wl_ctx *ctx;
};

/* -n's read: epoll_wait until rd is readable, read, again on EAGAIN. */
static ssize_t read_nonblock(const struct pipe_worker *w, int *m)
{
	struct epoll_event ev;

	for (;;) {
		ssize_t r;

		if (epoll_wait(w->epfd, &ev, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		r = read(w->rd, m, sizeof(*m));
		if (r >= 0 || (errno != EAGAIN && errno != EINTR))
			return r;
	}
}

static int xfer(const struct pipe_worker *w, bool out, int *m)
{
	ssize_t r = out ? write(w->wr, m, sizeof(*m)) :
		    w->epfd >= 0 ? read_nonblock(w, m) :
		    read(w->rd, m, sizeof(*m));

	if (r == (ssize_t)sizeof(*m))
		return 0;
	if (r < 0)
		return wl_fail_errno(w->ctx, "worker %d: %s", w->nr,
				     out ? "write" : "read");
	if (r == 0)
		return wl_fail_peer(w->ctx, "worker %d: the other worker is gone",
				    w->nr);
	return wl_fail(w->ctx, "worker %d: short %s (%zd bytes)", w->nr,
		       out ? "write" : "read", r);
}

/* -n: as perf, an epoll instance per worker, EPOLLIN on its read end. */
static int setup_epoll(struct pipe_worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN };

	w->epfd = epoll_create(1);
	if (w->epfd < 0)
		return wl_fail_errno(w->ctx, "worker %d: epoll_create", w->nr);
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->rd, &ev))
		return wl_fail_errno(w->ctx, "worker %d: epoll_ctl", w->nr);
	return 0;
}

static int pipe_worker_main(void *arg)
{
	struct pipe_worker *w = arg;
	char err[PATH_MAX + 128];
	bool write_first = w->nr == 1 || w->cfg->ordering == PIPE_TWO_TOKENS;
	bool probing = wl_probing(w->ctx);
	/* the side that starts an op times its round trip */
	bool timed = write_first && probing;
	uint64_t t0 = 0;
	int m = 0;

	/*
	 * perf keeps all four ends open in both processes; closing the
	 * peer's lets either side see EOF when the other dies instead of
	 * blocking forever. Nothing changes per op.
	 */
	if (w->peer_rd >= 0) {
		close(w->peer_rd);
		close(w->peer_wr);
	}
	if (w->cg && pipe_cgroup_enter(w->cg, w->nr, w->cfg->mode == PIPE_THREAD,
				       err, sizeof(err)))
		return wl_fail(w->ctx, "worker %d: %s", w->nr, err);
	if (w->cfg->nonblock && setup_epoll(w))
		return -1;
	for (unsigned i = 0; i < w->cfg->loops; i++) {
		if (timed)
			t0 = now_ns();
		if (xfer(w, write_first, &m) || xfer(w, !write_first, &m))
			return -1;
		if (timed)
			wl_latency(w->ctx, now_ns() - t0);
		else if (probing)
			wl_message(w->ctx);
	}
	if (w->epfd >= 0)
		close(w->epfd);
	return 0;
}

static int pipe_run(const void *cfgp, struct wl_ctx *ctx,
		    struct wl_result *res)
{
	const struct pipe_cfg *cfg = cfgp;
	bool threaded = cfg->mode == PIPE_THREAD;
	int flags = cfg->nonblock ? O_NONBLOCK : 0;
	int p1[2], p2[2];
	struct pipe_cgroups cgs;
	const struct pipe_cgroups *cg = NULL;
	struct pipe_worker w[2];
	struct tasks t;
	uint64_t start, stop;
	double usecs;

	if (cfg->cgroups) {
		if (pipe_cgroups_parse(cfg->cgroups, false, &cgs))
			return wl_fail(ctx, "pipe: -G/--cgroups %s", cfg->cgroups);
		cg = &cgs;
	}
	if (pipe2(p1, flags) || pipe2(p2, flags))
		return wl_fail_errno(ctx, "pipe");
	w[0] = (struct pipe_worker){ 0, p1[0], p2[1], -1, -1, -1, cfg, cg, ctx };
	w[1] = (struct pipe_worker){ 1, p2[0], p1[1], -1, -1, -1, cfg, cg, ctx };
	if (!threaded) {
		w[0].peer_rd = w[1].rd;
		w[0].peer_wr = w[1].wr;
		w[1].peer_rd = w[0].rd;
		w[1].peer_wr = w[0].wr;
	}
	if (tasks_init(&t, threaded ? TASK_THREAD : TASK_PROCESS, 2, 0, ctx))
		return -1;
	/*
	 * Worker 1 is this process in process mode: if worker 0 dies, a
	 * write must fail with EPIPE, so that the death is reported, rather
	 * than kill us with SIGPIPE.
	 */
	if (!threaded)
		signal(SIGPIPE, SIG_IGN);

	wl_clock_start(ctx);
	start = now_ns();
	if (tasks_spawn(&t, pipe_worker_main, &w[0]))
		return -1;
	if (threaded) {
		if (tasks_spawn(&t, pipe_worker_main, &w[1]))
			return -1;
	} else if (tasks_run_inline(&t, pipe_worker_main, &w[1])) {
		tasks_abort(&t);	/* reports what became of worker 0 */
	}
	if (tasks_reap(&t))
		return -1;
	stop = now_ns();
	wl_clock_stop(ctx);
	tasks_free(&t);

	usecs = (double)(stop - start) / 1e3;
	wl_set(res, PIPE_TIME, usecs / 1e6);
	wl_set(res, PIPE_USECS_PER_OP, usecs / cfg->loops);
	wl_set(res, PIPE_OPS_PER_SEC, cfg->loops / (usecs / 1e6));
	return 0;
}

/* -G: both cgroups must exist before anything runs (perf's message) */
static int pipe_prepare(const void *cfgp)
{
	const struct pipe_cfg *cfg = cfgp;
	struct pipe_cgroups cg;

	if (cfg->cgroups && pipe_cgroups_parse(cfg->cgroups, true, &cg))
		return EXIT_USAGE;
	return 0;
}

const char *const pipe_ordering_names[] = { "one-token", "two-tokens", NULL };

#define O(f) offsetof(struct pipe_cfg, f)
static const struct opt_def pipe_options[] = {
	{ .name = "loops", .type = OPT_UINT, .offset = O(loops),
	  .def = "1000000", .min = 1, .max = 2000000000, .arg = "NUM",
	  .help = "round trips of the token", .short_flag = 'l',
	  .alias = OPT_ALIASES("loop") },
	{ .name = "mode", .type = OPT_ENUM, .offset = O(mode),
	  .def = "process", .choices = task_mode_names, .arg = "MODE",
	  .help = "the two workers are processes (fork) or threads" },
	{ .name = "mode", .set = "thread", .short_flag = 'T',
	  .long_flag = "threaded", .help = "use threads" },
	{ .name = "ordering", .type = OPT_ENUM, .offset = O(ordering),
	  .def = "one-token", .choices = pipe_ordering_names, .arg = "ORDER",
	  .help = "one-token: one token ping-pongs, as perf up to Linux 6.14; "
		  "two-tokens: both write then read, as perf since 6.15" },
	{ .name = "nonblocking", .alias = OPT_ALIASES("nonblock"),
	  .type = OPT_BOOL, .offset = O(nonblock), .def = "false",
	  .short_flag = 'n', .bare = "true",
	  .help = "O_NONBLOCK pipes; each worker waits in epoll_wait before every read (perf -n)" },
	{ .name = "cgroups", .type = OPT_STRING, .offset = O(cgroups),
	  .arg = "SEND,RECV", .short_flag = 'G',
	  .help = "worker 0 joins cgroup SEND, worker 1 RECV, names relative to the perf_event (else cgroup v2) mount, as perf -G" },
	{ .name = NULL },
};
#undef O

static const struct metric_def pipe_metrics[] = {
	[PIPE_TIME] = { "pipe.time", "s", BETTER_LOWER, false,
			"from creating the workers to reaping them" },
	[PIPE_USECS_PER_OP] = { "pipe.usecs_per_op", "us", BETTER_LOWER, true,
				"microseconds per round trip" },
	[PIPE_OPS_PER_SEC] = { "pipe.ops_per_sec", "ops/s", BETTER_HIGHER,
			       false, "round trips per second" },
	{ .name = NULL },
};

/* perf bench sched pipe's block */
static void perf_pipe_header(FILE *f, const void *cfgp)
{
	const struct pipe_cfg *c = cfgp;

	fprintf(f, "# Running 'sched/pipe' benchmark:\n");
	/* not in perf's output: results of the two orderings differ ~2x */
	fprintf(f, "# Loop ordering: %s (as perf %s)\n",
		pipe_ordering_names[c->ordering],
		c->ordering == PIPE_ONE_TOKEN ? "up to Linux 6.14" :
						"since Linux 6.15");
	fprintf(f, "# Executed %u pipe operations between two %s\n\n", c->loops,
		c->mode == PIPE_THREAD ? "threads" : "processes");
}

static void perf_pipe_result(FILE *f, const void *cfg,
			     const struct wl_result *r)
{
	(void)cfg;
	perf_total_time(f, r->value[PIPE_TIME]);
	fprintf(f, "\n %14lf usecs/op\n", r->value[PIPE_USECS_PER_OP]);
	fprintf(f, " %14d ops/sec\n", (int)r->value[PIPE_OPS_PER_SEC]);
}

static const struct text_format pipe_formats[] = {
	{ "perf", "perf bench sched pipe's block",
	  perf_pipe_header, perf_pipe_result, NULL },
	{ .name = NULL },
};

const struct workload wl_pipe = {
	.name = "pipe",
	.summary = "two tasks passing a token through a pair of pipes (perf bench sched pipe)",
	.reference = "perf bench sched pipe",
	.events = "ops",
	.cfg_size = sizeof(struct pipe_cfg),
	.options = pipe_options,
	.metrics = pipe_metrics,
	.formats = pipe_formats,
	.prepare = pipe_prepare,
	.run = pipe_run,
};
