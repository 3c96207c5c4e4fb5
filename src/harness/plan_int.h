/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan's insides, shared by its files: plan_file.c reads a job file
 * into sections of key = value lines, plan_set.c applies run --set to
 * them, plan_variant.c takes out the [variant] sections, plan_keys.c
 * checks the keys (the harness's into struct harness), plan_sweep.c
 * expands one value into the values it stands for, plan.c makes the
 * jobs and cases, plan_print.c prints a plan, suites.c finds a suite by
 * name; plan_util.c has the helpers they all use.
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

/* What loading needs besides the file. */
struct loader {
	const char *path;
	struct jobfile jf;
	unsigned ncpu;		/* what $ncpu stands for */
	const struct plan_set *sets;	/* run --set KEY=VALUE, applied to jf */
	size_t nsets;
};


/* A job's harness keys (plan_keys.c). */
struct harness {
	unsigned iterations, warmup, retries, timeout_s;
	bool auto_iter;		/* iterations = auto */
	unsigned min_iter, max_iter, budget_s;
	unsigned estimate_s;	/* one iteration, for --dry-run; 0: none */
	int probes;		/* enum probe_level */
	bool probes_given;	/* probes = ... in the job file or --set */
	char cpus[256];		/* normalised cpulist; "" to inherit */
	/* monitors (monitor/monitor.h): the list and interval as given,
	 * checked as they are set */
	const char *monitors, *monitor_interval;
	char monitor_cpus[256];	/* the sampler's cpulist; "" to inherit */
	/* tracing hooks (trace/trace.h), checked as they are set */
	const char *trace, *trace_dir, *trace_tasks;
	int trace_scope;	/* enum trace_scope */
	const struct kv **set;	/* settings (harness/settings.h), one a key */
	size_t nset;
};

/* plan_keys.c: [global]'s defaults, then each harness key of a job. */
void plan_harness_defaults(struct harness *h);
int plan_set_harness(const struct loader *ld, const struct kv *kv,
		     struct harness *h);
/* qsort()'s order of a case's settings, by key. */
int plan_setting_cmp(const void *a, const void *b);
/* Every job has a known workload; [global] has none. */
int plan_resolve_workloads(struct loader *ld, size_t *njobs);
/* [global]'s keys: each an option of a job's workload or a harness key. */
int plan_check_global(const struct loader *ld, const struct section *glob);
/* An option set twice in one section, under two of its names. */
int plan_set_twice(const struct loader *ld, const struct section *sec,
		   const struct workload *wl, const struct kv *kv);
/* plan_variant.c: the [variant NAME] sections, out of ld->jf into p. */
int plan_take_variants(struct loader *ld, struct plan *p);

#endif
