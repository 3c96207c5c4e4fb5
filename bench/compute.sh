#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compute.sh - JTI figures for the compute workload (doc/benchmarks.md).
#
#   For 1 task, the CPUs, 2x and 4x the CPUs, and 3 tasks with task 1
#   alone on CPU 1 (--pin-one 1: the other two share the rest), N runs
#   of each, interleaved: median Jobs/Min, JTI, Real and first finish.
#   Targets: JTI 100 with 1 task; visibly lower with one task pinned
#   elsewhere while tasks > CPUs (3 on 2 CPUs: about 71 by arithmetic,
#   finish times t, 2t, 2t).
#
# usage: bench/compute.sh [-n N] [-j JOBS] [-s SCHEDLAB]
set -euo pipefail

N=5
J=100
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:j:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	j) J=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/compute.sh [-n N] [-j JOBS] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }

ncpu=$(nproc)
# quiet: waits (2 minutes at most) until at most 2 tasks are runnable on
# the machine, this one included: other users' bursts would swamp the
# figures on a shared machine.
. "$(dirname "$0")/lib.sh"
cases=("-n 1" "-n $ncpu" "-n $((2 * ncpu))" "-n $((4 * ncpu))")
[ "$ncpu" -ge 2 ] && cases+=("-n 3 --pin-one 1")

declare -A res
for ((i = 0; i < N; i++)); do
	for c in "${cases[@]}"; do
		quiet
		# shellcheck disable=SC2086
		res[$c]+="$("$SL" bench compute $c -j "$J" --probes off --format json |
			jq -r '[.metrics[] | .value] | @tsv' | cut -f1,2,3,6) "$'\n'
	done
done

echo "# compute, mix compute-v1, $J jobs per task, $N runs each (interleaved), $ncpu CPUs, $(uname -r)"
printf '%-20s %12s %5s %8s %8s   %s\n' case Jobs/Min JTI Real First "JTI of each run"
for c in "${cases[@]}"; do
	col() { awk -v k="$1" 'NF { print $k }' <<<"${res[$c]}" | median; }
	printf '%-20s %12.1f %5s %8.3f %8.3f   %s\n' "$c" "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" \
		"$(awk 'NF { printf "%s ", $2 }' <<<"${res[$c]}")"
done
