// SPDX-License-Identifier: GPL-2.0-only
/*
 * task_apply: task_settings_check() tries the task settings in a child
 * and leaves the caller as it was: what the kernel grants passes, what
 * it refuses comes back as the message the workload process would give
 * (naming the setting and the errno) - a negative nice and a real-time
 * policy for an unprivileged user (a child that drops to nobody), and
 * uclamp on a kernel without it.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/settings.h"

static struct task_settings parsed(const char *key, const char *value)
{
	struct setting s = { (char *)key, (char *)value };
	struct task_settings ts;
	char err[256];

	assert_int_equal(setting_check(key, value, err, sizeof(err)), 0);
	task_settings_from(&s, 1, &ts);
	return ts;
}

/* What the kernel grants passes; the caller keeps its nice and policy. */
static void test_check_leaves_caller(void **state)
{
	struct task_settings ts = parsed("nice", "7");
	int nice, policy = sched_getscheduler(0);
	char err[512] = "";

	(void)state;
	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	assert_int_equal(task_settings_check(&ts, err, sizeof(err)), 0);
	assert_int_equal(getpriority(PRIO_PROCESS, 0), nice);
	task_settings_free(&ts);
	ts = parsed("policy", "batch");
	assert_int_equal(task_settings_check(&ts, err, sizeof(err)), 0);
	assert_int_equal(sched_getscheduler(0), policy);
	task_settings_free(&ts);
	ts = parsed("env.SCHEDLAB_TRIAL", "1");
	assert_int_equal(task_settings_check(&ts, err, sizeof(err)), 0);
	assert_null(getenv("SCHEDLAB_TRIAL"));
	task_settings_free(&ts);
}

/*
 * The check as user nobody, in a child: its result (0/1) and message.
 * Skips when not root (there is nothing to drop).
 */
static int check_as_nobody(const char *key, const char *value, char *msg,
			   size_t len)
{
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	if (geteuid())
		skip();
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct task_settings ts = parsed(key, value);
		char err[512] = "";
		int rc;

		close(fd[0]);
		if (setgid(65534) || setuid(65534))
			_exit(3);
		rc = task_settings_check(&ts, err, sizeof(err));
		if (write(fd[1], err, strlen(err)) < 0)
			_exit(3);
		_exit(rc ? 1 : 0);
	}
	close(fd[1]);
	n = read(fd[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) < 3);
	return WEXITSTATUS(status);
}

static void test_check_refuses_unprivileged(void **state)
{
	struct rlimit rl;
	char msg[512], up[8], down[8], want[64];
	int cur;

	(void)state;
	/* a raised RLIMIT_RTPRIO or RLIMIT_NICE would grant them */
	if (!getrlimit(RLIMIT_RTPRIO, &rl) && rl.rlim_cur)
		skip();
	if (!getrlimit(RLIMIT_NICE, &rl) && rl.rlim_cur > 20)
		skip();
	assert_int_equal(check_as_nobody("policy", "fifo:10", msg, sizeof(msg)), 1);
	assert_string_equal(msg, "policy=fifo:10: cannot set: Operation not permitted (a real-time policy needs root, CAP_SYS_NICE or RLIMIT_RTPRIO)");
	/* lowering nice is root's: below where the test already runs
	 * (under `nice -n -5`, -5 would be no change) */
	errno = 0;
	cur = getpriority(PRIO_PROCESS, 0);
	assert_int_equal(errno, 0);
	if (cur <= -20)
		skip();
	snprintf(down, sizeof(down), "%d", cur > 0 ? -5 : cur > -15 ? cur - 5 : -20);
	snprintf(want, sizeof(want), "nice=%s: cannot set: Permission denied", down);
	assert_int_equal(check_as_nobody("nice", down, msg, sizeof(msg)), 1);
	assert_string_equal(msg, want);
	/* raising nice is anyone's (above where the test already runs:
	 * under `nice`, 5 would be a lowering) */
	snprintf(up, sizeof(up), "%d", cur < 5 ? 5 : cur < 19 ? cur + 1 : 19);
	assert_int_equal(check_as_nobody("nice", up, msg, sizeof(msg)), 0);
}

/* uclamp: granted where the kernel has it, else refused saying so. */
static void test_check_uclamp(void **state)
{
	struct task_settings ts = parsed("uclamp_min", "512");
	char err[512] = "";

	(void)state;
	if (!task_settings_check(&ts, err, sizeof(err))) {
		task_settings_free(&ts);
		return;	/* CONFIG_UCLAMP_TASK */
	}
	assert_string_equal(err, "uclamp_min=512: this kernel has no utilization clamping (sched_setattr: Operation not supported)");
	task_settings_free(&ts);
}

/* Nothing to try: no child. */
static void test_check_nothing(void **state)
{
	struct task_settings ts = TASK_SETTINGS_NONE;
	char err[64] = "";

	(void)state;
	assert_int_equal(task_settings_check(&ts, err, sizeof(err)), 0);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_leaves_caller),
		cmocka_unit_test(test_check_refuses_unprivileged),
		cmocka_unit_test(test_check_uclamp),
		cmocka_unit_test(test_check_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
