// SPDX-License-Identifier: GPL-2.0-only
/* Option tables: defaults, strict parsing, bounds, flags, conflicts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "options.h"
#include "report/vocab.h"
#include "workload/messaging.h"
#include "workload/pipe.h"
#include "workload/registry.h"
#include "workload/rr.h"
#include "util.h"

static struct messaging_cfg defaults(void)
{
	struct messaging_cfg c;

	memset(&c, 0xff, sizeof(c));
	opts_defaults(wl_messaging.options, &c);
	return c;
}

/* Parses a NULL-terminated argument list into a messaging config. */
static int parse(struct messaging_cfg *c, ...)
{
	char *argv[32] = { "messaging" };
	int argc = 1;
	va_list ap;

	va_start(ap, c);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	struct opt_target t = { wl_messaging.options, c };
	return opts_parse_argv(&t, 1, argc, argv, "test", false);
}

/*
 * Stderr from capture_begin() to capture_end() goes into errbuf (what
 * an error() said), not to the terminal.
 */
static char errbuf[4096];
static int saved_err = -1;
static FILE *captured;

static void capture_begin(void)
{
	fflush(stderr);
	saved_err = dup(2);
	captured = tmpfile();
	assert_non_null(captured);
	dup2(fileno(captured), 2);
}

static void capture_end(void)
{
	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	rewind(captured);
	memset(errbuf, 0, sizeof(errbuf));
	if (fread(errbuf, 1, sizeof(errbuf) - 1, captured) == 0)
		errbuf[0] = '\0';
	fclose(captured);
}

static int parse_capture(struct messaging_cfg *c, const char *a, const char *b)
{
	int rc;

	capture_begin();
	rc = parse(c, a, b, NULL);
	capture_end();
	return rc;
}

static void test_defaults_are_hackbenchs(void **state)
{
	struct messaging_cfg c = defaults();

	(void)state;
	assert_int_equal(c.groups, 10);
	assert_int_equal(c.fds, 20);
	assert_int_equal(c.loops, 100);
	assert_int_equal(c.datasize, 100);
	assert_int_equal(c.ipc, MSG_SOCKET);
	assert_int_equal(c.mode, MSG_PROCESS);
	assert_false(c.fifo);
}

static void test_short_and_long_flags(void **state)
{
	struct messaging_cfg c = defaults();

	(void)state;
	assert_true(parse(&c, "-g", "4", "--loops=1000", "-s", "64", "-f",
			  "8", "-T", "-p", "-F", NULL) > 0);
	assert_int_equal(c.groups, 4);
	assert_int_equal(c.loops, 1000);
	assert_int_equal(c.datasize, 64);
	assert_int_equal(c.fds, 8);
	assert_int_equal(c.mode, MSG_THREAD);
	assert_int_equal(c.ipc, MSG_PIPE);
	assert_true(c.fifo);

	c = defaults();
	assert_true(parse(&c, "--groups", "3", "--inet", "--threads",
			  "--datasize=1", NULL) > 0);
	assert_int_equal(c.groups, 3);
	assert_int_equal(c.ipc, MSG_INET);
	assert_int_equal(c.mode, MSG_THREAD);
	assert_int_equal(c.datasize, 1);
}

static void test_canonical_names_and_values(void **state)
{
	struct messaging_cfg c = defaults();

	(void)state;
	assert_true(parse(&c, "--ipc=pipe", "--mode", "thread", "--fifo=no",
			  NULL) > 0);
	assert_int_equal(c.ipc, MSG_PIPE);
	assert_int_equal(c.mode, MSG_THREAD);
	assert_false(c.fifo);
}

static void test_bad_numbers_are_refused(void **state)
{
	static const char *const bad[] = {
		"0", "-1", "abc", "12x", "", " 5", "+5",
		"99999999999999999999", "100001", "1e3",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct messaging_cfg c = defaults();

		assert_int_equal(parse_capture(&c, "-g", bad[i]), -1);
		assert_non_null(strstr(errbuf, "-g/--groups"));
		assert_non_null(strstr(errbuf, "1..100000"));
		/* one line, and the value is untouched */
		assert_ptr_equal(strchr(errbuf, '\n'),
				 errbuf + strlen(errbuf) - 1);
		assert_int_equal(c.groups, 10);
	}
}

