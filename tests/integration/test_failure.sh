# SPDX-License-Identifier: GPL-2.0-only
#
# Runs that go wrong: a worker dies, the timeout passes, schedlab is
# interrupted or killed. Each must end with the right exit status, one
# line on stderr saying why, and no process left behind.

# Long enough never to finish by itself in a test; the timeout is only a
# safety net.
LONG="-g 1 -f 2 -l 1000000000 --timeout 60"

# expect_failed_run STATUS REGEX: after finish_sl: the exit status, one
# line on stderr matching REGEX, nothing on stdout (the runs here use
# --format json, which prints nothing for a failed run), nothing left.
expect_failed_run() {
	expect_eq "exit status" "$1" "$rc"
	expect_eq "stderr lines" 1 "$(nlines "$err")"
	expect_match "stderr" "$2" "$err"
	expect_eq "stdout" "" "$out"
	expect_group_empty "$wl_pid"
	expect_no_leftovers
}

# A worker killed mid-run: the reason names that worker and the signal,
# not what its death did to the others (a sender's write error, a
# receiver's closed channel). Receivers and senders, a few times over.
test_worker_killed_process_mode() {
	local i victim

	for i in 1 2 3 1 2 4 1 2; do
		start_sl bench messaging $LONG --format json
		wait_workers 4
		wait_started
		victim=$(sed -n ${i}p <<<"$workers")
		kill -KILL "$victim"
		finish_sl
		expect_failed_run 1 "^schedlab: messaging: .*worker.*\\(pid $victim\\).*killed by signal 9"
	done
}

test_worker_killed_pipe_ipc() {
	local victim

	# (--probes=off: over pipes the default, said without a warning)
	start_sl bench messaging $LONG -p --format json --probes=off
	wait_workers 4
	wait_started
	victim=$(sed -n 4p <<<"$workers")
	kill -KILL "$victim"
	finish_sl
	expect_failed_run 1 "worker.*\\(pid $victim\\).*killed by signal 9"
}

# The workload process killed: its workers die with it (PR_SET_PDEATHSIG)
# and the reason is its death.
test_workload_process_killed_process_mode() {
	start_sl bench messaging $LONG --format json
	wait_workers 4
	wait_started
	kill -KILL "$wl_pid"
	finish_sl
	expect_failed_run 1 '^schedlab: messaging: workload process killed by signal 9'
}

# A thread cannot be killed alone: kill the workload process itself.
test_workload_process_killed_thread_mode() {
	start_sl bench messaging $LONG -T --format json
	wait_workers 4 thread
	kill -KILL "$wl_pid"
	finish_sl
	expect_failed_run 1 "^schedlab: messaging: workload process killed by signal 9"
}

# Every worker dies before it reaches the start barrier (strace kills each
# at its first write(), the ready byte). The run must fail at once rather
# than wait for ready bytes that will never come: without --timeout it
# would hang forever. schedlab's own first write is its error message
# (strace kills it there too, after logging what it was about to say).
test_workers_dead_before_start_fail_fast() {
	local tr t0 secs msg killed

	tr=$(mktemp)
	t0=$EPOCHREALTIME
	set +e
	timeout -k 1 60 env "$NO_LSAN" strace -f -qq -s 256 -o "$tr" -e trace=write \
		-e inject=write:signal=KILL:when=1 \
		"$SCHEDLAB" bench messaging -g 1 -f 2 -l 1 --format json --probes=on --timeout 25 \
		>/dev/null 2>&1
	set -e
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	killed=$(grep -c '+++ killed by SIGKILL +++' "$tr" || true)
	# How many die depends on timing: the workload process's own first
	# write is the dead-worker byte of its SIGCHLD handler, so it may die
	# (and its workers with it) before it has forked all four.
	[ "$killed" -ge 2 ] || fail "strace killed $killed processes: the injection missed the workers"
	msg=$(grep -E '^[0-9]+ +write\(2,' "$tr" | head -n1)
	rm -f "$tr"
	awk -v s="$secs" 'BEGIN { exit !(s < 15) }' ||
		fail "took ${secs}s: the run waited for dead workers (until the timeout: $msg)"
	expect_match "reason" 'killed by signal 9' "$msg"
	expect_no_leftovers
}

