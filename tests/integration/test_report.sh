# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab report and compare --format html: real tiny runs (messaging,
# two group counts, latency histograms), the page opened in headless
# chromium - no console message, the expected tables and plots, a
# screenshot - the fallback without gnuplot, PNG files, bad input.

# report_runs DB: two runs, base and cand, of a 2-value messaging sweep.
report_runs() {
	printf '[msg]\nworkload = messaging\ngroups = 1,2\nloops = 20\niterations = 3\nprobes = on\n' >"$tmp/m.job"
	for l in base cand; do
		run_sl run "$tmp/m.job" --db "$1" -q --label "$l"
		expect_eq "run $l" 0 "$rc"
	done
}

need_chromium() {
	command -v chromium >/dev/null || skip "no chromium (apt-get install chromium)"
}

need_gnuplot() {
	command -v gnuplot >/dev/null || skip "no gnuplot (apt-get install gnuplot-nox)"
}

# browse PAGE: sets $dom (chromium's DOM of PAGE after loading it) and
# $console (the page's console messages in chromium's log).
browse() {
	local log="$tmp/chromium.log"
	dom=$(timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium-profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" 2>"$log") || fail "chromium --dump-dom failed: $(tail -n 5 "$log")"
	console=$(grep 'CONSOLE' "$log" || true)
}

# count TAG: the <TAG> elements in $dom.
count() {
	grep -o "<$1[ >]" <<<"$dom" | wc -l
}

# The page of two runs: no script and no console message in a real
# browser, one table of runs, per job the mmtests and change tables,
# CPU time and environments (+ the moved metrics when any moved); a
# plot over the sweep, a latency CDF per sweep value (+ the bar chart);
# a screenshot that is a PNG.
test_report_page_in_browser() {
	local page tables svgs moved
	use_tmpdir
	need_chromium
	need_gnuplot
	report_runs "$tmp/r.db"
	run_sl report base cand --db "$tmp/r.db" -o "$tmp/out"
	expect_eq "report exit" 0 "$rc"
	expect_eq "report stderr" "" "$err"
	page="$tmp/out/index.html"
	[ -s "$page" ] || fail "no $page"
	expect_eq "scripts in the page" 0 "$(grep -ci '<script' "$page" || true)"
	grep -q 'http' <(grep -o '\(src\|href\)="[^"]*"' "$page") &&
		fail "the page loads something: $(grep -o '\(src\|href\)="http[^"]*"' "$page")"
	# the check below sees a console message when there is one
	printf '<html><body><script>console.error("boom")</script></body></html>' >"$tmp/bad.html"
	browse "$tmp/bad.html"
	expect_match "chromium logs a console message" 'boom' "$console"

	browse "$page"
	expect_eq "console messages" "" "$console"
	moved=$(run_sl compare base cand --db "$tmp/r.db" --format json &&
		jq '[.jobs[].cases[].runs[].explain // [] | .[] | select(.change_pct != null)] | length' <<<"$out")
	tables=5 svgs=3
	[ "$moved" -gt 0 ] && tables=6 svgs=4
	expect_eq "tables" "$tables" "$(count table)"
	expect_eq "plots" "$svgs" "$(count svg)"
	expect_match "job heading" '<h2 id="job0">msg by groups: messaging.time' "$dom"
	expect_match "CDF title" 'msg groups=2: latency CDF' "$dom"
	expect_match "environment heading" '<h2>Environments</h2>' "$dom"

	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium-profile" --screenshot="$tmp/shot.png" \
		--window-size=1200,3000 "file://$page" >/dev/null 2>&1 || fail "chromium --screenshot failed"
	[ -s "$tmp/shot.png" ] || fail "no screenshot"
	expect_eq "screenshot is a PNG" "89504e47" "$(head -c 4 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')"
	if [ -n "${REPORT_SHOT:-}" ]; then cp "$tmp/shot.png" "$REPORT_SHOT"; fi
}

# Runs with monitors: a timeline per case, the runs side by side (a
# heatmap of the CPUs and the run queue each), in a real browser; runs
# without monitors have none.
test_report_timelines() {
	use_tmpdir
	need_chromium
	need_gnuplot
	printf '[msg]\nworkload = messaging\ngroups = 1\nloops = 200\niterations = 3\nmonitors = cpu,runq\nmonitor_interval = 20ms\n' >"$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q --label base
	expect_eq "run base" 0 "$rc"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q --label pinned --set cpus=0
	expect_eq "run pinned" 0 "$rc"
	run_sl report base pinned --db "$tmp/r.db" -o "$tmp/out"
	expect_eq "report exit ($err)" 0 "$rc"
	browse "$tmp/out/index.html"
	expect_eq "console messages" "" "$console"
	expect_match "timelines heading" '<h3>Timelines</h3>' "$dom"
	expect_match "timeline title" 'msg: CPUs busy and run queue over time' "$dom"
	expect_match "run-queue panel" 'run-queue length \(runq.running\)' "$dom"
	expect_match "a CPU row" '>cpu0<' "$dom"
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium-profile" --screenshot="$tmp/shot.png" \
		--window-size=1100,2600 "file://$tmp/out/index.html" >/dev/null 2>&1 || fail "chromium --screenshot failed"
	expect_eq "screenshot is a PNG" "89504e47" "$(head -c 4 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')"
	if [ -n "${REPORT_SHOT:-}" ]; then cp "$tmp/shot.png" "$REPORT_SHOT"; fi
	# without monitors: no timeline
	report_runs "$tmp/plain.db"
	run_sl report base cand --db "$tmp/plain.db" -o "$tmp/plain"
	expect_eq "plain report exit" 0 "$rc"
	grep -q 'Timelines' "$tmp/plain/index.html" && fail "a timeline without monitors"
	return 0
}

# Without gnuplot in PATH: one warning, the tables, a note where the
# plots would be saying how to get them, no <svg>.
test_report_without_gnuplot() {
	local page
	use_tmpdir
	report_runs "$tmp/r.db"
	mkdir "$tmp/bin"
	# what run_sl itself needs, and no gnuplot
	for t in mktemp cat rm; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
	PATH="$tmp/bin" run_sl report base cand --db "$tmp/r.db" -o "$tmp/out"
	expect_eq "exit" 0 "$rc"
	expect_eq "one warning" "schedlab: warning: report: no gnuplot in PATH: the page has its tables but no plots (apt-get install gnuplot-nox)" "$err"
	page=$(cat "$tmp/out/index.html")
	expect_eq "svg" 0 "$(grep -c '<svg' <<<"$page" || true)"
	expect_match "how to get the plots" 'gnuplot is not installed here.*apt-get install gnuplot-nox' "$page"
	expect_match "the tables" '<td class="l">Amean</td>' "$page"
	[ "$(grep -c 'class="noplot"' <<<"$page")" -ge 2 ] || fail "fewer than 2 notes where plots would be"
}

# --format png: the plots as PNG files beside an index.html showing them.
test_report_png_files() {
	local imgs n=0
	use_tmpdir
	need_gnuplot
	report_runs "$tmp/r.db"
	run_sl report base cand --db "$tmp/r.db" -o "$tmp/out" --format png
	expect_eq "exit" 0 "$rc"
	imgs=$(grep -o '<img src="[^"]*"' "$tmp/out/index.html" | sed 's/.*src="//; s/"$//')
	for f in $imgs; do
		[ -s "$tmp/out/$f" ] || fail "missing $f"
		expect_eq "$f is a PNG" "89504e47" "$(head -c 4 "$tmp/out/$f" | od -An -tx1 | tr -d ' \n')"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "expected at least 3 PNGs (sweep, 2 CDFs), got $n"
	expect_eq "no svg" 0 "$(grep -c '<svg' "$tmp/out/index.html" || true)"
	expect_eq "no temporary directory left" "" "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'schedlab-plot.*' -newer "$tmp/m.job" 2>/dev/null)"
}

# The page a reviewer mails, read in a real browser: one run a side (no
# interval), a zero baseline (a pinned run migrates nothing), every
# metric, monitors on; no nan, inf, raw JSON (the environments) or float
# artifact anywhere in it, plots' labels included.
test_report_page_readable() {
	local l
	use_tmpdir
	need_chromium
	need_gnuplot
	# loops = 200: enough that the free run migrates in every iteration
	# on a busy machine (lkp's rule needs its least above pin's zero)
	printf '[msg]\nworkload = messaging\ngroups = 1,2\nloops = 200\niterations = 3\nprobes = on\nmonitors = cpu,runq\nmonitor_interval = 20ms\n' >"$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q --label pin --set cpus=0
	expect_eq "run pin ($err)" 0 "$rc"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q --label free
	expect_eq "run free ($err)" 0 "$rc"
	for l in pin free; do
		run_sl report $l --db "$tmp/r.db" -o "$tmp/$l"
		expect_eq "report $l ($err)" 0 "$rc"
		browse "$tmp/$l/index.html"
		readable "report $l" "$dom"
	done
	run_sl report pin free --db "$tmp/r.db" -o "$tmp/out"
	expect_eq "report pin free ($err)" 0 "$rc"
	browse "$tmp/out/index.html"
	expect_eq "console messages" "" "$console"
	expect_match "the environments" '<h2>Environments</h2>' "$dom"
	expect_match "a zero baseline shown" 'sched\.migrations' "$dom"
	readable "report pin free" "$dom"
	if [ -n "${REPORT_SHOT:-}" ]; then
		timeout 120 chromium --headless --no-sandbox --disable-gpu \
			--user-data-dir="$tmp/chromium-profile" --screenshot="$REPORT_SHOT" \
			--window-size=1200,3000 "file://$tmp/out/index.html" >/dev/null 2>&1 || true
	fi
}

# A case without a sweep, every monitor on, in a real browser: its plot
# a box per run named on the x axis (not a "case" axis with one "-"
# tick), a timeline for every monitor sampled, and each table's header
# saying which sign convention it uses (the moved metrics' raw change
# says that it differs from the comparison's).
test_report_plots_and_conventions() {
	local svg m names shown=0
	use_tmpdir
	need_chromium
	need_gnuplot
	printf '[one]\nworkload = messaging\ngroups = 1\nloops = 20\niterations = 3\nprobes = on\n' >"$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q --label pin --set cpus=0 --monitor all --monitor-interval 20ms
	expect_eq "run pin ($err)" 0 "$rc"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q --label free --monitor all --monitor-interval 20ms
	expect_eq "run free ($err)" 0 "$rc"
	run_sl report pin free --db "$tmp/r.db" -o "$tmp/out"
	expect_eq "report ($err)" 0 "$rc"
	browse "$tmp/out/index.html"
	expect_eq "console messages" "" "$console"
	# the first plot: the runs on the x axis, each a tick of its name
	svg=$(awk '/<svg/ { on = 1 } on { print } /<\/svg>/ { exit }' <<<"$dom")
	expect_match "the x axis" '>run</' "$svg"
	expect_match "pin's tick" '>pin</' "$svg"
	expect_match "free's tick" '>free</' "$svg"
	grep -qE '>(case|-)</' <<<"$svg" && fail "a case axis or a - tick: $(grep -oE '>(case|-)</' <<<"$svg" | head -3)"
	# every monitor the runs sampled has a timeline
	run_sl export 1 --db "$tmp/r.db" -o "$tmp/pin.json"
	names=$(jq -r '.cases[0].monitors | keys[]' "$tmp/pin.json")
	[ -n "$names" ] || fail "no monitor sampled"
	for m in $names; do
		case $m in
		cpu|runq) expect_match "$m's timeline" 'CPUs busy and run queue over time' "$dom" ;;
		*) expect_match "$m's timeline" "monitor $m over time" "$dom"; shown=$((shown + 1)) ;;
		esac
	done
	[ "$shown" -ge 2 ] || fail "only $shown monitors besides cpu and runq: $names"
	# each table's header states its sign convention
	expect_match "the mmtests table" '<th class="l">\(%: \+ is better\)</th>' "$dom"
	expect_match "the change table" '<th>change \(median; \+ is better\)</th>' "$dom"
	expect_match "the moved table" '<th>change \(\+ is more\)</th>' "$dom"
	expect_match "the moved table says it differs" 'unlike the tables above, where \+ is better' "$dom"
	if [ -n "${REPORT_SHOT:-}" ]; then
		timeout 120 chromium --headless --no-sandbox --disable-gpu \
			--user-data-dir="$tmp/chromium-profile" --screenshot="$REPORT_SHOT" \
			--window-size=1200,2400 "file://$tmp/out/index.html" >/dev/null 2>&1 || true
	fi
}

