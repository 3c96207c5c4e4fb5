/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysenv: the environment a run happens in - machine, kernel, topology,
 * cpufreq/cpuidle, scheduler knobs, sched_ext, THP, load - as one JSON
 * object stored with every run and printed by `schedlab env`. Also the
 * /proc/stat steal-time reading and the "machine looks busy" rule that
 * `run` uses, and the small parsers ("[selected]" values, kernel
 * parameters, /proc/stat lines) they share. CPU sets, cpulists and the
 * topology are in cpus.h, an item's constructors in env_item.h.
 *
 * Nothing here fails because an item is missing: every item of the
 * object is either
 *	{ "available": true,  "value": V }		(V any JSON type)
 *	{ "available": false, "reason": "PATH: why; likely cause" }
 * and an available item may carry "source" (where V came from) when it
 * can come from more than one place. Items are grouped in objects
 * (machine, kernel, cpus, topology, cpufreq, cpuidle, sched, memory) that
 * are always present; "load_at_start" and "git" are items of their own
 * (the kernel's group holds release, version, build_id, cmdline); "schema"
 * and "schedlab_version" are plain strings. CPU sets read from one
 * sysfs file (cpus.online.list, cpus.allowed, cpus.isolated) are
 * cpulists as the kernel writes them ("0-3,8"); topology groups are
 * arrays of CPU numbers ({"groups": [[0, 4], [1, 5]]}).
 */
#ifndef SCHEDLAB_SYSENV_H
#define SCHEDLAB_SYSENV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cpus.h"
#include "probe/env_item.h"

#define SYSENV_SCHEMA "schedlab-env/1"

/* The whole environment object; never NULL (unless out of memory). */
json_t *sysenv_collect(void);

/*
 * Provenance (src/probe/provenance.c): the "git" item - {"describe":
 * `git describe --always --dirty`, "commit": the full hash of HEAD,
 * "work_tree": its top directory} of the work tree the current
 * directory is in, or missing with why (not in a work tree, one another
 * user owns, no commit yet, git not installed, no answer within 10 s) -
 * and the kernel's
 * "build_id" item (the GNU build id note of /sys/kernel/notes, in hex).
 * git runs without a shell, stdin from /dev/null, stderr discarded.
 */
json_t *sysenv_git(void);
json_t *sysenv_build_id(void);

/*
 * `git describe --always --dirty` of the current directory's work tree
 * into buf ("v1.2-3-gdeadbee-dirty"), for a default label. Returns 0,
 * or -1 (buf empty, nothing printed) when there is none.
 */
int sysenv_git_describe(char *buf, size_t len);

/*
 * The GNU build id among ELF notes as the kernel exports them (Elf_Nhdr
 * namesz, descsz, type in the machine's byte order, then the name and
 * the descriptor, each padded to 4 bytes): the descriptor of the first
 * NT_GNU_BUILD_ID note named "GNU", as lowercase hex into hex. Returns
 * 0; -ENOENT when there is none; -EINVAL for notes that run past len
 * (or an empty id); -ENOSPC when hexlen cannot hold it.
 */
int sysenv_parse_build_id(const void *notes, size_t len, char *hex,
			  size_t hexlen);

/* Pieces of sysenv_collect() in src/probe/schedknobs.c. */
struct utsname;
json_t *sysenv_kernel(const struct utsname *u, int uts_err,
		      const char *cmdline, int cmd_err);
json_t *sysenv_sched(const struct utsname *u, const char *cmdline);


/*
 * The selected word of a sysfs choice list: "always [madvise] never"
 * with '[' ']' gives "madvise", "none voluntary (full) lazy" with '('
 * ')' gives "full". Returns 0, or -1 when nothing is selected.
 */
int sysenv_selected(const char *s, char open, char close, char *out,
		    size_t len);

/*
 * The value of a key=value kernel parameter in a /proc/cmdline text,
 * stopping at "--" (what follows is init's). Returns 0, or -1 if absent.
 */
int sysenv_cmdline_param(const char *cmdline, const char *key, char *out,
			 size_t len);

/*
 * The preemption model named in a `uname -v` string: "rt" (PREEMPT_RT,
 * also "PREEMPT_{RT,DYNAMIC}"), "dynamic" (PREEMPT_DYNAMIC: the mode is
 * chosen at boot), "lazy" (PREEMPT_LAZY), "full" (PREEMPT), or NULL when
 * none is named (PREEMPT_NONE or PREEMPT_VOLUNTARY).
 */
const char *sysenv_preempt_from_uname(const char *version);
/* Whether w stands in s as a word of its own (blanks or the ends around it). */
bool sysenv_has_word(const char *s, const char *w);

/* Aggregate CPU time from /proc/stat's "cpu" line, in USER_HZ ticks. */
struct cpu_times {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

static inline uint64_t cpu_times_total(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq +
	       t->softirq + t->steal;
}

/* The time the CPUs ran something of this machine's (not idle, not
 * waiting for I/O, not stolen). */
static inline uint64_t cpu_times_busy(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->irq + t->softirq;
}

/*
 * Parses the aggregate line ("cpu  3009 0 35124 124176 223 0 87 40 0 0";
 * fields after the fourth may be missing on old kernels and read as 0).
 * Returns 0, or -1 for anything else ("cpu0 ...", garbage).
 */
int sysenv_parse_cpu_line(const char *line, struct cpu_times *t);

/*
 * Reads /proc/stat's aggregate line. Returns 0, or -1 having said why.
 * Steal over an interval is (b.steal - a.steal) / (total(b) - total(a)).
 */
int sysenv_cpu_times(struct cpu_times *t);

/* "1.50 0.80 0.40 3/179 9776": the three averages; 0 or -1. */
int sysenv_parse_loadavg(const char *line, double load[3], int *runnable,
			 int *tasks);

/*
 * The rule for "the machine looks busy": the 1-minute load average is
 * above half the online CPUs (load1 > ncpu / 2). A benchmark on such a
 * machine measures its neighbours as much as the kernel.
 */
bool sysenv_load_busy(double load1, int ncpu);

/*
 * Applies the rule to the machine now: fills *load1 (-1 when
 * /proc/loadavg cannot be read, and then returns false) and *ncpu (the
 * online CPUs); either may be NULL.
 */
bool sysenv_busy(double *load1, int *ncpu);

#endif
