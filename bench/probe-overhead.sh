#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# probe-overhead.sh - what the scheduler-metric probes cost each
# messaging mode: messaging.time (the timed region, hackbench's "Time:")
# with --probes=on (what `schedlab run` records) against --probes=off
# (the workload alone, what `bench` prints as text), in interleaved
# pairs whose order alternates (on first, then off first), for process
# and thread mode over sockets and pipes, at -g 4 -l 1000 (160 tasks)
# and at -g 400 -l 10 (16,000 tasks). Per mode: the medians on and off,
# the median of the pairwise ratios on/off with its quartiles (target:
# median <= 1.02) and its 95% confidence interval (distribution-free,
# from order statistics), and the whole command's context switches per message
# on and off (GNU time's %c + %w: schedlab, the workload process and its
# workers), which shows a bistable mode tipping one way or the other.
# Figures for doc/benchmarks.md.
#
# usage: bench/probe-overhead.sh [-n PAIRS] [-N PAIRS_16000] [-m MODES] [-s SCHEDLAB] [-k FILE] [-Q]
#   MODES: comma-separated among process,thread,process-pipe,thread-pipe
#   -k FILE: append each pair there as "MODE SIZE TIME_ON CSW_ON TIME_OFF CSW_OFF"
#       (SIZE with underscores for spaces; CSW: the command's whole count)
#   -Q: do not wait for a quiet machine before each pair (on a machine
#       that is never quiet, such as one shared with niced builds)
set -uo pipefail

N=20
NBIG=20
MODES=process,thread,process-pipe,thread-pipe
WAIT=1
KEEP=
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
usage() {
	echo "usage: bench/probe-overhead.sh [-n PAIRS] [-N PAIRS_16000] [-m MODES] [-s SCHEDLAB] [-k FILE] [-Q]" >&2
	exit 2
}
while getopts "n:N:m:s:k:Qh" opt; do
	case $opt in
	n) N=$OPTARG ;;
	N) NBIG=$OPTARG ;;
	m) MODES=$OPTARG ;;
	s) SL=$OPTARG ;;
	k) KEEP=$OPTARG ;;
	Q) WAIT=0 ;;
	*) usage ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "install with: apt-get install time" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

flags() {
	case $1 in
	process) echo "" ;;
	thread) echo "-T" ;;
	process-pipe) echo "-p" ;;
	thread-pipe) echo "-T -p" ;;
	*) echo "unknown mode '$1'" >&2; exit 2 ;;
	esac
}

# one MODE SIZE PROBES: "TIME CSW_PER_MSG" of one run
one() {
	# shellcheck disable=SC2046
	/usr/bin/time -f '%c %w' -o "$tmp/csw" \
		"$SL" bench messaging $(flags "$1") $2 --probes="$3" --format json >"$tmp/r.json" ||
		{ echo "schedlab failed: $(cat "$tmp/r.json")" >&2; exit 1; }
	echo "$(jq -r '.metrics["messaging.time"].value' "$tmp/r.json") $(awk '{ print $1 + $2 }' "$tmp/csw")"
}

# ci_lo, ci_hi: the 95% confidence interval of the median of sorted
# values on stdin, the order statistics k and n + 1 - k with
# k = floor((n - 1.96 sqrt(n)) / 2), at least 1 (Conover, Practical
# Nonparametric Statistics, 3rd ed., 3.2: the binomial's normal
# approximation)
ci_k() { awk '{ v[NR] = $1 } END { k = int((NR - 1.96 * sqrt(NR)) / 2); if (k < 1) k = 1; print (lo ? v[k] : v[NR + 1 - k]) }' lo="$1"; }
ci_lo() { ci_k 1; }
ci_hi() { ci_k 0; }

# pairs MODE SIZE COUNT MSGS: the table row for MODE at SIZE
pairs() {
	local i on off
	: >"$tmp/pairs"
	for ((i = 0; i < $3; i++)); do
		((WAIT)) && quiet
		if ((i % 2 == 0)); then
			on=$(one "$1" "$2" on); off=$(one "$1" "$2" off)
		else
			off=$(one "$1" "$2" off); on=$(one "$1" "$2" on)
		fi
		echo "$on $off" >>"$tmp/pairs"
		[ -n "$KEEP" ] && echo "$1 ${2// /_} $on $off" >>"$KEEP"
	done
	awk '{ print $1 / $3 }' "$tmp/pairs" | sort -g >"$tmp/ratios"
	printf '%-13s %-12s %5d %10.4f %10.4f %8.4f %8.4f %8.4f %8.4f %8.4f %9.2f %9.2f\n' \
		"$1" "$2" "$3" \
		"$(awk '{ print $1 }' "$tmp/pairs" | median)" \
		"$(awk '{ print $3 }' "$tmp/pairs" | median)" \
		"$(median <"$tmp/ratios")" \
		"$(awk '{ v[NR] = $1 } END { print v[int((NR + 3) / 4)] }' "$tmp/ratios")" \
		"$(awk '{ v[NR] = $1 } END { print v[int((3 * NR + 3) / 4)] }' "$tmp/ratios")" \
		"$(ci_lo <"$tmp/ratios")" "$(ci_hi <"$tmp/ratios")" \
		"$(awk -v m="$4" '{ print $2 / m }' "$tmp/pairs" | median)" \
		"$(awk -v m="$4" '{ print $4 / m }' "$tmp/pairs" | median)"
}

echo "schedlab probe overhead per messaging mode, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "kernel $(uname -r), $(nproc) CPUs, $("$SL" --version), load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "messaging.time, --probes=on against --probes=off, interleaved pairs (order alternating)"
echo
printf '%-13s %-12s %5s %10s %10s %8s %8s %8s %8s %8s %9s %9s\n' mode size pairs "on s" "off s" ratio q1 q3 "ci95 lo" "ci95 hi" "csw/m on" "csw/m off"
IFS=, read -r -a modes <<<"$MODES"
for m in "${modes[@]}"; do
	# 160 tasks, 4 x 20 x 20 x 1000 = 1,600,000 messages
	((N > 0)) && pairs "$m" "-g 4 -l 1000" "$N" 1600000
done
for m in "${modes[@]}"; do
	# 16,000 tasks, 400 x 20 x 20 x 10 = 1,600,000 messages
	((NBIG > 0)) && pairs "$m" "-g 400 -l 10" "$NBIG" 1600000
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "ratio: median of the pairs' on/off; q1, q3: its quartiles; ci95: the median's"
echo "95% confidence interval (order statistics); csw/m: the whole"
echo "command's context switches (GNU time %c + %w) per message, median"
