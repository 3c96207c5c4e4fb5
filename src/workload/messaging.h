/* SPDX-License-Identifier: GPL-2.0-only */
/* messaging: hackbench / perf bench sched messaging. */
#ifndef SCHEDLAB_MESSAGING_H
#define SCHEDLAB_MESSAGING_H

#include <stdbool.h>

enum msg_ipc { MSG_SOCKET, MSG_PIPE, MSG_INET };
enum msg_mode { MSG_PROCESS, MSG_THREAD };

struct messaging_cfg {
	unsigned groups, fds, loops, datasize;
	int ipc;	/* enum msg_ipc */
	int mode;	/* enum msg_mode */
	bool fifo;
};

/* Metric indexes, in the order of the metric table. */
enum { MSG_TIME, MSG_RATE };

#endif
