/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/store: whether a run's writer is still alive (life.c),
 * which every backend asks the same way. A run is stored "running" with
 * its writer's pid, that process's start time and its machine's boot
 * id; readers show it "abandoned" once that writer is known gone, and
 * the next writer marks it so (sqlite_life.c, pg_write.c).
 */
#ifndef SCHEDLAB_STORE_LIFE_H
#define SCHEDLAB_STORE_LIFE_H

#include <stdbool.h>
#include <stdint.h>

struct store_writer {
	int64_t pid;
	int64_t start;		/* the process's start, in clock ticks after
				 * boot (/proc/PID/stat); 0: unknown */
	char boot[40];		/* the boot id; "": unknown */
};
/* This process. */
void store_writer_self(struct store_writer *w);
/* Whether w, the writer of a run of host, is known dead. */
bool store_writer_gone(const char *host, const struct store_writer *w);
/* status, or "abandoned" for a running run whose writer is gone. */
const char *store_status_shown(const char *status, const char *host,
			       const struct store_writer *w);

#endif
