#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lean-workers.sh - messaging at hackbench's 16,000-task scale (-g 400
# -l 10, process mode over sockets) beside hackbench itself, in
# interleaved rounds whose order rotates: hackbench; schedlab's text
# (the workload alone, as bench prints it); schedlab with --probes=on
# (what run records); and, with -o, an older schedlab binary. Each
# worker maps whatever the process that forks it has mapped, and at this
# scale that shows: its exit tears the mappings down in the timed region,
# and a page scanner that walks reverse maps (DAMON, where the machine
# runs it) pays for every mapping of every shared page. So beside each
# time it prints the CPU seconds the kernel's kdamond threads used
# during the command, and a worker's mapping count. Figures for
# doc/benchmarks.md, "Workers as lean as hackbench's".
#
# usage: bench/lean-workers.sh [-n ROUNDS] [-s SCHEDLAB] [-o OLD_SCHEDLAB] [-g GROUPS] [-l LOOPS]
set -eu
rounds=10 groups=400 loops=10 old=
top=$(cd "$(dirname "$0")/.." && pwd)
schedlab=$top/build/schedlab
while getopts n:s:o:g:l: o; do
	case $o in
	n) rounds=$OPTARG ;;
	s) schedlab=$OPTARG ;;
	o) old=$OPTARG ;;
	g) groups=$OPTARG ;;
	l) loops=$OPTARG ;;
	*) sed -n 's/^# usage: //p' "$0" >&2; exit 2 ;;
	esac
done
command -v hackbench >/dev/null || { echo "lean-workers.sh: needs hackbench (tools/deps.sh bench)" >&2; exit 2; }
ulimit -S -n "$(ulimit -H -n)"

# CPU seconds of every kdamond thread so far (0 where there is none)
kdamond_s() {
	local sum=0 p ns
	for p in $(pgrep -x 'kdamond\..*' || true); do
		read -r ns _ <"/proc/$p/schedstat" || continue
		sum=$((sum + ns))
	done
	awk -v n="$sum" 'BEGIN { printf "%.3f", n / 1e9 }'
}

# the mappings of a worker of each tool, from a short run
maps_of() {
	local pid kids n='?'
	"$@" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	# down to the newest descendant: a worker
	while kids=$(pgrep -P "$pid" -n); do pid=$kids; done
	[ "$pid" != $! ] && n=$(wc -l <"/proc/$pid/maps" 2>/dev/null || echo '?')
	wait
	echo "$n"
}

tools=(hackbench schedlab probes-on)
[ -n "$old" ] && tools+=(old)
cmd() {
	case $1 in
	hackbench) echo "hackbench -g $groups -l $loops" ;;
	schedlab) echo "$schedlab bench messaging -g $groups -l $loops" ;;
	probes-on) echo "$schedlab bench messaging -g $groups -l $loops --probes=on" ;;
	old) echo "$old bench messaging -g $groups -l $loops" ;;
	esac
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), -g $groups -l $loops, $rounds rounds"
echo "# $($schedlab --version 2>&1 | head -1)${old:+; old: $($old --version 2>&1 | head -1)}"
for t in "${tools[@]}"; do
	# shellcheck disable=SC2046
	echo "# a $t worker maps $(maps_of $(cmd "$t" | sed "s/-g $groups -l $loops/-g 1 -l 20000/")) areas"
done
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
printf '%-6s %-10s %9s %11s\n' round tool time_s kdamond_s
for r in $(seq 1 "$rounds"); do
	n=${#tools[@]}
	for i in $(seq 0 $((n - 1))); do
		t=${tools[$(((i + r) % n))]}
		k0=$(kdamond_s)
		# shellcheck disable=SC2046
		s=$($(cmd "$t") | awk '/^Time:/ { print $2 }')
		k1=$(kdamond_s)
		printf '%-6s %-10s %9s %11.3f\n' "$r" "$t" "${s:-fail}" "$(awk -v a="$k0" -v b="$k1" 'BEGIN { print b - a }')" |
			tee -a "$rows"
	done
done

# median of the numbers on standard input
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2; else print "-" }'
}
echo
printf '%-10s %9s %11s %14s\n' tool "median s" "kdamond s" "ratio to hb"
for t in "${tools[@]}"; do
	m=$(awk -v t="$t" '$2 == t && $3 != "fail" { print $3 }' "$rows" | median)
	k=$(awk -v t="$t" '$2 == t { print $4 }' "$rows" | median)
	q=$(awk -v t="$t" '$3 != "fail" { v[$1, $2] = $3 }
		END { for (k in v) { split(k, a, SUBSEP); if (a[2] == t && v[a[1], "hackbench"] > 0) print v[k] / v[a[1], "hackbench"] } }' "$rows" | median)
	printf '%-10s %9.3f %11.2f %14.3f\n' "$t" "$m" "$k" "$q"
done
