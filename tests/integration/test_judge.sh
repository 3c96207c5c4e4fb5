# SPDX-License-Identifier: GPL-2.0-only
#
# Issue 13: adaptive iteration counts and judge's bisect mode, on real
# runs. The programs compared are `sleep`s of different lengths, whose
# difference (3x) no load on the machine can hide, so that each test
# decides quickly and the same way every time.

# job NAME ARGV: a one-job file timing ARGV with the command workload.
sleep_job() {
	printf '[nap]\nworkload = command\nargv = %s\n' "$2" >"$1"
}

# run --iterations auto adds iterations until the median is known to
# +-threshold/2, says so, and stores what it ran; --budget stops it.
test_run_iterations_auto() {
	local n
	use_tmpdir
	# 200 ms: a start-up that load slows by tens of ms moves it little
	sleep_job "$tmp/n.job" "sleep 0.2"
	# --tables: each case's stop says why in full on stderr
	run_sl run "$tmp/n.job" --iterations auto --threshold 50 --db "$tmp/r.db" --tables
	expect_eq "exit ($err)" 0 "$rc"
	expect_match "why" "schedlab: case 1 \(nap\): [0-9]+ iterations: 95% interval of the median .*within \+-25%" "$err"
	n=$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json | jq '.cases[0].iterations')
	# the first look is at 5 and the sign-test interval needs 6 at least
	[ "$n" -ge 6 ] && [ "$n" -le 30 ] || fail "iterations: $n"
	expect_match "stopped at a look" "^(8|12|18|27|30)$" "$n"
	# a precision it cannot reach in 8: the limit says so
	run_sl run "$tmp/n.job" --iterations auto --max-iterations 8 --threshold 0.001 --db "$tmp/r.db" --tables
	expect_eq "max: exit" 0 "$rc"
	expect_match "max: why" "case 1 \(nap\): 8 iterations: max_iterations 8 reached; 95% interval of the median .* not yet within" "$err"
	# without --tables, the case's line says it in a word
	run_sl run "$tmp/n.job" --iterations auto --max-iterations 8 --threshold 0.001 --db "$tmp/b.db"
	expect_eq "brief max: exit" 0 "$rc"
	expect_line "brief max: the case's line" '^nap +[0-9.e+-]+ s +[0-9.]+% +8 +[+-]+[0-9.]+% +max reached$' "$out"
	[[ $err != *"case 1 (nap)"* ]] || fail "brief max: the reason on stderr too: $err"
	# the budget: 0.2 s of 20 ms iterations
	sleep_job "$tmp/long.job" "sleep 0.1"
	run_sl run "$tmp/long.job" --iterations auto --budget 1s --threshold 0.001 --db "$tmp/r.db" --tables
	expect_eq "budget: exit" 0 "$rc"
	expect_match "budget: why" "case 1 \(nap\): [0-9]+ iterations: budget 1s spent" "$err"
	n=$("$SCHEDLAB" show 3 --db "$tmp/r.db" --format json | jq '.cases[0].iterations')
	[ "$n" -le 12 ] || fail "budget: $n iterations of 0.1 s in a 1 s budget"
	# the plan shows the range
	run_sl run -n "$tmp/n.job" --iterations auto --min-iterations 4 --max-iterations 9
	expect_match "dry-run" "1 case, 4..9 iterations" "$out"
	expect_line "dry-run case" "  4..9\+0  " "$out"
	run_sl run "$tmp/n.job" --iterations auto --min-iterations 9 --max-iterations 4
	expect_eq "min > max" 2 "$rc"
	expect_match "min > max: why" "option --min-iterations: 9 is above --max-iterations 4" "$err"
	run_sl run "$tmp/n.job" --budget 5q
	expect_eq "bad budget" 2 "$rc"
	expect_match "bad budget: why" "option --budget: expected a duration" "$err"
	printf '[nap]\nworkload = command\nargv = true\niterations = sometimes\n' >"$tmp/bad.job"
	run_sl run "$tmp/bad.job"
	expect_eq "bad key" 2 "$rc"
	expect_match "bad key: why" "bad.job:4: iterations: 'sometimes' is not an iteration count \(expected a whole number in 1..10000, or auto\)" "$err"
	expect_no_leftovers
}

