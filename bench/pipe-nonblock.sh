#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pipe-nonblock.sh - perf bench sched pipe's -n in schedlab's pipe
# (doc/benchmarks.md). Debian 12's perf (6.1) has no -n, so there is no
# reference to run beside it:
#
#   speed: usecs/op of `bench pipe -l L` against `bench pipe -l L -n`,
#   process and thread mode, N interleaved pairs: medians, the median
#   of the pairwise ratios (-n / plain), their range.
#   system calls: `strace -f -c` of -l 20000 with and without -n: per
#   op a side perf's source makes one write and one read, and with -n
#   an epoll_wait before every read.
#
# usage: bench/pipe-nonblock.sh [-n N] [-l LOOPS] [-s SCHEDLAB]
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"
n=15 l=200000 sl=${SCHEDLAB:-build/schedlab}
while getopts n:l:s: o; do
	case $o in
	n) n=$OPTARG ;; l) l=$OPTARG ;; s) sl=$OPTARG ;;
	*) echo "usage: $0 [-n N] [-l LOOPS] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
us() { "$sl" bench pipe -l "$l" "$@" --probes off --format json | jq -r '.metrics["pipe.usecs_per_op"].value'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "pipe -l $l: usecs/op, $n interleaved pairs; ratio = -n / plain, pair by pair"
printf '%-8s %10s %10s %8s %8s %8s\n' mode plain -n ratio min max
for mode in process thread; do
	quiet
	for ((i = 0; i < n; i++)); do
		a=$(us --mode $mode) b=$(us --mode $mode -n)
		echo "$a" >>"$tmp/$mode.a"
		echo "$b" >>"$tmp/$mode.b"
		awk -v a="$a" -v b="$b" 'BEGIN { print b / a }' >>"$tmp/$mode.r"
	done
	printf '%-8s %10.3f %10.3f %8.3f %8.3f %8.3f\n' $mode \
		"$(median <"$tmp/$mode.a")" "$(median <"$tmp/$mode.b")" \
		"$(median <"$tmp/$mode.r")" "$(sort -g "$tmp/$mode.r" | head -1)" \
		"$(sort -g "$tmp/$mode.r" | tail -1)"
done
echo
echo "system calls, strace -f -c, pipe -l 20000 (all processes; 2 x 20000 per side expected)"
printf '%-16s %8s %8s %10s\n' case read write epoll_wait
for f in "" -n "-T" "-T -n"; do
	# shellcheck disable=SC2086
	strace -f -c -o "$tmp/c" "$sl" bench pipe -l 20000 --probes off $f >/dev/null
	printf '%-16s %8s %8s %10s\n' "pipe ${f:-plain}" \
		"$(awk '$NF == "read" { print $4 }' "$tmp/c")" \
		"$(awk '$NF == "write" { print $4 }' "$tmp/c")" \
		"$(awk '$NF == "epoll_wait" { print $4 }' "$tmp/c")"
done
