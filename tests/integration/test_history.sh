# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab history: change points over a job's stored runs. Series are
# export documents written here (hist_doc), so where the step is and how
# big is known; one test stores real runs of a command job whose program
# sleeps a controlled time.

# hist_doc FILE LABEL STARTED LEVEL SEED [KERNEL] [HOST] [NCASES]: an
# export document of job "hj" (messaging, NCASES cases swept over groups,
# default 1) started at STARTED, five messaging.time samples each about
# LEVEL (times the group count) with 0.5% noise from awk's generator
# seeded with SEED, its environment's kernel release KERNEL.
hist_doc() {
	awk -v label="$2" -v started="$3" -v level="$4" -v seed="$5" \
		-v kernel="${6:-6.1.0}" -v host="${7:-h1}" -v ncases="${8:-1}" '
	BEGIN {
		srand(seed)
		printf "{\"schema\":\"schedlab-run/1\",\"run\":{\"uuid\":\"%08x-0000-4000-8000-%012d\",", seed, seed
		printf "\"label\":\"%s\",\"host\":\"%s\",\"started\":%s,\"ended\":%s,", label, host, started, started + 1
		printf "\"status\":\"complete\",\"command\":\"schedlab run hist.job --label %s\",\"schedlab_version\":null},", label
		printf "\"environment\":{\"kernel\":{\"release\":{\"available\":true,\"value\":\"%s\"}}},", kernel
		printf "\"metrics\":{\"messaging.time\":{\"unit\":\"s\",\"better\":\"lower\",\"headline\":true,\"help\":\"-\"},"
		printf "\"sched.migrations\":{\"unit\":\"migrations\",\"better\":\"none\",\"headline\":false,\"help\":\"-\"}},"
		printf "\"cases\":["
		for (c = 1; c <= ncases; c++) {
			printf "%s{\"seq\":%d,\"job\":\"hj\",\"workload\":\"messaging\",", (c > 1 ? "," : ""), c
			printf "\"params\":\"groups=%d\",\"sweep_keys\":\"groups\",\"sweep\":\"%d\",", c, c
			printf "\"status\":\"complete\",\"reason\":null,\"parameters\":{},\"iterations\":5,\"samples\":{"
			printf "\"messaging.time\":["
			for (i = 0; i < 5; i++)
				printf "%s%.9g", (i ? "," : ""), c * level * (1 + 0.01 * (rand() - 0.5))
			printf "],\"sched.migrations\":[1,2,3,4,5]}}"
		}
		printf "]}\n"
	}' >"$1"
}

# hist_series DB N STEP PCT [NCASES] [LABELPREFIX] [HOST]: N runs of job
# hj into DB, an hour apart from 2026-11-01, labelled PREFIX1..PREFIXN
# (default n), kernel 6.1.K for run K; from run STEP on (0: none) the
# level is PCT% higher.
hist_series() {
	local db=$1 n=$2 step=$3 pct=$4 nc=${5:-1} pfx=${6:-n} host=${7:-h1} i lvl
	for ((i = 1; i <= n; i++)); do
		lvl=1
		[ "$step" -gt 0 ] && [ "$i" -ge "$step" ] && lvl=$(awk -v p="$pct" 'BEGIN { print 1 + p / 100 }')
		hist_seq=$((${hist_seq:-0} + 1))	# the noise, the same every time
		hist_doc "$tmp/d.json" "$pfx$i" $((1793491200 + 3600 * i)) "$lvl" \
			"$hist_seq" "6.1.$i" "$host" "$nc"
		"$SCHEDLAB" import "$tmp/d.json" --db "$db" >/dev/null ||
			fail "import of run $i failed"
	done
}

