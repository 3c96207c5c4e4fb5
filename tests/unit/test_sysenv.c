// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysenv and cpus: the pure parsers (cpulists, "[selected]" values,
 * kernel parameters, uname preemption words, /proc/stat and loadavg
 * lines, the kernel's ELF notes), the busy rule, and the shape of every
 * collected item.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probe/sysenv.h"

static struct cpumask m;

/* The CPUs of m as a cpulist, for comparing with literals. */
static const char *fmt(const struct cpumask *mask)
{
	static char buf[256];

	cpulist_format(mask, buf, sizeof(buf));
	return buf;
}

static void test_cpulist_ranges(void **state)
{
	(void)state;
	assert_int_equal(cpulist_parse("0-3,8-11", &m), 8);
	for (int c = 0; c < 16; c++)
		assert_int_equal(cpumask_test(&m, c), (c <= 3) || (c >= 8 && c <= 11));
	assert_string_equal(fmt(&m), "0-3,8-11");

	assert_int_equal(cpulist_parse("0-1\n", &m), 2);
	assert_string_equal(fmt(&m), "0-1");

	assert_int_equal(cpulist_parse("0,2-3,7", &m), 4);
	assert_string_equal(fmt(&m), "0,2-3,7");

	assert_int_equal(cpulist_parse("8191", &m), 1);
	assert_true(cpumask_test(&m, 8191));
	assert_int_equal(cpumask_next(&m, 0), 8191);
	assert_int_equal(cpumask_next(&m, 8192), -1);
}

static void test_cpulist_single_and_empty(void **state)
{
	(void)state;
	assert_int_equal(cpulist_parse("5", &m), 1);
	assert_true(cpumask_test(&m, 5));
	assert_false(cpumask_test(&m, 4));
	assert_string_equal(fmt(&m), "5");

	assert_int_equal(cpulist_parse("3-3", &m), 1);
	assert_string_equal(fmt(&m), "3");

	/* a memory-only NUMA node's cpulist is an empty line */
	assert_int_equal(cpulist_parse("", &m), 0);
	assert_int_equal(cpulist_parse("\n", &m), 0);
	assert_int_equal(cpumask_next(&m, 0), -1);
	assert_string_equal(fmt(&m), "");
}

static void test_cpulist_garbage(void **state)
{
	static const char *const bad[] = {
		"abc", "1-", "-1", "3-1", "1,,2", "1,", ",1", "1-2-3", "8192",
		"0-8192", "0 1", "0-3:2", "1x", "0x1", "+1", "99999999999999999999",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (cpulist_parse(bad[i], &m) != -1)
			fail_msg("cpulist_parse(\"%s\") accepted it", bad[i]);
	}
}