# One run alone: its own report, no change table; compare --format html
# the same page on stdout; judge's tables-only page.
test_report_one_run_and_compare_html() {
	use_tmpdir
	report_runs "$tmp/r.db"
	run_sl report base --db "$tmp/r.db" -o "$tmp/one"
	expect_eq "one run" 0 "$rc"
	grep -q 'change (median)' "$tmp/one/index.html" && fail "a change table for one run"
	grep -q '<td class="l">Amean</td>' "$tmp/one/index.html" || fail "no summary table"
	run_sl compare base cand --db "$tmp/r.db" --format html
	expect_eq "compare exit" 0 "$rc"
	expect_match "a page" '^<!DOCTYPE html>' "$out"
	expect_match "the change table" '95% interval' "$out"
	expect_match "the end" '</html>$' "$out"
}

# Bad input says which option and exits 2.
test_report_bad_input() {
	use_tmpdir
	run_sl report 1 --db "$tmp/none.db"
	expect_eq "no -o" 2 "$rc"
	expect_match "names -o" '-o/--output DIR is required' "$err"
	run_sl report 1 -o "$tmp/x" --format pdf
	expect_eq "bad format" 2 "$rc"
	expect_match "names the choices" 'html' "$err"
	: >"$tmp/file"
	run_sl report 1 -o "$tmp/file"
	expect_eq "-o a file" 2 "$rc"
	expect_match "says so" "not a directory" "$err"
}