# A 5% step after run 12 of 24: history names runs 12 and 13, the size,
# the levels, and marks it in the table; json has the same.
test_history_step() {
	use_tmpdir
	hist_series "$tmp/h.db" 24 13 5
	run_sl history hj --db "$tmp/h.db"
	expect_eq "exit ($err)" 0 "$rc"
	expect_line "title" '^history of job hj: messaging.time \(s, lower is better\), by time; 1 case, 1 change point$' "$out"
	expect_line "marked" '^---- change: \+[45]\.[0-9]% \[\+[0-9.]+%, \+[0-9.]+%\] p=[0-9.e-]+ \(worse\) ----$' "$out"
	# the marker lies between the rows of n12 and n13
	expect_eq "marker place" "n12 ---- n13" "$(grep -A1 -B1 '^---- change' <<<"$out" |
		awk '{ print ($1 == "----" ? "----" : $2) }' | paste -sd' ')"
	expect_line "between" "^  between run 12 'n12' \(2026-11-01 12:00:00\)$" "$out"
	expect_line "and" "^      and run 13 'n13' \(2026-11-01 13:00:00\)$" "$out"
	run_sl history hj --db "$tmp/h.db" --format json
	expect_eq "json exit ($err)" 0 "$rc"
	expect_eq "schema" "schedlab-history/1" "$(jval "$out" .schema)"
	expect_eq "points" 1 "$(jval "$out" '.series[0].change_points | length')"
	expect_eq "good, bad" "12 13" "$(jval "$out" '.series[0].change_points[0] | "\(.good_run) \(.bad_run)"')"
	expect_eq "size" 5 "$(jval "$out" '.series[0].change_points[0].change_pct | round')"
	expect_eq "interval holds it" true "$(jval "$out" '.series[0].change_points[0] | .lo_pct < .change_pct and .change_pct < .hi_pct')"
	expect_eq "levels" true "$(jval "$out" '.series[0].change_points[0] | .before > 0.99 and .before < 1.01 and .after > 1.04 and .after < 1.06')"
	expect_eq "runs" 24 "$(jval "$out" '.series[0].runs | length')"
	expect_eq "run summary" true "$(jval "$out" '.series[0].runs[0] | .q1 <= .median and .median <= .q3 and .min <= .q1 and .q3 <= .max and .n == 5')"
}

# No step: no change point reported; a sweep: one series per case, each
# named.
test_history_no_step_and_sweep() {
	use_tmpdir
	hist_series "$tmp/h.db" 20 0 0 2
	run_sl history hj --db "$tmp/h.db" --format json
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "cases" "groups=1 groups=2" "$(jval "$out" '[.series[].case] | join(" ")')"
	expect_eq "no points" "0 0" "$(jval "$out" '[.series[].change_points | length] | join(" ")')"
	run_sl history hj --db "$tmp/h.db"
	expect_line "case named" '^case groups=2: 20 runs, 0 change points$' "$out"
	[[ $out != *"---- change"* ]] || fail "a change marked without a step: $out"
}

# --label, --host and --since choose the runs; the orders by kernel
# (version order: 6.1.10 after 6.1.9) and by commit.
test_history_filters_and_kernel() {
	use_tmpdir
	hist_series "$tmp/h.db" 12 7 10 1 n h1
	hist_series "$tmp/h.db" 3 0 0 1 other h2
	run_sl history hj --db "$tmp/h.db" --label 'n*' --format json --min-size 3
	expect_eq "label glob ($err)" 12 "$(jval "$out" '.series[0].runs | length')"
	run_sl history hj --db "$tmp/h.db" --host h2 --format json --min-size 3
	expect_eq "host: too few" 2 "$rc"
	expect_eq "too few says" "schedlab: history: too few runs for the detector: job 'hj' has 3 runs, and it needs at least 6 (2 x --min-size 3; 4 at the least, with --min-size 2)" "$err"
	run_sl history hj --db "$tmp/h.db" --host 'h[12]' --since 2026-11-01T05:00 --format json --min-size 3
	# runs 5..12 of h1 and the three of h2 (started at hours 1..3: not)
	expect_eq "since" "n5 n12" "$(jval "$out" '.series[0].runs | "\(.[0].label) \(.[-1].label)"')"
	expect_eq "since count" 8 "$(jval "$out" '.series[0].runs | length')"
	run_sl history hj --db "$tmp/h.db" --label 'n*' --by kernel --min-size 3
	expect_eq "kernel exit ($err)" 0 "$rc"
	# 6.1.1 .. 6.1.12 in version order, not 6.1.1, 6.1.10, 6.1.11, ...
	expect_eq "kernel order" "6.1.1 6.1.2 6.1.9 6.1.10 6.1.12" \
		"$(awk '$1 ~ /^[0-9]+$/ { print $5 }' <<<"$out" | sed -n '1p;2p;9p;10p;12p' | paste -sd' ')"
	expect_line "kernels" '^  kernels 6\.1\.6 -> 6\.1\.7$' "$out"
}

