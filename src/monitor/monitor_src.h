/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * monitor_src.h: what the monitors' sources (monitor_src.c,
 * monitor_sched.c) share, defined in monitor_util.c - the reasons a
 * source is unavailable, a counter's mon_rate, a "KEY N" line. Not for use outside monitor/.
 */
#ifndef SCHEDLAB_MONITOR_SRC_H
#define SCHEDLAB_MONITOR_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor/monitor.h"

/* why = "PATH: strerror[; hint]" for a file that cannot be read; -1. */
int mon_unreadable(const char *path, const char *hint, char *why, size_t len);
/* why = "PATH: unexpected contents"; -1. */
int mon_unparsed(const char *path, char *why, size_t len);
/* "KEY N" at a line's start in buf: 0 with *v, or -1. */
int mon_line_u64(const char *buf, const char *key, uint64_t *v);
/* (b - a) / dt, NAN when dt is not positive or the counter went back. */
double mon_rate(uint64_t a, uint64_t b, double dt);
/* part as a percentage of total, NAN when total is 0. */
double mon_pct(uint64_t part, uint64_t total);
/*
 * A column "cpuN.NAME" for each CPU N below nr_cpus that have[] marks:
 * their CPUs into *cpu (free() it), their count returned.
 */
int mon_cpu_cols(struct monitor_set *s, int nr_cpus, const bool *have,
		 int **cpu, const char *unit, const char *help,
		 const char *name);
/* A monitor's close when its state is one allocation. */
void mon_free(void *state);

#endif
