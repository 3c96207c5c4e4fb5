# SPDX-License-Identifier: GPL-2.0-only
#
# Issue 14: schedlab ab - one plan under two or more variants,
# interleaved round by round, each stored as a run of its own. The
# workload is `command`, whose program writes which variant ran into a
# log, so that the order of the rounds can be checked from outside.

# tag_job FILE LOG: a job whose program appends $TAG to LOG.
tag_job() {
	printf '[tag]\nworkload = command\nargv = sh -c "echo $TAG >> %s"\niterations = 6\n' \
		"$2" >"$1"
}

# Two variants: both stored, labelled LABEL/NAME, every round running
# each variant once (the log comes in pairs of different tags), the
# order recorded as a seed, the comparison printed at the end.
test_ab_interleaved_rounds() {
	local labels seed pairs
	use_tmpdir
	tag_job "$tmp/t.job" "$tmp/log"
	run_sl ab "$tmp/t.job" --label x --db "$tmp/r.db" \
		--variant 'a: env.TAG=a' --variant 'b: env.TAG=b'
	expect_eq "exit ($err)" 0 "$rc"
	labels=$("$SCHEDLAB" list runs --db "$tmp/r.db" --format json | jq -r '[.[].label] | sort | join(" ")')
	expect_eq "runs" "x/a x/b" "$labels"
	expect_eq "log lines" 12 "$(wc -l <"$tmp/log")"
	# rounds: lines 1-2, 3-4, ... hold one a and one b each
	pairs=$(paste -d' ' - - <"$tmp/log" | sort | uniq -c | awk '{ print $2 $3 ":" $1 }' | sort | tr '\n' ' ')
	expect_match "every round ran both" "^(ab:[0-6] )?(ba:[0-6] )?$" "$pairs"
	[ "$(paste -d' ' - - <"$tmp/log" | awk '$1 != $2' | wc -l)" = 6 ] || fail "a round ran one variant twice: $(cat "$tmp/log")"
	seed=$("$SCHEDLAB" show x/a --db "$tmp/r.db" --format json | jq -r '.environment.interleave_seed.value')
	expect_match "seed recorded" '^[0-9]+$' "$seed"
	expect_eq "one seed for both" "$seed" \
		"$("$SCHEDLAB" show x/b --db "$tmp/r.db" --format json | jq -r '.environment.interleave_seed.value')"
	expect_eq "settings stored" "b" \
		"$("$SCHEDLAB" show x/b --db "$tmp/r.db" --format json | jq -r '.cases[0].settings["env.TAG"]')"
	expect_match "variants listed" "#   b: env.TAG=b" "$out"
	expect_match "comparison" "verdict:" "$out"
	expect_no_leftovers
}

# The job file's [variant:NAME] sections, in order; --variant replaces
# them; run and judge refuse such a file.
test_ab_variants_from_the_job_file() {
	use_tmpdir
	tag_job "$tmp/t.job" "$tmp/log"
	printf '[variant:one]\nenv.TAG = 1\n[variant:two]\nenv.TAG = 2\niterations = 2\n' >>"$tmp/t.job"
	run_sl ab "$tmp/t.job" --label f --db "$tmp/r.db" -q
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "runs" "f/one f/two" \
		"$("$SCHEDLAB" list runs --db "$tmp/r.db" --format json | jq -r '[.[].label] | sort | join(" ")')"
	# the baseline's count rules every side
	expect_eq "iterations of two" 6 \
		"$("$SCHEDLAB" show f/two --db "$tmp/r.db" --format json | jq '.cases[0].iterations')"
	: >"$tmp/log"
	run_sl ab "$tmp/t.job" --label g --db "$tmp/r.db" -q --iterations 2 \
		--variant 'p: env.TAG=p' --variant 'q: env.TAG=q'
	expect_eq "--variant: exit ($err)" 0 "$rc"
	expect_eq "--variant replaces the file's" "p p q q" "$(sort "$tmp/log" | tr '\n' ' ' | sed 's/ $//')"
	run_sl run "$tmp/t.job" --db "$tmp/r.db"
	expect_eq "run refuses" 2 "$rc"
	expect_match "run says ab" "has 2 \[variant:NAME\] sections \(\[variant:one\]...\): run it with 'schedlab ab " "$err"
	run_sl run -n "$tmp/t.job"
	expect_eq "run -n refuses" 2 "$rc"
	expect_no_leftovers
}

