# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab compare and judge: the tables, the verdicts, what cannot be
# compared, the exit codes, and git bisect run on a demonstration
# repository. Fixed runs are export documents written here with jq, so
# their statistics are known; real runs use tiny job files.

# fixture FILE LABEL SAMPLES [JOB] [PARAMS] [BETTER] [MIGRATIONS]: an
# export document of one messaging case whose messaging.time samples are
# SAMPLES (a JSON array, e.g. "[1,2,3]"), with a scheduler metric,
# sched.migrations (default: 100 times the samples).
fixture() {
	jq -n --arg lbl "$2" --argjson x "$3" --arg job "${4:-msg}" \
		--argjson mig "${7:-null}" \
		--arg params "${5:-groups=1 loops=100}" --arg better "${6:-lower}" \
		--arg uuid "$(cat /proc/sys/kernel/random/uuid)" '{
	schema: "schedlab-run/1",
	run: { uuid: $uuid, "label": $lbl, host: "h", started: 1.0, ended: 2.0,
	       status: "complete", command: null, schedlab_version: null },
	environment: {},
	metrics: {
	  "messaging.time": { unit: "s", better: $better, headline: true, help: "t" },
	  "sched.migrations": { unit: "migrations", better: "none", headline: false, help: "m" },
	  "process.user_s": { unit: "s", better: "none", headline: false, help: "u" }
	},
	cases: [ { seq: 1, job: $job, workload: "messaging", params: $params,
		   sweep_keys: "groups", sweep: "1", status: "complete", reason: null,
		   parameters: {}, iterations: ($x | length),
		   samples: { "messaging.time": $x,
			      "sched.migrations": ($mig // [$x[] | . * 100]),
			      "process.user_s": [$x[] | 0.5] } } ] }' >"$1"
}

# Ten skewed timings, and the same 20% slower. R 4.2.2: wilcox.test
# p = 0.002102 (ties: normal approximation); medians 1.015 and 1.218;
# the median bootstrap interval of the change, -23.0% to -17.1%, from
# the separate Python implementation that tests/unit/test_tests.c uses.
BASE='[1.00,1.01,1.02,1.00,1.03,1.01,1.05,1.02,1.00,1.30]'
SLOW='[1.20,1.212,1.224,1.20,1.236,1.212,1.26,1.224,1.20,1.56]'
SAME='[1.01,1.00,1.02,1.01,1.00,1.04,1.02,1.01,1.03,1.25]'

# A 20% slowdown is marked and called a regression in every format; the
# percentages follow mmtests' convention.
test_compare_fixed_runs() {
	local mean_b mean_s pct
	use_tmpdir
	# migrations: means 101.8 and 122.2 (+20.0%), population sd 1.63% and
	# 1.71% (under lkp's 2%: not shown); the ranges apart (lkp's rule)
	fixture "$tmp/base.json" base "$BASE" msg "groups=1 loops=100" lower \
		'[100,101,102,100,103,101,105,102,100,104]'
	fixture "$tmp/slow.json" slow "$SLOW" msg "groups=1 loops=100" lower \
		'[120,121,123,120,124,121,126,122,120,125]'
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json"
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_line "title" '^msg by groups: messaging.time, s \(lower is better\)$' "$out"
	expect_line "column names" '^ +base +slow$' "$out"
	# Amean: 1.044 and 1.2528; 100 - 1.2528/1.044*100 = -20.00, marked
	expect_line "marked mean" '^Amean +1 +1\.0440 \(   0\.00%\) +1\.2528 \* -20\.00%\*$' "$out"
	# Stddev uses the lower-is-better formula too: 20% larger is -20%
	expect_line "stddev" '^Stddev +1 +[0-9.]+ \(   0\.00%\) +[0-9.]+ \( -20\.00%\)$' "$out"
	expect_line "change" '^Change \(median\) +1 +slow +-20\.0% \[-[0-9.]+, -[0-9.]+\] +p=0\.0021 +regressed$' "$out"
	expect_line "explanation" '^ +101\.8 +\+20\.0% +122\.2 +sched\.migrations$' "$out"
	expect_line "duration" '^Duration User +5\.00 +5\.00$' "$out"
	expect_eq "last line" "  msg 1 in slow: messaging.time -20.0% [-23.0, -17.1]: significant, beyond 5%" \
		"$(tail -n 1 <<<"$out")"
	[ "$(awk '{ print length }' <<<"$out" | sort -n | tail -n 1)" -le 80 ] ||
		fail "a line is wider than 80 columns"

	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json" --format json
	expect_eq "json exit" 0 "$rc"
	expect_eq "schema" schedlab-compare/1 "$(jval "$out" .schema)"
	expect_eq "verdict" regressed "$(jval "$out" .verdict)"
	expect_eq "change of" median "$(jval "$out" '.jobs[0].cases[0].runs[1].change_of')"
	mean_b=$(jval "$out" '.jobs[0].cases[0].runs[0].mean')
	mean_s=$(jval "$out" '.jobs[0].cases[0].runs[1].mean')
	pct=$(jval "$out" '.jobs[0].cases[0].runs[1].pct.mean')
	approx "mean pct" "$(awk -v a="$mean_b" -v b="$mean_s" 'BEGIN { print 100 - b / a * 100 }')" "$pct"
	expect_eq "explained" sched.migrations "$(jval "$out" '.jobs[0].cases[0].runs[1].explain[0].metric')"
	# Python 3.11: 100 * statistics.pstdev(x) / statistics.fmean(x) of
	# each side (the sample sd would give 1.72% and 1.80%)
	approx "explained base sd" 1.6319496783729026 \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].explain[0].base_stddev_pct')"
	approx "explained cand sd" 1.7087244695434616 \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].explain[0].cand_stddev_pct')"
	approx "explained change" 20.0392927308448 \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].explain[0].change_pct')"

	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json" --format csv
	expect_eq "csv lines" 3 "$(nlines "$out")"
	expect_match "csv header: the means by name" '^job,sweep,metric,run,n,mean_kind,min,amean,hmean,stddev,' "$(head -n 1 <<<"$out")"
	expect_match "csv row" '^msg,1,messaging\.time,slow,10,amean,1\.2,1\.2528,1\.2456573[0-9]*,.*,yes,regressed,median,,$' "$(tail -n 1 <<<"$out")"
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json" --format markdown
	expect_line "markdown mean" '^\| Amean \| 1 \| 1\.0440 \(0\.00%\) \| 1\.2528 \*\*\(-20\.00%\)\*\* \|$' "$out"
	expect_line "markdown change" '^\| groups \| run \| Change \(median\) \[interval\] \| p \| verdict \|$' "$out"
}

# Every test but the two range rules finds the slowdown; none calls
# numbers like the baseline's a change. By hand, the base's slow outlier
# hides it from the rules: mmtests' bands (mean +- 1.96 sd) are
# [0.865, 1.223] and [1.038, 1.467], overlapping; for lkp's rule the
# candidate's median 1.218 is below the base's max 1.30.
test_compare_tests_and_candidates() {
	local t want
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/slow.json" slow "$SLOW"
	fixture "$tmp/same.json" same "$SAME"
	for t in mann-whitney welch boot-mean boot-median bands lkp; do
		run_sl compare --unit iteration "$tmp/base.json" "$tmp/same.json" "$tmp/slow.json" \
			--test "$t" --format json --threshold 10
		expect_eq "$t: exit" 0 "$rc"
		expect_eq "$t: same" "no change" "$(jval "$out" '.runs[1].verdict')"
		want=regressed
		case $t in bands|lkp) want=inconclusive ;; esac
		expect_eq "$t: slow" "$want" "$(jval "$out" '.runs[2].verdict')"
	done
	# higher is better: the same numbers are an improvement
	fixture "$tmp/hb.json" base "$BASE" msg "groups=1 loops=100" higher
	fixture "$tmp/hs.json" slow "$SLOW" msg "groups=1 loops=100" higher
	run_sl compare --unit iteration "$tmp/hb.json" "$tmp/hs.json"
	expect_line "hmean" '^Hmean +1 ' "$out"
	expect_eq "improved" "verdict: improved" "$(grep '^verdict:' <<<"$out")"
	# a change of the mean is of the arithmetic one, not of the Hmean row
	run_sl compare --unit iteration "$tmp/hb.json" "$tmp/hs.json" --test welch
	expect_line "welch: hmean" '^Hmean +1 ' "$out"
	expect_line "welch: change of the amean" '^Change \(Amean\) +1 +slow +\+20\.0% ' "$out"
	run_sl compare --unit iteration "$tmp/hb.json" "$tmp/hs.json" --test welch --format json
	expect_eq "welch: change_of" amean "$(jval "$out" '.jobs[0].cases[0].runs[1].change_of')"
	expect_eq "welch: mean_kind" hmean "$(jval "$out" '.jobs[0].cases[0].runs[1].mean_kind')"
}

