// SPDX-License-Identifier: GPL-2.0-only
/*
 * procfs: every parser on the fixtures in tests/fixtures/proc (found from
 * $TOP, else "."): each field of each good fixture against literals, -1
 * for each broken one (cut mid-line and mid-number, garbage, empty, a
 * number past 64 bits, an unknown schedstat version, another parser's
 * file), and each good fixture cut at every byte offset or with a byte
 * replaced never crashing and never returning 0 with anything but an
 * exact part of the whole. Buffers are allocated to the byte, so under
 * `make asan` a read past len is caught.
 *
 * A fixture may start with '#' lines saying where its format comes from;
 * load() drops them and hands the parser only what the kernel would write.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probe/procfs.h"

struct text {
	char *buf;
	size_t len;
};

/* A copy of n bytes in a buffer of exactly n bytes (1 when n is 0). */
static char *dup_n(const char *p, size_t n)
{
	char *b = malloc(n ? n : 1);

	assert_non_null(b);
	memcpy(b, p, n);
	return b;
}

/* tests/fixtures/proc/NAME without its leading '#' lines. */
static struct text load(const char *name)
{
	const char *top = getenv("TOP");
	char path[4096], *all = NULL, *p;
	size_t len = 0, cap = 0, n;
	struct text t;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/proc/%s",
		 top && *top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			all = realloc(all, cap);
			assert_non_null(all);
		}
		n = fread(all + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	p = all;
	while (len && *p == '#') {
		char *nl = memchr(p, '\n', len);

		assert_non_null(nl);
		len -= nl + 1 - p;
		p = nl + 1;
	}
	t.buf = dup_n(p, len);
	t.len = len;
	free(all);
	return t;
}

#define assert_double(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* Big enough for any parser's result. */
static char result[1024];

/* ------------------------------------------------ the parsers, alike */

/* Each parser as "parse into a fresh result, compare with the whole". */
struct parser {
	const char *name;
	size_t size;				/* of its result */
	int (*parse)(const char *buf, size_t len, void *out);
	void (*release)(void *out);		/* NULL: nothing to free */
	/* a successful parse of a cut text: only an exact part of whole */
	void (*check_part)(const void *part, const void *whole);
};

static int parse_task_schedstat(const char *b, size_t n, void *o)
{
	return procfs_parse_task_schedstat(b, n, o);
}

static int parse_task_sched(const char *b, size_t n, void *o)
{
	return procfs_parse_task_sched(b, n, o);
}

static int parse_task_status(const char *b, size_t n, void *o)
{
	return procfs_parse_task_status(b, n, o);
}

static int parse_stat(const char *b, size_t n, void *o)
{
	return procfs_parse_stat(b, n, o);
}

static void release_stat(void *o)
{
	stat_cpus_free(o);
}

static int parse_psi(const char *b, size_t n, void *o)
{
	return procfs_parse_psi_cpu(b, n, o);
}

static int parse_schedstat(const char *b, size_t n, void *o)
{
	return procfs_parse_schedstat(b, n, o);
}

static void release_schedstat(void *o)
{
	schedstat_free(o);
}

static void part_task_schedstat(const void *part, const void *whole)
{
	(void)part;
	(void)whole;
	fail_msg("a cut task schedstat parsed");	/* one line: never */
}

/* Where each field of struct task_sched is, to compare what was read. */
static const size_t ts_off[TS_NR_FIELDS] = {
#define O(f, m) [f] = offsetof(struct task_sched, m)
	O(TS_SUM_EXEC_RUNTIME, sum_exec_runtime_ns),
	O(TS_NR_MIGRATIONS, nr_migrations),
	O(TS_NR_SWITCHES, nr_switches),
	O(TS_NR_VOLUNTARY_SWITCHES, nr_voluntary_switches),
	O(TS_NR_INVOLUNTARY_SWITCHES, nr_involuntary_switches),
	O(TS_POLICY, policy),
	O(TS_PRIO, prio),
	O(TS_SLICE, slice_ns),
	O(TS_SUM_SLEEP_RUNTIME, sum_sleep_runtime_ns),
	O(TS_SUM_BLOCK_RUNTIME, sum_block_runtime_ns),
	O(TS_SLEEP_MAX, sleep_max_ns),
	O(TS_BLOCK_MAX, block_max_ns),
	O(TS_EXEC_MAX, exec_max_ns),
	O(TS_SLICE_MAX, slice_max_ns),
	O(TS_WAIT_MAX, wait_max_ns),
	O(TS_WAIT_SUM, wait_sum_ns),
	O(TS_WAIT_COUNT, wait_count),
	O(TS_IOWAIT_SUM, iowait_sum_ns),
	O(TS_IOWAIT_COUNT, iowait_count),
	O(TS_NR_MIGRATIONS_COLD, nr_migrations_cold),
	O(TS_NR_FAILED_MIGRATIONS_AFFINE, nr_failed_migrations_affine),
	O(TS_NR_FAILED_MIGRATIONS_RUNNING, nr_failed_migrations_running),
	O(TS_NR_FAILED_MIGRATIONS_HOT, nr_failed_migrations_hot),
	O(TS_NR_FORCED_MIGRATIONS, nr_forced_migrations),
	O(TS_NR_WAKEUPS, nr_wakeups),
	O(TS_NR_WAKEUPS_SYNC, nr_wakeups_sync),
	O(TS_NR_WAKEUPS_MIGRATE, nr_wakeups_migrate),
	O(TS_NR_WAKEUPS_LOCAL, nr_wakeups_local),
	O(TS_NR_WAKEUPS_REMOTE, nr_wakeups_remote),
	O(TS_NR_WAKEUPS_AFFINE, nr_wakeups_affine),
	O(TS_NR_WAKEUPS_AFFINE_ATTEMPTS, nr_wakeups_affine_attempts),
	O(TS_NR_WAKEUPS_PASSIVE, nr_wakeups_passive),
	O(TS_NR_WAKEUPS_IDLE, nr_wakeups_idle),
	O(TS_CORE_FORCEIDLE_SUM, core_forceidle_sum_ns),
#undef O
};

static void part_task_sched(const void *part, const void *whole)
{
	const struct task_sched *p = part, *w = whole;

	assert_string_equal(p->comm, w->comm);
	assert_int_equal(p->pid, w->pid);
	assert_int_equal(p->nr_threads, w->nr_threads);
	assert_int_equal(p->have & TS_REQUIRED, TS_REQUIRED);
	assert_int_equal(p->have & ~w->have, 0);
	for (int f = 0; f < TS_NR_FIELDS; f++) {
		uint64_t a = 0, b;

		if (p->have & TS_BIT(f))
			memcpy(&b, (const char *)w + ts_off[f], 8);
		else
			b = 0;
		memcpy(&a, (const char *)p + ts_off[f], 8);
		assert_int_equal(a, b);
	}
}

static void part_task_status(const void *part, const void *whole)
{
	assert_memory_equal(part, whole, sizeof(struct task_status));
}

static void part_stat(const void *part, const void *whole)
{
	const struct stat_cpus *p = part, *w = whole;

	assert_memory_equal(&p->all, &w->all, sizeof(p->all));
	assert_int_equal(p->nr_cpus, w->nr_cpus);
	for (int c = 0; c < p->nr_cpus; c++) {
		assert_int_equal(p->present[c], w->present[c]);
		assert_memory_equal(&p->cpu[c], &w->cpu[c], sizeof(p->cpu[c]));
	}
}

static void part_psi(const void *part, const void *whole)
{
	const struct psi_cpu *p = part, *w = whole;

	assert_double(p->some_avg10, w->some_avg10);
	assert_double(p->some_avg60, w->some_avg60);
	assert_double(p->some_avg300, w->some_avg300);
	assert_int_equal(p->some_total_us, w->some_total_us);
	if (p->have_full) {
		assert_true(w->have_full);
		assert_double(p->full_avg10, w->full_avg10);
		assert_double(p->full_avg60, w->full_avg60);
		assert_double(p->full_avg300, w->full_avg300);
		assert_int_equal(p->full_total_us, w->full_total_us);
	}
}

