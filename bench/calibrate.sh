#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Calibrates compare's tests on this machine with this project's own
# workload (doc/statistics.md has the figures and what they mean):
#
#   - A/A: the same configuration run twice; any "regressed" or
#     "improved" verdict, and any significance mark, is a false alarm;
#   - A/B: the same with 10% more messages (loops * 1.1); a "regressed"
#     verdict is a detection.
#
# Two designs, each judged by every test:
#
#   separate runs   pair i runs A, then B, then A again: three `schedlab
#                   run`s of ITER iterations back to back - how runs are
#                   usually compared, so a shift of the machine between
#                   runs counts against the test;
#   interleaved     one run per pair whose job file alternates one
#                   iteration of A, B and A again, ITER times (jobs a1 b1
#                   c1 a2 b2 c2 ...), split with jq into three exported
#                   documents: what the tests achieve when the variants
#                   share the machine's drift.
#
#   bench/calibrate.sh                  40 pairs x 10 iterations
#   PAIRS=10 ITER=5 bench/calibrate.sh  quicker, less certain
#
# bench/calibrate-adaptive.sh asks the same of judge's decisions with
# --iterations auto, and what fixed counts cost at the same error rates.
#
# Compare takes the run-to-run noise into account when the database
# holds repeats of the baseline (runs with its label; doc/statistics.md):
# the separate runs are judged with it (every A run is labelled A), the
# interleaved documents without (their runs share the drift).
#
# Environment: PAIRS (40), ITER (10), LOOPS (5000: about 40 ms an
# iteration with groups=1 fds=2 on a 2-CPU VM, long enough that 10% more
# loops is about 10% more time), THRESHOLD (5), CPUS (0: every task on
# CPU 0, where a 2-CPU VM shared with other work gave a CoeffVar of 1-2%
# against 7-20% unpinned; CPUS= leaves the placement to the scheduler),
# KEEP=DIR keeps the
# databases and documents there, ANALYZE=1 (with KEEP) judges what an
# earlier KEEP run left, without running anything.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
pairs=${PAIRS:-40}
iter=${ITER:-10}
loops=${LOOPS:-5000}
threshold=${THRESHOLD:-5}
cpus=${CPUS-0}
tests="mann-whitney welch boot-mean boot-median bands lkp"
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
db=$tmp/cal.db
bloops=$((loops + loops / 10))

job() {	# job NAME LOOPS ITERATIONS: one messaging case
	printf '[%s]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = %s\niterations = %s\n' \
		"$1" "$2" "$3"
	[ -z "$cpus" ] || printf 'cpus = %s\n' "$cpus"
	echo
}
job msg "$loops" "$iter" >"$tmp/a.job"
job msg "$bloops" "$iter" >"$tmp/b.job"
for ((k = 1; k <= iter; k++)); do
	job "a$k" "$loops" 1
	job "b$k" "$bloops" 1
	job "c$k" "$loops" 1
done >"$tmp/inter.job"