# The references run beside the build: a build that is the bad program
# is bad (1), the good program good (0); both are stored with the
# references as LABEL/good and LABEL/bad, the rounds interleaved.
test_judge_bisect_live() {
	local j
	use_tmpdir
	sleep_job "$tmp/n.job" "sleep 0.02"
	run_sl judge --label step --db "$tmp/r.db" --good-set 'argv=sleep 0.02' \
		--bad-set 'argv=sleep 0.3' --set 'argv=sleep 0.3' "$tmp/n.job" --format json
	expect_eq "bad build: exit ($err)" 1 "$rc"
	expect_eq "mode" classify "$(jval "$out" .judge.mode)"
	expect_eq "interleaved" true "$(jval "$out" .judge.interleaved)"
	expect_eq "decision" bad "$(jval "$out" .judge.decision)"
	expect_eq "case decision" bad "$(jval "$out" '.judge.cases[0].decision')"
	j=$(jval "$out" '.judge.cases[0].position')
	awk -v p="$j" 'BEGIN { exit !(p > 0.7 && p < 1.3) }' || fail "position $j"
	# each wrong call <= 2% in 5..100 rounds: the level at a look is 0.0029,
	# so the first look that can decide is 12 rounds
	expect_match "rounds" "^(12|18|27|41|62|93|100)$" "$(jval "$out" '.judge.cases[0].iterations')"
	# the build runs bad's command: off good toward bad, or, where it
	# also seems off bad toward good (each test's 2% error), between
	# them and nearer bad
	expect_match "why on stderr" "judge: case 1 \(nap\): [0-9]+ iterations: (bad: off good toward bad|between, nearer bad): position" "$err"
	expect_match "exit line" "judge: bisect: exit 1 \(bad for git bisect: 1 case nearer bad\)" "$err"
	expect_eq "runs stored" "step step/bad step/good" \
		"$("$SCHEDLAB" list runs --db "$tmp/r.db" --format json | jq -r '[.[].label] | sort | join(" ")')"
	expect_match "seed recorded" '^[0-9]+$' \
		"$("$SCHEDLAB" show step --db "$tmp/r.db" --format json | jq -r '.environment.interleave_seed.value')"
	# the same number of rounds on every side
	for l in step step/good step/bad; do
		expect_eq "$l: iterations" "$(jval "$out" '.judge.cases[0].iterations')" \
			"$("$SCHEDLAB" show "$l" --db "$tmp/r.db" --format json | jq '.cases[0].iterations')"
	done
	# a fixed count: one look at the end, the references matched to the
	# build's case though their argv differs from it
	run_sl judge --label fixed --db "$tmp/r.db" --good-set 'argv=sleep 0.02' \
		--bad-set 'argv=sleep 0.3' --set 'argv=sleep 0.3' --iterations 12 "$tmp/n.job"
	expect_eq "fixed count: exit ($err)" 1 "$rc"
	expect_match "fixed count: why" "judge: case 1 \(nap\): 12 iterations: (bad: off good toward bad|between, nearer bad)" "$err"
	run_sl judge --label good-step --db "$tmp/r.db" --good-set 'argv=sleep 0.02' \
		--bad-set 'argv=sleep 0.3' "$tmp/n.job"
	expect_eq "good build: exit ($err)" 0 "$rc"
	expect_match "good: why" "judge: bisect: exit 0 \(good for git bisect: the case nearer good\)" "$err"
	expect_match "good: verdict line" "bisect: good \(the case nearer good\), between good-step/good \(good\) and good-step/bad \(bad\)" "$out"
	expect_no_leftovers
}

