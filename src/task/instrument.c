// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "task/instrument.h"
#include "task/wl_ctx.h"
#include "util.h"

/*
 * The running worker's slot, CPU track and baseline: one per thread or
 * process.
 */
static __thread struct task_probe *slot;
static __thread struct cpu_track track;
static __thread struct task_probe base;
/* Open from begin to end in a worker process; -1 in a thread. */
static __thread struct task_files files = { -1, -1 };

/* A look at the task's counters, through its files if they are open. */
static void look(struct task_probe *p)
{
	if (files.schedstat >= 0 || files.sched >= 0)
		task_probe_read(&files, p);
	else
		task_probe_collect(p);
}

void instrument_task_begin(struct task_probe *s, bool inline_worker,
			   bool own_fds)
{
	slot = s;
	cpu_track_init(&track);
	memset(&base, 0, sizeof(base));
	if (!slot)
		return;
	/*
	 * Before the clock starts: the timed region reads, never opens. A
	 * worker process has one thread: /proc/self, whose inodes cost its
	 * reaper less than thread-self's.
	 */
	if (own_fds)
		task_files_open(&files, true);
	if (inline_worker)
		look(&base);
}

void instrument_task_rebase(void)
{
	if (slot)
		look(&base);
}

void instrument_task_end(void)
{
	struct task_probe now = { 0 };

	if (!slot)
		return;
	look(&now);
	task_files_close(&files);
	now.cpu_moves = track.moves;
	now.cpu_moves_xllc = track.xllc;
	now.cpu_moves_xnode = track.xnode;
	now.run_ns -= base.run_ns;
	now.wait_ns -= base.wait_ns;
	now.slices -= base.slices;
	now.migrations -= base.migrations;
	now.vol -= base.vol;
	now.invol -= base.invol;
	*slot = now;
	slot = NULL;
}

bool wl_probing(const struct wl_ctx *ctx)
{
	return ctx->probes;
}

void wl_message(struct wl_ctx *ctx)
{
	cpu_track_note(&track, &ctx->topo, sched_getcpu());
}

void wl_latency(struct wl_ctx *ctx, uint64_t ns)
{
	int cpu = sched_getcpu();

	cpu_track_note(&track, &ctx->topo, cpu);
	if (cpu < 0 || cpu >= ctx->nlat)
		cpu = 0;
	hist_record_shared(&ctx->lat[cpu], ns);
}

void wl_latency_hist(struct wl_ctx *ctx, const struct hist *h)
{
	if (ctx->probes)
		hist_merge(&ctx->latency, h);
}

void instrument_setup(struct wl_ctx *ctx)
{
	for (int i = 0; i < PM_N; i++)
		ctx->probe[i] = NAN;
	if (!ctx->probes)
		return;
	/* before any worker exists, so that each inherits the counters */
	ctx->ps = probe_open(ctx->perf);
	hist_init(&ctx->latency);
	cpu_topo_load(&ctx->topo);
	ctx->nlat = ctx->topo.ncpu;
	ctx->lat = mmap(NULL, (size_t)ctx->nlat * sizeof(struct hist),
			PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->lat == MAP_FAILED) {
		ctx->lat = NULL;
		ctx->probes = false;	/* a probe never fails a run */
	}
}

void instrument_finish(struct wl_ctx *ctx)
{
	uint64_t t = now_ns();

	if (!ctx->probes)
		return;
	/* into the shared area: the harness stores it with the row */
	for (int c = 0; c < ctx->nlat; c++) {
		hist_shared_finish(&ctx->lat[c]);
		hist_merge(&ctx->latency, &ctx->lat[c]);
	}
	latency_fill(&ctx->latency, ctx->probe);
	probe_derive(ctx->probe, ctx->clock_s);
	ctx->probe_end_ns += now_ns() - t;
	ctx->probe[PM_PROBE_END_MS] = (double)ctx->probe_end_ns / 1e6;
}
