# SPDX-License-Identifier: GPL-2.0-only
# Monitors (src/monitor/): each monitor's present path on real runs -
# from this machine's files where it has them, from the fixture root
# tests/fixtures/monitor where it does not (SCHEDLAB_MONITOR_ROOT) - and
# its absent path by hiding the source; the series stored, exported and
# imported; bad input; no sampler left behind.

# monitor_metrics JSON: the monitor.* metric names of a bench document.
monitor_metrics() {
	jq -r '.metrics | keys[] | select(startswith("monitor."))' <<<"$1"
}

# bench pipe briefly with monitors ARGS; sets $out, $err, $rc.
mon_bench() {
	run_sl bench pipe -l 20000 --format json --monitor-interval 20ms "$@"
}

# sampler_pids: this test's monitor samplers still alive.
sampler_pids() {
	local f pid
	for f in $(grep -lsxzF "SCHEDLAB_TEST_TAG=$SCHEDLAB_TEST_TAG" \
		   /proc/[0-9]*/environ 2>/dev/null || true); do
		pid=${f#/proc/}
		pid=${pid%/environ}
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = schedlab-mon ] || continue
		case $(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) in
		''|Z|X) ;;
		*) echo "$pid" ;;
		esac
	done
}

# The monitors this machine has, from its own files.
test_monitor_present_here() {
	use_tmpdir
	mon_bench --monitor cpu,runq,ctxsw,vmstat
	expect_eq "bench: exit ($err)" 0 "$rc"
	m=$(monitor_metrics "$out")
	for want in monitor.cpu.busy_pct.mean monitor.cpu.imbalance_pct.p95 \
		    monitor.runq.running.max monitor.runq.load1.mean \
		    monitor.ctxsw.ctxsw_per_s.mean monitor.ctxsw.intr_per_s.mean \
		    monitor.vmstat.pgfault_per_s.mean monitor.vmstat.free_mib.mean; do
		grep -qx "$want" <<<"$m" || fail "no $want in: $m"
	done
	expect_match "busy between 0 and 100" '^[0-9.]+$' "$(jval "$out" '.metrics["monitor.cpu.busy_pct.mean"].value')"
	awk -v b="$(jval "$out" '.metrics["monitor.cpu.busy_pct.max"].value')" \
		'BEGIN { exit !(b >= 0 && b <= 100) }' || fail "busy_pct.max out of 0..100"
	if [ -r /proc/pressure/cpu ]; then
		mon_bench --monitor psi
		expect_eq "psi: exit ($err)" 0 "$rc"
		grep -qx monitor.psi.cpu_some_pct.mean <<<"$(monitor_metrics "$out")" ||
			fail "no psi metrics: $(monitor_metrics "$out")"
	fi
	expect_eq "no sampler left" "" "$(sampler_pids)"
	expect_no_leftovers
}

# schedstat, sched_debug and cpufreq from a machine that has them (this
# one may not): the fixture root's files.
test_monitor_present_from_fixture() {
	use_tmpdir
	SCHEDLAB_MONITOR_ROOT=$TOP/tests/fixtures/monitor \
		mon_bench --monitor schedstat,sched_debug,cpufreq
	expect_eq "bench: exit ($err)" 0 "$rc"
	expect_eq "no warning" "" "$(grep 'unavailable' <<<"$err" || true)"
	m=$(monitor_metrics "$out")
	for want in monitor.schedstat.ttwu_per_s.mean monitor.schedstat.wait_tasks.p95 \
		    monitor.schedstat.domain0.lb_count_per_s.mean \
		    monitor.schedstat.domain1.ttwu_wake_remote_per_s.max; do
		grep -qx "$want" <<<"$m" || fail "no $want in: $m"
	done
	# the files do not change: rates are 0, gauges the files' values
	expect_eq "ttwu rate" 0 "$(jval "$out" '.metrics["monitor.schedstat.ttwu_per_s.mean"].value')"
	expect_eq "tasks running" 4 "$(jval "$out" '.metrics["monitor.sched_debug.nr_running.mean"].value')"
	expect_eq "uninterruptible" 2 "$(jval "$out" '.metrics["monitor.sched_debug.nr_uninterruptible.max"].value')"
	expect_eq "mean MHz" 1800 "$(jval "$out" '.metrics["monitor.cpufreq.mhz.mean"].value')"
	expect_eq "lowest MHz" 1200 "$(jval "$out" '.metrics["monitor.cpufreq.min_mhz.mean"].value')"
	# and their series, stored per CPU
	cat >"$tmp/f.job" <<-EOF
	[global]
	iterations = 2
	monitors = schedstat,sched_debug,cpufreq
	monitor_interval = 20ms
	[p]
	workload = pipe
	loops = 20000
	EOF
	SCHEDLAB_MONITOR_ROOT=$TOP/tests/fixtures/monitor run_sl run -q "$tmp/f.job"
	expect_eq "run: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export 1 -o "$tmp/f.json"
	jq -e '.cases[0].monitors.sched_debug[1]["cpu1.nr_running"] | split(" ") | all(. == "1")' "$tmp/f.json" >/dev/null ||
		fail "cpu1.nr_running: $(jq -c '.cases[0].monitors.sched_debug[1]' "$tmp/f.json")"
	jq -e '.cases[0].monitors.cpufreq[0]["cpu0.mhz"] | split(" ") | all(. == "2400")' "$tmp/f.json" >/dev/null ||
		fail "cpu0.mhz: $(jq -c '.cases[0].monitors.cpufreq[0]' "$tmp/f.json")"
	jq -e '.cases[0].monitors.schedstat[0] | has("cpu0.wait_tasks") and has("domain1.lb_failed_per_s")' "$tmp/f.json" >/dev/null ||
		fail "schedstat's columns: $(jq -c '.cases[0].monitors.schedstat[0] | keys' "$tmp/f.json")"
}

