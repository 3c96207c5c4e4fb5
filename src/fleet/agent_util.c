// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent_util.c: what every part of the agent uses (fleet/agent.h) - the
 * stop signal caught, its lines on stderr, a clock and a nap a signal
 * cuts short, the queue's connection made again when lost. A leaf.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fleet/agent.h"
#include "store/store.h"
#include "util.h"

volatile sig_atomic_t agent_stop;

static void on_stop(int sig)
{
	agent_stop = sig;
}

void agent_catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

void agent_say(const struct agent *a, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "agent %s: ", a->me.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

double agent_now(void)
{
	return (double)now_ns() / 1e9;
}

void agent_nap(double secs)
{
	double end = agent_now() + secs;

	while (!agent_stop && agent_now() < end) {
		double left = end - agent_now();
		struct timespec ts = { .tv_sec = (time_t)left,
				       .tv_nsec = (long)((left - (double)(time_t)left) * 1e9) };

		if (left <= 0)
			break;
		nanosleep(&ts, NULL);
	}
}

int agent_connect(struct agent *a)
{
	if (a->q && queue_connected(a->q))
		return 0;
	if (a->q)
		store_close(a->q);
	a->q = queue_open(a->url, "agent", true);
	if (!a->q)
		return -1;
	a->me.pid = (long)getpid();
	if (queue_agent_register(a->q, &a->me)) {
		store_close(a->q);
		a->q = NULL;
		return -1;
	}
	return 0;
}