# --test decides at the level it names or is refused: between separate
# runs under --unit run the runs' medians decide (runs-t), and a test
# named there would decide nothing (issue 38).
test_compare_test_decides_or_is_refused() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/slow.json" slow "$SLOW"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --format json
	expect_eq "auto: exit" 0 "$rc"
	expect_eq "auto: runs-t decided" runs-t "$(jval "$out" .test)"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --test welch
	expect_eq "welch, separate runs: exit" 2 "$rc"
	expect_match "welch: said why" "compare: --test welch cannot decide between separate runs" "$err"
	expect_eq "welch: nothing printed" "" "$out"
	run_sl report "$tmp/base.json" "$tmp/slow.json" --test welch -o "$tmp/page"
	expect_eq "report welch: exit" 2 "$rc"
	expect_match "report: said why" "report: --test welch cannot decide" "$err"
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json" --test welch --format json
	expect_eq "iteration welch: exit" 0 "$rc"
	expect_eq "iteration: welch decided" welch "$(jval "$out" .test)"
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json" --format json
	expect_eq "iteration auto: mann-whitney decided" mann-whitney "$(jval "$out" .test)"
	run_sl judge --baseline "$tmp/base.json" --run "$tmp/slow.json" --test welch
	expect_eq "judge welch, stored baseline: abort" 128 "$rc"
	expect_match "judge: said why" "judge: --test welch cannot decide against a stored run" "$err"
}

# Runs that do not match say what differs, and compare nothing.
test_compare_mismatch() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/other.json" other "$SLOW" msg "groups=1 loops=110"
	fixture "$tmp/job.json" job "$SLOW" other-job
	run_sl compare "$tmp/base.json" "$tmp/other.json"
	expect_eq "params: exit" 2 "$rc"
	expect_eq "params: stdout" "" "$out"
	# the identities: loops=100 is messaging's default, so not in base's
	expect_match "params: message" "job msg has other parameters in .*other\.json than in .*base\.json \(- -> loops=110\); --match job compares them anyway" "$err"
	run_sl compare "$tmp/base.json" "$tmp/job.json"
	expect_eq "job: exit" 2 "$rc"
	expect_match "job: message" "nothing to compare: no job of .*base\.json \(the file.s run: complete, 1 case\) is in .*job\.json \(the file.s run: complete, 1 case\)" "$err"
	run_sl compare "$tmp/base.json" "$tmp/other.json" --match job
	expect_eq "match job: exit" 0 "$rc"
	expect_line "match job: note" "msg: parameters differ in other: - -> loops=110" "$out"
	# one candidate with the case, one without
	run_sl compare "$tmp/base.json" "$tmp/job.json" "$tmp/other.json" --match job
	expect_eq "partial: exit" 0 "$rc"
	expect_line "partial: note" "other-job 1: only in job" "$out"
}

# with_case FILE JQ: FILE's document changed in place by a jq filter.
with_case() {
	jq "$2" "$1" >"$1.new" && mv "$1.new" "$1"
}

# A workload that measures differently (another version) is not compared,
# with one note for the job, or the error when nothing else is left;
# settings that differ are noted; parameters are told apart by the cases'
# full parameter lists, whatever their identity strings hold.
test_compare_versions_and_settings() {
	# explicit versions: a document without them is one from before case
	# identities, whose params are upgraded on reading
	local two='.cases[0].version = 1 | .cases += [.cases[0] | .seq = 2 | .sweep = "2" | .params = "groups=2 loops=100"]'
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/v2.json" v2 "$SLOW"
	fixture "$tmp/slow.json" slow "$SLOW"
	with_case "$tmp/base.json" "$two"
	with_case "$tmp/slow.json" "$two"
	with_case "$tmp/v2.json" "$two | .cases[].version = 2"
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/v2.json"
	expect_eq "version: exit" 2 "$rc"
	expect_eq "version: stdout" "" "$out"
	expect_match "version: message" "nothing to compare: workload messaging measures differently in .*v2\.json \(version 2\) than in .*base\.json \(version 1\)$" "$err"
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/v2.json" "$tmp/slow.json" --format json
	expect_eq "version+slow: exit" 0 "$rc"
	expect_eq "version: one note" \
		"msg: workload messaging measures differently in v2 (version 2) than in base (version 1): not compared" \
		"$(jq -r '.notes[] | select(test("version"))' <<<"$out")"
	expect_eq "version: no only-in" "" "$(jq -r '.notes[] | select(test("only in"))' <<<"$out")"
	expect_eq "version: cases" 2 "$(jval "$out" '.jobs[0].cases | length')"
	expect_eq "version: v2 verdict" inconclusive "$(jval "$out" '.runs[1].verdict')"
	expect_eq "version: slow verdict" regressed "$(jval "$out" '.runs[2].verdict')"

	fixture "$tmp/c0.json" c0 "$BASE"
	fixture "$tmp/c01.json" c01 "$SAME"
	with_case "$tmp/c0.json" '.cases[0].version = 1 | .cases[0].settings = { cpus: "0" }'
	with_case "$tmp/c01.json" '.cases[0].version = 1 | .cases[0].settings = { cpus: "0-1" }'
	run_sl compare --unit iteration "$tmp/c0.json" "$tmp/c01.json" --format json
	expect_eq "settings: exit" 0 "$rc"
	expect_eq "settings: note" "msg: settings differ in c01: cpus=0 -> cpus=0-1" \
		"$(jq -r '.notes[] | select(test("settings"))' <<<"$out")"
	run_sl compare --unit iteration "$tmp/c0.json" "$tmp/c0.json"
	expect_eq "same settings: no note" "" "$(grep settings <<<"$out")"

	# identities that hold only what differs from the defaults; the
	# message still says the loops were 100 in the baseline
	fixture "$tmp/p.json" p "$BASE" msg "groups=1"
	fixture "$tmp/q.json" q "$SLOW" msg "groups=1 loops=110"
	with_case "$tmp/p.json" '.cases[0].version = 1 | .cases[0].parameters = { groups: 1, loops: 100 }'
	with_case "$tmp/q.json" '.cases[0].version = 1 | .cases[0].parameters = { groups: 1, loops: 110 }'
	run_sl compare --unit iteration "$tmp/p.json" "$tmp/q.json"
	expect_eq "params: exit" 2 "$rc"
	expect_match "params: message" "other parameters in .*q\.json than in .*p\.json \(loops=100 -> loops=110\)" "$err"
	run_sl compare --unit iteration "$tmp/p.json" "$tmp/q.json" --match job
	expect_line "params: note" "msg: parameters differ in q: loops=100 -> loops=110" "$out"
}