# Each monitor's source hidden: it says why, the run goes on without it.
test_monitor_absent_says_why() {
	mountns_needs
	use_tmpdir
	hiding /proc/pressure "$SCHEDLAB" bench pipe -l 20000 --format json \
		--monitor psi,cpu >"$tmp/out" 2>"$tmp/err" ||
		fail "psi hidden: bench failed: $(cat "$tmp/err")"
	expect_match "psi: why" "monitor psi is unavailable: /proc/pressure/cpu: No such file or directory; the kernel needs CONFIG_PSI" "$(cat "$tmp/err")"
	m=$(monitor_metrics "$(cat "$tmp/out")")
	grep -q '^monitor\.psi\.' <<<"$m" && fail "psi metrics while hidden: $m"
	grep -qx monitor.cpu.busy_pct.mean <<<"$m" || fail "cpu went with psi: $m"
	for f in vmstat:/proc/vmstat cpu:/proc/stat runq:/proc/loadavg; do
		hiding "${f#*:}" "$SCHEDLAB" bench pipe -l 2000 --monitor "${f%%:*}" \
			>/dev/null 2>"$tmp/err" || fail "${f%%:*} hidden: bench failed: $(cat "$tmp/err")"
		expect_match "${f%%:*}: why" "monitor ${f%%:*} is unavailable: ${f#*:}" "$(cat "$tmp/err")"
	done
	# schedstat, sched_debug and cpufreq: absent from an empty root on
	# any machine, and hidden on one that has them
	mkdir "$tmp/empty"
	SCHEDLAB_MONITOR_ROOT=$tmp/empty run_sl bench pipe -l 2000 \
		--monitor schedstat,sched_debug,cpufreq
	expect_eq "empty root: exit ($err)" 0 "$rc"
	expect_match "schedstat: why" "monitor schedstat is unavailable: $tmp/empty/proc/schedstat: No such file or directory; the kernel needs CONFIG_SCHEDSTATS" "$err"
	expect_match "sched_debug: why" "monitor sched_debug is unavailable: $tmp/empty/sys/kernel/debug/sched/debug: No such file or directory, $tmp/empty/proc/sched_debug: No such file or directory" "$err"
	expect_match "cpufreq: why" "monitor cpufreq is unavailable: $tmp/empty/sys/devices/system/cpu: no CPU has cpufreq" "$err"
	if [ -e /proc/schedstat ]; then
		hiding /proc/schedstat "$SCHEDLAB" bench pipe -l 2000 --monitor schedstat \
			>/dev/null 2>"$tmp/err" || fail "schedstat hidden: $(cat "$tmp/err")"
		expect_match "schedstat hidden: why" "monitor schedstat is unavailable: /proc/schedstat: unexpected contents" "$(cat "$tmp/err")"
	fi
	# a run records what was unavailable in its environment
	SCHEDLAB_MONITOR_ROOT=$tmp/empty run_sl run -q quick --set groups=1 --set loops=10 \
		--iterations 1 --monitor cpufreq,schedstat
	expect_eq "run: exit ($err)" 0 "$rc"
	"$SCHEDLAB" show 1 --format json >"$tmp/show.json"
	expect_eq "environment: cpufreq" false "$(jq -r '.environment.monitors.cpufreq.available' "$tmp/show.json")"
	expect_match "environment: why" "no CPU has cpufreq" "$(jq -r '.environment.monitors.cpufreq.reason' "$tmp/show.json")"
	# a set's members are not warned of on every run - the run keeps why,
	# and show says it; a monitor named beside the set still warns
	SCHEDLAB_MONITOR_ROOT=$tmp/empty run_sl run -q quick --set groups=1 --set loops=10 \
		--iterations 1 --monitor default
	expect_eq "default: exit ($err)" 0 "$rc"
	expect_eq "default: no warning" "" "$(grep 'unavailable' <<<"$err" || true)"
	run_sl show 2
	expect_line "show: why" '^monitor cpufreq +not available \(.*no CPU has cpufreq' "$out"
	expect_line "show: why" '^monitor schedstat not available \(' "$out"
	SCHEDLAB_MONITOR_ROOT=$tmp/empty run_sl bench pipe -l 2000 --monitor all,cpufreq
	expect_eq "all,cpufreq: exit ($err)" 0 "$rc"
	expect_match "all,cpufreq: named, warned" "monitor cpufreq is unavailable" "$err"
	! grep -q "monitor schedstat is unavailable" <<<"$err" || fail "all's member schedstat warned of: $err"
}

