#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-overhead.sh - what tracing and monitoring cost the workload.
# Figures for doc/benchmarks.md ("Tracing hooks").
#
#   N pairs (default 20) of `schedlab bench WORKLOAD --format json
#   --probes off`, one with the hook and one without, the order within
#   each pair random and the pairs one after the other, for messaging
#   -g 4 -l 1000 (messaging.time) and pipe -l 50000 (pipe.usecs_per_op);
#   each pair's ratio on/off, then the median of the ratios and of each
#   side. Hooks (-m): perf-sched (--trace perf-sched, per iteration) and
#   monitors (--monitor default at 1 s). Then, for monitors, the
#   sampler's own CPU per read (bench/lib.sh's sampler_cost), which
#   says at what interval they would take 2%: no pair of noisy runs
#   resolves that. The load average is printed before and after each
#   set of pairs.
#
# usage: bench/trace-overhead.sh [-n PAIRS] [-m "perf-sched monitors"] [-s SCHEDLAB]
set -euo pipefail

N=20
MODES="perf-sched monitors"
SL=$(cd "$(dirname "$0")/.." && pwd)/build/schedlab
while getopts "n:m:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	m) MODES=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/trace-overhead.sh [-n PAIRS] [-m MODES] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHEDLAB_DB=$tmp/t.db

# one MODE METRIC ARGS...: one run's headline with the hook MODE (or off)
one() {
	local mode=$1 metric=$2
	shift 2
	case $mode in
	off) "$SL" bench "$@" --format json --probes off ;;
	perf-sched) "$SL" bench "$@" --format json --probes off --trace perf-sched \
			--trace-dir "$tmp/tr" 2>/dev/null ;;
	monitors) "$SL" bench "$@" --format json --probes off --monitor default \
			--monitor-interval 1s 2>/dev/null ;;
	esac | jq -r ".metrics[\"$metric\"].value"
	rm -rf "$tmp/tr"
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# pairs NAME METRIC MODE ARGS...: N interleaved pairs, then the line
# for the table.
pairs() {
	local name=$1 metric=$2 mode=$3 on off i l0
	shift 3
	: >"$tmp/r"
	: >"$tmp/on"
	: >"$tmp/off"
	l0=$(load)
	for ((i = 0; i < N; i++)); do
		if ((RANDOM % 2)); then
			on=$(one "$mode" "$metric" "$@")
			off=$(one off "$metric" "$@")
		else
			off=$(one off "$metric" "$@")
			on=$(one "$mode" "$metric" "$@")
		fi
		echo "$on" >>"$tmp/on"
		echo "$off" >>"$tmp/off"
		awk -v a="$on" -v b="$off" 'BEGIN { printf "%.6f\n", a / b }' >>"$tmp/r"
	done
	printf '%-40s %-10s pairs %3d  median on %-10s off %-10s  ratio %.4f (%+.2f%%)  ratios p25 %.4f p75 %.4f  load %s .. %s\n' \
		"$name" "$mode" "$N" "$(median <"$tmp/on")" "$(median <"$tmp/off")" \
		"$(median <"$tmp/r")" "$(awk -v r="$(median <"$tmp/r")" 'BEGIN { print (r - 1) * 100 }')" \
		"$(sort -g "$tmp/r" | awk '{ v[NR] = $1 } END { print v[int(NR / 4) + 1] }')" \
		"$(sort -g "$tmp/r" | awk '{ v[NR] = $1 } END { print v[int(3 * NR / 4) + 1] }')" \
		"$l0" "$(load)"
}

echo "# overhead (hook on / off), $N interleaved pairs; $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?')"
for mode in $MODES; do
	quiet
	pairs "messaging -g 4 -l 1000 (messaging.time)" messaging.time "$mode" messaging -g 4 -l 1000
	quiet
	pairs "pipe -l 50000 (pipe.usecs_per_op)" pipe.usecs_per_op "$mode" pipe -l 50000
	if [ "$mode" = monitors ]; then
		quiet
		sampler_cost
	fi
done