# Bad input: a clear message or an inconclusive verdict, never a number
# made of a division by zero.
test_compare_bad_input() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/one.json" one '[1.0]'
	fixture "$tmp/flat.json" flat '[2,2,2,2]'
	fixture "$tmp/flat2.json" flat2 '[2,2,2,2]'
	fixture "$tmp/zero.json" zero '[0,0,0,0]' msg "groups=1 loops=100" higher
	fixture "$tmp/pos.json" pos '[1,2,3,4]' msg "groups=1 loops=100" higher
	run_sl compare "$tmp/base.json" nosuchrun --db "$tmp/r.db"
	expect_eq "unknown: exit" 2 "$rc"
	expect_match "unknown: message" "no run 'nosuchrun'" "$err"
	# runs are loaded at once: each one that cannot be says so, once
	run_sl import "$tmp/base.json" --db "$tmp/r.db"
	run_sl compare nosuch1 base nosuch2 --db "$tmp/r.db"
	expect_eq "two unknown: exit" 2 "$rc"
	expect_eq "two unknown: stdout" "" "$out"
	expect_eq "two unknown: messages" \
		"schedlab: no run 'nosuch1' in $tmp/r.db (see 'schedlab list runs')|schedlab: no run 'nosuch2' in $tmp/r.db (see 'schedlab list runs')" \
		"$(sort <<<"$err" | paste -sd'|')"
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/one.json"
	expect_eq "one sample: exit" 0 "$rc"
	expect_line "one sample" "^Change \(median\) +1 +one +n/a +p=- +inconclusive$" "$out"
	expect_line "one sample: why" "too few samples \(10 and 1; 3 a side needed\)" "$out"
	run_sl compare --unit iteration "$tmp/flat.json" "$tmp/flat2.json" --test welch
	expect_line "all equal" "^Change \(Amean\) +1 +flat2 +\+0\.0% \[\+0\.0, \+0\.0\] +p=- +no change$" "$out"
	run_sl compare --unit iteration "$tmp/zero.json" "$tmp/pos.json"
	expect_eq "zeros: exit" 0 "$rc"
	expect_line "zeros: hmean n/a" "^Hmean +1 +n/a \(   0\.00%\) +1\.9200 \(    n/a%\)$" "$out"
	grep -qiE '(^| )-?(inf|nan)' <<<"$out" &&
		fail "inf or nan printed as a number: $out"
	# NaN in an imported file is refused with its place
	sed 's/1.3/NaN/' "$tmp/base.json" >"$tmp/nan.json"
	run_sl compare --unit iteration "$tmp/nan.json" "$tmp/base.json"
	expect_eq "nan: exit" 2 "$rc"
	expect_match "nan: message" "nan\.json" "$err"
	run_sl compare "$tmp/base.json" "$tmp/base.json" --threshold -1
	expect_eq "threshold: exit" 2 "$rc"
	expect_match "threshold: message" "option --threshold: expected a percentage in 0\.\.1000" "$err"
	run_sl compare "$tmp/base.json"
	expect_eq "one run: exit" 2 "$rc"
}

# With repeats of the baseline in the database (runs with its label),
# compare counts the noise between runs: five baselines whose medians
# are 1.015 times e^-0.2, e^-0.1, 1, e^0.1, e^0.2 have a log sd of 0.158
# (by hand: sqrt(0.1 / 4)), so a 20% slowdown that one pair of runs
# shows is no longer taken for a change. Runs with another label (the
# slow one, stored too) are not repeats of the baseline.
test_compare_run_noise() {
	local s f
	use_tmpdir
	for f in -0.2 -0.1 0 0.1 0.2; do
		s=$(jq -c --argjson f "$f" 'map(. * ($f | exp))' <<<"$BASE")
		fixture "$tmp/h$f.json" base "$s"
		"$SCHEDLAB" import "$tmp/h$f.json" --db "$tmp/r.db" >/dev/null
	done
	fixture "$tmp/slow.json" slow "$SLOW"
	"$SCHEDLAB" import "$tmp/slow.json" --db "$tmp/r.db" >/dev/null
	run_sl compare --unit iteration "$tmp/h0.json" slow --db "$tmp/r.db" --format json
	expect_eq "exit" 0 "$rc"
	approx "noise" 15.811388 "$(jval "$out" '.jobs[0].cases[0].runs[1].run_noise_pct')" 1e-5
	expect_eq "runs" 5 "$(jval "$out" '.jobs[0].cases[0].runs[1].run_noise_runs')"
	expect_eq "verdict" inconclusive "$(jval "$out" .verdict)"
	# the iterations alone say regressed (below): the noise took it away
	expect_eq "why" "noise between runs 15.8% (5 runs) widens the interval past +-5%" \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].why')"
	# without the database: the iterations alone, a regression
	run_sl compare --unit iteration "$tmp/h0.json" "$tmp/slow.json" --db "$tmp/none.db"
	expect_eq "no history" "verdict: regressed" "$(grep '^verdict' <<<"$out")"
	expect_line "no history: note" "the case: < 3 runs labelled base here, no run-to-run noise counted" "$out"
	[[ $out != *"1 of 1 cases"* ]] || fail "no history: says '1 of 1 cases'"
}