static void check_domain(const struct schedstat_domain *d,
			 const struct schedstat_domain *e)
{
	assert_int_equal(d->level, e->level);
	assert_string_equal(d->name, e->name);
	assert_memory_equal(&d->span, &e->span, sizeof(d->span));
#define A(f) assert_memory_equal(d->f, e->f, sizeof(d->f))
	A(lb_count);
	A(lb_balanced);
	A(lb_failed);
	A(lb_imbalance);
	A(lb_imbalance_load);
	A(lb_imbalance_util);
	A(lb_imbalance_task);
	A(lb_imbalance_misfit);
	A(lb_gained);
	A(lb_hot_gained);
	A(lb_nobusyq);
	A(lb_nobusyg);
#undef A
	assert_int_equal(d->alb_count, e->alb_count);
	assert_int_equal(d->alb_failed, e->alb_failed);
	assert_int_equal(d->alb_pushed, e->alb_pushed);
	assert_int_equal(d->ttwu_wake_remote, e->ttwu_wake_remote);
	assert_int_equal(d->ttwu_move_affine, e->ttwu_move_affine);
	assert_int_equal(d->ttwu_move_balance, e->ttwu_move_balance);
}

static void check_cpu(const struct schedstat_cpu *c,
		      const struct schedstat_cpu *e)
{
	assert_int_equal(c->cpu, e->cpu);
	assert_int_equal(c->yld_count, e->yld_count);
	assert_int_equal(c->sched_count, e->sched_count);
	assert_int_equal(c->sched_goidle, e->sched_goidle);
	assert_int_equal(c->ttwu_count, e->ttwu_count);
	assert_int_equal(c->ttwu_local, e->ttwu_local);
	assert_int_equal(c->rq_cpu_time_ns, e->rq_cpu_time_ns);
	assert_int_equal(c->run_delay_ns, e->run_delay_ns);
	assert_int_equal(c->pcount, e->pcount);
}

static void part_schedstat(const void *part, const void *whole)
{
	const struct schedstat *p = part, *w = whole;

	assert_int_equal(p->version, w->version);
	assert_int_equal(p->timestamp, w->timestamp);
	assert_int_equal(p->has_names, w->has_names);
	assert_int_equal(p->imbalance_split, w->imbalance_split);
	assert_in_range(p->nr_cpus, 1, w->nr_cpus);
	for (int i = 0; i < p->nr_cpus; i++) {
		const struct schedstat_cpu *c = &p->cpus[i], *e = &w->cpus[i];

		check_cpu(c, e);
		/* only the last CPU block can have lost domains */
		if (i < p->nr_cpus - 1)
			assert_int_equal(c->nr_domains, e->nr_domains);
		else
			assert_in_range(c->nr_domains, 0, e->nr_domains);
		for (int d = 0; d < c->nr_domains; d++)
			check_domain(&c->domains[d], &e->domains[d]);
	}
}

static const struct parser parsers[] = {
	{ "task schedstat", sizeof(struct task_schedstat), parse_task_schedstat,
	  NULL, part_task_schedstat },
	{ "task sched", sizeof(struct task_sched), parse_task_sched, NULL,
	  part_task_sched },
	{ "task status", sizeof(struct task_status), parse_task_status, NULL,
	  part_task_status },
	{ "stat", sizeof(struct stat_cpus), parse_stat, release_stat, part_stat },
	{ "psi", sizeof(struct psi_cpu), parse_psi, NULL, part_psi },
	{ "schedstat", sizeof(struct schedstat), parse_schedstat,
	  release_schedstat, part_schedstat },
};

enum { P_SCHEDSTAT_TASK, P_SCHED, P_STATUS, P_STAT, P_PSI, P_SCHEDSTAT };

/* The good fixtures, and whose they are. */
static const struct good {
	const char *file;
	int parser;
} goods[] = {
	{ "task-schedstat.txt", P_SCHEDSTAT_TASK },
	{ "sched-6.18-noschedstats.txt", P_SCHED },
	{ "sched-schedstats.txt", P_SCHED },
	{ "sched-5.4-schedstats.txt", P_SCHED },
	{ "status.txt", P_STATUS },
	{ "stat.txt", P_STAT },
	{ "stat-gap.txt", P_STAT },
	{ "pressure-cpu.txt", P_PSI },
	{ "pressure-cpu-full.txt", P_PSI },
	{ "schedstat-v15.txt", P_SCHEDSTAT },
	{ "schedstat-v16.txt", P_SCHEDSTAT },
	{ "schedstat-v17.txt", P_SCHEDSTAT },
};

/* Parses n bytes of p (copied to the byte); *out holds the result on 0. */
static int run_parser(const struct parser *ps, const char *p, size_t n,
		      void *out)
{
	char *b = dup_n(p, n);
	int r;

	memset(out, 0xa5, ps->size);	/* -1 must leave it zero */
	r = ps->parse(b, n, out);
	free(b);
	if (r) {
		static const char zero[sizeof(result)];

		assert_int_equal(r, -1);
		assert_memory_equal(out, zero, ps->size);
	}
	return r;
}

/* --------------------------------------------------- good fixtures */

static void test_task_schedstat(void **state)
{
	struct text t = load("task-schedstat.txt");
	struct task_schedstat s;

	(void)state;
	assert_int_equal(procfs_parse_task_schedstat(t.buf, t.len, &s), 0);
	assert_int_equal(s.run_ns, 365127302);
	assert_int_equal(s.wait_ns, 1274600700);
	assert_int_equal(s.pcount, 1264);
	free(t.buf);
}

static void test_task_schedstat_edges(void **state)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ "1 2 3\n", 0 },
		{ "0 0 0\n", 0 },	/* sched_info off */
		{ "18446744073709551615 0 0\n", 0 },
		{ "18446744073709551616 0 0\n", -1 },
		{ "99999999999999999999 0 0\n", -1 },
		{ "1 2 3", -1 },
		{ "1 2\n", -1 },
		{ "1 2 3 4\n", -1 },
		{ "1 2 3\n4\n", -1 },
		{ "-1 2 3\n", -1 },
		{ "1 2 3x\n", -1 },
		{ "1 0x2 3\n", -1 },
		{ "", -1 },
		{ "\n", -1 },
	};
	struct task_schedstat s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *x = cases[i].text;

		if (procfs_parse_task_schedstat(x, strlen(x), &s) != cases[i].ret)
			fail_msg("\"%s\": expected %d", x, cases[i].ret);
	}
	assert_int_equal(procfs_parse_task_schedstat("1 2 3\n", 6, &s), 0);
	assert_int_equal(s.pcount, 3);
	/* a NUL inside is not a blank */
	assert_int_equal(procfs_parse_task_schedstat("1\0002 3\n", 7, &s), -1);
	assert_int_equal(procfs_parse_task_schedstat(NULL, 0, &s), -1);
}

static void test_sched_6_18(void **state)
{
	struct text t = load("sched-6.18-noschedstats.txt");
	struct task_sched s;

	(void)state;
	assert_int_equal(procfs_parse_task_sched(t.buf, t.len, &s), 0);
	assert_string_equal(s.comm, "bash");
	assert_int_equal(s.pid, 1217);
	assert_int_equal(s.nr_threads, 1);
	assert_int_equal(s.have, TS_REQUIRED | TS_BIT(TS_POLICY) |
			 TS_BIT(TS_PRIO) | TS_BIT(TS_SLICE));
	assert_int_equal(s.sum_exec_runtime_ns, 365127302);
	assert_int_equal(s.nr_migrations, 204);
	assert_int_equal(s.nr_switches, 1265);
	assert_int_equal(s.nr_voluntary_switches, 930);
	assert_int_equal(s.nr_involuntary_switches, 335);
	assert_int_equal(s.policy, 0);
	assert_int_equal(s.prio, 120);
	assert_int_equal(s.slice_ns, 1400000);
	assert_false(task_sched_has(&s, TS_WAIT_SUM));
	assert_int_equal(s.wait_sum_ns, 0);
	free(t.buf);
}