# --by commit: labels are commits of a repository (abbreviated, or as
# git describe writes them), in rev-list order whatever their start
# times; a label that is no commit is left out and said once; the
# change point's bisect and judge lines.
test_history_by_commit() {
	local i c commits=()
	use_tmpdir
	command -v git >/dev/null || skip "no git"
	git init -q "$tmp/repo"
	for ((i = 1; i <= 12; i++)); do
		git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i"
		commits+=("$(git -C "$tmp/repo" rev-parse HEAD)")
	done
	# stored in reverse commit order: the order must come from git
	for ((i = 12; i >= 1; i--)); do
		c=${commits[i - 1]:0:10}
		[ "$i" -eq 4 ] && c="v1.0-3-g${commits[i - 1]:0:8}"
		hist_doc "$tmp/d.json" "$c" $((1793491200 + 3600 * (13 - i))) \
			"$([ "$i" -ge 8 ] && echo 1.1 || echo 1)" "$i" 6.1.0
		"$SCHEDLAB" import "$tmp/d.json" --db "$tmp/h.db" >/dev/null
	done
	hist_doc "$tmp/d.json" nightly-x 1793400000 1 99
	"$SCHEDLAB" import "$tmp/d.json" --db "$tmp/h.db" >/dev/null
	run_sl history hj --db "$tmp/h.db" --by commit --repo "$tmp/repo" --min-size 3
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "left out, once" "schedlab: warning: history: 1 run left out, their label is not a commit of $tmp/repo: 13 'nightly-x'" "$err"
	expect_eq "commit order" "${commits[0]:0:10} v1.0-3-g${commits[3]:0:8} ${commits[11]:0:10}" \
		"$(awk '$1 ~ /^[0-9]+$/ { print $2 }' <<<"$out" | sed -n '1p;4p;12p' | paste -sd' ')"
	expect_line "bisect" "^    git bisect start ${commits[7]} ${commits[6]}$" "$out"
	# runs 6 (c7) and 5 (c8): stored from c12 down
	expect_line "judge" "^    git bisect run schedlab judge --good 6 --bad 5 --db $tmp/h.db hist.job$" "$out"
	run_sl history hj --db "$tmp/h.db" --by commit --repo "$tmp/nowhere"
	expect_eq "no repo" 2 "$rc"
	expect_match "no repo says" "is not a git repository" "$err"
}

