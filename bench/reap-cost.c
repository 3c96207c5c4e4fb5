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
 *   2: /proc/self/{schedstat,sched}; 3: /proc/self/schedstat alone;
 *   4: /proc/self/schedstat and getrusage(RUSAGE_THREAD) for the switches
 *
 * Besides the wall time it prints the CPU time of the same span: the
 * parent's from the release to the last wait(), and each child's from
 * its wakeup to its end (its whole time less what it had used when the
 * release woke it), which spreads less than the wall time on a busy
 * machine.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_us(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void look(int a, int b, int kind)
{
	char buf[8192];
	struct rusage ru;

	if (kind == 4 && getrusage(RUSAGE_THREAD, &ru))
		_exit(1);
	if (a >= 0 && pread(a, buf, sizeof(buf), 0) < 0)
		_exit(1);
	if (b >= 0 && pread(b, buf, sizeof(buf), 0) < 0)
		_exit(1);
}

/* Each child's CPU time when released, so that the setup is not counted. */
static double *released;

static double thread_cpu_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void child(int kind, int ready, int go, int i)
{
	static const char *const path[][2] = {
		{ NULL, NULL },
		{ "/proc/thread-self/schedstat", "/proc/thread-self/sched" },
		{ "/proc/self/schedstat", "/proc/self/sched" },
		{ "/proc/self/schedstat", NULL },
		{ "/proc/self/schedstat", NULL },
	};
	int a = path[kind][0] ? open(path[kind][0], O_RDONLY) : -1;
	int b = path[kind][1] ? open(path[kind][1], O_RDONLY) : -1;
	char c = 'r';

	look(a, b, kind);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) < 0)
		_exit(1);
	released[i] = thread_cpu_us();
	look(a, b, kind);
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
	double t0, t1, c0;
	char c;

	if (n < 1 || kind < 0 || kind > 4) {
		fprintf(stderr, "usage: reap-cost N KIND (N >= 1, KIND 0..4)\n");
		return 2;
	}
	released = mmap(NULL, (size_t)n * sizeof(*released), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (released == MAP_FAILED) {
		perror("mmap");
		return 1;
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
			child(kind, ready[1], go[0], i);
		}
	}
	close(ready[1]);
	for (int i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1) {
			fprintf(stderr, "a child ended before it was ready\n");
			failed = 1;
			break;
		}
	c0 = cpu_us(RUSAGE_SELF);
	t0 = now_us();
	close(go[1]);
	for (int i = 0; i < n; i++)
		if (wait(&status) > 0 && (!WIFEXITED(status) || WEXITSTATUS(status)))
			failed = 1;
	t1 = now_us();
	c0 = cpu_us(RUSAGE_SELF) - c0 + cpu_us(RUSAGE_CHILDREN);
	for (int i = 0; i < n; i++)
		c0 -= released[i];
	printf("kind %d, %d tasks: release to last reap %.1f ms, %.2f us a task; CPU %.2f us a task\n",
	       kind, n, (t1 - t0) / 1e3, (t1 - t0) / n, c0 / n);
	return failed;
}
