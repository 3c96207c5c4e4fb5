#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A/A campaigns on simulated boots (issue 39, item 3: "no change" as an
# answer; doc/statistics.md): one state booted as two, so that the only
# right answers are "no change beyond T%" and inconclusive. A "boot" is
# a separate `schedlab campaign resume` process, started again until it
# exits 0, its run of a CPU-bound program (~60 ms, pinned to CPU 0)
# multiplied by an offset of its own: the hook draws exp(N(0, OFFSET%))
# per boot, as placement or frequency would give a real boot. Before the
# first trial, CAL_RUNS runs of the job, each with an offset of its own
# too (a boot each), give this host's noise model, from which every
# campaign's --max-boots is planned (its default); the trials share the
# store, as campaigns on one machine do.
#
#   bench/campaign-aa.sh                      10 trials, 3% offsets, 5%
#   TRIALS=20 OFFSET=0 THRESHOLD=10 bench/campaign-aa.sh
#
# Per trial: the verdict, the boots made and planned, what the boots
# ruled out, the wall time; then a summary. Environment: TRIALS (10),
# OFFSET (3), THRESHOLD (5), CAL_RUNS (8), ITERATIONS (5 a boot's run),
# WORK (20000000), CPUS (0; CPUS= leaves it to the scheduler), SEED,
# SCHEDLAB, KEEP=DIR.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
sl=${SCHEDLAB:-$top/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
trials=${TRIALS:-10} offset=${OFFSET:-3} thr=${THRESHOLD:-5} cal=${CAL_RUNS:-8}
iters=${ITERATIONS:-5} work=${WORK:-20000000} cpus=${CPUS-0} seed=${SEED:-$(date +%s)}
for v in "$trials" "$cal" "$iters" "$work"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] ||
		{ echo "campaign-aa: TRIALS, CAL_RUNS, ITERATIONS, WORK: whole numbers above 0" >&2; exit 2; }
done
[[ $offset =~ ^[0-9]+([.][0-9]+)?$ && $thr =~ ^[0-9]+([.][0-9]+)?$ ]] ||
	{ echo "campaign-aa: OFFSET and THRESHOLD: percent, a number" >&2; exit 2; }
for t in cc jq awk; do
	command -v "$t" >/dev/null || { echo "campaign-aa: no $t" >&2; exit 2; }
done
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
db=$tmp/r.db
export SCHEDLAB_CAMPAIGN_DIR=$tmp/campaigns

spin "$tmp"
{
	printf '[global]\niterations = %s\nwarmup = 1\n\n[spin]\n' "$iters"
	printf 'workload = command\nshell = true\n'
	printf 'argv = "exec %s/spin $(cat %s/n)"\n' "$tmp" "$tmp"
	[ -z "$cpus" ] || printf 'cpus = %s\n' "$cpus"
} >"$tmp/aa.job"

# draw S: the work of a boot whose offset is drawn from seed S
draw() {
	awk -v s="$1" -v o="$offset" -v w="$work" 'BEGIN { srand(s); u = rand(); v = rand();
		printf "%.0f\n", w * exp(o / 100 * sqrt(-2 * log(1 - u)) * cos(6.283185307 * v)) }'
}

echo "campaign-aa: $trials trials, threshold ${thr}%, boot offsets ${offset}%, $cal calibration boots," \
	"$iters iterations a boot, cpus ${cpus:-any}, seed $seed, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((i = 1; i <= cal; i++)); do
	draw $((seed * 1000 + i)) >"$tmp/n"
	"$sl" run "$tmp/aa.job" -q --db "$db" --label calib >/dev/null
done
"$sl" noise spin --db "$db"

printf '%-5s %-14s %6s %8s %10s %8s  %s\n' trial verdict boots planned "rules out" wall_s why
nochange=0 called=0 boots_all=() walls=()
for ((t = 1; t <= trials; t++)); do
	start=$EPOCHREALTIME
	rc=0
	"$sl" campaign start "aa$t" "$tmp/aa.job" --db "$db" --state a --state b \
		--threshold "$thr" --seed $((seed + t)) \
		--hook "awk -v s=\$(( $((seed * 1000 + 500 + t * 1000)) + SCHEDLAB_BOOT )) -v o=$offset -v w=$work 'BEGIN { srand(s); u = rand(); v = rand(); printf \"%.0f\\n\", w * exp(o / 100 * sqrt(-2 * log(1 - u)) * cos(6.283185307 * v)) }' >'$tmp/n'" \
		>"$tmp/aa$t.log" 2>&1 || rc=$?
	n=0
	while [ "$rc" = 75 ] && [ $n -lt 1000 ]; do
		rc=0
		n=$((n + 1))
		"$sl" campaign resume --db "$db" >>"$tmp/aa$t.log" 2>&1 || rc=$?
	done
	wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	doc=$("$sl" campaign status "aa$t" --db "$db" --format json)
	verdict=$(jq -r .verdict <<<"$doc")
	boots=$(jq '[.boots[] | select(.phase == "done")] | length' <<<"$doc")
	planned=$(jq .max_boots <<<"$doc")
	out=$(grep -oE 'rule out more than [0-9.]+%' <<<"$verdict" | head -1 || true)
	case $verdict in
	*"no change"*) nochange=$((nochange + 1)); short="no change" ;;
	*regressed* | *improved*) called=$((called + 1)); short=called ;;
	*) short=inconclusive ;;
	esac
	[ "$rc" = 0 ] || short="$short (rc $rc)"
	boots_all+=("$boots")
	walls+=("$wall")
	printf '%-5s %-14s %6s %8s %10s %8s  %s\n' "$t" "$short" "$boots" "$planned" \
		"$(grep -oE '[0-9.]+%' <<<"$out" | head -1)" "$wall" "$(cut -c1-160 <<<"$verdict")"
done
echo
echo "no change beyond ${thr}%: $nochange of $trials; a change called: $called of $trials"
echo "boots per campaign: median $(printf '%s\n' "${boots_all[@]}" | median) ($(printf '%s\n' "${boots_all[@]}" | sort -g | tr '\n' ' '))"
echo "wall time per campaign: median $(printf '%s\n' "${walls[@]}" | median) s"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
