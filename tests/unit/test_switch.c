// SPDX-License-Identifier: GPL-2.0-only
/*
 * switch: the restore journal's escaping and text; as root, on the real
 * kernel.sched_rr_timeslice_ms: prepare (journal written, nothing
 * changed), apply, restore, close; a refused value and a missing file
 * failing with nothing changed; recovery of what a schedlab killed
 * without closing left (a fork()ed child that _exit()s), of a journal
 * from another boot (dropped), the atexit path; a second live schedlab
 * on the same knob refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#define TMPDIR_TAG "switch"
#include "tmpdir.h"

#include "harness/journal.h"
#include "harness/knob.h"
#include "harness/switch.h"

#define KNOB "/proc/sys/kernel/sched_rr_timeslice_ms"
#define KEY "sysctl.kernel.sched_rr_timeslice_ms"

static char orig[64];		/* the knob's value when the tests began */
static char other[16];		/* a value it does not have */

static void read_knob(char *buf, size_t len)
{
	assert_true(knob_read(KNOB, buf, len) > 0);
}

/*
 * The knob is the machine's, shared with any other test suite running
 * here at once: held under the integration tests' lock (lib.sh's
 * knob_lock) while this file's tests run.
 */
static int knob_setup(void **state)
{
	int fd = open("/tmp/schedlab-tests-knobs.lock", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd >= 0)
		flock(fd, LOCK_EX);	/* released when the test program exits */
	if (setup(state))
		return -1;
	setenv("SCHEDLAB_STATE_DIR", tmp, 1);
	if (knob_read(KNOB, orig, sizeof(orig)) <= 0)
		return -1;
	snprintf(other, sizeof(other), "%d", atoi(orig) == 37 ? 38 : 37);
	return 0;
}

static int knob_teardown(void **state)
{
	char now[64];

	/* whatever a failed test left, the original goes back */
	if (knob_read(KNOB, now, sizeof(now)) > 0 && strcmp(now, orig))
		knob_write(KNOB, orig);
	return teardown(state);
}

/* How many journals (and temporary ones) the state directory holds. */
static int journals(char *first, size_t len)
{
	DIR *d = opendir(path("restore"));
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			if (!n && first)
				snprintf(first, len, "%s", path("restore"));
			if (!n && first)
				snprintf(first + strlen(first), len - strlen(first),
					 "/%s", e->d_name);
			n++;
		}
	closedir(d);
	return n;
}

/* A one-case plan that sets key to value. */
struct one {
	struct setting set;
	struct plan_case c;
	struct plan p;
};

static void one_plan(struct one *o, const char *key, const char *value)
{
	memset(o, 0, sizeof(*o));
	o->set.key = (char *)key;
	o->set.value = (char *)value;
	o->c.seq = 1;
	o->c.set = &o->set;
	o->c.nset = 1;
	o->c.task = (struct task_settings){ .policy = -1, .uclamp_min = -1,
					    .uclamp_max = -1 };
	o->p.cases = &o->c;
	o->p.ncases = 1;
}

static void skip_unless_root(void)
{
	if (geteuid())
		skip();
}

static void test_escape_round_trip(void **state)
{
	static const char *const in[] = {
		"plain", "0 1 2", "a%b", "two\nlines", "tab\there",
		"\x01\x7f\xc3\xa9", "always [madvise] never", "",
	};
	char *e, *u;

	(void)state;
	e = journal_escape("a b%c\nd\x01\xc3\xa9");
	assert_string_equal(e, "a%20b%25c%0Ad%01%C3%A9");
	free(e);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		e = journal_escape(in[i]);
		assert_null(strpbrk(e, " \n\t"));
		u = journal_unescape(e);
		assert_non_null(u);
		assert_string_equal(u, in[i]);
		free(e);
		free(u);
	}
	assert_null(journal_unescape("%G1"));
	assert_null(journal_unescape("ab%2"));
	assert_null(journal_unescape("%00"));	/* would cut the value */
}

