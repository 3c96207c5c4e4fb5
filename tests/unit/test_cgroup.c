// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup: the real cgroups of this machine (root; each test skips where
 * the hierarchy it needs is not mounted): a v1 cpu cgroup with a quota
 * that a forked child joins and that cgroup.procs then lists, removed
 * with the child still in it (killed) and no directory left; a v1
 * cpuset given only cpuset.cpus=0 (mems copied from its parent, so a
 * task can join, and then runs on CPU 0 only); two hierarchies, two
 * directories; a file the controller lacks named with the files it has;
 * a controller no hierarchy has, and v2's present but not enabled one.
 */
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#define TMPDIR_TAG "cgroup"
#include "tmpdir.h"

#include "harness/cgroup.h"

/* Whether a hierarchy of fstype (cgroup, cgroup2) has option opt ("cpu"). */
static bool mounted(const char *fstype, const char *opt)
{
	char line[1024], want[64], *save;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	bool yes = false;

	snprintf(want, sizeof(want), " - %s ", fstype);
	while (f && !yes && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *o;

		if (!p)
			continue;
		o = strrchr(line, ' ') + 1;
		o[strcspn(o, "\n")] = '\0';
		for (char *t = strtok_r(o, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			if (!opt || !strcmp(t, opt))
				yes = true;
	}
	if (f)
		fclose(f);
	return yes;
}

static void need_v1(const char *ctrl)
{
	if (geteuid() || !mounted("cgroup", ctrl))
		skip();
}

static const char *name(void)
{
	static char buf[64];
	static int n;

	snprintf(buf, sizeof(buf), "schedlab-test-%d-%d", (int)getpid(), n++);
	return buf;
}

static bool exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

static char *slurp(const char *p)
{
	static char buf[4096];
	FILE *f = fopen(p, "re");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Whether pid is one of the lines of the cgroup.procs file procs. */
static bool lists(const char *procs, pid_t pid)
{
	FILE *f = fopen(procs, "re");
	long p;
	bool yes = false;

	assert_non_null(f);
	while (fscanf(f, "%ld", &p) == 1)
		if (p == pid)
			yes = true;
	fclose(f);
	return yes;
}

/*
 * A child that writes its pid into procs, reports on a pipe (1: joined,
 * 0: refused) and then sleeps until killed.
 */
static pid_t joiner(const char *procs, bool *joined)
{
	int fd[2];
	char c = 0;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		FILE *f = fopen(procs, "we");
		bool ok = f && fprintf(f, "%d", (int)getpid()) > 0;

		ok = f && !fclose(f) && ok;
		c = ok ? '1' : '0';
		if (write(fd[1], &c, 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], &c, 1), 1);
	close(fd[0]);
	*joined = c == '1';
	return pid;
}

static void test_v1_cpu_quota(void **state)
{
	struct setting set[] = { { "cgroup.cpu.cfs_quota_us", "50000" } };
	struct cgroup_set cg;
	char file[512];
	bool joined;
	pid_t pid;
	int status;

	(void)state;
	need_v1("cpu");
	assert_int_equal(cgroup_plan(set, 1, name(), &cg), 0);
	assert_int_equal(cg.ndirs, 1);
	assert_int_equal(cg.nset, 1);
	assert_string_equal(cg.set[0].key, "cpu.cfs_quota_us");
	assert_false(exists(cg.dirs[0]));	/* plan creates nothing */
	assert_int_equal(cgroup_create(&cg), 0);
	assert_int_equal(cg.created, 1);
	snprintf(file, sizeof(file), "%s/cpu.cfs_quota_us", cg.dirs[0]);
	assert_string_equal(cg.file[0], file);
	assert_string_equal(slurp(file), "50000");

	pid = joiner(cg.procs[0], &joined);
	assert_true(joined);
	assert_true(lists(cg.procs[0], pid));
	/* the child is still in it: remove kills it, then the directory goes */
	assert_int_equal(cgroup_remove(&cg), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_false(exists(cg.dirs[0]));
	assert_int_equal(cg.created, 0);
	/* again, and a directory that is gone: nothing to do */
	assert_int_equal(cgroup_remove(&cg), 0);
	assert_int_equal(cgroup_remove_dir(cg.dirs[0]), 0);
	cgroup_set_free(&cg);
}

static void test_v1_cpuset_cpus(void **state)
{
	struct setting set[] = { { "cgroup.cpu.shares", "512" },
				 { "cgroup.cpuset.cpus", "0" } };
	struct cgroup_set cg;
	char file[512], parent[512];
	cpu_set_t cpus;
	bool joined;
	pid_t pid;

	(void)state;
	need_v1("cpuset");
	need_v1("cpu");
	assert_int_equal(cgroup_plan(set, 2, name(), &cg), 0);
	assert_int_equal(cg.ndirs, 2);	/* v1: two hierarchies */
	assert_int_equal(cgroup_create(&cg), 0);
	assert_string_equal(slurp(cg.file[0]), "512");
	assert_string_equal(slurp(cg.file[1]), "0");
	/* mems came from the parent, so that a task can join */
	snprintf(file, sizeof(file), "%s/cpuset.mems", cg.dirs[1]);
	snprintf(parent, sizeof(parent), "%.*s/cpuset.mems",
		 (int)(strrchr(cg.dirs[1], '/') - cg.dirs[1]), cg.dirs[1]);
	assert_string_equal(slurp(file), slurp(parent));

	pid = joiner(cg.procs[1], &joined);
	assert_true(joined);
	assert_true(lists(cg.procs[1], pid));
	assert_int_equal(sched_getaffinity(pid, sizeof(cpus), &cpus), 0);
	assert_int_equal(CPU_COUNT(&cpus), 1);
	assert_true(CPU_ISSET(0, &cpus));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(cgroup_remove(&cg), 0);
	assert_false(exists(cg.dirs[0]));
	assert_false(exists(cg.dirs[1]));
	cgroup_set_free(&cg);
}

/* A file the controller does not have: named with those it has. */
static void test_unknown_file(void **state)
{
	struct setting set[] = { { "cgroup.cpu.shares", "512" },
				 { "cgroup.cpu.wieght", "50" } };
	struct cgroup_set cg;

	(void)state;
	need_v1("cpu");
	assert_int_equal(cgroup_plan(set, 2, name(), &cg), 0);
	capture();
	assert_int_equal(cgroup_create(&cg), -1);
	assert_said("cgroup.cpu.wieght: the cpu controller has no file cpu.wieght (its files: ");
	assert_said(" cpu.shares");
	assert_said("cpu.cfs_quota_us");
	assert_null(strstr(captured(), "cgroup.procs"));
	/* what was created is gone */
	assert_int_equal(cg.created, 0);
	assert_false(exists(cg.dirs[0]));
	cgroup_set_free(&cg);
}

/* A value the kernel refuses: the setting and the file named, nothing left. */
static void test_refused_value(void **state)
{
	struct setting set[] = { { "cgroup.cpu.cfs_quota_us", "lots" } };
	struct cgroup_set cg;

	(void)state;
	need_v1("cpu");
	assert_int_equal(cgroup_plan(set, 1, name(), &cg), 0);
	capture();
	assert_int_equal(cgroup_create(&cg), -1);
	assert_said("cgroup.cpu.cfs_quota_us=lots: ");
	assert_said("/cpu.cfs_quota_us refuses it: Invalid argument");
	assert_false(exists(cg.dirs[0]));
	cgroup_set_free(&cg);
}

/* A controller that no hierarchy has: what v1 and v2 have instead. */
static void test_no_controller(void **state)
{
	struct setting set[] = { { "cgroup.nosuch.max", "1" } };
	struct cgroup_set cg;

	(void)state;
	capture();
	assert_int_equal(cgroup_plan(set, 1, name(), &cg), -1);
	assert_said("cgroup.nosuch.max: no cgroup hierarchy has the nosuch controller (v1 mounts: ");
	if (mounted("cgroup", "cpu"))
		assert_said("cpu");
	if (mounted("cgroup2", NULL))
		assert_said("; v2: ");
	else
		assert_said("; v2: not mounted)");
	assert_null(cg.dirs);
}

/*
 * The v2 hierarchy without the cpu controller (this machine's), when no
 * v1 hierarchy has cpu either: a cpu setting is refused saying what v2
 * has. Where v1 has cpu the v2 answer is checked with a controller v2
 * lists but does not enable for its children, if there is one.
 */
static void test_v2_without_controller(void **state)
{
	char ctrls[512], on[512], *c, *pick = NULL;
	struct setting set[1];
	struct cgroup_set cg;
	const char *root = "/sys/fs/cgroup/unified";
	char key[96], p[256];

	(void)state;
	if (!mounted("cgroup2", NULL))
		skip();
	if (!exists("/sys/fs/cgroup/unified/cgroup.controllers"))
		root = "/sys/fs/cgroup";
	snprintf(p, sizeof(p), "%s/cgroup.controllers", root);
	if (!exists(p))
		skip();
	snprintf(ctrls, sizeof(ctrls), "%s", slurp(p));
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", root);
	snprintf(on, sizeof(on), " %s ", slurp(p));
	if (!mounted("cgroup", "cpu") && !strstr(ctrls, "cpu")) {
		set[0] = (struct setting){ "cgroup.cpu.weight", "50" };
		capture();
		assert_int_equal(cgroup_plan(set, 1, name(), &cg), -1);
		assert_said("cgroup.cpu.weight: no cgroup hierarchy has the cpu controller");
		assert_said("; v2: ");
		return;
	}
	for (c = strtok(ctrls, " "); c && !pick; c = strtok(NULL, " ")) {
		char w[80];

		snprintf(w, sizeof(w), " %s ", c);
		if (!strstr(on, w) && !mounted("cgroup", c))
			pick = c;
	}
	if (!pick)
		skip();
	snprintf(key, sizeof(key), "cgroup.%s.max", pick);
	set[0] = (struct setting){ key, "1" };
	capture();
	assert_int_equal(cgroup_plan(set, 1, name(), &cg), -1);
	assert_said("has the ");
	assert_said("controller but does not enable it for its children (echo +");
	assert_said("/cgroup.subtree_control)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1_cpu_quota),
		cmocka_unit_test(test_v1_cpuset_cpus),
		cmocka_unit_test(test_unknown_file),
		cmocka_unit_test(test_refused_value),
		cmocka_unit_test(test_no_controller),
		cmocka_unit_test(test_v2_without_controller),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
