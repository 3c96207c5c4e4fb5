// SPDX-License-Identifier: GPL-2.0-only
/*
 * getrusage of the workload process and of the workers it reaped:
 * voluntary and involuntary context switches. Always there.
 */
#include <stdlib.h>
#include <sys/resource.h>

#include "probe/source.h"
#include "util.h"

struct ru_state {
	struct rusage self, kids;
};

static bool available(enum probe_level level, char *why, size_t len)
{
	(void)level, (void)why, (void)len;
	return true;
}

static void *open_rusage(enum probe_level level)
{
	(void)level;
	return xcalloc(1, sizeof(struct ru_state));
}

static void begin(void *st)
{
	struct ru_state *r = st;

	getrusage(RUSAGE_SELF, &r->self);
	getrusage(RUSAGE_CHILDREN, &r->kids);
}

static void end(void *st, double *out)
{
	const struct ru_state *r = st;
	struct rusage self, kids;

	if (getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &kids))
		return;
	out[PM_RU_NVCSW] = (double)(self.ru_nvcsw - r->self.ru_nvcsw +
				    kids.ru_nvcsw - r->kids.ru_nvcsw);
	out[PM_RU_NIVCSW] = (double)(self.ru_nivcsw - r->self.ru_nivcsw +
				     kids.ru_nivcsw - r->kids.ru_nivcsw);
}

const struct probe_source probe_rusage = {
	.name = "rusage", .available = available, .open = open_rusage,
	.begin = begin, .end = end, .close = free,
};
