// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/guest_check.c: what the guest is asked to be, checked before any
 * boot: the kernel image (a bzImage with the x86 boot header) and the
 * machine's shape (CPUs, their topology, NUMA nodes, memory), with the
 * shape in words for the run's record.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm.h"

int vm_kernel_check(const char *who, const char *path)
{
	unsigned char hdr[0x210];
	long long size;
	struct stat sb;
	ssize_t n;
	int fd;

	if (stat(path, &sb) || access(path, R_OK))
		return error("%s: kernel image '%s' cannot be read: %s", who, path,
			     strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return error("%s: kernel image '%s' is not a regular file", who, path);
	fd = open_regular(path, &size);
	if (fd < 0)
		return -1;
	n = read(fd, hdr, sizeof(hdr));
	close(fd);
	/* the x86 boot protocol's header: "HdrS" at 0x202 */
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4))
		return error("%s: '%s' is not a bootable x86 kernel image (no boot header 'HdrS' at 0x202: give a bzImage, such as arch/x86/boot/bzImage or /boot/vmlinuz-*)",
			     who, path);
	return 0;
}

int vm_shape_check(const char *who, struct vm_shape *s)
{
	unsigned given = s->sockets ? s->sockets : 1;

	given *= s->cores ? s->cores : 1;
	given *= s->threads ? s->threads : 1;
	if (!s->cpus)
		s->cpus = s->sockets || s->cores || s->threads ? given : 2;
	if (!s->sockets && !s->cores && !s->threads) {
		s->sockets = 1;
		s->cores = s->cpus;
		s->threads = 1;
	} else {
		if (!s->threads)
			s->threads = 1;
		if (!s->sockets)
			s->sockets = 1;
		if (!s->cores)
			s->cores = s->cpus / (s->sockets * s->threads);
		if (s->sockets * s->cores * s->threads != s->cpus || !s->cores)
			return error("%s: --cpus %u is not --sockets %u x --cores %u x --threads %u",
				     who, s->cpus, s->sockets, s->cores, s->threads);
	}
	if (s->cpus > 64)
		return error("%s: --cpus: expected 1..64, got %u", who, s->cpus);
	if (s->nodes) {
		unsigned per = s->cpus / s->nodes;

		if (s->cpus % s->nodes || per % s->threads)
			return error("%s: --numa %u: the %u CPUs do not divide into %u nodes of whole cores (%u threads a core)",
				     who, s->nodes, s->cpus, s->nodes, s->threads);
		if (s->memory_mb % s->nodes)
			return error("%s: --memory %u MiB does not divide among %u NUMA nodes",
				     who, s->memory_mb, s->nodes);
	}
	if (s->memory_mb < 128)
		return error("%s: --memory: expected at least 128 (MiB), got %u", who,
			     s->memory_mb);
	return 0;
}

char *vm_shape_text(const struct vm_shape *s)
{
	char numa[40] = "";

	if (s->nodes)
		snprintf(numa, sizeof(numa), ", %u NUMA nodes", s->nodes);
	return xasprintf("%u CPUs (%u socket%s x %u core%s x %u thread%s)%s, %u MiB",
			 s->cpus, s->sockets, s->sockets == 1 ? "" : "s", s->cores,
			 s->cores == 1 ? "" : "s", s->threads,
			 s->threads == 1 ? "" : "s", numa, s->memory_mb);
}
