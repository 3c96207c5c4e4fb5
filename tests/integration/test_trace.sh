# SPDX-License-Identifier: GPL-2.0-only
# Tracing hooks (src/trace/): perf-sched where perf can record here, and
# its absent paths (no perf on PATH, perf refused by an injected EACCES);
# a generic command started and stopped with each iteration or case, its
# output kept, nothing of it left after a run, an interrupted run or a
# killed one; bad input. Nothing here asserts a timing.

# tracer_pids: this test's tracer processes still alive - keepers, perf,
# and the shells and sleeps of its trace commands (they carry the tag).
tracer_pids() {
	local f pid
	for f in $(grep -lsxzF "SCHEDLAB_TEST_TAG=$SCHEDLAB_TEST_TAG" \
		   /proc/[0-9]*/environ 2>/dev/null || true); do
		pid=${f#/proc/}
		pid=${pid%/environ}
		case $(cat "/proc/$pid/comm" 2>/dev/null) in
		schedlab-trace|perf|sh|sleep) ;;
		*) continue ;;
		esac
		case $(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) in
		''|Z|X) ;;
		*) echo "$pid" ;;
		esac
	done
}

# expect_no_tracer: none within 10 s (a killed one may take a moment).
expect_no_tracer() {
	for _ in $(seq 200); do
		[ -z "$(tracer_pids)" ] && return 0
		sleep 0.05
	done
	fail "tracer processes left behind: $(ps -o pid,ppid,pgid,stat,args -p "$(tracer_pids | paste -sd,)")"
}

# perf_records: whether perf sched record works on this machine.
perf_records() {
	command -v perf >/dev/null || return 1
	perf sched record -a -o "$tmp/probe.data" -- true >/dev/null 2>&1 || return 1
	rm -f "$tmp/probe.data"
}

trace_metrics() {
	jq -r '.metrics | keys[] | select(startswith("trace."))' <<<"$1"
}

