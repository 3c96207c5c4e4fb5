/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet/agent.h: the fleet's agent, a test machine's end of the queue
 * (store/queue.h, doc/fleet.md): its loop (agent_serve.c), a job's child
 * run (agent_child.c), the journal of attempts whose result is not
 * recorded yet and the recording (agent_journal.c), the helpers they
 * share (agent_util.c). cmd/agent.c sets struct agent up from its
 * options and calls agent_recover(), then agent_serve().
 */
#ifndef SCHEDLAB_FLEET_AGENT_H
#define SCHEDLAB_FLEET_AGENT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "store/queue.h"

struct agent {
	const char *url;	/* with its password, for connecting only */
	char *db_name;		/* redacted */
	struct store *q;	/* NULL while disconnected */
	struct queue_agent me;
	char **tags;
	size_t ntags;
	char kernel[65], build_id[130];
	char dir[PATH_MAX - 256];	/* the state directory: journal, local db */
	char local[PATH_MAX];
	unsigned poll;
};

struct pending {
	int64_t job;
	int attempt;
	char uuid[40];
	int exit_status;	/* -1: the run had not ended */
};

/* The stop signal's number, once SIGTERM or SIGINT came; else 0.
 * agent_catch_stop() sets it from then on. */
extern volatile sig_atomic_t agent_stop;
void agent_catch_stop(void);

/* "agent NAME: ..." on stderr. */
void agent_say(const struct agent *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The monotonic clock in seconds. */
double agent_now(void);
/* Sleeps secs, or less when a stop signal comes. */
void agent_nap(double secs);
/* The queue's connection, made again (and the agent registered) if lost. */
int agent_connect(struct agent *a);

/* p journaled, whole or not at all (fsynced). -1 after error(). */
int agent_pending_write(const struct agent *a, const struct pending *p);
/* p's journal removed. */
void agent_pending_remove(const struct agent *a, const struct pending *p);
/*
 * Records p's result in the queue, retrying (reconnecting) with backoff
 * from 1 s doubling to 60 s while the queue cannot take it. 0 recorded,
 * 1 not (another attempt's or cancelled), -1 stopped by a signal first
 * (p stays journaled). p's file is removed once the queue answered.
 */
int agent_record(struct agent *a, const struct pending *p);
/*
 * What earlier agents of this name left: a result whose run ended is
 * recorded; an attempt that died with its agent is given back to the
 * queue (when it still holds it). 0, or -1 when stopped.
 */
int agent_recover(struct agent *a);

/*
 * Claims jobs and takes them until a stop signal (or one job, once): an
 * exit code, or -1 when stopped by a signal.
 */
int agent_serve(struct agent *a, bool once);

/* ---- a job's child run (agent_child.c) ---- */

enum stop_why { RUN_ENDED, RUN_LOST, RUN_STOPPED };

/* The job file's name in the temporary directory: NAME.job */
void agent_job_file_name(const char *name, char *buf, size_t len);
/* text into a new file at path. -1 after error(). */
int agent_write_file(const char *path, const char *text);
/* The child: `schedlab run FILE ...` in a process group of its own. */
pid_t agent_spawn_run(const struct agent *a, const struct queue_claim *c,
		      const char *file, const char *uuid);
/*
 * Waits for the run, renewing the lease every third of it; stops it
 * (SIGTERM to its group, SIGKILL 10 s later) when the job is no longer
 * ours or the agent is told to stop. *status: its exit status.
 */
enum stop_why agent_watch(struct agent *a, const struct queue_claim *c,
			  pid_t pid, int *status);

#endif
