// SPDX-License-Identifier: GPL-2.0-only
/*
 * task_apply: harness/settings.h's task settings taken by the workload
 * process before its workload starts - the case's cgroups joined, then
 * the environment, nice, the policy and the utilization clamps - so
 * that every task it starts (workers, a command's program) inherits
 * them: no SCHED_RESET_ON_FORK. task_settings_check() tries the same in
 * a child that then exits, so that what the machine refuses (fifo
 * without privilege, a kernel without uclamp) fails the plan before
 * anything runs rather than its first iteration.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/settings.h"
#include "util.h"
#include "workload/workload.h"

/*
 * sched_setattr(2)'s argument and flags, from the kernel's uapi
 * (linux/sched/types.h, linux/sched.h); glibc has no wrapper, and the
 * uapi headers clash with <sched.h>, so they are spelled out here.
 */
struct task_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define TASK_FLAG_KEEP_POLICY		0x08
#define TASK_FLAG_KEEP_PARAMS		0x10
#define TASK_FLAG_UTIL_CLAMP_MIN	0x20
#define TASK_FLAG_UTIL_CLAMP_MAX	0x40

/* Joins the cgroup whose cgroup.procs file is path: 0, or -1 and errno. */
static int join_cgroup(const char *path)
{
	char pid[24];
	int fd, n, rc = 0;

	n = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, pid, (size_t)n) != n)
		rc = -1;
	if (close(fd) && !rc)
		rc = -1;
	return rc;
}

/* The uclamp settings as written, "uclamp_min=512 uclamp_max=800". */
static void uclamp_words(const struct task_settings *ts, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (ts->uclamp_min >= 0)
		n = snprintf(buf, len, "uclamp_min=%d", ts->uclamp_min);
	if (ts->uclamp_max >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%suclamp_max=%d",
			 n ? " " : "", ts->uclamp_max);
}

static int set_uclamp(const struct task_settings *ts, char *err, size_t len)
{
	struct task_sched_attr a = {
		.size = sizeof(a),
		.sched_flags = TASK_FLAG_KEEP_POLICY | TASK_FLAG_KEEP_PARAMS,
	};
	char what[64];
	int e;

	if (ts->uclamp_min < 0 && ts->uclamp_max < 0)
		return 0;
	if (ts->uclamp_min >= 0) {
		a.sched_flags |= TASK_FLAG_UTIL_CLAMP_MIN;
		a.sched_util_min = (uint32_t)ts->uclamp_min;
	}
	if (ts->uclamp_max >= 0) {
		a.sched_flags |= TASK_FLAG_UTIL_CLAMP_MAX;
		a.sched_util_max = (uint32_t)ts->uclamp_max;
	}
	if (!syscall(SYS_sched_setattr, 0, &a, 0))
		return 0;
	e = errno;
	uclamp_words(ts, what, sizeof(what));
	if (e == EOPNOTSUPP || e == ENOSYS)
		snprintf(err, len, "%s: this kernel has no utilization clamping (sched_setattr: %s)",
			 what, strerror(e));
	else
		snprintf(err, len, "%s: cannot set: %s", what, strerror(e));
	return -1;
}

/*
 * Everything task_settings_apply() does, in the calling process: 0, or
 * -1 with err naming the setting and the error.
 */
static int apply(const struct task_settings *ts, char *err, size_t len)
{
	char name[32];

	for (size_t i = 0; i < ts->ncgroup_procs; i++)
		if (join_cgroup(ts->cgroup_procs[i])) {
			snprintf(err, len, "cannot join the cgroup %s: %s",
				 ts->cgroup_procs[i], strerror(errno));
			return -1;
		}
	for (size_t i = 0; i < ts->nenv; i++) {
		const char *e = ts->env[i], *eq = strchr(e, '=');
		char *var = strndup(e, eq ? (size_t)(eq - e) : strlen(e));

		if (!var || setenv(var, eq ? eq + 1 : "", 1)) {
			snprintf(err, len, "env.%s: cannot set: %s", e,
				 strerror(errno));
			free(var);
			return -1;
		}
		free(var);
	}
	if (ts->has_nice && setpriority(PRIO_PROCESS, 0, ts->nice)) {
		snprintf(err, len, "nice=%d: cannot set: %s", ts->nice,
			 strerror(errno));
		return -1;
	}
	if (ts->policy >= 0) {
		struct sched_param sp = { .sched_priority = ts->rtprio };

		if (sched_setscheduler(0, ts->policy, &sp)) {
			int e = errno;
			bool rt = ts->policy == SCHED_FIFO ||
				  ts->policy == SCHED_RR;

			task_policy_name(ts->policy, ts->rtprio, name,
					 sizeof(name));
			snprintf(err, len, "policy=%s: cannot set: %s%s", name,
				 strerror(e),
				 e == EPERM && rt && ts->ncgroup_procs ?
				 " (a cgroup v1 cpu group has no real-time runtime unless cgroup.cpu.rt_runtime_us gives it some)" :
				 e == EPERM && rt ?
				 " (a real-time policy needs root, CAP_SYS_NICE or RLIMIT_RTPRIO)" :
				 "");
			return -1;
		}
	}
	return set_uclamp(ts, err, len);
}

int task_settings_apply(const struct task_settings *ts, struct wl_ctx *ctx)
{
	char err[512];

	if (apply(ts, err, sizeof(err)))
		return wl_fail(ctx, "%s", err);
	return 0;
}

int task_settings_check(const struct task_settings *ts, char *err, size_t len)
{
	char msg[512];
	ssize_t n = 0, r;
	int fd[2], status;
	pid_t pid;

	if (!task_settings_any(ts))
		return 0;
	if (pipe2(fd, O_CLOEXEC)) {
		snprintf(err, len, "cannot try the task settings: pipe: %s",
			 strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "cannot try the task settings: fork: %s",
			 strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		int rc;

		close(fd[0]);
		signal(SIGPIPE, SIG_IGN);
		rc = apply(ts, msg, sizeof(msg));
		if (rc && write(fd[1], msg, strlen(msg)) < 0)
			_exit(2);
		_exit(rc ? 1 : 0);
	}
	close(fd[1]);
	while (n < (ssize_t)sizeof(msg) - 1 &&
	       ((r = read(fd[0], msg + n, sizeof(msg) - 1 - (size_t)n)) > 0 ||
		(r < 0 && errno == EINTR)))
		n += r > 0 ? r : 0;
	msg[n] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, len, "cannot try the task settings: waitpid: %s",
				 strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (n)
		snprintf(err, len, "%s", msg);
	else
		snprintf(err, len, "the task settings' trial ended with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) :
			 128 + WTERMSIG(status));
	return -1;
}
