// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/kconfig.c: the kernel configuration schedlab's guest needs, as one
 * table: `schedlab vm config` prints it as a fragment (in the manner of
 * the kernel's kernel/configs/ fragments, for scripts/kconfig/
 * merge_config.sh over tinyconfig or defconfig and kvm_guest.config),
 * and `schedlab vm check-config .config` says which of its options a
 * given configuration lacks and what each missing one costs - the boot,
 * a probe, a workload. Options renamed or gone in later kernels carry
 * the versions they hold for (SCHED_DEBUG is gone since 6.15: its
 * debugfs files are always built).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm.h"

struct kopt {
	const char *name;	/* without CONFIG_ */
	const char *cost;	/* what is lost without it */
	unsigned until;		/* the last version it exists in (major *
				 * 100 + minor); 0: every version */
};

static const struct kopt kopts[] = {
	{ "64BIT", "the boot: schedlab and the host's programs are x86-64 (tinyconfig is 32-bit)", 0 },
	{ "PRINTK", "the kernel's messages: a panic's reason, and what it says of its command line", 0 },
	{ "TTY", "the boot: the console and the run's way back are serial ports", 0 },
	{ "SERIAL_8250", "the boot: the serial ports", 0 },
	{ "SERIAL_8250_CONSOLE", "the console log", 0 },
	{ "BLK_DEV_INITRD", "the boot: the guest's init comes in an initramfs", 0 },
	{ "DEVTMPFS", "the boot: /dev", 0 },
	{ "PROC_FS", "the boot, and every probe (/proc)", 0 },
	{ "SYSFS", "the topology, CPUs and NUMA nodes (/sys)", 0 },
	{ "TMPFS", "the writable layer and /dev/shm", 0 },
	{ "SHMEM", "the writable layer, /dev/shm and memfd (the shared root's memory)", 0 },
	{ "BINFMT_ELF", "the boot: every program", 0 },
	{ "BINFMT_SCRIPT", "the boot: the guest's init is a script", 0 },
	{ "MULTIUSER", "PostgreSQL (pgbench, sysbench): its server drops to its own user", 0 },
	{ "ACPI", "NUMA's tables and a clean power-off", 0 },
	{ "SMP", "more than one CPU", 0 },
	{ "NUMA", "--numa: NUMA nodes", 0 },
	{ "X86_64_ACPI_NUMA", "--numa: the nodes from ACPI's tables", 0 },
	{ "PCI", "virtio devices: the host's root and a writable disk", 0 },
	{ "NET", "every workload that talks over sockets", 0 },
	{ "UNIX", "messaging (hackbench's sockets), PostgreSQL's socket", 0 },
	{ "INET", "tbench, rr (netperf's TCP and UDP), loopback", 0 },
	{ "NAMESPACES", "tbench's network namespace of its own", 0 },
	{ "NET_NS", "tbench's network namespace of its own", 0 },
	{ "FUTEX", "every threaded program (glibc's locks)", 0 },
	{ "EPOLL", "wakeup, and most servers", 0 },
	{ "EVENTFD", "wakeup's eventfd mode, io_uring", 0 },
	{ "TIMERFD", "wakeup's timers", 0 },
	{ "SIGNALFD", "programs that wait for signals on a descriptor", 0 },
	{ "SYSVIPC", "PostgreSQL (pgbench, sysbench)", 0 },
	{ "POSIX_MQUEUE", "programs that use POSIX message queues", 0 },
	{ "FILE_LOCKING", "the guest's SQLite store: without it \"database is locked\"", 0 },
	{ "AIO", "fio's libaio engine", 0 },
	{ "IO_URING", "fio's io_uring engine", 0 },
	{ "SCHED_DEBUG", "/sys/kernel/debug/sched: the preempt mode, sched features, base slice", 614 },
	{ "SCHEDSTATS", "schedstat's metrics (/proc/schedstat, the run-queue delays)", 0 },
	{ "TASKSTATS", "the delay-accounting probe (taskstats)", 0 },
	{ "TASK_DELAY_ACCT", "the delay-accounting probe (taskstats)", 0 },
	{ "PSI", "the pressure monitor (/proc/pressure)", 0 },
	{ "DEBUG_FS", "/sys/kernel/debug/sched: the preempt mode and sched features", 0 },
	{ "IKCONFIG", "/proc/config.gz: what the guest's kernel was built with, for whoever looks (no probe reads it yet)", 0 },
	{ "IKCONFIG_PROC", "/proc/config.gz (as IKCONFIG)", 0 },
	{ "PERF_EVENTS", "the perf probe and trace = perf-sched", 0 },
	{ "FTRACE", "trace = perf-sched: the scheduler's tracepoints", 0 },
	{ "CGROUPS", "cgroup settings and the cgroup workloads", 0 },
	{ "CGROUP_SCHED", "cgroup.cpu.* settings", 0 },
	{ "FAIR_GROUP_SCHED", "cgroup.cpu.* settings (weights)", 0 },
	{ "CPUSETS", "cgroup.cpuset.* settings", 0 },
	{ "PREEMPT_DYNAMIC", "preempt=none|voluntary|full on the command line", 0 },
	{ "VIRTIO", "the host's root and a writable disk", 0 },
	{ "VIRTIO_PCI", "the host's root and a writable disk", 0 },
	{ "VIRTIO_BLK", "a writable disk for a job that writes more than a tmpfs holds", 0 },
	{ "FUSE_FS", "the host's root (virtiofs is FUSE)", 0 },
	{ "VIRTIO_FS", "the host's root", 0 },
	{ "OVERLAY_FS", "the host's root: the guest writes in a layer over it", 0 },
	{ "EXT4_FS", "a writable disk for a job that writes more than a tmpfs holds", 0 },
};

