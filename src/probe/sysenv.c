// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysenv: what the machine, kernel and scheduler were when a run started.
 * Every item is read on its own and recorded as a value or as the reason
 * it could not be read (see sysenv.h); nothing here prints or fails.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probe/env_item.h"
#include "probe/sysenv.h"
#include "util.h"
#include "version.h"

#define LINE		4096

/* ---- parsers -------------------------------------------------------- */

int sysenv_parse_cpu_line(const char *line, struct cpu_times *t)
{
	unsigned long long v[8] = { 0 };
	const char *p;
	int n = 0;

	if (strncmp(line, "cpu", 3) || (line[3] != ' ' && line[3] != '\t'))
		return -1;
	p = line + 3;
	while (n < 8) {
		char *end;

		p += strspn(p, " \t");
		if (!isdigit((unsigned char)*p))
			break;
		errno = 0;
		v[n++] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		p = end;
	}
	/* guest and guest_nice may follow: numbers only */
	if (n < 4 || p[strspn(p, " \t\n0123456789")])
		return -1;
	*t = (struct cpu_times){ v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] };
	return 0;
}

static int read_cpu_times(struct cpu_times *t, char *line, size_t len)
{
	int err = sysenv_read_line("/proc/stat", line, len);

	if (err)
		return err;
	return sysenv_parse_cpu_line(line, t) ? -EINVAL : 0;
}

int sysenv_cpu_times(struct cpu_times *t)
{
	char line[512];
	int err = read_cpu_times(t, line, sizeof(line));

	if (err == -EINVAL)
		return error("/proc/stat: unexpected first line '%s'", line);
	if (err)
		return error("/proc/stat: %s", strerror(-err));
	return 0;
}

int sysenv_parse_loadavg(const char *line, double load[3], int *runnable,
			 int *tasks)
{
	int r, n, end = 0;

	if (sscanf(line, "%lf %lf %lf %d/%d %*d%n", &load[0], &load[1],
		   &load[2], &r, &n, &end) != 5 || !end)
		return -1;
	if (runnable)
		*runnable = r;
	if (tasks)
		*tasks = n;
	return 0;
}

bool sysenv_load_busy(double load1, int ncpu)
{
	return ncpu > 0 && load1 > ncpu / 2.0;
}

bool sysenv_busy(double *load1, int *ncpu)
{
	struct cpumask *m = xcalloc(1, sizeof(*m));
	char buf[LINE];
	double l[3];
	int n = cpus_online(m, buf, sizeof(buf));

	free(m);
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu)
		*ncpu = n;
	if (load1)
		*load1 = -1;
	if (sysenv_read_line("/proc/loadavg", buf, sizeof(buf)) ||
	    sysenv_parse_loadavg(buf, l, NULL, NULL))
		return false;
	if (load1)
		*load1 = l[0];
	return sysenv_load_busy(l[0], n);
}

/* ---- machine -------------------------------------------------------- */

struct cpuinfo {
	int err;		/* opening /proc/cpuinfo */
	char model[256];
	char implementer[32], part[32];	/* arm64 says these instead */
	bool have_flags, hypervisor;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* The first CPU's model and flags. */
static void cpuinfo_scan(struct cpuinfo *ci)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t cap = 0;
	char *line = NULL;

	memset(ci, 0, sizeof(*ci));
	if (!f) {
		ci->err = errno;
		return;
	}
	while (getline(&line, &cap, f) > 0 && !(ci->model[0] && ci->have_flags)) {
		char *colon = strchr(line, ':'), *key, *val;

		if (!colon)
			continue;
		*colon = '\0';
		key = trim(line);
		val = trim(colon + 1);
		if (!ci->model[0] && (!strcmp(key, "model name") ||
				      !strcmp(key, "cpu model") || !strcmp(key, "cpu")))
			snprintf(ci->model, sizeof(ci->model), "%s", val);
		else if (!ci->implementer[0] && !strcmp(key, "CPU implementer"))
			snprintf(ci->implementer, sizeof(ci->implementer), "%s", val);
		else if (!ci->part[0] && !strcmp(key, "CPU part"))
			snprintf(ci->part, sizeof(ci->part), "%s", val);
		else if (!ci->have_flags && !strcmp(key, "flags")) {
			ci->have_flags = true;
			ci->hypervisor = sysenv_has_word(val, "hypervisor");
		}
	}
	free(line);
	fclose(f);
}

static json_t *cpu_model(const struct cpuinfo *ci)
{
	if (ci->err)
		return sysenv_file_missing("/proc/cpuinfo", ci->err, NULL);
	if (ci->model[0])
		return sysenv_item(json_string(ci->model));
	if (ci->implementer[0])
		return sysenv_with_source(sysenv_item(json_sprintf(
			"implementer %s part %s", ci->implementer, ci->part)),
			"/proc/cpuinfo CPU implementer, CPU part");
	return sysenv_missing("/proc/cpuinfo: no 'model name' line");
}

/* DMI names that only virtual machines carry. */
static const char *const vm_vendors[] = {
	"QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen",
	"Virtual Machine", "Google Compute Engine", "Parallels", "BHYVE",
	"OpenStack", "Bochs", "Cloud Hypervisor", "Firecracker",
};

/*
 * Whether this is a guest, and the evidence: the CPU's hypervisor flag,
 * DMI names, /sys/hypervisor/type, steal time. Unavailable only when
 * none of those could be looked at.
 */