# References that do not differ cannot place anything: skip, not a guess.
test_judge_bisect_references_alike() {
	use_tmpdir
	sleep_job "$tmp/n.job" "sleep 0.01"
	# 3 rounds, fewer than the 7 the bisect mode's test needs to decide
	# at all: alike references can never be called different here,
	# whatever the machine's load (with 12 rounds they would be, 2% of
	# the time at most: doc/statistics.md).
	run_sl judge --db "$tmp/r.db" --good-set 'argv=sleep 0.01' --bad-set 'argv=sleep 0.01' \
		--min-iterations 3 --max-iterations 3 "$tmp/n.job"
	expect_eq "exit ($err)" 125 "$rc"
	expect_match "why" "3 iterations: max_iterations 3 reached; too few rounds for a decision at alpha 0\.02 \(3 of the [0-9]+ needed\)" "$err"
	expect_match "exit line" "exit 125 \(skip for git bisect: the good and bad references do not differ in any case\)" "$err"
}

# Stored references: the good and bad runs made once with the builds of
# their commits (here one program, rewritten between them), the build
# judged against them (unpaired).
test_judge_bisect_stored() {
	use_tmpdir
	printf '#!/bin/sh\nexec sleep 0.02\n' >"$tmp/prog"
	chmod +x "$tmp/prog"
	sleep_job "$tmp/n.job" "$tmp/prog"
	run_sl run "$tmp/n.job" --label good --iterations 10 -q --db "$tmp/r.db"
	expect_eq "good run ($err)" 0 "$rc"
	printf '#!/bin/sh\nexec sleep 0.3\n' >"$tmp/prog"
	run_sl run "$tmp/n.job" --label bad --iterations 10 -q --db "$tmp/r.db"
	run_sl judge --good good --bad bad "$tmp/n.job" --db "$tmp/r.db" --label c1 --format json
	expect_eq "bad: exit ($err)" 1 "$rc"
	expect_eq "bad: interleaved" false "$(jval "$out" .judge.interleaved)"
	expect_eq "bad: decision" bad "$(jval "$out" .judge.decision)"
	printf '#!/bin/sh\nexec sleep 0.02\n' >"$tmp/prog"
	run_sl judge --good good --bad bad "$tmp/n.job" --db "$tmp/r.db" --label c2
	expect_eq "good: exit ($err)" 0 "$rc"
	# --run: a stored build, one look
	run_sl judge --good good --bad bad --run c1 --db "$tmp/r.db"
	expect_eq "stored bad: exit ($err)" 1 "$rc"
	run_sl judge --good good --bad bad --run good --db "$tmp/r.db"
	expect_eq "stored good: exit ($err)" 0 "$rc"
	# the same run as both references: nothing to place by, before any run
	run_sl judge --good good --bad good "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "same references: exit ($err)" 128 "$rc"
	expect_match "same references: why" "judge: good \(good\) and good \(bad\) do not differ in any case they share" "$err"
	expect_eq "same references: nothing run" 4 "$(nruns "$tmp/r.db")"
}

