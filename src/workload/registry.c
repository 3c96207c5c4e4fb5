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
	&wl_fileio,
	&wl_fio,
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

const struct text_format *wl_format_find(const struct workload *wl,
					 const char *name)
{
	for (const struct text_format *tf = wl->formats; tf && tf->name; tf++)
		if (!name || !strcmp(tf->name, name))
			return tf;
	return NULL;
}

const struct text_format *text_format_find(const char *workload,
					   const char *name)
{
	const struct workload *wl = workload_find(workload);

	return wl ? wl_format_find(wl, name) : NULL;
}

size_t text_formats(const char *workload, const struct text_format **out,
		    size_t max)
{
	const struct workload *wl = workload_find(workload);
	size_t n = 0;

	for (const struct text_format *tf = wl ? wl->formats : NULL;
	     tf && tf->name && n < max; tf++)
		out[n++] = tf;
	return n;
}
