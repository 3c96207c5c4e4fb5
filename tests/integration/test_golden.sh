# SPDX-License-Identifier: GPL-2.0-only
# Outputs pinned: what show, compare (every layout and format), report,
# history and judge print for a fixed set of stored runs, byte for byte.
# A change in what a reader sees must be deliberate: a refactoring keeps
# every file here unchanged. After an intended change, regenerate with
#   GOLDEN_UPDATE=1 FILES=test_golden tests/run.sh build
# and review the diff of tests/fixtures/golden/expected/ before committing.
#
# The runs (tests/fixtures/golden/runs/, export documents of
# tests/fixtures/golden/golden.job: messaging swept over groups, pipe,
# compute with its workload table; monitors on) are seven real runs of
# 5 iterations, imported in the order made: base, cand, base, cand, base,
# base, base (cand pinned: cpus = 0). Runs 3-7 were stored without their
# latency histograms, to keep the fixture small; five runs of base give
# the host's noise model of each case.

golden_dir() { echo "$TOP/tests/fixtures/golden"; }

# golden_import: a fresh database holding runs 1-7.
golden_import() {
	local i f
	use_tmpdir
	for i in 1 2 3 4 5 6 7; do
		f=$tmp/r$i.json
		gunzip -c "$(golden_dir)/runs/r$i.json.gz" >"$f"
		"$SCHEDLAB" import "$f" >/dev/null || fail "import of r$i failed"
	done
}

# unsvg FILE: each SVG plot in FILE (gnuplot's, embedded in a page)
# becomes one line with the plot's checksum, so that the expected pages
# stay small and readable while a changed plot still fails.
unsvg() {
	local f=$1 n i sum
	n=$(awk -v d="$f.svg" '
		!on && /<svg/ { on = 1; n++; sub(/<svg.*/, "[svg " n "]"); print; next }
		on { print > (d n); if (/<\/svg>/) { on = 0; close(d n) }; next }
		{ print }
		END { print n + 0 > "/dev/stderr" }' "$f" 2>&1 >"$f.tmp")
	mv "$f.tmp" "$f"
	for ((i = 1; i <= n; i++)); do
		sum=$(sha256sum <"$f.svg$i" | cut -c1-16)
		sed -i "s|^\(.*\)\[svg $i\]\$|\1[svg $i: $(wc -l <"$f.svg$i") lines, sha256 $sum]|" "$f"
		rm -f "$f.svg$i"
	done
}

# expect_golden NAME FILE: FILE, with the test's directory written TMP
# and its plots as checksums, must equal expected/NAME (or become it
# under GOLDEN_UPDATE=1).
expect_golden() {
	local want
	sed -i "s|$tmp|TMP|g" "$2"
	unsvg "$2"
	want=$(golden_dir)/expected/$1
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$2" "$want"
		return 0
	fi
	[ -f "$want" ] || fail "no expected output $want (GOLDEN_UPDATE=1 makes it)"
	diff -u "$want" "$2" >&2 || fail "$1: the output changed (diff above)"
}

# golden NAME ARGS...: schedlab ARGS's standard output, standard error
# and exit status, as expect_golden.
golden() {
	local name=$1
	shift
	run_sl "$@"
	{
		printf '$ schedlab %s\n' "$*"
		printf '%s\n' "$out"
		[ -z "$err" ] || printf -- '--- stderr\n%s\n' "$err"
		printf -- '--- exit %s\n' "$rc"
	} >"$tmp/$name.got"
	expect_golden "$name" "$tmp/$name.got"
}

test_golden_show() {
	local f
	golden_import
	golden show-text show 1
	for f in mmtests wide grid raw workload; do
		golden "show-$f" show 3 --layout $f
	done
	golden show-markdown-wide show 3 --layout wide --format markdown
}

test_golden_compare() {
	local layout format
	golden_import
	for layout in mmtests variants wide grid raw workload; do
		for format in text markdown csv json; do
			golden "compare-$layout-$format" compare 1+3 2+4 \
				--layout $layout --format $format
		done
	done
	golden compare-one-run-a-side compare 1 2
	golden compare-a-a compare 1 3
	golden compare-a-a-json compare 1 5 --format json
	golden compare-unit-iteration compare 1 2 --unit iteration
	golden compare-metrics compare 1+3 2+4 --metrics 'sched.*,monitor.*'
	golden compare-by-host compare base cand --by host
	golden compare-by-host-json compare base cand --by host --format json
}

# The pages: with their plots, drawn by gnuplot.
test_golden_html() {
	local layout
	golden_import
	command -v gnuplot >/dev/null || skip "no gnuplot: the pages would have no plots"
	for layout in mmtests variants wide grid raw workload; do
		golden "compare-$layout-html" compare 1+3 2+4 --layout $layout --format html
	done
	# a metric without a direction gets no verdict, as in the text table
	golden compare-no-direction-html compare 1+3 2+4 --metric sched.migrations --format html
	! grep -E 'class="l">(inconclusive|regressed|improved|no change)</td><td class="l">no direction' \
		"$tmp/compare-no-direction-html.got" || fail "a direction-less metric given a verdict"
	grep -q '<tr class="v-none">' "$tmp/compare-no-direction-html.got" ||
		fail "no row without a verdict for sched.migrations"
	golden report report 1 2 -o "$tmp/report"
	expect_golden report-page "$tmp/report/index.html"
	golden history-html history msg --min-size 2 --format html -o "$tmp/history"
	expect_golden history-page "$tmp/history/index.html"
}

test_golden_history_and_judge() {
	golden_import
	golden history-text history msg --min-size 2
	golden history-json history msg --min-size 2 --format json
	golden noise-text noise
	golden noise-json noise msg --format json
	golden plan-text plan msg --effect 5%
	golden judge-baseline-json judge --baseline 1 --run 2 --format json
	golden judge-bisect-json judge --good 1 --bad 2 --run 4 --format json
	golden judge-text judge --baseline 1 --run 3
	golden judge-bisect-text judge --good 1 --bad 2 --run 4
	golden judge-label-json judge --baseline base --run cand --format json
}
