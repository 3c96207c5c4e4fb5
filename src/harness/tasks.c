// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/tasks.h"
#include "workload/workload.h"
#include "util.h"

/* Room for a worker's own frames and libc's, beyond its declared needs. */
#define STACK_BASE (64 * 1024)

int tasks_init(struct tasks *t, enum task_mode mode, unsigned cap,
	       size_t stack_extra, struct wl_ctx *ctx)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t stack = STACK_BASE + stack_extra;

	memset(t, 0, sizeof(*t));
	t->mode = mode;
	t->cap = cap;
	t->ctx = ctx;
	t->self = getpid();
	t->slot = xcalloc(cap, sizeof(*t->slot));
	if (mode == TASK_THREAD) {
		stack = (stack + pg - 1) / pg * pg;
		if (stack < (size_t)PTHREAD_STACK_MIN)
			stack = (size_t)PTHREAD_STACK_MIN;
		pthread_attr_init(&t->attr);
		errno = pthread_attr_setstacksize(&t->attr, stack);
		if (errno)
			return wl_fail_errno(ctx, "thread stack size %zu", stack);
	}
	return 0;
}

static void *thread_main(void *p)
{
	struct task_slot *s = p;

	if (s->fn(s->arg))
		_exit(1);	/* the reason is in the shared area */
	return NULL;
}

int tasks_spawn(struct tasks *t, task_fn fn, void *arg)
{
	struct task_slot *s;
	int err;

	if (t->n == t->cap)
		return wl_fail(t->ctx, "more workers than planned (%u)", t->cap);
	s = &t->slot[t->n];
	s->fn = fn;
	s->arg = arg;
	s->ctx = t->ctx;
	if (t->mode == TASK_THREAD) {
		err = pthread_create(&s->thread, &t->attr, thread_main, s);
		if (err) {
			errno = err;
			return wl_fail_errno(t->ctx,
				"cannot create thread %u of %u (check ulimit -u and kernel.threads-max)",
				t->n + 1, t->cap);
		}
		t->n++;
		return 0;
	}
	s->pid = fork();
	if (s->pid < 0)
		return wl_fail_errno(t->ctx,
			"cannot fork worker %u of %u (check ulimit -u and kernel.pid_max)",
			t->n + 1, t->cap);
	if (s->pid == 0) {
		/* no orphan may outlive the workload process */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != t->self)
			_exit(1);
		if (fn(arg)) {
			/*
			 * As a failing thread takes its whole process down:
			 * peers blocked on this worker would wait forever.
			 */
			kill(0, SIGKILL);
			_exit(1);
		}
		_exit(0);
	}
	t->n++;
	return 0;
}

static unsigned slot_of(const struct tasks *t, pid_t pid)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->slot[i].pid == pid)
			return i;
	return t->n;
}

int tasks_reap(struct tasks *t)
{
	unsigned i;
	int status;

	if (t->mode == TASK_THREAD) {
		for (i = 0; i < t->n; i++)
			pthread_join(t->slot[i].thread, NULL);
		t->n = 0;
		return 0;
	}
	for (i = 0; i < t->n; i++) {
		pid_t pid = wait(&status);

		if (pid < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			return wl_fail_errno(t->ctx, "wait for workers");
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		if (WIFSIGNALED(status))
			wl_fail(t->ctx, "worker %u of %u (pid %d) was killed by signal %d (%s)",
				slot_of(t, pid) + 1, t->n, (int)pid,
				WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			wl_fail(t->ctx, "worker %u of %u (pid %d) failed",
				slot_of(t, pid) + 1, t->n, (int)pid);
		/*
		 * The others may wait forever for data that will not come.
		 * Our group holds exactly the workers and us: the supervisor
		 * reaps them all and reports the reason recorded above.
		 */
		kill(0, SIGKILL);
	}
	t->n = 0;
	return 0;
}

void tasks_free(struct tasks *t)
{
	if (t->mode == TASK_THREAD)
		pthread_attr_destroy(&t->attr);
	free(t->slot);
	t->slot = NULL;
}

int barrier_worker(const struct barrier *b, struct wl_ctx *ctx)
{
	struct pollfd pfd = { .fd = b->wake[0], .events = POLLIN };
	char c = '*';

	if (write(b->ready[1], &c, 1) != 1)
		return wl_fail_errno(ctx, "worker: ready write");
	while (poll(&pfd, 1, -1) != 1)
		if (errno != EINTR)
			return wl_fail_errno(ctx, "worker: poll for start");
	return 0;
}

int barrier_wait_ready(const struct barrier *b, unsigned n, struct wl_ctx *ctx)
{
	char c;

	for (unsigned i = 0; i < n; i++) {
		ssize_t r = read(b->ready[0], &c, 1);

		if (r == 1)
			continue;
		if (r < 0 && errno == EINTR) {
			i--;
			continue;
		}
		return r < 0 ? wl_fail_errno(ctx, "read of ready byte %u of %u", i + 1, n)
			     : wl_fail(ctx, "ready channel closed after %u of %u workers", i, n);
	}
	return 0;
}

int barrier_release(const struct barrier *b, struct wl_ctx *ctx)
{
	char c = '*';

	if (write(b->wake[1], &c, 1) != 1)
		return wl_fail_errno(ctx, "write of the start byte");
	return 0;
}
