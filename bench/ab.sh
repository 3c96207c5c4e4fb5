#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Measures `schedlab ab` (issue 14's targets; doc/benchmarks.md has the
# figures, doc/statistics.md the false alarm rate):
#
#   aa        A/A: `schedlab ab JOB --variant 'a:' --variant 'b:'
#             --iterations ROUNDS --format json`, TRIALS times on each
#             workload of WORKLOAD; a false alarm is b's verdict (the
#             compare document's runs[1].verdict) other than "no
#             change". Counted apart: "claimed" (improved or regressed,
#             a change said to be there) and "inconclusive" (a wide
#             interval). Rates with a 95% Clopper-Pearson interval.
#   spread    the log ratio ln(median_b / median_a) of the headline over
#             SPREAD_TRIALS trials of each design, on each workload:
#             int, ab with two identical variants, ROUNDS rounds; b2b,
#             back to back: `schedlab run JOB --iterations ROUNDS` labelled
#             .../a, then again labelled .../b. The designs alternate
#             trial by trial (int first in odd trials, b2b in even ones).
#             Their spread (sd, and the MAD scaled by 1.4826 to read as
#             an sd), the ratio of spreads (b2b / int), the largest
#             |ratio| and the verdicts that were not "no change".
#   switch    the cost of switching knobs: ab of a `command` job running
#             `true`, SWITCH_ROUNDS rounds, --variant 'a:' against one
#             knob (b: sysctl.kernel.sched_rr_timeslice_ms=37) and three
#             (also kernel.sched_autogroup_enabled flipped, and
#             kernel.sched_child_runs_first flipped where the kernel has
#             it, else /proc/sys/kernel/sched_rt_runtime_us written its
#             own value), SWITCH_TRIALS trials of each; the executor's
#             environment.knob_switching (schedlab show RUN --format
#             json) and ab's "knobs:" line. Every knob is read before
#             and after each trial: a value not put back is an error
#             (and put back here, as on any exit). Needs root.
#   pgbench   a seed 001-style table: pgbench select-only at PG_SCALES x
#             clients PG_CLIENTS under --variant 'base:' --variant
#             'cpus: cpus=0' --variant 'nice: nice=10', PG_ITERATIONS
#             rounds of PG_RUNTIME each; ab's comparison as markdown
#             (--layout variants, a column per variant, where this
#             schedlab has it).
#   all       the four, in that order.
#
#   bench/ab.sh aa                  40 trials of 10 rounds, messaging and cpu
#   QUICK=1 bench/ab.sh all         a smoke run: a few trials of each
#   WORKLOAD=cpu TRIALS=100 bench/ab.sh aa
#
# Workloads (WORKLOAD, a list): messaging (groups = MSG_GROUPS (2), loops =
# LOOPS (200): ~0.2 s an iteration on the 2-CPU VM) and cpu (the
# command workload running sh -c 'i=0; while [ $i -lt SPIN ]; do
# i=$((i+1)); done', SPIN 20000: ~25 ms). Unpinned. Every trial has a
# label of its own (aa-W-T, ...): compare's run-to-run noise, counted
# over repeats of a label (doc/statistics.md), stays out, as in one ab
# of a user's. Trials do not wait for a quiet machine (bench/lib.sh's
# quiet): drift during a trial is what interleaving is for.
#
# The binary (SCHEDLAB, default ./schedlab) is copied into the temporary
# directory first, so that a rebuild meanwhile does not change it.
#
# Output: markdown tables on stdout, progress on stderr; every trial's
# record in DIR/MODE.tsv, the documents in DIR/.
#
# Environment: QUICK (1: TRIALS 3, SPREAD_TRIALS 2, SWITCH_TRIALS 2,
# PG_SCALES 1, PG_CLIENTS 1, PG_RUNTIME 2s, PG_ITERATIONS 4), TRIALS
# (40), SPREAD_TRIALS (20), ROUNDS (10), WORKLOAD ("messaging cpu"),
# MSG_GROUPS (2), LOOPS (200), SPIN (20000), SWITCH_TRIALS (10),
# SWITCH_ROUNDS (20), PG_SCALES ("1 10"), PG_CLIENTS (1,2,4), PG_RUNTIME
# (5s), PG_ITERATIONS (5), KEEP=DIR keeps the databases, records and
# documents there, ANALYZE=1 (with KEEP, aa or spread) tabulates the
# documents an earlier KEEP run left, running nothing.
#
# Cost on the 2-CPU VM: aa 3-4 minutes (both workloads), spread 3-5,
# switch 10 s, pgbench 8 (2 x 3 cases x 3 variants x 5 rounds of 5 s,
# and the loading).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
src=${SCHEDLAB:-$top/schedlab}
case $src in /*) ;; *) src=$PWD/$src ;; esac
mode=${1:-all}
quick=${QUICK:-}
if [ -n "$quick" ]; then
	: "${TRIALS:=3}" "${SPREAD_TRIALS:=2}" "${SWITCH_TRIALS:=2}"
	: "${PG_SCALES:=1}" "${PG_CLIENTS:=1}" "${PG_RUNTIME:=2s}" "${PG_ITERATIONS:=4}"
fi
trials=${TRIALS:-40}
spread_trials=${SPREAD_TRIALS:-20}
rounds=${ROUNDS:-10}
workloads=${WORKLOAD:-messaging cpu}
groups=${MSG_GROUPS:-2}
loops=${LOOPS:-200}
spin=${SPIN:-20000}
switch_trials=${SWITCH_TRIALS:-10}
switch_rounds=${SWITCH_ROUNDS:-20}
pg_scales=${PG_SCALES:-1 10}
pg_clients=${PG_CLIENTS:-1,2,4}
pg_runtime=${PG_RUNTIME:-5s}
pg_iter=${PG_ITERATIONS:-5}
analyze=${ANALYZE:-}

case $mode in
aa|spread|switch|pgbench|all) ;;
*)	echo "usage: bench/ab.sh aa|spread|switch|pgbench|all (see the comment at its top)" >&2
	exit 2 ;;
esac
for w in $workloads; do
	case $w in
	messaging|cpu) ;;
	*) echo "ab.sh: WORKLOAD: unknown workload '$w' (messaging, cpu)" >&2; exit 2 ;;
	esac
done
[ -z "$analyze" ] || { [ -n "${KEEP:-}" ] && { [ "$mode" = aa ] || [ "$mode" = spread ]; }; } ||
	{ echo "ab.sh: ANALYZE=1 needs KEEP=DIR of an earlier aa or spread run, and that mode" >&2; exit 2; }
command -v jq >/dev/null || { echo "ab.sh: needs jq (apt-get install jq)" >&2; exit 2; }
[ -x "$src" ] || { echo "ab.sh: no schedlab at $src (make, or SCHEDLAB=PATH)" >&2; exit 2; }
"$src" ab --help >/dev/null 2>&1 || { echo "ab.sh: $src has no ab command" >&2; exit 2; }

tmp=${KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
# The knobs the switch mode changes, "PATH VALUE" as found, put back at
# any exit that finds them changed (schedlab should have).
knobs=()
cleanup() {
	local k p v
	for k in "${knobs[@]}"; do
		read -r p v <<<"$k"
		[ "$(cat "$p")" = "$v" ] && continue
		echo "ab.sh: $p was left at $(cat "$p"), putting back $v" >&2
		echo "$v" >"$p"
	done
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# a new file (a KEEP directory's old copy may be running)
cp "$src" "$tmp/schedlab.$$" && mv -f "$tmp/schedlab.$$" "$tmp/schedlab"
sl=$tmp/schedlab

# job W: the job file of workload W on stdout.
job() {
	case $1 in
	messaging)
		printf '[msg]\nworkload = messaging\ngroups = %s\nloops = %s\n' "$groups" "$loops" ;;
	cpu)
		# shellcheck disable=SC2016
		printf '[cpu]\nworkload = command\nargv = sh -c '\''i=0; while [ $i -lt %s ]; do i=$((i+1)); done'\''\n' "$spin" ;;
	esac
}
desc() {
	case $1 in
	messaging) echo "messaging, groups $groups, loops $loops" ;;
	cpu) echo "cpu: command sh -c, a loop of $spin turns" ;;
	esac
}

# latest DB: the id of the latest run in DB.
latest() {
	"$sl" list runs --db "$1" | awk 'NR == 2 { print $1 }'
}

# fields JSON: "verdict change p median_a median_b significant" of a
# compare document of two runs (one case).
fields() {
	jq -r '.jobs[0].cases[0].runs as $r |
		[$r[1].verdict // "-", $r[1].change // "-", $r[1].p // "-",
		 $r[0].median // "-", $r[1].median // "-",
		 (if $r[1].significant == null then "-"
		  else ($r[1].significant | tostring) end)] | @tsv' "$1"
}

# cp_interval K N: the 95% Clopper-Pearson interval of K successes in N
# trials, "LO HI" in percent (bisection on the binomial distribution).
cp_interval() {
	awk -v k="$1" -v n="$2" '
	# P(X <= k) for X ~ Binomial(n, p)
	function cdf(k, n, p,   i, t, s) {
		if (k < 0) return 0
		if (k >= n) return 1
		if (p <= 0) return 1
		if (p >= 1) return 0
		t = exp(n * log(1 - p)); s = t
		for (i = 1; i <= k; i++) { t *= (n - i + 1) / i * p / (1 - p); s += t }
		return s
	}
	BEGIN {
		lo = 0; hi = 1
		if (k > 0) {	# P(X >= k | lo) = 0.025
			a = 0; b = 1
			for (i = 0; i < 100; i++) { m = (a + b) / 2; if (1 - cdf(k - 1, n, m) < 0.025) a = m; else b = m }
			lo = (a + b) / 2
		}
		if (k < n) {	# P(X <= k | hi) = 0.025
			a = 0; b = 1
			for (i = 0; i < 100; i++) { m = (a + b) / 2; if (cdf(k, n, m) > 0.025) a = m; else b = m }
			hi = (a + b) / 2
		}
		printf "%.1f %.1f\n", 100 * lo, 100 * hi
	}'
}

# rate K N: "K/N = R% [LO, HI]".
rate() {
	local lo hi
	read -r lo hi < <(cp_interval "$1" "$2")
	awk -v k="$1" -v n="$2" -v lo="$lo" -v hi="$hi" \
		'BEGIN { printf "%d/%d = %.1f%% [%.1f, %.1f]", k, n, n ? 100 * k / n : 0, lo, hi }'
}

elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

machine() {
	[ -z "$analyze" ] || { echo "ANALYZE: the documents in $tmp"; return; }
	echo "machine: $(nproc) CPUs, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)," \
		"schedlab $("$sl" --version 2>/dev/null | head -1)"
}

# ---- aa ------------------------------------------------------------------

mode_aa() {
	local w t f rec=$tmp/aa.tsv start rc
	for w in $workloads; do job "$w" >"$tmp/$w.job"; done
	: >"$rec"
	echo "ab.sh aa: $trials trials of $rounds rounds on ${workloads// /, }" >&2
	start=$EPOCHREALTIME
	for ((t = 1; t <= trials; t++)); do
		for w in $workloads; do
			f=$tmp/aa-$w-$t.json rc=0
			[ -z "$analyze" ] || { [ -s "$f" ] && printf '%s\t%s\t%s\n' "$w" "$t" "$(fields "$f")" >>"$rec"; continue; }
			"$sl" ab "$tmp/$w.job" --db "$tmp/aa.db" --label "aa-$w-$t" -q \
				--variant 'a:' --variant 'b:' --iterations "$rounds" \
				--format json >"$f" 2>"$tmp/ab.err" || rc=$?
			if [ "$rc" != 0 ]; then
				echo "ab.sh: aa $w trial $t: ab exited $rc:" >&2
				cat "$tmp/ab.err" >&2
				exit 1
			fi
			printf '%s\t%s\t%s\n' "$w" "$t" "$(fields "$f")" >>"$rec"
		done
		printf '\raa: %d/%d trials' "$t" "$trials" >&2
	done
	printf '\n' >&2
	echo "### A/A through ab: $trials trials of $rounds rounds"
	echo
	echo "$(machine); took $(elapsed "$start") s"
	echo
	echo "| workload | not \"no change\" | claimed a change (improved or regressed) | inconclusive | significant (p < 0.05) | median change | median p |"
	echo "|---|---|---|---|---|---|---|"
	for w in $workloads; do
		local sel n bad claim inc sig chg p
		sel=$(awk -F'\t' -v w="$w" '$1 == w' "$rec")
		n=$(wc -l <<<"$sel")
		bad=$(awk -F'\t' '$3 != "no change"' <<<"$sel" | wc -l)
		claim=$(awk -F'\t' '$3 == "improved" || $3 == "regressed"' <<<"$sel" | wc -l)
		inc=$(awk -F'\t' '$3 == "inconclusive"' <<<"$sel" | wc -l)
		sig=$(awk -F'\t' '$8 == "true"' <<<"$sel" | wc -l)
		chg=$(cut -f4 <<<"$sel" | grep -v '^-$' | median)
		p=$(cut -f5 <<<"$sel" | grep -v '^-$' | median)
		printf '| %s | %s | %s | %s | %s | %.2f%% | %.2f |\n' "$(desc "$w")" \
			"$(rate "$bad" "$n")" "$(rate "$claim" "$n")" "$(rate "$inc" "$n")" \
			"$(rate "$sig" "$n")" "$chg" "$p"
	done
	echo
	echo "Rates: count/trials = rate [95% Clopper-Pearson interval]; the verdict is"
	echo "b's against a (Mann-Whitney, alpha 0.05, threshold 5%, --match job)."
	echo
}

# ---- spread --------------------------------------------------------------

# spread_int W T: one interleaved trial, "int W T verdict change p ma mb".
spread_int() {
	local w=$1 t=$2 f=$tmp/int-$1-$2.json
	[ -z "$analyze" ] || [ -s "$f" ] || return 0
	[ -n "$analyze" ] || "$sl" ab "$tmp/$w.job" --db "$tmp/spread.db" --label "int-$w-$t" -q \
		--variant 'a:' --variant 'b:' --iterations "$rounds" --format json \
		>"$f" 2>"$tmp/ab.err" || {
		echo "ab.sh: spread $w trial $t: ab failed:" >&2
		cat "$tmp/ab.err" >&2
		exit 1
	}
	printf 'int\t%s\t%s\t%s\n' "$w" "$t" "$(fields "$f")"
}

# spread_b2b W T: one back-to-back trial, the same fields.
spread_b2b() {
	local w=$1 t=$2 f=$tmp/b2b-$1-$2.json s ida idb
	[ -z "$analyze" ] || [ -s "$f" ] || return 0
	[ -z "$analyze" ] || { printf 'b2b\t%s\t%s\t%s\n' "$w" "$t" "$(fields "$f")"; return; }
	for s in a b; do
		"$sl" run "$tmp/$w.job" --db "$tmp/spread.db" --label "b2b-$w-$t/$s" -q \
			--iterations "$rounds" 2>"$tmp/run.err" || {
			echo "ab.sh: spread $w trial $t: run $s failed:" >&2
			cat "$tmp/run.err" >&2
			exit 1
		}
		if [ $s = a ]; then ida=$(latest "$tmp/spread.db"); else idb=$(latest "$tmp/spread.db"); fi
	done
	"$sl" compare "$ida" "$idb" --db "$tmp/spread.db" --format json >"$f" 2>"$tmp/cmp.err" || {
		echo "ab.sh: spread $w trial $t: compare failed:" >&2
		cat "$tmp/cmp.err" >&2
		exit 1
	}
	printf 'b2b\t%s\t%s\t%s\n' "$w" "$t" "$(fields "$f")"
}

# spread_stats: "n sd mad max_pct" of the log ratios on stdin.
spread_stats() {
	awk '{ x[NR] = $1; s += $1 } END {
		n = NR; m = s / n
		for (i = 1; i <= n; i++) { ss += (x[i] - m) ^ 2; a = x[i] < 0 ? -x[i] : x[i]; if (a > mx) mx = a }
		sd = n > 1 ? sqrt(ss / (n - 1)) : 0
		print n, sd, mx
	}'
}
mad() {
	local m
	m=$(median <<<"$1")
	awk -v m="$m" '{ d = $1 - m; print d < 0 ? -d : d }' <<<"$1" | median
}

mode_spread() {
	local w t rec=$tmp/spread.tsv start d
	for w in $workloads; do job "$w" >"$tmp/$w.job"; done
	: >"$rec"
	echo "ab.sh spread: $spread_trials trials of each design, $rounds rounds, on ${workloads// /, }" >&2
	start=$EPOCHREALTIME
	for ((t = 1; t <= spread_trials; t++)); do
		for w in $workloads; do
			if ((t % 2)); then
				spread_int "$w" "$t" >>"$rec"
				spread_b2b "$w" "$t" >>"$rec"
			else
				spread_b2b "$w" "$t" >>"$rec"
				spread_int "$w" "$t" >>"$rec"
			fi
		done
		printf '\rspread: %d/%d trials' "$t" "$spread_trials" >&2
	done
	printf '\n' >&2
	echo "### Noise: the log ratio of two identical sides, interleaved and back to back"
	echo
	echo "$(machine); took $(elapsed "$start") s"
	echo
	echo "| workload | design | trials | sd of ln(b/a) | MAD x 1.4826 | largest \|b/a - 1\| | not \"no change\" | claimed a change |"
	echo "|---|---|---|---|---|---|---|---|"
	declare -A sdv madv
	for w in $workloads; do
		for d in int b2b; do
			local l n sd mx md bad claim
			# ln(median_b / median_a)
			l=$(awk -F'\t' -v w="$w" -v d="$d" '$1 == d && $2 == w && $7 > 0 && $8 > 0 {
				printf "%.9g\n", log($8 / $7) }' "$rec")
			[ -n "$l" ] || continue
			read -r n sd mx < <(spread_stats <<<"$l")
			md=$(awk -v m="$(mad "$l")" 'BEGIN { printf "%.9g", 1.4826 * m }')
			bad=$(awk -F'\t' -v w="$w" -v d="$d" '$1 == d && $2 == w && $4 != "no change"' "$rec" | wc -l)
			claim=$(awk -F'\t' -v w="$w" -v d="$d" '$1 == d && $2 == w &&
				($4 == "improved" || $4 == "regressed")' "$rec" | wc -l)
			sdv[$w$d]=$sd madv[$w$d]=$md
			printf '| %s | %s | %s | %.2f%% | %.2f%% | %.1f%% | %s | %s |\n' "$(desc "$w")" \
				"$([ $d = int ] && echo "interleaved (ab)" || echo "back to back (run, run)")" \
				"$n" "$(awk -v x="$sd" 'BEGIN { print 100 * x }')" \
				"$(awk -v x="$md" 'BEGIN { print 100 * x }')" \
				"$(awk -v x="$mx" 'BEGIN { print 100 * (exp(x) - 1) }')" \
				"$(rate "$bad" "$n")" "$(rate "$claim" "$n")"
		done
	done
	echo
	echo "| workload | ratio of spreads, back to back / interleaved: sd | MAD |"
	echo "|---|---|---|"
	for w in $workloads; do
		awk -v w="$(desc "$w")" -v bs="${sdv[${w}b2b]}" -v is="${sdv[${w}int]}" \
			-v bm="${madv[${w}b2b]}" -v im="${madv[${w}int]}" 'BEGIN {
			printf "| %s | %s | %s |\n", w, (is > 0 ? sprintf("%.2f", bs / is) : "-"),
				(im > 0 ? sprintf("%.2f", bm / im) : "-") }'
	done
	echo
	echo "sd and MAD of ln(median_b / median_a) in percent (x 100); the medians are"
	echo "compare's of each side's $rounds iterations. Verdicts (compare's, b against a;"
	echo "[95% Clopper-Pearson]): not \"no change\" counts inconclusive ones too,"
	echo "claimed a change only improved and regressed."
	echo
}

# ---- switch --------------------------------------------------------------

# knob PATH: remembers PATH's value, to be put back at exit if changed.
knob() {
	knobs+=("$1 $(cat "$1")")
}

# switch_trial NAME T VARIANT: one ab of true.job with --variant 'a:'
# and VARIANT; "NAME T iterations median_us max_us knobs_line" on stdout.
switch_trial() {
	local name=$1 t=$2 v=$3 out=$tmp/sw-$1-$2.txt k p was now id
	"$sl" ab "$tmp/true.job" --db "$tmp/switch.db" --label "sw-$name-$t" \
		--variant 'a:' --variant "$v" --iterations "$switch_rounds" \
		>"$out" 2>"$tmp/ab.err" || {
		echo "ab.sh: switch $name trial $t: ab failed:" >&2
		cat "$tmp/ab.err" >&2
		exit 1
	}
	for k in "${knobs[@]}"; do
		read -r p was <<<"$k"
		now=$(cat "$p")
		[ "$now" = "$was" ] || {
			echo "ab.sh: switch $name trial $t: $p is $now after ab, was $was" >&2
			exit 1
		}
	done
	id=$(latest "$tmp/switch.db")
	"$sl" show "$id" --db "$tmp/switch.db" --format json >"$tmp/sw-$name-$t.json"
	printf '%s\t%s\t%s\t%s\n' "$name" "$t" \
		"$(jq -r '.environment.knob_switching | (.value // .) |
			[.iterations // "-", .median_us // "-", .max_us // "-"] | @tsv' \
			"$tmp/sw-$name-$t.json")" \
		"$(grep '^knobs:' "$out" || echo -)"
}

mode_switch() {
	local rec=$tmp/switch.tsv t rr=/proc/sys/kernel/sched_rr_timeslice_ms
	local ag=/proc/sys/kernel/sched_autogroup_enabled crf=/proc/sys/kernel/sched_child_runs_first
	local rt=/proc/sys/kernel/sched_rt_runtime_us one three third start
	if [ "$(id -u)" -ne 0 ]; then
		echo "ab.sh switch: needs root (it writes sysctls); skipped" >&2
		return 0
	fi
	printf '[true]\nworkload = command\nargv = true\n' >"$tmp/true.job"
	knob "$rr"
	knob "$ag"
	one="b: sysctl.kernel.sched_rr_timeslice_ms=37"
	if [ -e "$crf" ]; then
		knob "$crf"
		third="sysctl.kernel.sched_child_runs_first=$((1 - $(cat "$crf")))"
	else
		knob "$rt"
		third="$rt=$(cat "$rt")"
	fi
	three="b: sysctl.kernel.sched_rr_timeslice_ms=37 sysctl.kernel.sched_autogroup_enabled=$((1 - $(cat "$ag"))) $third"
	: >"$rec"
	echo "ab.sh switch: $switch_trials trials of $switch_rounds rounds, one knob and three" >&2
	start=$EPOCHREALTIME
	for ((t = 1; t <= switch_trials; t++)); do
		switch_trial one "$t" "$one" >>"$rec"
		switch_trial three "$t" "$three" >>"$rec"
		printf '\rswitch: %d/%d trials' "$t" "$switch_trials" >&2
	done
	printf '\n' >&2
	echo "### Switching cost: $switch_trials trials of $switch_rounds rounds of \`true\`"
	echo
	echo "$(machine); took $(elapsed "$start") s"
	echo
	echo "| variant b | iterations switched a trial | median of the trials' medians | largest median | median of the trials' max | largest max |"
	echo "|---|---|---|---|---|---|"
	for name in one three; do
		local sel it mm mx xm xx
		sel=$(awk -F'\t' -v n="$name" '$1 == n && $4 != "-"' "$rec")
		if [ -z "$sel" ]; then
			# shellcheck disable=SC2016
			printf '| `%s` | no knob_switching recorded | | | | |\n' \
				"$([ $name = one ] && echo "$one" || echo "$three")"
			continue
		fi
		it=$(cut -f3 <<<"$sel" | median)
		mm=$(cut -f4 <<<"$sel" | median)
		mx=$(cut -f4 <<<"$sel" | sort -g | tail -1)
		xm=$(cut -f5 <<<"$sel" | median)
		xx=$(cut -f5 <<<"$sel" | sort -g | tail -1)
		# shellcheck disable=SC2016
		printf '| `%s` | %s | %.1f us | %.1f us | %.1f us | %.1f us |\n' \
			"$([ $name = one ] && echo "$one" || echo "$three")" "$it" "$mm" "$mx" "$xm" "$xx"
	done
	echo
	echo "Per trial: environment.knob_switching of the runs (median_us, max_us: the"
	echo "time to apply a variant's knobs before an iteration and restore them after,"
	echo "over the trial's iterations). Every knob was read back after every trial:"
	echo "all were at their original values. ab's own line, from the last trial:"
	echo
	awk -F'\t' '{ l = $6 } END { print "    " l }' "$rec"
	echo
}

# ---- pgbench -------------------------------------------------------------

mode_pgbench() {
	local s start fmt=(--format markdown) rc=0
	command -v pgbench >/dev/null || {
		echo "ab.sh pgbench: no pgbench (tools/deps.sh bench installs postgresql); skipped" >&2
		return 0
	}
	{
		printf '[global]\ntimeout = 10m\nruntime = %s\nmode = select-only\nclients = %s\n' \
			"$pg_runtime" "$pg_clients"
		for s in $pg_scales; do
			printf '\n[pgbench-s%s]\nworkload = pgbench\nscale = %s\n' "$s" "$s"
		done
	} >"$tmp/pgbench.job"
	# piece C's variant table, where this schedlab has it
	! "$sl" ab --help 2>&1 | grep -q -- '--layout' || fmt+=(--layout variants)
	echo "ab.sh pgbench: scales ${pg_scales// /, }, clients $pg_clients, $pg_iter rounds of $pg_runtime" >&2
	start=$EPOCHREALTIME
	"$sl" ab "$tmp/pgbench.job" --db "$tmp/pgbench.db" --label pgbench -q \
		--variant 'base:' --variant 'cpus: cpus=0' --variant 'nice: nice=10' \
		--iterations "$pg_iter" "${fmt[@]}" >"$tmp/pgbench.md" 2>"$tmp/pgbench.err" || rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		echo "ab.sh: pgbench: ab exited $rc:" >&2
		cat "$tmp/pgbench.err" >&2
		exit 1
	fi
	echo "### pgbench select-only under three variants (seed 001's table)"
	echo
	echo "$(machine); took $(elapsed "$start") s"
	echo
	echo "    schedlab ab pgbench.job --variant 'base:' --variant 'cpus: cpus=0' \\"
	echo "        --variant 'nice: nice=10' --iterations $pg_iter ${fmt[*]}"
	echo
	echo "pgbench.job: scales ${pg_scales// /, }, clients $pg_clients, runtime $pg_runtime, select-only"
	echo
	cat "$tmp/pgbench.md"
	[ "$rc" = 0 ] || { echo; echo "(ab exited $rc: a case failed)"; sed 's/^/    /' "$tmp/pgbench.err"; }
	echo
}

case $mode in
aa) mode_aa ;;
spread) mode_spread ;;
switch) mode_switch ;;
pgbench) mode_pgbench ;;
all) mode_aa; mode_spread; mode_switch; mode_pgbench ;;
esac