# Everything that would mislabel every commit aborts git bisect (128).
test_judge_abort_codes() {
	use_tmpdir
	sleep_job "$tmp/n.job" "sleep 0.01"
	run_sl judge --good-set 'argv=sleep 0.01' --bad-set 'argv=false' "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "failing reference: exit ($err)" 128 "$rc"
	expect_match "failing reference: why" "judge: the bad reference failed \(.*\): abort \(128\)" "$err"
	expect_match "the others stopped" "case 1 \(nap\): stopped after [01] iterations?: the case failed on bad" "$err"
	# the build failing beside good references is the build's fault: skip
	run_sl judge --good-set 'argv=sleep 0.01' --bad-set 'argv=sleep 0.02' --set argv=false \
		"$tmp/n.job" --db "$tmp/r.db"
	expect_eq "failing build: exit ($err)" 125 "$rc"
	expect_match "failing build: why" "judge: run [0-9]+ did not complete \(the command exited with status 1.*\): skip \(125\)" "$err"
	run_sl judge --good nope --bad nope2 "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "unknown good run" 128 "$rc"
	run_sl judge --good 1 "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "--good alone" 128 "$rc"
	expect_match "--good alone: why" "judge: --good RUN needs --bad RUN too" "$err"
	run_sl judge --baseline 1 --good-set argv=true "$tmp/n.job"
	expect_eq "two modes" 128 "$rc"
	expect_match "two modes: why" "judge: one of --baseline RUN, --good RUN --bad RUN, or --good-set" "$err"
	run_sl judge --bad-set argv=true "$tmp/n.job"
	expect_eq "--bad-set alone" 128 "$rc"
	run_sl judge --good-set argv=true --iterations many "$tmp/n.job"
	expect_eq "bad --iterations" 128 "$rc"
	expect_match "bad --iterations: why" "judge: option --iterations: 'many' is not a number" "$err"
	run_sl judge --good-set argv=true --frobnicate "$tmp/n.job"
	expect_eq "unknown option" 128 "$rc"
	# a --good-set that makes other cases than the build's
	run_sl judge --good-set 'argv=true,false' "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "variant sweeps" 128 "$rc"
	expect_match "variant sweeps: why" "variant good: its plan has 2 cases, the run's 1" "$err"
	expect_no_leftovers
}

# Threshold mode, adaptive by default: a build 15x slower regressed after
# the first look; the same build against itself stops as soon as no
# regression of 5% is left possible, or says what limited it.
test_judge_threshold_adaptive() {
	local n
	use_tmpdir
	sleep_job "$tmp/g.job" "sleep 0.02"
	sleep_job "$tmp/b.job" "sleep 0.3"
	run_sl run "$tmp/g.job" --label base --iterations 10 -q --db "$tmp/r.db"
	run_sl judge --unit iteration --baseline base --match job "$tmp/b.job" --db "$tmp/r.db" --format json
	expect_eq "slower: exit ($err)" 1 "$rc"
	expect_eq "mode" threshold "$(jval "$out" .judge.mode)"
	expect_eq "stopped at the first look" 5 "$(jval "$out" '.judge.cases[0].iterations')"
	# decided by the baseline's samples (matched by job), not by a case it lacks
	expect_match "decided at the look" "^regressed: -[0-9.]+% \\[" "$(jval "$out" '.judge.cases[0].why')"
	expect_match "alpha of a look" '^0.008333' "$(jval "$out" .alpha)"
	# the baseline read and the build's run written through one handle
	if command -v strace >/dev/null; then
		strace_sl "$tmp/open.trace" openat judge --unit iteration --baseline base \
			--match job "$tmp/b.job" --db "$tmp/r.db" --format json
		expect_eq "traced: exit ($err)" 1 "$rc"
		expect_eq "opens of the database" 1 \
			"$(grep -c "openat([^,]*, \"$tmp/r.db\"" "$tmp/open.trace")"
	fi
	# live baseline (--good-set alone): the same question, interleaved
	run_sl judge --good-set 'argv=sleep 0.02' "$tmp/b.job" --db "$tmp/r.db" --format json
	expect_eq "live: exit ($err)" 1 "$rc"
	expect_eq "live: interleaved" true "$(jval "$out" .judge.interleaved)"
	n=$(jval "$out" '.judge.cases[0].iterations')
	# 5 against 5 decide only when every round separates them (p 0.0079
	# at a look's 0.0083): on a loaded machine a slow 20 ms sleep defers
	# it to a later look; it is still decided at a look, before the limit
	expect_match "live: decided at a look" "^(5|8|12|18|27)$" "$n"
}

