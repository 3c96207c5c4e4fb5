/* SPDX-License-Identifier: GPL-2.0-only */
/* rr: netperf's TCP_RR, UDP_RR and TCP_STREAM over loopback. */
#ifndef SCHEDLAB_RR_H
#define SCHEDLAB_RR_H

enum rr_test { RR_TCP_RR, RR_UDP_RR, RR_TCP_STREAM };
enum rr_mode { RR_PROCESS, RR_THREAD };

struct rr_cfg {
	int test;		/* enum rr_test */
	unsigned pairs;
	unsigned length;	/* seconds, netperf's -l */
	unsigned request_size;
	unsigned response_size;
	unsigned message_size;	/* TCP_STREAM */
	int mode;		/* enum rr_mode */
};

enum {
	RR_TRANS_PER_S,
	RR_MB_PER_S,
	RR_P50, RR_P90, RR_P99, RR_P999, RR_MIN, RR_MAX,
	RR_TRANSACTIONS,
	RR_NMETRICS,
};

/* netperf's block (rr_text.c) */
struct text_format;
extern const struct text_format rr_formats[];

#endif
