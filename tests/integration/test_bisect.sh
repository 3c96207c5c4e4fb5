# SPDX-License-Identifier: GPL-2.0-only
#
# The README's bisect recipe, live: git bisect run calls schedlab judge
# on each step's build of the demonstration repository
# (bench/bisect-repo.sh), with the good and bad builds kept aside and
# run beside it; and bad input to judge stops the bisection instead of
# marking commits. bench/bisect.sh measures the same recipe at 5% and 2%.

# bisect_needs: skips the test when the machine or this schedlab lacks
# what the recipe needs.
bisect_needs() {
	local t
	for t in git cc make jq; do
		command -v "$t" >/dev/null || skip "no $t"
	done
	"$SCHEDLAB" judge --help 2>&1 | grep -q -- '--good-set' ||
		skip "judge has no --good-set (the core of issue 13)"
}

# demo_repo N BAD SLOWDOWN: the demonstration repository in $tmp/repo
# with a program of about 10 ms, its BAD-th commit in $want, the good
# (first) and bad (last) builds in $tmp/good-prog and $tmp/bad-prog, and
# the recipe's job file in $tmp/prog.job; bisection started.
demo_repo() {
	want=$(WORK=5000000 "$TOP/bench/bisect-repo.sh" "$tmp/repo" "$1" "$2" "$3")
	expect_match "bad commit" '^[0-9a-f]{40}$' "$want"
	(
		cd "$tmp/repo"
		git checkout -q "main~$(($1 - 1))"
		make -s && cp prog "$tmp/good-prog"
		git checkout -q main
		make -s && cp prog "$tmp/bad-prog"
		git bisect start main "main~$(($1 - 1))"
	) >/dev/null
	printf '[prog]\nworkload = command\nargv = ./prog\ncpus = 0\n' >"$tmp/prog.job"
}

# bisect_run CMD: `git bisect run sh -c CMD` in $tmp/repo, with $SL, $DB
# and $T (the temporary directory) in CMD's environment; sets $rc, the
# output in $tmp/bisect.out and the marks in $marks (git bisect log's
# good, bad and skip lines). CMD is one line where git's message must
# be matched: git quotes it in that message.
bisect_run() {
	rc=0
	(
		cd "$tmp/repo"
		SL=$SCHEDLAB DB=$tmp/r.db T=$tmp git bisect run sh -c "$1"
	) >"$tmp/bisect.out" 2>&1 || rc=$?
	marks=$(git -C "$tmp/repo" bisect log | grep -E '^git bisect (good|bad|skip) ' || true)
}

# The recipe finds a slowdown at commit 5 of 8 exactly, and every step's
# run is stored under its commit. The slowdown is 4x, so that no burst
# of another program's load, which the interleaved rounds share between
# the three builds anyway, can make a good build look bad: this tests
# the recipe, not how small an effect it finds (bench/bisect.sh measures
# 5% and 2%, doc/statistics.md has the rates). The bisect mode can
# first call a build at 12 rounds (doc/statistics.md); 18 leaves one
# more look.
test_bisect_demo_finds_commit() {
	local ids id label nsteps ncand=0
	bisect_needs
	use_tmpdir
	demo_repo 8 5 300
	# shellcheck disable=SC2016
	bisect_run 'make -s || exit 125
		"$SL" judge --db "$DB" --good-set argv="$T/good-prog" \
			--bad-set argv="$T/bad-prog" --set argv=./prog \
			--max-iterations 18 "$T/prog.job"'
	expect_eq "git bisect run: exit" 0 "$rc"
	nsteps=$(nlines "$marks")
	grep -q "^$want is the first bad commit" "$tmp/bisect.out" ||
		fail "bisect did not name commit 5 ($want): $(tail -n 30 "$tmp/bisect.out")"
	[ "$nsteps" -ge 2 ] && [ "$nsteps" -le 4 ] ||
		fail "$nsteps steps for 6 candidates: $marks"
	# judge's own runs are labelled by git describe: a commit of the
	# repository; the references' by LABEL/good and LABEL/bad
	ids=$("$SCHEDLAB" list runs --db "$tmp/r.db" | awk 'NR > 1 { print $1 }')
	for id in $ids; do
		label=$("$SCHEDLAB" show "$id" --db "$tmp/r.db" --format json | jq -r .run.label)
		case $label in
		*/good|*/bad) continue ;;
		esac
		git -C "$tmp/repo" rev-parse -q --verify "$label^{commit}" >/dev/null ||
			fail "run $id: label '$label' is not a commit of the repository"
		ncand=$((ncand + 1))
	done
	expect_eq "runs of the builds under test" "$nsteps" "$ncand"
	git -C "$tmp/repo" bisect reset >/dev/null 2>&1 || true
	expect_no_leftovers
}

# Bad input to judge (an unknown baseline, an unknown option) exits 128,
# at which git bisect run stops with its abort message and marks nothing,
# instead of calling every commit bad.
test_bisect_bad_input_aborts() {
	bisect_needs
	use_tmpdir
	demo_repo 8 5 50
	# shellcheck disable=SC2016
	bisect_run 'make -s || exit 125; "$SL" judge --db "$DB" --baseline no-such-run "$T/prog.job"'
	expect_eq "unknown baseline: git bisect run's exit" 128 "$rc"
	expect_line "unknown baseline: git's abort message" \
		"^error: bisect run failed: exit code 128 from .* is < 0 or >= 128$" \
		"$(cat "$tmp/bisect.out")"
	expect_line "unknown baseline: judge's message" "no-such-run" "$(cat "$tmp/bisect.out")"
	expect_eq "unknown baseline: commits marked" "" "$marks"
	# shellcheck disable=SC2016
	bisect_run 'make -s || exit 125; "$SL" judge --db "$DB" --good-set argv="$T/good-prog" --no-such-option "$T/prog.job"'
	expect_eq "unknown option: git bisect run's exit" 128 "$rc"
	expect_line "unknown option: git's abort message" \
		"^error: bisect run failed: exit code 128 from .* is < 0 or >= 128$" \
		"$(cat "$tmp/bisect.out")"
	expect_eq "unknown option: commits marked" "" "$marks"
	git -C "$tmp/repo" bisect reset >/dev/null 2>&1 || true
}
