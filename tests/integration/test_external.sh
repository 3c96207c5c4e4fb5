# SPDX-License-Identifier: GPL-2.0-only
#
# External workloads: real programs (command, dbench, tbench, pgbench,
# sysbench) run briefly; what schedlab reports must be what the tool
# printed, and nothing may be left running or on disk afterwards.

# --- command ------------------------------------------------------------

# perf stat --null --repeat's block; every run at least as long as the
# sleep, and the mean that perf's line shows is the mean of the samples.
test_command_repeat() {
	local mean

	use_tmpdir
	use_ext_tmpdir
	run_sl bench -r 3 command -- sleep 0.05
	expect_eq "exit status ($err)" 0 "$rc"
	expect_match "header" "Performance counter stats for 'sleep 0.05' \\(3 runs\\):" "$out"
	expect_match "elapsed" "^ +0\\.[0-9]+ \\+- 0\\.[0-9]+ seconds time elapsed  \\( \\+- +[0-9.]+% \\)$" \
		"$(grep elapsed <<<"$out")"
	run_sl bench -r 3 command --format json -- sleep 0.05
	expect_eq "exit status ($err)" 0 "$rc"
	for s in $(jq -r '.metrics["command.time"].samples[]' <<<"$out"); do
		awk -v s="$s" 'BEGIN { exit !(s >= 0.05 && s < 2) }' ||
			fail "sample $s is not in [0.05, 2)"
	done
	mean=$(jq -r '[.metrics["command.time"].samples[]] | add / length' <<<"$out")
	approx "mean" "$mean" "$(jval "$out" '.metrics["command.time"].value')"
	expect_ext_clean
}

# The words after -- reach the program as they were: no shell between.
test_command_argv_verbatim() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench command --format json -- sh -c 'test "$1" = "a b*" && test $# = 1' sh 'a b*'
	expect_eq "exit status ($err)" 0 "$rc"
	run_sl bench command --shell --format json -- 'test "$(echo x | tr x y)" = y'
	expect_eq "shell: exit status ($err)" 0 "$rc"
}

test_command_missing_program() {
	use_tmpdir
	run_sl bench command -- no-such-program-here 1
	expect_eq "exit status" 2 "$rc"
	expect_match "message" "^schedlab: command: 'no-such-program-here' is not on PATH" "$err"
	run_sl bench command
	expect_eq "no argv: exit status" 2 "$rc"
	run_sl bench command --argv "'open quote"
	expect_eq "bad quoting: exit status" 2 "$rc"
	expect_match "bad quoting" "is not closed" "$err"
}

# A failing command fails the run, and says what it last printed.
test_command_fails() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench command -- sh -c 'echo first; echo the reason >&2; exit 3'
	expect_eq "exit status" 1 "$rc"
	expect_match "message" "exited with status 3; its last line: 'the reason'" "$err"
	expect_ext_clean
}

# The time limit kills the program and whatever it started.
test_command_timeout() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench command --timeout 1 -- sh -c 'sleep 30 & sleep 30'
	expect_eq "exit status" 1 "$rc"
	expect_match "message" "timed out after 1 s" "$err"
	expect_ext_clean
}

# argv in a job file; stored like a native workload's runs.
test_command_job() {
	use_tmpdir
	use_ext_tmpdir
	printf '[global]\niterations = 2\n[t]\nworkload = command\nargv = sh -c "exit 0"\n' >"$tmp/c.job"
	run_sl run "$tmp/c.job" --db "$tmp/c.db"
	expect_eq "exit status ($err)" 0 "$rc"
	expect_eq "runs stored" 1 "$(nruns "$tmp/c.db")"
	expect_ext_clean
}