# Bad input: exit 2, one line naming what is wrong, nothing stored.
test_ab_bad_input() {
	use_tmpdir
	tag_job "$tmp/t.job" "$tmp/log"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:'
	expect_eq "one variant" 2 "$rc"
	expect_match "one: why" "ab: one variant; ab compares two or more" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db"
	expect_eq "no variant" 2 "$rc"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'a: nice=1'
	expect_eq "twice" 2 "$rc"
	expect_match "twice: why" "variant 'a' is given twice" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'b c: nice=1'
	expect_eq "bad name" 2 "$rc"
	expect_match "bad name: why" "'b c' is not a variant name" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'b nice=1'
	expect_eq "no colon" 2 "$rc"
	expect_match "no colon: why" "expected 'NAME: KEY=VALUE ...'" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant "b: env.X='open"
	expect_eq "quote" 2 "$rc"
	expect_match "quote: why" "a quote is not closed" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'b: nice=30'
	expect_eq "bad value" 2 "$rc"
	expect_match "bad value: why" "^schedlab: --variant b: nice=30, in job \[tag\]: nice: '30' is out of range \(expected -20..19\)$" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'b: nosuchkey=1'
	expect_eq "bad key" 2 "$rc"
	expect_match "bad key: why" "--variant b: nosuchkey=1: 'nosuchkey' is not a key of any job" "$err"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'b: nice=1' --layout wide --format csv
	expect_eq "layout with csv" 2 "$rc"
	expect_match "layout with csv: why" "^schedlab: ab: --layout wide is a table for reading \(--format text or markdown\); --format csv prints compare's document" "$err"
	printf '[variant:x y]\n' >>"$tmp/t.job"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db"
	expect_eq "bad section" 2 "$rc"
	expect_match "bad section: why" "t.job:5: section name 'variant:x y'" "$err"
	[ ! -e "$tmp/r.db" ] || [ "$(nruns "$tmp/r.db")" = 0 ] || fail "bad input stored a run"
	[ ! -e "$tmp/log" ] || fail "bad input ran the program"
}

# Two builds of one program (argv): compared by job, the slower one (30
# times, which no load hides) is a regression; --dry-run runs nothing
# and names the variants.
test_ab_two_programs() {
	use_tmpdir
	printf '[nap]\nworkload = command\nargv = sleep 0.01\niterations = 6\n' >"$tmp/n.job"
	run_sl ab -n "$tmp/n.job" --db "$tmp/r.db" --variant 'fast:' --variant "slow: argv='sleep 0.05'"
	expect_eq "dry-run ($err)" 0 "$rc"
	expect_match "dry-run variants" "#   slow: argv='sleep 0.05'" "$out"
	expect_match "dry-run plan" "1 case, 6 iterations" "$out"
	[ ! -e "$tmp/r.db" ] || fail "dry-run made a database"
	# under strace when there is one: the runs are written and read
	# back for the comparison through one handle
	local sl=run_sl
	command -v strace >/dev/null && sl="strace_sl $tmp/ab.trace openat"
	$sl ab "$tmp/n.job" --label p --db "$tmp/r.db" --format json \
		--variant 'fast:' --variant "slow: argv='sleep 1'"
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "match by job" job "$(jval "$out" .match)"
	expect_eq "slow regressed" regressed "$(jval "$out" '.verdict')"
	[ ! -e "$tmp/ab.trace" ] || expect_eq "opens of the database" 1 \
		"$(grep -c "openat([^,]*, \"$tmp/r.db\"" "$tmp/ab.trace")"
	expect_no_leftovers
}

# --seed: the same seed, the same order of the rounds; recorded.
test_ab_seed_repeats_the_order() {
	use_tmpdir
	tag_job "$tmp/t.job" "$tmp/log1"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" -q --seed 12345 \
		--variant 'a: env.TAG=a' --variant 'b: env.TAG=b' --variant 'c: env.TAG=c'
	expect_eq "exit ($err)" 0 "$rc"
	tag_job "$tmp/t.job" "$tmp/log2"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" -q --seed 12345 \
		--variant 'a: env.TAG=a' --variant 'b: env.TAG=b' --variant 'c: env.TAG=c'
	expect_eq "same order" "$(cat "$tmp/log1")" "$(cat "$tmp/log2")"
	# 6 rounds of 3: not all in the one order a b c
	[ "$(paste -d' ' - - - <"$tmp/log1" | sort -u | wc -l)" -gt 1 ] ||
		fail "every round ran in the same order: $(paste -d' ' - - - <"$tmp/log1" | tr '\n' ',')"
	expect_eq "seed stored" 12345 \
		"$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json | jq -r '.environment.interleave_seed.value')"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --seed 0 --variant 'a:' --variant 'b:'
	expect_eq "seed 0" 2 "$rc"
	expect_match "seed 0: why" "option --seed: expected a whole number in 1..9007199254740991, got '0'" "$err"
}

