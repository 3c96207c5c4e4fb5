/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * queue: the fleet's job queue, in a PostgreSQL store (the tables jobs
 * and agents of store/pg.c's schema; doc/fleet.md says what the states
 * mean). `schedlab queue` adds, lists, cancels and retries jobs;
 * `schedlab agent` registers, claims, heartbeats, finishes and
 * releases them. One connection per process: the store's own.
 *
 * A job is claimed by one statement (SELECT ... FOR UPDATE SKIP LOCKED
 * inside an UPDATE), so agents claiming at once never take the same
 * job. A claim holds a lease that the agent renews; a running job whose
 * lease ran out is handed out again (the dead-agent path). Every claim
 * bumps the job's attempts, and that number is the claim's token: a
 * heartbeat, finish or release of an older attempt finds out that the
 * job is no longer its own. A job's result is recorded once: finish()
 * locks the job, and stores the run only when no attempt finished
 * before it, in the same transaction that marks the job done.
 *
 * Every function returns -1 after error() naming the database by its
 * redacted URL; a SQLite store is refused by queue_open(). The calls go
 * through the backend's queue ops (store_int.h, queue_ops.c);
 * PostgreSQL's are in pg_queue.c.
 */
#ifndef SCHEDLAB_QUEUE_H
#define SCHEDLAB_QUEUE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/*
 * The PostgreSQL store at url, for writing (the schema migrated) or, not
 * write, for reading (a missing or older schema refused); who names the
 * command in the message that refuses a SQLite path. NULL after error().
 */
struct store *queue_open(const char *url, const char *who, bool write);

/* Whether the store's connection still works (the server may be gone). */
bool queue_connected(struct store *s);

struct queue_job {
	const char *name;	/* SUITE or JOBFILE as given */
	const char *jobfile;	/* its text */
	const char *const *sets;	/* --set KEY=VALUE */
	size_t nsets;
	const char *iterations;	/* NULL: the file's */
	const char *label;	/* NULL: the agent's default */
	const char *hosts;	/* glob patterns, comma list; NULL: any */
	const char *const *tags;	/* the agent must have them all */
	size_t ntags;
	const char *kernel;	/* uname -r or build id; NULL: any */
	int priority;		/* higher first */
	bool needs_commands, needs_knobs;
	const char *queued_by;	/* user@host */
};

/*
 * repeat copies of j as jobs, in one transaction; their ids into
 * ids[0..repeat).
 */
int queue_add(struct store *s, const struct queue_job *j, unsigned repeat,
	      int64_t *ids);

/*
 * "a*,b?" as an array of LIKE patterns: * is %, ? is _, and %, _ and \
 * themselves escaped. Malloc'd PostgreSQL array literal (pg_queue.c).
 */
char *queue_hosts_like(const char *hosts);

/* An agent as it registers and claims. */
struct queue_agent {
	const char *name, *host;
	const char *const *tags;
	size_t ntags;
	const char *kernel;	/* uname -r */
	const char *build_id;	/* NULL: unknown */
	bool allow_commands, allow_knobs;
	long pid;
	unsigned lease_s;
};

/* The agent's row, created or brought up to date. */
int queue_agent_register(struct store *s, const struct queue_agent *a);
/* The agent's seen time and current job (0: none). */
int queue_agent_seen(struct store *s, const char *name, int64_t job);

/* A claimed job. */
struct queue_claim {
	int64_t id;
	int attempt;
	char *name, *jobfile;
	char **sets;
	size_t nsets;
	char *iterations, *label;	/* NULL when not given */
};

/*
 * The next job agent a may take, claimed: 1 with *c filled
 * (queue_claim_free()), 0 when there is none, -1 after error().
 */
int queue_claim(struct store *s, const struct queue_agent *a,
		struct queue_claim *c);
void queue_claim_free(struct queue_claim *c);

/*
 * Renews attempt's lease. 0: still ours. 1: no longer ours, why says
 * what happened ("cancelled", "finished by attempt 2", "claimed again
 * by a2 (attempt 3)"). -1 after error().
 */
int queue_heartbeat(struct store *s, int64_t id, int attempt,
		    unsigned lease_s, char *why, size_t len);

/*
 * Records the end of attempt, agent's, in one transaction: the run doc
 * (NULL: none) stored (idempotent by its uuid) and the job done
 * (exit_status 0) or failed, with reason (NULL: none), agent and
 * attempt as its result's (another attempt may have claimed the job
 * since: the first to finish is the result). 0: recorded. 1: another
 * attempt finished it first, or it was cancelled: nothing stored, why
 * says which ("attempt 1 (a2) finished it first (done)"). -1 after
 * error(): nothing stored.
 */
int queue_finish(struct store *s, int64_t id, int attempt, const char *agent,
		 int exit_status, const char *reason, json_t *doc,
		 const char *origin, char *why, size_t len);

/*
 * Gives attempt's job back to the queue (queued again, reason kept);
 * refuse: agent is added to its refused_by, so it never claims it
 * again. 0, also when the job was no longer ours (nothing changes).
 */
int queue_release(struct store *s, int64_t id, int attempt, const char *agent,
		  const char *reason, bool refuse);

/* A job as `queue list` shows it. */
struct queue_row {
	int64_t id;
	char *state, *name, *label, *hosts, *tags, *kernel, *agent;
	char *run_uuid, *reason;
	int priority, attempts;	/* attempts: claims so far */
	int result_attempt;	/* the finished job's run's attempt (agent
				 * ran it); 0: not finished */
	bool needs_commands, needs_knobs;
	int exit_status;	/* -1: none */
	double lease_left;	/* seconds, running jobs; NAN: none */
	double created, started, ended;	/* Unix time; NAN: none */
};

/* Jobs by id, all or those in state, into *rows (queue_rows_free()). */
int queue_list(struct store *s, const char *state, struct queue_row **rows,
	       size_t *n);
void queue_rows_free(struct queue_row *rows, size_t n);

/*
 * A job cancelled (queued or running: its agent stops it at its next
 * heartbeat) or retried (failed or cancelled: queued again, attempts
 * kept). 0, 1 when the job is not in a state that allows it (why says
 * which it is in, or that there is no such job), -1 after error().
 */
int queue_cancel(struct store *s, int64_t id, char *why, size_t len);
int queue_retry(struct store *s, int64_t id, char *why, size_t len);

#endif
