// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/elf.c: what a program needs to start in the guest - its interpreter
 * (PT_INTERP) and the libraries it names (DT_NEEDED) - read from the
 * file, not by running it (ldd runs the program's own loader).
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm_int.h"

/* The file offset of virtual address a, by the PT_LOAD that maps it. */
static int vaddr_off(const Elf64_Phdr *ph, unsigned nph, Elf64_Addr a,
		     Elf64_Off *off)
{
	for (unsigned i = 0; i < nph; i++)
		if (ph[i].p_type == PT_LOAD && a >= ph[i].p_vaddr &&
		    a < ph[i].p_vaddr + ph[i].p_filesz) {
			*off = ph[i].p_offset + (a - ph[i].p_vaddr);
			return 0;
		}
	return -1;
}

static int deps(const unsigned char *m, size_t size, const char *path,
		char **interp, char ***needed, size_t *n)
{
	const Elf64_Ehdr *eh = (const void *)m;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = NULL;
	size_t ndyn = 0;
	Elf64_Addr strtab = 0;
	Elf64_Off stroff;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return error("%s: not a 64-bit ELF program", path);
	/* a module or an object file: nothing it loads */
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return 0;
	if (eh->e_phentsize != sizeof(*ph) ||
	    eh->e_phoff > size || eh->e_phnum > (size - eh->e_phoff) / sizeof(*ph))
		return error("%s: not a 64-bit ELF program", path);
	ph = (const void *)(m + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_offset > size || ph[i].p_filesz > size - ph[i].p_offset)
			return error("%s: a program header points past the file's end", path);
		if (ph[i].p_type == PT_INTERP && ph[i].p_filesz)
			*interp = strndup((const char *)m + ph[i].p_offset,
					  ph[i].p_filesz - 1);
		if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const void *)(m + ph[i].p_offset);
			ndyn = ph[i].p_filesz / sizeof(*dyn);
		}
	}
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
	if (!ndyn)
		return 0;
	if (vaddr_off(ph, eh->e_phnum, strtab, &stroff))
		return error("%s: its dynamic string table is not in the file", path);
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		Elf64_Off o = stroff + dyn[i].d_un.d_val;

		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		if (o >= size || !memchr(m + o, '\0', size - o))
			return error("%s: a DT_NEEDED name points past the file's end", path);
		*needed = xrealloc(*needed, (*n + 1) * sizeof(**needed));
		(*needed)[(*n)++] = xstrdup((const char *)m + o);
	}
	return 0;
}

int elf_deps(const char *path, char **interp, char ***needed, size_t *n)
{
	long long size;
	void *m;
	int fd = open_regular(path, &size), rc;

	*interp = NULL;
	*needed = NULL;
	*n = 0;
	if (fd < 0)
		return error_errno("%s", path);
	m = size ? mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (m == MAP_FAILED)
		return error("%s: not a 64-bit ELF program", path);
	rc = deps(m, (size_t)size, path, interp, needed, n);
	munmap(m, (size_t)size);
	if (rc) {
		for (size_t i = 0; i < *n; i++)
			free((*needed)[i]);
		free(*needed);
		free(*interp);
		*interp = NULL;
		*needed = NULL;
		*n = 0;
	}
	return rc;
}
