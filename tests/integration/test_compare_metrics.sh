# SPDX-License-Identifier: GPL-2.0-only
#
# compare --metrics (tables beyond the headline), --ratio (mmtests'
# Gmean row) and --brief (for an email), and the text layout's fit: run
# names never cut, 80 columns for two candidates or a note saying how to
# narrow the table. Stored runs are tiny real ones; fixed runs are
# export documents written with jq.

# mfixture FILE LABEL FACTOR: an export document of job msg over groups
# 1 and 2 whose messaging.time is FACTOR times ten fixed timings, its
# messaging.rate (higher is better) 1000 / time, and sched.migrations.
mfixture() {
	jq -n --arg lbl "$2" --argjson f "$3" \
		--arg uuid "$(cat /proc/sys/kernel/random/uuid)" '
	def t(g): [1.00,1.01,1.02,1.00,1.03,1.01,1.05,1.02,1.00,1.04][] * $f * g;
	def case(s; g): { seq: s, job: "msg", workload: "messaging",
		params: "groups=\(g)", sweep_keys: "groups", sweep: "\(g)",
		status: "complete", reason: null, parameters: {}, iterations: 10,
		samples: { "messaging.time": [t(g)],
			   "messaging.rate": [t(g) | 1000 / .],
			   "sched.migrations": [t(g) | . * 100] } };
	{ schema: "schedlab-run/1",
	  run: { uuid: $uuid, label: $lbl, host: "h", started: 1.0, ended: 2.0,
		 status: "complete", command: null, schedlab_version: null },
	  environment: {},
	  metrics: {
	    "messaging.time": { unit: "s", better: "lower", headline: true, help: "t" },
	    "messaging.rate": { unit: "msgs/s", better: "higher", headline: false, help: "r" },
	    "sched.migrations": { unit: "migrations", better: "none", headline: false, help: "m" } },
	  cases: [ case(1; 1), case(2; 2) ] }' >"$1"
}

# widest TEXT: the longest line's length.
widest() {
	awk '{ if (length > w) w = length } END { print w + 0 }' <<<"$1"
}

# The tables from the start to the notes (prose, not measured).
tables_of() {
	awk '/^Notes:$/ { exit } { print }' <<<"$1"
}

# Real wakeup runs: --metrics 'wakeup.p*' tabulates its percentiles
# after the headline, each with its own verdicts, and leaves the
# overall verdict the headline's; all has no scheduler metric.
test_compare_metrics_wakeup_percentiles() {
	local plain
	use_tmpdir
	cat >"$tmp/w.job" <<-'EOF'
	[global]
	iterations = 3
	[wk]
	workload = wakeup
	message_threads = 1
	workers = 1
	runtime = 1s
	EOF
	run_sl run "$tmp/w.job" --db "$tmp/r.db" --label a -q
	expect_eq "run a" 0 "$rc"
	run_sl run "$tmp/w.job" --db "$tmp/r.db" --label b -q
	expect_eq "run b" 0 "$rc"
	run_sl compare a b --db "$tmp/r.db" --format json
	expect_eq "plain exit" 0 "$rc"
	plain=$out
	expect_eq "plain tables" 1 "$(jq '.jobs | length' <<<"$plain")"
	run_sl compare a b --db "$tmp/r.db" --metrics 'wakeup.p*' --format json
	expect_eq "exit" 0 "$rc"
	expect_eq "headline first" wakeup.p99_us "$(jval "$out" '.jobs[0].metric')"
	expect_eq "headline not flagged" null "$(jq -r '.jobs[0].headline' <<<"$out")"
	for m in wakeup.p50_us wakeup.p90_us wakeup.p999_us; do
		expect_eq "$m table" false \
			"$(jq -r --arg m "$m" '.jobs[] | select(.metric == $m) | .headline' <<<"$out")"
	done
	expect_eq "verdict the headline's" "$(jval "$plain" .verdict)" "$(jval "$out" .verdict)"
	run_sl compare a b --db "$tmp/r.db" --metrics all
	expect_eq "all exit" 0 "$rc"
	expect_line "all: p50 table" '^wk: wakeup\.p50_us, us \(lower is better\)$' "$out"
	grep -q '^wk: sched\.' <<<"$out" &&
		fail "--metrics all tabulates a scheduler metric"
	run_sl compare a b --db "$tmp/r.db" --metrics 'headline,sched.migrations'
	expect_eq "glob exit" 0 "$rc"
	expect_line "sched table" '^wk: sched\.migrations, migrations \(no direction: \+ is more, no verdict\)$' "$out"
}

