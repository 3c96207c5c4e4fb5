#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rr.sh - figures for the rr workload (doc/benchmarks.md).
#
#   system calls: `strace -f -c` of `schedlab bench rr -t TCP_RR -l 1`
#   (and UDP_RR): sendto/recvfrom per process against its transactions.
#   Target: 1 send and 1 receive per transaction per side.
#   speed: transactions/s of schedlab's TCP_RR (and UDP_RR) with 1 pair
#   against a minimal blocking loop written here (a client and a forked
#   server, one send() and one recv() per transaction, the same sizes,
#   nothing else), N interleaved pairs of L-second runs, medians and
#   their ratio. Target: within 5%. Then the same for TCP_RR with both
#   under `taskset -c 1` (client and server on one CPU): without the
#   placement of the two tasks, which moves the unpinned figures by tens
#   of percent, what is left is what each adds per transaction.
#
# usage: bench/rr.sh [-n N] [-l SECONDS] [-s SCHEDLAB]
set -euo pipefail

N=5
L=5
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:l:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	l) L=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/rr.sh [-n N] [-l SECONDS] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
for t in jq strace cc; do
	command -v $t >/dev/null || { echo "needs $t (tools/deps.sh test)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The minimal loop: argv: udp|tcp seconds; prints transactions/s.
cat > "$tmp/rrloop.c" <<'C'
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int udp = argc > 1 && !strcmp(argv[1], "udp");
	double secs = argc > 2 ? atof(argv[2]) : 5, t0, t;
	struct sockaddr_in a = { .sin_family = AF_INET }, b;
	socklen_t len = sizeof(a);
	int s, c, type = udp ? SOCK_DGRAM : SOCK_STREAM;
	long n = 0;
	char x = 'r';
	pid_t pid;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	b = a;
	s = socket(AF_INET, type, 0);
	c = socket(AF_INET, type, 0);
	if (bind(s, (void *)&a, len) || getsockname(s, (void *)&a, &len))
		return 1;
	if (udp) {
		if (bind(c, (void *)&b, len) || getsockname(c, (void *)&b, &len) ||
		    connect(s, (void *)&b, len))
			return 1;
	} else if (listen(s, 1)) {
		return 1;
	}
	if (connect(c, (void *)&a, len))
		return 1;
	if (!udp) {
		int l = s;

		s = accept(l, NULL, NULL);
		close(l);
	}
	pid = fork();
	if (pid == 0) {
		close(c);
		while (recv(s, &x, 1, 0) == 1 && send(s, &x, 1, 0) == 1)
			;
		_exit(0);
	}
	close(s);
	t0 = now();
	do {
		if (send(c, &x, 1, 0) != 1 || recv(c, &x, 1, 0) != 1)
			return 1;
		n++;
	} while ((t = now()) - t0 < secs);
	printf("%.1f\n", n / (t - t0));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
C
cc -O2 -o "$tmp/rrloop" "$tmp/rrloop.c"

# quiet: waits (2 minutes at most) until at most 2 tasks are runnable on
# the machine, this one included: other users' bursts would swamp the
# figures on a shared machine.
. "$(dirname "$0")/lib.sh"

echo "# rr, $(nproc) CPUs, $(uname -r)"
for t in TCP_RR UDP_RR; do
	strace -f -c -o "$tmp/sc" -e trace=sendto,recvfrom \
		"$SL" bench rr -t $t -l 1 --probes off --format json > "$tmp/j"
	printf '%s strace -f -c, 1 s: %s transactions measured; calls:' $t \
		"$(jq -r '.metrics."rr.transactions".value' "$tmp/j")"
	awk '$NF == "sendto" || $NF == "recvfrom" { printf " %s %s", $NF, $4 }' "$tmp/sc"
	echo " (both sides)"
	strace -f -qq -o "$tmp/tr" -e trace=sendto,recvfrom,clone \
		"$SL" bench rr -t $t -l 1 --probes off --format json > /dev/null
	awk '$2 ~ /^clone\(/ && $NF ~ /^[0-9]+$/ { n++; if (n == 2) srv = $NF; if (n == 3) cli = $NF }
	     { sub(/\(.*/, "", $2) } $2 == "sendto" || $2 == "recvfrom" { c[$1 " " $2]++ }
	     $2 == "<..." { } END {
		printf "  per side: server sendto %d recvfrom %d, client sendto %d recvfrom %d\n",
			c[srv " sendto"], c[srv " recvfrom"], c[cli " sendto"], c[cli " recvfrom"] }' "$tmp/tr"
done

# versus TEST [PREFIX...]: N interleaved pairs of schedlab and the loop.
versus() {
	local t=$1 lc sl=() lo=() a b
	shift
	lc=$(tr A-Z a-z <<<"${t%_RR}")
	for ((i = 0; i < N; i++)); do
		quiet
		sl+=("$("$@" "$SL" bench rr -t $t -l "$L" --probes off --format json |
			jq -r '.metrics."rr.trans_per_s".value')")
		quiet
		lo+=("$("$@" "$tmp/rrloop" "$lc" "$L")")
	done
	a=$(printf '%s\n' "${sl[@]}" | median)
	b=$(printf '%s\n' "${lo[@]}" | median)
	printf '%s 1 pair%s, %d x %ss interleaved: schedlab %.0f  minimal loop %.0f trans/s  ratio %.3f\n' \
		$t "${1:+ under $*}" "$N" "$L" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
	printf '  schedlab: %s\n  loop:     %s\n' "${sl[*]}" "${lo[*]}"
}

versus TCP_RR
versus UDP_RR
[ "$(nproc)" -ge 2 ] && versus TCP_RR taskset -c 1
