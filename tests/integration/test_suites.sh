# SPDX-License-Identifier: GPL-2.0-only
#
# Suites: the shipped ones are built into the binary and found from any
# directory, by any copy of it; a path always wins over a suite's name;
# $SCHEDLAB_JOBS adds suites and may replace a shipped one.

# The names of the job files in jobs/, one a line, sorted.
shipped_suites() {
	(cd "$TOP/jobs" && ls -- *.job | sed 's/\.job$//' | LC_ALL=C sort)
}

# The suite names a 'list suites' output gives under HEADING.
listed_under() {
	awk -v h="$1" '/^[^ ]/ { in_h = ($0 == h); next } in_h { print $1 }' <<<"$2" |
		LC_ALL=C sort
}

# expect_builtin_suites WHAT: schedlab (run as "$@") lists every jobs/
# file as a built-in suite with its first comment line, and runs quick.
expect_builtin_suites() {
	local what=$1 out want
	shift
	out=$(cd / && "$@" list suites) || fail "$what: list suites failed"
	want=$(shipped_suites)
	[ -n "$want" ] || fail "no job files in $TOP/jobs"
	expect_eq "$what: built-in suites" "$want" "$(listed_under "built in:" "$out")"
	expect_line "$what: quick's summary" '^  quick +The default suite' "$out"
	out=$(cd / && SCHEDLAB_NCPU=2 "$@" run quick --dry-run) ||
		fail "$what: run quick --dry-run failed"
	expect_match "$what: quick, built in" \
		'^# quick \(built in\): 13 cases, 65 iterations \+ 0 warm-up$' \
		"$(head -n 1 <<<"$out")"
	# the default suite, with no argument
	out=$(cd / && SCHEDLAB_NCPU=2 "$@" run --dry-run) ||
		fail "$what: run --dry-run failed"
	expect_match "$what: default suite" '^# quick \(built in\): 13 cases' \
		"$(head -n 1 <<<"$out")"
}

test_suites_from_root() {
	use_tmpdir
	expect_builtin_suites "from /" "$SCHEDLAB"
	# every shipped suite loads by name
	for s in $(shipped_suites); do
		(cd / && "$SCHEDLAB" run "$s" --dry-run >/dev/null) ||
			fail "suite $s does not load from /"
	done
}

# As after make install: a copy of the binary, away from the source tree.
test_suites_binary_copied_elsewhere() {
	use_tmpdir
	mkdir "$tmp/bin"
	cp "$SCHEDLAB" "$tmp/bin/schedlab"
	expect_builtin_suites "copied binary" "$tmp/bin/schedlab"
}

test_suites_path_wins() {
	use_tmpdir
	printf '; mine\n[p]\nworkload = pipe\nloops = 100\n' >"$tmp/quick"
	cp "$tmp/quick" "$tmp/quick.job"
	# a file named like the suite, in the working directory
	out=$(cd "$tmp" && "$SCHEDLAB" run quick --dry-run)
	expect_match "an existing file 'quick'" '^# quick \(quick\): 1 case, ' "$out"
	out=$(cd "$tmp" && "$SCHEDLAB" run quick.job --dry-run)
	expect_match "quick.job" '^# quick \(quick\.job\): 1 case, ' "$out"
	out=$("$SCHEDLAB" run "$tmp/quick.job" --dry-run)
	expect_match "a path" "^# quick \\($tmp/quick\\.job\\): 1 case, " "$out"
	# a path that is not there is never taken for the suite
	run_sl run "$tmp/none/quick.job" --dry-run
	expect_eq "a missing path: exit status" 2 "$rc"
	expect_match "a missing path: message" "cannot open '$tmp/none/quick\\.job'" "$err"
	# a directory named like a suite does not hide it
	mkdir "$tmp/d" "$tmp/d/quick"
	out=$(cd "$tmp/d" && "$SCHEDLAB" run quick --dry-run)
	expect_match "directory named quick" '^# quick \(built in\): ' "$out"
}

test_suites_schedlab_jobs_overrides() {
	use_tmpdir
	mkdir "$tmp/jobs"
	printf '; my quick\n[p]\nworkload = pipe\nloops = 100\n' >"$tmp/jobs/quick.job"
	printf '; my own suite\n[p]\nworkload = pipe\nloops = 100\n' >"$tmp/jobs/mine.job"
	out=$(cd / && SCHEDLAB_JOBS=$tmp/jobs "$SCHEDLAB" run quick --dry-run)
	expect_match "quick from SCHEDLAB_JOBS" "^# quick \\($tmp/jobs/quick\\.job\\): 1 case, " "$out"
	out=$(cd / && SCHEDLAB_JOBS=$tmp/jobs "$SCHEDLAB" run --dry-run)
	expect_match "the default from SCHEDLAB_JOBS" "^# quick \\($tmp/jobs/quick\\.job\\): 1 case, " "$out"
	# a shipped suite it does not replace is still there
	out=$(cd / && SCHEDLAB_JOBS=$tmp/jobs "$SCHEDLAB" run lkml-hackbench --dry-run)
	expect_match "lkml-hackbench, built in" '^# lkml-hackbench \(built in\): ' "$out"
	out=$(cd / && SCHEDLAB_JOBS=$tmp/jobs "$SCHEDLAB" list suites)
	expect_eq "SCHEDLAB_JOBS's suites" "$(printf 'mine\nquick')" \
		"$(listed_under "$tmp/jobs/:" "$out")"
	expect_line "its summary" '^  quick +my quick$' "$out"
	expect_eq "built in, less the replaced quick" \
		"$(shipped_suites | grep -vx quick)" "$(listed_under "built in:" "$out")"
	# a directory that is not there: only the built-in ones
	out=$(cd / && SCHEDLAB_JOBS=$tmp/nothere "$SCHEDLAB" list suites)
	expect_eq "SCHEDLAB_JOBS missing" "$(shipped_suites)" "$(listed_under "built in:" "$out")"
}

# A mistake in a built-in suite would be named as users see it; the
# unit tests make one (test_plan: test_text_suite_messages). Here: an
# unknown name says where to look.
test_suites_unknown_name() {
	use_tmpdir
	run_sl run nosuchsuite --dry-run
	expect_eq "exit status" 2 "$rc"
	expect_eq "stderr" "schedlab: no suite or job file 'nosuchsuite' (see 'schedlab list suites')" "$err"
}
