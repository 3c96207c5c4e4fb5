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
#   Target: recording costs <= 1% of RPS. On a shared machine RPS moves
#   by tens of percent from run to run, so the CPU time per request
#   (the workload process's user + system time / requests) is printed
#   too: it only counts time the workload ran, and recording's cost is
#   the difference.
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

# quiet: waits (2 minutes at most) until at most 2 tasks are runnable on
# the machine, this one included: other users' bursts would swamp the
# figures on a shared machine.
. "$(dirname "$0")/lib.sh"
metric() { jq -r ".metrics.\"$1\".value"; }

# cost LABEL OPTIONS...: N interleaved pairs, recording on then off.
# Each run gives "rps cpu_us_per_request".
one() {
	"$SL" bench wakeup -r "$R" "$@" --probes off --format json |
		jq -r '[.metrics."wakeup.rps".value,
			(.process.user_s + .process.sys_s) * 1e6 / .metrics."wakeup.requests".value] | @tsv'
}
cost() {
	local label=$1 on off i a b ca cb
	shift
	on="" off=""
	for ((i = 0; i < N; i++)); do
		quiet
		on+="$(one "$@")"$'\n'
		quiet
		off+="$(one "$@" --record=off)"$'\n'
	done
	a=$(awk 'NF { print $1 }' <<<"$on" | median)
	b=$(awk 'NF { print $1 }' <<<"$off" | median)
	ca=$(awk 'NF { print $2 }' <<<"$on" | median)
	cb=$(awk 'NF { print $2 }' <<<"$off" | median)
	printf '%s\n  rps on %.1f off %.1f: %+.2f%%;  CPU per request on %.3f off %.3f us: %+.2f%%\n' \
		"$label" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print (b - a) / b * 100 }')" \
		"$ca" "$cb" "$(awk -v a="$ca" -v b="$cb" 'BEGIN { print (a - b) / b * 100 }')"
	printf '  rps on:  %s\n  rps off: %s\n' "$(awk 'NF { printf "%.0f ", $1 }' <<<"$on")" \
		"$(awk 'NF { printf "%.0f ", $1 }' <<<"$off")"
}

echo "# wakeup, $N interleaved pairs of ${R}s runs, $(nproc) CPUs, $(uname -r)"
cost "defaults (-F 256 -n 5, -t ncpu)"
cost "empty requests (-s 0 -n 0, -t ncpu)" -s 0 -n 0
cost "empty requests, 1 worker (-s 0 -n 0 -t 1)" -s 0 -n 0 -t 1

p=()
for ((i = 0; i < N; i++)); do
	quiet
	p+=("$("$SL" bench wakeup -t 1 -r "$R" --probes off --format json | metric wakeup.p99_us)")
done
printf 'idle, 1 worker: wakeup p99 median %s us (runs: %s)\n' \
	"$(printf '%s\n' "${p[@]}" | median)" "${p[*]}"