static void test_messages_say_what_is_wrong(void **state)
{
	struct messaging_cfg c = defaults();

	(void)state;
	parse_capture(&c, "-l", "-5");
	assert_non_null(strstr(errbuf, "is negative"));
	parse_capture(&c, "-l", "99999999999999999999999");
	assert_non_null(strstr(errbuf, "too large"));
	parse_capture(&c, "-l", "ten");
	assert_non_null(strstr(errbuf, "not a number"));
	parse_capture(&c, "--ipc", "shm");
	assert_non_null(strstr(errbuf, "one of socket, pipe, inet"));
}

static void test_conflicting_flags(void **state)
{
	struct messaging_cfg c = defaults();

	(void)state;
	assert_int_equal(parse_capture(&c, "-p", "-i"), -1);
	assert_non_null(strstr(errbuf, "-p/--pipe"));
	assert_non_null(strstr(errbuf, "-i/--inet"));
	/* the same flag twice is not a conflict */
	c = defaults();
	assert_true(parse(&c, "-p", "-p", NULL) > 0);
}

static void test_unknown_and_missing(void **state)
{
	struct messaging_cfg c = defaults();

	(void)state;
	assert_int_equal(parse_capture(&c, "-x", NULL), -1);
	assert_non_null(strstr(errbuf, "unknown option '-x'"));
	assert_int_equal(parse_capture(&c, "--nope", NULL), -1);
	assert_non_null(strstr(errbuf, "unknown option '--nope'"));
	assert_int_equal(parse_capture(&c, "-g", NULL), -1);
	assert_non_null(strstr(errbuf, "needs a value"));
	assert_int_equal(parse_capture(&c, "--pipe=yes", NULL), -1);
	assert_non_null(strstr(errbuf, "takes no value"));
	assert_int_equal(parse_capture(&c, "stray", NULL), -1);
	assert_non_null(strstr(errbuf, "unexpected argument 'stray'"));
}

static void test_opt_set_for_job_files(void **state)
{
	const struct opt_def *o = opt_find(wl_pipe.options, "ordering");
	struct pipe_cfg c;
	char buf[32];

	(void)state;
	opts_defaults(wl_pipe.options, &c);
	assert_non_null(o);
	assert_int_equal(c.ordering, PIPE_ONE_TOKEN);
	assert_int_equal(opt_set(o, &c, "two-tokens", "x.ini:3: ordering"), 0);
	assert_int_equal(c.ordering, PIPE_TWO_TOKENS);
	opt_format(o, &c, buf, sizeof(buf));
	assert_string_equal(buf, "two-tokens");
	/* flags are not options of their own */
	assert_null(opt_find(wl_messaging.options, "pipe"));
	assert_non_null(opt_find(wl_messaging.options, "ipc"));
}

static void test_every_workload_table_is_sound(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];
		void *cfg = calloc(1, wl->cfg_size);
		int headlines = 0;

		assert_non_null(wl->summary);
		assert_non_null(wl->run);
		opts_defaults(wl->options, cfg);	/* aborts on a bad default */
		for (const struct opt_def *o = wl->options; o->name; o++) {
			assert_non_null(o->help);
			if (o->set)
				assert_non_null(opt_find(wl->options, o->name));
			else if (o->type == OPT_UINT)
				assert_true(o->min <= o->max);
		}
		for (const struct metric_def *m = wl->metrics; m->name; m++) {
			assert_int_equal(strncmp(m->name, wl->name,
						 strlen(wl->name)), 0);
			assert_non_null(m->unit);
			headlines += m->headline;
		}
		assert_int_equal(headlines, 1);
		free(cfg);
	}
}

