/* SPDX-License-Identifier: GPL-2.0-only */
/* vm's own parts: the cpio writer and the ELF reader the root uses. */
#ifndef SCHEDLAB_VM_INT_H
#define SCHEDLAB_VM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct cpio {
	FILE *f;
	unsigned ino;
};

/* One entry (mode with its type bits: 0100755, 040755, 0120777 for a
 * link whose data is its target). -1 with errno on a write error. */
int cpio_add(struct cpio *c, const char *name, unsigned mode,
	     const void *data, size_t len);
int cpio_end(struct cpio *c);

/*
 * The dynamic dependencies of the ELF file at path: its interpreter
 * (*interp, malloc'd, NULL for a static file) and the sonames of its
 * DT_NEEDED entries (*needed, *n; free each and the array). -1 after
 * error() when the file is not a 64-bit ELF file.
 */
int elf_deps(const char *path, char **interp, char ***needed, size_t *n);

/*
 * A child for qemu, virtiofsd or make (vm/child.c): in a process group of its own that
 * dies with this process (PR_SET_PDEATHSIG), its standard input and
 * output /dev/null, its standard error appended to errlog. 0 in the
 * child, its pid in this process, -1 after error().
 */
pid_t vm_fork_child(const char *errlog);

/*
 * A boot's files (vm/console.c): whether the file at path holds what;
 * whether its last 4 KiB do (the guest's end line, looked for ten times
 * a second after an export of any size); its size, 0 when absent.
 */
bool vm_file_has(const char *path, const char *what);
bool vm_tail_has(const char *path, const char *what);
long long vm_file_size(const char *path);

#endif