# A run's series: one row per (case, iteration, monitor), in the export,
# imported back the same bytes; the summaries compare as metrics.
test_monitor_series_stored() {
	use_tmpdir
	cat >"$tmp/m.job" <<-EOF
	[global]
	iterations = 3
	monitors = cpu,runq,ctxsw
	monitor_interval = 20ms
	[msg]
	workload = messaging
	groups = 1
	loops = 200
	EOF
	run_sl run -q --label a "$tmp/m.job"
	expect_eq "run a: exit ($err)" 0 "$rc"
	run_sl run -q --label b "$tmp/m.job" --monitor-interval 50ms
	expect_eq "run b: exit ($err)" 0 "$rc"
	expect_eq "rows" 9 "$(sqlite3 "$SCHEDLAB_DB" "SELECT count(*) FROM monitors m JOIN cases c ON c.id = m.case_id WHERE c.run_id = 1")"
	"$SCHEDLAB" export a -o "$tmp/a.json"
	expect_eq "iterations of cpu" 3 "$(jq '.cases[0].monitors.cpu | length' "$tmp/a.json")"
	expect_eq "interval" 20 "$(jq '.cases[0].monitors.cpu[0].interval_ms' "$tmp/a.json")"
	expect_eq "b's interval" 50 "$(jq -r '.cases[0].monitors.runq[2].interval_ms' <("$SCHEDLAB" export b))"
	# every column as long as t, one column per online CPU
	jq -e '.cases[0].monitors.cpu[] | (.t | split(" ") | length) as $n
	       | [to_entries[] | select(.key != "interval_ms") | .value | split(" ") | length] | all(. == $n)' \
		"$tmp/a.json" >/dev/null || fail "columns of unequal length"
	ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
	expect_eq "per-CPU columns" "$ncpu" "$(jq '.cases[0].monitors.cpu[0] | keys | map(select(test("^cpu[0-9]+[.]busy_pct$"))) | length' "$tmp/a.json")"
	use_db=$tmp/other.db
	run_sl import "$tmp/a.json" --db "$use_db"
	expect_eq "import: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export a --db "$use_db" -o "$tmp/a2.json"
	cmp "$tmp/a.json" "$tmp/a2.json" || fail "export -> import -> export differs"
	run_sl compare a b --metrics 'monitor.cpu.*,monitor.runq.running.mean'
	expect_eq "compare: exit ($err)" 0 "$rc"
	expect_match "compare shows monitor metrics" "monitor\.cpu\.busy_pct\.mean" "$out"
	# a damaged series is refused on import, naming where
	jq '.run.uuid = "00000000-0000-4000-8000-0000000000aa" | .cases[0].monitors.cpu[0].busy_pct = "1 2 x"' \
		"$tmp/a.json" >"$tmp/bad.json"
	run_sl import "$tmp/bad.json"
	expect_eq "bad import: exit" 2 "$rc"
	expect_match "bad import: where" "cases\[0\]\.monitors\.cpu\[0\]: busy_pct: expected numbers" "$err"
}

