#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Calibrates judge's adaptive stopping (`--iterations auto`) on this
# machine, beside fixed iteration counts at the same error rates' cost
# (doc/statistics.md has the figures and what they mean). Where
# bench/calibrate.sh asks how compare's tests behave at a fixed count,
# this asks how often judge's decision is wrong and what it costs:
#
#   - A/A (EFFECT 0): the candidate is the baseline's configuration; a
#     "regressed" verdict (judge exits 1) or an "improved" one is a
#     false alarm;
#   - A/B (EFFECT 10, 5): the candidate does that many percent more work
#     (messaging: more loops; cpu: more turns of a CPU-bound loop); a
#     "regressed" verdict is a detection.
#
# Workloads (WORKLOAD, a list):
#
#   messaging   groups = 1, fds = 2, loops = LOOPS (bench/calibrate.sh's)
#   cpu         the command workload running a tiny C program compiled
#               here with cc: WORK turns of a multiply-add chain, about
#               TARGET_MS (40) ms, its work count an argument
#
# Designs, for each pair and effect (DESIGNS, a list; default sep-auto
# int-auto, then sep-N int-N for N in FIXED):
#
#   sep-auto   `schedlab run A.job --label A-sep-auto --iterations auto`
#              (the baseline adaptive too: its run stops when its own
#              interval is within +-threshold/2, which is the precision
#              a later judge needs; a fixed 10 would cap what any
#              candidate can show; BASE=N fixes it), then `schedlab
#              judge --baseline ID --iterations auto B.job` for each
#              effect: separate runs, the candidate adaptive against the
#              stored baseline;
#   int-auto   `schedlab judge --good-set KEY=A --iterations auto B.job`:
#              the good reference runs beside the candidate, iterations
#              interleaved round by round (threshold mode);
#   sep-N      the same as sep-auto with --iterations N on both runs;
#   int-N      the same as int-auto with --iterations N;
#   cls-auto   the bisect mode, not in the default DESIGNS (three sides a
#              judge, two judges an effect): `schedlab judge --good-set
#              KEY=A --bad-set KEY=B --iterations auto X.job` for each
#              effect, X being A (an exit 1, nearer bad, is a false
#              alarm) and B (an exit 1 is a detection); tabulated as
#              clsE-auto, E the effect of its bad reference; at most
#              CLS_MAX rounds (default judge's own there: 100);
#   cls-N      the same with --iterations N.
#
# Every judge gets --match job (A and B differ in a parameter), a label
# of its own (judge would otherwise label it by this repository's git
# describe) and --format json; its exit code, verdict, change and the
# iterations of each side (n in the compare document) are recorded.
# The A baselines of one design share a label, so that compare counts
# the run-to-run noise between them from the third pair on
# (doc/statistics.md), as a user who repeats the baseline gets. Effects
# and designs are taken in an order rotated by pair, so that the
# machine's drift during a pair favours none of them. Not pinned by
# default.
#
#   bench/calibrate-adaptive.sh                        40 pairs, messaging
#   WORKLOAD="messaging cpu" bench/calibrate-adaptive.sh
#   PAIRS=2 MAX=6 FIXED=5 bench/calibrate-adaptive.sh  a smoke check
#
# Output: one table per workload and effect on stdout, then the same as
# TSV lines ("summary" first, one per design) for pasting; every judge's
# record is in DIR/WORKLOAD/records.tsv and its document in DIR/WORKLOAD/.
#
# Environment: WORKLOAD (messaging), PAIRS (40), MAX (30: --max-iterations
# of every adaptive run but the cls designs'), CLS_MAX (empty: judge's
# own), MIN (empty: schedlab's --min-iterations default), BUDGET (empty:
# none; --budget of every adaptive run), EFFECTS ("0 10 5", percent),
# FIXED ("10 30"), DESIGNS, BASE (auto, or N: the sep-auto baseline's
# iterations), THRESHOLD (5), LOOPS (5000), WORK (cpu: turns of the
# loop; default measured here to take TARGET_MS), CPUS (empty: the
# scheduler places the tasks; a list pins them), KEEP=DIR keeps the
# databases, records and documents there, ANALYZE=1 (with KEEP)
# tabulates what an earlier KEEP run left without running a workload:
# the fixed designs judged again from their stored runs (`judge --run`,
# with this build's judge), the adaptive ones as recorded - where they
# stopped was decided while they ran.
#
# Cost: a pair of the default designs is at most about 700 iterations
# (sep-30 and int-30 are half of it), some 30 s at 40 ms an iteration:
# up to 20-25 minutes a workload for 40 pairs, less as stopping saves.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
sl=${SCHEDLAB:-$top/schedlab}
workloads=${WORKLOAD:-messaging}
pairs=${PAIRS:-40}
max=${MAX:-30}
cls_max=${CLS_MAX-}
min=${MIN:-}
budget=${BUDGET:-}
effects=${EFFECTS:-0 10 5}
fixed=${FIXED:-10 30}
base=${BASE:-auto}
threshold=${THRESHOLD:-5}
loops=${LOOPS:-5000}
target_ms=${TARGET_MS:-40}
cpus=${CPUS-}
designs=${DESIGNS:-sep-auto int-auto$(for n in $fixed; do printf ' sep-%s int-%s' "$n" "$n"; done)}
analyze=${ANALYZE:-}
command -v jq >/dev/null || { echo "calibrate-adaptive: needs jq (apt-get install jq)" >&2; exit 2; }
[ -z "$analyze" ] || [ -n "${KEEP:-}" ] ||
	{ echo "calibrate-adaptive: ANALYZE=1 needs KEEP=DIR of an earlier run" >&2; exit 2; }
