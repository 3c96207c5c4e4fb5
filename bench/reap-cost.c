// SPDX-License-Identifier: GPL-2.0-only
/*
 * reap-cost - what a task's /proc files cost its reaper: N processes
 * each open their own schedstat and sched files (or not), read them,
 * say they are ready, wait for the release, read them again, close them
 * and exit; the parent times the release to the last wait(). The
 * difference between the kinds is the work the kernel does at exit and
 * reaping for the proc inodes the task looked up (doc/benchmarks.md,
 * "Probe overhead per messaging mode").
 *
 * usage: reap-cost N KIND   (cc -O2 -o reap-cost bench/reap-cost.c)
 *   KIND 0: no /proc files; 1: /proc/thread-self/{schedstat,sched};
 *   2: /proc/self/{schedstat,sched}; 3: /proc/self/schedstat alone
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void look(int a, int b)
{
	char buf[8192];

	if (a >= 0 && pread(a, buf, sizeof(buf), 0) < 0)
		_exit(1);
	if (b >= 0 && pread(b, buf, sizeof(buf), 0) < 0)
		_exit(1);
}

static void child(int kind, int ready, int go)
{
	static const char *const path[][2] = {
		{ NULL, NULL },
		{ "/proc/thread-self/schedstat", "/proc/thread-self/sched" },
		{ "/proc/self/schedstat", "/proc/self/sched" },
		{ "/proc/self/schedstat", NULL },
	};
	int a = path[kind][0] ? open(path[kind][0], O_RDONLY) : -1;
	int b = path[kind][1] ? open(path[kind][1], O_RDONLY) : -1;
	char c = 'r';

	look(a, b);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) < 0)
		_exit(1);
	look(a, b);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	_exit(0);
}

int main(int argc, char **argv)
{
	int n = argc == 3 ? atoi(argv[1]) : 0, kind = argc == 3 ? atoi(argv[2]) : -1;
	int ready[2], go[2], failed = 0, status;
	double t0, t1;
	char c;

	if (n < 1 || kind < 0 || kind > 3) {
		fprintf(stderr, "usage: reap-cost N KIND (N >= 1, KIND 0..3)\n");
		return 2;
	}
	if (pipe(ready) || pipe(go)) {
		perror("pipe");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("fork");
			return 1;	/* the others see go's end close and exit */
		}
		if (p == 0) {
			close(go[1]);
			close(ready[0]);
			child(kind, ready[1], go[0]);
		}
	}
	close(ready[1]);
	for (int i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1) {
			fprintf(stderr, "a child ended before it was ready\n");
			failed = 1;
			break;
		}
	t0 = now_us();
	close(go[1]);
	for (int i = 0; i < n; i++)
		if (wait(&status) > 0 && (!WIFEXITED(status) || WEXITSTATUS(status)))
			failed = 1;
	t1 = now_us();
	printf("kind %d, %d tasks: release to last reap %.1f ms, %.2f us a task\n",
	       kind, n, (t1 - t0) / 1e3, (t1 - t0) / n);
	return failed;
}
