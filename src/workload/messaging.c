// SPDX-License-Identifier: GPL-2.0-only
/*
 * messaging: hackbench's groups of senders spraying messages at
 * receivers, with exactly its system calls: per message one write() per
 * sender and one or more read()s per receiver, on blocking channels of
 * the same type and default buffer sizes, in the same order. Worker
 * creation is not timed; the run and the reaping are.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workload/loopback.h"
#include "workload/messaging.h"
#include "workload/registry.h"
#include "workload/text.h"
#include "util.h"

struct receiver {
	int in_fds[2];		/* [0] read here; [1] the senders' end */
	uint64_t packets;	/* fds * loops */
	const struct messaging_cfg *cfg;
	const struct barrier *barrier;
	struct wl_ctx *ctx;
};

struct sender {
	const int *out_fds;	/* one per receiver of the group */
	const struct messaging_cfg *cfg;
	const struct barrier *barrier;
	struct wl_ctx *ctx;
};

static int fdpair(int ipc, int fds[2], struct wl_ctx *ctx)
{
	static const char *const what[] = {
		"socketpair(AF_UNIX, SOCK_STREAM)", "pipe", "TCP loopback pair",
	};
	int r;

	if (ipc == MSG_PIPE)
		r = pipe(fds);
	else if (ipc == MSG_INET)
		r = tcp_loopback_pair(fds);
	else
		r = socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
	if (r && errno == EMFILE)
		return wl_fail_errno(ctx, "%s (raise 'ulimit -n')", what[ipc]);
	return r ? wl_fail_errno(ctx, "%s", what[ipc]) : 0;
}

/*
 * Latency is sampled: each sender stamps the messages of every
 * STAMP_EVERY-th loop (all its receivers get some). A clock read costs
 * about 25 ns, some 4% of a message's CPU time at hackbench's defaults,
 * twice per message; one in 8 keeps the cost near 0.5% and still gives
 * thousands of samples. Other messages carry 0 where the stamp would be.
 */
#define STAMP_EVERY 8

static int sender_main(void *arg)
{
	const struct sender *s = arg;
	size_t size = s->cfg->datasize;
	bool stamp = wl_probing(s->ctx) && size >= sizeof(uint64_t);
	char data[size];

	if (barrier_worker(s->barrier, s->ctx))
		return -1;
	memset(data, '-', size);
	for (unsigned i = 0; i < s->cfg->loops; i++) {
		for (unsigned j = 0; j < s->cfg->fds; j++) {
			size_t done = 0;

			if (stamp) {
				/* in the payload: no extra call, same size */
				uint64_t t = i % STAMP_EVERY ? 0 : now_ns();

				memcpy(data, &t, sizeof(t));
			}

			while (done < size) {
				ssize_t r = write(s->out_fds[j], data + done,
						  size - done);

				if (r < 0)
					return wl_fail_errno(s->ctx,
						"sender: write");
				done += (size_t)r;
			}
		}
	}
	return 0;
}

/*
 * A stamp read back from a message. Writes larger than PIPE_BUF from
 * several senders may interleave in a pipe, so a stamp can be another
 * message's bytes: anything not from the last hour is not a stamp.
 */
static void note_latency(struct wl_ctx *ctx, const char *data)
{
	uint64_t sent, now;

	memcpy(&sent, data, sizeof(sent));
	if (!sent) {
		wl_message(ctx);	/* not a sampled one */
		return;
	}
	now = now_ns();
	if (sent <= now && now - sent < 3600ull * 1000000000ull)
		wl_latency(ctx, now - sent);
	else
		wl_message(ctx);
}

static int receiver_main(void *arg)
{
	const struct receiver *r = arg;
	size_t size = r->cfg->datasize;
	bool probing = wl_probing(r->ctx);
	bool stamped = probing && size >= sizeof(uint64_t);
	char data[size];

	if (r->cfg->mode == MSG_PROCESS)
		close(r->in_fds[1]);
	if (barrier_worker(r->barrier, r->ctx))
		return -1;
	for (uint64_t i = 0; i < r->packets; i++) {
		size_t done = 0;

		while (done < size) {
			ssize_t n = read(r->in_fds[0], data + done,
					 size - done);

			if (n < 0)
				return wl_fail_errno(r->ctx, "receiver: read");
			if (n == 0)
				return wl_fail_peer(r->ctx,
					"receiver: channel closed after %llu of %llu messages",
					(unsigned long long)i,
					(unsigned long long)r->packets);
			done += (size_t)n;
		}
		if (stamped)
			note_latency(r->ctx, data);
		else if (probing)
			wl_message(r->ctx);
	}
	return 0;
}