# Bad input: one message naming the option and what it accepts, exit 2.
test_monitor_bad_input() {
	use_tmpdir
	printf '[j]\nworkload = pipe\nmonitors = cpu,bogus\n' >"$tmp/bad.job"
	run_sl run "$tmp/bad.job"
	expect_eq "job file: exit" 2 "$rc"
	expect_eq "job file: why" "schedlab: $tmp/bad.job:3: monitors: 'bogus' is not a monitor (expected a comma list of cpu, runq, ctxsw, psi, vmstat, schedstat, sched_debug, cpufreq, or default, all or none)" "$err"
	printf '[j]\nworkload = pipe\nmonitor_interval = 1ms\n' >"$tmp/bad.job"
	run_sl run "$tmp/bad.job"
	expect_eq "interval: exit" 2 "$rc"
	expect_match "interval: why" "bad.job:3: monitor_interval: '1ms' is out of range \(expected a duration in 10ms\.\.1h such as 1s, 250ms or 0\.5\)$" "$err"
	for cmd in run ab; do
		run_sl $cmd --monitor nope quick
		expect_eq "$cmd --monitor: exit" 2 "$rc"
		expect_eq "$cmd --monitor: why" "schedlab: $cmd: option --monitor: 'nope' is not a monitor (expected a comma list of cpu, runq, ctxsw, psi, vmstat, schedstat, sched_debug, cpufreq, or default, all or none)" "$err"
		run_sl $cmd --monitor-interval soon quick
		expect_eq "$cmd --monitor-interval: exit" 2 "$rc"
		expect_match "$cmd --monitor-interval: why" "^schedlab: $cmd: option --monitor-interval: 'soon' is not a duration" "$err"
	done
	run_sl bench pipe --monitor cpu,nope
	expect_eq "bench: exit" 2 "$rc"
	expect_match "bench: why" "^schedlab: bench pipe: option --monitor: 'nope' is not a monitor" "$err"
	[ "$(sqlite3 "$SCHEDLAB_DB" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0 ] ||
		fail "a run was stored"
}

# wait_sampler: waits (10 s at most) until the schedlab of start_sl has
# a sampler running; fails if it ends first.
wait_sampler() {
	for _ in $(seq 200); do
		[ -n "$(sampler_pids)" ] && return 0
		kill -0 "$sl_pid" 2>/dev/null || fail "schedlab ended first: $(cat "$sl_errf")"
		sleep 0.05
	done
	fail "no sampler seen while the run ran"
}

# Interrupted mid-iteration: the sampler goes with the run.
test_monitor_sampler_stops_on_interrupt() {
	local s
	use_tmpdir
	# a failed check must not leave the long run behind
	trap '[ -z "${sl_pid:-}" ] || kill -KILL "$sl_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	start_sl bench messaging -g 2 -l 1000000 --monitor default --monitor-interval 50ms
	wait_sampler
	sleep 0.3
	s=$(sampler_pids)
	# a process of schedlab's, outside the workload's process group
	expect_eq "sampler's parent" "$sl_pid" "$(awk '{ print $4 }' "/proc/$s/stat")"
	expect_eq "sampler's group" "$(awk '{ print $5 }' "/proc/$sl_pid/stat")" "$(awk '{ print $5 }' "/proc/$s/stat")"
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit" 130 "$rc"
	expect_eq "no sampler left" "" "$(sampler_pids)"
	expect_no_leftovers
	# and killed outright, it dies with schedlab
	start_sl bench messaging -g 2 -l 1000000 --monitor cpu --monitor-interval 50ms
	wait_sampler
	kill -KILL "$sl_pid"
	finish_sl
	for _ in $(seq 40); do
		[ -z "$(sampler_pids)" ] && break
		sleep 0.05
	done
	expect_eq "no sampler after SIGKILL" "" "$(sampler_pids)"
}

# A sampler that dies costs the iteration its series, not its result:
# one warning, no monitor metrics, nothing counted as the workload's
# leftovers.
test_monitor_sampler_dies() {
	use_tmpdir
	trap '[ -z "${sl_pid:-}" ] || kill -KILL "$sl_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	# the command ends when the test says so (30 s at most): however
	# loaded the host, it is still running when the sampler is killed
	start_sl bench command --format json --monitor cpu --monitor-interval 20ms -- \
		sh -c 'for _ in $(seq 600); do [ -e "$1" ] && exit 0; sleep 0.05; done' sh "$tmp/go"
	wait_sampler
	kill -KILL "$(sampler_pids)"
	touch "$tmp/go"
	finish_sl
	expect_eq "exit ($err)" 0 "$rc"
	expect_match "warning" "monitors: the sampler ended without its rows; none kept for this iteration" "$err"
	expect_eq "leftovers" 0 "$(jval "$out" '.process.leftover_killed')"
	expect_eq "monitor metrics" "" "$(monitor_metrics "$out")"
	expect_no_leftovers
}

# monitor_cpus pins the sampler: its affinity, read from /proc while it
# runs, is the list asked for; the workload's is not.
test_monitor_sampler_pinned() {
	local s cpu
	use_tmpdir
	trap '[ -z "${sl_pid:-}" ] || kill -KILL "$sl_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	cpu=$(($(nproc) - 1))
	start_sl bench messaging -g 1 -l 1000000 --monitor cpu --monitor-interval 50ms \
		--monitor-cpus "$cpu"
	wait_sampler
	s=$(sampler_pids)
	expect_eq "sampler's CPUs" "$cpu" "$(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$s/status")"
	expect_eq "schedlab's CPUs unchanged" "$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)" \
		"$(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$sl_pid/status")"
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit" 130 "$rc"
	expect_eq "no sampler left" "" "$(sampler_pids)"
	expect_no_leftovers
}