# split DOC V OUT: the cases of jobs V1, V2, ... of an export as one
# case "msg" with all their samples and histograms, a new uuid and
# label V.
split() {
	jq --arg v "$2" --arg uuid "$(cat /proc/sys/kernel/random/uuid)" '
		[.cases[] | select(.job | test("^" + $v + "[0-9]+$"))] as $cs |
		.run.uuid = $uuid | .run.label = $v |
		.cases = [ $cs[0] + { job: "msg", iterations: ($cs | length),
			samples: (([$cs[].samples | keys[]] | unique) as $ms |
				reduce $ms[] as $m ({}; .[$m] = [$cs[] |
					(.samples[$m] // [range(.iterations) | null])[]])),
			histograms: (([$cs[] | (.histograms // {}) | keys[]] | unique) as $hs |
				reduce $hs[] as $h ({}; .[$h] = [$cs[] |
					((.histograms // {})[$h] // [range(.iterations) | null])[]])) } ]' \
		"$1" >"$3"
}

echo "calibrate: $pairs pairs x $iter iterations, messaging -g 1 -f 2 -l $loops" \
	"against -l $bloops, threshold $threshold%, cpus ${cpus:-any}" >&2
start=$EPOCHREALTIME
# Run ids in the fresh database: pair i is 3i-2 (A), 3i-1 (B), 3i (A
# again). The A runs share a label, so that compare finds them as the
# baseline's repeats and counts the noise between them.
for ((i = 1; i <= pairs; i++)); do
	[ -z "${ANALYZE:-}" ] || break
	"$sl" run "$tmp/a.job" --db "$db" --label A -q 2>/dev/null
	"$sl" run "$tmp/b.job" --db "$db" --label B -q 2>/dev/null
	"$sl" run "$tmp/a.job" --db "$db" --label A -q 2>/dev/null
	"$sl" run "$tmp/inter.job" --db "$tmp/inter.db" --label "i$i" -q 2>/dev/null
	"$sl" export "i$i" --db "$tmp/inter.db" -o "$tmp/i$i.json"
	for v in a b c; do
		split "$tmp/i$i.json" "$v" "$tmp/i$i$v.json"
	done
	printf '\r%d/%d pairs' "$i" "$pairs" >&2
done
printf '\r' >&2
secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
pct() { awk -v a="$1" -v n="$pairs" 'BEGIN { printf "%5.1f%%", 100 * a / n }'; }

# design NAME A B C DB: A/A is A against C, A/B is A against B; the
# names are patterns of the pair number $i; DB is the database for
# names and the run-to-run noise.
design() {
	local name=$1 db=$5 a b c t i r s v aam aav aai abm abv abi cv=() ch=()

	for ((i = 1; i <= pairs; i++)); do
		a=$(eval echo "$2") b=$(eval echo "$3")
		r=$("$sl" compare "$a" "$b" --db "$db" --match job --format json)
		cv+=("$(jq '.jobs[0].cases[0].runs[0].coeffvar' <<<"$r")")
		ch+=("$(jq '.jobs[0].cases[0].runs[1].pct.mean' <<<"$r")")
	done
	printf '%s: median CoeffVar of A %.1f%%; median change of B %.1f%% (+ is better)\n' \
		"$name" "$(printf '%s\n' "${cv[@]}" | median)" \
		"$(printf '%s\n' "${ch[@]}" | median)"
	printf '%-13s %9s %9s %9s   %9s %9s %9s\n' test "A/A mark" "A/A alarm" \
		"A/A inc." "A/B mark" "A/B found" "A/B inc."
	for t in $tests; do
		aam=0 aav=0 aai=0 abm=0 abv=0 abi=0
		for ((i = 1; i <= pairs; i++)); do
			a=$(eval echo "$2") b=$(eval echo "$3") c=$(eval echo "$4")
			r=$("$sl" compare "$a" "$c" "$b" --db "$db" --match job --test "$t" \
				--threshold "$threshold" --format json |
				jq -r '.jobs[0].cases[0].runs[1:][] | "\(.significant) \(.verdict)"')
			read -r s v < <(sed -n 1p <<<"$r")
			[ "$s" = true ] && aam=$((aam + 1))
			case $v in
			regressed|improved) aav=$((aav + 1)) ;;
			inconclusive) aai=$((aai + 1)) ;;
			esac
			read -r s v < <(sed -n 2p <<<"$r")
			[ "$s" = true ] && abm=$((abm + 1))
			case $v in
			regressed) abv=$((abv + 1)) ;;
			inconclusive) abi=$((abi + 1)) ;;
			esac
		done
		printf '%-13s %9s %9s %9s   %9s %9s %9s\n' "$t" "$(pct $aam)" \
			"$(pct $aav)" "$(pct $aai)" "$(pct $abm)" "$(pct $abv)" "$(pct $abi)"
	done
	echo
}

echo "messaging -g 1 -f 2 -l $loops against -l $bloops, $iter iterations," \
	"cpus ${cpus:-any}, threshold $threshold%"
echo "runs took $secs s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
design "separate runs" '$((3 * i - 2))' '$((3 * i - 1))' '$((3 * i))' "$db"
design "interleaved" '$tmp/i${i}a.json' '$tmp/i${i}b.json' '$tmp/i${i}c.json' \
	"$tmp/none.db"
echo "mark: significant by the test (the * on the mean row), whatever the size;"
echo "alarm: verdict improved or regressed; found: verdict regressed;"
echo "inc.: verdict inconclusive. $pairs pairs each; one pair is" \
	"$(awk -v n="$pairs" 'BEGIN { printf "%.1f", 100 / n }')%."