static json_t *virtualization(const struct cpuinfo *ci)
{
	static const char *const dmi[] = { "sys_vendor", "product_name" };
	json_t *v = json_object(), *ev = json_array();
	bool looked = ci->have_flags;
	struct cpu_times t;
	char path[128], buf[512];

	if (ci->hypervisor)
		json_array_append_new(ev, json_string("cpuinfo flag hypervisor"));
	for (size_t i = 0; i < ARRAY_SIZE(dmi); i++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", dmi[i]);
		if (sysenv_read_line(path, buf, sizeof(buf)))
			continue;
		looked = true;
		json_object_set_new(v, dmi[i], json_string(buf));
		for (size_t k = 0; k < ARRAY_SIZE(vm_vendors); k++)
			if (strstr(buf, vm_vendors[k])) {
				json_array_append_new(ev, json_sprintf(
					"dmi %s '%s'", dmi[i], buf));
				break;
			}
	}
	if (!sysenv_read_line("/sys/hypervisor/type", buf, sizeof(buf))) {
		looked = true;
		json_object_set_new(v, "hypervisor_type", json_string(buf));
		json_array_append_new(ev, json_sprintf("/sys/hypervisor/type %s",
						       buf));
	}
	if (!read_cpu_times(&t, buf, sizeof(buf)) && t.steal)
		json_array_append_new(ev, json_string("steal time in /proc/stat"));
	if (!looked && !json_array_size(ev)) {
		json_decref(v);
		json_decref(ev);
		return sysenv_missing("no flags in /proc/cpuinfo, no "
			"/sys/class/dmi/id, no /sys/hypervisor/type");
	}
	json_object_set_new(v, "guest", json_boolean(json_array_size(ev)));
	json_object_set_new(v, "evidence", ev);
	return sysenv_item(v);
}

static json_t *machine(const struct utsname *u, int uts_err)
{
	json_t *m = json_object();
	struct cpuinfo ci;

	cpuinfo_scan(&ci);
	json_object_set_new(m, "hostname", u ? sysenv_item(json_string(
		u->nodename)) : sysenv_missing("uname: %s", strerror(uts_err)));
	json_object_set_new(m, "arch", u ? sysenv_item(json_string(
		u->machine)) : sysenv_missing("uname: %s", strerror(uts_err)));
	json_object_set_new(m, "cpu_model", cpu_model(&ci));
	json_object_set_new(m, "virtualization", virtualization(&ci));
	json_object_set_new(m, "clocksource", sysenv_file_item(
		"/sys/devices/system/clocksource/clocksource0/current_clocksource",
		NULL));
	return m;
}

/* ---- memory and load ------------------------------------------------ */

static json_t *mem_total(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kib;

	if (!f)
		return sysenv_file_missing("/proc/meminfo", errno, NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
			fclose(f);
			return sysenv_item(json_integer((json_int_t)kib));
		}
	fclose(f);
	return sysenv_missing("/proc/meminfo: no MemTotal line");
}

static json_t *memory(void)
{
	const char *thp = "/sys/kernel/mm/transparent_hugepage/enabled";
	json_t *m = json_object();
	char buf[256], sel[64];
	int err;

	json_object_set_new(m, "total_kib", mem_total());
	err = sysenv_read_line(thp, buf, sizeof(buf));
	if (err)
		json_object_set_new(m, "thp", sysenv_file_missing(thp, -err,
			"kernel without CONFIG_TRANSPARENT_HUGEPAGE"));
	else if (sysenv_selected(buf, '[', ']', sel, sizeof(sel)))
		json_object_set_new(m, "thp", sysenv_missing(
			"%s: no [selected] value in '%.64s'", thp, buf));
	else
		json_object_set_new(m, "thp", sysenv_item(json_string(sel)));
	return m;
}

static json_t *load(int ncpu)
{
	const char *path = "/proc/loadavg";
	char buf[256];
	double l[3];
	int runnable, tasks, err = sysenv_read_line(path, buf, sizeof(buf));

	if (err)
		return sysenv_file_missing(path, -err, NULL);
	if (sysenv_parse_loadavg(buf, l, &runnable, &tasks))
		return sysenv_missing("%s: cannot parse '%.64s'", path, buf);
	return sysenv_item(json_pack("{s:f, s:f, s:f, s:i, s:i, s:b}",
		"load1", l[0], "load5", l[1], "load15", l[2],
		"runnable", runnable, "tasks", tasks,
		"busy", sysenv_load_busy(l[0], ncpu)));
}

/* ---- the whole ------------------------------------------------------ */

json_t *sysenv_collect(void)
{
	struct cpumask *online = xcalloc(1, sizeof(*online));
	char *cmdline = xmalloc(LINE), why[512];
	struct utsname uts, *u = &uts;
	json_t *env = json_object();
	int uts_err = 0, cmd_err, n;

	if (uname(&uts)) {
		uts_err = errno;
		u = NULL;
	}
	cmd_err = -sysenv_read_line("/proc/cmdline", cmdline, LINE);
	n = cpus_online(online, why, sizeof(why));

	json_object_set_new(env, "schema", json_string(SYSENV_SCHEMA));
	json_object_set_new(env, "schedlab_version", json_string(SCHEDLAB_VERSION));
	json_object_set_new(env, "machine", machine(u, uts_err));
	json_object_set_new(env, "kernel", sysenv_kernel(u, uts_err, cmdline,
							 cmd_err));
	cpus_collect(env, n > 0 ? online : NULL, n, why);
	json_object_set_new(env, "sched", sysenv_sched(u, cmd_err ? NULL : cmdline));
	json_object_set_new(env, "memory", memory());
	json_object_set_new(env, "load_at_start",
		load(n > 0 ? n : (int)sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(env, "git", sysenv_git());
	free(cmdline);
	free(online);
	return env;
}