/*
 * Over pipes, messaging switches between two regimes, receivers that
 * find their pipe empty and sleep at every message, or not: the probes'
 * work (a CPU read a message, a clock read every 8th loop, the looks at
 * /proc) tips it, whichever part of it is left in, to longer times on 2
 * CPUs - process mode by 18-20% at 16,000 tasks; thread mode by 17-23%
 * at 160 tasks and 34% at 16,000 until its threads' exits left the clock
 * (-12% to +3% since; bench/probe-overhead.sh, doc/benchmarks.md).
 *
 * Over sockets the probes cost each task a fixed amount in the timed
 * region, however few its messages: its /proc files read as it ends and
 * their inodes flushed as it exits. 1,600 tasks of 200 messages each
 * (-g 40 -l 10) took 11% longer with them as processes and 20% as
 * threads; of 2,000 (hackbench's -l 100), 1% and 8%; at 20,000 (-g 4
 * -l 1000) processes 1% and threads 3-5% (doc/benchmarks.md, "Probes
 * and tasks of few messages"). Below those counts a task they are off
 * unless asked. Threads now exit after the clock stops when probed
 * (workload/workload.h), which took their share away: see "Thread workers
 * exit after the clock" in doc/benchmarks.md.
 */
#define PROBES_MIN_MESSAGES 2000
#define PROBES_MIN_MESSAGES_THREAD 20000

static const char *messaging_probes_tip(const void *cfgp)
{
	static char why[256];
	const struct messaging_cfg *cfg = cfgp;
	unsigned long long per_task = (unsigned long long)cfg->loops * cfg->fds;
	bool thread = cfg->mode == MSG_THREAD;
	unsigned min = thread ? PROBES_MIN_MESSAGES_THREAD : PROBES_MIN_MESSAGES;

	if (cfg->ipc == MSG_PIPE)
		return "messaging over pipes is bistable, and the probes make its time up to 20% longer (doc/benchmarks.md)";
	if (per_task < min) {
		snprintf(why, sizeof(why),
			 "each task handles %llu messages (loops x fds), under %u in %s mode, and the probes' cost a task makes such runs up to 20%% longer (doc/benchmarks.md)",
			 per_task, min, thread ? "thread" : "process");
		return why;
	}
	return NULL;
}

static int messaging_run(const void *cfgp, struct wl_ctx *ctx,
			 struct wl_result *res)
{
	const struct messaging_cfg *cfg = cfgp;
	unsigned nfds = cfg->fds, ntasks = cfg->groups * 2 * nfds;
	bool process = cfg->mode == MSG_PROCESS;
	struct receiver *rcv;
	struct sender *snd;
	struct barrier b;
	struct tasks t;
	int *out_fds;
	uint64_t start, stop;
	double secs;

	if (fdpair(cfg->ipc, b.ready, ctx) || fdpair(cfg->ipc, b.wake, ctx))
		return -1;
	if (tasks_init(&t, process ? TASK_PROCESS : TASK_THREAD, ntasks,
		       2 * (size_t)cfg->datasize, ctx) ||
	    tasks_use_barrier(&t, &b))
		return -1;
	rcv = xcalloc((size_t)cfg->groups * nfds, sizeof(*rcv));
	snd = xcalloc(cfg->groups, sizeof(*snd));
	out_fds = xcalloc((size_t)cfg->groups * nfds, sizeof(*out_fds));

