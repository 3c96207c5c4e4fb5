#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wakeup.sh - figures for the wakeup workload (doc/benchmarks.md).
#
#   recording cost: RPS with latency recording on and off (--record),
#   interleaved A B A B, N pairs of R-second runs, medians and their
#   ratio; at schbench's defaults (-F 256 -n 5: ms of work per request)
#   and with empty requests (-s 0 -n 0: nothing but the futex hand-off,
#   where a clock read and a histogram update weigh the most).
#   Target: recording costs <= 1% of RPS.
#   idle p99: 1 worker (-t 1) for R seconds, wakeup p99 in microseconds,
#   N runs, median. Target: reported in microseconds, never 0.
#
# usage: bench/wakeup.sh [-n N] [-r SECONDS] [-s SCHEDLAB]
set -euo pipefail

N=5
R=5
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:r:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	r) R=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/wakeup.sh [-n N] [-r SECONDS] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
metric() { jq -r ".metrics.\"$1\".value"; }

# cost LABEL OPTIONS...: N interleaved pairs, recording on then off.
cost() {
	local label=$1 on off i a b
	shift
	on=() off=()
	for ((i = 0; i < N; i++)); do
		a=$("$SL" bench wakeup -r "$R" "$@" --probes off --format json | metric wakeup.rps)
		b=$("$SL" bench wakeup -r "$R" "$@" --record=off --probes off --format json | metric wakeup.rps)
		on+=("$a") off+=("$b")
	done
	a=$(printf '%s\n' "${on[@]}" | median)
	b=$(printf '%s\n' "${off[@]}" | median)
	printf '%-34s on %10.1f  off %10.1f rps  cost %+.2f%%  (on: %s; off: %s)\n' \
		"$label" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print (b - a) / b * 100 }')" \
		"${on[*]}" "${off[*]}"
}

echo "# wakeup, $N interleaved pairs of ${R}s runs, $(nproc) CPUs, $(uname -r)"
cost "defaults (-F 256 -n 5, -t ncpu)"
cost "empty requests (-s 0 -n 0, -t ncpu)" -s 0 -n 0

p=()
for ((i = 0; i < N; i++)); do
	p+=("$("$SL" bench wakeup -t 1 -r "$R" --probes off --format json | metric wakeup.p99_us)")
done
printf 'idle, 1 worker: wakeup p99 median %s us (runs: %s)\n' \
	"$(printf '%s\n' "${p[@]}" | median)" "${p[*]}"
