// SPDX-License-Identifier: GPL-2.0-only
/*
 * procfs: pure parsers for the scheduler-metric files in /proc (see
 * procfs.h for what each returns). All of them walk (buf, len) with the
 * small span helpers below instead of the str* functions, so a buffer
 * without a NUL, or with NULs inside, is never read past its end.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probe/procfs.h"

/* A piece of the input, [p, end): nothing here reads at or past end. */
struct span {
	const char *p, *end;
};

/* The whole of (buf, len); NULL (with len 0) reads as empty. */
static struct span span_of(const char *buf, size_t len)
{
	static const char none[1];

	if (!buf)
		return (struct span){ none, none };
	return (struct span){ buf, buf + len };
}

/*
 * The next line of *in, without its '\n', into *line. Returns 1, 0 at
 * the end of the input, or -1 for a last line without '\n': the kernel
 * ends every line with one, so the text was cut there.
 */
static int next_line(struct span *in, struct span *line)
{
	const char *nl;

	if (in->p >= in->end)
		return 0;
	nl = memchr(in->p, '\n', in->end - in->p);
	if (!nl)
		return -1;
	line->p = in->p;
	line->end = nl;
	in->p = nl + 1;
	return 1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void skip_blanks(struct span *s)
{
	while (s->p < s->end && is_blank(*s->p))
		s->p++;
}

/* Nothing but blanks left. */
static bool at_end(struct span *s)
{
	skip_blanks(s);
	return s->p == s->end;
}

static bool at_blank(const struct span *s)
{
	return s->p < s->end && is_blank(*s->p);
}

/* At least one blank, skipped. */
static bool blanks(struct span *s)
{
	if (!at_blank(s))
		return false;
	skip_blanks(s);
	return true;
}

/* At the end of a word: the end of the span or a blank. */
static bool at_boundary(const struct span *s)
{
	return s->p == s->end || is_blank(*s->p);
}

static bool starts_with(const struct span *s, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(s->end - s->p) >= n && !memcmp(s->p, lit, n);
}

/* Consumes lit if s starts with it. */
static bool eat(struct span *s, const char *lit)
{
	if (!starts_with(s, lit))
		return false;
	s->p += strlen(lit);
	return true;
}

static bool span_is(const struct span *s, const char *lit)
{
	return (size_t)(s->end - s->p) == strlen(lit) && starts_with(s, lit);
}

/*
 * The decimal digits at s->p into *v, and how many there were into *n
 * (may be NULL). Returns -1 when there are none or they overflow 64 bits.
 */
static int digits(struct span *s, uint64_t *v, int *n)
{
	const char *start = s->p;
	uint64_t x = 0;

	while (s->p < s->end && is_digit(*s->p)) {
		unsigned int d = *s->p - '0';

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		s->p++;
	}
	if (s->p == start)
		return -1;
	*v = x;
	if (n)
		*n = s->p - start;
	return 0;
}

/* The next blank-separated word as an unsigned decimal. */
static int word_u64(struct span *s, uint64_t *v)
{
	skip_blanks(s);
	return digits(s, v, NULL) || !at_boundary(s) ? -1 : 0;
}

/* The next blank-separated word (never empty). */
static int word(struct span *s, struct span *w)
{
	skip_blanks(s);
	w->p = s->p;
	while (s->p < s->end && !is_blank(*s->p))
		s->p++;
	w->end = s->p;
	return w->p < w->end ? 0 : -1;
}

/*
 * "12.345678", the kernel's SPLIT_NS() form ("%Ld.%06ld" of a count of
 * nanoseconds: milliseconds with exactly six decimals), in ns.
 */
static int word_ms_ns(struct span *s, uint64_t *ns)
{
	uint64_t ms, frac;
	int n;

	skip_blanks(s);
	if (digits(s, &ms, NULL) || !eat(s, ".") || digits(s, &frac, &n) ||
	    n != 6 || !at_boundary(s) || ms > (UINT64_MAX - frac) / 1000000)
		return -1;
	*ns = ms * 1000000 + frac;
	return 0;
}

/* A signed decimal word ("-1", "120"). */
static int word_s64(struct span *s, int64_t *v)
{
	bool neg;
	uint64_t x;

	skip_blanks(s);
	neg = eat(s, "-");
	if (digits(s, &x, NULL) || !at_boundary(s) ||
	    x > (uint64_t)INT64_MAX + neg)
		return -1;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

/* A capacity above cap that holds element n: doubling, at least 8. */
static size_t new_cap(size_t cap, size_t n)
{
	size_t ncap = cap ? 2 * cap : 8;

	return ncap > n ? ncap : n + 1;
}

/* Room for element n in arr (of *cap elements of size elem), or NULL. */
static void *grow(void *arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return arr;
	ncap = new_cap(*cap, n);
	p = realloc(arr, ncap * elem);
	if (p)
		*cap = ncap;
	return p;
}

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

/* --------------------------------------------------- /proc/schedstat */

/*
 * The layouts, from kernel/sched/stats.c show_schedstat() and
 * Documentation/scheduler/sched-stats.rst of each version:
 *
 *	version N
 *	timestamp <jiffies>
 *	cpuN yld_count 0 sched_count sched_goidle ttwu_count ttwu_local
 *	     rq_cpu_time run_delay pcount			(all versions)
 *	domainN [name] <cpumask> <per idle type>x3 <12 more>
 *
 * <cpumask> is "%*pb": 32-bit hex chunks, most significant first, joined
 * by ','. Per idle type, in enum cpu_idle_type order:
 *	v15, v16: lb_count lb_balanced lb_failed lb_imbalance lb_gained
 *		  lb_hot_gained lb_nobusyq lb_nobusyg			(8)
 *	v17:	  lb_count lb_balanced lb_failed lb_imbalance_load
 *		  lb_imbalance_util lb_imbalance_task lb_imbalance_misfit
 *		  lb_gained lb_hot_gained lb_nobusyq lb_nobusyg		(11)
 * then alb_count alb_failed alb_pushed, sbe_count sbe_balanced
 * sbe_pushed, sbf_count sbf_balanced sbf_pushed (unused, not kept),
 * ttwu_wake_remote ttwu_move_affine ttwu_move_balance.
 *
 * v15 (until 6.9): enum cpu_idle_type { CPU_IDLE, CPU_NOT_IDLE,
 *	CPU_NEWLY_IDLE }: idle, busy, newly idle; 36 domain fields.
 * v16 (6.10, commits 38d707c54df4 "sched/balancing: Change 'enum
 *	cpu_idle_type' to have more natural definitions" and 11b0bfa5d463
 *	"sched/debug: Increase SCHEDSTAT_VERSION to 16"): { __CPU_NOT_IDLE
 *	= 0, CPU_IDLE, CPU_NEWLY_IDLE }: busy, idle, newly idle; still 36.
 *	(The v16 sched-stats.rst kept listing idle first until Adam Li's
 *	fix; the code is what counts.)
 * v17 (6.14, commits 3b2a793ea70f "sched: Report the different kinds
 *	of imbalances in /proc/schedstat", 1c055a0f5d3b "sched: Move sched
 *	domain name out of CONFIG_SCHED_DEBUG", 011b3a14dc66 "sched/stats:
 *	Print domain name in /proc/schedstat", 7c8cd569ff66 "docs: Update
 *	Schedstat version to 17"): "domain%d %s %*pb", the name always
 *	there; busy, idle, newly idle; 45 domain fields.
 *
 * Out-of-tree patches (Mel Gorman's sis_* counters, 2021) reused
 * versions 16-18 with more cpu fields: the exact counts refuse them.
 */
static const struct ss_layout {
	int version;
	bool names;
	bool split;			/* lb_imbalance_{load,util,task,misfit} */
	enum lb_idle order[LB_NR_IDLE];	/* idle types as printed */
} ss_layouts[] = {
	{ 15, false, false, { LB_IDLE, LB_BUSY, LB_NEWLY_IDLE } },
	{ 16, false, false, { LB_BUSY, LB_IDLE, LB_NEWLY_IDLE } },
	{ 17, true, true, { LB_BUSY, LB_IDLE, LB_NEWLY_IDLE } },
};

#define SS_CPU_FIELDS 9
#define SS_MAX_DOMAIN_FIELDS (3 * 11 + 12)

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "%*pb": "3", "0f", "00000000,00000003" (lib/vsprintf.c bitmap_string()) */
static int parse_span(struct span w, struct cpumask *m)
{
	size_t chunks = 1;

	memset(m, 0, sizeof(*m));
	for (const char *c = w.p; c < w.end; c++)
		chunks += *c == ',';
	if (chunks > CPUMASK_MAX_CPUS / 32)
		return -1;
	while (chunks--) {
		uint32_t x = 0;
		int n = 0, h;

		while (w.p < w.end && (h = hex_value(*w.p)) >= 0) {
			if (++n > 8)
				return -1;
			x = x << 4 | h;
			w.p++;
		}
		if (!n || (chunks ? !eat(&w, ",") : w.p != w.end))
			return -1;
		for (int b = 0; b < 32; b++)
			if (x >> b & 1)
				cpumask_set(m, chunks * 32 + b);
	}
	return 0;
}

int procfs_schedstat_version(const char *buf, size_t len)
{
	struct span in = span_of(buf, len), line;
	uint64_t v;

	if (next_line(&in, &line) != 1 || !eat(&line, "version") ||
	    !at_boundary(&line) || word_u64(&line, &v) || !at_end(&line) ||
	    v > INT_MAX)
		return -1;
	return v;
}

static int ss_cpu(struct span line, int prev, struct schedstat_cpu *c)
{
	uint64_t cpu, v[SS_CPU_FIELDS];

	if (digits(&line, &cpu, NULL) || !at_boundary(&line) ||
	    cpu >= CPUMASK_MAX_CPUS || (int)cpu <= prev)
		return -1;
	for (int i = 0; i < SS_CPU_FIELDS; i++)
		if (word_u64(&line, &v[i]))
			return -1;
	if (!at_end(&line))
		return -1;
	/* v[1] is the O(1) scheduler's expired count, always 0 */
	*c = (struct schedstat_cpu){
		.cpu = cpu,
		.yld_count = v[0],
		.sched_count = v[2],
		.sched_goidle = v[3],
		.ttwu_count = v[4],
		.ttwu_local = v[5],
		.rq_cpu_time_ns = v[6],
		.run_delay_ns = v[7],
		.pcount = v[8],
	};
	return 0;
}

static int ss_domain(struct span line, const struct ss_layout *lay,
		     int level, struct schedstat_domain *d)
{
	int per = lay->split ? 11 : 8, nr = 3 * per + 12;
	uint64_t v[SS_MAX_DOMAIN_FIELDS], n;
	struct span w;
	const uint64_t *f;

	memset(d, 0, sizeof(*d));
	if (digits(&line, &n, NULL) || !at_boundary(&line) || n != (uint64_t)level)
		return -1;
	d->level = level;
	if (lay->names) {
		if (word(&line, &w) || (size_t)(w.end - w.p) >= sizeof(d->name) ||
		    memchr(w.p, '\0', w.end - w.p))
			return -1;
		memcpy(d->name, w.p, w.end - w.p);
	}
	if (word(&line, &w) || parse_span(w, &d->span))
		return -1;
	for (int i = 0; i < nr; i++)
		if (word_u64(&line, &v[i]))
			return -1;
	if (!at_end(&line))
		return -1;
	f = v;
	for (int i = 0; i < LB_NR_IDLE; i++, f += per) {
		enum lb_idle t = lay->order[i];

		d->lb_count[t] = f[0];
		d->lb_balanced[t] = f[1];
		d->lb_failed[t] = f[2];
		if (lay->split) {
			d->lb_imbalance_load[t] = f[3];
			d->lb_imbalance_util[t] = f[4];
			d->lb_imbalance_task[t] = f[5];
			d->lb_imbalance_misfit[t] = f[6];
			d->lb_imbalance[t] = f[3];
			for (int k = 4; k <= 6; k++) {
				if (d->lb_imbalance[t] > UINT64_MAX - f[k])
					return -1;
				d->lb_imbalance[t] += f[k];
			}
		} else {
			d->lb_imbalance[t] = f[3];
		}
		/* the last four of a block, in every version */
		d->lb_gained[t] = f[per - 4];
		d->lb_hot_gained[t] = f[per - 3];
		d->lb_nobusyq[t] = f[per - 2];
		d->lb_nobusyg[t] = f[per - 1];
	}
	d->alb_count = f[0];
	d->alb_failed = f[1];
	d->alb_pushed = f[2];
	/* f[3..8]: sbe_* and sbf_*, "not used" */
	d->ttwu_wake_remote = f[9];
	d->ttwu_move_affine = f[10];
	d->ttwu_move_balance = f[11];
	return 0;
}

void schedstat_free(struct schedstat *s)
{
	free(s->cpus);
	free(s->domains);
	memset(s, 0, sizeof(*s));
}

int procfs_parse_schedstat(const char *buf, size_t len, struct schedstat *out)
{
	struct span in = span_of(buf, len), line;
	const struct ss_layout *lay = NULL;
	struct schedstat s = { 0 };
	size_t cpu_cap = 0, dom_cap = 0, k = 0;
	int version, r;

	memset(out, 0, sizeof(*out));
	version = procfs_schedstat_version(buf, len);
	for (size_t i = 0; i < sizeof(ss_layouts) / sizeof(ss_layouts[0]); i++)
		if (ss_layouts[i].version == version)
			lay = &ss_layouts[i];
	if (!lay)
		return -1;
	s.version = version;
	s.has_names = lay->names;
	s.imbalance_split = lay->split;
	next_line(&in, &line);		/* "version N", read above */
	if (next_line(&in, &line) != 1 || !eat(&line, "timestamp") ||
	    !at_boundary(&line) || word_u64(&line, &s.timestamp) ||
	    !at_end(&line))
		return -1;

	while ((r = next_line(&in, &line)) == 1) {
		if (eat(&line, "cpu")) {
			struct schedstat_cpu *c;
			int prev = s.nr_cpus ? s.cpus[s.nr_cpus - 1].cpu : -1;

			c = grow(s.cpus, &cpu_cap, s.nr_cpus, sizeof(*c));
			if (!c)
				goto fail;
			s.cpus = c;
			if (ss_cpu(line, prev, &s.cpus[s.nr_cpus]))
				goto fail;
			s.nr_cpus++;
		} else if (eat(&line, "domain") && s.nr_cpus) {
			struct schedstat_cpu *c = &s.cpus[s.nr_cpus - 1];
			struct schedstat_domain *d;

			d = grow(s.domains, &dom_cap, s.nr_domains, sizeof(*d));
			if (!d)
				goto fail;
			s.domains = d;
			if (ss_domain(line, lay, c->nr_domains,
				      &s.domains[s.nr_domains]))
				goto fail;
			s.nr_domains++;
			c->nr_domains++;
		} else {
			goto fail;
		}
	}
	if (r < 0 || !s.nr_cpus)
		goto fail;
	/* the domains moved while growing: point the CPUs at theirs now */
	for (int i = 0; i < s.nr_cpus; i++) {
		s.cpus[i].domains = s.cpus[i].nr_domains ? s.domains + k : NULL;
		k += s.cpus[i].nr_domains;
	}
	*out = s;
	return 0;
fail:
	schedstat_free(&s);
	return -1;
}