# Outliers by the modified Z-score, in the notes: an absurd iteration
# within its case; a baseline that is an outlier among its own repeats;
# a candidate far outside them. Nothing where the MAD is 0 or for fewer
# than 5 values.
test_compare_outliers() {
	local f s notes
	use_tmpdir
	# BASE's 1.30 against its median 1.015 and MAD 0.01: z = 19.2
	fixture "$tmp/b.json" base "$BASE"
	fixture "$tmp/flat.json" flat '[1,1,1,1,1,1,2]'
	fixture "$tmp/few.json" few '[1.0,1.01,1.02,5]'
	run_sl compare "$tmp/b.json" "$tmp/flat.json" "$tmp/few.json" --format json
	expect_eq "exit" 0 "$rc"
	notes=$(jq -r '.notes[] | select(test("outlier"))' <<<"$out")
	expect_eq "iterations" "msg 1 in base: 1 of 10 iterations is an outlier (modified Z > 3.5): 1.3 s" "$notes"
	run_sl compare "$tmp/b.json" "$tmp/flat.json"
	expect_line "text note" "^  msg 1 in base: 1 of 10 iterations is an outlier" "$out"
	expect_line "notes heading" "^Notes:$" "$out"

	# six repeats of the baseline 1% apart, and a seventh 50% slower
	for f in -0.02 -0.01 0 0.01 0.02 0.03; do
		s=$(jq -c --argjson f "$f" 'map(. * ($f | exp))' <<<"$BASE")
		fixture "$tmp/h$f.json" base "$s"
		"$SCHEDLAB" import "$tmp/h$f.json" --db "$tmp/r.db" >/dev/null
	done
	s=$(jq -c 'map(. * 1.5)' <<<"$BASE")
	fixture "$tmp/hx.json" base "$s"
	"$SCHEDLAB" import "$tmp/hx.json" --db "$tmp/r.db" >/dev/null
	fixture "$tmp/slow.json" slow "$SLOW"
	# medians 1.015 * e^f and 1.5225 (Python's statistics.median): their
	# median 1.015 * e^0.01 = 1.0252, MAD 1.015 * (e^0.01 - e^-0.01) =
	# 0.0203, z of 1.5225 = 0.6745 * 0.4973 / 0.0203 = 16.52, of the
	# candidate's 1.218: 6.41
	run_sl compare "$tmp/hx.json" "$tmp/h0.json" --db "$tmp/r.db" --format json
	expect_eq "outlying baseline: exit" 0 "$rc"
	notes=$(jq -r '.notes[] | select(test("labelled base here \\("))' <<<"$out")
	expect_match "outlying baseline" '^msg 1: the baseline \(base\) is an outlier among the 7 runs labelled base here \(modified Z 16\.5\): its median 1\.522 s against 1\.025 s$' "$notes"
	run_sl compare "$tmp/h0.json" "$tmp/slow.json" --db "$tmp/r.db" --format json
	notes=$(jq -r '.notes[] | select(test("labelled base here \\("))' <<<"$out")
	expect_match "far candidate" '^msg 1 in slow: the median 1\.218 s is far outside the 7 runs labelled base here \(modified Z 6\.4; their median 1\.025 s\)$' "$notes"
	# without a database: no repeats, no such notes
	run_sl compare "$tmp/hx.json" "$tmp/slow.json" --db "$tmp/none.db" --format json
	expect_eq "no history" "" "$(jq -r '.notes[] | select(test("labelled base here \\("))' <<<"$out")"
}

# Messages that say what limited a verdict: 3 against 3 can never be
# significant by Mann-Whitney (p >= 0.1), and ab says so before it
# starts; a plain run does not, as separate runs compare run against run.
test_compare_too_few_to_decide() {
	use_tmpdir
	fixture "$tmp/a3.json" a3 '[1.00,1.04,1.02]'
	fixture "$tmp/b3.json" b3 '[3.29,3.15,3.34]'
	run_sl compare --unit iteration "$tmp/a3.json" "$tmp/b3.json" --format json
	expect_eq "exit" 0 "$rc"
	expect_eq "verdict" inconclusive "$(jval "$out" .verdict)"
	expect_eq "why" "too few samples: mann-whitney cannot reach p < 0.05 with 3 and 3 (needs 4 a side)" \
		"$(jval "$out" '.jobs[0].cases[0].runs[1].why')"
	run_sl compare --unit iteration "$tmp/a3.json" "$tmp/b3.json" --test welch --format json
	expect_eq "welch can" regressed "$(jval "$out" .verdict)"

	small_jobs "$tmp"
	run_sl ab "$tmp/a.job" --db "$tmp/r.db" -q --iterations 3 \
		--variant 'x: env.X=1' --variant 'y: env.X=2'
	expect_eq "ab exit ($err)" 0 "$rc"
	expect_eq "warned" "schedlab: warning: 3 iterations: mann-whitney cannot reach p < 0.05 below 4 a side; use 5 or more, or --iterations auto" \
		"$(grep -v 'machine was busy' <<<"$err" || true)"
	run_sl ab "$tmp/a.job" --db "$tmp/r.db" -q --iterations 4 \
		--variant 'x: env.X=1' --variant 'y: env.X=2'
	expect_eq "4: not warned" "" "$(grep -v 'machine was busy' <<<"$err" || true)"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" -q --iterations 3 --label base
	expect_eq "run exit" 0 "$rc"
	expect_eq "a run alone: not warned" "" "$(grep -v 'machine was busy' <<<"$err" || true)"
	# judge warns for the test it judges its live references by: Welch
	# can at 3; a stored baseline is compared run against run
	run_sl judge --good-set env.X=1 --bad-set env.X=2 --db "$tmp/r.db" --iterations 3 \
		--test welch "$tmp/a.job"
	expect_eq "judge welch: not warned" 0 "$(grep -c 'warning: 3 iterations' <<<"$err" || true)"
	run_sl judge --good-set env.X=1 --bad-set env.X=2 --db "$tmp/r.db" --iterations 3 "$tmp/a.job"
	expect_match "judge: warned" "warning: 3 iterations: mann-whitney cannot reach" "$err"
	run_sl judge --baseline base --db "$tmp/r.db" --iterations 3 "$tmp/a.job"
	expect_eq "judge, a stored baseline: not warned" 0 "$(grep -c 'warning: 3 iterations' <<<"$err" || true)"
}

# small_jobs DIR: a.job and b.job, b with 10 times the loops (about 9 ms
# against 90 ms an iteration on a 2-CPU VM: apart even on a busy machine).
small_jobs() {
	printf '[global]\niterations = 5\n\n[msg]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = %s\n' \
		1000 >"$1/a.job"
	sed "s/loops = 1000/loops = 10000/" "$1/a.job" >"$1/b.job"
}

# Stored runs by label: the slower one is found out, by id too.
test_compare_stored_runs() {
	local id
	use_tmpdir
	small_jobs "$tmp"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label base -q --iterations 8
	expect_eq "base run" 0 "$rc"
	run_sl run "$tmp/b.job" --db "$tmp/r.db" --label slow -q --iterations 8
	expect_eq "slow run" 0 "$rc"
	id=$("$SCHEDLAB" list runs --db "$tmp/r.db" | awk '$2 == "slow" { print $1 }')
	run_sl compare --unit iteration base "$id" --db "$tmp/r.db" --match job --format json
	expect_eq "exit" 0 "$rc"
	expect_eq "verdict" regressed "$(jval "$out" .verdict)"
	expect_eq "runs" "base slow" "$(jq -r '[.runs[].name] | join(" ")' <<<"$out")"
}

# A label with a newline and an escape sequence is one cell in every
# text table, note and verdict line: it cannot forge a row (issue 29,
# item 9, as history and list have it); JSON keeps it as stored.
test_compare_label_newline_escaped() {
	local lab=$'x\e[31m\n    FORGED' layout
	use_tmpdir
	small_jobs "$tmp"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label "$lab" -q --iterations 2
	expect_eq "first run ($err)" 0 "$rc"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label cand -q --iterations 2
	expect_eq "second run ($err)" 0 "$rc"
	for layout in mmtests variants wide grid raw; do
		run_sl compare 1 2 --db "$tmp/r.db" --layout $layout
		expect_eq "compare --layout $layout exit ($err)" 0 "$rc"
		! grep -qE '^ *FORGED' <<<"$out" || fail "--layout $layout: a forged row: $out"
		expect_line "--layout $layout: the label escaped" 'x\\x1b\[31m\\n    FORGED' "$out"
	done
	run_sl compare 1 2 --db "$tmp/r.db" --format markdown
	! grep -qE '^ *FORGED' <<<"$out" || fail "markdown: a forged row: $out"
	run_sl judge --baseline 1 --run 2 --db "$tmp/r.db"
	! grep -qE '^ *FORGED' <<<"$out$err" || fail "judge: a forged line: $out$err"
	run_sl compare 1 2 --db "$tmp/r.db" --format json
	expect_eq "json: the label as stored" "$lab" "$(jq -r '.runs[0].name' <<<"$out")"
}

# A run exported by a schedlab from before case identities (no version,
# no settings, every option in params) still compares with a run made
# now, read from the file and after an import (which stores the
# identity).
test_compare_old_export_with_new_run() {
	local full="groups=1 fds=2 loops=1000 datasize=100 ipc=socket mode=process fifo=false"
	use_tmpdir
	small_jobs "$tmp"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label now -q --iterations 3
	expect_eq "run" 0 "$rc"
	"$SCHEDLAB" export now --db "$tmp/r.db" >"$tmp/new.json"
	expect_eq "identity now" "fds=2 groups=1 loops=1000 1" \
		"$(jq -r '.cases[0] | "\(.params) \(.version)"' "$tmp/new.json")"
	jq --arg full "$full" --arg uuid "$(cat /proc/sys/kernel/random/uuid)" \
		'.run.uuid = $uuid | .run.label = "before" |
		 .cases |= map(del(.version, .settings) | .params = $full)' \
		"$tmp/new.json" >"$tmp/old.json"
	expect_eq "old form" "false false" \
		"$(jq -r '.cases[0] | "\(has("version")) \(has("settings"))"' "$tmp/old.json")"

	run_sl compare "$tmp/old.json" now --db "$tmp/r.db" --format json
	expect_eq "file: exit" 0 "$rc"
	expect_eq "file: stderr" "" "$err"
	expect_eq "file: cases" 1 "$(jval "$out" '[.jobs[].cases[]] | length')"
	expect_eq "file: both measured" "3 3" \
		"$(jq -r '.jobs[0].cases[0].runs | map(.n | tostring) | join(" ")' <<<"$out")"

	run_sl import "$tmp/old.json" --db "$tmp/r.db"
	expect_eq "import: exit" 0 "$rc"
	expect_eq "import: stored identity" "fds=2 groups=1 loops=1000 1 {}" \
		"$("$SCHEDLAB" export before --db "$tmp/r.db" |
		   jq -r -c '.cases[0] | "\(.params) \(.version) \(.settings)"')"
	run_sl compare before now --db "$tmp/r.db" --format json
	expect_eq "stored: exit" 0 "$rc"
	expect_eq "stored: both measured" "3 3" \
		"$(jq -r '.jobs[0].cases[0].runs | map(.n | tostring) | join(" ")' <<<"$out")"
}

# A database of schema 2 (made here by taking schema 3's columns away
# with the sqlite3 program, params back to every option) is migrated by
# the next run into it, and the run stored before compares with the run
# made after, by label, as the same case.
test_compare_schema_2_database_with_new_run() {
	local full="groups=1 fds=2 loops=1000 datasize=100 ipc=socket mode=process fifo=false"
	command -v sqlite3 >/dev/null || skip "no sqlite3 program"
	use_tmpdir
	small_jobs "$tmp"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label before -q --iterations 3
	expect_eq "run before" 0 "$rc"
	local current
	current=$(sqlite3 "$tmp/r.db" "SELECT version FROM schema_version")
	# back to what version 2 had: no columns or tables added since
	sqlite3 "$tmp/r.db" "DROP TABLE monitors;
		DROP TABLE campaigns;
		DROP INDEX cases_config;
		ALTER TABLE cases DROP COLUMN version;
		ALTER TABLE cases DROP COLUMN settings;
		CREATE INDEX cases_config ON cases (workload, params);
		UPDATE cases SET params = '$full';
		UPDATE schema_version SET version = 2;"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label after -q --iterations 3
	expect_eq "run after" 0 "$rc"
	expect_eq "schema" "$current" "$(sqlite3 "$tmp/r.db" "SELECT version FROM schema_version")"
	expect_eq "stored identities" "fds=2 groups=1 loops=1000|1|{},fds=2 groups=1 loops=1000|1|{}" \
		"$(sqlite3 "$tmp/r.db" "SELECT params, version, settings FROM cases ORDER BY id" | paste -sd,)"
	run_sl compare before after --db "$tmp/r.db" --format json
	expect_eq "compare: exit" 0 "$rc"
	expect_eq "compare: both measured" "3 3" \
		"$(jq -r '.jobs[0].cases[0].runs | map(.n | tostring) | join(" ")' <<<"$out")"
}

