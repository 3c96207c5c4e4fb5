# SPDX-License-Identifier: GPL-2.0-only
#
# What a reader sees first, on tiny real runs: a mistake answered by one
# message before anything else is printed (percentages read one way by
# every command, an unknown metric answered with the job's metrics),
# every block of output naming what it summarises, and notes that agree
# with the verdict they sit under.

# tiny_job FILE [GROUPS]: a messaging job of a few milliseconds a run
# (probes off, as the job says: no warning that they are).
tiny_job() {
	printf '[tiny-msg]\nworkload = messaging\ngroups = %s\nloops = 20\niterations = 3\nprobes = off\n' \
		"${2:-1}" >"$1"
}

# tiny_runs DB LABEL N: N runs of $tmp/t.job labelled LABEL.
tiny_runs() {
	local i
	for ((i = 0; i < $3; i++)); do
		run_sl run "$tmp/t.job" --db "$1" -q --label "$2"
		expect_eq "run $2 $i ($err)" 0 "$rc"
	done
}

# refused WHAT REGEX ARGS...: schedlab ARGS exits 2, prints nothing on
# stdout, and its standard error is one line matching REGEX (judge's
# bad input exits 128, git bisect's abort, and is checked by hand).
refused() {
	local what=$1 re=$2
	shift 2
	run_sl "$@"
	expect_eq "$what: exit" 2 "$rc"
	expect_eq "$what: stdout" "" "$out"
	expect_eq "$what: lines on stderr ($err)" 1 "$(grep -c '' <<<"$err")"
	expect_match "$what: message" "$re" "$err"
}

# 5, 5% and 5.0% are one percentage to every command that takes one;
# anything else is refused naming the option and the range.
test_percentages_one_parser() {
	local p who
	use_tmpdir
	tiny_job "$tmp/t.job"
	tiny_runs "$tmp/r.db" base 4	# plan's noise model
	for p in 5 5% 5.0%; do
		run_sl compare base base --db "$tmp/r.db" --threshold "$p" --format json
		expect_eq "compare --threshold $p ($err)" 0 "$rc"
		expect_eq "compare --threshold $p: value" 5 "$(jval "$out" .threshold)"
		run_sl plan tiny-msg --db "$tmp/r.db" --effect "$p" --format json
		expect_eq "plan --effect $p ($err)" 0 "$rc"
		expect_eq "plan --effect $p: value" 5 "$(jval "$out" .effect_pct)"
		run_sl report base base --db "$tmp/r.db" --threshold "$p" -o "$tmp/rep$p"
		expect_eq "report --threshold $p ($err)" 0 "$rc"
	done
	for p in 5%% abc -1 1001 ' 5' 5x nan; do
		for who in compare 'report -o x'; do
			refused "$who --threshold '$p'" \
				"^schedlab: ${who%% *}: option --threshold: expected a percentage in 0\.\.1000 \(such as 5 or 2\.5%\), got '$p'$" \
				$who base base --db "$tmp/r.db" --threshold "$p"
		done
		refused "ab --threshold '$p'" \
			"^schedlab: ab: option --threshold: expected a percentage in 0\.\.1000" \
			ab "$tmp/t.job" --db "$tmp/r.db" --threshold "$p" --variant 'a:' --variant 'b: nice=1'
		# judge's bad input aborts git bisect: exit 128, not 2
		run_sl judge --baseline base --run base --db "$tmp/r.db" --threshold "$p"
		expect_eq "judge --threshold '$p': exit" 128 "$rc"
		expect_eq "judge --threshold '$p': stdout" "" "$out"
		expect_match "judge --threshold '$p': message" \
			"^schedlab: judge: option --threshold: expected a percentage in 0\.\.1000" "$err"
		refused "campaign start --threshold '$p'" \
			"^schedlab: campaign start: option --threshold: expected a percentage in 0\.\.1000" \
			campaign start c "$tmp/t.job" --db "$tmp/r.db" --state 'a:true' \
			--state 'b:true' --hook true --threshold "$p"
	done
	# campaign start takes 5%: its next check, the job file, answers
	run_sl campaign start c "$tmp/nosuch.job" --db "$tmp/r.db" --state 'a:true' \
		--state 'b:true' --hook true --threshold 5%
	expect_eq "campaign start --threshold 5%: exit" 2 "$rc"
	expect_match "campaign start --threshold 5%: the job's message" 'nosuch\.job' "$err"
	for p in 0.05 5%% 2000; do
		refused "plan --effect '$p'" \
			"^schedlab: plan: option --effect: expected a percentage in 0\.1\.\.1000 \(such as 5 or 2\.5%\), got '$p'$" \
			plan tiny-msg --db "$tmp/r.db" --effect "$p"
	done
}