test_timeout() {
	local mode

	for mode in process thread; do
		start_sl bench messaging -g 1 -f 2 -l 1000000000 --mode $mode \
			--timeout 1 --format json
		# on a loaded machine the second may pass before they all run
		wait_workers 4 $mode soft || true
		finish_sl
		expect_failed_run 1 '^schedlab: messaging: timed out after 1 s$'
		awk -v s="$secs" 'BEGIN { exit !(s >= 1 && s < 15) }' ||
			fail "--timeout 1 returned after ${secs}s ($mode)"
	done
	start_sl bench pipe -l 2000000000 --timeout 1
	wait_workers 1 process soft || true
	finish_sl
	expect_eq "pipe exit status" 1 "$rc"
	expect_match "pipe stderr" '^schedlab: pipe: timed out after 1 s$' "$err"
	expect_group_empty "$wl_pid"
	expect_no_leftovers
}

# SIGINT, SIGTERM, SIGHUP to schedlab: exit 130, nothing left.
test_interrupted() {
	local sig mode

	for sig in INT TERM HUP; do
		for mode in process thread; do
			start_sl bench messaging $LONG --mode $mode --format json
			wait_workers 4 $mode
			kill -$sig "$sl_pid"
			finish_sl
			expect_failed_run 130 "^schedlab: messaging: interrupted by SIG$sig\$"
		done
	done
	start_sl bench pipe -l 2000000000 -T
	wait_workers 2 thread
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "pipe exit status" 130 "$rc"
	expect_group_empty "$wl_pid"
	expect_no_leftovers
}

# Ctrl-C in a terminal signals the whole foreground process group.
test_ctrl_c_to_process_group() {
	set -m		# the background job gets a process group of its own
	start_sl bench messaging $LONG --format json
	set +m
	wait_workers 4
	wait_started
	kill -INT -- "-$sl_pid"
	finish_sl
	expect_failed_run 130 '^schedlab: messaging: interrupted by SIGINT$'
}

# nohup(1) starts a command with SIGHUP ignored; the hang-up must not stop
# the run then.
test_ignored_sighup_stays_ignored() {
	SL_SIGNALS=--ignore-signal=HUP start_sl bench messaging $LONG --format json
	wait_workers 4
	kill -HUP "$sl_pid"
	sleep 0.5
	kill -0 "$sl_pid" 2>/dev/null || {
		finish_sl
		fail "SIGHUP, ignored when schedlab started, ended the run: rc $rc: $err"
	}
	kill -TERM "$sl_pid"
	finish_sl
	expect_failed_run 130 'interrupted by SIGTERM$'
}

# schedlab killed outright: its workload process and all the workers die
# with it (PR_SET_PDEATHSIG), within a second or two.
test_schedlab_killed_takes_workers_along() {
	local mode

	for mode in process thread; do
		start_sl bench messaging $LONG --mode $mode --format json
		if [ $mode = process ]; then
			wait_workers 4
			wait_started
		else
			wait_workers 4 thread
		fi
		kill -KILL "$sl_pid"
		finish_sl
		expect_eq "exit status ($mode)" 137 "$rc"
		wait_gone 10 || fail "workers outlived schedlab ($mode): $(tagged_pids | tr '\n' ' ')"
		expect_group_empty "$wl_pid"
	done
	start_sl bench pipe -l 2000000000
	wait_workers 1
	kill -KILL "$sl_pid"
	finish_sl
	wait_gone 10 || fail "pipe workers outlived schedlab: $(tagged_pids | tr '\n' ' ')"
}

# pipe: the forked worker (worker 0) killed. The reason names it and
# SIGKILL - not the SIGPIPE or end-of-file its death causes in the other.
test_pipe_worker_killed() {
	local i victim

	for i in 1 2 3; do
		start_sl bench pipe -l 2000000000 --timeout 60 --format json
		wait_workers 1
		victim=$workers
		sleep 0.1
		kill -KILL "$victim"
		finish_sl
		expect_failed_run 1 "^schedlab: pipe: .*\\(pid $victim\\).*killed by signal 9"
	done
}

test_pipe_thread_mode_killed() {
	start_sl bench pipe -l 2000000000 -T --timeout 60 --format json
	wait_workers 2 thread
	kill -KILL "$wl_pid"
	finish_sl
	expect_failed_run 1 '^schedlab: pipe: workload process killed by signal 9'
}

# A worker that stops (SIGSTOP) is not dead: --timeout still ends the run
# and cleans up, stopped processes included.
test_stopped_worker_timeout() {
	start_sl bench messaging -g 1 -f 2 -l 1000000000 --timeout 2 --format json
	wait_workers 4
	wait_started
	kill -STOP $workers
	finish_sl
	expect_failed_run 1 'timed out after 2 s$'
}