static void test_journal_text(void **state)
{
	struct journal j = { .pid = 1234 }, back;
	char *text, *name;

	(void)state;
	snprintf(j.boot, sizeof(j.boot), "b00t");
	journal_add(&j, JOURNAL_FILE, KNOB, "100");
	journal_add(&j, JOURNAL_FEATURE, "/sys/kernel/debug/sched/features",
		    "TTWU_QUEUE");
	journal_add(&j, JOURNAL_FILE, "/sys/x y", "0 1\n2");
	journal_add(&j, JOURNAL_CGROUP, "/sys/fs/cgroup/cpu/schedlab-1234-1",
		    NULL);
	text = journal_text(&j);
	assert_string_equal(text,
		"schedlab-restore 1 pid=1234 boot=b00t\n"
		"file " KNOB " 100\n"
		"feature /sys/kernel/debug/sched/features TTWU_QUEUE\n"
		"file /sys/x%20y 0%201%0A2\n"
		"cgroup /sys/fs/cgroup/cpu/schedlab-1234-1\n");
	assert_int_equal(journal_parse(text, &back), 0);
	assert_int_equal(back.pid, 1234);
	assert_string_equal(back.boot, "b00t");
	assert_int_equal(back.n, 4);
	assert_string_equal(back.items[2].path, "/sys/x y");
	assert_string_equal(back.items[2].value, "0 1\n2");
	assert_int_equal(back.items[3].kind, JOURNAL_CGROUP);
	assert_null(back.items[3].value);
	name = journal_item_name(&back.items[0]);
	assert_string_equal(name, KEY "=100");
	free(name);
	name = journal_item_name(&back.items[1]);
	assert_string_equal(name, "sched_feat=TTWU_QUEUE");
	free(name);
	journal_free(&back);
	free(text);
	journal_free(&j);
	assert_int_equal(journal_parse("schedlab-restore 1 pid=1 boot=x\nfile /a\n",
				       &back), -1);
	assert_int_equal(journal_parse("something else\n", &back), -1);
}

static void test_state_dir(void **state)
{
	char buf[512], small[4];

	(void)state;
	assert_int_equal(switch_state_dir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, tmp);
	assert_int_equal(switch_state_dir(small, sizeof(small)), -1);
	unsetenv("SCHEDLAB_STATE_DIR");
	setenv("XDG_STATE_HOME", "/xdg", 1);
	assert_int_equal(switch_state_dir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, geteuid() ? "/xdg/schedlab" : "/var/lib/schedlab");
	unsetenv("XDG_STATE_HOME");
	setenv("SCHEDLAB_STATE_DIR", tmp, 1);
}

static void test_round_trip(void **state)
{
	struct switchboard *sb;
	struct journal j;
	struct one o;
	char now[64], jpath[1024], err[256], *text;
	FILE *f;
	long n;

	(void)state;
	skip_unless_root();
	one_plan(&o, KEY, other);
	assert_int_equal(switch_prepare(&o.p, 1, NULL, &sb), 0);
	assert_non_null(sb);
	/* journalled, tried, and back to the original before any iteration */
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
	assert_int_equal(journals(jpath, sizeof(jpath)), 1);
	f = fopen(jpath, "r");
	assert_non_null(f);
	text = calloc(1, 4096);
	n = (long)fread(text, 1, 4095, f);
	fclose(f);
	assert_true(n > 0);
	assert_int_equal(journal_parse(text, &j), 0);
	assert_int_equal(j.pid, getpid());
	assert_int_equal(j.n, 1);
	assert_string_equal(j.items[0].path, KNOB);
	assert_string_equal(j.items[0].value, orig);
	journal_free(&j);
	free(text);

	for (int round = 0; round < 3; round++) {
		assert_int_equal(switch_apply(sb, 0, 0, err, sizeof(err)), 0);
		read_knob(now, sizeof(now));
		assert_string_equal(now, other);
		switch_restore(sb, 0, 0);
		read_knob(now, sizeof(now));
		assert_string_equal(now, orig);
		assert_true(switch_last_us(sb) > 0);
		/* open, write, close twice: far below a millisecond */
		assert_true(switch_last_us(sb) < 1000);
	}
	assert_int_equal(switch_apply(sb, 0, 0, err, sizeof(err)), 0);
	/* close puts back what an apply left */
	assert_int_equal(switch_close(sb), 0);
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
	assert_int_equal(journals(NULL, 0), 0);
}

/* Nothing to switch: no board, no journal. */
static void test_nothing(void **state)
{
	struct switchboard *sb = (void *)1;
	struct one o;

	(void)state;
	one_plan(&o, "nice", "5");
	assert_int_equal(switch_prepare(&o.p, 1, NULL, &sb), 0);
	assert_null(sb);
	assert_int_equal(journals(NULL, 0), 0);
	assert_int_equal(switch_close(NULL), 0);
	assert_int_equal(switch_recover(), 0);
}

static void test_refused(void **state)
{
	static const char *const names[] = { "variant slice" };
	struct switchboard *sb;
	struct one o;
	char now[64];

	(void)state;
	skip_unless_root();
	one_plan(&o, KEY, "abc");
	capture();
	assert_int_equal(switch_prepare(&o.p, 1, names, &sb), -1);
	assert_said("variant slice: " KEY "=abc: the kernel refuses the value");
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
	assert_int_equal(journals(NULL, 0), 0);

	one_plan(&o, "sysctl.kernel.nope", "1");
	capture();
	assert_int_equal(switch_prepare(&o.p, 1, names, &sb), -1);
	assert_said("variant slice: sysctl.kernel.nope: /proc/sys/kernel/nope does not exist");
	assert_int_equal(journals(NULL, 0), 0);

	one_plan(&o, "/proc/self/cwd", "1");
	capture();
	assert_int_equal(switch_prepare(&o.p, 1, NULL, &sb), -1);
	assert_said("outside /proc and /sys");

	one_plan(&o, "scx", "scx_simple");
	capture();
	if (access("/sys/kernel/sched_ext", F_OK)) {
		assert_int_equal(switch_prepare(&o.p, 1, NULL, &sb), -1);
		assert_said("scx: this kernel has no sched_ext (/sys/kernel/sched_ext does not exist)");
	}
	captured();
}

