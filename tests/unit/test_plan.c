// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan: job files expanded into cases (lists, ranges, steps, $ncpu,
 * products, repeats, [global]), harness keys, every mistake reported as
 * FILE:LINE naming the option, suites found (in $SCHEDLAB_JOBS or built
 * in, every jobs/ file byte for byte) and the shipped ones loading.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "harness/suites.h"
#include "workload/command.h"
#include "workload/messaging.h"
#include "workload/registry.h"

static char dir[64];
static char job_path[128];
static char errbuf[4096];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/schedlab-plan-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(job_path, sizeof(job_path), "%s/t.job", dir);
	setenv("SCHEDLAB_NCPU", "4", 1);
	unsetenv("SCHEDLAB_JOBS");
	return 0;
}

static int teardown(void **state)
{
	char path[160];

	(void)state;
	unlink(job_path);
	snprintf(path, sizeof(path), "%s/mysuite.job", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* Where stderr goes between capture_begin() and capture_end(). */
static FILE *capture_tmp;
static int capture_saved;

static void capture_begin(void)
{
	capture_saved = dup(2);
	capture_tmp = tmpfile();
	fflush(stderr);
	dup2(fileno(capture_tmp), 2);
}

/* What was printed to stderr since capture_begin(), into errbuf. */
static void capture_end(void)
{
	fflush(stderr);
	dup2(capture_saved, 2);
	close(capture_saved);
	rewind(capture_tmp);
	memset(errbuf, 0, sizeof(errbuf));
	if (fread(errbuf, 1, sizeof(errbuf) - 1, capture_tmp) == 0)
		errbuf[0] = '\0';
	fclose(capture_tmp);
}

/*
 * Loads path with --set arguments, what it prints to stderr kept in
 * errbuf.
 */
static int load_path_with(const char *path, const char *const *sets,
			  size_t nsets, struct plan *p)
{
	int rc;

	capture_begin();
	rc = plan_load_with(path, sets, nsets, p);
	capture_end();
	return rc;
}

static int load_path(const char *path, struct plan *p)
{
	return load_path_with(path, NULL, 0, p);
}

/* Writes text as the job file and loads it. */
static int load_n(const char *text, size_t len, struct plan *p)
{
	write_file(job_path, text, len);
	return load_path(job_path, p);
}

static int load(const char *text, struct plan *p)
{
	return load_n(text, strlen(text), p);
}

static struct plan must_load(const char *text)
{
	struct plan p;

	if (load(text, &p))
		fail_msg("load failed: %s", errbuf);
	return p;
}

/*
 * The sweep values of every case, "a|b|c": what a one-job file with
 * the given lines expands to.
 */
static const char *sweeps(const char *lines)
{
	static char out[2048];
	char text[1024];
	struct plan p;
	size_t n = 0;

	snprintf(text, sizeof(text), "[j]\nworkload = messaging\n%s\n", lines);
	p = must_load(text);
	out[0] = '\0';
	for (size_t i = 0; i < p.ncases; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s",
				      i ? "|" : "", p.cases[i].sweep);
	plan_free(&p);
	return out;
}

/*
 * Loading text fails with one message "schedlab: PATH:LINE: ..." (no
 * LINE when line is 0) that contains every needle, and leaves p empty.
 */
static void expect_error(const char *text, size_t len, unsigned line,
			 const char *needle, const char *needle2)
{
	char prefix[256];
	struct plan p;

	memset(&p, 0x5a, sizeof(p));
	if (load_n(text, len, &p) != -1)
		fail_msg("loaded, expected an error with '%s':\n%s", needle,
			 text);
	if (line)
		snprintf(prefix, sizeof(prefix), "schedlab: %s:%u: ", job_path,
			 line);
	else
		snprintf(prefix, sizeof(prefix), "schedlab: %s: ", job_path);
	if (strncmp(errbuf, prefix, strlen(prefix)))
		fail_msg("expected prefix '%s', got '%s'", prefix, errbuf);
	if (!strstr(errbuf, needle) || (needle2 && !strstr(errbuf, needle2)))
		fail_msg("expected '%s'%s%s in '%s'", needle,
			 needle2 ? " and " : "", needle2 ? needle2 : "", errbuf);
	/* one message, one line */
	assert_ptr_equal(strchr(errbuf, '\n'), errbuf + strlen(errbuf) - 1);
	assert_null(p.cases);
	assert_int_equal(p.ncases, 0);
	assert_null(p.source);
	assert_null(p.name);
}

#define ERR(text, line, needle, needle2) \
	expect_error(text, sizeof(text) - 1, line, needle, needle2)

static void test_list_defaults_and_params(void **state)
{
	struct plan p;

	(void)state;
	p = must_load("; a comment\n"
		      "[hb]\n"
		      "workload = messaging\n"
		      "groups = 1, 4,8\n");
	assert_string_equal(p.source, job_path);
	assert_string_equal(p.name, "t");
	assert_int_equal(p.ncases, 3);
	for (size_t i = 0; i < p.ncases; i++) {
		const struct plan_case *c = &p.cases[i];

		assert_int_equal(c->seq, i + 1);
		assert_string_equal(c->job, "hb");
		assert_ptr_equal(c->wl, &wl_messaging);
		assert_string_equal(c->sweep_keys, "groups");
		assert_int_equal(c->iterations, 5);
		assert_int_equal(c->warmup, 0);
		assert_int_equal(c->timeout_s, 0);
		assert_int_equal(c->retries, 0);
		assert_null(c->cpus);
	}
	assert_string_equal(p.cases[0].sweep, "1");
	assert_string_equal(p.cases[2].sweep, "8");
	assert_int_equal(((struct messaging_cfg *)p.cases[1].cfg)->groups, 4);
	assert_int_equal(((struct messaging_cfg *)p.cases[1].cfg)->loops, 100);
	/* the identity: only what differs from the defaults */
	assert_string_equal(p.cases[1].params, "groups=4");
	plan_free(&p);
	assert_null(p.cases);
	assert_null(p.source);

	/* nothing swept: one case, empty sweep strings */
	p = must_load("[one]\nworkload = pipe\nloops = 50000\n");
	assert_int_equal(p.ncases, 1);
	assert_string_equal(p.cases[0].sweep_keys, "");
	assert_string_equal(p.cases[0].sweep, "");
	assert_string_equal(p.cases[0].params, "loops=50000");
	plan_free(&p);
}

static void test_ranges_and_steps(void **state)
{
	(void)state;
	assert_string_equal(sweeps("groups = 1..4"), "1|2|3|4");
	assert_string_equal(sweeps("groups = 1..10:3"), "1|4|7|10");
	assert_string_equal(sweeps("groups = 1..10:4"), "1|5|9");
	assert_string_equal(sweeps("groups = 1..64:*2"), "1|2|4|8|16|32|64");
	assert_string_equal(sweeps("groups = 3..100:*3"), "3|9|27|81");
	assert_string_equal(sweeps("groups = 5..5"), "5");
	assert_string_equal(sweeps("groups = 2, 10..12, 1"), "2|10|11|12|1");
	assert_string_equal(sweeps("groups = 1 .. 3"), "1|2|3");
}

static void test_ncpu_terms(void **state)
{
	struct plan p;

	(void)state;
	setenv("SCHEDLAB_NCPU", "6", 1);
	assert_string_equal(sweeps("groups = 2*$ncpu,$ncpu*3,$ncpu/4"),
			    "12|18|1");
	assert_string_equal(sweeps("groups = 1..2*$ncpu:*2, 2*$ncpu"),
			    "1|2|4|8|12");
	assert_string_equal(sweeps("groups = $ncpu/2..$ncpu"), "3|4|5|6");
	assert_string_equal(sweeps("groups = 1, 2 * $ncpu"), "1|12");

	/* a single term is not a sweep */
	p = must_load("[j]\nworkload = messaging\ngroups = $ncpu\n");
	assert_int_equal(p.ncases, 1);
	assert_string_equal(p.cases[0].sweep_keys, "");
	assert_int_equal(((struct messaging_cfg *)p.cases[0].cfg)->groups, 6);
	plan_free(&p);

	setenv("SCHEDLAB_NCPU", "1", 1);
	assert_string_equal(sweeps("groups = 1,$ncpu,2*$ncpu"), "1|2");
	setenv("SCHEDLAB_NCPU", "4", 1);
}

static void test_cartesian_product_and_repeats(void **state)
{
	static const char *const want[] = {
		"1 pipe", "1 socket", "2 pipe", "2 socket",
	};
	struct plan p;

	(void)state;
	p = must_load("[j]\nworkload = messaging\ngroups = 1,2\nmode = thread\n"
		      "ipc = pipe,socket\n");
	assert_int_equal(p.ncases, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(p.cases[i].sweep_keys, "groups ipc");
		assert_string_equal(p.cases[i].sweep, want[i]);
		assert_int_equal(((struct messaging_cfg *)p.cases[i].cfg)->mode,
				 MSG_THREAD);
	}
	assert_string_equal(p.cases[3].params, "groups=2 mode=thread");
	plan_free(&p);

	/* the first swept key is outermost, whatever the table order */
	assert_string_equal(sweeps("ipc = pipe,socket\ngroups = 1,2"),
			    "pipe 1|pipe 2|socket 1|socket 2");

	/* repeats are dropped, the first kept; values compare canonically */
	assert_string_equal(sweeps("groups = 4,1..4,$ncpu,04"), "4|1|2|3");
	assert_string_equal(sweeps("fifo = yes,true,no"), "true|false");
	p = must_load("[j]\nworkload = messaging\nipc = pipe,pipe\n");
	assert_int_equal(p.ncases, 1);
	assert_string_equal(p.cases[0].sweep_keys, "ipc");
	plan_free(&p);
}

static void test_global_and_harness_keys(void **state)
{
	struct plan p;

	(void)state;
	p = must_load("[global]\n"
		      "iterations = 2\n"
		      "warmup = 1\n"
		      "timeout = 5m\n"
		      "retries = 2\n"
		      "cpus = 0\n"
		      "loops = 7\n"
		      "\n"
		      "[a]\n"
		      "workload = messaging\n"
		      "\n"
		      "[b]\n"
		      "loops = 9\n"		/* before the workload line */
		      "iterations = 4\n"
		      "workload = messaging\n"
		      "timeout = 1h\n"
		      "\n"
		      "[c]\n"
		      "workload = pipe\n");
	assert_int_equal(p.ncases, 3);
	assert_string_equal(p.cases[0].job, "a");
	assert_int_equal(((struct messaging_cfg *)p.cases[0].cfg)->loops, 7);
	assert_int_equal(p.cases[0].iterations, 2);
	assert_int_equal(p.cases[0].warmup, 1);
	assert_int_equal(p.cases[0].timeout_s, 300);
	assert_int_equal(p.cases[0].retries, 2);
	assert_string_equal(p.cases[0].cpus, "0");
	assert_string_equal(p.cases[1].job, "b");
	assert_int_equal(((struct messaging_cfg *)p.cases[1].cfg)->loops, 9);
	assert_int_equal(p.cases[1].iterations, 4);
	assert_int_equal(p.cases[1].warmup, 1);
	assert_int_equal(p.cases[1].timeout_s, 3600);
	assert_string_equal(p.cases[2].params, "loops=7");
	plan_free(&p);

	/* a sweep in [global] comes before the job's own */
	p = must_load("[global]\ngroups = 1,2\n[a]\nworkload = messaging\n"
		      "ipc = pipe,socket\n[b]\nworkload = pipe\n");
	assert_int_equal(p.ncases, 5);
	assert_string_equal(p.cases[1].sweep_keys, "groups ipc");
	assert_string_equal(p.cases[1].sweep, "1 socket");
	assert_string_equal(p.cases[4].sweep_keys, "");
	plan_free(&p);
}

static void test_durations(void **state)
{
	static const struct { const char *text; unsigned s; } ok[] = {
		{ "300", 300 }, { "300s", 300 }, { "5m", 300 }, { "1h", 3600 },
		{ "1", 1 }, { "8760h", 31536000 }, { "31536000", 31536000 },
		{ "none", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char text[128];
		struct plan p;

		snprintf(text, sizeof(text), "[j]\nworkload = pipe\ntimeout = %s\n",
			 ok[i].text);
		p = must_load(text);
		assert_int_equal(p.cases[0].timeout_s, ok[i].s);
		plan_free(&p);
	}
}

/*
 * Every option of a case as "name=value" in option-table order (what
 * --dry-run shows), for tests of the values options take; the case's
 * params is its identity, the options off their defaults alone.
 */
static const char *all_params(const struct plan_case *c)
{
	static char out[4096];
	char v[256];
	size_t n = 0;

	out[0] = '\0';
	for (const struct opt_def *o = c->wl->options; o->name; o++) {
		if (o->set)
			continue;
		opt_format(o, c->cfg, v, sizeof(v));
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s=%s",
				      n ? " " : "", o->name, v);
	}
	return out;
}

/* Every option of every case of text with --set sets, "a|b". */
static const char *set_params(const char *text, const char *const *sets,
			      size_t nsets)
{
	static char out[4096];
	struct plan p;
	size_t n = 0;

	write_file(job_path, text, strlen(text));
	if (load_path_with(job_path, sets, nsets, &p))
		fail_msg("load failed: %s", errbuf);
	out[0] = '\0';
	for (size_t i = 0; i < p.ncases; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s %s it=%u t=%u",
				      i ? "|" : "", p.cases[i].job,
				      all_params(&p.cases[i]), p.cases[i].iterations,
				      p.cases[i].timeout_s);
	plan_free(&p);
	return out;
}

static void test_runtime_in_every_timed_workload(void **state)
{
	static const char *const timed[] = {
		"rr", "wakeup", "dbench", "tbench", "pgbench", "sysbench",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(timed) / sizeof(timed[0]); i++) {
		static const char *const vals[][2] = {
			{ "30s", "runtime=30" }, { "2m", "runtime=120" },
			{ "1h", "runtime=3600" }, { "45", "runtime=45" },
		};

		for (size_t v = 0; v < 4; v++) {
			char text[128];
			struct plan p;

			snprintf(text, sizeof(text), "[j]\nworkload = %s\nruntime = %s\n",
				 timed[i], vals[v][0]);
			p = must_load(text);
			if (!strstr(all_params(&p.cases[0]), vals[v][1]))
				fail_msg("%s: runtime = %s gave '%s'", timed[i],
					 vals[v][0], all_params(&p.cases[0]));
			plan_free(&p);
		}
	}
}

static void test_aliases_in_job_files(void **state)
{
	struct plan p;

	(void)state;
	p = must_load("[a]\nworkload = rr\nlength = 1m\n"
		      "[b]\nworkload = dbench\ntime = 30s\n"
		      "[c]\nworkload = pipe\nloop = 5\n"
		      "[d]\nworkload = rr\nrequest-size = 9\nruntime = 2,3\n");
	assert_int_equal(p.ncases, 5);
	assert_non_null(strstr(all_params(&p.cases[0]), " runtime=60 "));
	assert_non_null(strstr(all_params(&p.cases[1]), " runtime=30 "));
	assert_string_equal(all_params(&p.cases[2]),
			    "loops=5 mode=process ordering=one-token nonblocking=false cgroups=");
	assert_non_null(strstr(all_params(&p.cases[3]), " runtime=2 request_size=9 "));
	assert_string_equal(p.cases[4].sweep_keys, "runtime");
	assert_string_equal(p.cases[4].sweep, "3");
	plan_free(&p);
	/* a job's own alias overrides [global]'s canonical name */
	p = must_load("[global]\nruntime = 7\n[a]\nworkload = sysbench\ntime = 9\n"
		      "[b]\nworkload = sysbench\n");
	assert_non_null(strstr(all_params(&p.cases[0]), "runtime=9"));
	assert_non_null(strstr(all_params(&p.cases[1]), "runtime=7"));
	plan_free(&p);
	/* a duration range is a sweep in seconds */
	assert_string_equal(set_params("[j]\nworkload = rr\nruntime = 10..30:10\n",
				       NULL, 0),
			    "j test=TCP_RR pairs=1 runtime=10 request_size=1 response_size=1 message_size=16384 mode=process it=5 t=0|"
			    "j test=TCP_RR pairs=1 runtime=20 request_size=1 response_size=1 message_size=16384 mode=process it=5 t=0|"
			    "j test=TCP_RR pairs=1 runtime=30 request_size=1 response_size=1 message_size=16384 mode=process it=5 t=0");
	/* one option under two of its names */
	ERR("[j]\nworkload = dbench\ntime = 5\nruntime = 6\n", 4,
	    "'runtime' is option runtime again (set at ", ":3 as 'time')");
	ERR("[global]\nloop = 5\nloops = 6\n[j]\nworkload = pipe\n", 3,
	    "'loops' is option loops again (set at ", ":2 as 'loop')");
	ERR("[j]\nworkload = rr\nruntime = 1.5m\n", 3,
	    "runtime: '1.5m' is not a duration (expected a duration in 1..31536000 seconds, such as 30, 30s, 2m or 1h)",
	    NULL);
	ERR("[j]\nworkload = dbench\ntime = 25h\n", 3,
	    "time: '25h' is out of range (expected a duration in 2..86400 seconds", NULL);
}

/* Loading text with sets fails with exactly the message msg (PATH for the file). */
static void expect_set_error(const char *text, const char *set,
			     const char *msg)
{
	char want[2048], *at;
	struct plan p;

	write_file(job_path, text, strlen(text));
	if (load_path_with(job_path, &set, 1, &p) != -1)
		fail_msg("loaded with --set %s", set);
	at = strstr(msg, "PATH");
	if (at)
		snprintf(want, sizeof(want), "schedlab: %.*s%s%s\n",
			 (int)(at - msg), msg, job_path, at + 4);
	else
		snprintf(want, sizeof(want), "schedlab: %s\n", msg);
	assert_string_equal(errbuf, want);
	assert_null(p.cases);
}

static void test_set(void **state)
{
	static const char file[] =
		"[global]\nloops = 3\niterations = 2\n"
		"[a]\nworkload = pipe\n"
		"[b]\nworkload = pipe\nloops = 4\n"
		"[r]\nworkload = rr\nlength = 5\n";
	const char *s1[] = { "loops=9" }, *s2[] = { "b.loops=8" };
	const char *s3[] = { "runtime=1m", "iterations=1", "r.timeout=2m" };
	const char *s4[] = { "loops=6", "a.loops=1,2", "a.loops=7" };
	const char *s5[] = { "a.mode=thread", "request-size=3" };

	(void)state;
	assert_string_equal(set_params(file, NULL, 0),
			    "a loops=3 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "b loops=4 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "r test=TCP_RR pairs=1 runtime=5 request_size=1 response_size=1 message_size=16384 mode=process it=2 t=0");
	/* to every job that has the key, [global]'s and the job's own */
	assert_string_equal(set_params(file, s1, 1),
			    "a loops=9 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "b loops=9 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "r test=TCP_RR pairs=1 runtime=5 request_size=1 response_size=1 message_size=16384 mode=process it=2 t=0");
	/* to one job */
	assert_string_equal(set_params(file, s2, 1),
			    "a loops=3 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "b loops=8 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "r test=TCP_RR pairs=1 runtime=5 request_size=1 response_size=1 message_size=16384 mode=process it=2 t=0");
	/* over an alias, and harness keys, globally and per job */
	assert_string_equal(set_params(file, s3, 3),
			    "a loops=3 mode=process ordering=one-token nonblocking=false cgroups= it=1 t=0|"
			    "b loops=4 mode=process ordering=one-token nonblocking=false cgroups= it=1 t=0|"
			    "r test=TCP_RR pairs=1 runtime=60 request_size=1 response_size=1 message_size=16384 mode=process it=1 t=120");
	/* later ones win; a sweep is a sweep */
	assert_string_equal(set_params(file, s4, 2),
			    "a loops=1 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "a loops=2 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "b loops=6 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "r test=TCP_RR pairs=1 runtime=5 request_size=1 response_size=1 message_size=16384 mode=process it=2 t=0");
	assert_string_equal(set_params(file, s4, 3),
			    "a loops=7 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "b loops=6 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "r test=TCP_RR pairs=1 runtime=5 request_size=1 response_size=1 message_size=16384 mode=process it=2 t=0");
	/* a key the file does not have is added */
	assert_string_equal(set_params(file, s5, 2),
			    "a loops=3 mode=thread ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "b loops=4 mode=process ordering=one-token nonblocking=false cgroups= it=2 t=0|"
			    "r test=TCP_RR pairs=1 runtime=5 request_size=3 response_size=1 message_size=16384 mode=process it=2 t=0");

	expect_set_error(file, "nope=1",
		"--set nope=1: 'nope' is not a key of any job in PATH (harness keys: iterations, min_iterations, max_iterations, budget, warmup, timeout, retries, cpus, probes, monitors, monitor_interval, settings (nice, policy, env.*, cgroup.*, sysctl.*, sched.*, sched_feat, scx, a /proc or /sys path); "
		"pipe: loops, mode, ordering, nonblocking, cgroups; rr: test, pairs, runtime, request_size, response_size, message_size, mode)");
	expect_set_error(file, "zz.loops=1",
		"--set zz.loops=1: PATH has no job [zz] (jobs: [a], [b], [r])");
	expect_set_error(file, "global.loops=1",
		"--set global.loops=1: PATH has no job [global] (jobs: [a], [b], [r])");
	expect_set_error(file, "a.runtime=1",
		"--set a.runtime=1: 'runtime' is not a key of job [a] (harness keys: iterations, min_iterations, max_iterations, budget, warmup, timeout, retries, cpus, probes, monitors, monitor_interval, settings (nice, policy, env.*, cgroup.*, sysctl.*, sched.*, sched_feat, scx, a /proc or /sys path); pipe: loops, mode, ordering, nonblocking, cgroups)");
	expect_set_error(file, "loops",
		"--set loops: expected KEY=VALUE or JOB.KEY=VALUE");
	expect_set_error(file, "=5",
		"--set =5: expected KEY=VALUE or JOB.KEY=VALUE");
	expect_set_error(file, "a.=5",
		"--set a.=5: expected KEY=VALUE or JOB.KEY=VALUE");
	expect_set_error(file, "workload=rr",
		"--set workload=rr: a job's workload is not a key --set changes (it names the job's options)");
	expect_set_error(file, "runtime=abc",
		"--set runtime=abc, in job [r]: runtime: 'abc' is not a duration (expected a duration in 1..31536000 seconds, such as 30, 30s, 2m or 1h)");
	expect_set_error(file, "loops=0",
		"--set loops=0: loops: '0' is out of range (expected a whole number in 1..2000000000)");
	expect_set_error(file, "b.loops=1,x",
		"--set b.loops=1,x: loops: 'x' is not a number (expected a whole number in 1..2000000000)");
	expect_set_error(file, "iterations=0",
		"--set iterations=0: iterations: '0' is out of range (expected a whole number in 1..10000, or auto)");
	expect_set_error(file, "r.timeout=soon",
		"--set r.timeout=soon: timeout: 'soon' is not a duration (expected a duration in 1s..8760h such as 300, 300s, 5m or 1h, or none)");
	expect_set_error(file, "cpus=x",
		"--set cpus=x, in job [a]: cpus: 'x' is not a CPU list (expected CPU numbers and ranges, such as 0-3,8)");
}

static void test_file_syntax(void **state)
{
	struct plan p;

	(void)state;
	/* BOM, CRLF, indentation, '#' and inline comments, name: value */
	p = must_load("\xef\xbb\xbf# top\r\n"
		      "  [ j ]   ; the job\r\n"
		      "\tworkload = messaging\r\n"
		      "    groups = 1,2   ; two cases\r\n"
		      "loops: 5\r\n"
		      "\r\n");
	assert_int_equal(p.ncases, 2);
	assert_string_equal(p.cases[0].job, "j");
	assert_int_equal(((struct messaging_cfg *)p.cases[0].cfg)->loops, 5);
	plan_free(&p);

	/* UTF-8 text is fine in comments */
	p = must_load("; répertoire ✓\n[j]\nworkload = pipe\n");
	assert_int_equal(p.ncases, 1);
	plan_free(&p);

	/*
	 * A line ending in a backslash goes on, joined with one blank;
	 * the next key starts afresh. The key's line is the first.
	 */
	p = must_load("[j]\nworkload = command\nsetup = echo a \\\n"
		      "\t  b&&\\\n"
		      "c\nbefore = d\n");
	assert_string_equal(((struct command_cfg *)p.cases[0].cfg)->setup,
			    "echo a b&& c");
	assert_string_equal(((struct command_cfg *)p.cases[0].cfg)->before,
			    "d");
	plan_free(&p);
	ERR("[j]\nworkload = command\nsetup = a \\\n\n", 4,
	    "ends in a backslash", NULL);
	ERR("[j]\nworkload = command\nsetup = a \\\n[k]\n", 4,
	    "continues no value", NULL);

	/* estimate: a duration for --dry-run, inherited from [global] */
	p = must_load("[global]\nestimate = 2m\n[j]\nworkload = pipe\n"
		      "[k]\nworkload = pipe\nestimate = 5\n");
	assert_int_equal(p.cases[0].estimate_s, 120);
	assert_int_equal(p.cases[1].estimate_s, 5);
	plan_free(&p);
	ERR("[j]\nworkload = pipe\nestimate = soon\n", 3,
	    "estimate: 'soon' is not a duration", NULL);

	/* cpulists are normalised */
	p = must_load("[j]\nworkload = pipe\ncpus = 0-0,0\n");
	assert_string_equal(p.cases[0].cpus, "0");
	plan_free(&p);

	/* the name drops the directory and .job only */
	{
		char other[160];

		snprintf(other, sizeof(other), "%s/mysuite.job.ini", dir);
		write_file(other, "[j]\nworkload = pipe\n",
			   strlen("[j]\nworkload = pipe\n"));
		assert_int_equal(plan_load(other, &p), 0);
		assert_string_equal(p.name, "mysuite.job.ini");
		plan_free(&p);
		unlink(other);
	}
}

static void test_option_errors(void **state)
{
	(void)state;
	ERR("[j]\nworkload = messaging\ngroupz = 4\n", 3,
	    "'groupz' is not an option of workload messaging (options: groups, fds, loops, datasize, ipc, mode, fifo)",
	    NULL);
	/* flags of the command line are not keys */
	ERR("[j]\nworkload = messaging\npipe = 1\n", 3,
	    "'pipe' is not an option of workload messaging", NULL);
	ERR("[j]\nworkload = messaging\n\ngroups = abc\n", 4,
	    "groups: 'abc' is not a number", "1..100000");
	ERR("[j]\nworkload = messaging\ngroups = 0\n", 3,
	    "groups: '0' is out of range", "expected a whole number in 1..100000");
	ERR("[j]\nworkload = messaging\nipc = pipe,carrier-pigeon\n", 3,
	    "ipc: 'carrier-pigeon' is not a known value", "socket, pipe, inet");
	ERR("[j]\nworkload = messaging\ngroups = 99990..100002:4\n", 3,
	    "groups (from 99990..100002:4): '100002' is out of range",
	    "1..100000");
	ERR("[j]\nworkload = messaging\ngroups = 1,100001\n", 3,
	    "groups: '100001' is out of range", NULL);
	ERR("[j]\nworkload = messaging\nloops = 2*$ncpu,4\ngroups = 1,25001*$ncpu\n",
	    4, "groups (from 25001*$ncpu): '100004' is out of range", NULL);
	ERR("[j]\nworkload = messaging\nfifo = maybe\n", 3,
	    "fifo: 'maybe' is not a boolean", NULL);
	/* [global] options are checked with the jobs' workloads */
	ERR("[global]\ngroupz = 1\n[a]\nworkload = messaging\n[b]\nworkload = pipe\n",
	    2, "'groupz' is not an option of the jobs' workloads",
	    "pipe: loops, mode, ordering");
	ERR("[global]\nordering = sideways\n[a]\nworkload = pipe\nordering = one-token\n",
	    2, "ordering: 'sideways' is not a known value", NULL);
}

static void test_sweep_errors(void **state)
{
	(void)state;
	ERR("[j]\nworkload = messaging\ngroups = 8..4\n", 3,
	    "groups: '8..4' expands to nothing", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 4..$ncpu/2\n", 3,
	    "groups: '4..$ncpu/2' expands to nothing", "4 is above 2");
	ERR("[j]\nworkload = messaging\ngroups = 1,,2\n", 3,
	    "groups: '1,,2' has an empty item", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 1,2,\n", 3,
	    "groups: '1,2,' has an empty item", NULL);
	ERR("[j]\nworkload = messaging\ngroups = $ncpu/8\n", 3,
	    "groups: '$ncpu/8' is 0 with 4 CPUs", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 1,$ncpu/5\n", 3,
	    "'$ncpu/5' is 0 with 4 CPUs", NULL);
	ERR("[j]\nworkload = messaging\ngroups = $ncpu/8..4\n", 3,
	    "'$ncpu/8' is 0 with 4 CPUs", NULL);
	ERR("[j]\nworkload = messaging\ngroups = $ncpus\n", 3,
	    "groups: '$ncpus' is not a number or a term of $ncpu", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 1..x\n", 3,
	    "groups: '1..x' is not a range", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 1..8:0\n", 3,
	    "groups: '1..8:0' has a bad step", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 1..8:*1\n", 3,
	    "groups: '1..8:*1' has a bad step", NULL);
	ERR("[j]\nworkload = messaging\ngroups = 1..8:x\n", 3,
	    "'1..8:x' has a bad step", NULL);
	ERR("[j]\nworkload = messaging\nipc = pipe..socket\n", 3,
	    "ipc: 'pipe..socket' is a range", "socket, pipe, inet");
	ERR("[j]\nworkload = messaging\nloops = 1..1000000000\n", 3,
	    "loops: '1..1000000000' lists more than 10000 values", NULL);
	/* more than PLAN_MAX_CASES, saying how many */
	ERR("[j]\nworkload = messaging\ngroups = 1..200\nloops = 1..100\n", 0,
	    "would have 20000 cases, more than 10000", NULL);
	ERR("[a]\nworkload = messaging\ngroups = 1..6000\n"
	    "[b]\nworkload = messaging\ngroups = 1..5000\n", 0,
	    "would have 11000 cases, more than 10000", "job [a] has 6000");
}

static void test_structure_errors(void **state)
{
	(void)state;
	ERR("[j]\nloops = 4\n\n[k]\nworkload = pipe\n", 1,
	    "job [j] has no 'workload =' line", NULL);
	ERR("[j]\n[k]\nworkload = pipe\n", 1,
	    "job [j] has no 'workload =' line", NULL);
	ERR("[j]\nworkload = hackbench\n", 2,
	    "unknown workload 'hackbench' (known: messaging, pipe, ", "command");
	ERR("[a]\nworkload = pipe\n\n[b]\nworkload = pipe\n[a]\nworkload = pipe\n",
	    6, "duplicate job [a] (first at line 1)", NULL);
	ERR("[global]\n[a]\nworkload = pipe\n[global]\n", 4,
	    "duplicate [global] (first at line 1)", NULL);
	ERR("[a]\nworkload = pipe\nloops = 1\n  loops = 2\n", 4,
	    "duplicate key 'loops' in [a] (first at line 3)", NULL);
	ERR("; hello\nloops = 1\n[a]\nworkload = pipe\n", 2,
	    "'loops' is outside any section", NULL);
	ERR("[a]\nworkload = pipe\nthis is not a key\n", 3,
	    "not a section header or key = value line", NULL);
	ERR("[a]\nworkload = pipe\n= 5\n", 3,
	    "not a section header or key = value line", NULL);
	ERR("[a\nworkload = pipe\n", 1,
	    "not a section header or key = value line", NULL);
	ERR("[a] b\nworkload = pipe\n", 1,
	    "not a section header or key = value line", NULL);
	ERR("[]\nworkload = pipe\n", 1, "empty section name", NULL);
	ERR("[a b]\nworkload = pipe\n", 1, "section name 'a b' may only use", NULL);
	ERR("[global]\nworkload = pipe\n[a]\nworkload = pipe\n", 2,
	    "'workload' belongs in a job section", NULL);
	ERR("[global]\niterations = 3\n", 0, "no jobs", NULL);
	ERR("", 0, "no jobs", NULL);
	/* the first mistake in the file is the one reported */
	ERR("[a]\nworkload = pipe\nbad line\nloops = 1\nloops = 2\n", 3,
	    "not a section header", NULL);
}

static void test_binary_data(void **state)
{
	(void)state;
	ERR("[a]\nworkload = pipe\nloops = 1\0\n", 3, "binary data", NULL);
	ERR("[a]\nworkload = pipe\n\n\nloops = \x01\n", 5, "binary data", NULL);
	ERR("[a]\n\xc3\x28 = 1\n", 2, "binary data", NULL);
	ERR("\x7f" "ELF\x02\x01\x01", 1, "binary data", NULL);
	ERR("[a]\nworkload = pipe\n; \xed\xa0\x80 surrogate\n", 3,
	    "binary data", NULL);
	ERR("[a]\nworkload = pipe\n; \xc0\xaf overlong\n", 3, "binary data",
	    NULL);
	ERR("[a]\nworkload = pipe\n; \xc2\x85 C1 control\n", 3, "binary data",
	    NULL);
}

static void test_harness_errors(void **state)
{
	(void)state;
	ERR("[a]\nworkload = pipe\ntimeout = 5x\n", 3,
	    "timeout: '5x' is not a duration", "5m");
	ERR("[a]\nworkload = pipe\ntimeout = 1.5h\n", 3,
	    "timeout: '1.5h' is not a duration", NULL);
	ERR("[a]\nworkload = pipe\ntimeout = 0\n", 3,
	    "timeout: '0' is out of range", NULL);
	ERR("[a]\nworkload = pipe\ntimeout = 8761h\n", 3,
	    "timeout: '8761h' is out of range", NULL);
	ERR("[global]\ntimeout = -1\n[a]\nworkload = pipe\n", 2,
	    "timeout: '-1' is not a duration", NULL);
	ERR("[a]\nworkload = pipe\niterations = 0\n", 3,
	    "iterations: '0' is out of range", "1..10000, or auto");
	ERR("[a]\nworkload = pipe\niterations = 10001\n", 3,
	    "iterations: '10001' is out of range", NULL);
	ERR("[a]\nworkload = pipe\nwarmup = 1001\n", 3,
	    "warmup: '1001' is out of range", "0..1000");
	ERR("[a]\nworkload = pipe\nretries = 101\n", 3,
	    "retries: '101' is out of range", "0..100");
	ERR("[a]\nworkload = pipe\niterations = 1,2\n", 3,
	    "iterations: '1,2' is not an iteration count", NULL);
	ERR("[a]\nworkload = pipe\ncpus = 0-3x\n", 3,
	    "cpus: '0-3x' is not a CPU list", NULL);
	ERR("[a]\nworkload = pipe\ncpus = 3-1\n", 3,
	    "cpus: '3-1' is not a CPU list", NULL);
	ERR("[a]\nworkload = pipe\ncpus = 0,99999\n", 3,
	    "cpus: '0,99999' is not a CPU list", NULL);
	ERR("[a]\nworkload = pipe\ncpus = 8191\n", 3,
	    "cpus: '8191' is out of range", NULL);
	ERR("[a]\nworkload = pipe\ncpus =\n", 3, "cpus: '' is empty", NULL);
	/* overridden by the job, a bad [global] value is still wrong */
	ERR("[global]\nwarmup = x\n[a]\nworkload = pipe\nwarmup = 1\n", 2,
	    "warmup: 'x' is not a number", NULL);
}

static void test_other_failures(void **state)
{
	struct plan p;
	char path[160];

	(void)state;
	snprintf(path, sizeof(path), "%s/absent.job", dir);
	assert_int_equal(load_path(path, &p), -1);
	assert_non_null(strstr(errbuf, "cannot open"));
	assert_non_null(strstr(errbuf, path));
	assert_null(p.cases);
	assert_null(p.source);

	setenv("SCHEDLAB_NCPU", "many", 1);
	assert_int_equal(load("[a]\nworkload = pipe\n", &p), -1);
	assert_non_null(strstr(errbuf, "SCHEDLAB_NCPU: 'many'"));
	setenv("SCHEDLAB_NCPU", "4", 1);

	/* long lines: a long comment is fine, a long value is not */
	{
		char text[2048];
		int n;

		n = snprintf(text, sizeof(text),
			     "[a]\nworkload = pipe ; %0300d\n; %0400d\nloops = 1", 0, 0);
		for (int i = 2; i < 100; i++)
			n += snprintf(text + n, sizeof(text) - (size_t)n, ",%d", i);
		text[n++] = '\n';
		expect_error(text, (size_t)n, 4, "line too long", NULL);
	}
}

static void test_print(void **state)
{
	struct plan p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	p = must_load("[global]\niterations = 3\n[hb]\nworkload = messaging\n"
		      "groups = 1,4\nipc = pipe,socket\n[pp]\nworkload = pipe\n"
		      "timeout = 1m\ncpus = 0\n");
	f = open_memstream(&buf, &len);
	plan_print(f, &p);
	fclose(f);
	assert_non_null(strstr(buf, job_path));
	assert_non_null(strstr(buf, "5 cases, 15 iterations"));
	assert_non_null(strstr(buf, "groups=4 ipc=socket"));
	assert_non_null(strstr(buf, "3+0"));
	assert_non_null(strstr(buf, "timeout=60s"));
	assert_non_null(strstr(buf, "cpus=0"));
	assert_non_null(strstr(buf, "loops=1000000 mode=process ordering=one-token"));
	/* a header, a column line, a line per case */
	{
		int lines = 0;

		for (char *s = buf; *s; s++)
			lines += *s == '\n';
		assert_int_equal(lines, 2 + 5);
	}
	free(buf);
	plan_free(&p);
}

/* Loads spec with plan_load_spec(), what it prints kept in errbuf. */
static int load_spec(const char *spec, struct plan *p)
{
	int rc;

	capture_begin();
	rc = plan_load_spec(spec, NULL, 0, p);
	capture_end();
	return rc;
}

static void test_find_and_list_suites(void **state)
{
	const char *text = "; My suite: just a pipe\n[a]\nworkload = pipe\n";
	char path[256], *buf = NULL;
	struct plan p;
	size_t len = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/mysuite.job", dir);
	write_file(path, text, strlen(text));
	setenv("SCHEDLAB_JOBS", dir, 1);
	assert_int_equal(load_spec("mysuite", &p), 0);
	assert_string_equal(p.source, path);
	assert_string_equal(p.name, "mysuite");
	plan_free(&p);
	/* a built-in suite not replaced in $SCHEDLAB_JOBS is still found */
	assert_int_equal(load_spec("quick", &p), 0);
	assert_string_equal(p.source, "built in");
	plan_free(&p);
	assert_int_equal(load_spec("no-such-suite-here", &p), -1);
	assert_non_null(strstr(errbuf, "no suite or job file 'no-such-suite-here'"));
	/* a name ending in .job or with a '/' is a path, never a suite */
	assert_int_equal(load_spec("mysuite.job", &p), -1);
	assert_non_null(strstr(errbuf, "cannot open 'mysuite.job'"));
	assert_int_equal(load_spec("./mysuite", &p), -1);
	assert_non_null(strstr(errbuf, "cannot open './mysuite'"));
	assert_int_equal(load_spec("", &p), -1);

	f = open_memstream(&buf, &len);
	assert_int_equal(plan_list_suites(f), 0);
	fclose(f);
	snprintf(path, sizeof(path), "%s/:\n  mysuite ", dir);
	assert_non_null(strstr(buf, path));
	assert_non_null(strstr(buf, "My suite: just a pipe"));
	assert_non_null(strstr(buf, "built in:\n"));
	assert_non_null(strstr(buf, "\n  quick "));
	free(buf);
	unsetenv("SCHEDLAB_JOBS");
}

/* Every file in jobs/ is built in, byte for byte, and nothing else is. */
static void test_builtin_suites_are_jobs(void **state)
{
	const char *top = getenv("TOP");
	char path[4096], *text;
	size_t n = 0;
	FILE *f;
	long len;

	(void)state;
	for (const struct suite *s = builtin_suites; s->name; s++, n++) {
		snprintf(path, sizeof(path), "%s/jobs/%s.job", top ? top : ".",
			 s->name);
		f = fopen(path, "r");
		if (!f)
			fail_msg("built-in suite %s has no %s", s->name, path);
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		text = malloc((size_t)len + 1);
		assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		assert_int_equal(s->len, (size_t)len);
		assert_memory_equal(s->text, text, (size_t)len);
		assert_int_equal(s->text[s->len], '\0');
		free(text);
	}
	snprintf(path, sizeof(path), "ls %s/jobs/*.job | wc -l", top ? top : ".");
	f = popen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &len), 1);
	pclose(f);
	assert_int_equal(n, (size_t)len);
}

/* A mistake in a suite held in memory names it as users see it. */
static void test_text_suite_messages(void **state)
{
	const char *text = "[a]\nworkload = pipe\nnosuchkey = 1\n";
	struct plan p;
	int rc;

	(void)state;
	capture_begin();
	rc = plan_load_text("mine.job", "built in", text, strlen(text), NULL, 0, &p);
	capture_end();
	assert_int_equal(rc, -1);
	assert_non_null(strstr(errbuf, "schedlab: mine.job:3: 'nosuchkey' is not an option of workload pipe"));
	text = "[a]\nworkload = pipe\n";
	assert_int_equal(plan_load_text("mine.job", "built in", text,
					strlen(text), NULL, 0, &p), 0);
	assert_string_equal(p.name, "mine");
	assert_string_equal(p.source, "built in");
	assert_int_equal(p.ncases, 1);
	plan_free(&p);
}

static void load_shipped(const char *name, size_t want_cases,
			 unsigned want_iter)
{
	const char *top = getenv("TOP");
	char path[4096];
	struct plan p;

	snprintf(path, sizeof(path), "%s/jobs/%s.job", top ? top : ".", name);
	for (int builtin = 0; builtin < 2; builtin++) {
		if (builtin ? plan_load_spec(name, NULL, 0, &p) : plan_load(path, &p))
			fail_msg("%s does not load", builtin ? name : path);
		assert_int_equal(p.ncases, want_cases);
		assert_string_equal(p.name, name);
		assert_string_equal(p.source, builtin ? "built in" : path);
		for (size_t i = 0; i < p.ncases; i++) {
			/* auto: want_iter is the most */
			assert_int_equal(p.cases[i].iterations, want_iter);
			assert_non_null(p.cases[i].params);
		}
		plan_free(&p);
	}
}

static void test_shipped_suites_load(void **state)
{
	(void)state;
	/* with 4 CPUs: groups 1,4,8 for each of the four modes, and perfpipe */
	load_shipped("quick", 4 * 3 + 1, 5);
	/* with 4 CPUs: groups 1,2,4,8 for each of the four modes */
	load_shipped("lkml-hackbench", 4 * 4, 10);
}

/* plan_warn_power() of a job file's text: its warnings into errbuf. */
static int power_warnings(const char *text, enum stat_test t, double alpha)
{
	struct plan p;
	int n;

	assert_int_equal(plan_load_text("t.job", "t.job", text, strlen(text),
					NULL, 0, &p), 0);
	capture_begin();
	n = plan_warn_power(&p, t, alpha);
	capture_end();
	plan_free(&p);
	return n;
}

static void test_power_warnings(void **state)
{
	static const char three[] =
		"[global]\niterations = 3\n[a]\nworkload = messaging\ngroups = 1,2\n"
		"[b]\nworkload = pipe\n";
	static const char mixed[] =
		"[a]\nworkload = messaging\niterations = 3\ngroups = 1,2\n"
		"[b]\nworkload = pipe\niterations = 2\n[c]\nworkload = pipe\n"
		"iterations = 3\nloops = 5\n[d]\nworkload = pipe\niterations = 10\n"
		"loops = 6\n";
	static const char enough[] = "[a]\nworkload = pipe\niterations = 4\n";

	(void)state;
	/* one line for the one count, no jobs named: all cases have it */
	assert_int_equal(power_warnings(three, TEST_MWU, 0.05), 1);
	assert_string_equal(errbuf, "schedlab: warning: 3 iterations: mann-whitney cannot reach p < 0.05 below 4 a side; use 5 or more, or --iterations auto\n");
	/* a line per count, each naming its jobs once; 10 is enough */
	assert_int_equal(power_warnings(mixed, TEST_MWU, 0.05), 2);
	assert_string_equal(errbuf,
		"schedlab: warning: 3 iterations in a, c: mann-whitney cannot reach p < 0.05 below 4 a side; use 5 or more, or --iterations auto\n"
		"schedlab: warning: 2 iterations in b: mann-whitney cannot reach p < 0.05 below 4 a side; use 5 or more, or --iterations auto\n");
	assert_int_equal(power_warnings(enough, TEST_MWU, 0.05), 0);
	assert_string_equal(errbuf, "");
	/* at 0.01 four is not enough either */
	assert_int_equal(power_warnings(enough, TEST_MWU, 0.01), 1);
	assert_non_null(strstr(errbuf, "4 iterations: mann-whitney cannot reach p < 0.01 below 5 a side; use 6 or more"));
	/* Welch can at 3; below it, compare's own minimum is the limit */
	assert_int_equal(power_warnings(three, TEST_WELCH, 0.05), 0);
	assert_int_equal(power_warnings(mixed, TEST_WELCH, 0.05), 1);
	assert_string_equal(errbuf, "schedlab: warning: 2 iterations in b: compare needs 3 a side; use 3 or more, or --iterations auto\n");
	assert_int_equal(power_warnings(mixed, TEST_LKP, 0.05), 1);
	assert_non_null(strstr(errbuf, "lkp cannot mark a change below 3 a side"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_defaults_and_params),
		cmocka_unit_test(test_ranges_and_steps),
		cmocka_unit_test(test_ncpu_terms),
		cmocka_unit_test(test_cartesian_product_and_repeats),
		cmocka_unit_test(test_global_and_harness_keys),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_runtime_in_every_timed_workload),
		cmocka_unit_test(test_aliases_in_job_files),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_file_syntax),
		cmocka_unit_test(test_option_errors),
		cmocka_unit_test(test_sweep_errors),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_binary_data),
		cmocka_unit_test(test_harness_errors),
		cmocka_unit_test(test_other_failures),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_find_and_list_suites),
		cmocka_unit_test(test_builtin_suites_are_jobs),
		cmocka_unit_test(test_text_suite_messages),
		cmocka_unit_test(test_shipped_suites_load),
		cmocka_unit_test(test_power_warnings),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
