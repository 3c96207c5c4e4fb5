/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report/render_queue.h: schedlab queue list's writers - the queue's
 * jobs as a table, or as a JSON array. 0, or -1 when writing failed.
 */
#ifndef SCHEDLAB_REPORT_RENDER_QUEUE_H
#define SCHEDLAB_REPORT_RENDER_QUEUE_H

#include <stddef.h>
#include <stdio.h>

struct queue_row;
int render_queue_text(FILE *f, const struct queue_row *r, size_t n);
int render_queue_json(FILE *f, const struct queue_row *r, size_t n);

#endif