# judge: 0 for no regression, 1 for one, 125 when it cannot tell or the
# run fails, 2 for bad input.
test_judge_exit_codes() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/slow.json" slow "$SLOW"
	fixture "$tmp/same.json" same "$SAME"
	fixture "$tmp/few.json" few '[1.0,1.1]'
	run_sl judge --unit iteration --baseline "$tmp/base.json" --run "$tmp/same.json"
	expect_eq "same" 0 "$rc"
	expect_match "same: why" "judge: no change: exit 0 \(good for git bisect: no regression beyond the threshold\)" "$err"
	run_sl judge --unit iteration --baseline "$tmp/base.json" --run "$tmp/slow.json"
	expect_eq "slow" 1 "$rc"
	expect_line "slow: why" "msg 1 in .*: messaging.time -20\.0%" "$out"
	run_sl judge --unit iteration --baseline "$tmp/base.json" --run "$tmp/slow.json" --threshold 25
	expect_eq "slow under a 25% threshold" 0 "$rc"
	run_sl judge --unit iteration --baseline "$tmp/base.json" --run "$tmp/few.json"
	expect_eq "few" 125 "$rc"
	run_sl judge --run "$tmp/same.json"
	expect_eq "no baseline" 128 "$rc"
	# a run that fails (its only case times out) is a skip
	printf '[pp]\nworkload = pipe\nloops = 2000000000\ntimeout = 1\niterations = 1\n' >"$tmp/fail.job"
	run_sl judge --baseline "$tmp/base.json" "$tmp/fail.job" --db "$tmp/r.db"
	expect_eq "failed run" 125 "$rc"
	expect_match "failed run: why" "did not complete \(timed out after 1 s\): skip \(125\)" "$err"
	expect_no_leftovers
}

# git bisect run with judge finds the commit that made a program slower.
# Each commit of a demonstration repository holds the run measured there
# (an exported run, as a CI job would keep it); the program became 20%
# slower at commit 5 of 8. Stored runs rather than live ones keep the
# test exact on a busy machine; test_judge_live_run runs judge live.
test_judge_git_bisect() {
	local repo first bad i
	use_tmpdir
	command -v git >/dev/null || fail "git is needed"
	repo=$tmp/repo
	mkdir "$repo"
	fixture "$tmp/good.json" good "$BASE"
	(
		cd "$repo"
		git init -q
		git config user.email t@example.org
		git config user.name test
		for i in 1 2 3 4 5 6 7 8; do
			if [ "$i" -ge 5 ]; then
				fixture run.json "c$i" "$SLOW"
			else
				fixture run.json "c$i" "$SAME"
			fi
			git add run.json
			git commit -q -m "commit $i"
		done
	)
	first=$(git -C "$repo" rev-list --max-parents=0 HEAD)
	bad=$(git -C "$repo" rev-list HEAD | sed -n 4p)	# commit 5
	(
		cd "$repo"
		git bisect start HEAD "$first" >/dev/null
		git bisect run "$SCHEDLAB" judge --unit iteration --baseline "$tmp/good.json" \
			--run run.json --threshold 10 >"$tmp/bisect.log" 2>&1
	) || fail "git bisect run failed: $(tail -n 20 "$tmp/bisect.log")"
	grep -q "^$bad is the first bad commit" "$tmp/bisect.log" ||
		fail "bisect did not find commit 5 ($bad): $(grep -E 'first bad|skip' "$tmp/bisect.log")"
	expect_eq "judge calls" 3 "$(grep -c '^judge: ' "$tmp/bisect.log")"
	git -C "$repo" bisect reset -q >/dev/null 2>&1 || true
}

# judge runs a job file live, stores the run and judges it: a job ten
# times longer than the baseline's is a regression (1).
test_judge_live_run() {
	use_tmpdir
	small_jobs "$tmp"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label good -q --iterations 8
	expect_eq "baseline run" 0 "$rc"
	run_sl judge --unit iteration --baseline good --db "$tmp/r.db" --match job --iterations 8 \
		--label cand "$tmp/b.job"
	expect_eq "exit ($err)" 1 "$rc"
	expect_match "why" "judge: regressed: exit 1" "$err"
	expect_eq "stored" 2 "$(nruns "$tmp/r.db")"
	expect_line "named" "^ +[0-9]+ +cand " "$("$SCHEDLAB" list runs --db "$tmp/r.db")"
	# --set, as with run: a.job made b.job without editing it
	run_sl judge --unit iteration --baseline good --db "$tmp/r.db" --match job --iterations 8 \
		--label cand2 --set msg.loops=10000 "$tmp/a.job"
	expect_eq "--set: exit" 1 "$rc"
	expect_eq "--set: stored" "fds=2 groups=1 loops=10000" \
		"$("$SCHEDLAB" export cand2 --db "$tmp/r.db" | jq -r '.cases[0].params')"
	run_sl judge --baseline good --db "$tmp/r.db" --set nope=1 "$tmp/a.job"
	expect_eq "--set nope: exit" 128 "$rc"
	expect_match "--set nope: message" "--set nope=1: 'nope' is not a key of any job" "$err"
	expect_no_leftovers
}

# judge with a database that stays locked past the busy timeout: not
# the commit's fault, so no verdict - exit 128, which makes git bisect
# run stop - rather than 1 (bad) or 2 (issue 12, defect 4).
test_judge_locked_database_aborts() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	printf '[msg]\nworkload = messaging\ngroups = 1\nloops = 100\niterations = 1\n' >"$tmp/m.job"
	"$SCHEDLAB" run "$tmp/m.job" --db "$tmp/r.db" -q
	hold_lock "$tmp/r.db"
	SCHEDLAB_BUSY_TIMEOUT_MS=300 run_sl judge --baseline "$tmp/base.json" "$tmp/m.job" --db "$tmp/r.db"
	release_lock
	expect_eq "exit status" 128 "$rc"
	expect_match "why" "judge: the database could not be written: abort \(128\)" "$err"
	expect_no_leftovers
}

# --layout variants: one table per job, a column per run headed by its
# variant name (the shared LABEL/ said once), the sweep values as row
# labels, the candidate's change with its mark; text and markdown only.
test_compare_layout_variants() {
	use_tmpdir
	small_jobs "$tmp"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label box/base -q --iterations 8
	expect_eq "base run" 0 "$rc"
	run_sl run "$tmp/b.job" --db "$tmp/r.db" --label box/slow -q --iterations 8
	expect_eq "slow run" 0 "$rc"
	run_sl compare --unit iteration box/base box/slow --db "$tmp/r.db" --match job --layout variants
	expect_eq "exit" 0 "$rc"
	expect_eq "first line" "runs of box: change against base in %, + is better" \
		"$(head -n 1 <<<"$out")"
	expect_line "title" '^msg: messaging.time, s, median \(lower is better\)$' "$out"
	expect_line "header" '^ +base +slow$' "$out"
	# ten times the loops: far slower, and significant
	expect_line "row" '^ *[0-9.]+ +[0-9.]+ +-[0-9]+\.[0-9]%\*$' "$out"
	expect_line "footer" '^\* significant at p<0\.05 \(mann-whitney\); 8 iterations$' "$out"
	# the table (compare's notes below it are sentences)
	[ "$(awk '/^Notes:/ { exit } { print length }' <<<"$out" | sort -n | tail -n 1)" -le 80 ] ||
		fail "a line of the table wider than 80 columns: $out"
	run_sl compare --unit iteration box/base box/slow --db "$tmp/r.db" --match job --layout variants --format markdown
	expect_eq "markdown exit" 0 "$rc"
	expect_line "markdown header" '^\| base \| slow \| % \|$' "$out"
	expect_line "markdown row" '^\| [0-9.]+ \| [0-9.]+ \| \*\*-[0-9.]+%\*\* \|$' "$out"
	run_sl compare --unit iteration box/base box/slow --db "$tmp/r.db" --match job --layout variants --format json
	expect_eq "json: exit" 2 "$rc"
	expect_match "json: message" "--layout variants is a table for reading" "$err"
}