# An unknown --metric is answered with the metrics the job has; an
# unknown job with the jobs the store has.
test_unknown_metric_lists_the_jobs_metrics() {
	local who
	use_tmpdir
	tiny_job "$tmp/t.job"
	tiny_runs "$tmp/r.db" base 2
	for who in noise 'plan --effect 5'; do
		refused "$who --metric bogus" \
			"^schedlab: ${who%% *}: job 'tiny-msg' has no metric 'bogus' \(its metrics: messaging\.time, messaging\.msgs_per_sec, " \
			$who tiny-msg --metric bogus --db "$tmp/r.db"
		refused "$who nosuch" \
			"^schedlab: ${who%% *}: no job 'nosuch' in .*r\.db \(its jobs: tiny-msg\)$" \
			$who nosuch --db "$tmp/r.db"
	done
	refused "compare --metrics bogus" \
		"^schedlab: compare: --metrics: 'bogus' matches no metric of the baseline \(its metrics: messaging\.time, messaging\.msgs_per_sec, " \
		compare base base --metrics bogus --db "$tmp/r.db"
	refused "history --metric bogus" \
		"^schedlab: history: job 'tiny-msg' has no metric 'bogus' \(its metrics: messaging\.time, " \
		history tiny-msg --metric bogus --db "$tmp/r.db"
}

# ab checks every variant before its header; calibrate checks the job
# before its first run is announced.
test_input_checked_before_output() {
	local v
	use_tmpdir
	tiny_job "$tmp/t.job"
	for v in 'nice=abc' 'bogus=1' 'groups=0'; do
		refused "ab variant '$v'" "^schedlab: --variant n5: $v" \
			ab "$tmp/t.job" --db "$tmp/r.db" --variant 'base:' --variant "n5: $v"
		refused "ab -n variant '$v'" "^schedlab: --variant n5: $v" \
			ab "$tmp/t.job" --db "$tmp/r.db" -n --variant 'base:' --variant "n5: $v"
	done
	refused "calibrate a missing file" "^schedlab: .*nosuch\.job" \
		calibrate "$tmp/nosuch.job" --db "$tmp/r.db"
	printf '[x]\nworkload = messaging\ngroups = 0\n' >"$tmp/bad.job"
	refused "calibrate a bad job" "bad\.job:3: groups: '0' is out of range" \
		calibrate "$tmp/bad.job" --db "$tmp/r.db"
	[ ! -e "$tmp/r.db" ] || fail "a refused command made a database"
}

# ab's blocks each name what they summarise: the tables printed as the
# first variant's job ends say they are that variant's alone, and the
# comparison's name the variants in their columns (with and without a
# layout of compare's).
test_ab_blocks_name_what_they_summarise() {
	local layout block n
	use_tmpdir
	tiny_job "$tmp/t.job" 1,2
	for layout in '' grid; do
		run_sl ab "$tmp/t.job" --db "$tmp/r.db" ${layout:+--layout $layout} \
			--variant 'base:' --variant 'n5: nice=5'
		expect_eq "ab ${layout:-mmtests} ($err)" 0 "$rc"
		# the first variant's block goes with ab's own layout; grid is
		# compare's table alone
		if [ -z "$layout" ]; then
			expect_line "ab mmtests: the first block's name" \
				'^variant base alone \(run [0-9]+, [^)]*/base\):$' "$out"
		else
			! grep -q '^variant base alone' <<<"$out" ||
				fail "ab grid: the first variant's mmtests block printed: $out"
		fi
		# every block with numbers names a variant in it
		n=0
		while IFS= read -r -d '' block; do
			grep -qE '[0-9]\.[0-9]{3}' <<<"$block" || continue
			n=$((n + 1))
			grep -qwE 'base|n5' <<<"$block" ||
				fail "ab ${layout:-mmtests}: a block names no variant: $block"
		done < <(awk 'BEGIN { RS = ""; ORS = "\0" } { print }' <<<"$out")
		# mmtests: the first variant's block and the table; grid: the grid
		[ "$n" -ge "$([ -z "$layout" ] && echo 2 || echo 1)" ] ||
			fail "ab ${layout:-mmtests}: $n blocks of numbers in: $out"
	done
}

# notes_of JSON: compare's notes, one a line.
notes_of() {
	jq -r '.notes[]' <<<"$1"
}