	for (unsigned g = 0; g < cfg->groups; g++) {
		int *out = out_fds + (size_t)g * nfds;

		for (unsigned i = 0; i < nfds; i++) {
			struct receiver *r = &rcv[(size_t)g * nfds + i];

			if (fdpair(cfg->ipc, r->in_fds, ctx))
				return -1;
			r->packets = (uint64_t)nfds * cfg->loops;
			r->cfg = cfg;
			r->barrier = &b;
			r->ctx = ctx;
			if (tasks_spawn(&t, receiver_main, r))
				return -1;
			out[i] = r->in_fds[1];
			if (process)
				close(r->in_fds[0]);
		}
		snd[g] = (struct sender){ out, cfg, &b, ctx };
		for (unsigned i = 0; i < nfds; i++)
			if (tasks_spawn(&t, sender_main, &snd[g]))
				return -1;
		if (process)
			for (unsigned i = 0; i < nfds; i++)
				close(out[i]);
	}
	if (cfg->fifo) {
		struct sched_param sp = { .sched_priority = 1 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			return wl_fail_errno(ctx,
				"--fifo: cannot make the main thread SCHED_FIFO (needs root or CAP_SYS_NICE)");
	}

	if (tasks_wait_ready(&t))
		return -1;
	wl_clock_start(ctx);
	start = now_ns();
	if (tasks_release(&t))
		return -1;
	if (tasks_reap(&t))
		return -1;
	stop = now_ns();
	wl_clock_stop(ctx);

	secs = (double)(stop - start) / 1e9;
	wl_set(res, MSG_TIME, secs);
	wl_set(res, MSG_RATE, (double)cfg->groups * nfds * nfds *
		       cfg->loops / secs);
	tasks_free(&t);
	free(rcv);
	free(snd);
	free(out_fds);
	return 0;
}

/*
 * Descriptors the workload process holds at its peak, plus stdio, the
 * barrier's four and a margin: in thread mode every channel stays open
 * in the one process (40 per group at -f 20); in process mode it holds
 * the senders' ends of one group's channels at most.
 */
static unsigned long long fds_needed(const struct messaging_cfg *cfg)
{
	if (cfg->mode == MSG_THREAD)
		return 2ull * cfg->fds * cfg->groups + 16;
	return cfg->fds + 16ull;
}

static int messaging_prepare(const void *cfgp)
{
	const struct messaging_cfg *cfg = cfgp;
	unsigned long long tasks = 2ull * cfg->fds * cfg->groups;
	unsigned long long need = fds_needed(cfg);
	const char *why = cfg->mode == MSG_THREAD ?
		"thread mode keeps 2 x fds descriptors per group open in one process" :
		"one group's channels";
	struct nofile_limits lim;
	unsigned long long hard;
	int rc;

	/* a process worker keeps its message on its own (main) stack */
	if (cfg->mode == MSG_PROCESS) {
		unsigned long long stack = STACK_NEED + cfg->datasize;

		rc = stack_raise(stack, &hard);
		if (rc > 0) {
			error("messaging: datasize %u needs a worker stack of %llu KiB, above the hard stack limit (ulimit -Hs) of %llu KiB: use thread mode (-T) or raise it",
			      cfg->datasize, stack >> 10, hard >> 10);
			return EXIT_USAGE;
		}
		if (rc)
			return EXIT_RUN_FAILED;
	}
	if (tasks > 4000000) {
		error("messaging: %llu tasks (groups x 2 x fds) is more than the 4000000 allowed",
		      tasks);
		return EXIT_USAGE;
	}
	rc = nofile_raise(need, &lim);
	if (rc <= 0)
		return rc ? EXIT_RUN_FAILED : 0;
	if (need > lim.nr_open)
		error("messaging: needs %llu file descriptors (%s), more than the kernel allows "
		      "one process (fs.nr_open = %llu): raise it as root with 'sysctl fs.nr_open=%llu', "
		      "then 'ulimit -n %llu'%s",
		      need, why, lim.nr_open, need, need,
		      cfg->mode == MSG_THREAD ? ", or use process mode" : "");
	else
		error("messaging: needs %llu file descriptors (%s), but the hard limit is %llu: "
		      "raise it with 'ulimit -Hn %llu' as root, or nofile in "
		      "/etc/security/limits.conf%s",
		      need, why, lim.hard, need,
		      cfg->mode == MSG_THREAD ? ", or use process mode" : "");
	return EXIT_RUN_FAILED;
}

static const char *const ipc_names[] = { "socket", "pipe", "inet", NULL };

#define O(f) offsetof(struct messaging_cfg, f)
static const struct opt_def messaging_options[] = {
	{ .name = "groups", .type = OPT_UINT, .offset = O(groups),
	  .def = "10", .min = 1, .max = 100000, .arg = "NUM",
	  .help = "groups of senders and receivers", .short_flag = 'g' },
	{ .name = "fds", .type = OPT_UINT, .offset = O(fds), .def = "20",
	  .min = 1, .max = 10000, .arg = "NUM",
	  .help = "senders and receivers per group (each receiver has a channel)",
	  .short_flag = 'f' },
	{ .name = "loops", .type = OPT_UINT, .offset = O(loops),
	  .def = "100", .min = 1, .max = 1000000000, .arg = "NUM",
	  .help = "messages each sender sends to each receiver",
	  .short_flag = 'l' },
	{ .name = "datasize", .type = OPT_UINT, .offset = O(datasize),
	  .def = "100", .min = 1, .max = 1048576, .arg = "BYTES",
	  .help = "message size", .short_flag = 's' },
	{ .name = "ipc", .type = OPT_ENUM, .offset = O(ipc), .def = "socket",
	  .choices = ipc_names, .arg = "KIND",
	  .help = "channel: AF_UNIX socketpair, pipe, or TCP over loopback" },
	{ .name = "ipc", .set = "pipe", .short_flag = 'p', .long_flag = "pipe",
	  .help = "send data via pipes" },
	{ .name = "ipc", .set = "inet", .short_flag = 'i', .long_flag = "inet",
	  .help = "send data via TCP over loopback" },
	{ .name = "mode", .type = OPT_ENUM, .offset = O(mode), .def = "process",
	  .choices = task_mode_names, .arg = "MODE",
	  .help = "workers are forked processes or POSIX threads" },
	{ .name = "mode", .set = "thread", .short_flag = 'T',
	  .long_flag = "threads", .help = "use POSIX threads" },
	{ .name = "mode", .set = "thread", .short_flag = 't',
	  .long_flag = "thread", .help = "use POSIX threads (perf bench's -t)" },
	{ .name = "mode", .set = "process", .short_flag = 'P',
	  .long_flag = "process", .help = "use fork (default)" },
	{ .name = "mode", .set = "process", .long_flag = "processes",
	  .help = "use fork (default)" },
	{ .name = "fifo", .type = OPT_BOOL, .offset = O(fifo), .def = "false",
	  .short_flag = 'F',
	  .help = "make the main thread SCHED_FIFO priority 1 after creating the workers" },
	{ .name = NULL },
};
#undef O

static const struct metric_def messaging_metrics[] = {
	[MSG_TIME] = { "messaging.time", "s", BETTER_LOWER, true,
		       "from releasing the workers to reaping the last one" },
	[MSG_RATE] = { "messaging.msgs_per_sec", "msgs/s", BETTER_HIGHER, false,
		       "messages (groups x fds x fds x loops) per second" },
	{ .name = NULL },
};

/* hackbench's lines, and perf bench sched messaging's block */
static void hackbench_header(FILE *f, const void *cfgp)
{
	const struct messaging_cfg *c = cfgp;

	fprintf(f, "Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
		c->mode == MSG_THREAD ? "threaded" : "process", c->groups,
		2 * c->fds, c->groups * 2 * c->fds);
	fprintf(f, "Each sender will pass %u messages of %u bytes\n", c->loops,
		c->datasize);
}

static void hackbench_result(FILE *f, const void *cfg,
			     const struct wl_result *r)
{
	(void)cfg;
	fputs("Time: ", f);
	print_secs_ms(f, r->value[MSG_TIME]);
	fputc('\n', f);
}

static void perf_messaging_header(FILE *f, const void *cfgp)
{
	const struct messaging_cfg *c = cfgp;
	const char *what = c->mode == MSG_THREAD ? "threads" : "processes";

	fprintf(f, "# Running 'sched/messaging' benchmark:\n");
	fprintf(f, "# %u sender and receiver %s per group\n", c->fds, what);
	fprintf(f, "# %u groups == %u %s run\n\n", c->groups,
		c->groups * 2 * c->fds, what);
}

static void perf_messaging_result(FILE *f, const void *cfg,
				  const struct wl_result *r)
{
	(void)cfg;
	perf_total_time(f, r->value[MSG_TIME]);
}

static const struct text_format messaging_formats[] = {
	{ "hackbench", "hackbench's three lines",
	  hackbench_header, hackbench_result, NULL },
	{ "perf", "perf bench sched messaging's block",
	  perf_messaging_header, perf_messaging_result, NULL },
	{ .name = NULL },
};

const struct workload wl_messaging = {
	.name = "messaging",
	.summary = "groups of senders spraying messages at receivers (hackbench)",
	.reference = "hackbench (rt-tests), perf bench sched messaging",
	.events = "msgs",
	.cfg_size = sizeof(struct messaging_cfg),
	.options = messaging_options,
	.metrics = messaging_metrics,
	.formats = messaging_formats,
	.prepare = messaging_prepare,
	.run = messaging_run,
	.probes_tip = messaging_probes_tip,
};
