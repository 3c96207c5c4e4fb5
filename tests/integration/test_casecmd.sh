# SPDX-License-Identifier: GPL-2.0-only
#
# A command job's setup, before and cleanup keys and its workdir
# (harness/casecmd.c), and the kbuild suite built on them. The tiny
# shell commands write to a log in $tmp; what the log holds, in order,
# is what ran, and where.

# keys_job FILE ARGV [KEY = VALUE lines...]: a one-case command job.
keys_job() {
	local f=$1 argv=$2

	shift 2
	{
		printf '[k]\nworkload = command\nshell = true\nargv = %s\n' "$argv"
		printf '%s\n' "$@"
	} >"$f"
}

# Setup once before the warm-up, before before every iteration (warm-up
# included), cleanup once at the end; all in one temporary directory of
# the run, removed afterwards.
test_casecmd_order() {
	local log wd

	use_tmpdir
	use_ext_tmpdir
	log=$tmp/log
	keys_job "$tmp/k.job" "echo cmd \$PWD \$SCHEDLAB_WORKDIR >>$log" \
		'iterations = 2' 'warmup = 1' \
		"setup = echo setup \$PWD >>$log" \
		"before = echo before >>$log" \
		"cleanup = echo cleanup \$PWD >>$log"
	run_sl run "$tmp/k.job" --db "$tmp/k.db"
	expect_eq "exit status ($err)" 0 "$rc"
	wd=$(awk 'NR == 1 { print $2 }' "$log")
	expect_match "working directory" "^$tmp/t/schedlab-case\\.[0-9]+\\.[A-Za-z0-9]+$" "$wd"
	expect_eq "the log" "setup $wd
before
cmd $wd $wd
before
cmd $wd $wd
before
cmd $wd $wd
cleanup $wd" "$(cat "$log")"
	[ ! -e "$wd" ] || fail "$wd is still there"
	expect_eq "runs stored" 1 "$(nruns "$tmp/k.db")"
	expect_ext_clean
}

# The measured time holds the command, not before: a before that sleeps
# 2 s leaves command.time, that of /bin/true, below those 2 s (a margin
# no load eats).
test_casecmd_before_untimed() {
	local t

	use_tmpdir
	use_ext_tmpdir
	run_sl bench -r 2 command --format json --before 'sleep 2' -- true
	expect_eq "exit status ($err)" 0 "$rc"
	for t in $(jq -r '.metrics["command.time"].samples[]' <<<"$out"); do
		awk -v t="$t" 'BEGIN { exit !(t < 2) }' ||
			fail "command.time $t includes before's sleep"
	done
	expect_ext_clean
}

# A failing setup fails the case with its status and last stderr line;
# the command never runs; cleanup still does.
test_casecmd_setup_fails() {
	use_tmpdir
	use_ext_tmpdir
	keys_job "$tmp/k.job" "echo cmd >>$tmp/log" \
		"setup = echo noise; echo the setup reason >&2; exit 4" \
		"cleanup = echo cleanup >>$tmp/log"
	run_sl run "$tmp/k.job" --db "$tmp/k.db"
	expect_eq "exit status" 1 "$rc"
	expect_match "message" "setup exited with status 4; its last line: 'the setup reason'" "$err"
	expect_eq "the log" "cleanup" "$(cat "$tmp/log")"
	expect_ext_clean
}

# A failing before fails the iteration; a failing or timed-out command
# too; cleanup runs after each.
test_casecmd_cleanup_after_failure() {
	use_tmpdir
	use_ext_tmpdir
	keys_job "$tmp/b.job" "echo cmd >>$tmp/log" 'iterations = 3' \
		"before = echo before >>$tmp/log; echo no clean >&2; exit 5" \
		"cleanup = echo cleanup >>$tmp/log"
	run_sl run "$tmp/b.job" --db "$tmp/k.db"
	expect_eq "before: exit status" 1 "$rc"
	expect_match "before: message" "before exited with status 5; its last line: 'no clean'" "$err"
	expect_eq "before: the log" "before
cleanup" "$(cat "$tmp/log")"
	rm "$tmp/log"
	keys_job "$tmp/f.job" "echo cmd >>$tmp/log; exit 3" 'iterations = 3' \
		"cleanup = echo cleanup >>$tmp/log"
	run_sl run "$tmp/f.job" --db "$tmp/k.db"
	expect_eq "command: exit status" 1 "$rc"
	expect_eq "command: the log" "cmd
cleanup" "$(cat "$tmp/log")"
	rm "$tmp/log"
	keys_job "$tmp/t.job" "echo cmd >>$tmp/log; sleep 30" 'timeout = 1' \
		"cleanup = echo cleanup >>$tmp/log"
	run_sl run "$tmp/t.job" --db "$tmp/k.db"
	expect_eq "timeout: exit status" 1 "$rc"
	expect_match "timeout: message" "timed out after 1 s" "$err"
	expect_eq "timeout: the log" "cmd
cleanup" "$(cat "$tmp/log")"
	expect_ext_clean
}

