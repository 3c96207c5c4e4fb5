// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_life.c: whether a run's writer is still alive. A run is
 * stored "running" with its writer's pid, that process's start time and
 * the boot id of its machine (/proc/sys/kernel/random/boot_id); a
 * process killed outright (SIGKILL, a crash, a power cut) never ends
 * it. Readers show such a run as "abandoned" when its writer is known
 * gone - on this boot no process with that pid and start time, or the
 * same host since rebooted - and the next writer marks it so, with the
 * time it noticed as its end. A run of another host is left as it is:
 * this machine cannot tell (there is no lease).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/sqlite.h"
#include "util.h"

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

void store_writer_col(sqlite3_stmt *st, int col, struct store_writer *w)
{
	const char *boot = (const char *)sqlite3_column_text(st, col + 2);

	w->pid = sqlite3_column_int64(st, col);
	w->start = sqlite3_column_int64(st, col + 1);
	snprintf(w->boot, sizeof(w->boot), "%s", boot ? boot : "");
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

int store_mark_abandoned(struct sqlite_store *s)
{
	sqlite3_stmt *sel = NULL, *upd = NULL;
	struct store_writer w;
	struct timespec ts;
	int rc = -1, step;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (db_prepare(s, "SELECT id, host, pid, pid_start, boot_id FROM runs"
		       " WHERE status = 'running' AND pid IS NOT NULL", &sel) ||
	    db_prepare(s, "UPDATE runs SET status = 'abandoned', ended = ?"
		       " WHERE id = ? AND status = 'running'", &upd))
		goto out;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		store_writer_col(sel, 2, &w);
		if (!store_writer_gone((const char *)sqlite3_column_text(sel, 1),
				       &w))
			continue;
		sqlite3_bind_double(upd, 1, (double)ts.tv_sec +
				    (double)ts.tv_nsec / 1e9);
		sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
		if (db_step_done(upd) != SQLITE_DONE) {
			db_error(s, "cannot mark abandoned runs");
			goto out;
		}
	}
	if (step != SQLITE_DONE)
		db_error(s, "cannot look for abandoned runs");
	else
		rc = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	return rc;
}
