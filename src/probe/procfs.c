// SPDX-License-Identifier: GPL-2.0-only
/*
 * procfs: pure parsers for the scheduler-metric files in /proc (see
 * procfs.h for what each returns): a task's schedstat, sched and status,
 * /proc/stat and PSI here, /proc/schedstat in procfs_schedstat.c. All of
 * them walk (buf, len) with the span helpers of procfs_span.h instead of
 * the str* functions, so a buffer without a NUL, or with NULs inside,
 * is never read past its end.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probe/procfs.h"
#include "probe/procfs_span.h"

/* ---------------------------------------------------- task schedstat */

int procfs_parse_task_schedstat(const char *buf, size_t len,
				struct task_schedstat *out)
{
	struct span in = span_of(buf, len), line;
	struct task_schedstat t;

	memset(out, 0, sizeof(*out));
	if (next_line(&in, &line) != 1 || word_u64(&line, &t.run_ns) ||
	    word_u64(&line, &t.wait_ns) || word_u64(&line, &t.pcount) ||
	    !at_end(&line) || in.p != in.end)
		return -1;
	*out = t;
	return 0;
}

/* ------------------------------------------------------- task sched */

enum ts_kind {
	TS_U64,		/* "%21Ld" */
	TS_S64,		/* "%21Ld", may be negative */
	TS_MS,		/* "%14Ld.%06ld" of ns, stored in ns */
};

/*
 * The keys read, as kernel/sched/debug.c proc_sched_show_task() prints
 * them. Schedstat keys were "se.statistics.<key>" until struct
 * sched_statistics left the fair class's sched_entity (5.16, commit
 * ceeadb83aea2 "sched: Make struct sched_statistics independent of fair
 * sched class"), plain "<key>" since.
 */
static const struct ts_key {
	const char *key;
	enum ts_kind kind;
	bool schedstat;
	size_t off;
} ts_keys[TS_NR_FIELDS] = {
#define OFF(m) offsetof(struct task_sched, m)
#define SS(m) { #m, TS_U64, true, OFF(m) }
#define SS_NS(m) { #m, TS_MS, true, OFF(m##_ns) }
	[TS_SUM_EXEC_RUNTIME] = { "se.sum_exec_runtime", TS_MS, false, OFF(sum_exec_runtime_ns) },
	[TS_NR_MIGRATIONS] = { "se.nr_migrations", TS_U64, false, OFF(nr_migrations) },
	[TS_NR_SWITCHES] = { "nr_switches", TS_U64, false, OFF(nr_switches) },
	[TS_NR_VOLUNTARY_SWITCHES] =
		{ "nr_voluntary_switches", TS_U64, false, OFF(nr_voluntary_switches) },
	[TS_NR_INVOLUNTARY_SWITCHES] =
		{ "nr_involuntary_switches", TS_U64, false, OFF(nr_involuntary_switches) },
	[TS_POLICY] = { "policy", TS_S64, false, OFF(policy) },
	[TS_PRIO] = { "prio", TS_S64, false, OFF(prio) },
	[TS_SLICE] = { "se.slice", TS_U64, false, OFF(slice_ns) },
	[TS_SUM_SLEEP_RUNTIME] = SS_NS(sum_sleep_runtime),
	[TS_SUM_BLOCK_RUNTIME] = SS_NS(sum_block_runtime),
	[TS_SLEEP_MAX] = SS_NS(sleep_max),
	[TS_BLOCK_MAX] = SS_NS(block_max),
	[TS_EXEC_MAX] = SS_NS(exec_max),
	[TS_SLICE_MAX] = SS_NS(slice_max),
	[TS_WAIT_MAX] = SS_NS(wait_max),
	[TS_WAIT_SUM] = SS_NS(wait_sum),
	[TS_WAIT_COUNT] = SS(wait_count),
	[TS_IOWAIT_SUM] = SS_NS(iowait_sum),
	[TS_IOWAIT_COUNT] = SS(iowait_count),
	[TS_NR_MIGRATIONS_COLD] = SS(nr_migrations_cold),
	[TS_NR_FAILED_MIGRATIONS_AFFINE] = SS(nr_failed_migrations_affine),
	[TS_NR_FAILED_MIGRATIONS_RUNNING] = SS(nr_failed_migrations_running),
	[TS_NR_FAILED_MIGRATIONS_HOT] = SS(nr_failed_migrations_hot),
	[TS_NR_FORCED_MIGRATIONS] = SS(nr_forced_migrations),
	[TS_NR_WAKEUPS] = SS(nr_wakeups),
	[TS_NR_WAKEUPS_SYNC] = SS(nr_wakeups_sync),
	[TS_NR_WAKEUPS_MIGRATE] = SS(nr_wakeups_migrate),
	[TS_NR_WAKEUPS_LOCAL] = SS(nr_wakeups_local),
	[TS_NR_WAKEUPS_REMOTE] = SS(nr_wakeups_remote),
	[TS_NR_WAKEUPS_AFFINE] = SS(nr_wakeups_affine),
	[TS_NR_WAKEUPS_AFFINE_ATTEMPTS] = SS(nr_wakeups_affine_attempts),
	[TS_NR_WAKEUPS_PASSIVE] = SS(nr_wakeups_passive),
	[TS_NR_WAKEUPS_IDLE] = SS(nr_wakeups_idle),
	[TS_CORE_FORCEIDLE_SUM] = SS_NS(core_forceidle_sum),
#undef SS_NS
#undef SS
#undef OFF
};

