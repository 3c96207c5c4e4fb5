// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpus: CPU sets and cpulists, which CPUs are online and allowed, how the
 * online CPUs group (SMT siblings, last-level caches, NUMA nodes,
 * packages) and their cpufreq / cpuidle settings, read from sysfs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/cpus.h"
#include "probe/env_item.h"
#include "util.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define LINE		4096

/* ---- CPU sets ------------------------------------------------------- */

int cpumask_next(const struct cpumask *m, int cpu)
{
	for (; cpu >= 0 && cpu < CPUMASK_MAX_CPUS; cpu++) {
		if (!m->bits[cpu / CPUMASK_LONG_BITS]) {
			cpu |= CPUMASK_LONG_BITS - 1;	/* skip the word */
			continue;
		}
		if (cpumask_test(m, cpu))
			return cpu;
	}
	return -1;
}

int cpumask_weight(const struct cpumask *m)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(m->bits); i++)
		n += __builtin_popcountl(m->bits[i]);
	return n;
}

/* A CPU number at *p, advancing past it; -1 if none or too large. */
static long parse_cpu(const char **p)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v >= CPUMASK_MAX_CPUS)
		return -1;
	*p = end;
	return v;
}

int cpulist_parse(const char *s, struct cpumask *m)
{
	const char *p = s;

	memset(m, 0, sizeof(*m));
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (;;) {
		long a = parse_cpu(&p), b = a;

		if (a < 0)
			return -1;
		if (*p == '-') {
			p++;
			b = parse_cpu(&p);
			if (b < a)
				return -1;
		}
		for (long c = a; c <= b; c++)
			cpumask_set(m, (int)c);
		if (*p != ',')
			break;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	return *p ? -1 : cpumask_weight(m);
}

int cpulist_format(const struct cpumask *m, char *buf, size_t len)
{
	size_t n = 0;
	int c, e;

	if (len)
		buf[0] = '\0';
	for (c = cpumask_next(m, 0); c >= 0; c = cpumask_next(m, e + 1)) {
		for (e = c; e + 1 < CPUMASK_MAX_CPUS && cpumask_test(m, e + 1); e++)
			;
		n += snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0,
			      e > c ? "%s%d-%d" : "%s%d", n ? "," : "", c, e);
	}
	return (int)n;
}

char *cpulist_of_json(const json_t *cpus)
{
	struct cpumask *m = xcalloc(1, sizeof(*m));
	size_t i;
	json_t *v;
	char *s;
	int n;

	json_array_foreach(cpus, i, v) {
		json_int_t c = json_integer_value(v);

		if (json_is_integer(v) && c >= 0 && c < CPUMASK_MAX_CPUS)
			cpumask_set(m, (int)c);
	}
	n = cpulist_format(m, NULL, 0);
	s = xmalloc((size_t)n + 1);
	cpulist_format(m, s, (size_t)n + 1);
	free(m);
	return s;
}

int cpus_online(struct cpumask *m, char *why, size_t wlen)
{
	const char *path = SYS_CPU "/online";
	char buf[LINE];
	int err = sysenv_read_line(path, buf, sizeof(buf)), n;

	if (err) {
		snprintf(why, wlen, "%s: %s", path, strerror(-err));
		return -1;
	}
	n = cpulist_parse(buf, m);
	if (n <= 0) {
		snprintf(why, wlen, "%s: not a CPU list: '%.64s'", path, buf);
		return -1;
	}
	return n;
}

/* ---- topology ------------------------------------------------------- */

/* One grouping of CPUs: a CPU's group, and the group's id (-1: none). */
typedef int (*group_fn)(int cpu, struct cpumask *g, int *id, void *arg,
			char *why, size_t wlen);

static int read_cpulist(const char *path, struct cpumask *m, char *why,
			size_t wlen)
{
	char buf[LINE];
	int err = sysenv_read_line(path, buf, sizeof(buf));

	if (err)
		snprintf(why, wlen, "%s: %s", path, strerror(-err));
	else if (cpulist_parse(buf, m) < 0)
		snprintf(why, wlen, "%s: not a CPU list: '%.64s'", path, buf);
	else
		return 0;
	return -1;
}

/* cpuN/topology/a, or b on kernels that lack a. */
static int topology_list(int cpu, const char *a, const char *b,
			 struct cpumask *g, char *why, size_t wlen)
{
	char path[256];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, a);
	if (access(path, F_OK))
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, b);
	return read_cpulist(path, g, why, wlen);
}

static int smt_group(int cpu, struct cpumask *g, int *id, void *arg,
		     char *why, size_t wlen)
{
	(void)arg;
	*id = -1;
	return topology_list(cpu, "core_cpus_list", "thread_siblings_list",
			     g, why, wlen);
}

