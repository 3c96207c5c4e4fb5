// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/lock.c: one driver a campaign. start, bisect and resume hold
 * an exclusive flock() on a file named after the database and the
 * campaign while they drive it, so a resume typed by hand beside the
 * one the unit started at boot (or beside a start still going) is
 * refused instead of measuring the same boot twice. The lock dies with
 * its process, however it ends; the file stays (it holds nothing).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "util.h"

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

int campaign_lock(const char *db, const char *name)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	uint64_t h = fnv(fnv(0xcbf29ce484222325ull, db), "\n");
	char path[4200];
	int fd;

	h = fnv(h, name);
	if (!dir || *dir != '/' || access(dir, W_OK))
		dir = access("/run/lock", W_OK) ? "/tmp" : "/run/lock";
	snprintf(path, sizeof(path), "%s/schedlab-campaign-%016llx.lock", dir,
		 (unsigned long long)h);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return error_errno("campaign %s: cannot open its lock %s", name, path);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		if (e == EWOULDBLOCK)
			return error("campaign %s is being driven by another schedlab on this machine (its lock %s is held): wait for it, or stop it first",
				     name, path);
		errno = e;
		return error_errno("campaign %s: cannot lock %s", name, path);
	}
	return fd;
}