static void test_sched_schedstats(void **state)
{
	struct text t = load("sched-schedstats.txt");
	struct task_sched s;

	(void)state;
	assert_int_equal(procfs_parse_task_sched(t.buf, t.len, &s), 0);
	assert_string_equal(s.comm, "schbench");
	assert_int_equal(s.pid, 4242);
	assert_int_equal(s.nr_threads, 9);
	assert_int_equal(s.have, TS_BIT(TS_NR_FIELDS) - 1);	/* all */
	assert_int_equal(s.sum_exec_runtime_ns, 765127302);
	assert_int_equal(s.nr_migrations, 204);
	assert_int_equal(s.nr_switches, 1266);
	assert_int_equal(s.nr_voluntary_switches, 931);
	assert_int_equal(s.nr_involuntary_switches, 335);
	assert_int_equal(s.policy, 0);
	assert_int_equal(s.prio, 120);
	assert_int_equal(s.slice_ns, 2800000);
	assert_int_equal(s.sum_sleep_runtime_ns, 41234567890);
	assert_int_equal(s.sum_block_runtime_ns, 1234567891);
	assert_int_equal(s.sleep_max_ns, 987654321);
	assert_int_equal(s.block_max_ns, 87654322);
	assert_int_equal(s.exec_max_ns, 7654323);
	assert_int_equal(s.slice_max_ns, 3000004);
	assert_int_equal(s.wait_max_ns, 2345675);
	assert_int_equal(s.wait_sum_ns, 1274600706);
	assert_int_equal(s.wait_count, 1271);
	assert_int_equal(s.iowait_sum_ns, 456787);
	assert_int_equal(s.iowait_count, 7);
	assert_int_equal(s.nr_migrations_cold, 3);
	assert_int_equal(s.nr_failed_migrations_affine, 11);
	assert_int_equal(s.nr_failed_migrations_running, 12);
	assert_int_equal(s.nr_failed_migrations_hot, 13);
	assert_int_equal(s.nr_forced_migrations, 14);
	assert_int_equal(s.nr_wakeups, 929);
	assert_int_equal(s.nr_wakeups_sync, 21);
	assert_int_equal(s.nr_wakeups_migrate, 150);
	assert_int_equal(s.nr_wakeups_local, 700);
	assert_int_equal(s.nr_wakeups_remote, 229);
	assert_int_equal(s.nr_wakeups_affine, 40);
	assert_int_equal(s.nr_wakeups_affine_attempts, 90);
	assert_int_equal(s.nr_wakeups_passive, 5);
	assert_int_equal(s.nr_wakeups_idle, 6);
	assert_int_equal(s.core_forceidle_sum_ns, 12345);
	free(t.buf);
}

static void test_sched_5_4_prefixed(void **state)
{
	struct text t = load("sched-5.4-schedstats.txt");
	struct task_sched s;

	(void)state;
	assert_int_equal(procfs_parse_task_sched(t.buf, t.len, &s), 0);
	assert_string_equal(s.comm, "hackbench");
	assert_int_equal(s.pid, 3131);
	assert_int_equal(s.nr_threads, 1);
	assert_int_equal(s.have, (TS_BIT(TS_NR_FIELDS) - 1) &
			 ~(TS_BIT(TS_SUM_BLOCK_RUNTIME) | TS_BIT(TS_SLICE) |
			   TS_BIT(TS_CORE_FORCEIDLE_SUM)));
	assert_int_equal(s.sum_exec_runtime_ns, 5127302891);
	assert_int_equal(s.nr_migrations, 31);
	assert_int_equal(s.nr_switches, 466);
	assert_int_equal(s.nr_voluntary_switches, 430);
	assert_int_equal(s.nr_involuntary_switches, 36);
	assert_int_equal(s.policy, 1);
	assert_int_equal(s.prio, 89);
	assert_int_equal(s.slice_ns, 0);
	assert_int_equal(s.sum_sleep_runtime_ns, 9234567890);
	assert_int_equal(s.sum_block_runtime_ns, 0);
	assert_int_equal(s.sleep_max_ns, 187654321);
	assert_int_equal(s.block_max_ns, 17654322);
	assert_int_equal(s.exec_max_ns, 1654323);
	assert_int_equal(s.slice_max_ns, 4000004);
	assert_int_equal(s.wait_max_ns, 345675);
	assert_int_equal(s.wait_sum_ns, 74600706);
	assert_int_equal(s.wait_count, 467);
	assert_int_equal(s.iowait_sum_ns, 56787);
	assert_int_equal(s.iowait_count, 8);
	assert_int_equal(s.nr_migrations_cold, 4);
	assert_int_equal(s.nr_failed_migrations_affine, 15);
	assert_int_equal(s.nr_failed_migrations_running, 16);
	assert_int_equal(s.nr_failed_migrations_hot, 17);
	assert_int_equal(s.nr_forced_migrations, 18);
	assert_int_equal(s.nr_wakeups, 429);
	assert_int_equal(s.nr_wakeups_sync, 22);
	assert_int_equal(s.nr_wakeups_migrate, 51);
	assert_int_equal(s.nr_wakeups_local, 300);
	assert_int_equal(s.nr_wakeups_remote, 129);
	assert_int_equal(s.nr_wakeups_affine, 41);
	assert_int_equal(s.nr_wakeups_affine_attempts, 91);
	assert_int_equal(s.nr_wakeups_passive, 9);
	assert_int_equal(s.nr_wakeups_idle, 10);
	assert_int_equal(s.core_forceidle_sum_ns, 0);
	free(t.buf);
}

#define SCHED_HEAD "x (1, #threads: 1)\n---\n"
#define SCHED_REQ							\
	"se.sum_exec_runtime   :   1.000002\n"				\
	"se.nr_migrations      :   3\n"					\
	"nr_switches           :   4\n"					\
	"nr_voluntary_switches :   5\n"					\
	"nr_involuntary_switches : 6\n"

static void test_sched_edges(void **state)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ SCHED_HEAD SCHED_REQ, 0 },
		{ SCHED_HEAD SCHED_REQ "unknown key : anything at all\n", 0 },
		{ SCHED_HEAD SCHED_REQ "a line without a colon\n", 0 },
		{ SCHED_HEAD SCHED_REQ "prio : -5\n", 0 },
		{ "x (1, #threads: 1)\n" SCHED_REQ, -1 },	/* no dashes */
		{ "x 1, #threads: 1)\n---\n" SCHED_REQ, -1 },
		{ "x (1, threads: 1)\n---\n" SCHED_REQ, -1 },
		{ "x (1, #threads: 1) \n---\n" SCHED_REQ, -1 },
		{ SCHED_HEAD SCHED_REQ "nr_switches : 4\n", -1 },	/* twice */
		{ SCHED_HEAD SCHED_REQ "wait_sum : 1.000000\n"
		  "se.statistics.wait_sum : 1.000000\n", -1 },	/* twice */
		{ SCHED_HEAD "se.nr_migrations : 3\nnr_switches : 4\n"
		  "nr_voluntary_switches : 5\nnr_involuntary_switches : 6\n",
		  -1 },						/* no runtime */
		{ SCHED_HEAD SCHED_REQ "wait_sum : 1.00000\n", -1 },
		{ SCHED_HEAD SCHED_REQ "wait_sum : 1.0000000\n", -1 },
		{ SCHED_HEAD SCHED_REQ "wait_sum : 1\n", -1 },
		{ SCHED_HEAD SCHED_REQ "wait_sum : -1.000000\n", -1 },
		{ SCHED_HEAD SCHED_REQ "wait_count : 1.000000\n", -1 },
		{ SCHED_HEAD SCHED_REQ "wait_count : 7 8\n", -1 },
		{ SCHED_HEAD SCHED_REQ "wait_count :\n", -1 },
		{ SCHED_HEAD SCHED_REQ "se.statistics.se.nr_migrations : 1\n", 0 },
		{ SCHED_HEAD SCHED_REQ "prio : 9223372036854775808\n", -1 },
		{ SCHED_HEAD SCHED_REQ "prio : -9223372036854775808\n", 0 },
		{ SCHED_HEAD SCHED_REQ "prio : -9223372036854775809\n", -1 },
		{ SCHED_HEAD "se.sum_exec_runtime : 18446744073709.551615\n"
		  "se.nr_migrations : 3\nnr_switches : 4\n"
		  "nr_voluntary_switches : 5\nnr_involuntary_switches : 6\n", 0 },
	};
	struct task_sched s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *x = cases[i].text;

		if (procfs_parse_task_sched(x, strlen(x), &s) != cases[i].ret)
			fail_msg("case %zu \"%s\": expected %d", i, x,
				 cases[i].ret);
	}

	assert_int_equal(procfs_parse_task_sched(SCHED_HEAD SCHED_REQ,
		strlen(SCHED_HEAD SCHED_REQ), &s), 0);
	assert_int_equal(s.sum_exec_runtime_ns, 1000002);
	assert_int_equal(s.have, TS_REQUIRED);

	/* the largest runtime that fits, and a comm with parentheses */
	{
		const char *x = "a (b) c (12, #threads: 3)\n-\n"
			"se.sum_exec_runtime : 18446744073709.551615\n"
			"se.nr_migrations : 3\nnr_switches : 4\n"
			"nr_voluntary_switches : 5\nnr_involuntary_switches : 6\n";

		assert_int_equal(procfs_parse_task_sched(x, strlen(x), &s), 0);
		assert_string_equal(s.comm, "a (b) c");
		assert_int_equal(s.pid, 12);
		assert_int_equal(s.nr_threads, 3);
		assert_int_equal(s.sum_exec_runtime_ns, UINT64_MAX);
	}
}