void vm_config_fragment(FILE *f, unsigned version)
{
	fputs("# schedlab's guest: tinyconfig (or defconfig) + kvm_guest.config + this\n"
	      "# (scripts/kconfig/merge_config.sh); printed by `schedlab vm config`.\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(kopts); i++)
		if (!kopts[i].until)
			fprintf(f, "CONFIG_%s=y\n", kopts[i].name);
	if (!version)
		fputs("# kernels before 6.15 also need:\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(kopts); i++)
		if (kopts[i].until && (!version || version <= kopts[i].until))
			fprintf(f, "CONFIG_%s=y\n", kopts[i].name);
}

/* The version a .config's header names ("# Linux/x86 6.1.192 Kernel
 * Configuration"), as major * 100 + minor; 0 when it names none. */
static unsigned config_version(const char *text)
{
	const char *p = strstr(text, "# Linux/");
	unsigned major, minor;

	if (!p || !(p = strchr(p + strlen("# Linux/"), ' ')) ||
	    sscanf(p, " %u.%u", &major, &minor) != 2)
		return 0;
	return major * 100 + minor;
}

/* Whether the option is set in the text (=y or =m). */
static bool config_set(const char *text, const char *name)
{
	char want[80];
	size_t n = (size_t)snprintf(want, sizeof(want), "CONFIG_%s=", name);

	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, want, n) && (l[n] == 'y' || l[n] == 'm'))
			return true;
	return false;
}

int vm_config_check(const char *path)
{
	long long size;
	size_t len, missing = 0;
	char *text;
	unsigned ver;
	int fd = open_regular(path, &size);

	if (fd < 0)
		return EXIT_USAGE;
	text = read_fd_all(fd, 0, &len);
	close(fd);
	if (!text) {
		error_errno("vm check-config: cannot read %s", path);
		return EXIT_USAGE;
	}
	if (!strstr(text, "CONFIG_")) {
		error("vm check-config: %s is not a kernel configuration (no CONFIG_ line)", path);
		free(text);
		return EXIT_USAGE;
	}
	ver = config_version(text);
	for (size_t i = 0; i < ARRAY_SIZE(kopts); i++) {
		if (kopts[i].until && ver > kopts[i].until)
			continue;
		if (config_set(text, kopts[i].name))
			continue;
		if (!missing++)
			printf("%s lacks what schedlab's guest needs (`schedlab vm config` prints it all):\n",
			       path);
		printf("  CONFIG_%-22s %s\n", kopts[i].name, kopts[i].cost);
	}
	if (!missing)
		printf("%s has every option schedlab's guest needs (%zu checked%s)\n", path,
		       ARRAY_SIZE(kopts), ver ? "" : "; its header names no kernel version");
	free(text);
	return missing ? EXIT_RUN_FAILED : EXIT_OK;
}
