/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * text: helpers for the reference tools' lines, shared by the text
 * formats that each workload keeps beside it (struct text_format in
 * workload/workload.h). Formatting only: no statistics, no workload's
 * metric indexes. Here, below report/, since only workloads print them.
 */
#ifndef SCHEDLAB_WL_TEXT_H
#define SCHEDLAB_WL_TEXT_H

#include <stdio.h>

/* "%lu.%03lu" of seconds, truncated to milliseconds as the references do. */
void print_secs_ms(FILE *f, double secs);

/* perf bench's " Total time: S.mmm [sec]" line. */
void perf_total_time(FILE *f, double secs);

#endif