# perf-sched where perf records: its metrics, overall and per kind, its
# table kept, perf.data gone, no perf left; and they compare.
test_trace_perf_sched() {
	use_tmpdir
	perf_records || skip "perf sched record cannot record here (no perf, no permission or no tracefs)"
	run_sl bench messaging -g 1 -l 100 --format json --trace perf-sched \
		--trace-dir "$tmp/tr"
	expect_eq "bench: exit ($err)" 0 "$rc"
	m=$(trace_metrics "$out")
	for want in trace.sched.switches trace.sched.delay_avg_ms trace.sched.delay_max_ms \
		    trace.sched.runtime_ms trace.sched.schedlab.switches \
		    trace.sched.schedlab.delay_max_ms trace.sched.other.delay_avg_ms; do
		grep -qx "$want" <<<"$m" || fail "no $want in: $m"
	done
	expect_match "schedlab's switches" '^[1-9][0-9]*(\.0+)?$' \
		"$(jval "$out" '.metrics["trace.sched.schedlab.switches"].value')"
	expect_eq "lower is better" lower "$(jval "$out" '.metrics["trace.sched.delay_max_ms"].better')"
	d=$(echo "$tmp"/tr/*/c1-i1)
	[ -s "$d/sched-latency.txt" ] || fail "no sched-latency.txt in $d: $(ls "$d")"
	[ ! -e "$d/perf.data" ] || fail "perf.data kept"
	expect_no_tracer
	expect_no_leftovers
	# two stored runs compare on them like any metric
	cat >"$tmp/p.job" <<-EOF
	[global]
	iterations = 2
	trace = perf-sched
	[m]
	workload = messaging
	groups = 1
	loops = 100
	EOF
	run_sl run -q --label a "$tmp/p.job"
	expect_eq "run a: exit ($err)" 0 "$rc"
	[ -d "$SCHEDLAB_DB.traces" ] || fail "no $SCHEDLAB_DB.traces"
	expect_eq "iteration directories" 2 "$(find "$SCHEDLAB_DB.traces" -mindepth 2 -maxdepth 2 -name 'c1-i*' | wc -l)"
	run_sl run -q --label b "$tmp/p.job" --trace-scope case
	expect_eq "run b: exit ($err)" 0 "$rc"
	run_sl compare a b --metrics 'trace.*'
	expect_eq "compare: exit ($err)" 0 "$rc"
	expect_match "compare shows trace metrics" "trace\.sched\.delay_max_ms" "$out"
	# per case: one value, in the case's last row
	v=$("$SCHEDLAB" show b --format json | jq '[.cases[0].samples["trace.sched.switches"][] | select(. != null)] | length')
	expect_eq "one value per case" 1 "$v"
	expect_no_tracer
	# interrupted while perf records: no perf, no perf.data left
	trap '[ -z "${sl_pid:-}" ] || kill -KILL "$sl_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	start_sl bench messaging -g 1 -l 100000000 --trace perf-sched --trace-dir "$tmp/ti"
	for _ in $(seq 400); do
		grep -qs "Events enabled" "$tmp"/ti/*/c1-i1/trace.stderr && break
		kill -0 "$sl_pid" 2>/dev/null || fail "schedlab ended first: $(cat "$sl_errf")"
		sleep 0.05
	done
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "interrupted: exit ($err)" 130 "$rc"
	expect_eq "perf.data left" "" "$(find "$tmp/ti" -name perf.data)"
	expect_no_tracer
	expect_no_leftovers
}

# No perf on PATH: one line saying so, the run goes on untraced.
test_trace_perf_absent() {
	use_tmpdir
	mkdir "$tmp/bin"
	set +e
	out=$(PATH=$tmp/bin "$SCHEDLAB" bench messaging -g 1 -l 100 --format json \
		--trace perf-sched --trace-dir "$tmp/tr" 2>"$tmp/err")
	rc=$?
	set -e
	err=$(cat "$tmp/err")
	expect_eq "bench: exit ($err)" 0 "$rc"
	expect_match "why" "trace perf-sched is unavailable: perf is not on PATH" "$err"
	expect_eq "one line" 1 "$(grep -c 'trace perf-sched' <<<"$err")"
	expect_eq "no trace metrics" "" "$(trace_metrics "$out")"
	jval "$out" '.metrics["messaging.time"].value' >/dev/null
	expect_no_leftovers
}

# perf refused (perf_event_open fails with EACCES, as without the
# permission): one line with perf's reason, the run goes on untraced.
test_trace_perf_refused() {
	use_tmpdir
	command -v perf >/dev/null || skip "no perf"
	command -v strace >/dev/null || skip "no strace"
	set +e
	out=$(env "$NO_LSAN" strace -f -qq -o /dev/null -e trace=perf_event_open \
		-e inject=perf_event_open:error=EACCES \
		"$SCHEDLAB" bench -r 2 messaging -g 1 -l 100 --format json \
		--trace perf-sched --trace-dir "$tmp/tr" 2>"$tmp/err")
	rc=$?
	set -e
	err=$(cat "$tmp/err")
	expect_eq "bench: exit ($err)" 0 "$rc"
	expect_match "why" "trace perf-sched is unavailable: perf sched record did not start" "$err"
	expect_eq "said once for two iterations" 1 "$(grep -c 'trace perf-sched' <<<"$err")"
	expect_eq "no trace metrics" "" "$(trace_metrics "$out")"
	expect_eq "runs" 2 "$(jval "$out" '.runs')"
	expect_no_tracer
}

# A command around each iteration: its environment, its file kept, told
# to stop (SIGINT) after the workload ended, nothing of it left - not
# even what it started with setsid.
test_trace_command() {
	use_tmpdir
	# a job file's line is short: the tracer is a script. The workload
	# waits until the tracer is up (a command has no readiness of its
	# own), so the order of their marks is known.
	cat >"$tmp/tracer.sh" <<-EOF
	trap 'echo stop >>"\$SCHEDLAB_TRACE_DIR/mark"; echo stop >>"$tmp/order"; exit 0' INT
	echo "start \$SCHEDLAB_CASE \$SCHEDLAB_ITERATION \$SCHEDLAB_JOB \$SCHEDLAB_RUN_UUID" >"\$SCHEDLAB_TRACE_DIR/mark"
	setsid sleep 300 &
	echo start >>"$tmp/order"
	touch "$tmp/up"
	while :; do sleep 0.02; done
	EOF
	cat >"$tmp/c.job" <<-EOF
	[global]
	iterations = 2
	trace = sh $tmp/tracer.sh
	[c]
	workload = command
	argv = sh -c 'while [ ! -e $tmp/up ]; do sleep 0.01; done; rm $tmp/up; echo wl >>$tmp/order'
	EOF
	run_sl run -q "$tmp/c.job"
	expect_eq "run: exit ($err)" 0 "$rc"
	expect_eq "no warning" "" "$(unwarned "$err")"
	uuid=$(sqlite3 "$SCHEDLAB_DB" "SELECT uuid FROM runs")
	for i in 1 2; do
		f=$SCHEDLAB_DB.traces/$uuid/c1-i$i/mark
		[ -f "$f" ] || fail "no $f"
		expect_eq "iteration $i's mark" "start 1 $i c $uuid
stop" "$(cat "$f")"
	done
	# the workload ran before the tracer was stopped, each time
	expect_eq "order" "start wl stop start wl stop" "$(paste -sd' ' "$tmp/order")"
	expect_no_tracer
	expect_no_leftovers
	# per case: one directory, no iteration
	touch "$tmp/up"	# the workload waits for it; a case's tracer comes once
	run_sl run -q "$tmp/c.job" --trace-scope case --trace-dir "$tmp/tr" \
		--set "argv=sh -c 'touch $tmp/up'"
	expect_eq "per case: exit ($err)" 0 "$rc"
	f=$(echo "$tmp"/tr/*/c1/mark)
	expect_match "per case mark" "^start 1  c " "$(head -1 "$f")"
	expect_no_tracer
}

# judge traces the runs it makes: --trace on its command line, the
# tracer's file kept under the database, nothing of it left.
test_trace_judge() {
	use_tmpdir
	# the workload waits until the tracer has written its file: a
	# tracer told to stop before it got that far writes nothing. The
	# untraced baseline is the same job, let through by $tmp/base.
	cat >"$tmp/c.job" <<-EOF
	[c]
	workload = command
	argv = sh -c '[ -e $tmp/base ] || while [ ! -e $tmp/up ]; do sleep 0.01; done; rm -f $tmp/up'
	iterations = 2
	EOF
	touch "$tmp/base"
	run_sl run -q "$tmp/c.job" --label base
	expect_eq "baseline: exit ($err)" 0 "$rc"
	rm "$tmp/base"
	run_sl judge --baseline base --iterations 2 "$tmp/c.job" \
		--trace "echo \$SCHEDLAB_ITERATION >\"\$SCHEDLAB_TRACE_DIR/hit\"; touch $tmp/up"
	case $rc in 0|1|125) ;; *) fail "judge: exit $rc ($err)" ;; esac
	uuid=$(sqlite3 "$SCHEDLAB_DB" "SELECT uuid FROM runs WHERE label != 'base'")
	[ -n "$uuid" ] || fail "judge stored no run"
	expect_eq "iteration 2's trace" 2 "$(cat "$SCHEDLAB_DB.traces/$uuid/c1-i2/hit")"
	run_sl judge --baseline base "$tmp/c.job" --trace-scope sometimes
	expect_eq "judge: a bad scope aborts" 128 "$rc"
	expect_match "judge: why" "option --trace-scope: 'sometimes' is not a scope" "$err"
	expect_no_tracer
	expect_no_leftovers
}

# A command that fails early is reported, not fatal; its stderr is kept.
test_trace_command_fails() {
	use_tmpdir
	# the workload waits until the tracer has ended: a tracer stopped
	# before it got to fail is not the case tried here
	cat >"$tmp/w.sh" <<-EOF
	while [ ! -s $tmp/pid ]; do sleep 0.01; done
	p=\$(cat $tmp/pid)
	while [ -e /proc/\$p ] && [ "\$(cut -d' ' -f3 /proc/\$p/stat)" != Z ]; do
		sleep 0.01
	done
	EOF
	printf '[messaging]\nworkload = command\nargv = sh %s\n' "$tmp/w.sh" >"$tmp/c.job"
	run_sl run -q "$tmp/c.job" --iterations 1 --trace-dir "$tmp/tr" \
		--trace "echo no such tracer >&2; echo \$\$ >$tmp/pid; exit 3"
	expect_eq "run: exit ($err)" 0 "$rc"
	expect_match "why" "trace: messaging \(case 1\) iteration 1: the command exited with status 3 before the clock stopped: no such tracer" "$err"
	expect_eq "stderr kept" "no such tracer" "$(cat "$tmp"/tr/*/c1-i1/trace.stderr)"
	[ ! -e "$(echo "$tmp"/tr/*/c1-i1)/trace.stdout" ] || fail "an empty trace.stdout kept"
	expect_no_tracer
}

# wait_mark FILE: waits (10 s at most) until FILE exists.
wait_mark() {
	for _ in $(seq 200); do
		[ -e "$1" ] && return 0
		kill -0 "$sl_pid" 2>/dev/null || fail "schedlab ended first: $(cat "$sl_errf")"
		sleep 0.05
	done
	fail "no $1"
}

# Interrupted, then killed outright: no tracer survives either.
test_trace_interrupted_and_killed() {
	use_tmpdir
	trap '[ -z "${sl_pid:-}" ] || kill -KILL "$sl_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	for sig in INT KILL; do
		rm -rf "$tmp/tr"
		start_sl bench messaging -g 1 -l 100000000 --trace-dir "$tmp/tr" \
			--trace 'setsid sleep 300 & touch "$SCHEDLAB_TRACE_DIR/up"; while :; do sleep 0.02; done'
		for _ in $(seq 200); do
			[ -n "$(echo "$tmp"/tr/*/c1-i1/up 2>/dev/null | grep -v '\*')" ] && break
			kill -0 "$sl_pid" 2>/dev/null || fail "schedlab ended first: $(cat "$sl_errf")"
			sleep 0.05
		done
		[ -n "$(tracer_pids)" ] || fail "no tracer seen while the run ran"
		kill -"$sig" "$sl_pid"
		finish_sl
		[ "$sig" = KILL ] || expect_eq "exit after SIGINT" 130 "$rc"
		expect_no_tracer
	done
	expect_no_leftovers
}

# Bad input: one message naming the key or option and what it accepts.
test_trace_bad_input() {
	use_tmpdir
	printf '[m]\nworkload = messaging\ntrace = perf-sched\ntrace_scope = often\n' >"$tmp/b.job"
	run_sl run "$tmp/b.job"
	expect_eq "trace_scope: exit" 2 "$rc"
	expect_eq "one line" 1 "$(wc -l <<<"$err")"
	expect_match "trace_scope: why" "b.job:4: trace_scope: 'often' is not a known value \(expected one of iteration, case\)" "$err"
	printf '[m]\nworkload = messaging\ntrace_tasks = a,other\n' >"$tmp/b.job"
	run_sl run "$tmp/b.job"
	expect_eq "trace_tasks: exit" 2 "$rc"
	expect_match "trace_tasks: why" "trace_tasks: 'other' is not a task name" "$err"
	printf '[m]\nworkload = messaging\nmonitor_cpus = 4096\n' >"$tmp/b.job"
	run_sl run "$tmp/b.job"
	expect_eq "monitor_cpus: exit" 2 "$rc"
	expect_match "monitor_cpus: why" "monitor_cpus: '4096' is out of range" "$err"
	for cmd in run ab; do
		run_sl "$cmd" --trace-scope sometimes -n
		expect_eq "$cmd --trace-scope: exit" 2 "$rc"
		expect_match "$cmd --trace-scope: why" "^schedlab: $cmd: option --trace-scope: 'sometimes' is not a scope \(expected iteration or case\)" "$err"
	done
	run_sl bench messaging --trace ' '
	expect_eq "bench --trace: exit" 2 "$rc"
	expect_match "bench --trace: why" "option --trace: a blank command" "$err"
	run_sl bench messaging --monitor-cpus x
	expect_eq "bench --monitor-cpus: exit" 2 "$rc"
	expect_match "bench --monitor-cpus: why" "option --monitor-cpus: 'x' is not a CPU list" "$err"
	[ ! -e "$SCHEDLAB_DB" ] || [ "$(sqlite3 "$SCHEDLAB_DB" "SELECT count(*) FROM runs")" = 0 ] ||
		fail "a run was stored"
}
