// SPDX-License-Identifier: GPL-2.0-only
/*
 * The environment object (probe/sysenv.h) as aligned text: what
 * `schedlab env` prints and `schedlab show` repeats for a stored run.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/sysenv.h"
#include "report/render.h"
#include "stats/noise.h"
#include "util.h"

/* Wide enough for "migration_cost_ns". */
#define LABEL_WIDTH 18

static void label(FILE *f, const char *l)
{
	fprintf(f, "%-*s ", LABEL_WIDTH - 1, l);
}

static json_t *item(const json_t *env, const char *group, const char *name)
{
	return json_object_get(json_object_get(env, group), name);
}

/* The item's value; or NULL having printed "not available (why)". */
static json_t *value_or_why(FILE *f, const json_t *it)
{
	if (sysenv_item_ok(it))
		return sysenv_item_value(it);
	fprintf(f, "not available (%s)\n",
		it ? sysenv_item_reason(it) : "not collected");
	return NULL;
}

/*
 * Scalars as themselves (a real to 6 significant digits), arrays
 * space-separated ("; " between texts; an array within one in
 * parentheses: "(0 1) (2 3)"),
 * objects as k=v: never JSON, whatever the item holds.
 */
void render_env_value(FILE *f, const json_t *v)
{
	const char *key;
	json_t *e;
	size_t i;

	if (!v) {
		fputs("-", f);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		fputs(*json_string_value(v) ? json_string_value(v) : "none", f);
		break;
	case JSON_INTEGER:
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		fprintf(f, "%g", json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		fputs(json_is_true(v) ? "yes" : "no", f);
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, e) {
			if (i)	/* words of a text apart from the next text */
				fputs(json_is_string(e) ? "; " : " ", f);
			if (json_is_array(e))
				fputc('(', f);
			render_env_value(f, e);
			if (json_is_array(e))
				fputc(')', f);
		}
		break;
	case JSON_OBJECT:
		i = 0;
		json_object_foreach((json_t *)v, key, e) {
			fprintf(f, "%s%s=", i++ ? " " : "", key);
			render_env_value(f, e);
		}
		break;
	case JSON_NULL:
		fputs("-", f);
		break;
	}
}

/* "LABEL  value (source)" or "LABEL  not available (why)". */
static void line(FILE *f, const char *l, const json_t *it)
{
	const char *src = json_string_value(json_object_get(it, "source"));
	json_t *v;

	label(f, l);
	if (!(v = value_or_why(f, it)))
		return;
	render_env_value(f, v);
	if (src)
		fprintf(f, " (%s)", src);
	fputc('\n', f);
}

/* cpufreq settings: one value, or "performance on 0-3, powersave on 4-7". */
static void per_cpu_line(FILE *f, const char *l, const json_t *it)
{
	const char *key;
	json_t *v;
	int i = 0;

	if (!json_is_object(sysenv_item_value(it)))
		return line(f, l, it);
	label(f, l);
	json_object_foreach(sysenv_item_value(it), key, v)
		fprintf(f, "%s%s on %s", i++ ? ", " : "", key, json_string_value(v));
	fputc('\n', f);
}

static void print_groups(FILE *f, const json_t *groups)
{
	json_t *g;
	size_t i;

	json_array_foreach(groups, i, g) {
		char *s = cpulist_of_json(g);

		fprintf(f, "%s%s", i ? " " : "", s);
		free(s);
	}
}

/* n thing(s) at the end of buf's text, after ", " unless it is the first */
static void brief_count(char *buf, size_t len, size_t n, const char *thing)
{
	size_t at = strlen(buf);

	snprintf(buf + at, len - at, "%s%zu %s%s", at ? ", " : "", n, thing,
		 n == 1 ? "" : "s");
}