# A task setting the kernel refuses fails before anything runs, naming
# the variant: exit 2, nothing stored.
test_ab_refused_task_setting_fails_first() {
	use_tmpdir
	tag_job "$tmp/t.job" "$tmp/log"
	run_sl ab "$tmp/t.job" --db "$tmp/r.db" --variant 'a:' --variant 'u: uclamp_min=100'
	if [ "$rc" = 0 ]; then
		skip "this kernel has uclamp: nothing to refuse"
	fi
	expect_eq "exit ($err)" 2 "$rc"
	expect_match "why" "^schedlab: variant u: job \[tag\]: uclamp_min=100: " "$err"
	[ ! -e "$tmp/log" ] || fail "the program ran"
	[ "$(nruns "$tmp/r.db")" = 0 ] || fail "a run was stored"
}

# A variant's knob holds during its own iterations only: read from
# inside the program of each round, the other variant sees the original
# value, and the original is back after the run.
test_ab_knob_only_in_its_variant() {
	local knob=/proc/sys/kernel/sched_rr_timeslice_ms orig
	[ "$(id -u)" = 0 ] || skip "writing $knob needs root"
	[ -w "$knob" ] || skip "$knob is not writable here"
	knob_lock
	use_tmpdir
	orig=$(cat "$knob")
	[ "$orig" != 37 ] || skip "$knob is 37 already"
	export SCHEDLAB_STATE_DIR="$tmp/state"
	printf '[k]\nworkload = command\nargv = sh -c "echo $TAG $(cat %s) >> %s"\niterations = 5\nwarmup = 1\n' \
		"$knob" "$tmp/log" >"$tmp/k.job"
	run_sl ab "$tmp/k.job" --db "$tmp/r.db" -q \
		--variant 'a: env.TAG=a' --variant 'b: env.TAG=b sysctl.kernel.sched_rr_timeslice_ms=37'
	echo "$orig" >"$knob" 2>/dev/null
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "a saw the original" "6 a $orig" "$(grep -c '^a ' "$tmp/log") $(grep '^a ' "$tmp/log" | sort -u)"
	expect_eq "b saw its value" "6 b 37" "$(grep -c '^b ' "$tmp/log") $(grep '^b ' "$tmp/log" | sort -u)"
	expect_eq "restored" "$orig" "$(cat "$knob")"
	expect_eq "no journal left" "" "$(ls "$tmp/state/restore" 2>/dev/null)"
	expect_eq "b's settings" 37 \
		"$("$SCHEDLAB" show 2 --db "$tmp/r.db" --format json | jq -r '.cases[0].settings["sysctl.kernel.sched_rr_timeslice_ms"]')"
	unset SCHEDLAB_STATE_DIR
}

# One variant's failure of a case is its own: the other variants run the
# case to its count, and the failed case is shown as failed - no
# statistic of the iteration it had before it failed.
test_ab_failed_variant_alone() {
	use_tmpdir
	# bad fails its second iteration; base and good never fail
	printf '[t]\nworkload = command\nargv = sh -c "echo $TAG >> %s; [ $TAG != bad ] || [ $(grep -c bad %s) -lt 2 ]"\niterations = 4\n' \
		"$tmp/log" "$tmp/log" >"$tmp/t.job"
	# --threshold 1000: base and good, the same few ms of sh, may differ
	# by chance (4 iterations each); no such change may be the verdict,
	# which is bad's
	run_sl ab "$tmp/t.job" --label x --db "$tmp/r.db" -q --threshold 1000 \
		--variant 'base: env.TAG=base' --variant 'bad: env.TAG=bad' \
		--variant 'good: env.TAG=good'
	expect_eq "exit: a case failed" 1 "$rc"
	expect_eq "rounds run" "2 bad,4 base,4 good" \
		"$(sort "$tmp/log" | uniq -c | awk '{ print $1, $2 }' | paste -sd,)"
	[[ $err != *"the case failed on"* ]] || fail "a variant was stopped by another's failure: $err"
	expect_eq "good: complete" "complete complete 4" \
		"$("$SCHEDLAB" show x/good --db "$tmp/r.db" --format json |
		   jq -r '"\(.run.status) \(.cases[0].status) \(.cases[0].iterations)"')"
	expect_eq "bad: failed" "failed 1" \
		"$("$SCHEDLAB" show x/bad --db "$tmp/r.db" --format json |
		   jq -r '"\(.cases[0].status) \(.cases[0].iterations)"')"
	# the variants table: bad's column says failed, good's has a change
	expect_line "variants table" '^ *[0-9.]+ +failed +[0-9.]+ [-+][0-9.]+%\*?$' "$out"
	expect_line "bad's reason" "^  t in x/bad: command\.time n/a: the command exited with status 1" "$out"
	# mmtests' rows: none for the failed case's one iteration
	run_sl compare x/base x/bad x/good --unit iteration --db "$tmp/r.db"
	expect_eq "compare: exit" 0 "$rc"
	expect_line "no stddev of one iteration" '^Stddev +- +[0-9.]+ \(   0\.00%\) +failed +[0-9.]+ \( *-?[0-9.]+%\)$' "$out"
	expect_line "no mean of one iteration" '^Amean +- +[0-9.]+ \(   0\.00%\) +failed +[0-9.]+ [(*] *-?[0-9.]+%[)*]$' "$out"
	expect_no_leftovers
}

