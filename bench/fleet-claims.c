// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/fleet-claims.c - how many jobs a fleet's agents claim a second
 * from one PostgreSQL (store/queue.h); a figure for doc/benchmarks.md
 * and doc/fleet.md, no pass or fail. bench/fleet-claims.sh starts a
 * throwaway server and runs it:
 *
 *   build/bench/fleet-claims URL [JOBS [AGENTS [REPEATS]]]
 *
 * Each repeat queues JOBS empty jobs (default 20,000), then AGENTS
 * processes (default 8), each with its own connection as an agent has,
 * claim and finish them (finish with no run) as fast as they can until
 * the queue is empty. Printed: claims a second of each repeat (all jobs
 * over the wall time from the go signal to the last process's exit),
 * and the median of REPEATS (default 5). Target: >= 500 claims/s with
 * 8 agents.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/pg.h"
#include "store/queue.h"
#include "store/store.h"
#include "util.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One agent: claim and finish until nothing is left; 0 or -1. */
static int agent(const char *url, int k, int go)
{
	struct queue_agent me = { .host = "bench", .kernel = "bench",
				  .lease_s = 600 };
	struct queue_claim c;
	struct store *s;
	char name[32], why[160], b;
	int rc;

	snprintf(name, sizeof(name), "bench%d", k);
	me.name = name;
	s = queue_open(url, "fleet-claims", true);
	if (!s || queue_agent_register(s, &me))
		return -1;
	if (read(go, &b, 1) != 0)	/* the parent closes it: go */
		return -1;
	while ((rc = queue_claim(s, &me, &c)) == 1) {
		if (queue_finish(s, c.id, c.attempt, 0, NULL, NULL, NULL, why,
				 sizeof(why)) < 0)
			return -1;
		queue_claim_free(&c);
	}
	store_close(s);
	return rc < 0 ? -1 : 0;
}

static double one_repeat(const char *url, unsigned jobs, int agents)
{
	struct store *s = queue_open(url, "fleet-claims", true);
	struct queue_job j = { .name = "empty", .jobfile = "", .queued_by = "bench" };
	int64_t *ids = xcalloc(jobs, sizeof(*ids));
	int fds[2], ws, failed = 0;
	pid_t *pids = xcalloc((size_t)agents, sizeof(*pids));
	uint64_t t0, t1;

	if (!s || pg_exec(pg_of(s), "TRUNCATE jobs", "cannot empty the queue") ||
	    queue_add(s, &j, jobs, ids) ||
	    pg_exec(pg_of(s), "VACUUM ANALYZE jobs", "cannot vacuum"))
		exit(1);
	store_close(s);
	free(ids);
	if (pipe(fds))
		exit(1);
	for (int k = 0; k < agents; k++) {
		pids[k] = fork();
		if (!pids[k]) {
			close(fds[1]);
			_exit(agent(url, k, fds[0]) < 0 ? 255 : 0);
		}
	}
	close(fds[0]);
	sleep(1);		/* every agent connected and registered */
	t0 = now_ns();
	close(fds[1]);
	for (int k = 0; k < agents; k++) {
		waitpid(pids[k], &ws, 0);
		failed |= !WIFEXITED(ws) || WEXITSTATUS(ws);
	}
	t1 = now_ns();
	free(pids);
	if (failed) {
		fprintf(stderr, "fleet-claims: an agent failed\n");
		exit(1);
	}
	return jobs / ((double)(t1 - t0) / 1e9);
}

int main(int argc, char **argv)
{
	unsigned jobs = argc > 2 ? (unsigned)atoi(argv[2]) : 20000;
	int agents = argc > 3 ? atoi(argv[3]) : 8;
	int repeats = argc > 4 ? atoi(argv[4]) : 5;
	double r[64];

	if (argc < 2 || !jobs || agents < 1 || repeats < 1 || repeats > 64) {
		fprintf(stderr, "usage: fleet-claims URL [JOBS [AGENTS [REPEATS]]]\n");
		return 2;
	}
	for (int i = 0; i < repeats; i++) {
		r[i] = one_repeat(argv[1], jobs, agents);
		printf("repeat %d: %u jobs, %d agents: %.0f claims/s\n", i + 1,
		       jobs, agents, r[i]);
		fflush(stdout);
	}
	qsort(r, (size_t)repeats, sizeof(r[0]), cmp_d);
	printf("median of %d: %.0f claims/s (claim + finish, %d agents)\n",
	       repeats, repeats % 2 ? r[repeats / 2] :
	       (r[repeats / 2 - 1] + r[repeats / 2]) / 2, agents);
	return 0;
}
