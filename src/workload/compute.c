// SPDX-License-Identifier: GPL-2.0-only
/*
 * compute: the AIM7 "multiuser compute" measure with schedlab's own job
 * mix. N tasks (processes) are released together; each runs the same
 * sequence of J jobs and notes when it finished. Real is the time from
 * the release to the last finish, CPU the tasks' user + system time,
 * Jobs/Min = J x N / Real x 60, Jobs/sec/task = J / Real, and the job
 * timing index JTI = (1 - sigma / mean) x 100 of the finish times,
 * truncated (AIM7's formula): 100 when all tasks finish together, lower
 * when the scheduler favoured some.
 *
 * AIM7's workfile is not public: the mix is schedlab's, named and
 * versioned (the "mix" parameter, stored with every result), so results
 * of different mixes never compare and none passes for AIM7's.
 *
 * Mix compute-v1 (doc/schedlab.1): a cycle of 10 jobs - integer,
 * floating point, integer, memory walk, floating point, integer, sleep,
 * integer, floating point, memory walk - job j being kind j mod 10:
 *   integer  2^20 rounds of a xorshift64 step, a multiply and a modulo
 *   float    2^19 rounds of a Newton step for 1/sqrt(x) and a polynomial
 *   memory   2^18 steps of a pointer chase through a 2 MiB random cycle
 *            (the task's own, built before the release)
 *   sleep    1 ms (nanosleep): the task blocks and is woken
 * Every task does the same work; each job is a few milliseconds on a
 * current x86 core.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "probe/cpus.h"
#include "workload/compute.h"
#include "workload/registry.h"
#include "util.h"

const char *const compute_mix_names[] = { "compute-v1", NULL };

enum job_kind { JOB_INT, JOB_FP, JOB_MEM, JOB_SLEEP };

static const enum job_kind mix_v1[10] = {
	JOB_INT, JOB_FP, JOB_INT, JOB_MEM, JOB_FP,
	JOB_INT, JOB_SLEEP, JOB_INT, JOB_FP, JOB_MEM,
};

#define INT_ROUNDS	(1u << 20)
#define FP_ROUNDS	(1u << 19)
#define MEM_WORDS	(2u * 1024 * 1024 / sizeof(size_t))	/* 2 MiB */
#define MEM_STEPS	(1u << 18)
#define SLEEP_NS	1000000

struct cmp_task {
	unsigned nr;
	const struct compute_cfg *cfg;
	struct wl_ctx *ctx;
	const struct barrier *barrier;
	uint64_t *finish;	/* shared: one per task */
	const struct cpumask *cpus;	/* NULL: not pinned */
	size_t *ring;		/* the memory walk's cycle */
	volatile uint64_t sink;	/* results land here: nothing is optimised out */
};

static uint64_t job_int(uint64_t x)
{
	uint64_t acc = 0;

	for (unsigned i = 0; i < INT_ROUNDS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc += (x * 2654435761u) % 1000003;
	}
	return acc;
}

static uint64_t job_fp(double x)
{
	double y = 1, p = 0;

	for (unsigned i = 0; i < FP_ROUNDS; i++) {
		y = y * (1.5 - 0.5 * x * y * y);	/* -> 1 / sqrt(x) */
		p = ((p * 0.5 + y) * 0.25 + x) * 0.125;
		x += 1e-9;
	}
	return (uint64_t)(p * 1e6 + y * 1e6);
}

static uint64_t job_mem(const size_t *ring)
{
	size_t i = 0;

	for (unsigned s = 0; s < MEM_STEPS; s++)
		i = ring[i];
	return i;
}

