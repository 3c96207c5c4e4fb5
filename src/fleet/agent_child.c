// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent_child.c: a claimed job's child `schedlab run` (fleet/agent.h): the
 * job file written into a directory of its own, the run spawned in a
 * process group of its own, and watched - its lease renewed every third
 * of it, the run stopped when the job is no longer ours or the agent is
 * told to stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fleet/agent.h"
#include "store/store.h"
#include "util.h"

/* The job file's name in the temporary directory: NAME.job */
void agent_job_file_name(const char *name, char *buf, size_t len)
{
	const char *base = strrchr(name, '/');
	size_t n;

	base = base ? base + 1 : name;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".job"))
		snprintf(buf, len, "%.100s", base);
	else
		snprintf(buf, len, "%.100s.job", base);
	for (char *c = buf; *c; c++)
		if (*c == '/' || (unsigned char)*c < ' ')
			*c = '_';
}

int agent_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	size_t len = strlen(text), off = 0;

	if (fd < 0)
		return error_errno("agent: cannot write '%s'", path);
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			close(fd);
			return error_errno("agent: cannot write '%s'", path);
		}
		off += (size_t)w;
	}
	return close(fd) ? error_errno("agent: cannot write '%s'", path) : 0;
}

/* The child: `schedlab run FILE ...` in a process group of its own. */
pid_t agent_spawn_run(const struct agent *a, const struct queue_claim *c,
		      const char *file, const char *uuid)
{
	const char **argv = xcalloc(16 + 2 * c->nsets, sizeof(*argv));
	size_t k = 0;
	pid_t parent = getpid(), pid;

	argv[k++] = "schedlab";
	argv[k++] = "run";
	argv[k++] = file;
	argv[k++] = "--db";
	argv[k++] = a->local;
	argv[k++] = "--uuid";
	argv[k++] = uuid;
	argv[k++] = "--host";
	argv[k++] = a->me.host;
	if (c->label) {
		argv[k++] = "--label";
		argv[k++] = c->label;
	}
	for (size_t i = 0; i < c->nsets; i++) {
		argv[k++] = "--set";
		argv[k++] = c->sets[i];
	}
	if (c->iterations) {
		argv[k++] = "--iterations";
		argv[k++] = c->iterations;
	}
	argv[k++] = "-q";
	argv[k] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_errno("agent: cannot fork");
		free(argv);
		return -1;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/* the run ends with the agent, even one killed with -9 */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(EXIT_INTERRUPTED);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			close(null);
		}
		execv("/proc/self/exe", (char *const *)argv);
		fprintf(stderr, "schedlab: agent: cannot run /proc/self/exe: %s\n",
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	free(argv);
	return pid;
}

/*
 * Waits for the run, renewing the lease every third of it; stops it
 * (SIGTERM to its group, SIGKILL 10 s later) when the job is no longer
 * ours or the agent is told to stop. *status: its exit status.
 */
enum stop_why agent_watch(struct agent *a, const struct queue_claim *c,
			  pid_t pid, int *status)
{
	double every = a->me.lease_s / 3.0, next = agent_now() + every, killed = 0;
	enum stop_why why = RUN_ENDED;
	char lost[160];
	int ws;

	for (;;) {
		pid_t r = waitpid(pid, &ws, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			error_errno("agent: cannot wait for the run");
			ws = 0xff00;
			break;
		}
		if (agent_stop && !killed) {
			agent_say(a, "job %" PRId64 ": stopping its run (signal %d)",
				  c->id, (int)agent_stop);
			why = RUN_STOPPED;
			kill(-pid, SIGTERM);
			killed = agent_now();
		}
		if (!killed && agent_now() >= next) {
			next = agent_now() + every;
			if (agent_connect(a)) {
				agent_say(a, "job %" PRId64 ": cannot renew its lease (the queue is unreachable); the run goes on",
					  c->id);
			} else {
				int hb = queue_heartbeat(a->q, c->id, c->attempt,
							 a->me.lease_s, lost,
							 sizeof(lost));

				if (hb == 1) {
					agent_say(a, "job %" PRId64 ": no longer ours: %s; stopping its run",
						  c->id, lost);
					why = RUN_LOST;
					kill(-pid, SIGTERM);
					killed = agent_now();
				} else if (hb < 0) {
					agent_say(a, "job %" PRId64 ": cannot renew its lease; the run goes on",
						  c->id);
				} else {
					queue_agent_seen(a->q, a->me.name, c->id);
				}
			}
		}
		if (killed && agent_now() - killed > 10)
			kill(-pid, SIGKILL);
		agent_nap(0.05);
		if (agent_stop && killed)
			usleep(50000);	/* agent_nap returns at once once stopping */
	}
	/* what the run left in its group (it reaps its own) */
	kill(-pid, SIGKILL);
	if (WIFEXITED(ws))
		*status = WEXITSTATUS(ws);
	else
		*status = 128 + WTERMSIG(ws);
	return why;
}

