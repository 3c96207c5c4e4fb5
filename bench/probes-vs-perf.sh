#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# probes-vs-perf.sh - what the scheduler-metric probes cost, and whether
# they agree with perf and with the kernel's own accounting. Figures for
# doc/benchmarks.md.
#
#   overhead: messaging -g 4 -l 1000 (process, the default), probes on
#             and off interleaved N times each: medians and the median of
#             pairwise ratios on/off (target <= 1.02), plus strace counts
#             of read/write on and off (must be equal).
#   scale:    -g 400 -l 10 (16,000 tasks), on and off interleaved 3 times:
#             the workload process's wall time, and messaging.time.
#   agree:    as root, perf stat -e context-switches,cpu-migrations around
#             the same schedlab run, beside schedlab's own counts
#             (inherited perf counters over the timed region, and the sum
#             of every task's /proc/PID/task/TID/sched).
#   rqwait:   as root, with kernel.task_delayacct turned on for the
#             measurement (and back off after), the run-queue wait that
#             schedlab sums from its tasks' schedstat, beside the same
#             counter (sched_info.run_delay) as the kernel's taskstats
#             sends it for each task as it exits, received by an
#             independent listener (bench/rqwait.py), and schedlab's own
#             taskstats probe. The listener covers each task's whole life,
#             schedstat the time from the start barrier: the difference is
#             the wait while the workers were being created, which shrinks
#             as the run grows.
#
# usage: bench/probes-vs-perf.sh [-n N] [-s SCHEDLAB]
set -uo pipefail

N=10
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/probes-vs-perf.sh [-n N] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"
val() { jq -r "$1" "$2"; }

echo "schedlab probes: cost and agreement, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "kernel $(uname -r), $(nproc) CPUs, $("$SL" --version)"

echo
echo "overhead: messaging -g 4 -l 1000, probes on vs off, $N runs each, interleaved"
for ((i = 0; i < N; i++)); do
	"$SL" bench messaging -g 4 -l 1000 --format json > "$tmp/on.json"
	"$SL" bench messaging -g 4 -l 1000 --format json --probes=off > "$tmp/off.json"
	on=$(val '.metrics["messaging.time"].value' "$tmp/on.json")
	off=$(val '.metrics["messaging.time"].value' "$tmp/off.json")
	echo "$on $off"
done > "$tmp/pairs"
printf '  median on %.4f s, off %.4f s; median ratio on/off %.4f (min %.4f, max %.4f)\n' \
	"$(awk '{ print $1 }' "$tmp/pairs" | median)" "$(awk '{ print $2 }' "$tmp/pairs" | median)" \
	"$(awk '{ print $1 / $2 }' "$tmp/pairs" | median)" \
	"$(awk '{ print $1 / $2 }' "$tmp/pairs" | sort -g | head -n 1)" \
	"$(awk '{ print $1 / $2 }' "$tmp/pairs" | sort -g | tail -n 1)"
if command -v strace >/dev/null; then
	strace -f -qq -c -o "$tmp/s-on" "$SL" bench messaging -g 1 -l 100 --probes=on >/dev/null 2>&1
	strace -f -qq -c -o "$tmp/s-off" "$SL" bench messaging -g 1 -l 100 --probes=off >/dev/null 2>&1
	for c in read write poll pread64 openat; do
		printf '  %-8s on %7s  off %7s\n' "$c()" \
			"$(awk -v c=$c '$NF == c { print $4 }' "$tmp/s-on")" \
			"$(awk -v c=$c '$NF == c { print $4 }' "$tmp/s-off")"
	done
fi

echo
echo "probes=perf (perf's inherited counters): pipe -l 50000, usecs/op, 5 runs each, interleaved"
for ((i = 0; i < 5; i++)); do
	for p in off on perf; do
		echo "$p $("$SL" bench pipe -l 50000 --probes=$p --format json | jq '.metrics["pipe.usecs_per_op"].value')"
	done
done > "$tmp/perf-cost"
for p in off on perf; do
	printf '  %-4s median %.2f us/op\n' "$p" "$(awk -v p=$p '$1 == p { print $2 }' "$tmp/perf-cost" | median)"
done

echo
echo "scale: messaging -g 400 -l 10 (16,000 tasks), probes on vs off, 3 runs each, interleaved"
for ((i = 0; i < 3; i++)); do
	for p in on off; do
		"$SL" bench messaging -g 400 -l 10 --format json --probes=$p > "$tmp/$p.json"
		echo "$p $(val '.process.wall_s' "$tmp/$p.json") $(val '.metrics["messaging.time"].value' "$tmp/$p.json") $(val '.metrics["probes.end_cost_ms"].value // 0' "$tmp/$p.json")"
	done