static void job_sleep(void)
{
	struct timespec ts = { 0, SLEEP_NS };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A random cycle through all words (Sattolo's shuffle): every step a miss. */
static size_t *make_ring(unsigned seed)
{
	size_t *r = xcalloc(MEM_WORDS, sizeof(*r));
	uint64_t x = 0x9e3779b97f4a7c15ull ^ seed;

	for (size_t i = 0; i < MEM_WORDS; i++)
		r[i] = i;
	for (size_t i = MEM_WORDS - 1; i > 0; i--) {
		size_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % i;
		t = r[i];
		r[i] = r[j];
		r[j] = t;
	}
	return r;
}

static int task_main(void *arg)
{
	struct cmp_task *t = arg;
	bool probing = wl_probing(t->ctx);

	if (t->cpus && sched_setaffinity(0, sizeof(*t->cpus),
					 (const cpu_set_t *)t->cpus))
		return wl_fail_errno(t->ctx, "compute: task %u: sched_setaffinity",
				     t->nr + 1);
	t->ring = make_ring(t->nr);
	if (barrier_worker(t->barrier, t->ctx))
		return -1;
	for (unsigned j = 0; j < t->cfg->jobs; j++) {
		switch (mix_v1[j % 10]) {
		case JOB_INT:
			t->sink += job_int(j + 1);
			break;
		case JOB_FP:
			t->sink += job_fp(2.0 + j);
			break;
		case JOB_MEM:
			t->sink += job_mem(t->ring);
			break;
		case JOB_SLEEP:
			job_sleep();
			break;
		}
		if (probing)
			wl_message(t->ctx);
	}
	t->finish[t->nr] = now_ns();
	free(t->ring);
	return 0;
}

/* AIM7's job timing index: (1 - sigma / mean) x 100, truncated, >= 0. */
static int jti(const double *x, unsigned n)
{
	double mean = 0, var = 0, v;

	for (unsigned i = 0; i < n; i++)
		mean += x[i];
	mean /= n;
	for (unsigned i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	var /= n;		/* population: all the tasks there are */
	if (mean <= 0)
		return 100;
	v = floor((1 - sqrt(var) / mean) * 100 + 1e-9);
	return v < 0 ? 0 : (int)v;
}

/*
 * --pin-one CPU: task 1 alone on CPU, every other task on the other
 * CPUs this process may use. Fills one and rest; 0, or -1 with *why.
 */
static int pin_masks(const char *spec, struct cpumask *one,
		     struct cpumask *rest, const char **why)
{
	cpu_set_t allowed;
	char *end;
	unsigned long cpu;

	errno = 0;
	cpu = strtoul(spec, &end, 10);
	if (errno || *end || end == spec || cpu >= CPUMASK_MAX_CPUS) {
		*why = "is not a CPU number";
		return -1;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		*why = "cannot read this process's CPUs (sched_getaffinity)";
		return -1;
	}
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)) {
		*why = "is not a CPU this process may run on";
		return -1;
	}
	memset(one, 0, sizeof(*one));
	memset(rest, 0, sizeof(*rest));
	cpumask_set(one, (int)cpu);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (c != (int)cpu && CPU_ISSET(c, &allowed))
			cpumask_set(rest, c);
	if (!cpumask_weight(rest)) {
		*why = "leaves no other CPU for the other tasks";
		return -1;
	}
	return 0;
}

static bool pinned(const struct compute_cfg *cfg)
{
	return strcmp(cfg->pin_one, "none") != 0;
}

static int compute_run(const void *cfgp, struct wl_ctx *ctx,
		       struct wl_result *res)
{
	const struct compute_cfg *cfg = cfgp;
	unsigned n = cfg->tasks;
	struct cpumask *one = NULL, *rest = NULL;
	struct rusage ru;
	struct cmp_task *tk;
	struct barrier b;
	struct tasks t;
	uint64_t *finish, start;
	double *fin, real, first;
	const char *why;

	finish = mmap(NULL, n * sizeof(*finish), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (finish == MAP_FAILED)
		return wl_fail_errno(ctx, "compute: shared memory for %u tasks", n);
	if (pinned(cfg)) {
		one = xcalloc(1, sizeof(*one));
		rest = xcalloc(1, sizeof(*rest));
		if (pin_masks(cfg->pin_one, one, rest, &why))
			return wl_fail(ctx, "compute: --pin-one %s %s",
				       cfg->pin_one, why);
	}
	if (pipe(b.ready) || pipe(b.wake))
		return wl_fail_errno(ctx, "compute: pipe for the start barrier");
	tk = xcalloc(n, sizeof(*tk));
	if (tasks_init(&t, TASK_PROCESS, n, 0, ctx) ||
	    tasks_use_barrier(&t, &b))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		tk[i] = (struct cmp_task){ .nr = i, .cfg = cfg, .ctx = ctx,
					   .barrier = &b, .finish = finish };
		if (one)
			tk[i].cpus = i == 0 ? one : rest;
		if (tasks_spawn(&t, task_main, &tk[i]))
			return -1;
	}
	if (tasks_wait_ready(&t))
		return -1;
	wl_clock_start(ctx);
	start = now_ns();
	if (tasks_release(&t) || tasks_reap(&t))
		return -1;
	wl_clock_stop(ctx);

	/* the tasks are reaped: the children's times are theirs alone */
	getrusage(RUSAGE_CHILDREN, &ru);
	fin = xcalloc(n, sizeof(*fin));
	real = 0;
	first = INFINITY;
	for (unsigned i = 0; i < n; i++) {
		fin[i] = (double)(finish[i] - start) / 1e9;
		real = fin[i] > real ? fin[i] : real;
		first = fin[i] < first ? fin[i] : first;
	}
	wl_set(res, CMP_REAL, real);
	wl_set(res, CMP_CPU, tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime));
	wl_set(res, CMP_JOBS_PER_MIN, (double)cfg->jobs * n / real * 60);
	wl_set(res, CMP_JOBS_PER_SEC_TASK, (double)cfg->jobs / real);
	wl_set(res, CMP_JTI, jti(fin, n));
	wl_set(res, CMP_FIRST, first);

	tasks_free(&t);
	munmap(finish, n * sizeof(*finish));
	free(fin);
	free(tk);
	free(one);
	free(rest);
	return 0;
}

static int compute_prepare(const void *cfgp)
{
	const struct compute_cfg *cfg = cfgp;
	struct cpumask one, rest;
	const char *why;

	if (pinned(cfg) && pin_masks(cfg->pin_one, &one, &rest, &why)) {
		error("compute: option --pin-one '%s' %s (a CPU number, or none)",
		      cfg->pin_one, why);
		return EXIT_USAGE;
	}
	return 0;
}