# A label with a newline in it (import takes it: run does) is one cell:
# history, list runs and show print it "\n", so it cannot forge a row
# (issue 29, item 9).
test_history_label_newline_escaped() {
	use_tmpdir
	# awk reads "\\n" as "\n", which the JSON reads as a newline
	hist_series "$tmp/h.db" 10 0 0 1 'x\\n    99  forged' h1
	expect_eq "stored with its newline" 2 \
		"$("$SCHEDLAB" show 1 --db "$tmp/h.db" --format json | jq -r .run.label | wc -l)"
	run_sl history hj --db "$tmp/h.db"
	expect_eq "history exit ($err)" 0 "$rc"
	! grep -qE '^ +99  forged' <<<"$out" || fail "history: a forged row: $out"
	expect_line "history: the label escaped" '^ +1  x\\n    99  forged1 ' "$out"
	run_sl list runs --db "$tmp/h.db"
	expect_eq "list exit ($err)" 0 "$rc"
	expect_eq "list: a row a run" 11 "$(nlines "$out")"
	expect_line "list: the label escaped" '^ +1  x\\n    99  forged1 ' "$out"
	run_sl show 1 --db "$tmp/h.db"
	expect_line "show: the label escaped" '^run +x\\n    99  forged1$' "$out"
	! grep -qE '^ +99  forged' <<<"$out" || fail "show: a forged line: $out"
}

# Runs 7-12 ran with cpus=0 and are 10% slower: history finds the step,
# and says which runs had which settings and that they changed at the
# step (compare notes such settings too); each run's start is to the
# second, so runs a few seconds apart read apart (issue 29, item 8).
test_history_settings_and_seconds() {
	local i
	use_tmpdir
	for ((i = 1; i <= 12; i++)); do
		hist_doc "$tmp/d.json" "n$i" $((1793491200 + 7 * i)) \
			"$([ $i -ge 7 ] && echo 1.1 || echo 1)" "$((900 + i))"
		if [ $i -ge 7 ]; then
			jq '.cases[].settings = {"cpus": "0"}' "$tmp/d.json" >"$tmp/s.json"
		else
			cp "$tmp/d.json" "$tmp/s.json"
		fi
		"$SCHEDLAB" import "$tmp/s.json" --db "$tmp/h.db" >/dev/null ||
			fail "import of run $i failed"
	done
	run_sl history hj --db "$tmp/h.db"
	expect_eq "exit ($err)" 0 "$rc"
	expect_line "a step" '^---- change: \+' "$out"
	expect_line "which runs had which" '^note: the runs. settings differ: none in runs 1-6; cpus=0 in runs 7-12$' "$out"
	expect_line "at the step" '^  settings none -> cpus=0: the step may be theirs$' "$out"
	expect_eq "starts apart" 12 "$(grep -E '^ +[0-9]+  n[0-9]+ ' <<<"$out" |
		grep -oE '2026-11-01 [0-9:]{8}' | sort -u | wc -l)"
	expect_line "to the second" '^      and run 7 .n7. \(2026-11-01 00:00:49\)$' "$out"
	run_sl history hj --db "$tmp/h.db" --format json
	expect_eq "json settings" ",,,,,,cpus=0,cpus=0,cpus=0,cpus=0,cpus=0,cpus=0" \
		"$(jval "$out" '[.series[0].runs[].settings] | join(",")')"
	run_sl history hj --db "$tmp/h.db" --format html -o "$tmp/page"
	grep -qF "The runs' settings differ: <code>none</code> in runs 1-6; <code>cpus=0</code> in runs 7-12." \
		"$tmp/page/index.html" || fail "html: no settings note ($err)"
	grep -qF 'settings <code>none</code> &rarr; <code>cpus=0</code>: the step may be theirs' \
		"$tmp/page/index.html" || fail "html: the change point does not say"
	# fewer runs than the detector needs: what --min-size would do
	run_sl history hj --db "$tmp/h.db" --min-size 7
	expect_eq "too few: exit" 2 "$rc"
	expect_eq "too few: says" "schedlab: history: too few runs for the detector: job 'hj' has 12 runs, and it needs at least 14 (2 x --min-size 7); --min-size 6 looks at these, with less power" "$err"
}