static void test_help_lists_every_spelling(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	opts_help(f, wl_messaging.options);
	fclose(f);
	for (const struct opt_def *o = wl_messaging.options; o->name; o++) {
		char s[64];

		snprintf(s, sizeof(s), "--%s", o->long_flag ? o->long_flag
							    : o->name);
		assert_non_null(strstr(buf, s));
	}
	assert_non_null(strstr(buf, "-g, --groups=NUM"));
	assert_non_null(strstr(buf, "default 10"));
	free(buf);
}

/* The timed workloads: each one's duration is runtime, in seconds. */
static const struct workload *const timed[] = {
	&wl_rr, &wl_wakeup, &wl_dbench, &wl_tbench, &wl_pgbench, &wl_sysbench,
};

static void test_durations(void **state)
{
	static const struct { const char *s; unsigned long long v; } ok[] = {
		{ "30", 30 }, { "30s", 30 }, { "2m", 120 }, { "1h", 3600 },
		{ "0", 0 }, { "24h", 86400 }, { "1440m", 86400 },
	};
	static const char *const junk[] = {
		"", "s", "-1", "+1", " 1", "1 ", "1x", "1ms", "1.5", "1m2", "m1",
		"0x10", "1d",
	};
	unsigned long long v;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(opt_parse_duration(ok[i].s, 86400, &v), 0);
		assert_int_equal(v, ok[i].v);
	}
	for (size_t i = 0; i < ARRAY_SIZE(junk); i++)
		if (opt_parse_duration(junk[i], 86400, &v) != -1)
			fail_msg("'%s' taken as a duration", junk[i]);
	assert_int_equal(opt_parse_duration("86401", 86400, &v), -2);
	assert_int_equal(opt_parse_duration("1441m", 86400, &v), -2);
	assert_int_equal(opt_parse_duration("25h", 86400, &v), -2);
	assert_int_equal(opt_parse_duration("99999999999999999999", 86400, &v), -2);
	assert_int_equal(opt_parse_duration("5124095576030432h", ~0ull, &v), -2);
}

static void test_every_timed_workload_takes_runtime(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(timed); i++) {
		const struct workload *wl = timed[i];
		const struct opt_def *o = opt_find(wl->options, "runtime");
		void *cfg = calloc(1, wl->cfg_size);
		char buf[32];

		assert_non_null(o);
		assert_string_equal(o->name, "runtime");
		assert_int_equal(o->type, OPT_DURATION);
		opts_defaults(wl->options, cfg);
		assert_int_equal(opt_set(o, cfg, "30s", "t"), 0);
		opt_format(o, cfg, buf, sizeof(buf));
		assert_string_equal(buf, "30");
		assert_int_equal(opt_set(o, cfg, "2m", "t"), 0);
		opt_format(o, cfg, buf, sizeof(buf));
		assert_string_equal(buf, "120");
		free(cfg);
	}
	/* the old names are aliases of it */
	assert_ptr_equal(opt_find(wl_rr.options, "length"),
			 opt_find(wl_rr.options, "runtime"));
	for (size_t i = 2; i < ARRAY_SIZE(timed); i++)
		assert_ptr_equal(opt_find(timed[i]->options, "time"),
				 opt_find(timed[i]->options, "runtime"));
	assert_null(opt_find(wl_wakeup.options, "time"));
}

