/* SPDX-License-Identifier: GPL-2.0-only */
/* ext_text: the text formats of the external workloads (reference.c lists them). */
#ifndef SCHEDLAB_EXT_TEXT_H
#define SCHEDLAB_EXT_TEXT_H

#include <stdio.h>

#include "workload/workload.h"

void ext_no_header(FILE *f, const void *cfg);
void command_result(FILE *f, const void *cfg, const struct wl_result *r);
void dbench_result(FILE *f, const void *cfg, const struct wl_result *r);
void pgbench_result(FILE *f, const void *cfg, const struct wl_result *r);
void sysbench_result(FILE *f, const void *cfg, const struct wl_result *r);

#endif
