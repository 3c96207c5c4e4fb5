// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/child.c: the one way vm/ starts a program of its own - qemu,
 * virtiofsd, a kernel build's make - in a process group of its own that
 * dies with this process, its words in a file (vm_int.h).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm_int.h"

pid_t vm_fork_child(const char *errlog)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno("vm: cannot fork");
	if (!pid) {
		int null = open("/dev/null", O_RDWR);
		int err = open(errlog, O_WRONLY | O_CREAT | O_APPEND, 0600);

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		/* the program's words, quoted when it fails */
		if (err >= 0) {
			dup2(err, STDERR_FILENO);
			close(err);
		}
		return 0;
	}
	setpgid(pid, pid);
	return pid;
}