# Interrupted while the references run beside the build: 130 (an abort
# for git bisect), every side's run ended, no process left behind.
test_judge_interrupted_with_references() {
	use_tmpdir
	sleep_job "$tmp/n.job" "sleep 0.2"
	start_sl judge --db "$tmp/r.db" --label s --good-set 'argv=sleep 0.2' \
		--bad-set 'argv=sleep 0.4' "$tmp/n.job"
	sleep 1.5
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit ($err)" 130 "$rc"
	expect_match "why" "run: interrupted" "$err"
	expect_eq "runs" "s failed,s/bad failed,s/good failed" \
		"$("$SCHEDLAB" list runs --db "$tmp/r.db" --format json | jq -r '[.[] | "\(.label) \(.status)"] | sort | join(",")')"
	expect_no_leftovers
}

# ref_fixture FILE LABEL SAMPLES: an export document of one stored
# reference, job nap (command.time SAMPLES, a JSON array).
ref_fixture() {
	jq -n --arg lbl "$2" --argjson x "$3" \
		--arg uuid "$(cat /proc/sys/kernel/random/uuid)" '{
	schema: "schedlab-run/1",
	run: { uuid: $uuid, "label": $lbl, host: "h", started: 1.0, ended: 2.0,
	       status: "complete", command: null, schedlab_version: null },
	environment: {},
	metrics: { "command.time": { unit: "s", better: "lower", headline: true, help: "t" } },
	cases: [ { seq: 1, job: "nap", workload: "command", params: "",
		   sweep_keys: "", sweep: "", status: "complete", reason: null,
		   parameters: {}, iterations: ($x | length),
		   samples: { "command.time": $x } } ] }' >"$1"
}

# Stored references that do not differ by the bisect mode's test say
# what would let them: 4 iterations a side can never reach p < 0.02
# (Mann-Whitney's smallest p is 2 / C(8, 4) = 0.0286, although every
# good iteration is below every bad one: compare's p); 10 a side can,
# and then the nearest case's p is named (the two samples below: U = 45,
# exact two-sided p = 0.7394, from the distribution of U counted in
# Python).
test_judge_references_alike_say_why() {
	use_tmpdir
	sleep_job "$tmp/n.job" true
	ref_fixture "$tmp/g.json" good '[1.00,1.01,1.02,1.03]'
	ref_fixture "$tmp/b.json" bad '[2.00,2.01,2.02,2.03]'
	ref_fixture "$tmp/g10.json" good10 '[1.00,1.01,1.02,1.03,1.04,1.05,1.06,1.07,1.08,1.09]'
	ref_fixture "$tmp/b10.json" bad10 '[1.005,1.015,1.025,1.035,1.045,1.055,1.065,1.075,1.085,1.095]'
	for f in g b g10 b10; do
		"$SCHEDLAB" import "$tmp/$f.json" --db "$tmp/r.db" >/dev/null
	done
	run_sl judge --good good --bad bad "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "4 a side: exit" 128 "$rc"
	expect_eq "4 a side: why" "schedlab: judge: good (good) and bad (bad) do not differ in any case they share (Mann-Whitney, p < 0.02): with 4 and 4 iterations Mann-Whitney cannot reach p < 0.02 at all (its smallest p is 0.0286); references of 5 or more iterations a side can (run them again with --iterations 5 or more, or run them beside the build: --good-set, --bad-set); nothing to place a build by: abort (128)" "$err"
	run_sl judge --good good10 --bad bad10 "$tmp/n.job" --db "$tmp/r.db"
	expect_eq "10 a side: exit" 128 "$rc"
	expect_match "10 a side: why" "\(Mann-Whitney, p < 0\.02\): the nearest, nap with 10 and 10 iterations, has p = 0\.7394: more iterations in each reference \(runs of more than 10 a side\), or references run beside the build \(--good-set, --bad-set\), would show a difference if there is one; nothing to place" "$err"
	expect_eq "nothing run" 4 "$(nruns "$tmp/r.db")"
}