# Stopped while gnuplot draws (a gnuplot that never finishes): gnuplot
# is killed, the temporary directory removed, and report ends by the
# signal.
test_report_stopped_removes_its_directory() {
	local pid i
	use_tmpdir
	report_runs "$tmp/r.db"
	mkdir "$tmp/bin" "$tmp/tmp"
	printf '#!/bin/sh\necho $$ >"%s/started"\nexec sleep 60\n' "$tmp" >"$tmp/bin/gnuplot"
	chmod +x "$tmp/bin/gnuplot"
	PATH="$tmp/bin:$PATH" TMPDIR="$tmp/tmp" "$SCHEDLAB" report base cand \
		--db "$tmp/r.db" -o "$tmp/out" 2>"$tmp/err" &
	pid=$!
	for i in $(seq 100); do
		[ -e "$tmp/started" ] && break
		sleep 0.1
	done
	[ -e "$tmp/started" ] || fail "gnuplot never started"
	expect_eq "its directory while it draws" 1 "$(ls "$tmp/tmp" | wc -l)"
	kill -TERM "$pid"
	set +e
	wait "$pid"
	rc=$?
	set -e
	expect_eq "ended by SIGTERM" 143 "$rc"
	expect_eq "directory left" "" "$(ls "$tmp/tmp")"
	expect_match "says why" 'report: stopped by Terminated' "$(cat "$tmp/err")"
	# killed and waited for before report ended: not even a zombie
	kill -0 "$(cat "$tmp/started")" 2>/dev/null && fail "gnuplot left running"
	true
}

# A table layout with --format html says what html is instead.
test_report_html_refuses_a_table_layout() {
	use_tmpdir
	printf '[m]\nworkload = command\nargv = true\niterations = 2\n' >"$tmp/t.job"
	"$SCHEDLAB" run "$tmp/t.job" --db "$tmp/r.db" --label a -q 2>/dev/null
	"$SCHEDLAB" run "$tmp/t.job" --db "$tmp/r.db" --label b -q 2>/dev/null
	run_sl compare a b --db "$tmp/r.db" --layout variants --format html
	expect_eq "exit" 2 "$rc"
	expect_match "why" "^schedlab: compare: --layout variants is a table for text or markdown; --format html draws its own tables and plots \(use --layout mmtests\)$" "$err"
}