# The note on run-to-run noise says what the test used, case by case,
# and agrees with the verdict under it: the sides' own runs (3 a side,
# by label or by run ids), this host's model (one run a side, other
# runs of the baseline's label stored), or nothing (one run a side, no
# model); in an A/B, none is needed.
test_noise_note_agrees_with_the_verdict() {
	local notes why
	use_tmpdir
	tiny_job "$tmp/t.job"
	tiny_runs "$tmp/r.db" k1 1
	tiny_runs "$tmp/r.db" k2 1
	tiny_runs "$tmp/r.db" k1 1
	tiny_runs "$tmp/r.db" k2 1
	tiny_runs "$tmp/r.db" k1 1
	tiny_runs "$tmp/r.db" k2 1
	for sides in 'k1 --all k2 --all' '1+3+5 2+4+6'; do
		run_sl compare $sides --db "$tmp/r.db" --format json
		expect_eq "compare $sides ($err)" 0 "$rc"
		notes=$(notes_of "$out")
		expect_line "compare $sides: the noise used" \
			"^the case: run-to-run noise from the sides' own runs$" "$notes"
		grep -q 'decides nothing' <<<"$notes" && fail "compare $sides: $notes"
		why=$(jval "$out" '.jobs[0].cases[0].runs[1].why')
		expect_match "compare $sides: the verdict's why" '3 and 3 runs|runs differ|interval within' "$why"
	done
	# one run a side: no model from runs other than these two
	run_sl compare k1 k2 --db "$tmp/r.db" --format json
	notes=$(notes_of "$out")
	expect_line "one run a side: the note" \
		"^the case: no run-to-run noise to test against: one run a side, .*decides nothing there but a difference of a factor 2 in time and CPU time$" "$notes"
	expect_match "one run a side: the why" 'one run a side' \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].why')"
	# four more of k1: the model of k1's other runs decides one run a side
	tiny_runs "$tmp/r.db" k1 4
	run_sl compare k1 k2 --db "$tmp/r.db" --format json
	notes=$(notes_of "$out")
	expect_line "with a model: the note" \
		"^the case: run-to-run noise from this host's noise model \(other runs of the case\)$" "$notes"
	# (on a loaded machine the first k1 run can lie outside the spread
	# of the later ones: the model then says the host changed, which
	# names it too)
	expect_match "with a model: the why" "host's run-to-run noise|runs differ|interval within|this host's model of the case knows" \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].why')"
	# two cases, 3 runs a side: counted
	tiny_job "$tmp/t.job" 1,2
	tiny_runs "$tmp/two.db" a 3
	tiny_runs "$tmp/two.db" b 3
	run_sl compare a --all b --all --db "$tmp/two.db" --format json
	expect_line "two cases: the note" \
		"^run-to-run noise of the 2 compared cases: the sides' own runs in 2$" "$(notes_of "$out")"
	# ab: the variants ran side by side
	run_sl ab "$tmp/t.job" --db "$tmp/ab.db" --format json --variant 'base:' --variant 'n5: nice=5'
	expect_eq "ab ($err)" 0 "$rc"
	notes=$(notes_of "$out")
	expect_line "ab: the note" "^run-to-run noise: none needed, the runs were made side by side" "$notes"
	grep -q 'labelled' <<<"$notes" && fail "ab: a note on labelled runs: $notes"
	return 0
}

# zero_runs DB N: N runs a side of a 2-case messaging sweep with the
# probes on, labelled pin (cpus = 0: no migration, a zero baseline) and
# free, interleaved.
zero_runs() {
	local i
	printf '[msg]\nworkload = messaging\ngroups = 1,2\nloops = 20\niterations = 3\nprobes = on\n' >"$tmp/z.job"
	for ((i = 0; i < $2; i++)); do
		run_sl run "$tmp/z.job" --db "$1" -q --label pin --set cpus=0
		expect_eq "run pin ($err)" 0 "$rc"
		run_sl run "$tmp/z.job" --db "$1" -q --label free
		expect_eq "run free ($err)" 0 "$rc"
	done
}

# Every layout, as text, markdown and html, on one run a side (no
# interval), two a side, and every metric (zero baselines: a pinned
# run migrates nothing): no nan, inf, raw JSON or float artifact.
test_every_layout_readable() {
	local sides layout format n=0
	use_tmpdir
	zero_runs "$tmp/r.db" 2
	run_sl compare pin free --db "$tmp/r.db" --metric sched.migrations --format json
	expect_eq "a zero baseline ($err)" 0 \
		"$(jval "$out" '[.jobs[] | select(.metric == "sched.migrations") | .cases[0].runs[0].amean][0]')"
	for sides in 'pin free' 'pin --all free --all'; do
		for layout in mmtests variants wide grid raw; do
			for format in text markdown html; do
				run_sl compare $sides --db "$tmp/r.db" --metrics all \
					--layout $layout --format $format
				[ "$rc" = 0 ] || { expect_match "$layout $format refused" \
					"$layout.*$format|$format.*$layout" "$err"; continue; }
				n=$((n + 1))
				readable "compare $sides --layout $layout --format $format" "$out$err"
			done
		done
		run_sl show 1 --db "$tmp/r.db" --layout mmtests
		readable "show" "$out$err"
	done
	[ "$n" -ge 12 ] || fail "$n outputs rendered"
	# the page's mmtests tables: a column's values at one precision, the
	# text table's (CoeffVar, a percentage, at 4 decimals)
	run_sl compare pin --all free --all --db "$tmp/r.db" --format html
	awk '/<table class="mm">/ { t++; on = 1 } /<\/table>/ { on = 0 }
	on && /^<tr><td class="l">/ && $0 !~ /CoeffVar/ {
		n = split($0, td, "<td")
		for (i = 2; i <= n; i++)
			if (match(td[i], /^( class="sig")?>-?[0-9]+\.[0-9]+/)) {
				v = substr(td[i], RSTART, RLENGTH); sub(/.*>/, "", v)
				d = length(v) - index(v, ".")
				k = t "," i
				if (k in dec && dec[k] != d) { print "table " t " column " i ": " v " against " dec[k] " decimals"; bad = 1 }
				dec[k] = d
			}
	} END { exit bad }' <<<"$out" || fail "a column of the page's mmtests table at two precisions"
}