static void test_status(void **state)
{
	struct text t = load("status.txt");
	struct task_status s;
	const char *dup = "voluntary_ctxt_switches:\t1\n"
		"nonvoluntary_ctxt_switches:\t2\n"
		"voluntary_ctxt_switches:\t1\n";
	const char *one = "voluntary_ctxt_switches:\t1\n";

	(void)state;
	assert_int_equal(procfs_parse_task_status(t.buf, t.len, &s), 0);
	assert_int_equal(s.voluntary_ctxt_switches, 930);
	assert_int_equal(s.nonvoluntary_ctxt_switches, 335);
	assert_int_equal(procfs_parse_task_status(dup, strlen(dup), &s), -1);
	assert_int_equal(procfs_parse_task_status(one, strlen(one), &s), -1);
	free(t.buf);
}

static void check_times(const struct cpu_times *t, uint64_t user,
			uint64_t nice, uint64_t system, uint64_t idle,
			uint64_t iowait, uint64_t irq, uint64_t softirq,
			uint64_t steal)
{
	assert_int_equal(t->user, user);
	assert_int_equal(t->nice, nice);
	assert_int_equal(t->system, system);
	assert_int_equal(t->idle, idle);
	assert_int_equal(t->iowait, iowait);
	assert_int_equal(t->irq, irq);
	assert_int_equal(t->softirq, softirq);
	assert_int_equal(t->steal, steal);
}

static void test_stat(void **state)
{
	struct text t = load("stat.txt");
	struct stat_cpus s;

	(void)state;
	assert_int_equal(procfs_parse_stat(t.buf, t.len, &s), 0);
	check_times(&s.all, 29411, 0, 235170, 387938, 729, 0, 389, 136);
	assert_int_equal(s.nr_cpus, 2);
	assert_true(s.present[0]);
	assert_true(s.present[1]);
	check_times(&s.cpu[0], 13021, 0, 116573, 196895, 87, 0, 93, 64);
	check_times(&s.cpu[1], 16389, 0, 118596, 191042, 642, 0, 296, 72);
	stat_cpus_free(&s);
	assert_null(s.cpu);
	free(t.buf);
}

static void test_stat_gap(void **state)
{
	struct text t = load("stat-gap.txt");
	struct stat_cpus s;

	(void)state;
	assert_int_equal(procfs_parse_stat(t.buf, t.len, &s), 0);
	check_times(&s.all, 15600, 35, 9500, 278000, 126, 0, 187, 25);
	assert_int_equal(s.nr_cpus, 4);
	assert_true(s.present[0]);
	assert_true(s.present[1]);
	assert_false(s.present[2]);
	assert_true(s.present[3]);
	check_times(&s.cpu[0], 5000, 10, 3000, 90000, 40, 0, 60, 7);
	check_times(&s.cpu[1], 5100, 11, 3100, 91000, 41, 0, 61, 8);
	check_times(&s.cpu[2], 0, 0, 0, 0, 0, 0, 0, 0);
	check_times(&s.cpu[3], 5300, 13, 3300, 93000, 43, 0, 63, 9);
	stat_cpus_free(&s);
	free(t.buf);
}

static void test_stat_edges(void **state)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ "cpu  1 2 3 4\ncpu0 1 2 3 4\nintr 0\n", 0 },
		{ "cpu  1 2 3 4\ncpu0 1 2 3 4\nintr 0", -1 },	/* cut */
		{ "cpu  1 2 3 4\ncpu0 1 2 3 4\n", -1 },		/* no intr */
		{ "cpu  1 2 3 4\nintr 0\n", -1 },		/* no CPU */
		{ "cpu0 1 2 3 4\nintr 0\n", -1 },		/* no "cpu" */
		{ "cpu  1 2 3 4\ncpu1 1 2 3 4\ncpu0 1 2 3 4\nintr 0\n", -1 },
		{ "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu0 1 2 3 4\nintr 0\n", -1 },
		{ "cpu  1 2 3 4\ncpu0 1 2 3\nintr 0\n", -1 },	/* 3 fields */
		{ "cpu  1 2 3 4\ncpu0x 1 2 3 4\nintr 0\n", -1 },
		{ "cpu  1 2 3 4\ncpu8192 1 2 3 4\nintr 0\n", -1 },
		{ "cpu  1 2 3 4\ncpu8191 1 2 3 4\nintr 0\n", 0 },
		{ "cpu  1 2 3 4\ncpu99999999999999999999 1 2 3 4\nintr 0\n", -1 },
		{ "cpu  1 2 3 4\ncpu0 1 2 3 4 x\nintr 0\n", -1 },
	};
	struct stat_cpus s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *x = cases[i].text;
		int r = procfs_parse_stat(x, strlen(x), &s);

		if (r != cases[i].ret)
			fail_msg("case %zu \"%s\": expected %d", i, x,
				 cases[i].ret);
		stat_cpus_free(&s);
	}
}

static void test_psi(void **state)
{
	struct text t = load("pressure-cpu.txt"), u = load("pressure-cpu-full.txt");
	struct psi_cpu p;

	(void)state;
	assert_int_equal(procfs_parse_psi_cpu(t.buf, t.len, &p), 0);
	assert_double(p.some_avg10, 1.23);
	assert_double(p.some_avg60, 4.56);
	assert_double(p.some_avg300, 7.89);
	assert_int_equal(p.some_total_us, 123456789);
	assert_false(p.have_full);
	assert_double(p.full_avg10, 0);
	assert_int_equal(p.full_total_us, 0);

	assert_int_equal(procfs_parse_psi_cpu(u.buf, u.len, &p), 0);
	assert_double(p.some_avg10, 35.19);
	assert_double(p.some_avg60, 11.99);
	assert_double(p.some_avg300, 11.33);
	assert_int_equal(p.some_total_us, 1129788885);
	assert_true(p.have_full);
	assert_double(p.full_avg10, 0);
	assert_double(p.full_avg60, 0);
	assert_double(p.full_avg300, 0);
	assert_int_equal(p.full_total_us, 0);
	free(t.buf);
	free(u.buf);
}

static void test_psi_edges(void **state)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 0 },
		{ "some avg10=100.99 avg60=0.00 avg300=0.00 total=0\n", 0 },
		{ "some avg10=0.0 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg10=0.000 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg10=0 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg60=0.00 avg10=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00\n", -1 },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=-1\n", -1 },
		{ "someavg10=0.00 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", -1 },
		{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=0 x\n", -1 },
	};
	struct psi_cpu p;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *x = cases[i].text;

		if (procfs_parse_psi_cpu(x, strlen(x), &p) != cases[i].ret)
			fail_msg("case %zu \"%s\": expected %d", i, x,
				 cases[i].ret);
	}
}

/*
 * /proc/schedstat: the expected domains come from the field numbers of
 * Documentation/scheduler/sched-stats.rst (domain d of the k-th CPU
 * block holds (k+1)*10000 + (d+1)*100 + field in each field) and each
 * version's idle-type order: v15 idle, busy, newly idle; v16 and v17
 * busy, idle, newly idle; v17 with 11 counters per type.
 */
