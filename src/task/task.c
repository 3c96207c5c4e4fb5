// SPDX-License-Identifier: GPL-2.0-only
/*
 * task: the workers of task/task.h (forked processes or
 * pthreads), hackbench's start barrier, reaping and killing them.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <stdint.h>
#include <unistd.h>

#include "task/instrument.h"
#include "task/task.h"
#include "task/wl_ctx.h"
#include "util.h"

/* Written into the ready channel by the SIGCHLD handler; workers write '*'. */
#define DEAD_BYTE 'X'

/* The ready channel's write end while a barrier is up in process mode. */
const char *const task_mode_names[] = {
	[TASK_PROCESS] = "process",
	[TASK_THREAD] = "thread",
	NULL,
};

static volatile int sigchld_fd = -1;

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
	if (wl_probing(ctx)) {
		/* written by each worker as it ends, read once all are reaped */
		t->probe = mmap(NULL, cap * sizeof(*t->probe), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (t->probe == MAP_FAILED)
			t->probe = NULL;	/* a probe never fails a run */
	}
	if (mode == TASK_THREAD) {
		/*
		 * A thread's first look at /proc/thread-self makes entries
		 * for it that the kernel flushes as it exits: timed, that
		 * made thread mode over sockets 4% slower with the probes on
		 * and took 15% more context switches (doc/benchmarks.md).
		 */
		t->linger = t->probe != NULL;
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

/*
 * Runs a worker's function between the probes' begin and end; own_fds:
 * a worker process, with a file table of its own.
 */
static int run_worker(struct task_slot *s, bool inline_worker, bool own_fds)
{
	int rc;

	instrument_task_begin(s->probe, inline_worker, own_fds);
	rc = s->fn(s->arg);
	if (!rc)
		instrument_task_end();
	return rc;
}

static void *thread_main(void *p)
{
	struct task_slot *s = p;
	struct tasks *t = s->tasks;

	if (run_worker(s, false, false))
		_exit(1);	/* the reason is in the shared area */
	if (!t->linger)
		return NULL;
	/* its counters are in its slot: the release orders them before */
	if (__atomic_sub_fetch(&t->busy, 1, __ATOMIC_RELEASE) == 0)
		futex_wake(&t->busy, 1);
	while (!__atomic_load_n(&t->released, __ATOMIC_ACQUIRE))
		futex_wait(&t->released, 0);
	return NULL;
}

int tasks_run_inline(struct tasks *t, task_fn fn, void *arg)
{
	struct task_slot s = { .fn = fn, .arg = arg, .ctx = t->ctx };

	if (t->n + t->ninline == t->cap)
		return wl_fail(t->ctx, "more workers than planned (%u)", t->cap);
	s.probe = t->probe ? &t->probe[t->n + t->ninline] : NULL;
	t->ninline++;
	return run_worker(&s, true, false);
}

/*
 * pthread_create() says EAGAIN both when RLIMIT_NPROC is reached and when
 * the stack cannot be mapped: under a finite 'ulimit -v' the address
 * space is the likelier limit, so that is the one named.
 */
static int thread_failed(struct tasks *t, int err)
{
	struct rlimit as;
	size_t stack = 0;

	pthread_attr_getstacksize(&t->attr, &stack);
	errno = err;
	if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY)
		return wl_fail_errno(t->ctx,
			"cannot create thread %u of %u (each needs a %zu KiB stack; check ulimit -v, now %llu KiB)",
			t->n + 1, t->cap, stack / 1024,
			(unsigned long long)as.rlim_cur / 1024);
	return wl_fail_errno(t->ctx,
		"cannot create thread %u of %u (check ulimit -u and kernel.threads-max)",
		t->n + 1, t->cap);
}

int tasks_spawn(struct tasks *t, task_fn fn, void *arg)
{
	struct task_slot *s;
	int err;

	if (t->n + t->ninline == t->cap)
		return wl_fail(t->ctx, "more workers than planned (%u)", t->cap);
	s = &t->slot[t->n];
	s->fn = fn;
	s->arg = arg;
	s->ctx = t->ctx;
	s->tasks = t;
	s->probe = t->probe ? &t->probe[t->n + t->ninline] : NULL;
	if (t->mode == TASK_THREAD) {
		__atomic_add_fetch(&t->busy, 1, __ATOMIC_RELAXED);
		err = pthread_create(&s->thread, &t->attr, thread_main, s);
		if (err) {
			__atomic_sub_fetch(&t->busy, 1, __ATOMIC_RELAXED);
			return thread_failed(t, err);
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
		_exit(run_worker(s, false, true) ? 1 : 0);
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

/* What a worker's end says about the run. */
static void note_status(struct tasks *t, pid_t pid, int status)
{
	unsigned i = slot_of(t, pid) + 1;

	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		wl_fail_rank(t->ctx, sig == SIGPIPE ? FAIL_CONSEQUENCE : FAIL_CAUSE,
			     "worker %u of %u (pid %d) was killed by signal %d (%s)",
			     i, t->n, (int)pid, sig, strsignal(sig));
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		/* it said why itself; this only stands in if it could not */
		wl_fail_rank(t->ctx, FAIL_CONSEQUENCE,
			     "worker %u of %u (pid %d) exited with status %d",
			     i, t->n, (int)pid, WEXITSTATUS(status));
	}
}

void tasks_abort(struct tasks *t)
{
	uint64_t until = now_ns() + 100 * 1000000ull;
	int status;

	if (t->mode == TASK_THREAD)
		_exit(1);
	/*
	 * A consequence (EPIPE, EOF) means a peer is dying: give it up to
	 * 100 ms to end, so that the cause is what gets reported.
	 */
	for (;;) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			note_status(t, pid, status);
			continue;
		}
		if (pid < 0 || t->ctx->failed == (int)FAIL_CAUSE || now_ns() > until)
			break;
		usleep(1000);
	}
	/* Our group holds exactly the workers and us. */
	kill(0, SIGKILL);
	_exit(1);
}

int tasks_reap(struct tasks *t)
{
	int status;

	if (t->mode == TASK_THREAD) {
		uint32_t busy;

		if (!t->linger) {
			for (unsigned i = 0; i < t->n; i++)
				pthread_join(t->slot[i].thread, NULL);
			goto done;
		}
		while ((busy = __atomic_load_n(&t->busy, __ATOMIC_ACQUIRE)))
			futex_wait(&t->busy, busy);
		t->ctx->lingering = t;
		goto done;
	}
	for (unsigned i = 0; i < t->n; i++) {
		pid_t pid = wait(&status);

		if (pid < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			wl_fail_errno(t->ctx, "wait for workers");
			tasks_abort(t);
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		note_status(t, pid, status);
		tasks_abort(t);
	}
done:
	if (t->probe) {
		uint64_t t0 = now_ns();

		task_probes_sum(t->probe, t->n + t->ninline, t->ctx->probe);
		t->ctx->probe_end_ns += now_ns() - t0;
	}
	return 0;
}

void tasks_let_go(struct tasks *t)
{
	if (t->ctx->lingering != t)
		return;
	__atomic_store_n(&t->released, 1, __ATOMIC_RELEASE);
	futex_wake(&t->released, INT_MAX);
	for (unsigned i = 0; i < t->n; i++)
		pthread_join(t->slot[i].thread, NULL);
	t->ctx->lingering = NULL;
}

/* The clock is here, beside the lingering threads it lets go. */
void wl_clock_start(struct wl_ctx *ctx)
{
	if (ctx->probes)
		probe_begin(ctx->ps);
	ctx->clock_t0 = now_ns();
}

void wl_clock_stop(struct wl_ctx *ctx)
{
	uint64_t t = now_ns();

	ctx->clock_s = (double)(t - ctx->clock_t0) / 1e9;
	/* their exits untimed, but before the probes' end, as a reap's */
	if (ctx->lingering)
		tasks_let_go(ctx->lingering);
	if (ctx->probes) {
		t = now_ns();
		probe_end(ctx->ps, ctx->probe);
		ctx->probe_end_ns += now_ns() - t;
	}
}

void tasks_free(struct tasks *t)
{
	tasks_let_go(t);
	if (t->probe)
		munmap(t->probe, t->cap * sizeof(*t->probe));
	t->probe = NULL;
	if (t->mode == TASK_THREAD)
		pthread_attr_destroy(&t->attr);
	free(t->slot);
	t->slot = NULL;
}

int barrier_worker(const struct barrier *b, struct wl_ctx *ctx)
{
	struct pollfd pfd = { .fd = b->wake[0], .events = POLLIN };
	char c = '*';

	/*
	 * The baseline before saying ready, not after the release: 16,000
	 * tasks reading their /proc files at once, between the release and
	 * their first message, made the timed region 12-20% longer with the
	 * probes on (doc/benchmarks.md).
	 */
	if (wl_probing(ctx))
		instrument_task_rebase();
	if (write(b->ready[1], &c, 1) != 1)
		return wl_fail_errno(ctx, "worker: ready write");
	while (poll(&pfd, 1, -1) != 1)
		if (errno != EINTR)
			return wl_fail_errno(ctx, "worker: poll for start");
	return 0;
}

static void on_sigchld(int sig)
{
	int saved = errno;
	char c = DEAD_BYTE;
	ssize_t r;

	(void)sig;
	r = write(sigchld_fd, &c, 1);
	(void)r;
	errno = saved;
}

int tasks_use_barrier(struct tasks *t, const struct barrier *b)
{
	struct sigaction sa = { .sa_handler = on_sigchld,
				.sa_flags = SA_RESTART | SA_NOCLDSTOP };

	t->barrier = b;
	if (t->mode == TASK_THREAD)
		return 0;
	sigchld_fd = b->ready[1];
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL))
		return wl_fail_errno(t->ctx, "sigaction(SIGCHLD)");
	return 0;
}