void render_topology_brief(char *buf, size_t len, const json_t *env)
{
	json_t *online = sysenv_item_value(item(env, "cpus", "online"));
	json_t *t = json_object_get(env, "topology"), *v;
	size_t at;

	*buf = '\0';
	if ((v = sysenv_item_value(json_object_get(t, "packages"))))
		brief_count(buf, len, json_array_size(json_object_get(v, "groups")),
			    "package");
	v = sysenv_item_value(json_object_get(t, "smt"));
	if (v)
		brief_count(buf, len, json_array_size(json_object_get(v, "groups")),
			    "core");
	if (online)
		brief_count(buf, len, (size_t)json_integer_value(
			json_object_get(online, "count")), "CPU");
	if ((online = sysenv_item_value(json_object_get(t, "llc"))))
		brief_count(buf, len, json_array_size(json_object_get(online, "groups")),
			    "LLC");
	if (v) {
		at = strlen(buf);
		snprintf(buf + at, len - at, "%sSMT %s", at ? ", " : "",
			 json_integer_value(json_object_get(v, "threads_per_core")) > 1 ?
			 "on" : "off");
	}
}

/* "2 CPUs, 1 package, 2 cores, SMT off, LLC groups: 0-1, NUMA nodes: 0" */
static void topology_line(FILE *f, const json_t *env)
{
	static const char *const parts[] = { "packages", "smt", "llc", "numa" };
	json_t *online = sysenv_item_value(item(env, "cpus", "online"));
	json_t *t = json_object_get(env, "topology"), *v;
	json_int_t n;

	label(f, "topology");
	if (online)
		fprintf(f, "%" JSON_INTEGER_FORMAT " CPUs",
			json_integer_value(json_object_get(online, "count")));
	else
		fputs("? CPUs", f);
	if ((v = sysenv_item_value(json_object_get(t, "packages")))) {
		n = (json_int_t)json_array_size(json_object_get(v, "groups"));
		fprintf(f, ", %" JSON_INTEGER_FORMAT " package%s", n,
			n == 1 ? "" : "s");
	}
	if ((v = sysenv_item_value(json_object_get(t, "smt")))) {
		n = json_integer_value(json_object_get(v, "threads_per_core"));
		fprintf(f, ", %zu cores, SMT ",
			json_array_size(json_object_get(v, "groups")));
		if (n > 1)
			fprintf(f, "on (%" JSON_INTEGER_FORMAT " threads per core)", n);
		else
			fputs("off", f);
	}
	if ((v = sysenv_item_value(json_object_get(t, "llc")))) {
		fputs(", LLC groups: ", f);
		print_groups(f, json_object_get(v, "groups"));
	}
	if ((v = sysenv_item_value(json_object_get(t, "numa")))) {
		json_t *groups = json_object_get(v, "groups");
		json_t *ids = json_object_get(v, "ids");

		fputs(", NUMA nodes: ", f);
		if (json_array_size(ids) == 1) {
			render_env_value(f, ids);
		} else {
			for (size_t i = 0; i < json_array_size(ids); i++) {
				char *s = cpulist_of_json(json_array_get(groups, i));

				fprintf(f, "%s%" JSON_INTEGER_FORMAT " (%s)", i ? " " : "",
					json_integer_value(json_array_get(ids, i)), s);
				free(s);
			}
		}
	}
	fputc('\n', f);
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		char l[32];
		const json_t *it = json_object_get(t, parts[i]);

		if (sysenv_item_ok(it))
			continue;
		snprintf(l, sizeof(l), "  %s", parts[i]);
		line(f, l, it);
	}
}

/* A run made by `schedlab vm run`: what ran the guest (absent else). */
static void vm_line(FILE *f, const json_t *it)
{
	json_t *v, *said;
	const char *accel, *shape, *image, *root, *writable;

	if (!it || !(v = sysenv_item_value(it)))
		return;
	accel = json_string_value(json_object_get(v, "accel"));
	shape = json_string_value(json_object_get(v, "shape"));
	image = json_string_value(json_object_get(v, "kernel_image"));
	root = json_string_value(json_object_get(v, "root"));
	writable = json_string_value(json_object_get(v, "writable"));
	label(f, "vm");
	fprintf(f, "qemu, %s%s, %s, kernel image %s", accel ? accel : "?",
		accel && !strcmp(accel, "tcg") ? " (emulated: times are not the hardware's)" : "",
		shape ? shape : "?", image ? image : "?");
	if (root)
		fprintf(f, ", %s root%s%s", !strcmp(root, "host") ? "the host's" : "a minimal",
			writable ? " written to a " : "", writable ? writable : "");
	fputc('\n', f);
	said = json_object_get(v, "kernel_said");
	for (size_t i = 0; i < json_array_size(said); i++) {
		label(f, i ? "" : "kernel said");
		fprintf(f, "%s\n", json_string_value(json_array_get(said, i)));
	}
}

