// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedknobs: the kernel (uname, command line) and the scheduler's
 * settings - preemption model, debugfs sched knobs, sysctls, schedstats,
 * sched_ext - for sysenv. Debugfs is often unmounted, root-only or
 * locked down: each knob says which.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probe/sysenv.h"
#include "util.h"

#define DEBUG_SCHED	"/sys/kernel/debug/sched"
#define LINE		4096

json_t *sysenv_kernel(const struct utsname *u, int uts_err,
		      const char *cmdline, int cmd_err)
{
	json_t *k = json_object();

	json_object_set_new(k, "release", u ? sysenv_item(json_string(
		u->release)) : sysenv_missing("uname: %s", strerror(uts_err)));
	json_object_set_new(k, "version", u ? sysenv_item(json_string(
		u->version)) : sysenv_missing("uname: %s", strerror(uts_err)));
	json_object_set_new(k, "build_id", sysenv_build_id());
	json_object_set_new(k, "cmdline", cmd_err ?
		sysenv_file_missing("/proc/cmdline", cmd_err, NULL) :
		sysenv_item(json_string(cmdline)));
	return k;
}

/* Why a debugfs sched file may be unreadable, worked out once. */
struct debug_hints {
	char enoent[128];
	char eperm[128];
};

static bool debugfs_mounted(void)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dir[256], type[64];
	bool found = false;

	if (!f)
		return false;
	while (!found && fscanf(f, "%*s %255s %63s %*[^\n]", dir, type) == 2)
		found = !strcmp(dir, "/sys/kernel/debug") &&
			!strcmp(type, "debugfs");
	fclose(f);
	return found;
}

static void debug_hints(struct debug_hints *h)
{
	char buf[256], mode[64];
	struct stat st;

	if (!stat(DEBUG_SCHED, &st))
		snprintf(h->enoent, sizeof(h->enoent), "not in this kernel version");
	else if (debugfs_mounted())
		snprintf(h->enoent, sizeof(h->enoent),
			 "kernel without CONFIG_SCHED_DEBUG");
	else
		snprintf(h->enoent, sizeof(h->enoent),
			 "debugfs not mounted at /sys/kernel/debug");
	/* root gets EPERM from debugfs only when the kernel is locked down */
	if (sysenv_read_line("/sys/kernel/security/lockdown", buf, sizeof(buf)) ||
	    sysenv_selected(buf, '[', ']', mode, sizeof(mode)))
		snprintf(h->eperm, sizeof(h->eperm), "kernel lockdown, most likely");
	else if (strcmp(mode, "none"))
		snprintf(h->eperm, sizeof(h->eperm), "kernel lockdown: %s", mode);
	else
		h->eperm[0] = '\0';
}

static json_t *debug_item(const char *name, const struct debug_hints *h,
			  bool words)
{
	char path[128], buf[LINE], *save, *w;
	json_t *a;
	int err;

	snprintf(path, sizeof(path), DEBUG_SCHED "/%s", name);
	err = sysenv_read_line(path, buf, sizeof(buf));
	if (err == -EPERM && h->eperm[0])
		return sysenv_missing("%s: %s; %s", path, strerror(-err), h->eperm);
	if (err)
		return sysenv_file_missing(path, -err, h->enoent);
	if (!words)
		return sysenv_item(sysenv_scalar(buf));
	a = json_array();
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		json_array_append_new(a, json_string(w));
	return sysenv_item(a);
}

/* The Kconfig preemption model, the default of a PREEMPT_DYNAMIC kernel. */
static int config_preempt(const char *release, char *mode, size_t len,
			  char *path, size_t plen)
{
	static const char *const models[][2] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" },
		{ "CONFIG_PREEMPT_LAZY=y", "lazy" },
	};
	char line[256];
	int found = -1;
	FILE *f;

	snprintf(path, plen, "/boot/config-%s", release);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < ARRAY_SIZE(models); i++)
			if (!strncmp(line, models[i][0], strlen(models[i][0])) &&
			    line[strlen(models[i][0])] == '\n') {
				snprintf(mode, len, "%s", models[i][1]);
				found = 0;
			}
	fclose(f);
	return found;
}

/*
 * The preemption model: debugfs says which one is in use; otherwise a
 * PREEMPT_DYNAMIC kernel runs preempt= from the command line or its
 * Kconfig default; otherwise uname -v names the built-in model.
 */
static json_t *preempt(const struct utsname *u, const char *cmdline,
		       const struct debug_hints *h)
{
	char buf[256], mode[64], path[256];
	json_t *dbg = debug_item("preempt", h, false);
	const char *model;

	if (sysenv_item_ok(dbg) &&
	    !sysenv_selected(json_string_value(sysenv_item_value(dbg)), '(',
			     ')', mode, sizeof(mode))) {
		json_decref(dbg);
		return sysenv_with_source(sysenv_item(json_string(mode)),
					  DEBUG_SCHED "/preempt");
	}
	snprintf(buf, sizeof(buf), "%s", sysenv_item_ok(dbg) ?
		 DEBUG_SCHED "/preempt: no mode in parentheses" :
		 sysenv_item_reason(dbg));
	json_decref(dbg);
	if (!u)
		return sysenv_missing("%s; uname failed", buf);
	model = sysenv_preempt_from_uname(u->version);
	if (!model)
		return sysenv_with_source(sysenv_item(json_string(
			"none or voluntary")), "uname -v names no PREEMPT model");
	if (strcmp(model, "dynamic"))
		return sysenv_with_source(sysenv_item(json_string(model)), "uname -v");
	if (cmdline && !sysenv_cmdline_param(cmdline, "preempt", mode,
					     sizeof(mode)))
		return sysenv_with_source(sysenv_item(json_string(mode)),
			"preempt= in /proc/cmdline (PREEMPT_DYNAMIC)");
	if (!config_preempt(u->release, mode, sizeof(mode), path, sizeof(path)))
		return sysenv_with_source(sysenv_item(json_string(mode)),
			"%s (the PREEMPT_DYNAMIC default)", path);
	return sysenv_with_source(sysenv_item(json_string("dynamic")),
		"uname -v PREEMPT_DYNAMIC; the mode in use is unknown: %s", buf);
}