# Bad input: one message, exit 2.
test_history_bad_input() {
	use_tmpdir
	hist_series "$tmp/h.db" 4 0 0
	run_sl history nojob --db "$tmp/h.db"
	expect_eq "unknown job" 2 "$rc"
	expect_eq "unknown job says" "schedlab: history: no job 'nojob' in $tmp/h.db (its jobs: hj)" "$err"
	run_sl history hj --db "$tmp/h.db" --metric nope
	expect_eq "unknown metric" 2 "$rc"
	expect_eq "unknown metric says" "schedlab: history: job 'hj' has no metric 'nope' (its metrics: messaging.time, sched.migrations)" "$err"
	run_sl history hj --db "$tmp/h.db" --since yesterday
	expect_eq "bad date" 2 "$rc"
	expect_match "bad date says" "--since 'yesterday' is not a date \(accepted: 2026-12-01, 2026-12-01T10:00" "$err"
	run_sl history hj --db "$tmp/h.db"
	expect_eq "too few" 2 "$rc"
	expect_match "too few says" "too few runs for the detector: job 'hj' has 4 runs, and it needs at least 10" "$err"
	run_sl history hj --db "$tmp/h.db" --alpha 2
	expect_eq "bad alpha" 2 "$rc"
	run_sl history hj --db "$tmp/h.db" --format html
	expect_eq "html without -o" 2 "$rc"
	run_sl history --db "$tmp/h.db"
	expect_eq "no job" 2 "$rc"
	run_sl history hj --db "$tmp/none.db"
	expect_eq "no database" 2 "$rc"
	[ ! -e "$tmp/none.db" ] || fail "history made a database"
}

# --format html writes DIR/index.html with the plot (gnuplot's svg) and
# the change point marked in the table.
test_history_html() {
	use_tmpdir
	hist_series "$tmp/h.db" 16 9 8
	run_sl history hj --db "$tmp/h.db" --format html -o "$tmp/page"
	expect_eq "exit ($err)" 0 "$rc"
	[ -s "$tmp/page/index.html" ] || fail "no index.html"
	grep -q 'class="change"><td colspan="7">change: +8' "$tmp/page/index.html" ||
		fail "no change row in the page"
	if command -v gnuplot >/dev/null; then
		grep -q '<svg' "$tmp/page/index.html" || fail "no svg in the page"
	else
		grep -q 'No plot: gnuplot is not installed' "$tmp/page/index.html" ||
			fail "the page does not say why it has no plot"
	fi
	# without gnuplot: the tables and the reason
	mkdir "$tmp/bin"
	for c in mktemp cat rm; do ln -s "$(command -v $c)" "$tmp/bin/$c"; done
	PATH=$tmp/bin run_sl history hj --db "$tmp/h.db" --format html -o "$tmp/bare"
	expect_eq "bare exit ($err)" 0 "$rc"
	grep -q 'No plot: gnuplot is not installed' "$tmp/bare/index.html" ||
		fail "the page does not say why it has no plot"
	! grep -q '<svg' "$tmp/bare/index.html" || fail "an svg without gnuplot"
}

# Real runs: a command job whose program sleeps 10 ms, then 80 ms from
# the sixth run on, stored by schedlab run; history finds the step
# between runs 5 and 6, and the judge line it prints for a commit
# series is one judge accepts (--by commit: the labels are commits).
# Another program's burst can hide a step in ten short runs: up to 2
# tries, and a miss on a machine that was quiet before a try fails.
real_series() {
	local i c
	rm -rf "$tmp/repo" "$tmp/h.db"
	commits=()
	git init -q "$tmp/repo"
	for ((i = 1; i <= 10; i++)); do
		git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "c$i"
		c=$(git -C "$tmp/repo" rev-parse --short=10 HEAD)
		commits+=("$c")
		echo 0.01 >"$tmp/nap"
		[ "$i" -ge 6 ] && echo 0.5 >"$tmp/nap"
		"$SCHEDLAB" run "$tmp/nap.job" --label "$c" --db "$tmp/h.db" -q \
			2>/dev/null || fail "run $i failed"
	done
}