# --layout takes every table compare --layout prints: grid is the grid
# (the sweep values as rows, a column per variant), not mmtests' rows;
# workload, for a plan whose workloads declare no table, is refused
# before anything runs.
test_ab_layouts() {
	use_tmpdir
	printf '[nap]\nworkload = command\nargv = true\nn = 1,2\niterations = 3\n' >"$tmp/g.job"
	run_sl ab "$tmp/g.job" --db "$tmp/r.db" -q --label g \
		--variant 'a:' --variant 'b:' --layout grid
	expect_eq "grid: exit ($err)" 0 "$rc"
	expect_line "grid: title" '^nap by n: command\.time, s, Amean \(lower is better\)$' "$out"
	expect_line "grid: head" '^n +a +b$' "$out"
	expect_line "grid: row" '^2 +[0-9.]+ +[0-9.]+$' "$out"
	expect_line "grid: verdict" '^verdict: ' "$out"
	! grep -qE '^(Min|Amean|Stddev) ' <<<"$out" || fail "grid printed mmtests' rows: $out"
	# without -q too: the grid, not the first variant's mmtests block
	run_sl ab "$tmp/g.job" --db "$tmp/r.db" --label g2 \
		--variant 'a:' --variant 'b:' --layout grid
	expect_eq "grid, not quiet: exit ($err)" 0 "$rc"
	expect_line "grid, not quiet: head" '^n +a +b$' "$out"
	! grep -qE '^(Min|Amean|Stddev) |alone \(run' <<<"$out" ||
		fail "grid printed the first variant's mmtests block: $out"
	run_sl ab "$tmp/g.job" --db "$tmp/r.db" -q --label w \
		--variant 'a:' --variant 'b:' --layout workload
	expect_eq "workload: exit" 2 "$rc"
	expect_eq "workload: why" "schedlab: ab: --layout workload: no job here runs a workload that declares a table (compute does: AIM7's)" "$err"
	expect_eq "workload: nothing ran" 4 "$(nruns "$tmp/r.db")"
}

# Ctrl-C ends the case for every variant (a variant's failure is its
# own, an interruption is not): 130, each variant's run ended with the
# iterations it had, none run on after it, no process left.
test_ab_interrupted_ends_every_variant() {
	local before
	use_tmpdir
	printf '[t]\nworkload = command\nargv = sh -c "echo $TAG >> %s; sleep 0.2"\niterations = 30\n' \
		"$tmp/log" >"$tmp/t.job"
	start_sl ab "$tmp/t.job" --label i --db "$tmp/r.db" -q \
		--variant 'a: env.TAG=a' --variant 'b: env.TAG=b' --variant 'c: env.TAG=c'
	# a round under way, however slow the machine: each variant has run
	for _ in $(seq 600); do
		[ "$(sort -u "$tmp/log" 2>/dev/null | wc -l)" -ge 3 ] && break
		kill -0 "$sl_pid" 2>/dev/null || fail "ab ended first: $(cat "$sl_errf")"
		sleep 0.05
	done
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit ($err)" 130 "$rc"
	before=$(wc -l <"$tmp/log")
	# the rounds stopped together: no variant ran on after the others
	sort "$tmp/log" | uniq -c | awk '{ print $1 }' | sort -n |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { exit !(hi - lo <= 1 && hi < 30) }' ||
		fail "a variant ran on after Ctrl-C: $(sort "$tmp/log" | uniq -c | paste -sd' ')"
	sleep 0.5
	expect_eq "nothing ran after" "$before" "$(wc -l <"$tmp/log")"
	expect_eq "runs ended" "i/a,i/b,i/c" \
		"$("$SCHEDLAB" list runs --db "$tmp/r.db" --format json | jq -r '[.[] | select(.status != "running") | .label] | sort | join(",")')"
	expect_no_leftovers
}