/* The field named key, or -1. */
static int ts_lookup(struct span key)
{
	struct span bare = key;
	bool prefixed = eat(&bare, "se.statistics.");

	for (int f = 0; f < TS_NR_FIELDS; f++) {
		const struct ts_key *k = &ts_keys[f];

		if (span_is(&key, k->key) ||
		    (prefixed && k->schedstat && span_is(&bare, k->key)))
			return f;
	}
	return -1;
}

/*
 * "comm (pid, #threads: n)". A comm may hold spaces and parentheses,
 * but what follows its last '(' is ours.
 */
static int sched_header(struct span line, struct task_sched *t)
{
	const char *open = NULL, *c;
	struct span s;
	uint64_t pid, n;
	size_t len;

	for (c = line.p; c < line.end; c++)
		if (*c == '(')
			open = c;
	if (!open || open == line.p || open[-1] != ' ')
		return -1;
	s = (struct span){ open + 1, line.end };
	if (digits(&s, &pid, NULL) || !eat(&s, ", #threads: ") ||
	    digits(&s, &n, NULL) || !eat(&s, ")") || s.p != s.end ||
	    pid > INT_MAX || n > INT_MAX)
		return -1;
	len = open - 1 - line.p;
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, line.p, len);
	t->comm[len] = '\0';
	t->pid = pid;
	t->nr_threads = n;
	return 0;
}

/* "key   :   value": 0 (also for keys not read), or -1. */
static int sched_line(struct span line, struct task_sched *t)
{
	const char *colon = memchr(line.p, ':', line.end - line.p);
	struct span key, val;
	const struct ts_key *k;
	uint64_t u;
	int64_t s;
	int f;

	if (!colon)
		return 0;	/* "current_node=0, numa_group_id=0" */
	key = (struct span){ line.p, colon };
	while (key.end > key.p && is_blank(key.end[-1]))
		key.end--;
	f = ts_lookup(key);
	if (f < 0)
		return 0;
	if (t->have & TS_BIT(f))
		return -1;
	k = &ts_keys[f];
	val = (struct span){ colon + 1, line.end };
	switch (k->kind) {
	case TS_U64:
		if (word_u64(&val, &u))
			return -1;
		memcpy((char *)t + k->off, &u, sizeof(u));
		break;
	case TS_MS:
		if (word_ms_ns(&val, &u))
			return -1;
		memcpy((char *)t + k->off, &u, sizeof(u));
		break;
	case TS_S64:
		if (word_s64(&val, &s))
			return -1;
		memcpy((char *)t + k->off, &s, sizeof(s));
		break;
	}
	if (!at_end(&val))
		return -1;
	t->have |= TS_BIT(f);
	return 0;
}

int procfs_parse_task_sched(const char *buf, size_t len, struct task_sched *out)
{
	struct span in = span_of(buf, len), line;
	struct task_sched t = { 0 };
	int r;

	memset(out, 0, sizeof(*out));
	if (next_line(&in, &line) != 1 || sched_header(line, &t))
		return -1;
	/* a line of dashes */
	if (next_line(&in, &line) != 1 || line.p == line.end)
		return -1;
	for (; line.p < line.end; line.p++)
		if (*line.p != '-')
			return -1;
	while ((r = next_line(&in, &line)) == 1)
		if (sched_line(line, &t))
			return -1;
	if (r < 0 || (t.have & TS_REQUIRED) != TS_REQUIRED)
		return -1;
	*out = t;
	return 0;
}

/* ------------------------------------------------------ task status */

int procfs_parse_task_status(const char *buf, size_t len,
			     struct task_status *out)
{
	struct span in = span_of(buf, len), line;
	struct task_status t = { 0 };
	bool have_vol = false, have_nonvol = false;
	int r;

	memset(out, 0, sizeof(*out));
	while ((r = next_line(&in, &line)) == 1) {
		uint64_t *v;
		bool *have;

		if (eat(&line, "voluntary_ctxt_switches:")) {
			v = &t.voluntary_ctxt_switches;
			have = &have_vol;
		} else if (eat(&line, "nonvoluntary_ctxt_switches:")) {
			v = &t.nonvoluntary_ctxt_switches;
			have = &have_nonvol;
		} else {
			continue;
		}
		if (*have || word_u64(&line, v) || !at_end(&line))
			return -1;
		*have = true;
	}
	if (r < 0 || !have_vol || !have_nonvol)
		return -1;
	*out = t;
	return 0;
}