done > "$tmp/scale"
for p in on off; do
	printf '  %-3s workload process %.3f s (median), messaging.time %.3f s, probes at the end %.1f ms\n' "$p" \
		"$(awk -v p=$p '$1 == p { print $2 }' "$tmp/scale" | median)" \
		"$(awk -v p=$p '$1 == p { print $3 }' "$tmp/scale" | median)" \
		"$(awk -v p=$p '$1 == p { print $4 }' "$tmp/scale" | median)"
done

echo
echo "agreement with perf stat, messaging -g 4 -l 1000 (one run each mode)"
if [ "$(id -u)" -ne 0 ] || ! command -v perf >/dev/null; then
	echo "  skipped: needs root and perf (linux-perf)"
else
for mode in "" "-T"; do
	perf stat -x, -e context-switches,cpu-migrations -o "$tmp/perf" -- \
		"$SL" bench messaging $mode -g 4 -l 1000 --format json --probes=perf > "$tmp/a.json"
	pcs=$(awk -F, '$3 == "context-switches" { print $1 }' "$tmp/perf")
	pmig=$(awk -F, '$3 == "cpu-migrations" { print $1 }' "$tmp/perf")
	ocs=$(val '.metrics["perf.context_switches"].value' "$tmp/a.json")
	tcs=$(val '(.metrics["sched.ctxsw_vol"].value + .metrics["sched.ctxsw_invol"].value)' "$tmp/a.json")
	omig=$(val '.metrics["perf.cpu_migrations"].value' "$tmp/a.json")
	tmig=$(val '.metrics["sched.migrations"].value' "$tmp/a.json")
	printf '  %-8s switches: perf stat %s, schedlab perf counter %s (%+.1f%%), tasks sched %s (%+.1f%%)\n' \
		"${mode:-process}" "$pcs" "$ocs" "$(awk -v a="$ocs" -v b="$pcs" 'BEGIN { print 100 * (a - b) / b }')" \
		"$tcs" "$(awk -v a="$tcs" -v b="$pcs" 'BEGIN { print 100 * (a - b) / b }')"
	printf '  %-8s migrations: perf stat %s, schedlab perf counter %s, tasks sched %s\n' \
		"" "$pmig" "$omig" "$tmig"
done
echo "  (perf stat counts the whole command, schedlab the timed region: start-up switches"
echo "   of the workers and of schedlab itself are in perf stat's count only)"
fi

echo
echo "run-queue wait: schedlab's sum of task schedstat vs the kernel's taskstats (independent listener)"
if [ "$(id -u)" -ne 0 ] || ! command -v python3 >/dev/null || ! command -v cc >/dev/null ||
	[ ! -w /proc/sys/kernel/task_delayacct ]; then
	echo "  skipped: needs root, python3, cc and kernel.task_delayacct"
	exit 0
fi
cat > "$tmp/off.c" <<'EOF_C'
#include <stddef.h>
#include <stdio.h>
#include <linux/taskstats.h>
int main(void)
{
	printf("%zu %zu %zu %zu %zu\n", offsetof(struct taskstats, cpu_count),
	       offsetof(struct taskstats, cpu_delay_total),
	       offsetof(struct taskstats, ac_pid), offsetof(struct taskstats, ac_ppid),
	       offsetof(struct taskstats, ac_tgid));
	return 0;
}
EOF_C
cc -o "$tmp/off" "$tmp/off.c" || exit 1
TS_OFFSETS=$("$tmp/off")
export TS_OFFSETS
was=$(cat /proc/sys/kernel/task_delayacct)
echo 1 > /proc/sys/kernel/task_delayacct
trap 'echo "$was" > /proc/sys/kernel/task_delayacct; rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
printf '  %-22s %8s %12s %12s %12s %8s\n' "messaging" "tasks" "listener s" "taskstats s" "schedstat s" "diff"
for args in "-g 4 -l 1000" "-T -g 4 -l 1000" "-g 4 -l 10000" "-T -g 4 -l 10000"; do
	# shellcheck disable=SC2086
	lis=$(python3 "$here/rqwait.py" -o "$tmp/r.json" -- "$SL" bench messaging $args --format json)
	printf '  %-22s %8s %12.4f %12.4f %12.4f %+7.2f%%\n' "$args" \
		"$(jq .tasks <<<"$lis")" "$(jq .cpu_delay_s <<<"$lis")" \
		"$(val '.metrics["taskstats.cpu_delay_s"].value' "$tmp/r.json")" \
		"$(val '.metrics["sched.wait_s"].value' "$tmp/r.json")" \
		"$(awk -v a="$(val '.metrics["sched.wait_s"].value' "$tmp/r.json")" -v b="$(jq .cpu_delay_s <<<"$lis")" 'BEGIN { print 100 * (a - b) / b }')"
done
echo "  (diff: schedstat from the start barrier against the listener's whole lives)"
