// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr_text: rr's default text format, netperf's block (netperf 2.7,
 * src/nettest_omni.c, the default build: omni tests, "MIGRATED", first
 * burst support, no demo), as `netperf -H 127.0.0.1 -t TEST` prints it
 * at its default verbosity: the test's banner line before the run, then
 * for TCP_RR / UDP_RR the transaction-rate block, for TCP_STREAM the
 * throughput block in 10^6bits/sec.
 *
 * The socket sizes are what a new socket of the kind gets - netperf's
 * figures when no -s/-S is given, as it reads them right after creating
 * its sockets; schedlab sets no buffer size either. With several pairs
 * there is one block, the rate summed over them (several netperfs print
 * one block each).
 */
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workload/registry.h"
#include "workload/rr.h"

static const char *const banners[] = {
	[RR_TCP_RR] = "MIGRATED TCP REQUEST/RESPONSE TEST",
	[RR_UDP_RR] = "MIGRATED UDP REQUEST/RESPONSE TEST",
	[RR_TCP_STREAM] = "MIGRATED TCP STREAM TEST",
};

/* A fresh socket's SO_SNDBUF and SO_RCVBUF; -1 if there is none. */
static void default_bufs(int type, int *snd, int *rcv)
{
	int fd = socket(AF_INET, type, 0);
	socklen_t len = sizeof(int);

	*snd = *rcv = -1;
	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, snd, &len))
		*snd = -1;
	len = sizeof(int);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, rcv, &len))
		*rcv = -1;
	close(fd);
}

/*
 * netperf's banner: the destination's address does not fit the buffer
 * netperf formats it into (sizeof a pointer), hence its empty "()".
 */
static void netperf_header(FILE *f, const void *cfgp)
{
	const struct rr_cfg *c = cfgp;

	fprintf(f, "%s from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET%s\n",
		banners[c->test], c->test == RR_TCP_STREAM ? "" : " : first burst 0");
}

static void netperf_result(FILE *f, const void *cfgp, const struct wl_result *r)
{
	const struct rr_cfg *c = cfgp;
	double rate = r->value[RR_TRANS_PER_S];
	double secs = rate > 0 ? r->value[RR_TRANSACTIONS] / rate : c->length;
	int snd, rcv;

	default_bufs(c->test == RR_UDP_RR ? SOCK_DGRAM : SOCK_STREAM, &snd, &rcv);
	if (c->test == RR_TCP_STREAM) {
		fputs("Recv   Send    Send                          \n"
		      "Socket Socket  Message  Elapsed              \n"
		      "Size   Size    Size     Time     Throughput  \n"
		      "bytes  bytes   bytes    secs.    10^6bits/sec  \n\n", f);
		fprintf(f, "%6d %6d %6d    %-6.2f   %7.2f   \n", rcv, snd,
			(int)c->message_size, secs, r->value[RR_MB_PER_S] * 8);
		return;
	}
	fputs("Local /Remote\n"
	      "Socket Size   Request  Resp.   Elapsed  Trans.\n"
	      "Send   Recv   Size     Size    Time     Rate         \n"
	      "bytes  Bytes  bytes    bytes   secs.    per sec   \n\n", f);
	fprintf(f, "%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   \n", snd, rcv,
		(int)c->request_size, (int)c->response_size, secs, rate);
	fprintf(f, "%-6d %-6d\n", snd, rcv);
}

const struct text_format rr_formats[] = {
	{ "netperf", "netperf's banner and its transaction-rate (TCP_RR, UDP_RR) or throughput (TCP_STREAM) block",
	  netperf_header, netperf_result, NULL },
	{ .name = NULL },
};