static const struct schedstat_domain v15_domains[] = {
	/* cpu0 domain0 */
	{ .level = 0,
	  .lb_count = { [LB_BUSY] = 10109, [LB_IDLE] = 10101, [LB_NEWLY_IDLE] = 10117 },
	  .lb_balanced = { [LB_BUSY] = 10110, [LB_IDLE] = 10102, [LB_NEWLY_IDLE] = 10118 },
	  .lb_failed = { [LB_BUSY] = 10111, [LB_IDLE] = 10103, [LB_NEWLY_IDLE] = 10119 },
	  .lb_imbalance = { [LB_BUSY] = 10112, [LB_IDLE] = 10104, [LB_NEWLY_IDLE] = 10120 },
	  .lb_gained = { [LB_BUSY] = 10113, [LB_IDLE] = 10105, [LB_NEWLY_IDLE] = 10121 },
	  .lb_hot_gained = { [LB_BUSY] = 10114, [LB_IDLE] = 10106, [LB_NEWLY_IDLE] = 10122 },
	  .lb_nobusyq = { [LB_BUSY] = 10115, [LB_IDLE] = 10107, [LB_NEWLY_IDLE] = 10123 },
	  .lb_nobusyg = { [LB_BUSY] = 10116, [LB_IDLE] = 10108, [LB_NEWLY_IDLE] = 10124 },
	  .alb_count = 10125, .alb_failed = 10126, .alb_pushed = 10127,
	  .ttwu_wake_remote = 10134, .ttwu_move_affine = 10135, .ttwu_move_balance = 10136 },
	/* cpu0 domain1 */
	{ .level = 1,
	  .lb_count = { [LB_BUSY] = 10209, [LB_IDLE] = 10201, [LB_NEWLY_IDLE] = 10217 },
	  .lb_balanced = { [LB_BUSY] = 10210, [LB_IDLE] = 10202, [LB_NEWLY_IDLE] = 10218 },
	  .lb_failed = { [LB_BUSY] = 10211, [LB_IDLE] = 10203, [LB_NEWLY_IDLE] = 10219 },
	  .lb_imbalance = { [LB_BUSY] = 10212, [LB_IDLE] = 10204, [LB_NEWLY_IDLE] = 10220 },
	  .lb_gained = { [LB_BUSY] = 10213, [LB_IDLE] = 10205, [LB_NEWLY_IDLE] = 10221 },
	  .lb_hot_gained = { [LB_BUSY] = 10214, [LB_IDLE] = 10206, [LB_NEWLY_IDLE] = 10222 },
	  .lb_nobusyq = { [LB_BUSY] = 10215, [LB_IDLE] = 10207, [LB_NEWLY_IDLE] = 10223 },
	  .lb_nobusyg = { [LB_BUSY] = 10216, [LB_IDLE] = 10208, [LB_NEWLY_IDLE] = 10224 },
	  .alb_count = 10225, .alb_failed = 10226, .alb_pushed = 10227,
	  .ttwu_wake_remote = 10234, .ttwu_move_affine = 10235, .ttwu_move_balance = 10236 },
	/* cpu1 domain0 */
	{ .level = 0,
	  .lb_count = { [LB_BUSY] = 20109, [LB_IDLE] = 20101, [LB_NEWLY_IDLE] = 20117 },
	  .lb_balanced = { [LB_BUSY] = 20110, [LB_IDLE] = 20102, [LB_NEWLY_IDLE] = 20118 },
	  .lb_failed = { [LB_BUSY] = 20111, [LB_IDLE] = 20103, [LB_NEWLY_IDLE] = 20119 },
	  .lb_imbalance = { [LB_BUSY] = 20112, [LB_IDLE] = 20104, [LB_NEWLY_IDLE] = 20120 },
	  .lb_gained = { [LB_BUSY] = 20113, [LB_IDLE] = 20105, [LB_NEWLY_IDLE] = 20121 },
	  .lb_hot_gained = { [LB_BUSY] = 20114, [LB_IDLE] = 20106, [LB_NEWLY_IDLE] = 20122 },
	  .lb_nobusyq = { [LB_BUSY] = 20115, [LB_IDLE] = 20107, [LB_NEWLY_IDLE] = 20123 },
	  .lb_nobusyg = { [LB_BUSY] = 20116, [LB_IDLE] = 20108, [LB_NEWLY_IDLE] = 20124 },
	  .alb_count = 20125, .alb_failed = 20126, .alb_pushed = 20127,
	  .ttwu_wake_remote = 20134, .ttwu_move_affine = 20135, .ttwu_move_balance = 20136 },
	/* cpu1 domain1 */
	{ .level = 1,
	  .lb_count = { [LB_BUSY] = 20209, [LB_IDLE] = 20201, [LB_NEWLY_IDLE] = 20217 },
	  .lb_balanced = { [LB_BUSY] = 20210, [LB_IDLE] = 20202, [LB_NEWLY_IDLE] = 20218 },
	  .lb_failed = { [LB_BUSY] = 20211, [LB_IDLE] = 20203, [LB_NEWLY_IDLE] = 20219 },
	  .lb_imbalance = { [LB_BUSY] = 20212, [LB_IDLE] = 20204, [LB_NEWLY_IDLE] = 20220 },
	  .lb_gained = { [LB_BUSY] = 20213, [LB_IDLE] = 20205, [LB_NEWLY_IDLE] = 20221 },
	  .lb_hot_gained = { [LB_BUSY] = 20214, [LB_IDLE] = 20206, [LB_NEWLY_IDLE] = 20222 },
	  .lb_nobusyq = { [LB_BUSY] = 20215, [LB_IDLE] = 20207, [LB_NEWLY_IDLE] = 20223 },
	  .lb_nobusyg = { [LB_BUSY] = 20216, [LB_IDLE] = 20208, [LB_NEWLY_IDLE] = 20224 },
	  .alb_count = 20225, .alb_failed = 20226, .alb_pushed = 20227,
	  .ttwu_wake_remote = 20234, .ttwu_move_affine = 20235, .ttwu_move_balance = 20236 },
};

static const struct schedstat_domain v16_domains[] = {
	/* cpu0 domain0 */
	{ .level = 0,
	  .lb_count = { [LB_BUSY] = 10101, [LB_IDLE] = 10109, [LB_NEWLY_IDLE] = 10117 },
	  .lb_balanced = { [LB_BUSY] = 10102, [LB_IDLE] = 10110, [LB_NEWLY_IDLE] = 10118 },
	  .lb_failed = { [LB_BUSY] = 10103, [LB_IDLE] = 10111, [LB_NEWLY_IDLE] = 10119 },
	  .lb_imbalance = { [LB_BUSY] = 10104, [LB_IDLE] = 10112, [LB_NEWLY_IDLE] = 10120 },
	  .lb_gained = { [LB_BUSY] = 10105, [LB_IDLE] = 10113, [LB_NEWLY_IDLE] = 10121 },
	  .lb_hot_gained = { [LB_BUSY] = 10106, [LB_IDLE] = 10114, [LB_NEWLY_IDLE] = 10122 },
	  .lb_nobusyq = { [LB_BUSY] = 10107, [LB_IDLE] = 10115, [LB_NEWLY_IDLE] = 10123 },
	  .lb_nobusyg = { [LB_BUSY] = 10108, [LB_IDLE] = 10116, [LB_NEWLY_IDLE] = 10124 },
	  .alb_count = 10125, .alb_failed = 10126, .alb_pushed = 10127,
	  .ttwu_wake_remote = 10134, .ttwu_move_affine = 10135, .ttwu_move_balance = 10136 },
	/* cpu0 domain1 */
	{ .level = 1,
	  .lb_count = { [LB_BUSY] = 10201, [LB_IDLE] = 10209, [LB_NEWLY_IDLE] = 10217 },
	  .lb_balanced = { [LB_BUSY] = 10202, [LB_IDLE] = 10210, [LB_NEWLY_IDLE] = 10218 },
	  .lb_failed = { [LB_BUSY] = 10203, [LB_IDLE] = 10211, [LB_NEWLY_IDLE] = 10219 },
	  .lb_imbalance = { [LB_BUSY] = 10204, [LB_IDLE] = 10212, [LB_NEWLY_IDLE] = 10220 },
	  .lb_gained = { [LB_BUSY] = 10205, [LB_IDLE] = 10213, [LB_NEWLY_IDLE] = 10221 },
	  .lb_hot_gained = { [LB_BUSY] = 10206, [LB_IDLE] = 10214, [LB_NEWLY_IDLE] = 10222 },
	  .lb_nobusyq = { [LB_BUSY] = 10207, [LB_IDLE] = 10215, [LB_NEWLY_IDLE] = 10223 },
	  .lb_nobusyg = { [LB_BUSY] = 10208, [LB_IDLE] = 10216, [LB_NEWLY_IDLE] = 10224 },
	  .alb_count = 10225, .alb_failed = 10226, .alb_pushed = 10227,
	  .ttwu_wake_remote = 10234, .ttwu_move_affine = 10235, .ttwu_move_balance = 10236 },
	/* cpu1 domain0 */
	{ .level = 0,
	  .lb_count = { [LB_BUSY] = 20101, [LB_IDLE] = 20109, [LB_NEWLY_IDLE] = 20117 },
	  .lb_balanced = { [LB_BUSY] = 20102, [LB_IDLE] = 20110, [LB_NEWLY_IDLE] = 20118 },
	  .lb_failed = { [LB_BUSY] = 20103, [LB_IDLE] = 20111, [LB_NEWLY_IDLE] = 20119 },
	  .lb_imbalance = { [LB_BUSY] = 20104, [LB_IDLE] = 20112, [LB_NEWLY_IDLE] = 20120 },
	  .lb_gained = { [LB_BUSY] = 20105, [LB_IDLE] = 20113, [LB_NEWLY_IDLE] = 20121 },
	  .lb_hot_gained = { [LB_BUSY] = 20106, [LB_IDLE] = 20114, [LB_NEWLY_IDLE] = 20122 },
	  .lb_nobusyq = { [LB_BUSY] = 20107, [LB_IDLE] = 20115, [LB_NEWLY_IDLE] = 20123 },
	  .lb_nobusyg = { [LB_BUSY] = 20108, [LB_IDLE] = 20116, [LB_NEWLY_IDLE] = 20124 },
	  .alb_count = 20125, .alb_failed = 20126, .alb_pushed = 20127,
	  .ttwu_wake_remote = 20134, .ttwu_move_affine = 20135, .ttwu_move_balance = 20136 },
	/* cpu1 domain1 */
	{ .level = 1,
	  .lb_count = { [LB_BUSY] = 20201, [LB_IDLE] = 20209, [LB_NEWLY_IDLE] = 20217 },
	  .lb_balanced = { [LB_BUSY] = 20202, [LB_IDLE] = 20210, [LB_NEWLY_IDLE] = 20218 },
	  .lb_failed = { [LB_BUSY] = 20203, [LB_IDLE] = 20211, [LB_NEWLY_IDLE] = 20219 },
	  .lb_imbalance = { [LB_BUSY] = 20204, [LB_IDLE] = 20212, [LB_NEWLY_IDLE] = 20220 },
	  .lb_gained = { [LB_BUSY] = 20205, [LB_IDLE] = 20213, [LB_NEWLY_IDLE] = 20221 },
	  .lb_hot_gained = { [LB_BUSY] = 20206, [LB_IDLE] = 20214, [LB_NEWLY_IDLE] = 20222 },
	  .lb_nobusyq = { [LB_BUSY] = 20207, [LB_IDLE] = 20215, [LB_NEWLY_IDLE] = 20223 },
	  .lb_nobusyg = { [LB_BUSY] = 20208, [LB_IDLE] = 20216, [LB_NEWLY_IDLE] = 20224 },
	  .alb_count = 20225, .alb_failed = 20226, .alb_pushed = 20227,
	  .ttwu_wake_remote = 20234, .ttwu_move_affine = 20235, .ttwu_move_balance = 20236 },
};

