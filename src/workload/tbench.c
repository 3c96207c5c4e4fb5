// SPDX-License-Identifier: GPL-2.0-only
/*
 * tbench: the real tbench and tbench_srv (Debian package dbench): N
 * client processes, each with one TCP connection over loopback to a
 * process of tbench_srv, replaying the load file in a closed loop - 2N
 * busy tasks that wake each other, as seed 000 sweeps them.
 *
 * tbench_srv always listens on port 7003. As root the run gets a network
 * namespace of its own (unshare, then loopback brought up), so that it
 * never meets another tbench_srv; otherwise a port already taken is said
 * before anything starts. The server is started in the workload
 * process's group and stopped when the clients end; the supervisor's
 * kill of the group covers every other ending.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/external.h"
#include "workload/registry.h"
#include "workload/tools.h"
#include "util.h"

#define TBENCH_PORT 7003

static const char *const netns_names[] = { "auto", "yes", "no", NULL };

static int tbench_prepare(const void *cfgp)
{
	const struct dbench_cfg *c = cfgp;
	int rc = ext_need("tbench", "tbench", "dbench");

	if (!rc)
		rc = ext_need("tbench", "tbench_srv", "dbench");
	if (!rc && c->netns == NETNS_YES && geteuid() != 0) {
		error("tbench: netns = yes needs root (CAP_SYS_ADMIN) to make a network namespace");
		rc = EXIT_USAGE;
	}
	return rc;
}

static int lo_up(struct wl_ctx *ctx)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return wl_fail_errno(ctx, "tbench: socket");
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(s, SIOCSIFFLAGS, &ifr) == 0) {
			close(s);
			return 0;
		}
	}
	close(s);
	return wl_fail_errno(ctx, "tbench: cannot bring up loopback in the new network namespace");
}

static struct sockaddr_in loopback(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(TBENCH_PORT),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return a;
}

/* Fails, saying so, if something already listens on port 7003. */
static int port_free(struct wl_ctx *ctx)
{
	struct sockaddr_in a = loopback();
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, rc;

	if (s < 0)
		return wl_fail_errno(ctx, "tbench: socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	rc = bind(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
	if (rc && errno == EADDRINUSE)
		return wl_fail(ctx, "tbench: TCP port %d, which tbench_srv always listens on, is in use (another tbench_srv?); stop that, or run as root for a network namespace of the run's own",
			       TBENCH_PORT);
	return 0;
}

/* Waits until the server accepts a connection, or fails. */
static int wait_accepting(struct wl_ctx *ctx, pid_t srv)
{
	struct sockaddr_in a = loopback();
	uint64_t end = now_ns() + 10000000000ull;
	int status;

	for (;;) {
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (s < 0)
			return wl_fail_errno(ctx, "tbench: socket");
		if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0) {
			close(s);
			return 0;
		}
		close(s);
		if (waitpid(srv, &status, WNOHANG) == srv)
			return wl_fail(ctx, "tbench_srv ended as it started (%s %d): is port %d taken?",
				       WIFEXITED(status) ? "status" : "signal",
				       WIFEXITED(status) ? WEXITSTATUS(status) :
							   WTERMSIG(status),
				       TBENCH_PORT);
		if (now_ns() > end)
			return wl_fail(ctx, "tbench_srv did not accept connections on port %d within 10 s",
				       TBENCH_PORT);
		usleep(5000);
	}
}

static int tbench_run(const void *cfgp, struct wl_ctx *ctx,
		      struct wl_result *res)
{
	const struct dbench_cfg *c = cfgp;
	bool ns = c->netns == NETNS_YES ||
		  (c->netns == NETNS_AUTO && geteuid() == 0);
	char host[] = "127.0.0.1";
	char *srv_argv[] = { "tbench_srv", NULL };
	char *argv[8];
	struct ext_cmd srv_cmd = { .what = "tbench_srv", .argv = srv_argv };
	struct ext_cmd cmd = { .what = "tbench", .argv = argv, .out_fd = -1 };
	struct ext_out out = { 0 };
	struct dbench_args b;
	pid_t srv;
	int i, rc, null;

	if (ns && unshare(CLONE_NEWNET))
		return wl_fail_errno(ctx, "tbench: cannot make a network namespace (netns = no runs in the machine's)");
	if (ns ? lo_up(ctx) : port_free(ctx))
		return -1;
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0)
		return wl_fail_errno(ctx, "/dev/null");
	srv_cmd.out_fd = null;
	srv = ext_spawn(ctx, &srv_cmd, NULL);
	close(null);
	if (srv < 0)
		return -1;
	if (wait_accepting(ctx, srv)) {
		ext_stop(srv, SIGTERM, 1000);
		return -1;
	}

	i = dbench_argv(argv, "tbench", c, NULL, &b);
	argv[i++] = host;
	argv[i] = NULL;

	wl_clock_start(ctx);
	rc = ext_run(ctx, &cmd, dbench_limit_s(c), dbench_fatal, &out, NULL);
	/*
	 * The server's half of the load counts too: it and its
	 * per-connection processes (which end with their clients) are
	 * reaped before the clock stops, so that their rusage is in.
	 */
	ext_stop(srv, SIGTERM, 1000);
	ext_reap_all(2000);
	wl_clock_stop(ctx);
	if (!rc)
		rc = dbench_results(ctx, "tbench", &out, res);
	ext_out_free(&out);
	return rc;
}

#define O(f) offsetof(struct dbench_cfg, f)
static const struct opt_def tbench_options[] = {
	{ .name = "clients", .type = OPT_UINT, .offset = O(clients),
	  .def = "1", .min = 0, .max = 10000, .arg = "N",
	  .help = "client processes, each with a server process: 2N tasks; 0: one per online CPU" },
	DBENCH_OPTIONS("tbench"),
	{ .name = "netns", .type = OPT_ENUM, .offset = O(netns),
	  .def = "auto", .choices = netns_names, .arg = "WHEN",
	  .help = "a network namespace of the run's own, so that port 7003 is "
		  "never taken: auto (when root), yes, no" },
	{ .name = NULL },
};
#undef O

static const struct metric_def tbench_metrics[] = DBENCH_METRICS("tbench");

static const struct text_format tbench_formats[] = {
	{ "tbench", "tbench's Throughput line", NULL, dbench_text_result, NULL },
	{ .name = NULL },
};

const struct workload wl_tbench = {
	.name = "tbench",
	.summary = "the real tbench: N clients and N tbench_srv processes over loopback TCP",
	.reference = "tbench 4.0 (dbench)",
	.events = "ops",
	.cfg_size = sizeof(struct dbench_cfg),
	.options = tbench_options,
	.metrics = tbench_metrics,
	.formats = tbench_formats,
	.prepare = tbench_prepare,
	.run = tbench_run,
};
