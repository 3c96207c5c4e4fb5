// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/children.c: what a campaign starts - a build, a hook, a
 * check, the job's run - runs in a process group of its own, recorded
 * in the command files' directory (campaign/local.c) as
 * running.PID (PID this process) while it is waited for. A process
 * killed with -9 takes only its direct child with it (PR_SET_PDEATHSIG):
 * a build's `make -j` would go on under PID 1 beside the next resume's
 * build of the same tree. So resume first ends what a dead resume left:
 * each record whose writer is gone names a group, which is signalled
 * only while it is the one recorded (this boot, its members started no
 * earlier than its leader was), and waited for until it is empty.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "util.h"

#define RECORD_PREFIX "running."

/* starttime (clock ticks after boot) and process group of pid: 0, or -1
 * when it is gone. */
static int proc_start(long pid, unsigned long long *start, long *pgrp)
{
	char name[24];

	snprintf(name, sizeof(name), "%ld", pid);
	return proc_stat_start(name, pgrp, start);
}

static void boot_id(char *id, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	if (!f || !fgets(id, (int)len, f))
		snprintf(id, len, "-");
	id[strcspn(id, "\n")] = '\0';
	if (f)
		fclose(f);
}

static int record_path(char *buf, size_t len, long pid)
{
	char dir[PATH_MAX];
	int n;

	if (campaign_cmd_dir(dir, sizeof(dir)))
		return -1;
	n = snprintf(buf, len, "%s/" RECORD_PREFIX "%ld", dir, pid);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int campaign_child_record(pid_t pgid)
{
	char path[PATH_MAX], id[64], line[256];
	unsigned long long mine, its;
	long pg;
	int fd, n, rc;

	if (proc_start(getpid(), &mine, &pg) || proc_start(pgid, &its, &pg))
		return error("campaign: cannot read /proc for the process group %ld it started",
			     (long)pgid);
	if (record_path(path, sizeof(path), getpid()))
		return -1;
	boot_id(id, sizeof(id));
	n = snprintf(line, sizeof(line), "%s %llu %ld %llu\n", id, mine, (long)pgid, its);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return error_errno("campaign: cannot record its child in %s", path);
	rc = write_all(fd, line, (size_t)n);
	close(fd);
	if (rc) {
		unlink(path);
		return error_errno("campaign: cannot record its child in %s", path);
	}
	return 0;
}

void campaign_child_forget(void)
{
	char path[PATH_MAX];

	if (!record_path(path, sizeof(path), getpid()))
		unlink(path);
}

/* The live members of group pgid started no earlier than its leader,
 * each sent sig; how many. */
static unsigned signal_group(long pgid, unsigned long long since, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		unsigned long long start;
		char *end;
		long pid = strtol(e->d_name, &end, 10), pg;

		if (*end || pid <= 0 || proc_start(pid, &start, &pg) ||
		    pg != pgid || start < since)
			continue;
		if (sig)
			kill((pid_t)pid, sig);
		n++;
	}
	closedir(d);
	return n;
}

/* Ends group pgid: SIGTERM, 10 s, then SIGKILL, waited for. */
static void end_group(long pgid, unsigned long long since)
{
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	unsigned n = signal_group(pgid, since, SIGTERM);

	if (!n)
		return;
	fprintf(stderr, "schedlab: campaign: ending %u processes that a killed campaign left running (process group %ld: its build, hook, check or run)\n",
		n, pgid);
	for (int i = 0; i < 200 && signal_group(pgid, since, 0); i++)
		nanosleep(&tick, NULL);
	signal_group(pgid, since, SIGKILL);
	for (int i = 0; i < 200 && signal_group(pgid, since, 0); i++)
		nanosleep(&tick, NULL);
}

void campaign_end_orphans(void)
{
	char dir[PATH_MAX], id[64];
	struct dirent *e;
	DIR *d;

	if (campaign_cmd_dir(dir, sizeof(dir)) || !(d = opendir(dir)))
		return;
	boot_id(id, sizeof(id));
	while ((e = readdir(d))) {
		char path[PATH_MAX + 300], rid[64], *end;
		unsigned long long owner_start, start, now;
		long owner, pgid, pg;
		FILE *f;
		int got;

		if (strncmp(e->d_name, RECORD_PREFIX, strlen(RECORD_PREFIX)))
			continue;
		owner = strtol(e->d_name + strlen(RECORD_PREFIX), &end, 10);
		if (*end || owner <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		got = fscanf(f, "%63s %llu %ld %llu", rid, &owner_start, &pgid, &start);
		fclose(f);
		/* its writer still running: its child is its own to end */
		if (got == 4 && !strcmp(rid, id) &&
		    !proc_start(owner, &now, &pg) && now == owner_start)
			continue;
		if (got == 4 && !strcmp(rid, id) && pgid > 1)
			end_group(pgid, start);
		unlink(path);
	}
	closedir(d);
}

/* ---- starting and waiting for them ------------------------------ */

void campaign_boot_env(const struct campaign *c, const char *db, size_t k)
{
	char num[24];

	setenv("SCHEDLAB_CAMPAIGN", c->name, 1);
	setenv("SCHEDLAB_STATE", c->states[c->boots[k].state].name, 1);
	snprintf(num, sizeof(num), "%u", c->boots[k].state);
	setenv("SCHEDLAB_STATE_INDEX", num, 1);
	snprintf(num, sizeof(num), "%zu", k + 1);
	setenv("SCHEDLAB_BOOT", num, 1);
	setenv("SCHEDLAB_DB", db, 1);
	if (c->bisect) {
		setenv("SCHEDLAB_COMMIT", c->states[c->boots[k].state].commit, 1);
		setenv("SCHEDLAB_REPO", c->bisect->repo, 1);
	}
}

int campaign_reap(pid_t pid)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -1;
	campaign_child_forget();
	return ws;
}

pid_t campaign_spawn(const char *path, char *const *argv, const char *dir,
		   bool quiet)
{
	pid_t parent = getpid(), pid;
	int gate[2];
	char go;

	fflush(NULL);
	if (pipe2(gate, O_CLOEXEC)) {
		error_errno("campaign: cannot make a pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		error_errno("campaign: cannot fork");
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		setpgid(0, 0);
		close(gate[1]);
		/* on until recorded; the parent gone: nothing to do */
		if (read(gate[0], &go, 1) != 1 || getppid() != parent)
			_exit(EXIT_INTERRUPTED);
		close(gate[0]);
		if (dir && chdir(dir)) {
			fprintf(stderr, "schedlab: campaign: cannot enter %s: %s\n",
				dir, strerror(errno));
			_exit(127);
		}
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			if (quiet)
				dup2(null, STDOUT_FILENO);
			close(null);
		}
		execv(path, argv);
		fprintf(stderr, "schedlab: campaign: cannot run %s: %s\n", path,
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides, so no race decides */
	close(gate[0]);
	if (campaign_child_record(pid) || write(gate[1], "", 1) != 1) {
		close(gate[1]);
		kill(-pid, SIGKILL);
		campaign_reap(pid);
		return -1;
	}
	close(gate[1]);
	return pid;
}

int campaign_run_cmd(const char *cmd, const char *dir, bool quiet)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	pid_t pid = campaign_spawn("/bin/sh", argv, dir, quiet);
	int ws;

	if (pid < 0 || (ws = campaign_reap(pid)) < 0)
		return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int campaign_shell(const struct campaign *c, const char *db, size_t k,
		   const char *cmd, bool quiet)
{
	campaign_boot_env(c, db, k);
	return campaign_run_cmd(cmd, NULL, quiet);
}
