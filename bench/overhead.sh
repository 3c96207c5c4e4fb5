#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# overhead.sh - what schedlab's harness costs beyond the workload itself,
# and how fast a large stored run is shown. Figures for doc/benchmarks.md.
#
#   per iteration: a trivial case (messaging -g 1 -l 1) run N times by
#   `schedlab run`; the cost of an iteration beyond the workload is
#   (T(N) - T(1)) / (N - 1) minus the workload process's own wall time
#   (process.wall_s: fork of the workload process to its exit, worker
#   creation and reaping included). Target: <= 5 ms.
#   show: `schedlab show` and `schedlab export` of that run (about 10,000
#   samples at N = 1500), median of 5. Target for show: < 100 ms.
#
# usage: bench/overhead.sh [-n N] [-s SCHEDLAB]
set -euo pipefail

N=1500
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/overhead.sh [-n N] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHEDLAB_DB=$tmp/overhead.db
cat > "$tmp/trivial.job" <<'JOB'
[trivial]
workload = messaging
groups = 1
loops = 1
JOB

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }
. "$(dirname "$0")/lib.sh"

timed_run() {	# iterations -> seconds
	local a b
	a=$EPOCHREALTIME
	"$SL" run "$tmp/trivial.job" --iterations "$1" --label "n$1" --quiet
	b=$EPOCHREALTIME
	secs "$a" "$b"
}

echo "schedlab harness overhead, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "kernel $(uname -r), $(nproc) CPUs, $("$SL" --version)"
t1=$(for i in 1 2 3 4 5; do timed_run 1; done | median)
tn=$(timed_run "$N")
per=$(awk -v a="$t1" -v b="$tn" -v n="$N" 'BEGIN { printf "%.6f", (b - a) / (n - 1) }')
"$SL" export "n$N" > "$tmp/run.json"
wall=$(jq '[.cases[0].samples["process.wall_s"][]] | add / length' "$tmp/run.json")
mtime=$(jq '[.cases[0].samples["messaging.time"][]] | add / length' "$tmp/run.json")
samples=$(jq '[.cases[].samples[] | length] | add' "$tmp/run.json")

# a reference point: one hackbench process per iteration, as a shell loop would
hb="n/a"
if command -v hackbench >/dev/null; then
	a=$EPOCHREALTIME
	for ((i = 0; i < 200; i++)); do hackbench -g 1 -l 1 >/dev/null; done
	hb=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f ms", (b - a) / 200 * 1000 }')
fi

printf '\n%-44s %10s\n' "trivial case: messaging -g 1 -l 1" ""
printf '%-44s %10.2f ms\n' "schedlab run, 1 iteration (median of 5)" "$(awk -v t="$t1" 'BEGIN { print t * 1000 }')"
printf '%-44s %10.2f ms\n' "per iteration, (T($N) - T(1)) / $((N - 1))" "$(awk -v t="$per" 'BEGIN { print t * 1000 }')"
printf '%-44s %10.2f ms\n' "  of which the workload process (wall_s)" "$(awk -v t="$wall" 'BEGIN { print t * 1000 }')"
printf '%-44s %10.2f ms\n' "  of which messaging.time (timed region)" "$(awk -v t="$mtime" 'BEGIN { print t * 1000 }')"
printf '%-44s %10.2f ms   (target <= 5 ms)\n' "harness overhead per iteration" "$(awk -v p="$per" -v w="$wall" 'BEGIN { print (p - w) * 1000 }')"
printf '%-44s %10s\n' "hackbench -g 1 -l 1, one process per run" "$hb"

sh_t=$(for i in 1 2 3 4 5; do a=$EPOCHREALTIME; "$SL" show "n$N" >/dev/null; secs "$a" "$EPOCHREALTIME"; echo; done | median)
ex_t=$(for i in 1 2 3 4 5; do a=$EPOCHREALTIME; "$SL" export "n$N" >/dev/null; secs "$a" "$EPOCHREALTIME"; echo; done | median)
printf '\n%-44s %10s\n' "stored run of $N iterations" "$samples samples"
printf '%-44s %10.1f ms   (target < 100 ms)\n' "schedlab show (median of 5, whole command)" "$(awk -v t="$sh_t" 'BEGIN { print t * 1000 }')"
printf '%-44s %10.1f ms\n' "schedlab export (median of 5, whole command)" "$(awk -v t="$ex_t" 'BEGIN { print t * 1000 }')"
