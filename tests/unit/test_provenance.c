// SPDX-License-Identifier: GPL-2.0-only
/*
 * provenance: the git item and sysenv_git_describe() against a real
 * repository made in a temporary directory - none, no commit yet, a
 * tagged commit, a dirty tree, a commit past the tag - and the kernel's
 * build id item as this machine gives it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define TMPDIR_TAG "provenance"
#include "tmpdir.h"

#include "probe/sysenv.h"

/* Runs a shell command in the repository; fails the test if it fails. */
static void sh(const char *cmd)
{
	char line[1024];

	snprintf(line, sizeof(line), "cd '%s' && (%s) >/dev/null 2>&1", tmp, cmd);
	if (system(line))
		fail_msg("failed: %s", cmd);
}

/* The first line a shell command prints. */
static const char *sh_out(const char *cmd)
{
	static char buf[512];
	char line[1024];
	FILE *p;

	snprintf(line, sizeof(line), "cd '%s' && %s", tmp, cmd);
	p = popen(line, "r");
	assert_non_null(p);
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = '\0';
	pclose(p);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static const char *git_value(const json_t *it, const char *key)
{
	return json_string_value(json_object_get(sysenv_item_value(it), key));
}

static void test_git_item_and_describe(void **state)
{
	char buf[256], top[4096], *real;
	json_t *it;

	(void)state;
	if (system("git --version >/dev/null 2>&1"))
		skip();
	/* git must not find a work tree above the temporary directory */
	snprintf(top, sizeof(top), "%s", tmp);
	*strrchr(top, '/') = '\0';
	setenv("GIT_CEILING_DIRECTORIES", top, 1);
	assert_int_equal(chdir(tmp), 0);
	real = realpath(tmp, NULL);
	assert_non_null(real);

	/* not a work tree */
	strcpy(buf, "junk");
	assert_int_equal(sysenv_git_describe(buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
	it = sysenv_git();
	assert_false(sysenv_item_ok(it));
	if (!strstr(sysenv_item_reason(it), "not inside a git work tree"))
		fail_msg("reason: %s", sysenv_item_reason(it));
	json_decref(it);

	/* a work tree without a commit */
	sh("git init -q .");
	it = sysenv_git();
	assert_false(sysenv_item_ok(it));
	if (!strstr(sysenv_item_reason(it), "without a commit yet"))
		fail_msg("reason: %s", sysenv_item_reason(it));
	json_decref(it);
	assert_int_equal(sysenv_git_describe(buf, sizeof(buf)), -1);

	/* a tagged commit, seen from a subdirectory */
	sh("echo 1 >f && mkdir sub && git add f && git -c user.name=t "
	   "-c user.email=t@example.org commit -q -m one && git -c "
	   "user.name=t -c user.email=t@example.org tag -a -m v7 v7");
	assert_int_equal(chdir("sub"), 0);
	it = sysenv_git();
	assert_true(sysenv_item_ok(it));
	assert_string_equal(git_value(it, "describe"), "v7");
	assert_string_equal(git_value(it, "commit"), sh_out("git rev-parse HEAD"));
	assert_int_equal(strlen(git_value(it, "commit")), 40);
	assert_string_equal(git_value(it, "work_tree"), real);
	json_decref(it);
	assert_int_equal(sysenv_git_describe(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "v7");

	/* a tracked file changed: dirty */
	sh("echo 2 >f");
	assert_int_equal(sysenv_git_describe(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "v7-dirty");

	/* committed: one past the tag */
	sh("git -c user.name=t -c user.email=t@example.org commit -q -am two");
	assert_int_equal(sysenv_git_describe(buf, sizeof(buf)), 0);
	assert_string_equal(buf, sh_out("git describe --always --dirty"));
	if (strncmp(buf, "v7-1-g", 6))
		fail_msg("describe: %s", buf);
	/* a buffer too small for it: cut, still a string */
	assert_int_equal(sysenv_git_describe(buf, 4), 0);
	assert_string_equal(buf, "v7-");

	assert_int_equal(chdir("/"), 0);
	unsetenv("GIT_CEILING_DIRECTORIES");
	free(real);
}

/* git missing from PATH: the item says so. */
static void test_git_not_installed(void **state)
{
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	json_t *it;
	char buf[64];

	(void)state;
	setenv("PATH", path("bin"), 1);	/* no such directory: no git */
	it = sysenv_git();
	assert_false(sysenv_item_ok(it));
	if (!strstr(sysenv_item_reason(it), "git: not found on PATH"))
		fail_msg("reason: %s", sysenv_item_reason(it));
	json_decref(it);
	assert_int_equal(sysenv_git_describe(buf, sizeof(buf)), -1);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/* Where /sys/kernel/notes is, the id is hex of an even length. */
static void test_build_id_here(void **state)
{
	json_t *it = sysenv_build_id();
	const char *v = json_string_value(sysenv_item_value(it));

	(void)state;
	if (!sysenv_item_ok(it)) {
		assert_true(*sysenv_item_reason(it));
		if (!strstr(sysenv_item_reason(it), "/sys/kernel/notes"))
			fail_msg("reason: %s", sysenv_item_reason(it));
	} else {
		assert_non_null(v);
		assert_true(strlen(v) >= 2 && strlen(v) % 2 == 0);
		assert_int_equal(strspn(v, "0123456789abcdef"), strlen(v));
	}
	json_decref(it);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_git_item_and_describe),
		cmocka_unit_test(test_git_not_installed),
		cmocka_unit_test(test_build_id_here),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