static void test_cpulist_format_truncates_like_snprintf(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(cpulist_parse("0-3,8-11", &m), 8);
	assert_int_equal(cpulist_format(&m, NULL, 0), 8);
	assert_int_equal(cpulist_format(&m, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "0-3");
}

static void test_cpulist_of_json(void **state)
{
	json_t *a = json_pack("[i,i,i,i,i]", 5, 0, 1, 2, 9);
	char *s = cpulist_of_json(a);

	(void)state;
	assert_string_equal(s, "0-2,5,9");
	free(s);
	json_decref(a);
}

static void test_selected(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(sysenv_selected("always [madvise] never", '[', ']',
					 out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(sysenv_selected("[always] madvise never", '[', ']',
					 out, sizeof(out)), 0);
	assert_string_equal(out, "always");
	assert_int_equal(sysenv_selected("always defer defer+madvise [madvise] never",
					 '[', ']', out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(sysenv_selected("none voluntary (full) lazy", '(', ')',
					 out, sizeof(out)), 0);
	assert_string_equal(out, "full");
	assert_int_equal(sysenv_selected("always madvise never", '[', ']',
					 out, sizeof(out)), -1);
	assert_int_equal(sysenv_selected("always [] never", '[', ']',
					 out, sizeof(out)), -1);
	assert_int_equal(sysenv_selected("always [madvise", '[', ']',
					 out, sizeof(out)), -1);
}

static void test_cmdline_param(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(sysenv_cmdline_param("quiet preempt=full splash",
					      "preempt", out, sizeof(out)), 0);
	assert_string_equal(out, "full");
	/* the last one wins, as in the kernel */
	assert_int_equal(sysenv_cmdline_param("preempt=none ro preempt=lazy\n",
					      "preempt", out, sizeof(out)), 0);
	assert_string_equal(out, "lazy");
	/* after "--" the words are init's */
	assert_int_equal(sysenv_cmdline_param("ro -- preempt=full", "preempt",
					      out, sizeof(out)), -1);
	assert_int_equal(sysenv_cmdline_param("nopreempt=1 preempt", "preempt",
					      out, sizeof(out)), -1);
	assert_int_equal(sysenv_cmdline_param("", "preempt", out, sizeof(out)), -1);
}

static void test_preempt_from_uname(void **state)
{
	(void)state;
	assert_string_equal(sysenv_preempt_from_uname(
		"#1 SMP PREEMPT_DYNAMIC Debian 6.12.38-1"), "dynamic");
	assert_string_equal(sysenv_preempt_from_uname(
		"#1 SMP PREEMPT_RT Fri Jan 3 2025"), "rt");
	assert_string_equal(sysenv_preempt_from_uname(
		"#1 SMP PREEMPT_{RT,DYNAMIC} Mon"), "rt");
	assert_string_equal(sysenv_preempt_from_uname("#1 SMP PREEMPT Debian"),
			    "full");
	assert_string_equal(sysenv_preempt_from_uname("#2 SMP PREEMPT_LAZY"),
			    "lazy");
	assert_null(sysenv_preempt_from_uname("#1 SMP Debian 6.1.140-1"));
	assert_null(sysenv_preempt_from_uname("#1 SMP NOPREEMPT_THING"));
}

/* One ELF note as the kernel lays it out: header, name, descriptor, padded. */
static size_t note(unsigned char *at, uint32_t type, const char *name,
		   const void *desc, uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1, hdr[3] = { namesz, descsz, type };
	size_t n = 0;

	memcpy(at, hdr, sizeof(hdr));
	n += sizeof(hdr);
	memset(at + n, 0, (namesz + 3) & ~3u);
	memcpy(at + n, name, namesz);
	n += (namesz + 3) & ~3u;
	memset(at + n, 0, (descsz + 3) & ~3u);
	memcpy(at + n, desc, descsz);
	n += (descsz + 3) & ~3u;
	return n;
}

/* What /sys/kernel/notes holds on an x86 guest: Xen notes around the id. */
static void test_build_id_notes(void **state)
{
	static const unsigned char id[20] = {
		0x24, 0xa3, 0x59, 0x8f, 0xd7, 0x00, 0x11, 0x4d, 0x0a, 0x1b,
		0x1a, 0x48, 0x71, 0xba, 0xdc, 0xee, 0x75, 0xd0, 0xac, 0xac,
	};
	unsigned char buf[512];
	char hex[64], small[41];
	uint32_t one = 0x101;
	size_t n = 0, k;

	(void)state;
	n += note(buf + n, 6, "Linux", "\x01\x01\x00", 3);
	n += note(buf + n, 3, "Linuy", id, 4);	/* type 3, not GNU's */
	k = n;
	n += note(buf + n, 3, "GNU", id, sizeof(id));
	n += note(buf + n, 0x100, "Linux", "6.1.102\0", 8);
	n += note(buf + n, 18, "Xen", &one, sizeof(one));
	assert_int_equal(sysenv_parse_build_id(buf, n, hex, sizeof(hex)), 0);
	assert_string_equal(hex, "24a3598fd700114d0a1b1a4871badcee75d0acac");
	/* exactly large enough, and one byte short */
	assert_int_equal(sysenv_parse_build_id(buf, n, small, 41), 0);
	assert_string_equal(small, hex);
	assert_int_equal(sysenv_parse_build_id(buf, n, small, 40), -ENOSPC);
	/* the notes before it only: none; cut inside it: malformed */
	assert_int_equal(sysenv_parse_build_id(buf, k, hex, sizeof(hex)), -ENOENT);
	assert_int_equal(sysenv_parse_build_id(buf, k + 20, hex, sizeof(hex)),
			 -EINVAL);
	assert_int_equal(sysenv_parse_build_id(buf, k + 5, hex, sizeof(hex)),
			 -EINVAL);
	assert_int_equal(sysenv_parse_build_id(buf, 0, hex, sizeof(hex)), -ENOENT);
	/* a name size past the end */
	buf[k] = 0xff;
	buf[k + 1] = 0xff;
	assert_int_equal(sysenv_parse_build_id(buf, n, hex, sizeof(hex)), -EINVAL);
	/* an empty id is no id */
	n = note(buf, 3, "GNU", id, 0);
	assert_int_equal(sysenv_parse_build_id(buf, n, hex, sizeof(hex)), -EINVAL);
}

static void test_cpu_line(void **state)
{
	struct cpu_times t;

	(void)state;
	assert_int_equal(sysenv_parse_cpu_line(
		"cpu  3009 0 35124 124176 223 0 87 40 0 0", &t), 0);
	assert_int_equal(t.user, 3009);
	assert_int_equal(t.nice, 0);
	assert_int_equal(t.system, 35124);
	assert_int_equal(t.idle, 124176);
	assert_int_equal(t.iowait, 223);
	assert_int_equal(t.irq, 0);
	assert_int_equal(t.softirq, 87);
	assert_int_equal(t.steal, 40);
	assert_int_equal(cpu_times_total(&t), 3009 + 35124 + 124176 + 223 + 87 + 40);

	/* old kernels: fewer fields, the rest read as 0 */
	assert_int_equal(sysenv_parse_cpu_line("cpu 1 2 3 4\n", &t), 0);
	assert_int_equal(t.idle, 4);
	assert_int_equal(t.iowait, 0);
	assert_int_equal(t.steal, 0);

	assert_int_equal(sysenv_parse_cpu_line("cpu0 1 2 3 4 5 6 7 8", &t), -1);
	assert_int_equal(sysenv_parse_cpu_line("cpu 1 2 3", &t), -1);
	assert_int_equal(sysenv_parse_cpu_line("cpu 1 2 x 4 5", &t), -1);
	assert_int_equal(sysenv_parse_cpu_line("cpu 1 2 3 4 5 6 7 8 9 y", &t), -1);
	assert_int_equal(sysenv_parse_cpu_line("intr 1 2 3 4", &t), -1);
	assert_int_equal(sysenv_parse_cpu_line("", &t), -1);
}

static void test_loadavg_and_busy_rule(void **state)
{
	double l[3];
	int r, n;

	(void)state;
	assert_int_equal(sysenv_parse_loadavg("1.50 0.80 0.40 3/179 9776", l, &r,
					      &n), 0);
	assert_float_equal(l[0], 1.5, 1e-9);
	assert_float_equal(l[1], 0.8, 1e-9);
	assert_float_equal(l[2], 0.4, 1e-9);
	assert_int_equal(r, 3);
	assert_int_equal(n, 179);
	assert_int_equal(sysenv_parse_loadavg("1.50 0.80", l, NULL, NULL), -1);
	assert_int_equal(sysenv_parse_loadavg("load is high", l, NULL, NULL), -1);

	/* busy: 1-minute load above half the online CPUs */
	assert_false(sysenv_load_busy(1.0, 2));
	assert_true(sysenv_load_busy(1.01, 2));
	assert_false(sysenv_load_busy(2.0, 4));
	assert_true(sysenv_load_busy(3.0, 4));
	assert_false(sysenv_load_busy(5.0, 0));
}

static void test_item_shape(void **state)
{
	json_t *ok = sysenv_item(json_integer(3));
	json_t *no = sysenv_missing("%s: %s", "/x", "No such file or directory");

	(void)state;
	assert_true(sysenv_item_ok(ok));
	assert_int_equal(json_integer_value(sysenv_item_value(ok)), 3);
	assert_string_equal(sysenv_item_reason(ok), "");
	assert_false(sysenv_item_ok(no));
	assert_null(sysenv_item_value(no));
	assert_string_equal(sysenv_item_reason(no), "/x: No such file or directory");
	json_decref(ok);
	json_decref(no);
}

/* Every item the machine gives is a value or a non-empty reason. */
static void test_collect_shape(void **state)
{
	json_t *env = sysenv_collect(), *group, *it;
	const char *gname, *iname;
	int items = 0;

	(void)state;
	assert_non_null(env);
	assert_string_equal(json_string_value(json_object_get(env, "schema")),
			    SYSENV_SCHEMA);
	json_object_foreach(env, gname, group) {
		if (!json_is_object(group))
			continue;
		if (json_object_get(group, "available")) {
			it = group;	/* an item of its own: load_at_start */
			assert_true(sysenv_item_ok(it) ||
				    *sysenv_item_reason(it));
			items++;
			continue;
		}
		json_object_foreach(group, iname, it) {
			json_t *a = json_object_get(it, "available");

			if (!json_is_boolean(a))
				fail_msg("%s.%s has no available flag", gname, iname);
			if (json_is_true(a) && !json_object_get(it, "value"))
				fail_msg("%s.%s has no value", gname, iname);
			if (json_is_false(a) && !*sysenv_item_reason(it))
				fail_msg("%s.%s has no reason", gname, iname);
			items++;
		}
	}
	assert_true(items > 30);
	json_decref(env);
}

static void test_cpu_times_here(void **state)
{
	struct cpu_times t;

	(void)state;
	assert_int_equal(sysenv_cpu_times(&t), 0);
	assert_true(cpu_times_total(&t) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_ranges),
		cmocka_unit_test(test_cpulist_single_and_empty),
		cmocka_unit_test(test_cpulist_garbage),
		cmocka_unit_test(test_cpulist_format_truncates_like_snprintf),
		cmocka_unit_test(test_cpulist_of_json),
		cmocka_unit_test(test_selected),
		cmocka_unit_test(test_cmdline_param),
		cmocka_unit_test(test_preempt_from_uname),
		cmocka_unit_test(test_build_id_notes),
		cmocka_unit_test(test_cpu_line),
		cmocka_unit_test(test_loadavg_and_busy_rule),
		cmocka_unit_test(test_item_shape),
		cmocka_unit_test(test_collect_shape),
		cmocka_unit_test(test_cpu_times_here),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