static const struct schedstat_domain v17_domains[] = {
	/* cpu0 domain0 */
	{ .level = 0,
	  .lb_count = { [LB_BUSY] = 10101, [LB_IDLE] = 10112, [LB_NEWLY_IDLE] = 10123 },
	  .lb_balanced = { [LB_BUSY] = 10102, [LB_IDLE] = 10113, [LB_NEWLY_IDLE] = 10124 },
	  .lb_failed = { [LB_BUSY] = 10103, [LB_IDLE] = 10114, [LB_NEWLY_IDLE] = 10125 },
	  .lb_imbalance = { [LB_BUSY] = 40422, [LB_IDLE] = 40466, [LB_NEWLY_IDLE] = 40510 },
	  .lb_imbalance_load = { [LB_BUSY] = 10104, [LB_IDLE] = 10115, [LB_NEWLY_IDLE] = 10126 },
	  .lb_imbalance_util = { [LB_BUSY] = 10105, [LB_IDLE] = 10116, [LB_NEWLY_IDLE] = 10127 },
	  .lb_imbalance_task = { [LB_BUSY] = 10106, [LB_IDLE] = 10117, [LB_NEWLY_IDLE] = 10128 },
	  .lb_imbalance_misfit = { [LB_BUSY] = 10107, [LB_IDLE] = 10118, [LB_NEWLY_IDLE] = 10129 },
	  .lb_gained = { [LB_BUSY] = 10108, [LB_IDLE] = 10119, [LB_NEWLY_IDLE] = 10130 },
	  .lb_hot_gained = { [LB_BUSY] = 10109, [LB_IDLE] = 10120, [LB_NEWLY_IDLE] = 10131 },
	  .lb_nobusyq = { [LB_BUSY] = 10110, [LB_IDLE] = 10121, [LB_NEWLY_IDLE] = 10132 },
	  .lb_nobusyg = { [LB_BUSY] = 10111, [LB_IDLE] = 10122, [LB_NEWLY_IDLE] = 10133 },
	  .alb_count = 10134, .alb_failed = 10135, .alb_pushed = 10136,
	  .ttwu_wake_remote = 10143, .ttwu_move_affine = 10144, .ttwu_move_balance = 10145 },
	/* cpu0 domain1 */
	{ .level = 1,
	  .lb_count = { [LB_BUSY] = 10201, [LB_IDLE] = 10212, [LB_NEWLY_IDLE] = 10223 },
	  .lb_balanced = { [LB_BUSY] = 10202, [LB_IDLE] = 10213, [LB_NEWLY_IDLE] = 10224 },
	  .lb_failed = { [LB_BUSY] = 10203, [LB_IDLE] = 10214, [LB_NEWLY_IDLE] = 10225 },
	  .lb_imbalance = { [LB_BUSY] = 40822, [LB_IDLE] = 40866, [LB_NEWLY_IDLE] = 40910 },
	  .lb_imbalance_load = { [LB_BUSY] = 10204, [LB_IDLE] = 10215, [LB_NEWLY_IDLE] = 10226 },
	  .lb_imbalance_util = { [LB_BUSY] = 10205, [LB_IDLE] = 10216, [LB_NEWLY_IDLE] = 10227 },
	  .lb_imbalance_task = { [LB_BUSY] = 10206, [LB_IDLE] = 10217, [LB_NEWLY_IDLE] = 10228 },
	  .lb_imbalance_misfit = { [LB_BUSY] = 10207, [LB_IDLE] = 10218, [LB_NEWLY_IDLE] = 10229 },
	  .lb_gained = { [LB_BUSY] = 10208, [LB_IDLE] = 10219, [LB_NEWLY_IDLE] = 10230 },
	  .lb_hot_gained = { [LB_BUSY] = 10209, [LB_IDLE] = 10220, [LB_NEWLY_IDLE] = 10231 },
	  .lb_nobusyq = { [LB_BUSY] = 10210, [LB_IDLE] = 10221, [LB_NEWLY_IDLE] = 10232 },
	  .lb_nobusyg = { [LB_BUSY] = 10211, [LB_IDLE] = 10222, [LB_NEWLY_IDLE] = 10233 },
	  .alb_count = 10234, .alb_failed = 10235, .alb_pushed = 10236,
	  .ttwu_wake_remote = 10243, .ttwu_move_affine = 10244, .ttwu_move_balance = 10245 },
	/* cpu1 domain0 */
	{ .level = 0,
	  .lb_count = { [LB_BUSY] = 20101, [LB_IDLE] = 20112, [LB_NEWLY_IDLE] = 20123 },
	  .lb_balanced = { [LB_BUSY] = 20102, [LB_IDLE] = 20113, [LB_NEWLY_IDLE] = 20124 },
	  .lb_failed = { [LB_BUSY] = 20103, [LB_IDLE] = 20114, [LB_NEWLY_IDLE] = 20125 },
	  .lb_imbalance = { [LB_BUSY] = 80422, [LB_IDLE] = 80466, [LB_NEWLY_IDLE] = 80510 },
	  .lb_imbalance_load = { [LB_BUSY] = 20104, [LB_IDLE] = 20115, [LB_NEWLY_IDLE] = 20126 },
	  .lb_imbalance_util = { [LB_BUSY] = 20105, [LB_IDLE] = 20116, [LB_NEWLY_IDLE] = 20127 },
	  .lb_imbalance_task = { [LB_BUSY] = 20106, [LB_IDLE] = 20117, [LB_NEWLY_IDLE] = 20128 },
	  .lb_imbalance_misfit = { [LB_BUSY] = 20107, [LB_IDLE] = 20118, [LB_NEWLY_IDLE] = 20129 },
	  .lb_gained = { [LB_BUSY] = 20108, [LB_IDLE] = 20119, [LB_NEWLY_IDLE] = 20130 },
	  .lb_hot_gained = { [LB_BUSY] = 20109, [LB_IDLE] = 20120, [LB_NEWLY_IDLE] = 20131 },
	  .lb_nobusyq = { [LB_BUSY] = 20110, [LB_IDLE] = 20121, [LB_NEWLY_IDLE] = 20132 },
	  .lb_nobusyg = { [LB_BUSY] = 20111, [LB_IDLE] = 20122, [LB_NEWLY_IDLE] = 20133 },
	  .alb_count = 20134, .alb_failed = 20135, .alb_pushed = 20136,
	  .ttwu_wake_remote = 20143, .ttwu_move_affine = 20144, .ttwu_move_balance = 20145 },
	/* cpu1 domain1 */
	{ .level = 1,
	  .lb_count = { [LB_BUSY] = 20201, [LB_IDLE] = 20212, [LB_NEWLY_IDLE] = 20223 },
	  .lb_balanced = { [LB_BUSY] = 20202, [LB_IDLE] = 20213, [LB_NEWLY_IDLE] = 20224 },
	  .lb_failed = { [LB_BUSY] = 20203, [LB_IDLE] = 20214, [LB_NEWLY_IDLE] = 20225 },
	  .lb_imbalance = { [LB_BUSY] = 80822, [LB_IDLE] = 80866, [LB_NEWLY_IDLE] = 80910 },
	  .lb_imbalance_load = { [LB_BUSY] = 20204, [LB_IDLE] = 20215, [LB_NEWLY_IDLE] = 20226 },
	  .lb_imbalance_util = { [LB_BUSY] = 20205, [LB_IDLE] = 20216, [LB_NEWLY_IDLE] = 20227 },
	  .lb_imbalance_task = { [LB_BUSY] = 20206, [LB_IDLE] = 20217, [LB_NEWLY_IDLE] = 20228 },
	  .lb_imbalance_misfit = { [LB_BUSY] = 20207, [LB_IDLE] = 20218, [LB_NEWLY_IDLE] = 20229 },
	  .lb_gained = { [LB_BUSY] = 20208, [LB_IDLE] = 20219, [LB_NEWLY_IDLE] = 20230 },
	  .lb_hot_gained = { [LB_BUSY] = 20209, [LB_IDLE] = 20220, [LB_NEWLY_IDLE] = 20231 },
	  .lb_nobusyq = { [LB_BUSY] = 20210, [LB_IDLE] = 20221, [LB_NEWLY_IDLE] = 20232 },
	  .lb_nobusyg = { [LB_BUSY] = 20211, [LB_IDLE] = 20222, [LB_NEWLY_IDLE] = 20233 },
	  .alb_count = 20234, .alb_failed = 20235, .alb_pushed = 20236,
	  .ttwu_wake_remote = 20243, .ttwu_move_affine = 20244, .ttwu_move_balance = 20245 },
};