static int package_group(int cpu, struct cpumask *g, int *id, void *arg,
			 char *why, size_t wlen)
{
	char path[256], buf[64];

	(void)arg;
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/physical_package_id",
		 cpu);
	*id = sysenv_read_line(path, buf, sizeof(buf)) ? -1 : atoi(buf);
	return topology_list(cpu, "package_cpus_list", "core_siblings_list",
			     g, why, wlen);
}

/* The LLC: the highest-level data or unified cache; arg: its level. */
static int llc_group(int cpu, struct cpumask *g, int *id, void *arg,
		     char *why, size_t wlen)
{
	int *max_level = arg, best = -1, best_level = 0, i, err;
	char path[256], buf[64];

	*id = -1;
	for (i = 0;; i++) {
		int level;

		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%d/level",
			 cpu, i);
		err = sysenv_read_line(path, buf, sizeof(buf));
		if (err == -ENOENT)
			break;
		if (err) {
			snprintf(why, wlen, "%s: %s", path, strerror(-err));
			return -1;
		}
		level = atoi(buf);
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%d/type",
			 cpu, i);
		if (!sysenv_read_line(path, buf, sizeof(buf)) &&
		    !strcmp(buf, "Instruction"))
			continue;
		if (level > best_level) {
			best_level = level;
			best = i;
		}
	}
	if (best < 0) {
		snprintf(why, wlen, SYS_CPU "/cpu%d/cache/index%d: %s; the kernel "
			 "describes no data or unified cache", cpu, i,
			 strerror(ENOENT));
		return -1;
	}
	if (best_level > *max_level)
		*max_level = best_level;
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%d/shared_cpu_list",
		 cpu, best);
	return read_cpulist(path, g, why, wlen);
}