static void test_duration_messages(void **state)
{
	const struct opt_def *o = opt_find(wl_rr.options, "length");
	struct rr_cfg c;
	int saved = dup(2);
	FILE *tmp = tmpfile();

	(void)state;
	opts_defaults(wl_rr.options, &c);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	assert_int_equal(opt_set(o, &c, "1.5s", "x.job:3: length"), -1);
	assert_int_equal(opt_set(o, &c, "0", "x.job:4: runtime"), -1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	memset(errbuf, 0, sizeof(errbuf));
	if (fread(errbuf, 1, sizeof(errbuf) - 1, tmp) == 0)
		errbuf[0] = '\0';
	fclose(tmp);
	assert_string_equal(errbuf,
		"schedlab: x.job:3: length: '1.5s' is not a duration (expected a duration in 1..31536000 seconds, such as 30, 30s, 2m or 1h)\n"
		"schedlab: x.job:4: runtime: '0' is out of range (expected a duration in 1..31536000 seconds, such as 30, 30s, 2m or 1h)\n");
	assert_int_equal(c.length, 10);
}

/* Parses argv into a config of wl; -1 on a mistake. */
static int parse_wl(const struct workload *wl, void *cfg, char **argv, int argc)
{
	struct opt_target t = { wl->options, cfg };

	opts_defaults(wl->options, cfg);
	return opts_parse_argv(&t, 1, argc, argv, "test", false);
}

static void test_aliases(void **state)
{
	struct pipe_cfg p;
	struct rr_cfg r;
	char *a1[] = { "pipe", "--loop", "7" }, *a2[] = { "pipe", "--loops=8" };
	char *a3[] = { "pipe", "-l", "9" };
	char *r1[] = { "rr", "--length", "2m", "--request-size", "5",
		       "--response_size", "6" };
	char *r2[] = { "rr", "--runtime=1h", "-l", "30s" };

	(void)state;
	assert_ptr_equal(opt_find(wl_pipe.options, "loop"),
			 opt_find(wl_pipe.options, "loops"));
	assert_string_equal(opt_find(wl_pipe.options, "loop")->name, "loops");
	assert_ptr_equal(opt_find(wl_rr.options, "request-size"),
			 opt_find(wl_rr.options, "request_size"));
	assert_string_equal(opt_find(wl_wakeup.options, "cache-footprint")->name,
			    "footprint_kb");
	assert_string_equal(opt_find(wl_wakeup.options, "threads")->name,
			    "workers");
	assert_null(opt_find(wl_pipe.options, "loopz"));
	assert_null(opt_find(wl_pipe.options, "lo"));
	assert_true(opt_name_eq("a-b_c", "a_b-c"));
	assert_false(opt_name_eq("a-b", "a-bc"));
	assert_false(opt_name_eq("ab", "a_b"));

	assert_int_equal(parse_wl(&wl_pipe, &p, a1, 3), 3);
	assert_int_equal(p.loops, 7);
	assert_int_equal(parse_wl(&wl_pipe, &p, a2, 2), 2);
	assert_int_equal(p.loops, 8);
	assert_int_equal(parse_wl(&wl_pipe, &p, a3, 3), 3);
	assert_int_equal(p.loops, 9);
	assert_int_equal(parse_wl(&wl_rr, &r, r1, 7), 7);
	assert_int_equal(r.length, 120);
	assert_int_equal(r.request_size, 5);
	assert_int_equal(r.response_size, 6);
	assert_int_equal(parse_wl(&wl_rr, &r, r2, 4), 4);
	assert_int_equal(r.length, 30);
}

/*
 * In every workload's table each name and alias finds its own entry, an
 * option's long option is its name (no long_flag of its own), and no
 * flag's long spelling hides an option's.
 */
static void test_every_name_finds_its_option(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct opt_def *tab = workloads[i]->options;

		for (const struct opt_def *o = tab; o->name; o++) {
			if (o->set) {
				if (o->long_flag)
					assert_null(opt_find(tab, o->long_flag));
				continue;
			}
			assert_null(o->long_flag);
			assert_ptr_equal(opt_find(tab, o->name), o);
			for (const char *const *a = o->alias; a && *a; a++) {
				assert_ptr_equal(opt_find(tab, *a), o);
				for (const struct opt_def *f = tab; f->name; f++)
					if (f->set && f->long_flag)
						assert_false(opt_name_eq(f->long_flag, *a));
			}
		}
	}
}