# tbench_fixture FILE LABEL FACTOR: seed 000's shape, a throughput at 8
# client counts (1 to 320), three iterations each: seed 000's values
# for 3.10.0-default times FACTOR, the iterations 1% apart.
tbench_fixture() {
	jq -n --arg lbl "$2" --argjson f "$3" \
		--arg uuid "$(cat /proc/sys/kernel/random/uuid)" '
	[188.13, 953.03, 1860.03, 3180.93, 5378.34, 10826.06, 11342.90, 11651.30] as $v |
	[1, 5, 10, 20, 40, 80, 160, 320] as $c | {
	schema: "schedlab-run/1",
	run: { uuid: $uuid, "label": $lbl, host: "h", started: 1.0, ended: 2.0,
	       status: "complete", command: null, schedlab_version: null },
	environment: {},
	metrics: { "tbench.mbps": { unit: "MB/s", better: "higher", headline: true, help: "t" } },
	cases: [ range(8) as $i | { seq: $i, job: "tbench", workload: "tbench",
		   params: "", sweep_keys: "clients", sweep: ($c[$i] | tostring),
		   status: "complete", reason: null, parameters: {}, iterations: 3,
		   samples: { "tbench.mbps": [ $v[$i] * $f * 0.99, $v[$i] * $f,
					       $v[$i] * $f * 1.01 ] } } ] }' >"$1"
}

# Seed 000's tbench table: a row per run, the client counts as columns,
# within 80 columns for 8 values x 2 runs with their whole names.
test_compare_layout_wide() {
	use_tmpdir
	tbench_fixture "$tmp/a.json" 3.10.0-default 1
	tbench_fixture "$tmp/b.json" 3.10.0-defaultx 1.1
	run_sl compare "$tmp/a.json" "$tmp/b.json" --layout wide
	expect_eq "exit" 0 "$rc"
	expect_eq "title" "tbench by clients: tbench.mbps, MB/s, Hmean (higher is better)" \
		"$(head -n 1 <<<"$out")"
	expect_line "header" '^ +1 +5 +10 +20 +40 +80 +160 +320$' "$out"
	# Hmean of 0.99x, x, 1.01x: 3 / (1/0.99 + 1 + 1/1.01) x = 0.99993x
	expect_line "baseline" '^3\.10\.0-default  +188\.1 +953\.0 +1859\.9 +3180\.7 +5378\.0 +10825\.3 +11342\.1 +11650\.5$' "$out"
	expect_line "candidate, its name whole" '^3\.10\.0-defaultx +206\.9 +1048\.3 ' "$out"
	[ "$(awk '/^Notes:/ { exit } NR > 1 { print length }' <<<"$out" | sort -n | tail -n 1)" -le 80 ] ||
		fail "a line of the wide table wider than 80 columns: $out"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --layout wide --stat max
	expect_line "--stat max" '^3\.10\.0-default  +190\.0 ' "$out"
	expect_match "--stat max: title" 'MB/s, Max \(higher' "$out"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --layout wide --stat middle
	expect_eq "unknown --stat: exit" 2 "$rc"
	expect_match "unknown --stat: message" "--stat: 'middle' is not a known value \(expected one of mean, amean, hmean" "$err"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --layout wide --format csv
	expect_eq "csv: exit" 2 "$rc"
	expect_match "csv: message" "--layout wide is a table for reading" "$err"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --layout wide --format markdown
	expect_line "markdown header" '^\| clients \| 1 \| 5 \| 10 \| 20 \| 40 \| 80 \| 160 \| 320 \|$' "$out"
}

# Seed 000's Time: lines: every iteration, a line per run and case.
test_compare_layout_raw() {
	use_tmpdir
	fixture "$tmp/base.json" 3.10.0-default "[3.919,4.250,4.116]"
	fixture "$tmp/slow.json" 3.10.0-defaultx "[9.074,10.985,9.849]"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --layout raw
	expect_eq "exit" 0 "$rc"
	expect_line "baseline" '^3\.10\.0-default  1:  3\.919  4\.250  4\.116$' "$out"
	expect_line "candidate" '^3\.10\.0-defaultx 1:  9\.074 10\.985  9\.849$' "$out"
	# nothing swept: seed 000's "NAME  Time: ..." without the sweep
	for f in base slow; do
		jq '.cases[0].sweep_keys = "" | .cases[0].sweep = ""' "$tmp/$f.json" >"$tmp/$f-1.json"
	done
	run_sl compare "$tmp/base-1.json" "$tmp/slow-1.json" --layout raw
	expect_line "unswept" '^3\.10\.0-default:   3\.919  4\.250  4\.116$' "$out"
}

# The sweep values as rows, a column per run, no change columns.
test_compare_layout_grid() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/slow.json" slow "$SLOW"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --layout grid --stat median
	expect_eq "exit" 0 "$rc"
	expect_line "title" '^msg by groups: messaging.time, s, Median \(lower is better\)$' "$out"
	expect_line "header" '^groups +base +slow$' "$out"
	# R: median(c(1.00,1.01,1.02,1.00,1.03,1.01,1.05,1.02,1.00,1.30)) 1.015
	expect_line "row" '^ +1 +1\.015 +1\.218$' "$out"
}

# mmtests' rows, only those asked for (seed 004 posts Amean and Stddev).
test_compare_layout_rows() {
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/slow.json" slow "$SLOW"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --rows amean,Stddev
	expect_eq "exit" 0 "$rc"
	expect_line "Amean" '^Amean +1 ' "$out"
	expect_line "Stddev" '^Stddev +1 ' "$out"
	expect_eq "no other row" "" "$(grep -E '^(Min|Max|CoeffVar|BAmean-95) ' <<<"$out")"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --rows Amean,Mode
	expect_eq "unknown row: exit" 2 "$rc"
	expect_match "unknown row: message" "--rows: no row 'Mode'; the rows are Min, Amean" "$err"
	run_sl compare "$tmp/base.json" "$tmp/slow.json" --rows Amean --layout wide
	expect_eq "--rows with wide: exit" 2 "$rc"
}

# show --layout: one run in compare's tables, compared with nothing.
test_compare_layout_show() {
	use_tmpdir
	tbench_fixture "$tmp/a.json" 3.10.0-default 1
	run_sl show "$tmp/a.json" --layout wide
	expect_eq "wide: exit" 0 "$rc"
	expect_line "wide: row" '^3\.10\.0-default +188\.1 +953\.0 +1859\.9 +3180\.7 +5378\.0 +10825\.3 +11342\.1 +11650\.5$' "$out"
	run_sl show "$tmp/a.json" --layout raw
	expect_line "raw" '^3\.10\.0-default +1: +186\.2 +188\.1 +190\.0$' "$out"
	run_sl show "$tmp/a.json" --layout grid --stat min
	expect_line "grid" '^ +320 +11534\.8$' "$out"
	run_sl show "$tmp/a.json" --layout mmtests
	expect_line "mmtests" '^Hmean +320 +11650\.' "$out"
	expect_eq "no percentages" "" "$(grep '%)' <<<"$out")"
	run_sl show "$tmp/a.json" --layout wide --format json
	expect_eq "json with a layout: exit" 2 "$rc"
	expect_match "json with a layout: message" "show: --layout wide with --format json" "$err"
}

