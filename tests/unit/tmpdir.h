/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the unit tests that write files share: a temporary directory for
 * the test binary (setup()/teardown() as cmocka group fixtures, path()
 * for a file in it, named after TMPDIR_TAG, which the includer defines
 * first), and stderr captured to check what an error says: capture(),
 * the call, then assert_said() as often as needed (captured() ends the
 * capture and gives the text). Include after <cmocka.h>.
 */
#ifndef SCHEDLAB_TEST_TMPDIR_H
#define SCHEDLAB_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp[256];

static __attribute__((unused)) const char *path(const char *name)
{
	static char buf[4][512];
	static int n;
	char *p = buf[n++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", tmp, name);
	return p;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(tmp, sizeof(tmp), "%s/schedlab-" TMPDIR_TAG "-XXXXXX",
		 t ? t : "/tmp");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char said[16384];
static int saved_fd = -1;
static FILE *cap;

static __attribute__((unused)) void capture(void)
{
	fflush(stderr);
	cap = tmpfile();
	assert_non_null(cap);
	saved_fd = dup(2);
	dup2(fileno(cap), 2);
}

static __attribute__((unused)) const char *captured(void)
{
	size_t n;

	if (saved_fd < 0)
		return said;
	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	saved_fd = -1;
	rewind(cap);
	n = fread(said, 1, sizeof(said) - 1, cap);
	said[n] = '\0';
	fclose(cap);
	return said;
}

#define assert_said(text)						\
	do {								\
		const char *s_ = captured();				\
		if (!strstr(s_, (text)))				\
			fail_msg("expected \"%s\" in: %s", (text), s_);	\
	} while (0)

#endif