static void test_help_shows_aliases(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	opts_help(f, wl_rr.options);
	opts_help(f, wl_pipe.options);
	opts_help(f, wl_wakeup.options);
	opts_help(f, wl_pgbench.options);
	fclose(f);
	assert_non_null(strstr(buf, "  -l, --runtime, --length=SECS\n"));
	assert_non_null(strstr(buf, "      --request_size, --request-size=BYTES\n"));
	assert_non_null(strstr(buf, "  -l, --loops, --loop=NUM "));
	assert_non_null(strstr(buf, "  -F, --footprint_kb, --footprint-kb, --cache_footprint=KIB\n"));
	assert_non_null(strstr(buf, "[a duration in 1..31536000 seconds, such as 30, 30s, 2m or 1h; default 10]"));
	/* a name with '-' is shown as it is: its '_' twin is accepted, not shown */
	assert_non_null(strstr(buf, "      --db-size=SIZE "));
	assert_null(strstr(buf, "--db_size"));
	free(buf);
}

/* opt_set(o, cfg, text), what it says in errbuf. */
static int set_capture(const struct opt_def *o, void *cfg, const char *text)
{
	int rc;

	capture_begin();
	rc = opt_set(o, cfg, text, "option --format");
	capture_end();
	return rc;
}

/* An enum's accept mask: the vocabulary's values a command takes, the
 * others refused and left out of what the error says is taken. */
static void test_enum_accept_mask(void **state)
{
	struct { int format; } cfg = { -1 };
	const struct opt_def o = {
		.name = "format", .type = OPT_ENUM, .offset = 0,
		.choices = out_format_names, .accept = FMT(TEXT) | FMT(JSON),
	};

	(void)state;
	assert_int_equal(set_capture(&o, &cfg, "json"), 0);
	assert_int_equal(cfg.format, FMT_JSON);
	assert_int_not_equal(set_capture(&o, &cfg, "markdown"), 0);
	assert_int_equal(cfg.format, FMT_JSON);
	assert_non_null(strstr(errbuf, "'markdown' is not one this command takes"));
	assert_non_null(strstr(errbuf, "(expected one of text, json)"));
	assert_int_not_equal(set_capture(&o, &cfg, "yaml"), 0);
	assert_non_null(strstr(errbuf, "(expected one of text, json)"));
}

/* A combination refused by the first entry of a command's table that
 * holds both, with its names in the message; others pass. */
static void test_out_refused(void **state)
{
	static const struct out_refusal tab[] = {
		{ LAYOUT(WIDE) | LAYOUT(GRID), FMT(CSV) | FMT(JSON),
		  "--layout %s with --format %s: no" },
		{ LAYOUT(RUN), FMT(MARKDOWN), "second" },
		{ 0 },
	};
	int rc[4];

	(void)state;
	capture_begin();
	rc[0] = out_refused("cmd", tab, LAYOUT_WIDE, FMT_TEXT);
	rc[1] = out_refused("cmd", tab, LAYOUT_MMTESTS, FMT_JSON);
	rc[2] = out_refused("cmd", tab, LAYOUT_GRID, FMT_JSON);
	rc[3] = out_refused("cmd", tab, LAYOUT_RUN, FMT_MARKDOWN);
	capture_end();
	assert_int_equal(rc[0], 0);
	assert_int_equal(rc[1], 0);
	assert_int_equal(rc[2], -1);
	assert_int_equal(rc[3], -1);
	assert_non_null(strstr(errbuf, "cmd: --layout grid with --format json: no\n"));
	assert_non_null(strstr(errbuf, "cmd: second\n"));
	assert_null(strstr(errbuf, "wide"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_hackbenchs),
		cmocka_unit_test(test_short_and_long_flags),
		cmocka_unit_test(test_canonical_names_and_values),
		cmocka_unit_test(test_bad_numbers_are_refused),
		cmocka_unit_test(test_messages_say_what_is_wrong),
		cmocka_unit_test(test_conflicting_flags),
		cmocka_unit_test(test_unknown_and_missing),
		cmocka_unit_test(test_opt_set_for_job_files),
		cmocka_unit_test(test_every_workload_table_is_sound),
		cmocka_unit_test(test_help_lists_every_spelling),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_every_timed_workload_takes_runtime),
		cmocka_unit_test(test_duration_messages),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_every_name_finds_its_option),
		cmocka_unit_test(test_help_shows_aliases),
		cmocka_unit_test(test_enum_accept_mask),
		cmocka_unit_test(test_out_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
