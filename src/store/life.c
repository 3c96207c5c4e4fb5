// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/life.c: whether a run's writer is still alive (life.h). A
 * process killed outright (SIGKILL, a crash, a power cut) never ends
 * its run. Its writer is known gone when, on this boot, no process has
 * that pid and start time, or when the run's host is this machine and
 * it has rebooted since. A run of another host is left as it is: this
 * machine cannot tell (there is no lease).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/life.h"

/* Field 22 of /proc/PID/stat: the start, in clock ticks after boot; 0: unknown. */
static int64_t pid_start(int64_t pid)
{
	char path[64], buf[1024], *p;
	long long start = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u"
			 " %*u %*u %*d %*d %*d %*d %*d %*d %lld", &start) != 1)
		return 0;
	return start;
}

void store_writer_self(struct store_writer *w)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	w->pid = (int64_t)getpid();
	w->start = pid_start(w->pid);
	if (!f || !fgets(w->boot, sizeof(w->boot), f))
		*w->boot = '\0';
	w->boot[strcspn(w->boot, "\n")] = '\0';
	if (f)
		fclose(f);
}

bool store_writer_gone(const char *host, const struct store_writer *w)
{
	struct store_writer me;
	char name[256] = "";
	int64_t start;

	if (w->pid <= 0 || !*w->boot)
		return false;		/* imported, or stored before schema 4 */
	store_writer_self(&me);
	if (!*me.boot)
		return false;
	if (strcmp(w->boot, me.boot)) {
		gethostname(name, sizeof(name) - 1);
		return host && !strcmp(host, name);	/* rebooted since */
	}
	if (w->pid == me.pid)
		return false;
	if (kill((pid_t)w->pid, 0) && errno == ESRCH)
		return true;
	/* alive: the writer, unless its pid was reused since */
	start = pid_start(w->pid);
	return start && w->start && start != w->start;
}

const char *store_status_shown(const char *status, const char *host,
			       const struct store_writer *w)
{
	if (status && !strcmp(status, "running") && store_writer_gone(host, w))
		return "abandoned";
	return status;
}