/* The CPUs of m as a cpulist, for comparing with literals. */
static const char *fmt(const struct cpumask *m)
{
	static char buf[256];

	cpulist_format(m, buf, sizeof(buf));
	return buf;
}

static void check_schedstat(const char *file, int version,
			    uint64_t timestamp,
			    const struct schedstat_cpu cpus[2],
			    const struct schedstat_domain doms[4],
			    const char *const names[4],
			    const char *const spans[4])
{
	struct text t = load(file);
	struct schedstat s;

	assert_int_equal(procfs_schedstat_version(t.buf, t.len), version);
	assert_int_equal(procfs_parse_schedstat(t.buf, t.len, &s), 0);
	assert_int_equal(s.version, version);
	assert_int_equal(s.timestamp, timestamp);
	assert_int_equal(s.has_names, version >= 17);
	assert_int_equal(s.imbalance_split, version >= 17);
	assert_int_equal(s.nr_cpus, 2);
	assert_int_equal(s.nr_domains, 4);
	for (int k = 0; k < 2; k++) {
		const struct schedstat_cpu *c = &s.cpus[k];

		check_cpu(c, &cpus[k]);
		assert_int_equal(c->nr_domains, 2);
		assert_ptr_equal(c->domains, s.domains + 2 * k);
		for (int d = 0; d < 2; d++) {
			struct schedstat_domain e = doms[2 * k + d];

			strcpy(e.name, names[2 * k + d]);
			assert_true(cpulist_parse(spans[2 * k + d], &e.span) > 0);
			assert_string_equal(fmt(&c->domains[d].span), spans[2 * k + d]);
			check_domain(&c->domains[d], &e);
		}
	}
	schedstat_free(&s);
	assert_null(s.cpus);
	free(t.buf);
}

static const struct schedstat_cpu cpus_1e12[2] = {
	{ .cpu = 0, .yld_count = 1001, .sched_count = 1003,
	  .sched_goidle = 1004, .ttwu_count = 1005, .ttwu_local = 1006,
	  .rq_cpu_time_ns = 1000000000007, .run_delay_ns = 1000000000008,
	  .pcount = 1009 },
	{ .cpu = 1, .yld_count = 2001, .sched_count = 2003,
	  .sched_goidle = 2004, .ttwu_count = 2005, .ttwu_local = 2006,
	  .rq_cpu_time_ns = 2000000000007, .run_delay_ns = 2000000000008,
	  .pcount = 2009 },
};

static const char *const no_names[4] = { "", "", "", "" };

static void test_schedstat_v15(void **state)
{
	static const char *const spans[4] = { "0,2", "0-3", "1,3", "0-3" };

	(void)state;
	check_schedstat("schedstat-v15.txt", 15, 4295123456, cpus_1e12,
			v15_domains, no_names, spans);
}

static void test_schedstat_v16(void **state)
{
	static const char *const spans[4] = { "0,4", "0-7", "1,5", "0-7" };

	(void)state;
	check_schedstat("schedstat-v16.txt", 16, 4296234567, cpus_1e12,
			v16_domains, no_names, spans);
}

static void test_schedstat_v17(void **state)
{
	static const char *const names[4] = { "SMT", "MC", "SMT", "MC" };
	static const char *const spans[4] = {
		"0,2", "0-3,32-35", "1,3", "0-3,32-35"
	};
	struct schedstat_cpu cpus[2] = { cpus_1e12[0], cpus_1e12[1] };

	(void)state;
	cpus[1].run_delay_ns = UINT64_MAX;
	check_schedstat("schedstat-v17.txt", 17, 4297345678, cpus,
			v17_domains, names, spans);
}

#define V16_DOM "domain0 3 " \
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 " \
	"25 26 27 28 29 30 31 32 33 34 35 36\n"
#define V16_CPU "cpu0 1 0 3 4 5 6 7 8 9\n"

static void test_schedstat_edges(void **state)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ "version 16\ntimestamp 1\n" V16_CPU V16_DOM, 0 },
		{ "version 16\ntimestamp 1\n" V16_CPU, 0 },	/* no domains */
		{ "version 16\ntimestamp 1\n", -1 },		/* no CPUs */
		{ "version 16\n" V16_CPU V16_DOM, -1 },	/* no timestamp */
		{ "timestamp 1\nversion 16\n" V16_CPU, -1 },
		{ "version 14\ntimestamp 1\n" V16_CPU V16_DOM, -1 },
		{ "version 16\ntimestamp 1\n" V16_DOM V16_CPU, -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU V16_DOM V16_DOM, -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU V16_CPU, -1 },
		{ "version 16\ntimestamp 1\ncpu1 1 0 3 4 5 6 7 8 9\n" V16_CPU, -1 },
		{ "version 16\ntimestamp 1\ncpu0 1 0 3 4 5 6 7 8\n", -1 },
		/* sis_* counters of an out-of-tree patch: 15 cpu fields */
		{ "version 16\ntimestamp 1\ncpu0 1 0 3 4 5 6 7 8 9 1 2 3 4 5 6\n", -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU "domain0 3 1 2 3\n", -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU "domain0 " V16_DOM, -1 },
		/* a v17 line (with a name) under version 16, and the reverse */
		{ "version 16\ntimestamp 1\n" V16_CPU "domain0 MC 3 "
		  "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 "
		  "25 26 27 28 29 30 31 32 33 34 35 36\n", -1 },
		{ "version 17\ntimestamp 1\n" V16_CPU V16_DOM, -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU "domain0 123456789 "
		  "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 "
		  "25 26 27 28 29 30 31 32 33 34 35 36\n", -1 },	/* 9 digits */
		{ "version 16\ntimestamp 1\n" V16_CPU "domain0 ,3 "
		  "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 "
		  "25 26 27 28 29 30 31 32 33 34 35 36\n", -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU "domain0 3g "
		  "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 "
		  "25 26 27 28 29 30 31 32 33 34 35 36\n", -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU "garbage\n", -1 },
		{ "version 16\ntimestamp 1\n" V16_CPU V16_DOM "\n", -1 },
	};
	struct schedstat s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *x = cases[i].text;
		int r = procfs_parse_schedstat(x, strlen(x), &s);

		if (r != cases[i].ret)
			fail_msg("case %zu \"%s\": expected %d", i, x,
				 cases[i].ret);
		schedstat_free(&s);
	}
	assert_int_equal(procfs_schedstat_version("version 14\n", 11), 14);
	assert_int_equal(procfs_schedstat_version("version 14", 10), -1);
	assert_int_equal(procfs_schedstat_version("version14\n", 10), -1);
	assert_int_equal(procfs_schedstat_version("", 0), -1);
}

