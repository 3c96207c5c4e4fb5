// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/pressure/cpu: how long some task waited for a CPU ("some
 * total"), when the kernel has PSI.
 */
#include "probe/procfs.h"
#include "probe/source.h"

static int parse_psi(const char *buf, size_t len, void *snap)
{
	return procfs_parse_psi_cpu(buf, len, snap);
}

static const struct probe_snap_kind psi_file = {
	.path = "/proc/pressure/cpu", .size = sizeof(struct psi_cpu),
	.parse = parse_psi,
	.hint = "kernel without CONFIG_PSI, or booted with psi=0",
};

static void end(void *st, double *out)
{
	const struct probe_snap *s = st;
	const struct psi_cpu *p0 = s->s0;
	struct psi_cpu p1;

	if (s->have && probe_snap_read(&psi_file, &p1))
		out[PM_PSI_SOME_US] = (double)(p1.some_total_us -
					       p0->some_total_us);
}

const struct probe_source probe_psi = {
	.name = "psi", .snap = &psi_file, .end = end,
};
