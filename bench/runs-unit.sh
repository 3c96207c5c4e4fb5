#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs as replicates (doc/statistics.md): false alarms and detections
# of `schedlab compare` between separate runs, made as a user makes
# them, with the run as the unit.
#
#   WORKLOAD=cpu|messaging bench/runs-unit.sh
#
# For the workload: `schedlab calibrate` (CAL_RUNS runs, the host's noise
# model), then
#  - design "one": PAIRS pairs of one run a side with the job's defaults
#    (iterations = 5): A, A again and B (+EFFECT%), each `schedlab run`,
#    then `compare A A'` (a call of improved/regressed is a false alarm)
#    and `compare A B` (regressed is found; improved is the wrong way);
#  - design "plan": `schedlab plan JOB --effect E` says R runs a side of
#    N iterations; PAIRS trials of R runs of A, A', B(+10%) and B(+5%),
#    alternating, then `compare --all --threshold T` of each against A,
#    T the plan's threshold (half its 5%).
# Prints a table per design and TSV lines ("runs-unit<TAB>..."). Each
# run is short (well under 5 s). KEEP=DIR keeps the database.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
sl=${SCHEDLAB:-$top/schedlab}
w=${WORKLOAD:-cpu}
pairs=${PAIRS:-40}
cal_runs=${CAL_RUNS:-10}
designs=${DESIGNS:-one plan}
effect=${EFFECT:-10}
target_ms=${TARGET_MS:-40}
loops=${LOOPS:-2000}
command -v jq >/dev/null || { echo "runs-unit: needs jq" >&2; exit 2; }
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
db=$tmp/r.db

# job FILE PCT: the workload with PCT% more work, job name "w"
job() {
	if [ "$w" = cpu ]; then
		printf '[w]\nworkload = command\nargv = %s/spin %s\n' "$tmp" \
			$((work + work * $2 / 100)) >"$1"
	else
		printf '[w]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = %s\n' \
			$((loops + loops * $2 / 100)) >"$1"
	fi
}

case $w in
cpu)
	spin "$tmp"
	t=$( { /usr/bin/time -f '%e' "$tmp/spin" 20000000 >/dev/null; } 2>&1 | tail -1)
	work=$(awk -v t="$t" -v m="$target_ms" 'BEGIN { printf "%.0f", 2e7 * m / 1000 / (t > 0 ? t : 0.01) }')
	;;
messaging) ;;
*) echo "runs-unit: WORKLOAD: cpu or messaging" >&2; exit 2 ;;
esac
for e in 0 5 10 "$effect"; do job "$tmp/e$e.job" "$e"; done

verdict() {	# compare's overall verdict
	"$sl" compare "$@" --match job --db "$db" --format json 2>/dev/null | jq -r .verdict
}

count() {	# count WORD FILE
	grep -cx "$1" "$2" || true
}

report() {	# report DESIGN WHAT FILE SECONDS
	local n i r inc nc
	n=$(wc -l <"$3")
	i=$(count improved "$3")
	r=$(count regressed "$3")
	inc=$(count inconclusive "$3")
	nc=$(count "no change" "$3")
	printf '%-6s %-10s %4s pairs: regressed %3s  improved %3s  inconclusive %3s  no change %3s  (%ss)\n' \
		"$1" "$2" "$n" "$r" "$i" "$inc" "$nc" "$4"
	printf 'runs-unit\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$1" "$2" "$n" \
		"$r" "$i" "$inc" "$nc" "$4" >>"$tmp/tsv"
}

start=$(date +%s)
echo "runs-unit: $w: calibrate, $cal_runs runs (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
"$sl" calibrate "$tmp/e0.job" --runs "$cal_runs" --db "$db" --label calib >"$tmp/noise.txt" 2>"$tmp/cal.err"
cat "$tmp/noise.txt"
echo "calibrate: $(( $(date +%s) - start ))s"

for d in $designs; do
	: >"$tmp/$d-aa"; : >"$tmp/$d-b10"; : >"$tmp/$d-b5"
	t0=$(date +%s)
	if [ "$d" = one ]; then
		for ((p = 1; p <= pairs; p++)); do
			"$sl" run "$tmp/e0.job" -q --db "$db" --label "o$p-a"
			"$sl" run "$tmp/e0.job" -q --db "$db" --label "o$p-a2"
			"$sl" run "$tmp/e$effect.job" -q --db "$db" --label "o$p-b"
			verdict "o$p-a" "o$p-a2" >>"$tmp/$d-aa"
			verdict "o$p-a" "o$p-b" >>"$tmp/$d-b10"
		done
		report one "A/A" "$tmp/$d-aa" "$(( $(date +%s) - t0 ))"
		report one "+$effect%" "$tmp/$d-b10" "$(( $(date +%s) - t0 ))"
		continue
	fi
	"$sl" plan w --effect 5 --db "$db" --format json >"$tmp/plan.json"
	"$sl" plan w --effect 5 --db "$db"
	R=$(jq -r '.cases[0].plan.runs_a_side // empty' "$tmp/plan.json")
	N=$(jq -r '.cases[0].plan.iterations // empty' "$tmp/plan.json")
	T=$(jq -r '.threshold_pct' "$tmp/plan.json")
	[ -n "$R" ] || { echo "runs-unit: the planner has no plan for 5%" >&2; continue; }
	[ "$R" -ge 2 ] || R=2	# --all needs a label's runs; 1 would be "one"
	echo "plan: $R runs a side of $N iterations, compared at --threshold $T"
	for ((p = 1; p <= pairs; p++)); do
		for ((k = 1; k <= R; k++)); do
			for s in a a2 b10 b5; do
				case $s in a|a2) f=e0 ;; b10) f=e10 ;; b5) f=e5 ;; esac
				"$sl" run "$tmp/$f.job" -q --db "$db" --label "p$p-$s" --iterations "$N"
			done
		done
		# at the threshold the plan says (half its 5%): an effect at
		# the threshold itself would be called half the time
		verdict "p$p-a" "p$p-a2" --all --threshold "$T" >>"$tmp/$d-aa"
		verdict "p$p-a" "p$p-b10" --all --threshold "$T" >>"$tmp/$d-b10"
		verdict "p$p-a" "p$p-b5" --all --threshold "$T" >>"$tmp/$d-b5"
	done
	s=$(( $(date +%s) - t0 ))
	report "plan$R" "A/A" "$tmp/$d-aa" "$s"
	report "plan$R" "+10%" "$tmp/$d-b10" "$s"
	report "plan$R" "+5%" "$tmp/$d-b5" "$s"
done
"$sl" noise w --db "$db"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$tmp/tsv"
