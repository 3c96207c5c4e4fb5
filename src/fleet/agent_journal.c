// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent_journal.c: an agent's results never lost nor doubled
 * (fleet/agent.h): the run's uuid journaled before the run starts, one
 * small fsynced file per attempt in the agent's state directory, removed
 * only once the queue has the result; what an earlier agent left is
 * uploaded, or given back, when an agent starts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/agent.h"
#include "store/store.h"
#include "util.h"

/* ---- the journal: one file per attempt whose result is not recorded ---- */


static void pending_path(const struct agent *a, int64_t job, int attempt,
			 char *buf, size_t len)
{
	snprintf(buf, len, "%s/pending-%" PRId64 "-%d", a->dir, job, attempt);
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Written whole or not at all: a temporary file, fsynced, renamed. */
int agent_pending_write(const struct agent *a, const struct pending *p)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
	FILE *f;
	int fd;

	pending_path(a, p->job, p->attempt, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return error_errno("agent: cannot write '%s'", tmp);
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return error_errno("agent: cannot write '%s'", tmp);
	}
	fprintf(f, "job %" PRId64 "\nattempt %d\nuuid %s\n", p->job, p->attempt,
		p->uuid);
	if (p->exit_status >= 0)
		fprintf(f, "exit %d\n", p->exit_status);
	if (fflush(f) || fsync(fd) || fclose(f)) {
		unlink(tmp);
		return error_errno("agent: cannot write '%s'", tmp);
	}
	if (rename(tmp, path) || fsync_dir(a->dir)) {
		unlink(tmp);
		return error_errno("agent: cannot write '%s'", path);
	}
	return 0;
}

static int pending_read(const char *path, struct pending *p)
{
	FILE *f = fopen(path, "re");
	char line[128];
	long long job = -1;

	memset(p, 0, sizeof(*p));
	p->exit_status = -1;
	p->attempt = -1;
	if (!f)
		return error_errno("agent: cannot read '%s'", path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "job %lld", &job) == 1 ||
		    sscanf(line, "attempt %d", &p->attempt) == 1 ||
		    sscanf(line, "uuid %39s", p->uuid) == 1 ||
		    sscanf(line, "exit %d", &p->exit_status) == 1)
			continue;
	}
	fclose(f);
	p->job = job;
	if (job < 1 || p->attempt < 1 || !uuid_valid(p->uuid))
		return error("agent: '%s' is no pending job (damaged?)", path);
	return 0;
}

void agent_pending_remove(const struct agent *a, const struct pending *p)
{
	char path[PATH_MAX + 32];

	pending_path(a, p->job, p->attempt, path, sizeof(path));
	if (unlink(path) && errno != ENOENT)
		error_errno("agent: cannot remove '%s'", path);
	fsync_dir(a->dir);
}

/* ---- recording a result ---- */

static void reason_of(int status, char *buf, size_t len)
{
	if (status == 0)
		buf[0] = '\0';
	else if (status == EXIT_INTERRUPTED)
		snprintf(buf, len, "the run was interrupted");
	else if (status > 128)
		snprintf(buf, len, "the run was killed by signal %d", status - 128);
	else if (status == EXIT_USAGE)
		snprintf(buf, len, "the run refused the job (exit 2; see the agent's log)");
	else
		snprintf(buf, len, "the run failed (exit %d)", status);
}

/* Run uuid of the local database as an export document, or NULL. */
static json_t *local_run(const struct agent *a, const char *uuid)
{
	struct store *st;
	int64_t id;
	json_t *doc = NULL;

	if (store_missing(a->local))
		return NULL;
	st = store_open_ro(a->local);
	if (!st)
		return NULL;
	if (store_find_uuid(st, uuid, &id) == 1)
		doc = store_export(st, id);
	store_close(st);
	return doc;
}

/*
 * Records p's result in the queue, retrying (reconnecting) with backoff
 * from 1 s doubling to 60 s while the queue cannot take it. 0 recorded,
 * 1 not (another attempt's or cancelled), -1 stopped by a signal first
 * (p stays journaled). p's file is removed once the queue answered.
 */
int agent_record(struct agent *a, const struct pending *p)
{
	json_t *doc = local_run(a, p->uuid);
	char reason[160], why[160];
	int status = p->exit_status, rc;
	unsigned delay = 1;

	reason_of(status, reason, sizeof(reason));
	if (!doc && !status) {
		status = EXIT_RUN_FAILED;
		snprintf(reason, sizeof(reason), "no run %s in the local database", p->uuid);
	}
	for (;;) {
		if (!agent_connect(a)) {
			rc = queue_finish(a->q, p->job, p->attempt, a->me.name,
					  status,
					  *reason ? reason : NULL, doc, a->local,
					  why, sizeof(why));
			if (rc >= 0)
				break;
		}
		if (agent_stop) {
			json_decref(doc);
			agent_say(a, "job %" PRId64 ": stopped before its result was recorded; it is kept in %s and uploaded when the agent starts again",
				  p->job, a->dir);
			return -1;
		}
		agent_say(a, "job %" PRId64 ": cannot record its result yet; retrying in %us (kept in %s)",
			  p->job, delay, a->local);
		agent_nap(delay);
		delay = delay * 2 > 60 ? 60 : delay * 2;
	}
	json_decref(doc);
	agent_pending_remove(a, p);
	if (rc == 1)
		agent_say(a, "job %" PRId64 ": result not recorded: %s; run %s stays in %s",
			  p->job, why, p->uuid, a->local);
	else if (!status)
		agent_say(a, "job %" PRId64 ": done, run %s", p->job, p->uuid);
	else
		agent_say(a, "job %" PRId64 ": failed: %s%s%s", p->job, reason,
			  doc ? ", run " : "", doc ? p->uuid : "");
	if (!rc && a->q)
		queue_agent_seen(a->q, a->me.name, 0);
	return rc;
}

/*
 * What earlier agents of this name left: a result whose run ended is
 * recorded; an attempt that died with its agent is given back to the
 * queue (when it still holds it). 0, or -1 when stopped.
 */
int agent_recover(struct agent *a)
{
	DIR *d = opendir(a->dir);
	struct dirent *e;
	char path[PATH_MAX + 300];
	struct pending p;
	int rc = 0;

	if (!d)
		return error_errno("agent: cannot read '%s'", a->dir);
	while (!rc && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		snprintf(path, sizeof(path), "%s/%s", a->dir, e->d_name);
		/* a job's directory or a journal being written: the agent
		 * that made it was killed */
		if (!strncmp(e->d_name, "job-", 4)) {
			if (rm_tree(path))
				error_errno("agent: cannot remove '%s'", path);
			continue;
		}
		if (!strncmp(e->d_name, "pending-", 8) && n > 4 &&
		    !strcmp(e->d_name + n - 4, ".tmp")) {
			unlink(path);
			continue;
		}
		if (strncmp(e->d_name, "pending-", 8))
			continue;
		if (pending_read(path, &p))
			continue;
		if (p.exit_status >= 0) {
			agent_say(a, "job %" PRId64 ": uploading the result an earlier agent kept",
				  p.job);
			rc = agent_record(a, &p) < 0 ? -1 : 0;
			continue;
		}
		agent_say(a, "job %" PRId64 ": attempt %d ended with its agent; giving it back",
			  p.job, p.attempt);
		if (agent_connect(a))
			continue;
		if (!queue_release(a->q, p.job, p.attempt, a->me.name,
				   "its agent ended while running it", false))
			agent_pending_remove(a, &p);
	}
	closedir(d);
	return rc;
}