# compute's declared table (AIM7's columns) from stored runs: first every
# iteration a row with the runs side by side (seed 000's layout), then a
# row per task count and run of each column's mean; Real and CPU (0.01-1
# s here) to 3 significant digits (issue 29, item 11).
test_compare_layout_workload() {
	local rows
	use_tmpdir
	printf '[global]\niterations = 3\n\n[aim7]\nworkload = compute\ntasks = 1,2\njobs = 5\n' >"$tmp/c.job"
	run_sl run "$tmp/c.job" --db "$tmp/r.db" --label k-default -q
	expect_eq "first run" 0 "$rc"
	run_sl run "$tmp/c.job" --db "$tmp/r.db" --label k-defaultx -q
	expect_eq "second run" 0 "$rc"
	run_sl compare k-default k-defaultx --db "$tmp/r.db" --layout workload
	expect_eq "exit" 0 "$rc"
	expect_line "iterations: title" '^aim7 by tasks: compute, every iteration, the runs side by side$' "$out"
	expect_line "iterations: the runs named" '^ +k-default +k-defaultx$' "$out"
	expect_line "iterations: header" '^Tasks  Jobs/Min JTI +Real +CPU Jobs/sec/task  Jobs/Min JTI +Real +CPU Jobs/sec/task$' "$out"
	rows=$(grep -E '^ +[12]  +[0-9]+\.[0-9] +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  +[0-9]+\.[0-9] +[0-9]+ ' <<<"$out")
	expect_eq "iterations: a row each, both runs" "1 1 1 2 2 2" "$(awk '{ print $1 }' <<<"$rows" | paste -sd' ')"
	expect_eq "iterations: the stored values, side by side" \
		"$(sqlite3 "$tmp/r.db" "SELECT printf('%.1f', v.value) FROM samples v JOIN cases c ON c.id = v.case_id
			WHERE c.run_id = 2 AND v.metric = 'compute.jobs_per_min' ORDER BY c.seq, v.iteration" | paste -sd' ')" \
		"$(awk '{ print $7 }' <<<"$rows" | paste -sd' ')"
	expect_line "header" '^Tasks  run  +Jobs/Min  JTI  +Real  +CPU  Jobs/sec/task$' "$out"
	expect_line "a row" '^    2  k-defaultx  +[0-9]+\.[0-9]  +[0-9]+  +[0-9]+\.[0-9]+  +[0-9]+\.[0-9]+  +[0-9]+\.[0-9]{4}$' "$out"
	expect_eq "rows" 4 "$(grep -cE '^ +[12]  k-' <<<"$out")"
	# Real and CPU: the smallest value of each column has 3 significant digits
	expect_eq "3 significant digits" "" "$(grep -E '^ +[12]  k-' <<<"$out" | awk '{
		for (i = 5; i <= 6; i++) { d = $i; sub(/^0\.0*/, "", d); sub(/\./, "", d); sub(/^0+/, "", d)
			if (length(d) < 3) print "column " i ": " $i } }')"
	run_sl show k-default --db "$tmp/r.db" --layout workload --stat max
	expect_match "show: the statistic" 'max of each column' "$out"
	expect_eq "show: rows" 2 "$(grep -cE '^ +[12]  k-default ' <<<"$out")"
	fixture "$tmp/m.json" base "$BASE"
	run_sl show "$tmp/m.json" --layout workload
	expect_eq "no table: exit" 2 "$rc"
	expect_match "no table: message" "no job here runs a workload that declares a table" "$err"
}

# Past two sweep axes the grid joins the rest into the second label.
test_compare_layout_grid_three_axes() {
	use_tmpdir
	fixture "$tmp/b0.json" base "$BASE"
	fixture "$tmp/s0.json" slow "$SLOW"
	for f in b s; do
		jq '.cases[0].sweep_keys = "groups fds loops" | .cases[0].sweep = "1 2 100"' \
			"$tmp/${f}0.json" >"$tmp/$f.json"
	done
	run_sl compare "$tmp/b.json" "$tmp/s.json" --layout grid
	expect_eq "exit" 0 "$rc"
	expect_line "header" '^groups  fds loops +base +slow$' "$out"
	expect_line "row" '^     1      2 100 +1\.044 +1\.253$' "$out"
}

# A label stands for its latest complete run with cases, not for a newer
# run that was abandoned before its first case; when a label has only
# such a run, the message names the runs compare took (id and label).
test_compare_label_picks_run_with_cases() {
	local f
	use_tmpdir
	fixture "$tmp/a.json" 2.6.27 "$BASE"
	fixture "$tmp/b.json" 2.6.28-rc1 "$SLOW"
	fixture "$tmp/e.json" empty "$BASE"
	for f in a b; do
		"$SCHEDLAB" import "$tmp/$f.json" --db "$tmp/r.db" >/dev/null
		# then a newer run of the same label, abandoned with no case
		jq --arg uuid "$(cat /proc/sys/kernel/random/uuid)" \
			'.run.uuid = $uuid | .run.started = 5 | .run.ended = 6 |
			 .run.status = "abandoned" | .cases = []' "$tmp/$f.json" \
			>"$tmp/$f-abandoned.json"
		"$SCHEDLAB" import "$tmp/$f-abandoned.json" --db "$tmp/r.db" >/dev/null
	done
	expect_eq "stored" 4 "$(nruns "$tmp/r.db")"
	run_sl compare 2.6.27 2.6.28-rc1 --db "$tmp/r.db" --format json
	expect_eq "exit" 0 "$rc"
	expect_eq "runs" "2.6.27 2.6.28-rc1" "$(jq -r '[.runs[].name] | join(" ")' <<<"$out")"
	expect_eq "both measured" "10 10" \
		"$(jq -r '.jobs[0].cases[0].runs | map(.n | tostring) | join(" ")' <<<"$out")"
	run_sl show 2.6.27 --db "$tmp/r.db" --format json
	expect_eq "show: the complete run" "complete 1" \
		"$(jq -r '"\(.run.status) \(.cases | length)"' <<<"$out")"
	# a label with nothing but an abandoned run: that run, named
	jq --arg uuid "$(cat /proc/sys/kernel/random/uuid)" \
		'.run.uuid = $uuid | .run.status = "abandoned" | .cases = []' \
		"$tmp/e.json" >"$tmp/e-abandoned.json"
	"$SCHEDLAB" import "$tmp/e-abandoned.json" --db "$tmp/r.db" >/dev/null
	run_sl compare empty 2.6.28-rc1 --db "$tmp/r.db"
	expect_eq "empty: exit" 2 "$rc"
	expect_eq "empty: message" "schedlab: compare: nothing to compare: no job of empty (run 5 labelled empty: abandoned, 0 cases) is in 2.6.28-rc1 (run 3 labelled 2.6.28-rc1: complete, 1 case)" "$err"
}

# swept_fixture FILE LABEL FAILED2: a run of a throughput (higher is
# better) swept over clients 1 and 2; with FAILED2 "yes" the case of 2
# clients failed after one iteration (its sample kept, as run keeps it).
swept_fixture() {
	jq -n --arg lbl "$2" --arg failed "$3" \
		--arg uuid "$(cat /proc/sys/kernel/random/uuid)" '{
	schema: "schedlab-run/1",
	run: { uuid: $uuid, "label": $lbl, host: "h", started: 1.0, ended: 2.0,
	       status: (if $failed == "yes" then "partial" else "complete" end),
	       command: null, schedlab_version: null },
	environment: {},
	metrics: { "pgbench.tps": { unit: "tps", better: "higher", headline: true, help: "t" } },
	cases: [ { seq: 1, job: "pg", workload: "pgbench", params: "clients=1",
		   sweep_keys: "clients", sweep: "1", status: "complete", reason: null,
		   parameters: {}, iterations: 4,
		   samples: { "pgbench.tps": [100, 101, 102, 103] } },
		 { seq: 2, job: "pg", workload: "pgbench", params: "clients=2",
		   sweep_keys: "clients", sweep: "2",
		   status: (if $failed == "yes" then "failed" else "complete" end),
		   reason: (if $failed == "yes" then "the case failed" else null end),
		   parameters: {},
		   iterations: (if $failed == "yes" then 1 else 4 end),
		   samples: { "pgbench.tps": (if $failed == "yes" then [5]
					     else [200, 201, 202, 203] end) } } ] }' >"$1"
}

# A failed case has no statistics: not of the iterations it had before
# it failed (no Stddev 0, no -97% Hmean), its Failed line after every
# row of the cases that have them, and the mean row named by the
# metric's direction (Hmean for a throughput) whichever case failed.
test_compare_failed_case_has_no_statistics() {
	use_tmpdir
	swept_fixture "$tmp/ok.json" ok no
	swept_fixture "$tmp/failed.json" failed yes
	run_sl compare --unit iteration "$tmp/ok.json" "$tmp/failed.json"
	expect_eq "exit" 0 "$rc"
	expect_line "hmean of 2, candidate failed" '^Hmean +2 +[0-9.]+ \(   0\.00%\) +failed *$' "$out"
	expect_line "stddev of 2, candidate failed" '^Stddev +2 +[0-9.]+ \(   0\.00%\) +failed *$' "$out"
	expect_line "change of 2" '^Change \(median\) +2 +failed +n/a +p=- +inconclusive$' "$out"
	# the failed run as the baseline: its row still reads Hmean
	run_sl compare --unit iteration "$tmp/failed.json" "$tmp/ok.json"
	expect_line "hmean of 2, baseline failed" '^Hmean +2 +failed +[0-9.]+ \(    n/a%\)$' "$out"
	! grep -q '^Amean' <<<"$out" || fail "a mean row reads Amean: $out"
	expect_line "why" "failed in failed: the case failed" "$out"
	# show: the statistics of clients 1 (Python 3.11: harmonic_mean,
	# pstdev), then the failed case's line
	run_sl show "$tmp/failed.json"
	expect_eq "show: exit" 0 "$rc"
	expect_eq "show: block" "pg by clients: pgbench.tps, tps (higher is better)
Min       1        100.0000
Hmean     1        101.4877
Stddev    1          1.1180
CoeffVar  1          1.1016
Max       1        103.0000
BAmean-95 1        102.0000
Failed    2    the case failed" \
		"$(sed -n '/^pg by clients/,/^$/p' <<<"$out" | sed '/^$/d')"
}