/* -------------------------------------------------------- /proc/stat */

/*
 * sysenv_parse_cpu_line() of "cpu" followed by rest (which must start
 * with a blank), on a NUL-terminated copy.
 */
static int cpu_times_of(const char *rest, const char *end,
			struct cpu_times *t)
{
	char line[512];
	size_t n = end - rest;

	if (n >= sizeof(line) - 3 || memchr(rest, '\0', n))
		return -1;
	memcpy(line, "cpu", 3);
	memcpy(line + 3, rest, n);
	line[3 + n] = '\0';
	return sysenv_parse_cpu_line(line, t);
}

void stat_cpus_free(struct stat_cpus *s)
{
	free(s->cpu);
	free(s->present);
	memset(s, 0, sizeof(*s));
}

/* Stores cpu's times, making room in s up to it. */
static int stat_add(struct stat_cpus *s, size_t *cap, int cpu,
		    const struct cpu_times *t)
{
	if ((size_t)cpu >= *cap) {
		size_t n = new_cap(*cap, cpu);
		struct cpu_times *c;
		bool *p;

		c = realloc(s->cpu, n * sizeof(*c));
		if (!c)
			return -1;
		s->cpu = c;
		p = realloc(s->present, n * sizeof(*p));
		if (!p)
			return -1;
		s->present = p;
		memset(c + *cap, 0, (n - *cap) * sizeof(*c));
		memset(p + *cap, 0, (n - *cap) * sizeof(*p));
		*cap = n;
	}
	s->cpu[cpu] = *t;
	s->present[cpu] = true;
	s->nr_cpus = cpu + 1;
	return 0;
}

int procfs_parse_stat(const char *buf, size_t len, struct stat_cpus *out)
{
	struct span in = span_of(buf, len), line;
	struct stat_cpus s = { 0 };
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	/* the aggregate line first: "cpu  3009 0 35124 ..." */
	if (next_line(&in, &line) != 1 || !eat(&line, "cpu") ||
	    !at_blank(&line) || cpu_times_of(line.p, line.end, &s.all))
		return -1;
	/* then "cpuN ..." for each online CPU, in increasing order */
	while (starts_with(&in, "cpu")) {
		struct cpu_times t;
		uint64_t cpu;

		if (next_line(&in, &line) != 1)
			goto fail;
		line.p += 3;
		if (digits(&line, &cpu, NULL) || cpu >= CPUMASK_MAX_CPUS ||
		    (int)cpu < s.nr_cpus || !at_blank(&line) ||
		    cpu_times_of(line.p, line.end, &t) ||
		    stat_add(&s, &cap, cpu, &t))
			goto fail;
	}
	/*
	 * "intr" always follows: without it the text was cut above. What
	 * follows is not read, but the text must still end a line.
	 */
	if (!s.nr_cpus || !starts_with(&in, "intr ") || in.end[-1] != '\n')
		goto fail;
	*out = s;
	return 0;
fail:
	stat_cpus_free(&s);
	return -1;
}

/* --------------------------------------------------- /proc/pressure */

/* "12.34": psi_show() prints LOAD_INT.LOAD_FRAC as "%lu.%02lu". */
static int avg_of(struct span *s, double *avg)
{
	uint64_t i, f;
	int n;

	if (digits(s, &i, NULL) || !eat(s, ".") || digits(s, &f, &n) ||
	    n != 2 || !at_boundary(s))
		return -1;
	*avg = i + f / 100.0;
	return 0;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=12345" */
static int psi_line(struct span line, const char *kind, double avg[3],
		    uint64_t *total)
{
	static const char *const keys[] = { "avg10=", "avg60=", "avg300=" };

	if (!eat(&line, kind))
		return -1;
	for (int i = 0; i < 3; i++)
		if (!blanks(&line) || !eat(&line, keys[i]) ||
		    avg_of(&line, &avg[i]))
			return -1;
	if (!blanks(&line) || !eat(&line, "total=") ||
	    digits(&line, total, NULL) || !at_end(&line))
		return -1;
	return 0;
}

int procfs_parse_psi_cpu(const char *buf, size_t len, struct psi_cpu *out)
{
	struct span in = span_of(buf, len), line;
	struct psi_cpu p = { 0 };
	double avg[3];
	int r;

	memset(out, 0, sizeof(*out));
	if (next_line(&in, &line) != 1 ||
	    psi_line(line, "some", avg, &p.some_total_us))
		return -1;
	p.some_avg10 = avg[0];
	p.some_avg60 = avg[1];
	p.some_avg300 = avg[2];
	r = next_line(&in, &line);
	if (r < 0)
		return -1;
	if (r) {
		if (psi_line(line, "full", avg, &p.full_total_us) ||
		    in.p != in.end)
			return -1;
		p.have_full = true;
		p.full_avg10 = avg[0];
		p.full_avg60 = avg[1];
		p.full_avg300 = avg[2];
	}
	*out = p;
	return 0;
}