# Ten real runs, one a commit, the program sleeping 10 ms in the first
# five and 500 ms from the sixth: a step no load can hide (starting a
# program on a loaded machine can take 100 ms and more), found between
# commits 5 and 6, and the judge line history prints placing the bad
# build as bad.
test_history_real_runs() {
	local line words commits
	use_tmpdir
	command -v git >/dev/null || skip "no git"
	# the time slept comes from a file, so every run is one case
	printf '[nap]\nworkload = command\nargv = sh -c "sleep $(cat %s)"\niterations = 5\nwarmup = 0\n' \
		"$tmp/nap" >"$tmp/nap.job"
	real_series
	run_sl history nap --db "$tmp/h.db" --min-size 3 --format json
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "one point, before run 6" "6" "$(jval "$out" '[.series[0].change_points[] | .bad_run] | join(" ")')"
	expect_eq "metric" "command.time" "$(jval "$out" .metric.name)"
	expect_eq "between" "${commits[4]} ${commits[5]}" \
		"$(jval "$out" '.series[0] as $s | $s.change_points[0].index as $i | "\($s.runs[$i - 1].label) \($s.runs[$i].label)"')"
	expect_eq "more than doubled" true "$(jval "$out" '.series[0].change_points[0].change_pct > 100')"
	cd "$tmp/repo"
	run_sl history nap --db "$tmp/h.db" --min-size 3 --by commit
	expect_eq "by commit exit ($err)" 0 "$rc"
	line=$(grep '^    git bisect run ' <<<"$out") || fail "no judge line: $out"
	expect_eq "judge line" "    git bisect run schedlab judge --good 5 --bad 6 --db $tmp/h.db $tmp/nap.job" "$line"
	# the line's judge, run as git bisect run would at the bad commit
	# (the build under test sleeping 500 ms): nearer bad, exit 1
	read -ra words <<<"${line#    git bisect run schedlab }"
	set +e
	"$SCHEDLAB" "${words[@]}" --label judged >/dev/null 2>"$tmp/judge.err"
	rc=$?
	set -e
	expect_eq "judge runs it ($(cat "$tmp/judge.err"))" 1 "$rc"
}

# PostgreSQL: the same series gives the same history as SQLite (the
# globs, --since and the kernel order included), and its errors.
test_history_postgresql() {
	local a b i
	pg_start
	hist_series "$tmp/h.db" 16 9 6 2 n h1
	hist_series "$tmp/h.db" 3 0 0 1 other h2
	for ((i = 1; i <= 19; i++)); do
		"$SCHEDLAB" export "$i" --db "$tmp/h.db" -o "$tmp/e.json" &&
			"$SCHEDLAB" import "$tmp/e.json" --db "$PGURL" >/dev/null ||
			fail "copy of run $i failed"
	done
	set -f	# the globs are history's
	for args in "" "--label n* --host h? --since 2026-11-01T03:00" "--by kernel --min-size 3" \
		    "--metric sched.migrations --min-size 3"; do
		# shellcheck disable=SC2086
		run_sl history hj --db "$tmp/h.db" --format json $args
		expect_eq "sqlite $args ($err)" 0 "$rc"
		a=$(jq -S 'del(.database)' <<<"$out")
		# shellcheck disable=SC2086
		run_sl history hj --db "$PGURL" --format json $args
		expect_eq "postgresql $args ($err)" 0 "$rc"
		b=$(jq -S 'del(.database)' <<<"$out")
		[ "$a" = "$b" ] || fail "history $args differs: $(diff <(echo "$a") <(echo "$b") | head -20)"
	done
	set +f
	run_sl history hj --db "$PGURL" --format json
	expect_eq "found the step" "9 9" "$(jval "$out" '[.series[] | .change_points[0].bad_run] | join(" ")')"
	run_sl history nojob --db "$PGURL"
	expect_eq "unknown job" 2 "$rc"
	expect_match "unknown job says" "no job 'nojob' in .* \(its jobs: hj\)$" "$err"
}