# one_case_job FILE: one pipe case of about a second, long enough to
# take the database's lock while it runs.
one_case_job() {
	printf '[pp]\nworkload = pipe\nloops = 150000\niterations = 1\n' >"$1"
}

# wait_run_begun DB N: until DB holds N runs and the schedlab of
# start_sl has no child left (its case over: it is storing).
wait_case_over() {
	local tries=0

	while [ "$(sqlite3 "$1" 'SELECT count(*) FROM runs' 2>/dev/null)" != "$2" ] ||
	      pgrep -P "$sl_pid" >/dev/null; do
		kill -0 "$sl_pid" 2>/dev/null || fail "schedlab ended first: $(cat "$sl_errf")"
		tries=$((tries + 1))
		[ $tries -lt 400 ] || fail "the case did not end in 20 s"
		sleep 0.05
	done
}

# Ctrl-C while the last case waits for the database's lock: the case is
# stored once the lock comes, then the stop takes effect - exit 130 and
# the run partial, not 0 and complete (issue 12, defect 5).
test_ctrl_c_while_case_is_stored() {
	use_tmpdir
	one_case_job "$tmp/one.job"
	"$SCHEDLAB" run "$tmp/one.job" --db "$tmp/r.db" -q
	start_sl run "$tmp/one.job" --db "$tmp/r.db" -q
	wait_runs "$tmp/r.db" 2
	hold_lock "$tmp/r.db"
	wait_case_over "$tmp/r.db" 2
	kill -INT "$sl_pid"
	sleep 0.3
	release_lock
	finish_sl
	expect_eq "exit status" 130 "$rc"
	expect_match "stderr" "interrupted; the 1 finished case is kept" "$err"
	expect_eq "stored" "partial|1|1" "$(sqlite3 "$tmp/r.db" 'SELECT status, ended IS NOT NULL, (SELECT count(*) FROM cases WHERE run_id = 2) FROM runs WHERE id = 2')"
}

# Ctrl-C while the store waits for a lock that outlasts the busy timeout
# ($SCHEDLAB_BUSY_TIMEOUT_MS here): still exit 130 (not 1); the run,
# which could not be ended, reads as abandoned once schedlab is gone.
test_ctrl_c_while_lock_wait_fails() {
	use_tmpdir
	one_case_job "$tmp/one.job"
	"$SCHEDLAB" run "$tmp/one.job" --db "$tmp/r.db" -q
	SCHEDLAB_BUSY_TIMEOUT_MS=1500 start_sl run "$tmp/one.job" --db "$tmp/r.db" -q
	wait_runs "$tmp/r.db" 2
	hold_lock "$tmp/r.db"
	wait_case_over "$tmp/r.db" 2
	kill -INT "$sl_pid"
	finish_sl
	release_lock
	expect_eq "exit status" 130 "$rc"
	expect_eq "status read back" abandoned "$("$SCHEDLAB" show 2 --db "$tmp/r.db" --format json | jq -r .run.status)"
}

# The disk fills up in the middle of a run (a tmpfs filled by dd): the
# case cannot be stored, and the run's row still says how it ended,
# with an end time - not "running" (issue 12, defect 2).
test_disk_full_run_ends_honestly() {
	local mnt

	[ "$(id -u)" = 0 ] || skip "needs root (mounts a tmpfs)"
	use_tmpdir
	mnt=$tmp/mnt
	mkdir "$mnt"
	mount -t tmpfs -o size=8m tmpfs "$mnt" 2>/dev/null || skip "cannot mount a tmpfs"
	# shellcheck disable=SC2064
	trap "umount '$mnt'; rm -rf '$tmp'" EXIT
	one_case_job "$tmp/one.job"
	"$SCHEDLAB" run "$tmp/one.job" --db "$mnt/r.db" -q
	start_sl run "$tmp/one.job" --db "$mnt/r.db" -q
	wait_runs "$mnt/r.db" 2
	dd if=/dev/zero of="$mnt/fill" bs=64k 2>/dev/null || true
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_match "stderr" "full" "$err"
	expect_eq "stored" "failed|1|0" "$(sqlite3 "$mnt/r.db" 'SELECT status, ended IS NOT NULL, (SELECT count(*) FROM cases WHERE run_id = 2) FROM runs WHERE id = 2')"
}
