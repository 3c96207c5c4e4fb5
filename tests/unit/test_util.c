// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: argv_join(), the one joiner of words: quoted so a shell (and
 * ext_split()) splits it back, or plain as perf stat names a command;
 * text_escape() and text_safe(), the one terminal-safe form of labels,
 * paths and tool output.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

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

static void escaped(const char *in, const char *want)
{
	char *s = text_escape(in);

	assert_string_equal(s, want);
	free(s);
}

/* What a terminal would obey is spelled out; UTF-8 text is kept. */
static void test_text_escape(void **state)
{
	(void)state;
	escaped("plain label-1.0", "plain label-1.0");
	escaped("\033[31mred\033[0m", "\\x1b[31mred\\x1b[0m");
	escaped("a\tb\r\nc\x7f", "a\\tb\\r\\nc\\x7f");
	escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* U+009B is CSI to a UTF-8 terminal */
	escaped("x\xc2\x9b" "2Jy", "x\\u009b2Jy");
	/* not UTF-8: a lone continuation byte, a cut sequence, a bad lead */
	escaped("\x9b\xe2\x82 \xff", "\\x9b\\xe2\\x82 \\xff");
	escaped("back\\slash", "back\\slash");
	escaped("", "");
}

/*
 * The stream keeps newlines, and a UTF-8 sequence cut by stdio's buffer
 * (written byte by byte here) comes out whole.
 */
static void test_text_safe_stream(void **state)
{
	static const char in[] = "ok \xe2\x82\xac\n\033]0;title\a\xc2\x9b\n\xe2";
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *f;

	(void)state;
	assert_non_null(mem);
	f = text_safe(mem);
	setvbuf(f, NULL, _IONBF, 0);
	for (size_t i = 0; i < sizeof(in) - 1; i++)
		assert_int_equal(fputc(in[i], f), (unsigned char)in[i]);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fclose(mem), 0);
	assert_string_equal(buf, "ok \xe2\x82\xac\n\\x1b]0;title\\x07\\u009b\n\\xe2");
	free(buf);
}

/* Valid UTF-8 kept; anything else: every byte above 0x7f a '?'. */
static void test_strdup_utf8(void **state)
{
	char *a = xstrdup_utf8("run \xe2\x82\xac"), *b = xstrdup_utf8("x\xff\xe2\x82\xac");

	(void)state;
	assert_string_equal(a, "run \xe2\x82\xac");
	assert_string_equal(b, "x????");
	assert_null(xstrdup_utf8(NULL));
	free(a);
	free(b);
}

static void test_split_commas(void **state)
{
	char **v;
	size_t n = split_commas(" a ,, b c,  ,d", &v);

	(void)state;
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "a");
	assert_string_equal(v[1], "b c");
	assert_string_equal(v[2], "d");
	assert_null(v[3]);
	split_free(v, n);
	assert_int_equal(split_commas("", &v), 0);
	split_free(v, 0);
}

/* Every level made; a file in the way is the directory named. */
static void test_mkdir_p(void **state)
{
	char dir[] = "/tmp/schedlab-mkdir-XXXXXX", path[256], *bad;
	struct stat st;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	assert_null(mkdir_p(path, 0700));
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_null(mkdir_p(path, 0700));
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/f/g/h", dir);
	bad = mkdir_p(path, 0700);
	assert_non_null(bad);
	assert_int_equal(errno, ENOTDIR);
	snprintf(path, sizeof(path), "%s/f/g", dir);
	assert_string_equal(bad, path);
	free(bad);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* This process's own ids, read back; a pid no process has is -1. */
static void test_proc_stat_ids(void **state)
{
	char pid[32], st;
	long ppid = 0, pgrp = 0;

	(void)state;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	assert_int_equal(proc_stat_ids(pid, &st, &ppid, &pgrp), 0);
	assert_int_equal(ppid, (long)getppid());
	assert_int_equal(pgrp, (long)getpgrp());
	assert_true(st == 'R' || st == 'S');
	assert_int_equal(proc_stat_ids("0", &st, &ppid, &pgrp), -1);
}

/* A pipe holding text, its write end closed: what read_fd_all() reads. */
static int pipe_of(const char *text, size_t len)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_all(p[1], text, len), 0);
	close(p[1]);
	return p[0];
}

static void test_read_fd_all(void **state)
{
	char big[40000];
	size_t len = 1;
	char *s;
	int fd;

	(void)state;
	memset(big, 'x', sizeof(big));
	fd = pipe_of("", 0);
	s = read_fd_all(fd, 0, &len);
	close(fd);
	assert_non_null(s);
	assert_int_equal(len, 0);
	assert_string_equal(s, "");
	free(s);
	/* past the first buffer: grown, NUL-terminated */
	fd = open("/proc/self/maps", O_RDONLY);
	assert_true(fd >= 0);
	s = read_fd_all(fd, 0, &len);
	close(fd);
	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	free(s);
	/* at the limit: read; one byte over: EFBIG */
	fd = pipe_of(big, 1000);
	s = read_fd_all(fd, 1000, &len);
	close(fd);
	assert_non_null(s);
	assert_int_equal(len, 1000);
	free(s);
	fd = pipe_of(big, 1001);
	errno = 0;
	assert_null(read_fd_all(fd, 1000, &len));
	assert_int_equal(errno, EFBIG);
	close(fd);
}

static void test_read_all(void **state)
{
	char buf[8];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_all(p[1], "abcdef", 6), 0);
	assert_int_equal(read_all(p[0], buf, 6, -1), 0);
	assert_memory_equal(buf, "abcdef", 6);
	/* nothing comes: time up, not a hang */
	assert_int_equal(read_all(p[0], buf, 1, 20), -1);
	assert_int_equal(write_all(p[1], "ab", 2), 0);
	close(p[1]);
	/* the end before len bytes */
	assert_int_equal(read_all(p[0], buf, 3, 1000), -1);
	close(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_quoted),
		cmocka_unit_test(test_join_plain),
		cmocka_unit_test(test_text_escape),
		cmocka_unit_test(test_text_safe_stream),
		cmocka_unit_test(test_strdup_utf8),
		cmocka_unit_test(test_split_commas),
		cmocka_unit_test(test_mkdir_p),
		cmocka_unit_test(test_proc_stat_ids),
		cmocka_unit_test(test_read_fd_all),
		cmocka_unit_test(test_read_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
