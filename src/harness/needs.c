// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness/needs.c: whether a plan runs commands or changes the machine
 * (needs.h), from its cases' workloads and settings.
 */
#include <stdio.h>
#include <string.h>

#include "harness/needs.h"
#include "harness/plan.h"
#include "harness/settings.h"

/*
 * The workloads that run a program the job names (argv, shell) or
 * shell commands around a case (setup, before, cleanup).
 */
static bool runs_commands(const struct workload *wl)
{
	return !strcmp(wl->name, "command") || wl->case_cmds;
}

void plan_needs(const struct plan *p, struct plan_needs *n)
{
	memset(n, 0, sizeof(*n));
	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];

		if (runs_commands(c->wl) && !n->commands) {
			n->commands = true;
			snprintf(n->commands_why, sizeof(n->commands_why),
				 "workload %s in [%s]", c->wl->name, c->job);
		}
		for (size_t k = 0; k < c->nset; k++) {
			const char *key = c->set[k].key;
			enum setting_kind kind = setting_kind(key);
			bool cmd = kind == SETTING_ENV || kind == SETTING_SCX;
			bool knob = kind == SETTING_KNOB ||
				    kind == SETTING_CGROUP ||
				    kind == SETTING_SCX;

			if (cmd && !n->commands) {
				n->commands = true;
				snprintf(n->commands_why, sizeof(n->commands_why),
					 "setting %.60s in [%.60s]", key, c->job);
			}
			if (knob && !n->knobs) {
				n->knobs = true;
				snprintf(n->knobs_why, sizeof(n->knobs_why),
					 "setting %.60s in [%.60s]", key, c->job);
			}
		}
	}
}
