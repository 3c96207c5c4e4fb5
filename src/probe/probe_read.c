// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe/probe_read.c: how every probe reads its files (probe/source.h):
 * a file into a buffer or whole, a snapshot parsed, and why one cannot
 * be had - a leaf that probes.c and each source use.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe.h"
#include "probe/source.h"
#include "util.h"

ssize_t probe_slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = -1, r;

	if (fd < 0)
		return -1;
	n = 0;
	while ((size_t)n < len && (r = pread(fd, buf + n, len - (size_t)n, n)) > 0)
		n += r;
	close(fd);
	return n;
}

char *probe_slurp_alloc(const char *path, size_t *len)
{
	size_t cap = 64 * 1024;

	for (;;) {
		char *buf = xmalloc(cap);
		ssize_t n = probe_slurp(path, buf, cap);

		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			*len = (size_t)n;
			return buf;
		}
		free(buf);
		cap *= 4;
	}
}


bool probe_file_ok(const char *path, bool parsed, const char *hint,
		   char *why, size_t len)
{
	if (access(path, R_OK)) {
		snprintf(why, len, "%s: %s%s%s", path, strerror(errno),
			 hint ? "; " : "", hint ? hint : "");
		return false;
	}
	if (!parsed)
		snprintf(why, len, "%s: unexpected contents", path);
	return parsed;
}

bool probe_snap_read(const struct probe_snap_kind *k, void *snap)
{
	size_t len;
	char *buf = probe_slurp_alloc(k->path, &len);
	bool ok = buf && !k->parse(buf, len, snap);

	free(buf);
	return ok;
}