#define O(f) offsetof(struct compute_cfg, f)
static const struct opt_def compute_options[] = {
	{ .name = "tasks", .type = OPT_UINT, .offset = O(tasks), .def = "1",
	  .min = 1, .max = 100000, .arg = "NUM", .short_flag = 'n',
	  .help = "tasks (processes) released together, AIM7's Tasks" },
	{ .name = "jobs", .type = OPT_UINT, .offset = O(jobs), .def = "100",
	  .min = 1, .max = 1000000, .arg = "NUM", .short_flag = 'j',
	  .help = "jobs each task runs, from the mix in order" },
	{ .name = "mix", .type = OPT_ENUM, .offset = O(mix),
	  .def = "compute-v1", .choices = compute_mix_names, .arg = "NAME",
	  .help = "the job mix, named and versioned: results of different mixes never compare" },
	{ .name = "pin_one", .type = OPT_STRING, .offset = O(pin_one),
	  .def = "none", .arg = "CPU", 
	  .help = "task 1 alone on this CPU, the others on the remaining ones (none: no pinning)" },
	{ .name = NULL },
};
#undef O

static const struct metric_def compute_metrics[] = {
	[CMP_JOBS_PER_MIN] = { "compute.jobs_per_min", "jobs/min", BETTER_HIGHER, true,
			       "jobs x tasks / Real x 60 (AIM7's Jobs/Min)" },
	[CMP_JTI] = { "compute.jti", "index", BETTER_HIGHER, false,
		      "job timing index: (1 - stddev / mean) x 100 of the tasks' finish times, truncated; 100 = all together" },
	[CMP_REAL] = { "compute.real_s", "s", BETTER_LOWER, false,
		       "from the release to the last task's finish (AIM7's Real)" },
	[CMP_CPU] = { "compute.cpu_s", "s", BETTER_NONE, false,
		      "the tasks' user + system time (AIM7's CPU)" },
	[CMP_JOBS_PER_SEC_TASK] = { "compute.jobs_per_sec_task", "jobs/s", BETTER_HIGHER, false,
				    "jobs / Real (AIM7's Jobs/sec/task)" },
	[CMP_FIRST] = { "compute.first_s", "s", BETTER_NONE, false,
			"from the release to the first task's finish" },
	{ .name = NULL },
};

/*
 * AIM7's multiuser table as LKML posts show it (seed 000): columns at
 * 8-character stops, Jobs/Min two wide. The title names the mix, so the
 * rows are never taken for AIM7's own workfile.
 */
static void aim7_header(FILE *f, const void *cfgp)
{
	const struct compute_cfg *c = cfgp;

	fprintf(f, "schedlab compute - AIM7-style multiuser load, job mix %s, %u jobs per task\n\n",
		compute_mix_names[c->mix], c->jobs);
	fprintf(f, "%-8s%-16s%-8s%-8s%-8s%s\n", "Tasks", "Jobs/Min", "JTI",
		"Real", "CPU", "Jobs/sec/task");
}

/* Seconds with 3 significant digits, one decimal at least: 14.2, 0.123. */
static int secs_decimals(double v)
{
	int d = v > 0 ? 2 - (int)floor(log10(v)) : 1;

	return d < 1 ? 1 : d > 6 ? 6 : d;
}

static void aim7_result(FILE *f, const void *cfgp, const struct wl_result *r)
{
	const struct compute_cfg *c = cfgp;
	double real = r->value[CMP_REAL], cpu = r->value[CMP_CPU];

	fprintf(f, "%-8u%-16.1f%-8d%-8.*f%-8.*f%.4f\n", c->tasks,
		r->value[CMP_JOBS_PER_MIN], (int)r->value[CMP_JTI],
		secs_decimals(real), real, secs_decimals(cpu), cpu,
		r->value[CMP_JOBS_PER_SEC_TASK]);
}

static const struct text_format compute_formats[] = {
	{ "aim7", "AIM7's multiuser table row", aim7_header, aim7_result, NULL },
	{ .name = NULL },
};

/* The same columns from stored runs: compare/show --layout workload. */
static const struct wl_table compute_table = {
	.key = "Tasks",
	.iterations = true,
	.col = {
		{ "compute.jobs_per_min", "Jobs/Min", 1 },
		{ "compute.jti", "JTI", 0 },
		{ "compute.real_s", "Real", 1 },
		{ "compute.cpu_s", "CPU", 1 },
		{ "compute.jobs_per_sec_task", "Jobs/sec/task", 4 },
	},
};

const struct workload wl_compute = {
	.name = "compute",
	.summary = "tasks released together run a job mix; Jobs/Min and job timing index (AIM7-style)",
	.reference = "AIM7 multiuser compute (with schedlab's own job mix)",
	.events = "jobs",
	.cfg_size = sizeof(struct compute_cfg),
	.options = compute_options,
	.metrics = compute_metrics,
	.formats = compute_formats,
	.table = &compute_table,
	.prepare = compute_prepare,
	.run = compute_run,
};
