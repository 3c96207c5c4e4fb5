// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/supervise.h"
#include "util.h"

static void vfail(struct wl_ctx *ctx, const char *fmt, va_list ap,
		  const char *suffix)
{
	int expected = 0;
	size_t n;

	if (!atomic_compare_exchange_strong(&ctx->failed, &expected, 1))
		return;		/* somebody said why first */
	vsnprintf(ctx->reason, sizeof(ctx->reason), fmt, ap);
	n = strlen(ctx->reason);
	if (suffix)
		snprintf(ctx->reason + n, sizeof(ctx->reason) - n, ": %s",
			 suffix);
}

int wl_fail(struct wl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(ctx, fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int wl_fail_errno(struct wl_ctx *ctx, const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vfail(ctx, fmt, ap, why);
	va_end(ap);
	return -1;
}

int run_status_exit(enum run_status st)
{
	switch (st) {
	case RUN_OK:
		return EXIT_OK;
	case RUN_INTERRUPTED:
		return EXIT_INTERRUPTED;
	default:
		return EXIT_RUN_FAILED;
	}
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void __attribute__((noreturn))
workload_process(const struct workload *wl, const void *cfg,
		 struct wl_ctx *ctx, pid_t parent)
{
	struct rusage ru;
	sigset_t none;
	int rc;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	rc = wl->run(cfg, ctx, &ctx->result);
	if (!getrusage(RUSAGE_SELF, &ru))
		ctx->maxrss_kib = ru.ru_maxrss;
	_exit(rc ? 1 : 0);
}

/*
 * Waits until the workload process has ended (without reaping it, so its
 * pid - the group id - stays reserved), the deadline passes or a signal
 * asks us to stop.
 */
static enum run_status wait_end(pid_t pid, const sigset_t *set,
				uint64_t deadline, int *signo)
{
	for (;;) {
		siginfo_t si = { 0 };
		struct timespec ts, *tsp = NULL;
		int sig;

		if (waitid(P_PID, (id_t)pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			return RUN_OK;
		if (deadline) {
			uint64_t now = now_ns();

			if (now >= deadline)
				return RUN_TIMEOUT;
			ts.tv_sec = (time_t)((deadline - now) / 1000000000ull);
			ts.tv_nsec = (long)((deadline - now) % 1000000000ull);
			tsp = &ts;
		}
		sig = sigtimedwait(set, NULL, tsp);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*signo = sig;
			return RUN_INTERRUPTED;
		}
		/* SIGCHLD (ours or an adopted orphan's), EAGAIN, EINTR: look again */
	}
}

int supervise_run(const struct workload *wl, const void *cfg,
		  unsigned timeout_s, struct run_outcome *out)
{
	struct wl_ctx *ctx;
	struct rusage ru;
	sigset_t set;
	uint64_t t0, deadline = 0;
	pid_t parent = getpid(), pid;
	int status = 0, signo = 0;
	enum run_status st;

	memset(out, 0, sizeof(*out));
	ctx = mmap(NULL, sizeof(*ctx), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx == MAP_FAILED)
		return error_errno("mmap of the shared result area");

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		warning("cannot become a child subreaper: %s", strerror(errno));

	fflush(NULL);		/* or forked children may repeat buffered output */
	t0 = now_ns();
	if (timeout_s)
		deadline = t0 + (uint64_t)timeout_s * 1000000000ull;
	pid = fork();
	if (pid < 0) {
		error_errno("fork of the workload process");
		munmap(ctx, sizeof(*ctx));
		return -1;
	}
	if (pid == 0)
		workload_process(wl, cfg, ctx, parent);
	setpgid(pid, pid);	/* both sides, so no race decides */

	st = wait_end(pid, &set, deadline, &signo);
	/* Kill the group while the leader's pid still holds the group id. */
	kill(-pid, SIGKILL);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	out->wall_s = (double)(now_ns() - t0) / 1e9;
	out->user_s = tv_s(&ru.ru_utime);
	out->sys_s = tv_s(&ru.ru_stime);
	/* Reap what the group left behind, adopted as a subreaper. */
	for (;;) {
		pid_t p = waitpid(-pid, NULL, 0);

		if (p > 0)
			out->killed++;
		else if (errno != EINTR)
			break;
	}

	out->result = ctx->result;
	out->maxrss_kib = ctx->maxrss_kib;
	if (st == RUN_INTERRUPTED) {
		snprintf(out->reason, sizeof(out->reason),
			 "interrupted by SIG%s", sigabbrev_np(signo));
	} else if (st == RUN_TIMEOUT) {
		snprintf(out->reason, sizeof(out->reason),
			 "timed out after %u s", timeout_s);
	} else if (atomic_load(&ctx->failed)) {
		st = RUN_FAILED;
		snprintf(out->reason, sizeof(out->reason), "%s", ctx->reason);
	} else if (WIFSIGNALED(status)) {
		st = RUN_FAILED;
		snprintf(out->reason, sizeof(out->reason),
			 "workload process killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WEXITSTATUS(status)) {
		st = RUN_FAILED;
		snprintf(out->reason, sizeof(out->reason),
			 "workload process exited with status %d",
			 WEXITSTATUS(status));
	}
	out->status = st;
	munmap(ctx, sizeof(*ctx));
	return 0;
}