# What --metrics and --brief refuse: exit 2, the option named.
test_compare_metrics_bad_input() {
	use_tmpdir
	mfixture "$tmp/a.json" base 1
	mfixture "$tmp/b.json" fast 0.9
	run_sl compare "$tmp/a.json" "$tmp/b.json" --metrics 'messaging.rte'
	expect_eq "typo exit" 2 "$rc"
	expect_match "typo message" "--metrics: 'messaging.rte' matches no metric" "$err"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --brief=many
	expect_eq "brief exit" 2 "$rc"
	expect_match "brief message" "option --brief: 'many' is not a number \(expected a whole number in 0\.\.50\)" "$err"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --brief 2
	expect_eq "brief N needs =" 2 "$rc"
}

# --ratio: the Gmean row; 0.9 times the timings in both cases is 0.9.
test_compare_metrics_ratio() {
	use_tmpdir
	mfixture "$tmp/a.json" base 1
	mfixture "$tmp/b.json" fast 0.9
	run_sl compare "$tmp/a.json" "$tmp/b.json" --ratio --metrics all
	expect_eq "exit" 0 "$rc"
	expect_line "time ratio" '^Gmean +ratio +1\.0000 +0\.9000$' "$out"
	# the rate is 1 / 0.9 of the baseline's
	expect_line "rate ratio" '^Gmean +ratio +1\.0000 +1\.1111$' "$out"
	run_sl compare "$tmp/a.json" "$tmp/b.json" --ratio --format json
	approx "json ratio" 0.9 "$(jval "$out" '.jobs[0].gmean_ratio[1]')"
}

# --brief: the mean row and the change per case, no Duration block, the
# verdict; 80 columns with long labels for one candidate, and for two a
# note saying how to narrow the table.
test_compare_brief_email() {
	local long1=vm-6.18.44-fc-v857/baseline-kernel long2=vm-6.18.44-fc-v857/eevdf-slice-3ms
	use_tmpdir
	mfixture "$tmp/a.json" "$long1" 1
	mfixture "$tmp/b.json" "$long2" 0.9
	mfixture "$tmp/c.json" vm-6.18.44-fc-v857/n7 1
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" --brief
	expect_eq "exit" 0 "$rc"
	grep -q '^Duration' <<<"$out" && fail "--brief kept the Duration block"
	grep -qE '^(Min|Stddev|CoeffVar|Max|BAmean-95) ' <<<"$out" &&
		fail "--brief kept a row other than the mean"
	expect_eq "mean rows" 2 "$(grep -c '^Amean ' <<<"$out")"
	expect_eq "change lines" 2 "$(grep -c '^Change (median) ' <<<"$out")"
	expect_line "verdict" '^verdict: improved$' "$out"
	# the names whole, never cut
	grep -qF "$long2" <<<"$out" || fail "the candidate's name was cut"
	expect_line "name's tail" '^ +baseline-kernel +eevdf-slice-3ms$' "$out"
	[ "$(widest "$(tables_of "$out")")" -le 80 ] ||
		fail "--brief's tables are wider than 80 columns:
$out"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json"
	[ "$(widest "$(tables_of "$out")")" -le 80 ] ||
		fail "one candidate's tables are wider than 80 columns"
	grep -q 'columns: for 80,' <<<"$out" && fail "a width note with one candidate"
	run_sl compare --unit iteration "$tmp/a.json" "$tmp/b.json" "$tmp/c.json"
	expect_eq "three exit" 0 "$rc"
	if [ "$(widest "$(tables_of "$out")")" -gt 80 ]; then
		expect_line "width note" '^\(lines up to [0-9]+ columns: for 80, compare one candidate at a time, or --format markdown\)$' "$out"
	fi
}

# judge shares the options: they are in its help.
test_compare_metrics_judge_options() {
	run_sl judge --help
	expect_eq "exit" 0 "$rc"
	for o in --metrics= --ratio --brief; do
		grep -qF -- "$o" <<<"$out" || fail "judge --help has no $o"
	done
}