for d in $designs; do
	case $d in
	sep-auto|int-auto|cls-auto|sep-[1-9]*|int-[1-9]*|cls-[1-9]*) ;;
	*) echo "calibrate-adaptive: DESIGNS: unknown design '$d' (sep-auto, int-auto, cls-auto, sep-N, int-N, cls-N)" >&2
	   exit 2 ;;
	esac
done
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

# iter_args N [MAX]: the iteration options of a run or judge of N (auto
# or a count) iterations, at most MAX (default $max; empty: schedlab's).
iter_args() {
	local m=${2-$max}
	if [ "$1" = auto ]; then
		printf '%s\n' --iterations auto
		[ -z "$m" ] || printf '%s\n' --max-iterations "$m"
		[ -z "$budget" ] || printf '%s\n' --budget "$budget"
		[ -z "$min" ] || printf '%s\n' --min-iterations "$min"
	else
		printf '%s\n' --iterations "$1"
	fi
}

# job NAME WORKLOAD KEY VALUE: a job file of one case whose KEY is VALUE.
job() {
	printf '[%s]\nworkload = %s\n' "$1" "$2"
	[ "$2" != messaging ] || printf 'groups = 1\nfds = 2\n'
	printf '%s = %s\niterations = 10\n' "$3" "$4"
	[ -z "$cpus" ] || printf 'cpus = %s\n' "$cpus"
}

# setup W: the job files of workload W (DIR/W/e0.job, e10.job, ...),
# the --good-set of the interleaved designs in $key and $aval, and the
# value of the bad reference of a cls design of effect E in bval[clsE].
declare -A bval
setup() {
	local w=$1 dir=$tmp/$1 e v t
	mkdir -p "$dir"
	case $w in
	messaging)
		# ANALYZE's figures are those of the loops the runs had
		[ -z "$analyze" ] || loops=$(cat "$dir/loops" 2>/dev/null || echo "$loops")
		echo "$loops" >"$dir/loops"
		key=loops aval=$loops what=loops
		desc="messaging -g 1 -f 2 -l $loops"
		;;
	cpu)
		[ -x "$dir/spin" ] || spin "$dir"
		work=${WORK:-}
		[ -z "$analyze" ] || work=$(cat "$dir/work" 2>/dev/null || true)
		if [ -z "$work" ]; then
			# the least CPU time of 3 runs of 2e7 turns, scaled
			t=$(for _ in 1 2 3; do time_ms "$dir/spin" 20000000; done |
				awk '{ print $2 }' | sort -g | head -1)
			work=$(awk -v t="$t" -v m="$target_ms" \
				'BEGIN { printf "%.0f", 2e7 * m / (t > 0 ? t : 1) / 1e5 }')00000
		fi
		echo "$work" >"$dir/work"
		key=argv aval="$dir/spin $work" what="turns of the loop"
		desc="command $dir/spin $work"
		;;
	*)
		echo "calibrate-adaptive: WORKLOAD: unknown workload '$w' (messaging, cpu)" >&2
		exit 2
		;;
	esac
	for e in $effects; do
		v=${aval##* }	# loops, or the work count after the program
		v=$((v + v * e / 100))
		if [ "$w" = cpu ]; then
			bval[cls$e]="$dir/spin $v"
			job cpu command argv "$dir/spin $v"
		else
			bval[cls$e]=$v
			job msg messaging loops "$v"
		fi >"$dir/e$e.job"
	done
}

