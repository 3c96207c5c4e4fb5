// SPDX-License-Identifier: GPL-2.0-only
/*
 * store/sqlite_life.c: whether a run's writer is still alive. A run is
 * stored "running" with its writer's pid and the boot id of its machine
 * (/proc/sys/kernel/random/boot_id); a process killed outright (SIGKILL,
 * a crash, a power cut) never ends it. Readers show such a run as
 * "abandoned" when its writer is known gone - same host and boot with no
 * schedlab of that pid, or the same host since rebooted - and the next
 * writer marks it so, with the time it noticed as its end. A run of
 * another host is left as it is: this machine cannot tell (no lease).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/sqlite.h"
#include "util.h"

void store_writer_self(int64_t *pid, char *boot, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	*pid = (int64_t)getpid();
	if (!f || !fgets(boot, (int)len, f))
		*boot = '\0';
	boot[strcspn(boot, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Whether the process pid of this machine's boot is no schedlab. */
static bool pid_gone(int64_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || (kill((pid_t)pid, 0) && errno == ESRCH))
		return true;
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;	/* no /proc: kill() said it lives */
	if (!fgets(comm, sizeof(comm), f))
		*comm = '\0';
	fclose(f);
	/* the pid reused by another program */
	return strncmp(comm, "schedlab", 8) != 0;
}

bool store_writer_gone(const char *host, int64_t pid, const char *boot)
{
	char me[256] = "", my_boot[64];
	int64_t my_pid;

	if (pid <= 0 || !boot || !*boot)
		return false;		/* imported, or stored before schema 4 */
	store_writer_self(&my_pid, my_boot, sizeof(my_boot));
	if (!*my_boot)
		return false;
	if (!strcmp(boot, my_boot))
		return pid != my_pid && pid_gone(pid);
	gethostname(me, sizeof(me) - 1);
	return host && !strcmp(host, me);	/* this host, rebooted since */
}

const char *store_status_shown(const char *status, const char *host,
			       int64_t pid, const char *boot)
{
	if (status && !strcmp(status, "running") &&
	    store_writer_gone(host, pid, boot))
		return "abandoned";
	return status;
}

int store_mark_abandoned(struct store *s)
{
	sqlite3_stmt *sel = NULL, *upd = NULL;
	struct timespec ts;
	int rc = -1, step;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (db_prepare(s, "SELECT id, host, pid, boot_id FROM runs"
		       " WHERE status = 'running' AND pid IS NOT NULL", &sel) ||
	    db_prepare(s, "UPDATE runs SET status = 'abandoned', ended = ?"
		       " WHERE id = ? AND status = 'running'", &upd))
		goto out;
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(sel, 1);
		const char *boot = (const char *)sqlite3_column_text(sel, 3);

		if (!store_writer_gone(host, sqlite3_column_int64(sel, 2), boot))
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