static void virt_line(FILE *f, const json_t *it)
{
	json_t *v, *ev;
	const char *vendor, *product;

	label(f, "virtualization");
	if (!(v = value_or_why(f, it)))
		return;
	ev = json_object_get(v, "evidence");
	if (!json_is_true(json_object_get(v, "guest"))) {
		fputs("none seen (no hypervisor flag, DMI name or steal time)\n", f);
		return;
	}
	vendor = json_string_value(json_object_get(v, "sys_vendor"));
	product = json_string_value(json_object_get(v, "product_name"));
	fputs("guest", f);
	if (vendor || product)
		fprintf(f, " of %s%s%s", vendor ? vendor : "",
			vendor && product ? " " : "", product ? product : "");
	fputs(" (", f);
	for (size_t i = 0; i < json_array_size(ev); i++)
		fprintf(f, "%s%s", i ? ", " : "",
			json_string_value(json_array_get(ev, i)));
	fputs(")\n", f);
}

static void load_line(FILE *f, const json_t *it, int ncpu)
{
	json_t *v;

	label(f, "load at start");
	if (!(v = value_or_why(f, it)))
		return;
	fprintf(f, "%.2f %.2f %.2f, %" JSON_INTEGER_FORMAT " runnable of %"
		JSON_INTEGER_FORMAT " tasks",
		json_real_value(json_object_get(v, "load1")),
		json_real_value(json_object_get(v, "load5")),
		json_real_value(json_object_get(v, "load15")),
		json_integer_value(json_object_get(v, "runnable")),
		json_integer_value(json_object_get(v, "tasks")));
	if (json_is_true(json_object_get(v, "busy")))
		fprintf(f, " (busy: 1-minute load above half of %d online CPUs)",
			ncpu);
	fputc('\n', f);
}

/* A run's others_during_run, when it has one (runs before it, and
 * `schedlab env`, do not). */
static void others_line(FILE *f, const json_t *it)
{
	json_t *v;

	if (!it)
		return;
	label(f, "others during");
	if (!(v = value_or_why(f, it)))
		return;
	fprintf(f, "%.0f%% of the CPUs' time used by other processes while it ran%s\n",
		json_number_value(v), json_number_value(v) > NOISE_HUGE_OTHERS_MAX ?
		" (busy: no common-sense verdict from one run a side)" : "");
}

/* The servers the run talked to, their CPU counted as the run's. */
static void served_line(FILE *f, const json_t *it)
{
	json_t *v = it ? sysenv_item_value(it) : NULL;

	if (!v)
		return;
	label(f, "served by");
	fprintf(f, "%s: %.2f s of CPU time, counted as the run's\n",
		json_string_value(json_object_get(v, "processes")) ?: "?",
		json_number_value(json_object_get(v, "cpu_s")));
}

/* "v1.2-3-gdeadbee-dirty (commit FULL, work tree DIR)" */

/* The scheduler's and cpuidle's settings, a line each: label, group, item. */
static const struct { const char *label, *group, *name; } knob_lines[] = {
	{ "cpuidle driver", "cpuidle", "driver" },
	{ "cpuidle governor", "cpuidle", "governor" },
	{ "sched features", "sched", "features" },
	{ "features mask", "sched", "features_mask" },
	{ "base_slice_ns", "sched", "base_slice_ns" },
	{ "migration_cost_ns", "sched", "migration_cost_ns" },
	{ "nr_migrate", "sched", "nr_migrate" },
	{ "autogroup", "sched", "autogroup_enabled" },
	{ "numa_balancing", "sched", "numa_balancing" },
	{ "schedstats", "sched", "schedstats" },
	{ "schedstat version", "sched", "schedstat_version" },
};

