#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Verdicts that survive a changing host (issue 39; doc/statistics.md,
# "Huge differences, time gaps, no change: measured"): runs made as a
# user makes them - each `schedlab run` a process of its own, a CPU hog
# started between some of them - and compare's verdicts counted.
#
#   WORKLOAD=cpu|messaging bench/verdicts.sh
#
# Designs (DESIGNS, default "huge equiv"):
#  - huge: PAIRS trials in a database without any model (one run per
#    label): A, then (every other trial) a CPU hog started, A again, the
#    hog stopped, and B with three times the work; `compare A A'` (any
#    call of improved/regressed is a false alarm) and `compare A B`
#    (regressed is found) - the common-sense rule of item 2;
#  - equiv: `schedlab calibrate` (CAL_RUNS runs), `schedlab plan
#    --effect 5` for the runs a side that conclude "no change beyond 5%"
#    (no_change_runs_a_side), then PAIRS trials of that many runs of A
#    and of A again, alternating, and `compare --all --threshold 5`: "no
#    change" is the answer wanted, improved/regressed a false alarm;
#  - late: a baseline stored earlier - run it with the KEEP=DIR of an
#    earlier equiv design, as long after it as the gap to be measured:
#    PAIRS trials of the same runs a side of A again (the equiv design's
#    job file, every other trial with a CPU hog running through its
#    runs), each compared with that design's A of the same trial,
#    `compare --all --threshold 5`: improved/regressed is a false alarm,
#    and why each was not "no change" is kept (late-why). LATE_TAG=X
#    names the late runs' labels apart (lX1-a2, ...), so that the same
#    baseline can be measured again later.
# Prints a table per design and TSV lines ("verdicts<TAB>..."). Run it
# with nice on a shared machine and say so beside the figures. KEEP=DIR
# keeps the databases.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
sl=${SCHEDLAB:-$top/schedlab}
w=${WORKLOAD:-cpu}
pairs=${PAIRS:-20}
cal_runs=${CAL_RUNS:-8}
designs=${DESIGNS:-huge equiv}
target_ms=${TARGET_MS:-40}
loops=${LOOPS:-200}
iters=${ITER:-5}
max_r=${MAX_RUNS:-8}
command -v jq >/dev/null || { echo "verdicts: needs jq" >&2; exit 2; }
tmp=${KEEP:-$(mktemp -d)}
trap 'hog_stop; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

spin "$tmp"

# job FILE FACTOR: the workload with FACTOR times the work, job name "w"
job() {
	if [ "$w" = cpu ]; then
		printf '[global]\niterations = %s\n\n[w]\nworkload = command\nargv = %s/spin %s\n' \
			"$iters" "$tmp" "$(awk -v w="$work" -v f="$2" 'BEGIN { printf "%.0f", w * f }')" >"$1"
	else
		printf '[global]\niterations = %s\n\n[w]\nworkload = messaging\ngroups = 1\nloops = %s\n' \
			"$iters" "$(awk -v l="$loops" -v f="$2" 'BEGIN { printf "%.0f", l * f }')" >"$1"
	fi
}

case $w in
cpu)
	t=$( { /usr/bin/time -f '%e' "$tmp/spin" 20000000 >/dev/null; } 2>&1 | tail -1)
	work=$(awk -v t="$t" -v m="$target_ms" 'BEGIN { printf "%.0f", 2e7 * m / 1000 / (t > 0 ? t : 0.01) }')
	;;
messaging) ;;
*) echo "verdicts: WORKLOAD: cpu or messaging" >&2; exit 2 ;;
esac
job "$tmp/a.job" 1
job "$tmp/b3.job" 3

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
	printf '%-6s %-10s %4s trials: regressed %3s  improved %3s  inconclusive %3s  no change %3s  (%ss)\n' \
		"$1" "$2" "$n" "$r" "$i" "$inc" "$nc" "$4"
	printf 'verdicts\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$1" "$2" "$n" \
		"$r" "$i" "$inc" "$nc" "$4" >>"$tmp/tsv"
}

hog_start() {
	( while :; do "$tmp/spin" 2000000000; done ) &
	hog=$!
}

# the loop stopped first, so that it starts no spin, then its spin: left
# running, a spin of the hog's would stretch the next runs for seconds
hog_stop() {
	[ -z "${hog:-}" ] || {
		kill -STOP "$hog" 2>/dev/null
		pkill -KILL -P "$hog" 2>/dev/null || true
		kill -KILL "$hog" 2>/dev/null
		wait "$hog" 2>/dev/null || true
	}
	hog=
}

