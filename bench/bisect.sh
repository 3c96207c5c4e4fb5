#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Does the README's bisect recipe find a small user-space regression
# unattended? Each trial makes the demonstration repository of
# bench/bisect-repo.sh (NCOMMITS commits, one of them, chosen at random
# and recorded, slowing a CPU-bound program by SLOWDOWN percent), keeps
# the good (first) and bad (last) commits' builds aside and lets
# `git bisect run` call, at every step,
#
#   make -s || exit 125
#   schedlab judge --db DB --good-set argv=GOOD --bad-set argv=BAD \
#           --set argv=./prog JOBFILE
#
# with JOBFILE one `workload = command` job running ./prog (pinned to
# CPU $CPUS, as the README says). Per trial it prints whether git bisect
# named the exact commit (yes; no; or "in N" when skipped steps left git
# N commits that could be the first bad one, the right one among them),
# what it blamed, the wall time of `git bisect run`, its steps and skips
# and the rounds (iterations of the build under test) of each step, read
# back from the trial's database (each step's run is labelled by git
# describe, the references' runs LABEL/good and LABEL/bad); then a
# summary: trials found, median wall time, median and 90th percentile
# rounds per step. Trials do not wait for a quiet machine (bench/lib.sh's
# quiet): the recipe is meant for a busy one.
#
#   bench/bisect.sh                   10 trials, 16 commits, 5% slowdown
#   SLOWDOWN=2 bench/bisect.sh        the 2% figure
#   TRIALS=2 NCOMMITS=8 SLOWDOWN=50 WORK=5000000 bench/bisect.sh   a smoke run
#
# Environment: TRIALS (10), NCOMMITS (16), SLOWDOWN (5, percent), WORK
# (30000000: about 60 ms a run of the program on the 2-CPU VM), CPUS (0;
# CPUS= leaves the placement to the scheduler), JUDGE_ARGS (more judge
# options, e.g. "--max-iterations 20 --budget 2m"), SEED (the random
# bad commits; default: from the clock, printed), KEEP=DIR keeps the
# repositories, databases and logs there.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
sl=${SCHEDLAB:-$top/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
trials=${TRIALS:-10}
n=${NCOMMITS:-16}
slow=${SLOWDOWN:-5}
cpus=${CPUS-0}
seed=${SEED:-$(date +%s)}
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
RANDOM=$seed

for t in git cc make jq; do
	command -v "$t" >/dev/null || { echo "bisect: no $t" >&2; exit 2; }
done
"$sl" judge --help 2>&1 | grep -q -- --good-set ||
	{ echo "bisect: $sl judge has no --good-set" >&2; exit 2; }

{
	printf '[prog]\nworkload = command\nargv = ./prog\n'
	[ -z "$cpus" ] || printf 'cpus = %s\n' "$cpus"
} >"$tmp/prog.job"

echo "bisect: $trials trials, $n commits, ${slow}% slowdown, WORK ${WORK:-30000000}," \
	"cpus ${cpus:-any}, seed $seed${JUDGE_ARGS:+, judge $JUDGE_ARGS}" >&2
printf '%-5s %-4s %-6s %-7s %6s %5s %5s  %s\n' trial bad found blamed wall_s steps skips \
	"rounds per step"
walls=() rounds=() found=0 skipped=0
for ((t = 1; t <= trials; t++)); do
	repo=$tmp/t$t db=$tmp/t$t.db
	rm -rf "$repo" "$db"
	bad=$((RANDOM % (n - 1) + 2))
	want=$("$top/bench/bisect-repo.sh" "$repo" "$n" "$bad" "$slow")
	(
		cd "$repo"
		git checkout -q main~$((n - 1))
		make -s && cp prog "$tmp/good-prog"
		git checkout -q main
		make -s && cp prog "$tmp/bad-prog"
	) >/dev/null
	start=$EPOCHREALTIME
	(
		cd "$repo"
		git bisect start main main~$((n - 1)) >/dev/null
		# shellcheck disable=SC2016
		git bisect run sh -c 'make -s || exit 125
			"$0" judge --db "$1" --good-set argv="$2" --bad-set argv="$3" \
				--set argv=./prog $4 "$5"' \
			"$sl" "$db" "$tmp/good-prog" "$tmp/bad-prog" "${JUDGE_ARGS:-}" \
			"$tmp/prog.job" >"$tmp/t$t.log" 2>&1 || true
		git bisect log >"$tmp/t$t.bisect"
		git bisect reset >/dev/null 2>&1
	)
	wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	blamed=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$tmp/t$t.log")
	steps=$(grep -cE '^git bisect (good|bad|skip) ' "$tmp/t$t.bisect" || true)
	skips=$(grep -cE '^git bisect skip ' "$tmp/t$t.bisect" || true)
	# Only skipped commits left: git lists the commits that could be
	# the first bad one.
	left=$(sed -n '/^The first bad commit could be any of:$/,/^We cannot bisect more!$/p' \
		"$tmp/t$t.log" | grep -E '^[0-9a-f]{40}$' || true)
	# The rounds of each step: the iterations of the runs judge made of
	# the build under test (not the references', labelled .../good and
	# .../bad), in the order they ran.
	step_rounds=()
	nr=$("$sl" list runs --db "$db" 2>/dev/null | awk 'NR > 1' | wc -l)
	for ((id = 1; id <= nr; id++)); do
		r=$("$sl" show "$id" --db "$db" --format json 2>/dev/null |
			jq -r 'select(.run.label | test("/(good|bad)$") | not) |
				[.cases[].iterations] | max') || continue
		[ -z "$r" ] || step_rounds+=("$r")
	done
	ok=no
	if [ -n "$blamed" ] && [ "$blamed" = "$want" ]; then
		ok=yes found=$((found + 1))
	elif [ -n "$left" ]; then
		blamed=skipped skipped=$((skipped + 1))
		! grep -qx "$want" <<<"$left" || ok="in $(wc -l <<<"$left")"
	fi
	: "${blamed:=-}"
	walls+=("$wall")
	rounds+=("${step_rounds[@]}")
	printf '%-5s %-4s %-6s %-7s %6s %5s %5s  %s\n' "$t" "$bad" "$ok" \
		"${blamed:0:7}" "$wall" "$steps" "$skips" "${step_rounds[*]}"
done

p90() { sort -g | awk '{ v[NR] = $1 } END { i = int(0.9 * NR + 0.999999); print v[i ? i : 1] }'; }
echo
echo "found $found of $trials (${slow}% slowdown, $n commits);" \
	"$skipped ended with only skipped commits left"
echo "wall time of git bisect run: median $(printf '%s\n' "${walls[@]}" | median) s"
if [ ${#rounds[@]} -gt 0 ]; then
	echo "rounds per step: median $(printf '%s\n' "${rounds[@]}" | median)," \
		"90th percentile $(printf '%s\n' "${rounds[@]}" | p90) (${#rounds[@]} steps)"
fi
