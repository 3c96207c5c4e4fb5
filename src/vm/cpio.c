// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/cpio.c: the newc ("070701") archives the kernel unpacks as its
 * initramfs (Documentation/driver-api/early-userspace/buffer-format.rst):
 * a header of 13 eight-digit hexadecimal fields, the name and the data
 * each padded to 4 bytes, "TRAILER!!!" last. Times and owners are 0, so
 * the same files make the same bytes.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "vm/vm_int.h"

static int pad4(FILE *f, size_t n)
{
	static const char zero[4];
	size_t p = (4 - n % 4) % 4;

	return p && fwrite(zero, 1, p, f) != p ? -1 : 0;
}

static int header(FILE *f, unsigned ino, unsigned mode, size_t size,
		  const char *name)
{
	size_t nlen = strlen(name) + 1;

	/* 110 header bytes + the name: padded together */
	if (fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		    ino, mode, 0u, 0u, (mode & 0170000) == 0040000 ? 2u : 1u, 0u,
		    size, 0u, 0u, 0u, 0u, nlen, 0u) < 0 ||
	    fwrite(name, 1, nlen, f) != nlen)
		return -1;
	return pad4(f, 110 + nlen);
}

int cpio_add(struct cpio *c, const char *name, unsigned mode,
	     const void *data, size_t len)
{
	if (header(c->f, ++c->ino, mode, len, name) ||
	    (len && fwrite(data, 1, len, c->f) != len) || pad4(c->f, len))
		return -1;
	return 0;
}

int cpio_end(struct cpio *c)
{
	return header(c->f, 0, 0, 0, "TRAILER!!!");
}