static json_t *sched_ext(void)
{
	const char *state = "/sys/kernel/sched_ext/state";
	char buf[256];
	json_t *v;
	int err = sysenv_read_line(state, buf, sizeof(buf));

	if (err)
		return sysenv_file_missing(state, -err,
					   "kernel without CONFIG_SCHED_CLASS_EXT");
	v = json_pack("{s:s}", "state", buf);
	if (!sysenv_read_line("/sys/kernel/sched_ext/root/ops", buf, sizeof(buf)))
		json_object_set_new(v, "ops", json_string(buf));
	return sysenv_item(v);
}

/* /proc/schedstat's "version N". */
static json_t *schedstat_version(void)
{
	const char *path = "/proc/schedstat";
	char buf[256];
	int v, err = sysenv_read_line(path, buf, sizeof(buf));

	if (err)
		return sysenv_file_missing(path, -err, "kernel without CONFIG_SCHEDSTATS");
	if (sscanf(buf, "version %d", &v) != 1)
		return sysenv_missing("%s: first line '%.64s' is not 'version N'",
				      path, buf);
	return sysenv_item(json_integer(v));
}

/*
 * One value of the "sysctl_sched" block of sched/debug. That file is
 * read-only, so a locked-down kernel still lets root read it when the
 * writable knob files refuse. Stops before the per-CPU dump.
 */
static int debug_sysctl(const char *key, char *out, size_t len)
{
	FILE *f = fopen(DEBUG_SCHED "/debug", "re");
	char line[256], name[128], val[128];
	bool in = false;
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "sysctl_sched", 12))
			in = true;
		else if (in && line[0] == '\n')
			break;
		else if (!in && !strncmp(line, "cpu#", 4))
			break;
		else if (in && sscanf(line, " .%127s : %127s", name, val) == 2 &&
			 !strcmp(name, key)) {
			snprintf(out, len, "%s", val);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* base_slice_ns, or under lockdown sched/debug's base slice in ms. */
static json_t *base_slice(const struct debug_hints *h)
{
	json_t *it = debug_item("base_slice_ns", h, false);
	char buf[128], *end;
	double ms;

	if (sysenv_item_ok(it) ||
	    debug_sysctl("sysctl_sched_base_slice", buf, sizeof(buf)))
		return it;
	ms = strtod(buf, &end);
	if (*end)
		return it;
	json_decref(it);
	return sysenv_with_source(sysenv_item(json_integer(
		(json_int_t)(ms * 1e6 + 0.5))),
		DEBUG_SCHED "/debug sysctl_sched_base_slice (ms)");
}

/* The features as sched/debug's bitmask (names in kernel order). */
static json_t *features_mask(const struct debug_hints *h)
{
	const char *path = DEBUG_SCHED "/debug";
	char buf[128];

	if (!debug_sysctl("sysctl_sched_features", buf, sizeof(buf)))
		return sysenv_item(sysenv_scalar(buf));
	if (access(path, R_OK))
		return sysenv_file_missing(path, errno, h->enoent);
	return sysenv_missing("%s: no sysctl_sched_features line", path);
}

json_t *sysenv_sched(const struct utsname *u, const char *cmdline)
{
	json_t *s = json_object();
	struct debug_hints h;

	debug_hints(&h);
	json_object_set_new(s, "preempt", preempt(u, cmdline, &h));
	json_object_set_new(s, "features", debug_item("features", &h, true));
	json_object_set_new(s, "features_mask", features_mask(&h));
	json_object_set_new(s, "base_slice_ns", base_slice(&h));
	json_object_set_new(s, "migration_cost_ns",
			    debug_item("migration_cost_ns", &h, false));
	json_object_set_new(s, "nr_migrate", debug_item("nr_migrate", &h, false));
	json_object_set_new(s, "autogroup_enabled", sysenv_file_item(
		"/proc/sys/kernel/sched_autogroup_enabled",
		"kernel without CONFIG_SCHED_AUTOGROUP"));
	json_object_set_new(s, "numa_balancing", sysenv_file_item(
		"/proc/sys/kernel/numa_balancing",
		"kernel without CONFIG_NUMA_BALANCING"));
	json_object_set_new(s, "schedstats", sysenv_file_item(
		"/proc/sys/kernel/sched_schedstats",
		"kernel without CONFIG_SCHEDSTATS"));
	json_object_set_new(s, "schedstat_version", schedstat_version());
	json_object_set_new(s, "sched_ext", sched_ext());
	return s;
}
