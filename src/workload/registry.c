// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "workload/registry.h"

const struct workload *const workloads[] = {
	&wl_messaging,
	&wl_pipe,
	&wl_command,
	&wl_dbench,
	&wl_tbench,
	&wl_pgbench,
	&wl_sysbench,
	&wl_wakeup,
	&wl_rr,
	&wl_compute,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

int wl_metric_index(const struct workload *wl, const char *name)
{
	for (int i = 0; wl->metrics[i].name; i++)
		if (!strcmp(wl->metrics[i].name, name))
			return i;
	return -1;
}