# pct_fixture FILE LABEL TIMES IDLE: one messaging case, messaging.time
# TIMES and cpu.idle_pct IDLE (JSON arrays): a metric that is itself a
# percentage (unit %).
pct_fixture() {
	jq -n --arg lbl "$2" --argjson x "$3" --argjson idle "$4" \
		--arg uuid "$(cat /proc/sys/kernel/random/uuid)" '{
	schema: "schedlab-run/1",
	run: { uuid: $uuid, "label": $lbl, host: "h", started: 1.0, ended: 2.0,
	       status: "complete", command: null, schedlab_version: null },
	environment: {},
	metrics: {
	  "messaging.time": { unit: "s", better: "lower", headline: true, help: "t" },
	  "cpu.idle_pct": { unit: "%", better: "none", headline: false, help: "i" }
	},
	cases: [ { seq: 1, job: "msg", workload: "messaging", params: "groups=1 loops=100",
		   sweep_keys: "groups", sweep: "1", status: "complete", reason: null,
		   parameters: {}, iterations: ($x | length),
		   samples: { "messaging.time": $x, "cpu.idle_pct": $idle } } ] }' >"$1"
}

# A percentage of a percentage reads as nonsense (cpu.idle_pct from
# 0.01% to 6.4% is +63900%): a metric whose unit is % changes by a
# difference in points in the lkp block, in its own table (--metrics),
# in csv and in json. By hand: means 0.01 and 6.4, +6.39 points; medians
# 0.01 and 6.4; min 0.01 and 6.3, +6.29.
test_compare_percentages_in_points() {
	use_tmpdir
	pct_fixture "$tmp/a.json" base "$BASE" '[0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01]'
	pct_fixture "$tmp/b.json" cand "$SLOW" '[6.3,6.4,6.5,6.4,6.3,6.4,6.5,6.4,6.4,6.4]'
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json"
	expect_eq "exit" 0 "$rc"
	expect_line "lkp block" '^ +0\.01 +\+6\.4 pt +6\.4 +cpu\.idle_pct$' "$out"
	! grep -q '63[0-9]*\.[0-9]%' <<<"$out" || fail "a percentage of a percentage: $out"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" --metrics cpu.idle_pct
	expect_line "mean row" '^Amean +1 +0\.010000 \(  0\.00pt\) +6\.400000 [*(]  6\.39pt[*)]$' "$out"
	expect_line "min row" '^Min +1 +0\.010000 \(  0\.00pt\) +6\.300000 \(  6\.29pt\)$' "$out"
	expect_line "change row" '^Change \(median\) +1 +cand +\+6\.4 pt \[\+[0-9.]+, \+[0-9.]+\] +p=' "$out"
	! grep -q '63[0-9]*\.[0-9]*%' <<<"$out" || fail "a percentage of a percentage: $out"
	[ "$(awk '{ print length }' <<<"$out" | sort -n | tail -n 1)" -le 80 ] ||
		fail "a line is wider than 80 columns"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" --metrics cpu.idle_pct --format markdown
	expect_line "markdown mean" '^\| Amean \| 1 \| 0\.010000 \(0\.00 pt\) \| 6\.400000 \*{0,2}\(6\.39 pt\)\*{0,2} \|$' "$out"
	expect_line "markdown change" '^\| 1 \| cand \| \+6\.4 pt \[' "$out"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" --metrics cpu.idle_pct --format json
	approx "json: explain change_pt" 6.39 "$(jval "$out" '.jobs[0].cases[0].runs[1].explain[] | select(.metric == "cpu.idle_pct") | .change_pt')"
	expect_eq "json: explain change_pct" null "$(jq -c '.jobs[0].cases[0].runs[1].explain[] | select(.metric == "cpu.idle_pct") | .change_pct' <<<"$out")"
	expect_eq "json: no pct" false "$(jq -c '.jobs[1].cases[0].runs[1] | has("pct")' <<<"$out")"
	approx "json: pt.mean" 6.39 "$(jval "$out" '.jobs[1].cases[0].runs[1].pt.mean')"
	approx "json: change_pt" 6.39 "$(jval "$out" '.jobs[1].cases[0].runs[1].change_pt')"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" --metrics cpu.idle_pct --format csv
	expect_match "csv: points at the end" '^msg,1,cpu\.idle_pct,cand,10,amean,.*,median,6\.39[0-9]*,6\.39[0-9]*$' "$(tail -n 1 <<<"$out")"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" --metrics cpu.idle_pct --format html
	expect_match "html: lkp table" 'cpu\.idle_pct</td><td>0\.01</td><td>0</td><td>6\.4</td><td>[0-9]+</td><td>\+6\.4 pt</td>' "$out"
	expect_match "html: change" '<td>\+6\.4 pt</td><td>\[' "$out"
}

# Runs whose probes were off (messaging over pipes: off unless asked
# for) have no scheduler metric that could move: compare says so
# instead of leaving the block out without a word; with probes = on it
# does not.
test_compare_probes_off_says_why() {
	use_tmpdir
	printf '[msg]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = 100\nipc = pipe\niterations = 4\n' >"$tmp/p.job"
	sed 's/^iterations = 4$/iterations = 4\nprobes = on/' "$tmp/p.job" >"$tmp/on.job"
	for l in a b; do
		run_sl run "$tmp/p.job" --db "$tmp/r.db" --label "$l" -q
		expect_eq "run $l" 0 "$rc"
		run_sl run "$tmp/on.job" --db "$tmp/r.db" --label "on-$l" -q
		expect_eq "run on-$l" 0 "$rc"
	done
	expect_eq "stored off" off "$("$SCHEDLAB" show a --db "$tmp/r.db" --format json | jq -r '.cases[0].settings.probes')"
	run_sl compare a b --unit iteration --db "$tmp/r.db"
	expect_eq "exit" 0 "$rc"
	expect_eq "why" "what moved: nothing to show: probes were off in this case (probes = on records them)" \
		"$(sed -n '/^what moved:/,/^$/p' <<<"$out" | sed '/^$/d' | paste -sd' ' | tr -s ' ')"
	run_sl compare a b --unit iteration --db "$tmp/r.db" --format json
	expect_eq "json: probes_off" "true []" \
		"$(jq -c '.jobs[0].cases[0].runs[1] | "\(.probes_off) \(.explain)"' -r <<<"$out")"
	run_sl compare on-a on-b --unit iteration --db "$tmp/r.db"
	expect_eq "on: exit" 0 "$rc"
	[[ $out != *"probes were off"* ]] || fail "probes on, said off: $out"
}

# The html page heads the cases left out "Not compared" and the notes on
# what was compared (an outlier, no run-to-run noise) "Notes": before,
# every note stood under "Not compared".
test_compare_html_notes_headed() {
	local left notes
	use_tmpdir
	fixture "$tmp/base.json" base "$BASE"
	fixture "$tmp/slow.json" slow "$SLOW"
	# a second job, in the baseline only
	jq '.cases += [.cases[0] | .seq = 2 | .job = "alone"]' "$tmp/base.json" >"$tmp/two.json"
	run_sl compare --unit iteration "$tmp/two.json" "$tmp/slow.json" --format html
	expect_eq "exit" 0 "$rc"
	left=$(sed -n '/^<h2>Not compared<\/h2>$/,/^<\/ul>$/p' <<<"$out")
	notes=$(sed -n '/^<h2>Notes<\/h2>$/,/^<\/ul>$/p' <<<"$out")
	expect_eq "not compared" "<li>alone 1: only in base</li>" "$(grep '^<li>' <<<"$left")"
	expect_match "notes: the outlier" "<li>msg 1 in base: 1 of 10 iterations is an outlier" "$notes"
	[[ $notes != *"only in"* ]] || fail "a case left out under Notes: $notes"
	# nothing left out: no "Not compared" heading at all
	run_sl compare --unit iteration "$tmp/base.json" "$tmp/slow.json" --format html
	[[ $out != *"<h2>Not compared</h2>"* ]] || fail "Not compared heads notes: $(grep -A3 'Not compared' <<<"$out")"
	expect_match "notes heading" "<h2>Notes</h2>" "$out"
}
