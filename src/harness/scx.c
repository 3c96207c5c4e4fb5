// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx: harness/scx.h - a sched_ext scheduler checked, started as a
 * child of its own (dying with schedlab), and stopped: SIGINT, then
 * SIGKILL after 5 s, sched_ext's state watched in sysfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/knob.h"
#include "harness/scx.h"
#include "util.h"

#define SCX_DIR		"/sys/kernel/sched_ext"
#define SCX_STATE	SCX_DIR "/state"

/* Whether file (a program's name) can be run, as execvp finds it. */
static bool runnable(const char *file)
{
	char *p = path_find(file);

	free(p);
	return p != NULL;
}

int scx_check(const char *who, const char *value, char ***argv)
{
	char state[64];

	if (access(SCX_DIR, F_OK))
		return error("%sscx: this kernel has no sched_ext (%s does not exist)",
			     who, SCX_DIR);
	if (geteuid())
		return error("%sscx: loading a sched_ext scheduler needs root (euid %u)",
			     who, (unsigned)geteuid());
	if (knob_read(SCX_STATE, state, sizeof(state)) < 0)
		return error("%sscx: %s cannot be read: %s", who, SCX_STATE,
			     strerror(errno));
	if (strcmp(state, "disabled"))
		return error("%sscx: sched_ext is %s already (%s): another scheduler is loaded",
			     who, state, SCX_STATE);
	*argv = split_blanks(value);
	if (!runnable((*argv)[0])) {
		error("%sscx: %s: no such program (in PATH)", who, (*argv)[0]);
		split_blanks_free(*argv);
		*argv = NULL;
		return -1;
	}
	return 0;
}

static int scx_signal(struct scx *s, int sig)
{
	if (s->fd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, s->fd, sig,
				    NULL, 0);
	return kill(s->pid, sig);
}

/*
 * Waits up to ms for the scheduler to end: 1 when it has (or was
 * reaped by someone else: supervise's reaper of what a case left).
 */
static int scx_gone(struct scx *s, unsigned ms, int *status)
{
	for (unsigned t = 0; ; t += 10) {
		pid_t r = waitpid(s->pid, status, WNOHANG);

		if (r == s->pid || (r < 0 && errno == ECHILD))
			return 1;
		if (t >= ms)
			return 0;
		usleep(10000);
	}
}

/* Waits up to ms for sched_ext's state to read want: 0, or -1. */
static int scx_wait_state(const char *want, unsigned ms, char *state,
			  size_t len, struct scx *s, int *exited)
{
	int status;

	for (unsigned t = 0; ; t += 10) {
		if (knob_read(SCX_STATE, state, len) < 0)
			snprintf(state, len, "unreadable");
		if (!strcmp(state, want))
			return 0;
		if (s && scx_gone(s, 0, &status)) {
			*exited = status;
			return -1;
		}
		if (t >= ms)
			return -1;
		usleep(10000);
	}
}

void scx_stop(struct scx *s)
{
	char state[64];
	int status;

	if (!s->pid)
		return;
	scx_signal(s, SIGINT);
	if (!scx_gone(s, 5000, &status)) {
		scx_signal(s, SIGKILL);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (s->fd >= 0)
		close(s->fd);
	s->pid = 0;
	s->fd = -1;
	if (scx_wait_state("disabled", 5000, state, sizeof(state), NULL, NULL))
		warning("scx: sched_ext is still %s 5 s after its scheduler ended",
			state);
}

int scx_start(struct scx *s, char **argv, char *err,
		     size_t len)
{
	pid_t parent = getpid(), pid;
	char state[64];
	int exited = -1;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "scx: fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		sigset_t none;
		int null = open("/dev/null", O_RDWR);

		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		setpgid(0, 0);	/* a terminal's ^C is schedlab's to pass on */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (null >= 0) {
			/* its statistics would mix with schedlab's output */
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "schedlab: scx: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	s->pid = pid;
	s->fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (!scx_wait_state("enabled", 10000, state, sizeof(state), s, &exited))
		return 0;
	if (exited >= 0) {
		s->pid = 0;
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		snprintf(err, len, "scx: %s exited (%s %d) before sched_ext was enabled",
			 argv[0], WIFSIGNALED(exited) ? "signal" : "status",
			 WIFSIGNALED(exited) ? WTERMSIG(exited) : WEXITSTATUS(exited));
		return -1;
	}
	scx_stop(s);
	snprintf(err, len, "scx: %s did not enable sched_ext in 10 s (state: %s)",
		 argv[0], state);
	return -1;
}
