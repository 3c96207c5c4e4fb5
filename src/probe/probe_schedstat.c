// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/schedstat deltas (versions 15, 16 and 17), when the kernel has
 * CONFIG_SCHEDSTATS: wakeups and how many were local, run delay of every
 * task, and per domain remote wakeups, wake-affine pulls and
 * load-balance attempts.
 */

#include "probe/procfs.h"
#include "probe/source.h"

static int parse_schedstat(const char *buf, size_t len, void *snap)
{
	return procfs_parse_schedstat(buf, len, snap);
}

static void release_schedstat(void *snap)
{
	schedstat_free(snap);
}

static const struct probe_snap_kind schedstat_file = {
	.path = "/proc/schedstat", .size = sizeof(struct schedstat),
	.parse = parse_schedstat, .release = release_schedstat,
	.hint = "kernel without CONFIG_SCHEDSTATS",
};

static void end(void *st, double *out)
{
	const struct probe_snap *s = st;
	struct schedstat s1;
	uint64_t v[6][2] = { { 0 } };	/* ttwu, local, delay, remote, affine, lb */
	uint64_t lbf[2] = { 0 };

	if (!s->have || !probe_snap_read(&schedstat_file, &s1))
		return;
	for (int k = 0; k < 2; k++) {
		const struct schedstat *x = k ? &s1 : s->s0;

		for (int c = 0; c < x->nr_cpus; c++) {
			v[0][k] += x->cpus[c].ttwu_count;
			v[1][k] += x->cpus[c].ttwu_local;
			v[2][k] += x->cpus[c].run_delay_ns;
		}
		for (int d = 0; d < x->nr_domains; d++) {
			const struct schedstat_domain *dm = &x->domains[d];

			v[3][k] += dm->ttwu_wake_remote;
			v[4][k] += dm->ttwu_move_affine;
			for (int i = 0; i < LB_NR_IDLE; i++) {
				v[5][k] += dm->lb_count[i];
				lbf[k] += dm->lb_failed[i];
			}
		}
	}
	out[PM_SS_TTWU] = (double)(v[0][1] - v[0][0]);
	if (v[0][1] > v[0][0])
		out[PM_SS_TTWU_LOCAL_PCT] = 100.0 * (double)(v[1][1] - v[1][0]) /
					    (double)(v[0][1] - v[0][0]);
	out[PM_SS_RUN_DELAY_S] = (double)(v[2][1] - v[2][0]) / 1e9;
	out[PM_SS_WAKE_REMOTE] = (double)(v[3][1] - v[3][0]);
	out[PM_SS_MOVE_AFFINE] = (double)(v[4][1] - v[4][0]);
	out[PM_SS_LB_COUNT] = (double)(v[5][1] - v[5][0]);
	out[PM_SS_LB_FAILED] = (double)(lbf[1] - lbf[0]);
	schedstat_free(&s1);
}

const struct probe_source probe_proc_schedstat = {
	.name = "proc_schedstat", .snap = &schedstat_file, .end = end,
};
