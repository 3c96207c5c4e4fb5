/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan's insides, shared by its four files: plan_file.c reads a job
 * file into sections of key = value lines, plan_set.c applies run --set
 * to them, plan_sweep.c expands one value into the values it stands
 * for, plan.c makes the jobs and cases, suites.c finds a suite by name.
 */
#ifndef SCHEDLAB_PLAN_INT_H
#define SCHEDLAB_PLAN_INT_H

#include <stdbool.h>
#include <stddef.h>

struct plan;
struct plan_set;
struct workload;
struct opt_def;

struct kv {
	char *key;
	char *value;
	unsigned line;
	char *origin;		/* "--set KEY=VALUE" if from there; NULL: the file */
};

/*
 * Where kv was written, for messages: "FILE:LINE" or "--set KEY=VALUE".
 * Returns buf.
 */
const char *kv_where(const char *path, const struct kv *kv, char *buf,
		     size_t len);

struct section {
	char *name;
	unsigned line;
	bool global;		/* [global], not a job */
	const struct workload *wl;	/* a job's, filled by plan.c */
	struct kv *kv;		/* in file order */
	size_t nkv;
};

struct jobfile {
	const char *path;
	struct section *sec;	/* in file order */
	size_t nsec;
};

/*
 * Reads path into jf: text only, sections named once, keys once per
 * section, nothing else checked. -1 after saying what is wrong, as
 * "FILE:LINE: ..."; jobfile_free() is needed either way.
 */
int jobfile_read(const char *path, struct jobfile *jf);
/* The same from text..text+len; its messages name it path. */
int jobfile_parse(const char *path, const char *text, size_t len,
		  struct jobfile *jf);
void jobfile_free(struct jobfile *jf);
struct section *jobfile_section(const struct jobfile *jf, const char *name);
const struct kv *section_key(const struct section *sec, const char *key);

/*
 * plan_load() for a job file held in memory: WHERE names it in messages
 * ("quick.job:12: ..."), SOURCE in the printed plan; sets as
 * plan_load_with().
 */
int plan_load_text(const char *where, const char *source, const char *text,
		   size_t len, const char *const *sets, size_t nsets,
		   struct plan *p);

/* plan_load_with() of sets with their origins (plan_load_text_sets():
 * plan.h). */
int plan_load_file_sets(const char *path, const struct plan_set *sets,
			size_t nsets, struct plan *p);

/* The keys that are not a workload's options, for messages. */
#define PLAN_HARNESS_KEYS "iterations, min_iterations, max_iterations, budget, warmup, timeout, retries, cpus, probes, monitors, monitor_interval, settings (nice, policy, env.*, cgroup.*, sysctl.*, sched.*, sched_feat, scx, a /proc or /sys path)"

/* Whether key is a harness key (which shadows a workload option). */
bool is_harness_key(const char *key);

/* A workload's option names, "groups, fds, ...", for messages. */
void options_list(const struct workload *wl, char *buf, size_t len);

/*
 * The line of sec that sets key - a harness key, or an option of wl by
 * any of its names - or NULL.
 */
struct kv *section_find(const struct section *sec, const struct workload *wl,
			const char *key);

/*
 * Applies the --set arguments ("KEY=VALUE", "JOB.KEY=VALUE") to jf,
 * whose jobs' workloads are known (see plan_set.c). -1 after saying
 * what is wrong, naming the --set.
 */
int plan_apply_sets(const char *path, struct jobfile *jf,
		    const struct plan_set *sets, size_t nsets);

/* One workload option of a job and the distinct values it takes. */
struct axis {
	const struct opt_def *o;
	const struct kv *kv;	/* where it was written */
	bool swept;		/* a list or a range, even of one value */
	char **val;		/* canonical text, as opt_format() writes it */
	size_t n;
	size_t raw;		/* values listed, before dropping repeats */
};

/*
 * Expands kv, the value of option o of workload wl, into ax, each value
 * checked with opt_set(); $ncpu stands for ncpu. -1 after saying what
 * is wrong, as "FILE:LINE: OPTION...", ax then empty.
 */
int sweep_expand(const char *path, const struct kv *kv,
		 const struct workload *wl, const struct opt_def *o,
		 unsigned ncpu, struct axis *ax);
void axis_free(struct axis *ax);

/* Room for element n of an array that grows by doubling. */
void *plan_grow(void *arr, size_t n, size_t size);
/* s without the blanks around it, cut in place. */
char *plan_trim(char *s);

#endif
