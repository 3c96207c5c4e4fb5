/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpus: CPU sets as the kernel writes them ("0-3,8-11"), which CPUs are
 * online, how the online CPUs group (SMT siblings, last-level caches,
 * NUMA nodes, packages) and their cpufreq / cpuidle settings - the CPU
 * part of sysenv's environment object (sysenv.h has the item shape).
 */
#ifndef SCHEDLAB_CPUS_H
#define SCHEDLAB_CPUS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * CPU sets as the kernel writes them ("0-3,8-11"), as a fixed bitmap
 * sized for the kernel's largest NR_CPUS.
 */
#define CPUMASK_MAX_CPUS 8192
#define CPUMASK_LONG_BITS (8 * sizeof(unsigned long))

struct cpumask {
	unsigned long bits[CPUMASK_MAX_CPUS / CPUMASK_LONG_BITS];
};

static inline void cpumask_set(struct cpumask *m, int cpu)
{
	m->bits[cpu / CPUMASK_LONG_BITS] |= 1ul << (cpu % CPUMASK_LONG_BITS);
}

static inline bool cpumask_test(const struct cpumask *m, int cpu)
{
	return m->bits[cpu / CPUMASK_LONG_BITS] >> (cpu % CPUMASK_LONG_BITS) & 1;
}

/* The first CPU >= cpu in m, or -1. */
int cpumask_next(const struct cpumask *m, int cpu);
int cpumask_weight(const struct cpumask *m);

#define for_each_cpu(c, m) \
	for ((c) = cpumask_next((m), 0); (c) >= 0; (c) = cpumask_next((m), (c) + 1))

/*
 * Parses a cpulist ("0-3,8-11", "5", or "" for the empty set; leading
 * and trailing whitespace allowed) into m. Returns the number of CPUs, or
 * -1 for anything else (reversed ranges, CPUs >= CPUMASK_MAX_CPUS,
 * stray characters); says nothing.
 */
int cpulist_parse(const char *s, struct cpumask *m);

/*
 * Writes m as the kernel would ("0-3,8-11"; "" when empty). Returns the
 * length of the whole list, as snprintf does: >= len means truncated.
 */
int cpulist_format(const struct cpumask *m, char *buf, size_t len);

/* The CPUs of a JSON array of CPU numbers as a cpulist; caller frees. */
char *cpulist_of_json(const json_t *cpus);

/*
 * The online CPUs into m. Returns their count, or -1 with why filled
 * ("/sys/devices/system/cpu/online: No such file or directory").
 */
int cpus_online(struct cpumask *m, char *why, size_t wlen);

/*
 * Adds the "cpus", "topology", "cpufreq" and "cpuidle" groups to env;
 * online is NULL when cpus_online() failed, and why says why.
 */
void cpus_collect(json_t *env, const struct cpumask *online, int n,
		  const char *why);

#endif
