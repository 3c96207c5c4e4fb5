#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel-style bisect with `schedlab campaign bisect` (doc/statistics.md,
# "Kernel bisect on a campaign"): each trial makes the demonstration
# repository of bench/bisect-repo.sh (NCOMMITS commits, one chosen at
# random and recorded slowing a CPU-bound program by SLOWDOWN percent)
# and bisects it as a kernel would be: the build command compiles the
# commit and keeps its program under the commit's name (an installed
# kernel), the hook writes the commit to boot, and a "boot" is a
# separate `schedlab campaign resume` process, started again until it
# exits 0. Per trial: whether the first bad commit was found, the steps,
# the wrong calls (a step called good on a commit at or after the slow
# one, or bad before it), the skips, the boots of the references and of
# each step, and the wall time; then a summary.
#
#   bench/campaign-bisect.sh                    10 trials, 16 commits, 5%
#   TRIALS=2 NCOMMITS=8 SLOWDOWN=50 WORK=5000000 bench/campaign-bisect.sh
#
# Environment: TRIALS (10), NCOMMITS (16), SLOWDOWN (5), WORK
# (30000000: ~60 ms a run of the program), ITERATIONS (5 a boot's run),
# CPUS (0: the program pinned there; CPUS= leaves it to the scheduler),
# OFFSET (0: percent, the sd of an offset each boot draws, as placement
# or frequency would give a real boot: the hook writes a factor
# exp(N(0, OFFSET%)) that the boot's runs multiply their work by), ARGS
# (more `campaign bisect` options), SEED, SCHEDLAB, KEEP=DIR.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
sl=${SCHEDLAB:-$top/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
trials=${TRIALS:-10} n=${NCOMMITS:-16} slow=${SLOWDOWN:-5}
iters=${ITERATIONS:-5} cpus=${CPUS-0} seed=${SEED:-$(date +%s)} offset=${OFFSET:-0}
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
RANDOM=$seed
for t in git cc make jq; do
	command -v "$t" >/dev/null || { echo "campaign-bisect: no $t" >&2; exit 2; }
done

echo "campaign-bisect: $trials trials, $n commits, ${slow}% slowdown, WORK ${WORK:-30000000}," \
	"$iters iterations a boot, cpus ${cpus:-any}, boot offsets ${offset}%, seed $seed${ARGS:+, $ARGS}" >&2
printf '%-5s %-4s %-6s %5s %5s %5s %9s %6s %8s %8s  %s\n' trial bad found steps wrong skips ref_boots boots wall_s \
	bad/good "its commit's boots per step"
found=0 wrong_all=0 calls_all=0 walls=() per=() totals=()
for ((t = 1; t <= trials; t++)); do
	d=$tmp/t$t
	rm -rf "$d"
	mkdir -p "$d/bin"
	bad=$((RANDOM % (n - 1) + 2))
	want=$("$top/bench/bisect-repo.sh" "$d/repo" "$n" "$bad" "$slow")
	{
		printf '[global]\niterations = %s\nwarmup = 1\n\n[prog]\n' "$iters"
		printf 'workload = command\nshell = true\n'
		printf 'argv = "WORK_SCALE=$(cat %s/scale) exec %s/bin/$(cat %s/state)"\n' "$d" "$d" "$d"
		[ -z "$cpus" ] || printf 'cpus = %s\n' "$cpus"
	} >"$d/prog.job"
	echo 1 >"$d/scale"
	# the commands this "machine" agreed to run: a trial's own
	export SCHEDLAB_CAMPAIGN_DIR=$d/campaigns
	start=$EPOCHREALTIME
	rc=0
	# shellcheck disable=SC2086
	"$sl" campaign bisect t "$d/prog.job" --db "$d/r.db" --repo "$d/repo" \
		--good main~$((n - 1)) --bad main --seed "$RANDOM" \
		--build "make -s && cp prog '$d/bin/'\$SCHEDLAB_COMMIT" \
		--hook "echo \$SCHEDLAB_COMMIT >'$d/state' && awk -v b=\$SCHEDLAB_BOOT -v s=$(( (seed % 1000003) * 1000 + t * 37 )) -v o=$offset 'BEGIN { srand(s + b); u = rand(); v = rand(); printf \"%.6f\\n\", exp(o / 100 * sqrt(-2 * log(1 - u)) * cos(6.283185307 * v)) }' >'$d/scale'" ${ARGS:-} >"$d/log" 2>&1 || rc=$?
	while [ "$rc" = 75 ]; do
		rc=0
		"$sl" campaign resume --db "$d/r.db" >>"$d/log" 2>&1 || rc=$?
	done
	wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	doc=$("$sl" campaign status t --db "$d/r.db" --format json)
	got=$(jq -r '.bisect.first_bad // ""' <<<"$doc")
	ok=no
	[ "$got" != "$want" ] || { ok=yes; found=$((found + 1)); }
	[ "$(jq -r .status <<<"$doc")" = finished ] || ok="$(jq -r .status <<<"$doc")"
	wrong=0 skips=0 steps=0 boots=()
	while read -r call commit; do
		[ -n "$commit" ] || continue
		steps=$((steps + 1))
		boots+=("$(jq --arg c "$commit" '[.states[] | select(.commit == $c) | .name] as $n |
			[.boots[] | select(.phase == "done" and .state == $n[0])] | length' <<<"$doc")")
		case $call in
		skip) skips=$((skips + 1)) ;;
		good | bad)
			calls_all=$((calls_all + 1))
			truth=good
			! git -C "$d/repo" merge-base --is-ancestor "$want" "$commit" || truth=bad
			[ "$call" = "$truth" ] || wrong=$((wrong + 1))
			;;
		esac
	done < <(jq -r '.bisect.steps[] | "\(.call) \(.commit)"' <<<"$doc")
	wrong_all=$((wrong_all + wrong))
	refs=$(jq '[.boots[] | select(.phase == "done" and (.state == "good" or .state == "bad"))] | length' <<<"$doc")
	total=$(jq '[.boots[] | select(.phase == "done")] | length' <<<"$doc")
	# the headline's bad/good as the campaign last measured it
	ratio=$(jq -r '.bisect.distance // empty | exp | . * 1000 | round / 1000' <<<"$doc")
	totals+=("$total")
	walls+=("$wall")
	per+=("${boots[@]}")
	printf '%-5s %-4s %-6s %5s %5s %5s %9s %6s %8s %8s  %s\n' "$t" "$bad" "$ok" "$steps" "$wrong" \
		"$skips" "$refs" "$total" "$wall" "${ratio:--}" "${boots[*]}"
done
p90() { sort -g | awk '{ v[NR] = $1 } END { i = int(0.9 * NR + 0.999999); print v[i ? i : 1] }'; }
echo
echo "found $found of $trials (${slow}% slowdown, $n commits)"
echo "wrong calls: $wrong_all of $calls_all good/bad calls"
echo "boots per bisection: median $(printf '%s\n' "${totals[@]}" | median) ($(printf '%s\n' "${totals[@]}" | sort -g | tr '\n' ' '))"
echo "wall time per bisection: median $(printf '%s\n' "${walls[@]}" | median) s"
[ ${#per[@]} -eq 0 ] || echo "boots per step: median $(printf '%s\n' "${per[@]}" | median)," \
	"90th percentile $(printf '%s\n' "${per[@]}" | p90) (${#per[@]} steps)"
