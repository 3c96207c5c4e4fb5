// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: argv_join(), the one joiner of words: quoted so a shell (and
 * ext_split()) splits it back, or plain as perf stat names a command.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util.h"

static void join(char *const *argv, bool quote, const char *want)
{
	char *s = argv_join(argv, quote);

	assert_string_equal(s, want);
	free(s);
}

static void test_join_quoted(void **state)
{
	static char *const plain[] = { "schedlab", "run", "-n", "3", NULL };
	static char *const odd[] = { "sh", "-c", "echo \"$1\"", "a b", "",
				     "it's", "back\\slash", "tab\there", NULL };
	static char *const none[] = { NULL };

	(void)state;
	join(plain, true, "schedlab run -n 3");
	join(odd, true, "sh -c 'echo \"$1\"' 'a b' '' 'it'\\''s' "
			"'back\\slash' 'tab\there'");
	join(none, true, "");
}

/* perf stat's "Performance counter stats for 'sh -c a b'" */
static void test_join_plain(void **state)
{
	static char *const odd[] = { "sh", "-c", "echo \"$1\"", "a b", "",
				     "it's", NULL };

	(void)state;
	join(odd, false, "sh -c echo \"$1\" a b  it's");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_quoted),
		cmocka_unit_test(test_join_plain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