/* The node a CPU belongs to: its cpuN/nodeM link, then nodeM/cpulist. */
static int node_group(int cpu, struct cpumask *g, int *id, void *arg,
		      char *why, size_t wlen)
{
	char path[256];
	struct dirent *de;
	DIR *d;
	int node = -1, n;

	(void)arg;
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d", cpu);
	d = opendir(path);
	if (!d) {
		snprintf(why, wlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (node < 0 && (de = readdir(d)))
		if (sscanf(de->d_name, "node%d%n", &node, &n) != 1 ||
		    de->d_name[n])
			node = -1;
	closedir(d);
	if (node < 0) {
		snprintf(why, wlen, "%s/node*: %s; kernel without CONFIG_NUMA",
			 path, strerror(ENOENT));
		return -1;
	}
	*id = node;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
		 node);
	return read_cpulist(path, g, why, wlen);
}

/*
 * Partitions the online CPUs by fn into {"groups": [[cpu...]...]} (and
 * "ids" when with_ids). Every online CPU lands in exactly one group even
 * where sysfs disagrees with itself (a CPU missing from its own list,
 * lists that overlap). *largest: the size of the largest group.
 */
static json_t *partition(const struct cpumask *online, group_fn fn,
			 void *arg, bool with_ids, int *largest)
{
	struct cpumask *covered = xcalloc(1, sizeof(*covered));
	struct cpumask *g = xcalloc(1, sizeof(*g));
	json_t *groups = json_array(), *ids = json_array(), *ret;
	char why[512];
	int cpu, c, id;

	*largest = 0;
	for_each_cpu(cpu, online) {
		json_t *grp;
		int n = 0;

		if (cpumask_test(covered, cpu))
			continue;
		if (fn(cpu, g, &id, arg, why, sizeof(why))) {
			json_decref(groups);
			json_decref(ids);
			ret = sysenv_missing("%s", why);
			goto out;
		}
		cpumask_set(g, cpu);
		grp = json_array();
		for_each_cpu(c, g) {
			if (!cpumask_test(online, c) || cpumask_test(covered, c))
				continue;
			cpumask_set(covered, c);
			json_array_append_new(grp, json_integer(c));
			n++;
		}
		json_array_append_new(groups, grp);
		json_array_append_new(ids, json_integer(id));
		if (n > *largest)
			*largest = n;
	}
	ret = json_object();
	json_object_set_new(ret, "groups", groups);
	if (with_ids)
		json_object_set_new(ret, "ids", ids);
	else
		json_decref(ids);
	ret = sysenv_item(ret);
out:
	free(covered);
	free(g);
	return ret;
}

static json_t *topology(const struct cpumask *online, const char *why)
{
	static const char *const names[] = { "smt", "llc", "numa", "packages" };
	json_t *t = json_object(), *it;
	char buf[64];
	int largest, level = 0;

	if (!online) {
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			json_object_set_new(t, names[i],
				sysenv_missing("online CPUs unknown (%s)", why));
		return t;
	}
	it = partition(online, smt_group, NULL, false, &largest);
	if (sysenv_item_ok(it)) {
		json_object_set_new(sysenv_item_value(it), "threads_per_core",
				    json_integer(largest));
		if (!sysenv_read_line(SYS_CPU "/smt/control", buf, sizeof(buf)))
			json_object_set_new(sysenv_item_value(it), "control",
					    json_string(buf));
	}
	json_object_set_new(t, "smt", it);
	it = partition(online, llc_group, &level, false, &largest);
	if (sysenv_item_ok(it))
		json_object_set_new(sysenv_item_value(it), "level",
				    json_integer(level));
	json_object_set_new(t, "llc", it);
	json_object_set_new(t, "numa",
			    partition(online, node_group, NULL, true, &largest));
	json_object_set_new(t, "packages",
			    partition(online, package_group, NULL, true, &largest));
	return t;
}

/* ---- cpus, cpufreq, cpuidle ----------------------------------------- */

static json_t *cpus(const struct cpumask *online, int n, const char *why)
{
	cpu_set_t *set = CPU_ALLOC(CPUMASK_MAX_CPUS);
	size_t setsize = CPU_ALLOC_SIZE(CPUMASK_MAX_CPUS);
	json_t *c = json_object();
	char buf[LINE];

	if (online) {
		cpulist_format(online, buf, sizeof(buf));
		json_object_set_new(c, "online", sysenv_item(json_pack(
			"{s:i, s:s}", "count", n, "list", buf)));
	} else {
		json_object_set_new(c, "online", sysenv_missing("%s", why));
	}
	if (!sched_getaffinity(0, setsize, set)) {
		struct cpumask *m = xcalloc(1, sizeof(*m));

		for (int i = 0; i < CPUMASK_MAX_CPUS; i++)
			if (CPU_ISSET_S(i, setsize, set))
				cpumask_set(m, i);
		cpulist_format(m, buf, sizeof(buf));
		json_object_set_new(c, "allowed", sysenv_item(json_string(buf)));
		free(m);
	} else {
		json_object_set_new(c, "allowed", sysenv_missing(
			"sched_getaffinity: %s", strerror(errno)));
	}
	CPU_FREE(set);
	json_object_set_new(c, "isolated", sysenv_file_item(SYS_CPU "/isolated",
		"kernel too old to say"));
	json_object_set_new(c, "nohz_full", sysenv_file_item(SYS_CPU "/nohz_full",
		"kernel without CONFIG_NO_HZ_FULL"));
	return c;
}

/*
 * One cpufreq file of every online CPU: one string when all agree, else
 * {"value": "cpulist", ...} (CPUs that lack it under "not available").
 */
static json_t *per_cpu(const struct cpumask *online, const char *file,
		       const char *enoent)
{
	json_t *by = json_object(), *ret, *v;
	char path[256], buf[256], first_path[256] = "";
	int cpu, first_err = 0, failed = 0, err;
	const char *key;

	if (!online) {
		json_decref(by);
		return sysenv_missing("online CPUs unknown");
	}
	for_each_cpu(cpu, online) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/%s", cpu, file);
		err = sysenv_read_line(path, buf, sizeof(buf));
		if (err) {
			if (!failed++) {
				first_err = -err;
				snprintf(first_path, sizeof(first_path), "%s", path);
			}
			snprintf(buf, sizeof(buf), "not available");
		}
		if (!(v = json_object_get(by, buf)))
			json_object_set_new(by, buf, v = json_array());
		json_array_append_new(v, json_integer(cpu));
	}
	if (failed == cpumask_weight(online))
		ret = sysenv_file_missing(first_path, first_err, enoent);
	else if (json_object_size(by) == 1)
		ret = sysenv_item(json_string(json_object_iter_key(
			json_object_iter(by))));
	else {
		json_t *m = json_object();

		json_object_foreach(by, key, v) {
			char *s = cpulist_of_json(v);

			json_object_set_new(m, key, json_string(s));
			free(s);
		}
		ret = sysenv_item(m);
	}
	json_decref(by);
	return ret;
}

static json_t *cpuidle(void)
{
	json_t *c = json_object();
	const char *gov = SYS_CPU "/cpuidle/current_governor_ro";

	if (access(gov, F_OK))
		gov = SYS_CPU "/cpuidle/current_governor";
	json_object_set_new(c, "driver", sysenv_file_item(SYS_CPU "/cpuidle/current_driver",
		"kernel without CONFIG_CPU_IDLE"));
	json_object_set_new(c, "governor", sysenv_file_item(gov,
		"kernel without CONFIG_CPU_IDLE"));
	return c;
}

void cpus_collect(json_t *env, const struct cpumask *online, int n,
		  const char *why)
{
	const char *hint = "no cpufreq driver, usual in VMs";

	json_object_set_new(env, "cpus", cpus(online, n, why));
	json_object_set_new(env, "topology", topology(online, why));
	json_object_set_new(env, "cpufreq", json_pack("{s:o, s:o}",
		"driver", per_cpu(online, "cpufreq/scaling_driver", hint),
		"governor", per_cpu(online, "cpufreq/scaling_governor", hint)));
	json_object_set_new(env, "cpuidle", cpuidle());
}
