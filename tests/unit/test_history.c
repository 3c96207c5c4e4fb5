// SPDX-License-Identifier: GPL-2.0-only
/*
 * history's judge line: the SUITE or JOBFILE of the `schedlab run` that
 * stored a run, read back from its command line as store_command_line()
 * writes it (argv_join()'s quoting), whatever options came before it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "history/history.h"
#include "util.h"

static char *spec_of(const char *command)
{
	struct store_series_case c = { .command = (char *)command };

	return history_judge_spec(&c);
}

static void expect_spec(const char *command, const char *want)
{
	char *got = spec_of(command);

	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_spec_after_options(void **state)
{
	(void)state;
	expect_spec("schedlab run my.job", "my.job");
	expect_spec("schedlab run --label v1.0-3-gabc --db /tmp/r.db jobs/x.job", "jobs/x.job");
	expect_spec("schedlab run --label=x -q --set groups=4 x.job --iterations 3", "x.job");
	expect_spec("schedlab run -n -q --dry-run x.job", "x.job");
	expect_spec("schedlab run -- -odd.job", "-odd.job");
}

static void test_spec_quoted(void **state)
{
	char *argv[] = { "schedlab", "run", "--set", "argv=sleep 0.1", "--label",
			 "it's", "/tmp/a b/c.job", NULL };
	char *cmd = argv_join(argv, true);

	(void)state;
	expect_spec(cmd, "/tmp/a b/c.job");
	free(cmd);
}

static void test_spec_default_and_not_run(void **state)
{
	(void)state;
	expect_spec("schedlab run --label nightly", "quick");
	expect_spec("schedlab judge --good 1 --bad 2 x.job", NULL);
	expect_spec("schedlab ab x.job --variant 'a: nice=0'", NULL);
	expect_spec(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_after_options),
		cmocka_unit_test(test_spec_quoted),
		cmocka_unit_test(test_spec_default_and_not_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
