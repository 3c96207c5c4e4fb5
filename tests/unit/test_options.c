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

#include "harness/options.h"
#include "workload/messaging.h"
#include "workload/pipe.h"
#include "workload/registry.h"

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

/* Runs fn with stderr captured; returns what it printed. */
static char errbuf[4096];
static int parse_capture(struct messaging_cfg *c, const char *a, const char *b)
{
	int saved = dup(2), rc;
	FILE *tmp = tmpfile();

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = parse(c, a, b, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	memset(errbuf, 0, sizeof(errbuf));
	if (fread(errbuf, 1, sizeof(errbuf) - 1, tmp) == 0)
		errbuf[0] = '\0';
	fclose(tmp);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