/* A value the kernel takes but shows otherwise is kept, warned once. */
static void test_reads_back(void **state)
{
	struct switchboard *sb;
	struct one o;
	char now[64];

	(void)state;
	skip_unless_root();
	one_plan(&o, KEY, "-5");	/* 0 and below: the default slice */
	capture();
	assert_int_equal(switch_prepare(&o.p, 1, NULL, &sb), 0);
	assert_said(KEY "=-5 reads back as ");
	assert_int_equal(switch_close(sb), 0);
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
}

/* A child that prepares, applies and ends as exit_how says. */
static pid_t child(int exit_how)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		struct switchboard *sb;
		struct one o;
		char err[256];

		one_plan(&o, KEY, other);
		if (switch_prepare(&o.p, 1, NULL, &sb) ||
		    switch_apply(sb, 0, 0, err, sizeof(err)))
			_exit(1);
		if (exit_how)
			exit(3);	/* the atexit handler closes */
		_exit(0);		/* as SIGKILL would: nothing closed */
	}
	return pid;
}

static void test_recover_killed(void **state)
{
	char now[64], msg[256];
	int status;
	pid_t pid;

	(void)state;
	skip_unless_root();
	pid = child(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	/* left changed, with its journal */
	read_knob(now, sizeof(now));
	assert_string_equal(now, other);
	assert_int_equal(journals(NULL, 0), 1);
	capture();
	assert_int_equal(switch_recover(), 1);
	snprintf(msg, sizeof(msg),
		 "schedlab: restored 1 knob left by schedlab pid %d (killed?): " KEY "=%s",
		 (int)pid, orig);
	assert_said(msg);
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
	assert_int_equal(journals(NULL, 0), 0);
	/* and nothing more to do */
	assert_int_equal(switch_recover(), 0);
}

static void test_atexit(void **state)
{
	char now[64];
	int status;
	pid_t pid;

	(void)state;
	skip_unless_root();
	pid = child(1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 3);
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
	assert_int_equal(journals(NULL, 0), 0);
}

static void test_other_boot(void **state)
{
	char now[64], text[256];
	FILE *f;

	(void)state;
	skip_unless_root();
	mkdir(path("restore"), 0755);
	snprintf(text, sizeof(text),
		 "schedlab-restore 1 pid=99999 boot=not-this-boot\nfile " KNOB " %s\n",
		 other);
	f = fopen(path("restore/99999.journal"), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	capture();
	assert_int_equal(switch_recover(), 0);
	assert_said("removed the restore journal of schedlab pid 99999 from an earlier boot");
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);		/* not written */
	assert_int_equal(journals(NULL, 0), 0);
}

/* A live schedlab's journal on the same knob: refused, naming its pid. */
static void test_live_conflict(void **state)
{
	struct switchboard *sb;
	struct one o;
	int go[2], ready[2], status;
	char c, msg[128], now[64];
	pid_t pid;

	(void)state;
	skip_unless_root();
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		one_plan(&o, KEY, other);
		if (switch_prepare(&o.p, 1, NULL, &sb))
			_exit(1);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(switch_close(sb) ? 3 : 0);
	}
	assert_int_equal(read(ready[0], &c, 1), 1);
	/* its lock held: recovery leaves it */
	assert_int_equal(switch_recover(), 0);
	assert_int_equal(journals(NULL, 0), 1);
	one_plan(&o, KEY, "50");
	capture();
	assert_int_equal(switch_prepare(&o.p, 1, NULL, &sb), -1);
	snprintf(msg, sizeof(msg), KEY ": schedlab pid %d is switching " KNOB " too",
		 (int)pid);
	assert_said(msg);
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(journals(NULL, 0), 0);
	read_knob(now, sizeof(now));
	assert_string_equal(now, orig);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_round_trip),
		cmocka_unit_test(test_journal_text),
		cmocka_unit_test(test_state_dir),
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_reads_back),
		cmocka_unit_test(test_recover_killed),
		cmocka_unit_test(test_atexit),
		cmocka_unit_test(test_other_boot),
		cmocka_unit_test(test_live_conflict),
	};

	return cmocka_run_group_tests(tests, knob_setup, knob_teardown);
}
