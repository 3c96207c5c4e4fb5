// SPDX-License-Identifier: GPL-2.0-only
/*
 * identity_settings: a case's run settings (identity.h's
 * identity_settings()), read from the plan's case - apart from
 * identity.c, which plan.c calls, so that identity.h needs no plan.h.
 */
#include <stdio.h>

#include "harness/identity.h"
#include "harness/plan.h"
#include "monitor/monitor.h"
#include "probe/probe.h"
#include "trace/trace.h"

json_t *identity_settings(const struct plan_case *c)
{
	json_t *s = json_object();

	if (c->cpus)
		json_object_set_new(s, "cpus", json_string(c->cpus));
	if (c->probes != PROBES_ON)
		json_object_set_new(s, "probes",
				    json_string(probe_level_names[c->probes]));
	if (c->monitors) {
		char list[256];

		/* a sampler beside the workload: noted when runs differ in it */
		monitor_list_format(c->monitors, list, sizeof(list));
		json_object_set_new(s, "monitors", json_string(list));
		if (c->monitor_ms != MONITOR_INTERVAL_DEF_MS) {
			char iv[32];

			snprintf(iv, sizeof(iv), "%ums", c->monitor_ms);
			json_object_set_new(s, "monitor_interval", json_string(iv));
		}
	}
	if (c->monitors && c->monitor_cpus)
		json_object_set_new(s, "monitor_cpus", json_string(c->monitor_cpus));
	if (c->trace) {
		/* a tracer beside the workload costs it: noted like monitors */
		json_object_set_new(s, "trace", json_string(c->trace));
		if (c->trace_scope == TRACE_CASE)
			json_object_set_new(s, "trace_scope", json_string("case"));
	}
	for (size_t i = 0; i < c->nset; i++)
		json_object_set_new(s, c->set[i].key,
				    json_string(c->set[i].value));
	return s;
}