echo "verdicts: $w, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M) UTC" >&2
for d in $designs; do
	: >"$tmp/$d-aa"; : >"$tmp/$d-b"
	t0=$(date +%s)
	case $d in
	huge)
		db=$tmp/huge.db
		for ((p = 1; p <= pairs; p++)); do
			"$sl" run "$tmp/a.job" -q --db "$db" --label "h$p-a"
			[ $((p % 2)) = 1 ] || hog_start
			"$sl" run "$tmp/a.job" -q --db "$db" --label "h$p-a2"
			hog_stop
			"$sl" run "$tmp/b3.job" -q --db "$db" --label "h$p-b"
			"$sl" compare "h$p-a" "h$p-a2" --db "$db" --format json 2>/dev/null |
				jq -r .verdict >>"$tmp/$d-aa"
			"$sl" compare "h$p-a" "h$p-b" --match job --db "$db" --format json 2>/dev/null |
				jq -r .verdict >>"$tmp/$d-b"
		done
		report huge "A/A" "$tmp/$d-aa" "$(( $(date +%s) - t0 ))"
		report huge "3x" "$tmp/$d-b" "$(( $(date +%s) - t0 ))"
		;;
	equiv)
		db=$tmp/equiv.db
		"$sl" calibrate "$tmp/a.job" --runs "$cal_runs" --db "$db" --label calib -q \
			>"$tmp/noise.txt" 2>/dev/null
		cat "$tmp/noise.txt"
		cp "$tmp/a.job" "$tmp/equiv.job"
		"$sl" plan w --effect 5 --db "$db" --format json >"$tmp/plan.json"
		R=$(jq -r '.cases[0].no_change_runs_a_side // empty' "$tmp/plan.json")
		echo "plan: no change beyond 5% needs ${R:-more than 50} runs a side"
		[ -n "$R" ] || R=$max_r
		[ "$R" -le "$max_r" ] || { echo "verdicts: capped at $max_r runs a side" >&2; R=$max_r; }
		[ "$R" -ge 2 ] || R=2
		echo "$R" >"$tmp/equiv.runs"
		for ((p = 1; p <= pairs; p++)); do
			for ((k = 1; k <= R; k++)); do
				"$sl" run "$tmp/a.job" -q --db "$db" --label "e$p-a"
				"$sl" run "$tmp/a.job" -q --db "$db" --label "e$p-a2"
			done
			"$sl" compare "e$p-a" "e$p-a2" --all --threshold 5 --db "$db" --format json \
				2>/dev/null | jq -r .verdict >>"$tmp/$d-aa"
		done
		report "equiv$R" "A/A" "$tmp/$d-aa" "$(( $(date +%s) - t0 ))"
		"$sl" noise w --db "$db"
		;;
	late)
		db=$tmp/equiv.db
		[ -s "$tmp/equiv.runs" ] && [ -s "$tmp/equiv.job" ] || {
			echo "verdicts: late needs the KEEP=DIR of an earlier equiv design" >&2
			exit 2
		}
		R=$(cat "$tmp/equiv.runs")
		echo "late: the baseline's runs ended $(( ($(date +%s) - $(stat -c %Y "$tmp/equiv-aa")) / 60 )) min ago; $R runs a side"
		: >"$tmp/late-why"
		[ "$pairs" -le "$(wc -l <"$tmp/equiv-aa")" ] || {
			echo "verdicts: PAIRS $pairs: the equiv design made $(wc -l <"$tmp/equiv-aa")" >&2
			exit 2
		}
		for ((p = 1; p <= pairs; p++)); do
			[ $((p % 2)) = 1 ] || hog_start
			for ((k = 1; k <= R; k++)); do
				"$sl" run "$tmp/equiv.job" -q --db "$db" --label "l${LATE_TAG:-}$p-a2"
			done
			hog_stop
			"$sl" compare "e$p-a" "l${LATE_TAG:-}$p-a2" --all --threshold 5 --db "$db" --format json \
				2>/dev/null >"$tmp/late.json" || true
			v=$(jq -r .verdict "$tmp/late.json" 2>/dev/null || true)
			echo "${v:-error}" >>"$tmp/$d-aa"
			printf '%s%s\t%s\n' "$p" "$([ $((p % 2)) = 1 ] || echo ' hog')" \
				"$(jq -r '[.. | strings | select(test("host changed|noise seen|gap"))] | first // ""' "$tmp/late.json")" >>"$tmp/late-why"
		done
		report "late$R" "A/A" "$tmp/$d-aa" "$(( $(date +%s) - t0 ))"
		;;
	esac
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$tmp/tsv"