# Ctrl-C in the middle of an iteration: the run stops (130), cleanup
# runs to its end in the working directory, which is then removed.
test_casecmd_cleanup_after_sigint() {
	local i

	use_tmpdir
	use_ext_tmpdir
	keys_job "$tmp/k.job" "echo cmd >>$tmp/log; sleep 30" 'iterations = 3' \
		"cleanup = sleep 0.3; echo cleanup \$PWD >>$tmp/log"
	start_sl run "$tmp/k.job" --db "$tmp/k.db"
	for i in $(seq 100); do
		grep -q cmd "$tmp/log" 2>/dev/null && break
		sleep 0.05
	done
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit status ($err)" 130 "$rc"
	expect_match "the log" "^cmd
cleanup $tmp/t/schedlab-case\\.[0-9]+\\.[A-Za-z0-9]+$" "$(cat "$tmp/log")"
	expect_ext_clean
}

# workdir: made if missing, where everything runs, kept afterwards. A
# value goes on over lines that end in a backslash.
test_casecmd_workdir() {
	local wd

	use_tmpdir
	use_ext_tmpdir
	wd=$tmp/work/sub
	keys_job "$tmp/k.job" "echo cmd \$PWD >>$tmp/log" 'iterations = 1' \
		"workdir = $wd" \
		"setup = echo setup \\" \
		"	\$PWD >>$tmp/log && touch made-by-setup"
	run_sl run "$tmp/k.job" --db "$tmp/k.db"
	expect_eq "exit status ($err)" 0 "$rc"
	expect_eq "the log" "setup $wd
cmd $wd" "$(cat "$tmp/log")"
	[ -e "$wd/made-by-setup" ] || fail "$wd was not kept"
	expect_ext_clean
}

# A command job with none of the keys runs where schedlab runs.
test_casecmd_none_runs_here() {
	use_tmpdir
	use_ext_tmpdir
	keys_job "$tmp/k.job" "pwd >$tmp/log" 'iterations = 1'
	(cd "$tmp" && run_sl run "$tmp/k.job" --db "$tmp/k.db" &&
		expect_eq "exit status ($err)" 0 "$rc")
	expect_eq "directory" "$tmp" "$(cat "$tmp/log")"
}

# kbuild: listed with seed 001, kernbench's sweep of make -jN, and an
# estimated time before any run.
test_casecmd_kbuild_dry_run() {
	use_tmpdir
	run_sl list suites
	expect_match "listed" "kbuild .*seed 001's kbuild" "$(grep kbuild <<<"$out")"
	SCHEDLAB_NCPU=4 run_sl run kbuild --dry-run --db "$tmp/none.db"
	expect_eq "exit status ($err)" 0 "$rc"
	expect_match "cases" "^# kbuild \\(built in\\): 3 cases, 9 iterations" "$out"
	expect_eq "sweep" "n=1 n=2 n=4" \
		"$(awk '$3 == "command" { print $4 }' <<<"$out" | xargs)"
	expect_match "estimate" "^estimated time: 27:00 \\(from the job's estimate" \
		"$(grep '^estimated' <<<"$out")"
	[ ! -e "$tmp/none.db" ] || fail "a dry run made the database"
}

# One real tinyconfig build: minutes, so only on request.
test_casecmd_kbuild_build() {
	local t

	[ "${SCHEDLAB_TEST_KBUILD:-}" = 1 ] ||
		skip "a kernel build takes minutes: set SCHEDLAB_TEST_KBUILD=1"
	compgen -G '/usr/src/linux-source-*.tar.xz' >/dev/null ||
		skip "no linux-source package"
	use_tmpdir
	use_ext_tmpdir
	run_sl run kbuild --set iterations=1 --set n=2 --db "$tmp/k.db"
	expect_eq "exit status ($err)" 0 "$rc"
	t=$("$SCHEDLAB" export 1 --db "$tmp/k.db" |
		jq -r '.cases[0].samples["command.time"][0]')
	awk -v t="$t" 'BEGIN { exit !(t > 5) }' ||
		fail "a kernel build took $t s"
	expect_ext_clean
}
