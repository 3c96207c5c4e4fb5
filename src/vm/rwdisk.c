// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/rwdisk.c: where a guest with the host's root writes. The overlay's
 * upper layer is a tmpfs - guest memory - while the job's cases write
 * little; a case that says it writes more (its workload's disk_bytes():
 * a pgbench database, sysbench's tables, fio's and fileio's files) than
 * a quarter of the guest's memory gets a disk instead: a sparse raw
 * image in the run's temporary folder, sized from the largest case with
 * room to spare, made ext4 here (mkfs.ext4, e2fsprogs) and given to the
 * guest as a virtio disk. The host's free space is checked first: a job
 * that cannot fit is refused before any boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/plan.h"
#include "util.h"
#include "vm/vm.h"
#include "workload/workload.h"

#define MIB (1024.0 * 1024.0)

double vm_disk_need(const struct plan *p)
{
	double most = 0;

	for (size_t i = 0; p && i < p->ncases; i++) {
		const struct workload *w = p->cases[i].wl;
		double b = w->disk_bytes ? w->disk_bytes(p->cases[i].cfg) : 0;

		if (b > most)
			most = b;
	}
	return most;
}

bool vm_disk_wanted(double need, const struct vm_shape *s)
{
	return need > s->memory_mb * MIB / 4;
}

static const char *mkfs_path(void)
{
	static const char *const paths[] = { "/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4", NULL };

	for (size_t i = 0; paths[i]; i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

char *vm_disk_make(const char *dir, double need)
{
	/* the largest case, a quarter more, and 256 MiB for the file system */
	unsigned long long mib = (unsigned long long)(need * 1.25 / MIB) + 256;
	char *img = xasprintf("%s/rw.img", dir), size[32];
	const char *mkfs = mkfs_path();
	struct statvfs vfs;
	int fd, ws;
	pid_t pid;

	if (!mkfs) {
		error("vm: the job writes about %.0f MiB, more than the guest's tmpfs holds, and mkfs.ext4 is not here to make it a disk: install the Debian package e2fsprogs",
		      need / MIB);
		goto fail;
	}
	if (!statvfs(dir, &vfs) &&
	    (double)vfs.f_bavail * vfs.f_frsize < (double)mib * MIB) {
		error("vm: the job writes about %.0f MiB, and its writable disk of %llu MiB does not fit in the %.0f MiB free on %s (TMPDIR chooses where)",
		      need / MIB, mib, (double)vfs.f_bavail * vfs.f_frsize / MIB, dir);
		goto fail;
	}
	fd = open(img, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)(mib * MIB))) {
		error_errno("vm: cannot make the guest's writable disk %s", img);
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	close(fd);
	snprintf(size, sizeof(size), "%lluM", mib);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execl(mkfs, mkfs, "-q", "-F", "-m", "0", "-E",
		      "nodiscard,lazy_itable_init=1,lazy_journal_init=1", img, size,
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws)) {
		error("vm: %s could not make the guest's writable disk %s", mkfs, img);
		goto fail;
	}
	return img;
fail:
	unlink(img);
	free(img);
	return NULL;
}
