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

# The program's end is the end, even when something it left in the
# background holds its output open; what it left is killed.
test_command_background_child() {
	use_tmpdir
	use_ext_tmpdir
	start_sl bench command --format json -- sh -c 'sleep 30 & echo started'
	finish_sl
	expect_eq "exit status ($err)" 0 "$rc"
	# the child sleeps 30 s: waiting for it would take them all
	awk -v s="$secs" 'BEGIN { exit !(s < 20) }' || fail "took $secs s"
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

# marker_pids MARKER: the pids of processes whose command line holds
# MARKER (a string unique to one test).
marker_pids() {
	local d

	for d in /proc/[0-9]*; do
		grep -qF -- "$1" "$d/cmdline" 2>/dev/null && echo "${d#/proc/}"
	done
	return 0
}

# A child that calls setsid() leaves the process group that the end of a
# case kills (issue 12, defect 8): it must die with the case all the
# same, after --timeout and after a normal end. Whatever the outcome,
# the test kills what it started, found by a marker in its argv.
test_command_setsid_child_dies() {
	local marker=linger-$$-$RANDOM left

	use_tmpdir
	use_ext_tmpdir
	# shellcheck disable=SC2064
	trap "kill -9 \$(marker_pids '$marker') 2>/dev/null || :; rm -rf '$tmp'" EXIT
	run_sl bench command --timeout 1 -- \
		sh -c "setsid bash -c 'exec -a $marker-t sleep 300' & sleep 30"
	expect_eq "timeout: exit status ($err)" 1 "$rc"
	expect_match "timeout: message" "timed out after 1 s" "$err"
	left=$(marker_pids "$marker-t")
	[ -z "$left" ] || fail "timeout: the setsid child survived: $(ps -o pid,ppid,sid,args -p "$left")"
	run_sl bench command --format json -- \
		sh -c "setsid bash -c 'exec -a $marker-n sleep 300' & exit 0"
	expect_eq "normal end: exit status ($err)" 0 "$rc"
	left=$(marker_pids "$marker-n")
	[ -z "$left" ] || fail "normal end: the setsid child survived: $(ps -o pid,ppid,sid,args -p "$left")"
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

# --- dbench and tbench --------------------------------------------------

# tee_tool NAME: $tmp/bin/NAME runs the real NAME and keeps what it
# printed in $tmp/NAME.out, so that a test can read the tool's own line.
tee_tool() {
	local real
	real=$(command -v "$1")
	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\n"%s" "$@" >"%s" 2>&1\nrc=$?\ncat "%s"\nexit $rc\n' \
		"$real" "$tmp/$1.out" "$tmp/$1.out" >"$tmp/bin/$1"
	chmod +x "$tmp/bin/$1"
}

# its_line TOOL: the MB/sec of the Throughput line TOOL printed.
its_line() {
	awk '$1 == "Throughput" { print $2 }' "$tmp/$1.out"
}

# The figure schedlab reports is the one dbench printed for the same run.
test_dbench_reports_its_line() {
	local line

	use_tmpdir
	use_ext_tmpdir
	tee_tool dbench
	PATH=$tmp/bin:$PATH run_sl bench dbench -t 2 --clients 1 --format json
	expect_eq "exit status ($err)" 0 "$rc"
	line=$(its_line dbench)
	[ -n "$line" ] || fail "dbench printed no Throughput line: $(cat "$tmp/dbench.out")"
	approx "dbench.mbps" "$line" "$(jval "$out" '.metrics["dbench.mbps"].value')" 1e-12
	awk -v v="$line" 'BEGIN { exit !(v > 0) }' || fail "0 MB/sec"
	expect_eq "clients" 1 "$(jval "$out" '.metrics["dbench.clients"].value')"
	# the rusage of its tree is recorded
	jval "$out" '.metrics["rusage.nvcsw"].value' >/dev/null
	expect_ext_clean
}

test_tbench_reports_its_line() {
	local line

	use_tmpdir
	use_ext_tmpdir
	tee_tool tbench
	PATH=$tmp/bin:$PATH run_sl bench tbench -t 2 --clients 2
	expect_eq "exit status ($err)" 0 "$rc"
	line=$(grep '^Throughput' "$tmp/tbench.out")
	expect_eq "the line" "$line" "$out"
	expect_ext_clean
}

test_external_missing_binary() {
	local w
	use_tmpdir
	# only what run_sl itself needs
	mkdir "$tmp/empty"
	ln -s "$(command -v mktemp)" "$(command -v cat)" "$(command -v rm)" "$tmp/empty/"
	for w in dbench tbench; do
		PATH=$tmp/empty run_sl bench $w -t 2
		expect_eq "$w: exit status" 2 "$rc"
		expect_eq "$w: one line ($err)" 1 "$(nlines "$err")"
		expect_match "$w: message" "^schedlab: $w: '$w' is not on PATH; install the Debian package dbench" "$err"
	done
}

# A client killed mid-run: tbench does not check how its clients ended
# and prints a Throughput line for the others, but its last cleanup
# line still counts the dead one: the run fails (when tbench ends),
# saying so, and the server and the other client go.
test_tbench_client_killed() {
	local victim i

	use_tmpdir
	use_ext_tmpdir
	start_sl bench tbench -t 3 --clients 2 --format json
	wait_workers 2
	for i in $(seq 100); do
		victim=$(pgrep -g "$wl_pid" -x tbench | sort -n | sed -n 3p)
		[ -n "$victim" ] && break
		sleep 0.05
	done
	[ -n "$victim" ] || fail "no tbench clients"
	sleep 1		# running, not still preparing
	kill -KILL "$victim"
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_match "message" "^schedlab: tbench: tbench: 1 of its clients never finished" "$err"
	awk -v s="$secs" 'BEGIN { exit !(s < 15) }' || fail "took $secs s"
	expect_group_empty "$wl_pid"
	expect_ext_clean
}

# The time limit and Ctrl-C: dbench and its clients are killed, its
# directory removed.
test_dbench_timeout_and_interrupt() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench dbench -t 60 --clients 2 --timeout 2
	expect_eq "timeout: exit status" 1 "$rc"
	expect_match "timeout: message" "timed out after 2 s" "$err"
	expect_ext_clean

	start_sl bench dbench -t 60 --clients 2
	wait_workers 1
	sleep 1
	[ -n "$(ls -A "$tmp/t")" ] || fail "no dbench directory while it runs"
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "interrupt: exit status" 130 "$rc"
	expect_group_empty "$wl_pid"
	expect_ext_clean
}

# As root a run has its own network namespace; without one, a port 7003
# already taken is said before tbench starts.
test_tbench_port_in_use() {
	[ "$(id -u)" = 0 ] || skip "needs root (unshare -n)"
	use_tmpdir
	use_ext_tmpdir
	unshare -n bash -c '
		ip link set lo up || exit 3
		tbench_srv >/dev/null 2>&1 &
		srv=$!
		sleep 0.3
		"$1" bench tbench -t 2 --netns no
		rc=$?
		kill $srv
		exit $rc' _ "$SCHEDLAB" >"$tmp/o" 2>"$tmp/e" || rc=$?
	err=$(cat "$tmp/e")
	expect_eq "exit status ($err)" 1 "$rc"
	expect_match "message" "port 7003, which tbench_srv always listens on, is in use" "$err"
	expect_ext_clean
}

# --- pgbench on a throwaway cluster -----------------------------------

# pg_tee: $SCHEDLAB_PG_BINDIR is $tmp/pg, PostgreSQL's programs with
# pgbench replaced by tee_tool's wrapper: $tmp/pgbench.out keeps what
# the last pgbench (the run, after pgbench -i) printed.
pg_tee() {
	local real f
	real=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")
	mkdir -p "$tmp/pg"
	chmod 755 "$tmp" "$tmp/pg"	# postgres runs as another user
	for f in "$real"/*; do
		ln -s "$f" "$tmp/pg/"
	done
	rm "$tmp/pg/pgbench"
	PATH=$real:$PATH tee_tool pgbench
	mv "$tmp/bin/pgbench" "$tmp/pg/pgbench"
	export SCHEDLAB_PG_BINDIR=$tmp/pg
}

# The tps schedlab stores is the one pgbench printed; the cluster is made
# once (setup_s, a positive time, only in the first run; how long it
# takes is bench/'s to say), and nothing of it is left afterwards.
test_pgbench_reports_its_tps() {
	local line

	use_tmpdir
	use_ext_tmpdir
	pg_tee
	run_sl bench -r 2 pgbench -S -c 2 -T 1 --format json
	expect_eq "exit status ($err)" 0 "$rc"
	line=$(awk '$1 == "tps" { print $3 }' "$tmp/pgbench.out")
	[ -n "$line" ] || fail "no tps line: $(cat "$tmp/pgbench.out")"
	approx "pgbench.tps" "$line" "$(jval "$out" '.metrics["pgbench.tps"].samples[1]')" 1e-12
	expect_eq "scale" 1 "$(jval "$out" '.metrics["pgbench.scale"].value')"
	expect_eq "set up once" 1 "$(jq '[.metrics["pgbench.setup_s"].samples[] | select(. != null)] | length' <<<"$out")"
	local s
	s=$(jval "$out" '.metrics["pgbench.setup_s"].samples[0]')
	awk -v s="$s" 'BEGIN { exit !(s > 0) }' || fail "cluster set-up time: '$s'"
	expect_ext_clean
}

# Through a job file: the tps stored in the database (read back by
# export) is the one pgbench printed.
test_pgbench_job_stored() {
	local line

	use_tmpdir
	use_ext_tmpdir
	pg_tee
	printf '[global]\niterations = 1\n[p]\nworkload = pgbench\nmode = select-only\ntime = 1\n' >"$tmp/p.job"
	run_sl run "$tmp/p.job" --db "$tmp/p.db"
	expect_eq "exit status ($err)" 0 "$rc"
	run_sl export 1 --db "$tmp/p.db"
	expect_eq "export ($err)" 0 "$rc"
	line=$(awk '$1 == "tps" { print $3 }' "$tmp/pgbench.out")
	approx "stored pgbench.tps" "$line" "$(jval "$out" '.cases[0].samples["pgbench.tps"][0]')" 1e-12
	expect_ext_clean
}

# pgbench against a server of the user's (--conninfo, here a real
# PostgreSQL the test starts, not schedlab's child): the server's CPU,
# its backends' that served the run, is counted as the run's, not as
# another process's that made the machine busy; the run says so.
test_pgbench_conninfo_server_is_the_runs() {
	pg_start
	"$PG_BIN/pgbench" -i -s 1 -q -h "$PG_DIR" -p "$PG_PORT" -U schedlab schedlab \
		>/dev/null 2>&1 || fail "pgbench -i failed"
	cat >"$tmp/c.job" <<EOF
[global]
iterations = 1
warmup = 0
[c]
workload = pgbench
conninfo = host=$PG_DIR port=$PG_PORT user=schedlab dbname=schedlab
mode = select-only
clients = 2
time = 2
EOF
	run_sl run "$tmp/c.job" --db "$tmp/c.db" -q --label conn
	expect_eq "exit status ($err)" 0 "$rc"
	local doc pid
	doc=$("$SCHEDLAB" export conn --db "$tmp/c.db")
	pid=$(head -n 1 "$PG_DIR/data/postmaster.pid")
	expect_eq "the server" "postgres $pid" \
		"$(jval "$doc" '.environment.served_during_run.value.processes')"
	awk -v s="$(jval "$doc" '.environment.served_during_run.value.cpu_s')" \
		'BEGIN { exit !(s > 0.1) }' || fail "the server's CPU time: $(jq -c .environment.served_during_run <<<"$doc")"
	expect_match "show" "^served by +postgres $pid: [0-9.]+ s of CPU time, counted as the run's" \
		"$("$SCHEDLAB" show conn --db "$tmp/c.db" | grep '^served by')"
}

test_pgbench_bad_options() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench pgbench --db-size 22XB
	expect_eq "bad size: exit status" 2 "$rc"
	expect_match "bad size" "option --db-size '22XB' is not a size" "$err"
	run_sl bench pgbench --db-size 100TB
	expect_eq "too big: exit status" 2 "$rc"
	expect_match "too big" "scale 6721641 \\(--db-size 100TB\\) needs about [0-9]+ MB on .*, which has [0-9]+ MB free" "$err"
	run_sl bench pgbench --db-size 22MB -s 3
	expect_eq "both: exit status" 2 "$rc"
	mkdir "$tmp/nopg"
	SCHEDLAB_PG_BINDIR=$tmp/nopg run_sl bench pgbench
	expect_eq "missing: exit status" 2 "$rc"
	expect_match "missing" "install the Debian packages postgresql postgresql-contrib" "$err"
	expect_ext_clean
}

# A server process killed mid-run: pgbench's clients abort, the run
# fails saying what pgbench said, and postgres and its directory go.
test_pgbench_backend_killed() {
	local victim i killed

	use_tmpdir
	use_ext_tmpdir
	start_sl bench pgbench -S -c 2 -T 120 --format json
	# past the load (pgbench -i): the run's pgbench is up
	for i in $(seq 400); do
		for p in $(tool_pids); do
			grep -qa select-only "/proc/$p/cmdline" 2>/dev/null && break 2
		done
		sleep 0.05
	done
	sleep 0.5
	for i in $(seq 200); do
		victim=
		for p in $(cwd_pids "$tmp/t"); do
			grep -qa "schedlab postgres" "/proc/$p/cmdline" 2>/dev/null &&
				victim=$p && break
		done
		[ -n "$victim" ] && break
		sleep 0.05
	done
	[ -n "$victim" ] || fail "no postgres backend of the run"
	kill -KILL "$victim"
	killed=$EPOCHREALTIME
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_match "message" "^schedlab: pgbench: pgbench exited with status 2" "$err"
	# ended by the kill, not by -T 120 (a minute's margin for a loaded
	# machine's slow exit)
	awk -v k="$killed" -v n="$EPOCHREALTIME" 'BEGIN { exit !(n - k < 60) }' ||
		fail "ran on for $(awk -v k="$killed" -v n="$EPOCHREALTIME" 'BEGIN { print n - k }') s after its backend was killed"
	expect_ext_clean
}

# Ctrl-C, or the time limit, while the cluster serves: all gone.
test_pgbench_interrupted() {
	use_tmpdir
	use_ext_tmpdir
	start_sl bench pgbench -S -c 1 -T 20
	for i in $(seq 200); do
		[ -n "$(tool_pids | xargs -r ps -o comm= -p | grep pgbench)" ] && break
		sleep 0.05
	done
	sleep 0.5
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit status" 130 "$rc"
	expect_ext_clean

	# the time limit passes while pgbench runs
	run_sl bench pgbench -S -c 1 -T 20 --timeout 3
	expect_eq "timeout: exit status" 1 "$rc"
	expect_match "timeout: message" "timed out after 3 s" "$err"
	expect_ext_clean
}

# --- sysbench -------------------------------------------------------------

# OLTP through the pgsql driver on the throwaway cluster: the tps stored
# is the one sysbench printed; the tables are prepared once.
test_sysbench_oltp_reports_its_tps() {
	local line

	use_tmpdir
	use_ext_tmpdir
	tee_tool sysbench
	PATH=$tmp/bin:$PATH run_sl bench sysbench --test oltp_read_only --threads 2 --time 1 --table-size 1000 --format json
	expect_eq "exit status ($err)" 0 "$rc"
	line=$(sed -n 's/.*transactions: *[0-9]* *(\([0-9.]*\) per sec.)/\1/p' "$tmp/sysbench.out")
	[ -n "$line" ] || fail "no transactions line: $(cat "$tmp/sysbench.out")"
	approx "sysbench.tps" "$line" "$(jval "$out" '.metrics["sysbench.tps"].value')" 1e-12
	approx "headline" "$line" "$(jval "$out" '.metrics["sysbench.events_per_sec"].value')" 1e-12
	expect_ext_clean
}

# threads needs no server; its rate is events / total time, both printed.
test_sysbench_threads() {
	local ev tt

	use_tmpdir
	use_ext_tmpdir
	tee_tool sysbench
	PATH=$tmp/bin:$PATH run_sl bench sysbench --test threads --threads 2 --time 1 --format json
	expect_eq "exit status ($err)" 0 "$rc"
	ev=$(awk '/total number of events:/ { print $5 }' "$tmp/sysbench.out")
	tt=$(awk '/total time:/ { sub("s", "", $3); print $3 }' "$tmp/sysbench.out")
	approx "events/s" "$(awk -v e="$ev" -v t="$tt" 'BEGIN { printf "%.9f", e / t }')" \
		"$(jval "$out" '.metrics["sysbench.events_per_sec"].value')" 1e-6
	expect_ext_clean

	mkdir "$tmp/empty"
	ln -s "$(command -v mktemp)" "$(command -v cat)" "$(command -v rm)" "$tmp/empty/"
	PATH=$tmp/empty run_sl bench sysbench --test cpu
	expect_eq "missing: exit status" 2 "$rc"
	expect_match "missing" "install the Debian package sysbench" "$err"
}

# The directories of a schedlab killed with SIGKILL (nothing could clean
# up) are removed by the next external run; others' are left alone.
test_stale_directories_swept() {
	local dead

	use_tmpdir
	use_ext_tmpdir
	sleep 0 & dead=$!
	wait $dead
	mkdir -p "$tmp/t/schedlab-pg.$dead.abcdef/data" "$tmp/t/schedlab-dbench.$$.abcdef" \
		"$tmp/t/schedlab-x.$dead.ab"
	touch "$tmp/t/schedlab-pg.$dead.abcdef/data/f"
	run_sl bench sysbench --test cpu --time 1
	expect_eq "exit status ($err)" 0 "$rc"
	[ ! -e "$tmp/t/schedlab-pg.$dead.abcdef" ] || fail "a dead schedlab's directory is still there"
	[ -e "$tmp/t/schedlab-dbench.$$.abcdef" ] || fail "a live process's directory was removed"
	[ -e "$tmp/t/schedlab-x.$dead.ab" ] || fail "a directory not named as schedlab's was removed"
	rm -r "$tmp/t/schedlab-dbench.$$.abcdef" "$tmp/t/schedlab-x.$dead.ab"
	expect_ext_clean
}

# A server that does not start: one clear line, nothing left.
test_server_fails_to_start() {
	use_tmpdir
	use_ext_tmpdir
	pg_tee
	rm "$tmp/pg/postgres"
	printf '#!/bin/sh\necho "FATAL:  could not do what a server does"\nexit 1\n' >"$tmp/pg/postgres"
	chmod 755 "$tmp/pg/postgres"
	run_sl bench pgbench -S -T 1
	expect_eq "postgres: exit status" 1 "$rc"
	expect_eq "postgres: one line ($err)" 1 "$(nlines "$err")"
	expect_match "postgres: message" "postgres did not start: 'FATAL:  could not do what a server does'" "$err"
	expect_ext_clean

	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\necho listen failed\nexit 1\n' >"$tmp/bin/tbench_srv"
	chmod 755 "$tmp/bin/tbench_srv"
	PATH=$tmp/bin:$PATH run_sl bench tbench -t 2
	expect_eq "tbench_srv: exit status" 1 "$rc"
	expect_match "tbench_srv: message" "tbench_srv ended as it started \\(status 1\\)" "$err"
	expect_ext_clean
}