static void git_text_line(FILE *f, const json_t *it)
{
	json_t *v;

	label(f, "git");
	if (!(v = value_or_why(f, it)))
		return;
	fprintf(f, "%s (commit %s, work tree %s)\n",
		json_string_value(json_object_get(v, "describe")) ?: "?",
		json_string_value(json_object_get(v, "commit")) ?: "?",
		json_string_value(json_object_get(v, "work_tree")) ?: "?");
}

void render_env_text(FILE *f, const json_t *env)
{
	json_t *online = sysenv_item_value(item(env, "cpus", "online"));
	json_t *release = item(env, "kernel", "release"), *v;
	json_t *mem = sysenv_item_value(item(env, "memory", "total_kib"));
	json_t *ext = sysenv_item_value(item(env, "sched", "sched_ext"));

	label(f, "schedlab");
	fprintf(f, "%s\n", json_string_value(json_object_get(env, "schedlab_version")));
	git_text_line(f, json_object_get(env, "git"));
	label(f, "host");
	if ((v = value_or_why(f, item(env, "machine", "hostname")))) {
		json_t *arch = sysenv_item_value(item(env, "machine", "arch"));

		fprintf(f, "%s%s%s%s\n", json_string_value(v), arch ? " (" : "",
			arch ? json_string_value(arch) : "", arch ? ")" : "");
	}
	label(f, "kernel");
	if ((v = value_or_why(f, release))) {
		json_t *ver = sysenv_item_value(item(env, "kernel", "version"));

		fprintf(f, "%s %s\n", json_string_value(v),
			ver ? json_string_value(ver) : "");
	}
	line(f, "kernel build id", item(env, "kernel", "build_id"));
	line(f, "cmdline", item(env, "kernel", "cmdline"));
	line(f, "preempt", item(env, "sched", "preempt"));
	line(f, "cpu", item(env, "machine", "cpu_model"));
	label(f, "cpus online");
	if ((v = value_or_why(f, item(env, "cpus", "online"))))
		fprintf(f, "%" JSON_INTEGER_FORMAT " (%s)\n",
			json_integer_value(json_object_get(v, "count")),
			json_string_value(json_object_get(v, "list")));
	line(f, "cpus allowed", item(env, "cpus", "allowed"));
	line(f, "isolated", item(env, "cpus", "isolated"));
	line(f, "nohz_full", item(env, "cpus", "nohz_full"));
	topology_line(f, env);
	virt_line(f, item(env, "machine", "virtualization"));
	vm_line(f, item(env, "machine", "vm"));
	line(f, "clocksource", item(env, "machine", "clocksource"));
	label(f, "memory");
	if ((v = value_or_why(f, item(env, "memory", "total_kib"))))
		fprintf(f, "%.1f GiB\n", json_integer_value(mem) / 1048576.0);
	line(f, "thp", item(env, "memory", "thp"));
	load_line(f, json_object_get(env, "load_at_start"), online ?
		  (int)json_integer_value(json_object_get(online, "count")) : 0);
	others_line(f, json_object_get(env, "others_during_run"));
	served_line(f, json_object_get(env, "served_during_run"));
	per_cpu_line(f, "cpufreq driver", item(env, "cpufreq", "driver"));
	per_cpu_line(f, "cpufreq governor", item(env, "cpufreq", "governor"));
	for (size_t i = 0; i < ARRAY_SIZE(knob_lines); i++)
		line(f, knob_lines[i].label, item(env, knob_lines[i].group,
						  knob_lines[i].name));
	label(f, "sched_ext");
	if ((ext = value_or_why(f, item(env, "sched", "sched_ext")))) {
		const char *ops = json_string_value(json_object_get(ext, "ops"));

		fprintf(f, "%s%s%s%s\n",
			json_string_value(json_object_get(ext, "state")),
			ops ? " (" : "", ops ? ops : "", ops ? ")" : "");
	}
}