static void test_schedstat_v17_sum_overflow(void **state)
{
	/* lb_imbalance is the sum of the four kinds: past 64 bits, refused */
	static const char head[] = "version 17\ntimestamp 1\n" V16_CPU
		"domain0 MC 3 0 0 0 18446744073709551615 1 0 0";
	char x[1024];
	int n;
	struct schedstat s;

	(void)state;
	n = snprintf(x, sizeof(x), "%s", head);
	for (int i = 7; i < 45; i++)
		n += snprintf(x + n, sizeof(x) - n, " 0");
	n += snprintf(x + n, sizeof(x) - n, "\n");
	assert_int_equal(procfs_parse_schedstat(x, n, &s), -1);
	/* and with 0 in place of the 1 it fits */
	x[strlen(head) - 5] = '0';
	assert_int_equal(procfs_parse_schedstat(x, n, &s), 0);
	assert_int_equal(s.domains[0].lb_imbalance[LB_BUSY], UINT64_MAX);
	assert_int_equal(s.domains[0].lb_imbalance_load[LB_BUSY], UINT64_MAX);
	schedstat_free(&s);
}

/* ---------------------------------------------------- broken fixtures */

static const struct broken {
	const char *file;
	int parser;
} brokens[] = {
	{ "task-schedstat-cut-line.txt", P_SCHEDSTAT_TASK },
	{ "task-schedstat-cut-number.txt", P_SCHEDSTAT_TASK },
	{ "task-schedstat-overflow.txt", P_SCHEDSTAT_TASK },
	{ "sched-6.18-noschedstats-cut-line.txt", P_SCHED },
	{ "sched-6.18-noschedstats-cut-number.txt", P_SCHED },
	{ "sched-schedstats-cut-line.txt", P_SCHED },
	{ "sched-schedstats-cut-number.txt", P_SCHED },
	{ "sched-5.4-schedstats-cut-line.txt", P_SCHED },
	{ "sched-5.4-schedstats-cut-number.txt", P_SCHED },
	{ "sched-overflow.txt", P_SCHED },
	{ "sched-overflow-ms.txt", P_SCHED },
	{ "status-cut-line.txt", P_STATUS },
	{ "status-cut-number.txt", P_STATUS },
	{ "status-overflow.txt", P_STATUS },
	{ "stat-cut-line.txt", P_STAT },
	{ "stat-cut-number.txt", P_STAT },
	{ "stat-gap-cut-line.txt", P_STAT },
	{ "stat-gap-cut-number.txt", P_STAT },
	{ "stat-overflow.txt", P_STAT },
	{ "pressure-cpu-cut-line.txt", P_PSI },
	{ "pressure-cpu-cut-number.txt", P_PSI },
	{ "pressure-cpu-full-cut-line.txt", P_PSI },
	{ "pressure-cpu-full-cut-number.txt", P_PSI },
	{ "pressure-cpu-overflow.txt", P_PSI },
	{ "schedstat-v15-cut-line.txt", P_SCHEDSTAT },
	{ "schedstat-v15-cut-number.txt", P_SCHEDSTAT },
	{ "schedstat-v16-cut-line.txt", P_SCHEDSTAT },
	{ "schedstat-v16-cut-number.txt", P_SCHEDSTAT },
	{ "schedstat-v17-cut-line.txt", P_SCHEDSTAT },
	{ "schedstat-v17-cut-number.txt", P_SCHEDSTAT },
	{ "schedstat-overflow.txt", P_SCHEDSTAT },
	{ "schedstat-v18.txt", P_SCHEDSTAT },
};

static void test_broken_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(brokens) / sizeof(brokens[0]); i++) {
		const struct parser *ps = &parsers[brokens[i].parser];
		struct text t = load(brokens[i].file);

		if (run_parser(ps, t.buf, t.len, result) != -1)
			fail_msg("%s: %s parsed it", brokens[i].file, ps->name);
		free(t.buf);
	}
	/* an unknown version is still named, for the caller to say so */
	{
		struct text t = load("schedstat-v18.txt");

		assert_int_equal(procfs_schedstat_version(t.buf, t.len), 18);
		free(t.buf);
	}
}

/* Empty and random bytes, and each good file fed to the other parsers. */
static void test_garbage_everywhere(void **state)
{
	static const char *const junk[] = { "empty.txt", "garbage.bin" };

	(void)state;
	for (size_t p = 0; p < sizeof(parsers) / sizeof(parsers[0]); p++) {
		const struct parser *ps = &parsers[p];

		for (size_t j = 0; j < sizeof(junk) / sizeof(junk[0]); j++) {
			struct text t = load(junk[j]);

			if (run_parser(ps, t.buf, t.len, result) != -1)
				fail_msg("%s: %s parsed it", junk[j], ps->name);
			free(t.buf);
		}
		for (size_t g = 0; g < sizeof(goods) / sizeof(goods[0]); g++) {
			struct text t;

			if (goods[g].parser == (int)p)
				continue;
			t = load(goods[g].file);
			if (run_parser(ps, t.buf, t.len, result) != -1)
				fail_msg("%s: %s parsed it", goods[g].file,
					 ps->name);
			free(t.buf);
		}
	}
}

/* ------------------------------------------- cut and damaged fixtures */

static void test_cut_everywhere(void **state)
{
	(void)state;
	assert_true(sizeof(struct task_sched) <= sizeof(result));
	for (size_t g = 0; g < sizeof(goods) / sizeof(goods[0]); g++) {
		const struct parser *ps = &parsers[goods[g].parser];
		struct text t = load(goods[g].file);
		static char whole[sizeof(result)];

		if (run_parser(ps, t.buf, t.len, whole))
			fail_msg("%s: %s refused it", goods[g].file, ps->name);
		for (size_t n = 0; n < t.len; n++) {
			if (run_parser(ps, t.buf, n, result))
				continue;
			/* a cut that parsed ends a line, and is a part */
			if (n && t.buf[n - 1] != '\n')
				fail_msg("%s cut at %zu: parsed", goods[g].file, n);
			ps->check_part(result, whole);
			if (ps->release)
				ps->release(result);
		}
		if (ps->release)
			ps->release(whole);
		free(t.buf);
	}
}

/* Any byte replaced by a few telling ones: no crash, no read past len. */
static void test_damage_everywhere(void **state)
{
	static const char bytes[] = { '\0', '\n', ' ', '9', 'x' };

	(void)state;
	for (size_t g = 0; g < sizeof(goods) / sizeof(goods[0]); g++) {
		const struct parser *ps = &parsers[goods[g].parser];
		struct text t = load(goods[g].file);

		for (size_t n = 0; n < t.len; n++) {
			char *b = dup_n(t.buf, t.len);

			for (size_t k = 0; k < sizeof(bytes); k++) {
				b[n] = bytes[k];
				memset(result, 0, sizeof(result));
				if (!ps->parse(b, t.len, result) && ps->release)
					ps->release(result);
			}
			free(b);
		}
		free(t.buf);
	}
}

static void test_ts_offsets_complete(void **state)
{
	(void)state;
	/* every field but the first has a place after comm */
	for (int f = 0; f < TS_NR_FIELDS; f++)
		assert_true(ts_off[f] >= offsetof(struct task_sched, have) + 8);
	assert_true(TS_NR_FIELDS <= 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_schedstat),
		cmocka_unit_test(test_task_schedstat_edges),
		cmocka_unit_test(test_sched_6_18),
		cmocka_unit_test(test_sched_schedstats),
		cmocka_unit_test(test_sched_5_4_prefixed),
		cmocka_unit_test(test_sched_edges),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_stat_gap),
		cmocka_unit_test(test_stat_edges),
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_psi_edges),
		cmocka_unit_test(test_schedstat_v15),
		cmocka_unit_test(test_schedstat_v16),
		cmocka_unit_test(test_schedstat_v17),
		cmocka_unit_test(test_schedstat_edges),
		cmocka_unit_test(test_schedstat_v17_sum_overflow),
		cmocka_unit_test(test_broken_fixtures),
		cmocka_unit_test(test_garbage_everywhere),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_damage_everywhere),
		cmocka_unit_test(test_ts_offsets_complete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