# latest DB: the id of the latest run in DB.
latest() {
	"$sl" list runs --db "$1" | awk 'NR == 2 { print $1 }'
}

# record W D E I RC JSON BASE_N_FALLBACK BASE_S JUDGE_S BASESPEC LABEL:
# one line of records.tsv: workload design effect pair exit decision
# verdict change base_n cand_n base_s judge_s basespec label json why
# (judge's reason for its case: where it stopped and why).
record() {
	local w=$1 d=$2 e=$3 i=$4 rc=$5 f=$6 bn=$7 bs=$8 js=$9 spec=${10} lab=${11}
	local r dec ver chg n0 n1 why
	# the candidate is the run with its label: the last but for
	# classify, whose bad reference comes after it
	r=$(jq -r --arg rc "$rc" --arg lab "$lab" '
		(.jobs[0].cases[0].runs // []) as $r |
		((($r | map(select(.run == $lab)))[0]) // (if ($r | length) > 1 then $r[-1]
			else {} end)) as $c |
		[(.judge.decision // ({"0": "good", "1": "bad", "125": "skip"}[$rc] // "error")),
		 ($c.verdict // .verdict // "-"), ($c.change // "-"),
		 ($r[0].n // "-"), ($c.n // "-"),
		 (.judge.cases[0].why // .judge.why // "-" | gsub("[\t\n]"; " "))] | @tsv' \
		"$f" 2>/dev/null) || r=
	# no document (the run failed before judge could print one)
	[ -n "$r" ] || r=$(printf '%s\t-\t-\t-\t-\tno document' \
		"$(case $rc in 0) echo good ;; 1) echo bad ;; *) echo skip ;; esac)")
	IFS=$'\t' read -r dec ver chg n0 n1 why <<<"$r"
	[ "$n0" != - ] || n0=$bn
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$w" "$d" "$e" "$i" "$rc" "$dec" "$ver" "$chg" "$n0" "$n1" "$bs" "$js" \
		"$spec" "$lab" "$f" "$why"
}

# judge W D E I N OUT ARGS...: one judge of effect E's job, its
# document in OUT; prints its exit code. Dies on an exit that is no
# decision (bad input, the database, an interrupt).
judge() {
	local w=$1 d=$2 e=$3 i=$4 n=$5 out=$6 rc=0
	shift 6
	if [ "${d#cls}" != "$d" ]; then
		mapfile -t ia < <(iter_args "$n" "$cls_max")
	else
		mapfile -t ia < <(iter_args "$n")
	fi
	"$sl" judge --db "$tmp/$w/cal.db" --match job --threshold "$threshold" \
		--format json "${ia[@]}" "$@" "$tmp/$w/e$e.job" >"$out" \
		2>"$tmp/$w/judge.err" || rc=$?
	case $rc in
	0|1|125) echo "$rc" ;;
	*)	echo "calibrate-adaptive: $w $d effect $e pair $i: judge exited $rc:" >&2
		cat "$tmp/$w/judge.err" >&2
		exit 1 ;;
	esac
}

# pair W I: every design and effect of pair I of workload W, appended
# to records.tsv.
pair() {
	local w=$1 i=$2 dir=$tmp/$1 d n e lab t0 t1 bs bn id rc k j
	local -a ds es js
	read -ra ds <<<"$designs"
	read -ra es <<<"$effects"
	for ((k = 0; k < ${#ds[@]}; k++)); do
		d=${ds[(k + i) % ${#ds[@]}]}
		n=${d#*-}
		bs=0 bn=- id=
		if [ "${d%%-*}" = sep ]; then
			[ "$d" != sep-auto ] || n=$base
			mapfile -t ia < <(iter_args "$n")
			[ "$n" != auto ] || ia+=(--threshold "$threshold")
			t0=$EPOCHREALTIME
			"$sl" run "$dir/e0.job" --db "$dir/cal.db" --label "A-$d" -q "${ia[@]}" \
				2>"$dir/run.err" || {
				echo "calibrate-adaptive: $w $d pair $i: the baseline's run failed:" >&2
				cat "$dir/run.err" >&2
				exit 1
			}
			t1=$EPOCHREALTIME
			bs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
			id=$(latest "$dir/cal.db")
			bn=$("$sl" show "$id" --db "$dir/cal.db" --format json | jq '.cases[0].iterations')
			n=${d#*-}
		fi
		# the judges of this design: "DESIGN EFFECT" each, the
		# candidate's job being that effect's
		js=()
		for e in "${es[@]}"; do
			case ${d%%-*} in
			cls)	[ "$e" = 0 ] || js+=("cls$e-$n 0" "cls$e-$n $e") ;;
			*)	js+=("$d $e") ;;
			esac
		done
		for ((t = 0; t < ${#js[@]}; t++)); do
			read -r j e <<<"${js[(t + i) % ${#js[@]}]}"
			lab=$j-e$e-p$i
			t0=$EPOCHREALTIME
			case ${d%%-*} in
			sep)	rc=$(judge "$w" "$j" "$e" "$i" "$n" "$dir/$lab.json" \
					--baseline "$id" --label "$lab") ;;
			int)	rc=$(judge "$w" "$j" "$e" "$i" "$n" "$dir/$lab.json" \
					--good-set "$key=$aval" --label "$lab") ;;
			cls)	rc=$(judge "$w" "$j" "$e" "$i" "$n" "$dir/$lab.json" \
					--good-set "$key=$aval" --bad-set "$key=${bval[${j%%-*}]}" \
					--label "$lab") ;;
			esac
			t1=$EPOCHREALTIME
			record "$w" "$j" "$e" "$i" "$rc" "$dir/$lab.json" "$bn" "$bs" \
				"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
				"${id:-$lab/good}" "$lab" >>"$dir/records.tsv"
		done
	done
}

# reanalyze W: records.tsv again as analyze.tsv, the fixed designs'
# decisions taken by this build's judge from their stored runs.
reanalyze() {
	local w=$1 dir=$tmp/$1 line rw d e i rc spec lab f n0 bs js out
	while IFS= read -r line; do
		IFS=$'\t' read -r rw d e i rc _ _ _ n0 _ bs js spec lab f _ <<<"$line"
		if [ "${d#*-}" = auto ]; then
			printf '%s\n' "$line"
			continue
		fi
		out=${f%.json}.again.json
		rc=0
		if [ "${d#cls}" != "$d" ]; then
			set -- --good "$lab/good" --bad "$lab/bad"
		else
			set -- --baseline "$spec"
		fi
		"$sl" judge --db "$dir/cal.db" --match job --threshold "$threshold" \
			--format json "$@" --run "$lab" >"$out" \
			2>"$dir/judge.err" || rc=$?
		case $rc in
		0|1|125) ;;
		*)	echo "calibrate-adaptive: judge $* --run $lab exited $rc:" >&2
			cat "$dir/judge.err" >&2
			exit 1 ;;
		esac
		record "$rw" "$d" "$e" "$i" "$rc" "$out" "$n0" "$bs" "$js" "$spec" "$lab"
	done <"$dir/records.tsv"
}

# quant Q: the Q quantile (nearest rank) of the numbers on stdin, "-"
# when there are none.
quant() {
	grep -v '^-$' | sort -g | awk -v q="$1" '{ v[NR] = $1 } END {
		if (!NR) { print "-"; exit }
		k = int(q * NR); if (k < q * NR) k++; if (k < 1) k = 1; print v[k] }'
}

# table W FILE: the tables of workload W from records FILE, and their TSV
# lines into $tmp/summary.tsv.
table() {
	local w=$1 f=$2 e d sel reg imp skp inc bm b9 cm c9 wall chg n
	for e in $effects; do
		if [ "$e" = 0 ]; then
			printf '%s, A/A: regressed and improved are false alarms\n' "$w"
		else
			printf '%s, A/B +%s%%: regressed is a detection\n' "$w" "$e"
		fi
		printf '%-11s %9s %9s %9s %9s  %11s %11s %8s %8s\n' design regressed \
			improved "skip 125" inconcl. "base n m/90" "cand n m/90" "change" "wall s"
		for d in $(expand_designs); do
			sel=$(awk -F'\t' -v e="$e" -v d="$d" '$2 == d && $3 == e' "$f")
			[ -n "$sel" ] || continue
			reg=$(awk -F'\t' '$5 == 1' <<<"$sel" | wc -l)
			imp=$(awk -F'\t' '$7 == "improved"' <<<"$sel" | wc -l)
			skp=$(awk -F'\t' '$5 == 125' <<<"$sel" | wc -l)
			inc=$(awk -F'\t' '$7 == "inconclusive"' <<<"$sel" | wc -l)
			bm=$(cut -f9 <<<"$sel" | quant 0.5) b9=$(cut -f9 <<<"$sel" | quant 0.9)
			cm=$(cut -f10 <<<"$sel" | quant 0.5) c9=$(cut -f10 <<<"$sel" | quant 0.9)
			chg=$(cut -f8 <<<"$sel" | grep -v '^-$' | median)
			wall=$(awk -F'\t' '{ s += $11 + $12 } END { printf "%.1f", s }' <<<"$sel")
			n=$(wc -l <<<"$sel")
			printf '%-11s %9s %9s %9s %9s  %11s %11s %8s %8s\n' "$d" \
				"$(rate "$reg" "$n")" "$(rate "$imp" "$n")" "$(rate "$skp" "$n")" \
				"$(rate "$inc" "$n")" "$bm/$b9" "$cm/$c9" \
				"$( [ -n "$chg" ] && printf '%.1f%%' "$chg" || echo -)" "$wall"
			printf 'summary\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
				"$w" "$e" "$d" "$n" "$reg" "$imp" "$skp" "$inc" "$bm" "$b9" \
				"$cm" "$c9" "${chg:--}" "$wall" >>"$tmp/summary.tsv"
		done
		echo
	done
}
# expand_designs: $designs, a cls design as one per effect of its bad
# reference (cls10-auto, cls5-auto).
expand_designs() {
	local d e
	for d in $designs; do
		case $d in
		cls-*)	for e in $effects; do
				[ "$e" = 0 ] || echo "cls$e-${d#*-}"
			done ;;
		*)	echo "$d" ;;
		esac
	done
}
rate() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%5.1f%%", n ? 100 * a / n : 0 }'; }

: >"$tmp/summary.tsv"
for w in $workloads; do
	dir=$tmp/$w
	if [ -n "$analyze" ]; then
		# the designs and effects of the records, unless told
		[ -n "${DESIGNS:-}${FIXED:-}" ] || designs=$(cat "$dir/designs")
		[ -n "${EFFECTS:-}" ] || effects=$(cat "$dir/effects")
	fi
	setup "$w"
	if [ -z "$analyze" ]; then
		rm -f "$dir/records.tsv" "$dir/cal.db"
		echo "$designs" >"$dir/designs"
		echo "$effects" >"$dir/effects"
		echo "calibrate-adaptive: $w ($desc; effects ${effects// /, }%)," \
			"$pairs pairs, designs $designs, max $max, threshold $threshold%," \
			"cpus ${cpus:-any}" >&2
		start=$EPOCHREALTIME
		for ((i = 1; i <= pairs; i++)); do
			pair "$w" "$i"
			printf '\r%s: %d/%d pairs' "$w" "$i" "$pairs" >&2
		done
		printf '\n' >&2
		secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
		recs=$dir/records.tsv
		echo "$w: $desc; more $what: ${effects// /%, }%; $pairs pairs;" \
			"threshold $threshold%; adaptive: max $max${min:+, min $min}," \
			"sep-auto baseline $base; cpus ${cpus:-any}"
		echo "runs took $secs s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	else
		[ -s "$dir/records.tsv" ] ||
			{ echo "calibrate-adaptive: no $dir/records.tsv to analyze" >&2; exit 2; }
		reanalyze "$w" >"$dir/analyze.tsv"
		recs=$dir/analyze.tsv

		echo "$w: $desc; records of $dir (ANALYZE: fixed designs judged again" \
			"from their stored runs, adaptive ones as recorded)"
	fi
	echo
	table "$w" "$recs"
done
echo "regressed: judge exited 1; improved: the verdict improved; skip: judge"
echo "exited 125; inconcl.: the verdict inconclusive (also counted in skip when"
echo "a regression could not be ruled out); base n, cand n: the median and 90th"
echo "percentile of the iterations of each side (an interleaved design's base is"
echo "its live good reference); change: the median change (+ is better); wall s:"
echo "the total of the judges' time and of the baselines' runs (a separate"
echo "design's baseline is counted in every effect it served)."
echo
printf 'summary\tworkload\teffect\tdesign\tpairs\tregressed\timproved\tskip\tinconclusive'
printf '\tbase_median\tbase_p90\tcand_median\tcand_p90\tchange_median\twall_s\n'
cat "$tmp/summary.tsv"
