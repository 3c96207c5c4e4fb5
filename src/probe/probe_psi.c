// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/pressure/cpu: how long some task waited for a CPU ("some
 * total"), when the kernel has PSI.
 */
#include <stdlib.h>

#include "probe/procfs.h"
#include "probe/source.h"
#include "util.h"

struct psi_state {
	struct psi_cpu p0;
	bool have;
};

static bool read_psi(struct psi_cpu *p)
{
	char buf[512];
	ssize_t n = probe_slurp("/proc/pressure/cpu", buf, sizeof(buf));

	return n > 0 && !procfs_parse_psi_cpu(buf, (size_t)n, p);
}

static bool available(enum probe_level level, char *why, size_t len)
{
	struct psi_cpu p;

	(void)level;
	return probe_file_ok("/proc/pressure/cpu", read_psi(&p),
			     "kernel without CONFIG_PSI, or booted with psi=0",
			     why, len);
}

static void *open_psi(enum probe_level level)
{
	(void)level;
	return xcalloc(1, sizeof(struct psi_state));
}

static void begin(void *st)
{
	struct psi_state *s = st;

	s->have = read_psi(&s->p0);
}

static void end(void *st, double *out)
{
	const struct psi_state *s = st;
	struct psi_cpu p1;

	if (s->have && read_psi(&p1))
		out[PM_PSI_SOME_US] = (double)(p1.some_total_us - s->p0.some_total_us);
}

const struct probe_source probe_psi = {
	.name = "psi", .available = available, .open = open_psi,
	.begin = begin, .end = end, .close = free,
};