int tasks_wait_ready(struct tasks *t)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char c;

	for (unsigned i = 0; i < t->n; i++) {
		ssize_t r = read(t->barrier->ready[0], &c, 1);

		if (r == 1 && c != DEAD_BYTE)
			continue;
		if (r < 0 && errno == EINTR) {
			i--;
			continue;
		}
		if (r == 1)
			wl_fail_rank(t->ctx, FAIL_CONSEQUENCE,
				     "a worker ended before the start (%u of %u ready)",
				     i, t->n);
		else if (r < 0)
			wl_fail_errno(t->ctx, "read of ready byte %u of %u",
				      i + 1, t->n);
		else
			wl_fail(t->ctx, "ready channel closed after %u of %u workers",
				i, t->n);
		tasks_abort(t);
	}
	if (t->mode == TASK_PROCESS) {
		sigemptyset(&dfl.sa_mask);
		sigaction(SIGCHLD, &dfl, NULL);
		sigchld_fd = -1;
	}
	return 0;
}

int tasks_release(struct tasks *t)
{
	char c = '*';

	if (write(t->barrier->wake[1], &c, 1) != 1)
		return wl_fail_errno(t->ctx, "write of the start byte");
	return 0;
}

int tasks_wait_until(struct tasks *t, uint64_t deadline_ns)
{
	siginfo_t si = { 0 };
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (t->mode == TASK_PROCESS) {
		sigprocmask(SIG_BLOCK, &chld, NULL);
		/* one that ended before SIGCHLD was blocked was not queued */
		if (!waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) &&
		    si.si_pid)
			return 1;
	}
	for (;;) {
		uint64_t now = now_ns(), left;
		struct timespec ts;

		if (now >= deadline_ns)
			return 0;
		left = deadline_ns - now;
		ts.tv_sec = (time_t)(left / 1000000000ull);
		ts.tv_nsec = (long)(left % 1000000000ull);
		if (t->mode == TASK_THREAD)
			nanosleep(&ts, NULL);
		else if (sigtimedwait(&chld, NULL, &ts) == SIGCHLD)
			return 1;
	}
}
