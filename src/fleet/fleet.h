/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet: what a fleet's queue writer (cmd/queue.c) and its agents
 * (fleet/agent.h) share.
 */
#ifndef SCHEDLAB_FLEET_H
#define SCHEDLAB_FLEET_H

#include <stddef.h>

/*
 * A queued job's plan (queue add's check, and the agent's again): its
 * text, named where in messages, with its --set and --iterations as
 * `run` applies them; a file with variants refused. -1 after error().
 */
struct plan;
int fleet_job_plan(const char *who, const char *where, const char *text,
		    size_t len, const char *const *sets, size_t nsets,
		    const char *iterations, struct plan *p);

#endif
