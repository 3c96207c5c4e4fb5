# SPDX-License-Identifier: GPL-2.0-only
# Scheduler metrics recorded with every run, and what they cost.

# bench --format json carries the probes this machine has; each value is
# plausible for the run that was measured.
test_probe_metrics_in_bench_json() {
	local doc msgs
	# long enough (tens of ms) for /proc/stat's ticks to move
	run_sl bench messaging -g 1 -f 4 -l 2000 --format json
	expect_eq "exit status" 0 "$rc"
	doc=$out
	# every 8th loop of each sender is stamped (src/workload/messaging.c)
	msgs=$((1 * 4 * 4 * 2000 / 8))
	# per-task schedstat, counted from the start barrier on
	jq -e '.metrics["sched.timeslices"].value > 0' <<<"$doc" >/dev/null ||
		fail "no sched.timeslices: $(jq -c '.metrics["sched.timeslices"]' <<<"$doc")"
	jq -e '.metrics["sched.run_s"].value > 0 and .metrics["sched.wait_s"].value >= 0' <<<"$doc" >/dev/null ||
		fail "sched.run_s / wait_s: $(jq -c '.metrics["sched.run_s"], .metrics["sched.wait_s"]' <<<"$doc")"
	# /proc/PID/sched switches (on kernels that have it, as here)
	if [ -r /proc/self/sched ]; then
		jq -e '.metrics["sched.ctxsw_vol"].value > 0' <<<"$doc" >/dev/null ||
			fail "no voluntary switches counted"
	fi
	# the latency of every sampled message was recorded
	expect_eq "latency samples" "$msgs" "$(jval "$doc" '.metrics["latency.samples"].value | floor')"
	jq -e '.metrics["latency.p50_us"].value > 0 and
	       .metrics["latency.p50_us"].value <= .metrics["latency.p99_us"].value and
	       .metrics["latency.p99_us"].value <= .metrics["latency.max_us"].value' <<<"$doc" >/dev/null ||
		fail "latency percentiles out of order: $(jq -c '[.metrics | to_entries[] | select(.key | startswith("latency")) | {(.key): .value.value}]' <<<"$doc")"
	# per-CPU /proc/stat adds up
	jq -e '(.metrics["cpu.busy_pct"].value + .metrics["cpu.idle_pct"].value +
		.metrics["cpu.iowait_pct"].value + .metrics["cpu.steal_pct"].value) | (. > 99.9 and . < 100.1)' \
		<<<"$doc" >/dev/null || fail "cpu.* do not add up to 100%"
}

# --probes=off: the workload alone - no probe metric, and no stamp.
test_probes_off() {
	run_sl bench messaging -g 1 -f 2 -l 10 --format json --probes=off
	expect_eq "exit status" 0 "$rc"
	expect_eq "probe metrics with --probes=off" 0 \
		"$(jq '[.metrics | keys[] | select(startswith("sched.") or startswith("latency.") or startswith("cpu."))] | length' <<<"$out")"
}

# Below 8 bytes a message has no room for a stamp: no latency, the rest stays.
test_small_messages_have_no_stamp() {
	run_sl bench messaging -g 1 -f 2 -l 10 -s 4 --format json --probes=on
	expect_eq "exit status" 0 "$rc"
	expect_eq "latency metrics at -s 4" 0 "$(jq '[.metrics | keys[] | select(startswith("latency."))] | length' <<<"$out")"
	jq -e '.metrics | has("sched.timeslices") and has("sched.ctxsw_vol")' <<<"$out" >/dev/null || fail "no schedstat at -s 4"
}

# Probes add no read() or write(): the counts stay the reference tool's.
test_probes_keep_syscall_counts() {
	local on off tmp p
	command -v strace >/dev/null || skip "no strace"
	tmp=$(mktemp -d)
	# -y names each descriptor's file: a sanitizer's runtime reads
	# /proc/self/maps in a number of calls that varies from run to run
	for p in on off; do
		env "$NO_LSAN" strace -f -qq -y -e trace=read,write,poll -o "$tmp/$p.all" \
			"$SCHEDLAB" bench messaging -g 1 -f 4 -l 20 --probes=$p >/dev/null 2>&1
		grep -v '/maps>' "$tmp/$p.all" >"$tmp/$p"
	done
	for call in read write poll; do
		on=$(ncalls "$tmp/on" "$call")
		off=$(ncalls "$tmp/off" "$call")
		[ "$off" -gt 0 ] || fail "no $call() calls traced"
		expect_eq "$call() calls, probes on vs off" "$off" "$on"
	done
	rm -rf "$tmp"
}

# Where each worker reads its counters: a worker process through
# /proc/self, opened once, a thread through /proc/thread-self (a worker
# process's thread-self inodes cost its reaper ~60 us a task, in the
# timed region: doc/benchmarks.md).
test_probe_files_by_task_kind() {
	local tmp n self tself
	command -v strace >/dev/null || skip "no strace"
	tmp=$(mktemp -d)
	# 1 group of 2 senders and 2 receivers: 4 worker processes
	strace_sl "$tmp/p" openat bench messaging -g 1 -f 2 -l 5 --probes=on --format json
	expect_eq "process mode exit status" 0 "$rc"
	self=$(grep -c 'openat(AT_FDCWD, "/proc/self/sched' "$tmp/p" || true)
	# each of the 4 opens schedstat and sched once
	expect_eq "worker processes' opens of /proc/self/sched*" 8 "$self"
	n=$({ grep 'openat(AT_FDCWD, "/proc/thread-self/sched' "$tmp/p" || true; } | awk '{ print $1 }' | sort -u | wc -l)
	# the workload process's own look (and availability checks) only
	awk -v n="$n" 'BEGIN { exit !(n <= 2) }' ||
		fail "thread-self opened by $n processes in process mode: $(grep thread-self "$tmp/p")"
	strace_sl "$tmp/t" openat bench messaging -T -g 1 -f 2 -l 5 --probes=on --format json
	expect_eq "thread mode exit status" 0 "$rc"
	expect_eq "threads' opens of /proc/self/sched*" 0 \
		"$(grep -c 'openat(AT_FDCWD, "/proc/self/sched' "$tmp/t" || true)"
	# 4 threads, two looks each (baseline, end), two files a look
	tself=$(grep -c 'openat(AT_FDCWD, "/proc/thread-self/sched' "$tmp/t" || true)
	awk -v n="$tself" 'BEGIN { exit !(n >= 16) }' ||
		fail "threads opened thread-self's files $tself times, expected at least 16"
	rm -rf "$tmp"
}

# With the probes on, thread workers exit once the clock has stopped
# (struct tasks' linger): the kernel's flush of the /proc entries their
# looks made for them is not timed. Each says it is done on a futex
# word and waits; the workload process takes the stop time, wakes them
# all at once (FUTEX_WAKE of INT_MAX) and joins them before the probes'
# end, its second read of /proc/stat, so that their exit records still
# reach the taskstats probe: the four threads' exit() calls lie between.
test_threads_exit_after_the_clock() {
	local wake stop
	command -v strace >/dev/null || skip "no strace"
	use_tmpdir
	strace_sl "$tmp/t" openat,exit,futex bench messaging -T -g 1 -f 2 -l 5 --probes=on --format json
	expect_eq "exit status" 0 "$rc"
	wake=$(awk '/FUTEX_WAKE_PRIVATE, 2147483647/ { print NR; exit }' "$tmp/t")
	stop=$(awk '/^[0-9]+ +openat\(AT_FDCWD, "\/proc\/stat"/ && ++n[$1] == 2 { print NR; exit }' "$tmp/t")
	[ -n "$wake" ] || fail "no wake of all the lingering threads: $(grep FUTEX_WAKE "$tmp/t")"
	[ -n "$stop" ] || fail "no second read of /proc/stat: $(grep proc/stat "$tmp/t")"
	expect_eq "threads' exits" 4 "$(grep -c '^[0-9]* *exit(' "$tmp/t")"
	expect_eq "threads' exits after the wake, before the probes' end" 4 \
		"$(awk -v w="$wake" -v s="$stop" '$2 ~ /^exit\(/ && NR > w && NR < s' "$tmp/t" | wc -l)"
	# without the probes they exit in the timed region, as hackbench's
	strace_sl "$tmp/o" openat,exit,futex bench messaging -T -g 1 -f 2 -l 5 --probes=off --format json
	expect_eq "probes off: exit status" 0 "$rc"
	expect_eq "probes off: threads' exits" 4 "$(grep -c '^[0-9]* *exit(' "$tmp/o")"
	expect_eq "probes off: no lingering" 0 "$(grep -c 'FUTEX_WAKE_PRIVATE, 2147483647' "$tmp/o" || true)"
}

# pipe: the side that starts each op times its round trip: one per loop
# in the one-token ordering, two per loop with two tokens.
test_pipe_round_trips_recorded() {
	run_sl bench pipe -l 500 --format json
	expect_eq "one-token samples" 500 "$(jval "$out" '.metrics["latency.samples"].value | floor')"
	run_sl bench pipe -l 500 -T --ordering two-tokens --format json
	expect_eq "two-tokens samples" 1000 "$(jval "$out" '.metrics["latency.samples"].value | floor')"
}

# run prints, under each job's summary, a line of scheduler metrics per
# case; show prints the same from the store, and lists missing probes.
test_run_and_show_explain() {
	local ran shown
	use_tmpdir
	printf '[m]\nworkload = messaging\ngroups = 1,2\nfds = 2\nloops = 20\niterations = 2\nprobes = on\n' >"$tmp/e.job"
	run_sl run "$tmp/e.job" --db "$tmp/e.db" --tables
	expect_eq "exit status" 0 "$rc"
	ran=$out
	# a tiny case may have waited for no CPU at all: then its line
	# starts with what it did measure
	expect_match "explanation under the summary" $'\n  1: [a-z-]+ [a-z ]*[0-9.]+' "$ran"
	expect_match "explanation for groups=2" $'\n  2: run-queue wait' "$ran"
	expect_match "latency in the explanation" 'latency p50 [0-9.]+ us p99 [0-9.]+ us' "$ran"
	shown=$("$SCHEDLAB" show 1 --db "$tmp/e.db")
	expect_eq "show repeats run's explanation" \
		"$(grep '^  [0-9]: ' <<<"$ran")" "$(grep '^  [0-9]: ' <<<"$shown")"
	if [ ! -e /proc/schedstat ]; then
		expect_match "show lists a missing probe" $'\nproc_schedstat +not available \\(/proc/schedstat' "$shown"
	fi
}

# The latency histogram of every iteration is stored with the run: its
# count is the iteration's latency.samples, and its percentiles are the
# stored ones (the same histogram, read back from the export).
test_run_stores_latency_histograms() {
	local doc
	use_tmpdir
	printf '[m]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = 40\niterations = 2\nprobes = on\n' >"$tmp/h.job"
	run_sl run "$tmp/h.job" --db "$tmp/h.db" --label hist
	expect_eq "exit status" 0 "$rc"
	doc=$("$SCHEDLAB" export hist --db "$tmp/h.db")
	expect_eq "histograms per iteration" 2 "$(jq '.cases[0].histograms.latency | length' <<<"$doc")"
	expect_eq "count = latency.samples" \
		"$(jq -c '.cases[0].samples["latency.samples"]' <<<"$doc")" \
		"$(jq -c '[.cases[0].histograms.latency[].count | . * 1.0]' <<<"$doc")"
	expect_eq "max = latency.max_us" \
		"$(jq -c '[.cases[0].samples["latency.max_us"][] | . * 1000 | round]' <<<"$doc")" \
		"$(jq -c '[.cases[0].histograms.latency[].max]' <<<"$doc")"
	"$SCHEDLAB" export hist --db "$tmp/h.db" |
		jq '.cases[0].histograms.latency[1].count += 1' >"$tmp/bad.json"
	run_sl import "$tmp/bad.json" --db "$tmp/other.db"
	expect_eq "damaged histogram refused" 2 "$rc"
	expect_match "names the histogram" "cases\\[0\\]\\.histograms\\.latency\\[1\\]: histogram: bucket counts" "$err"
}

# With a reference tool's text, bench stands in for the tool: the workload
# alone unless probes are asked for; JSON records them unless told not to.
test_bench_probes_default_by_format() {
	local tmp
	command -v strace >/dev/null || skip "no strace"
	tmp=$(mktemp -d)
	env "$NO_LSAN" strace -f -qq -c -o "$tmp/text" "$SCHEDLAB" bench messaging -g 1 -f 2 -l 1000 >/dev/null 2>&1
	# 2000 messages a task: enough for the probes to stay on
	env "$NO_LSAN" strace -f -qq -c -o "$tmp/json" "$SCHEDLAB" bench messaging -g 1 -f 2 -l 1000 --format json >/dev/null 2>&1
	# the probes read /proc with pread64
	[ -z "$(awk '$NF == "pread64" && $4 > 50' "$tmp/text")" ] || fail "text format ran probes: $(cat "$tmp/text")"
	[ -n "$(awk '$NF == "pread64" && $4 > 10' "$tmp/json")" ] || fail "json format ran no probes: $(cat "$tmp/json")"
	rm -rf "$tmp"
}

# taskstats: the kernel reports each worker as it exits. Its run-queue
# wait and timeslices cover each task's whole life, so they can only be
# at least what the schedstat probe counts from the start barrier on
# (both come from the same scheduler counter, sched_info). Needs root;
# delay accounting is turned on for the run and put back as it was.
test_taskstats_exit_records() {
	local was doc cmd thr
	[ "$(id -u)" -eq 0 ] && [ -w /proc/sys/kernel/task_delayacct ] ||
		skip "needs root and a writable kernel.task_delayacct"
	was=$(cat /proc/sys/kernel/task_delayacct)
	echo 0 >/proc/sys/kernel/task_delayacct
	use_tmpdir
	printf '[m]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = 10\nprobes = on\n' >"$tmp/t.job"
	run_sl run "$tmp/t.job" --db "$tmp/t.db" --label off
	expect_eq "exit status, delay accounting off" 0 "$rc"
	expect_match "show says why taskstats is missing" \
		$'\ntaskstats +not available \\(delay accounting is off' "$("$SCHEDLAB" show off --db "$tmp/t.db")"
	echo 1 >/proc/sys/kernel/task_delayacct
	run_sl bench messaging -g 1 -f 4 -l 200 --format json --probes=on
	# threads, which exit after the clock's stop but before the sum
	thr=$("$SCHEDLAB" bench messaging -T -g 1 -f 4 -l 200 --format json --probes=on)
	# a foreign program's tree too: sh and its two children
	cmd=$("$SCHEDLAB" bench command --format json -- sh -c 'true & true & wait')
	echo "$was" >/proc/sys/kernel/task_delayacct
	expect_eq "tasks of a command's tree" 3 "$(jval "$cmd" '.metrics["taskstats.tasks"].value')"
	expect_eq "exit status" 0 "$rc"
	doc=$out
	expect_eq "every worker reported (4 senders + 4 receivers)" 8 \
		"$(jval "$doc" '.metrics["taskstats.tasks"].value')"
	expect_eq "every worker thread reported" 8 \
		"$(jval "$thr" '.metrics["taskstats.tasks"].value')"
	jq -e '.metrics["taskstats.cpu_count"].value >= .metrics["sched.timeslices"].value and
	       .metrics["taskstats.cpu_delay_s"].value >= .metrics["sched.wait_s"].value' <<<"$doc" >/dev/null ||
		fail "taskstats below schedstat: $(jq -c '[.metrics["taskstats.cpu_count", "sched.timeslices", "taskstats.cpu_delay_s", "sched.wait_s"].value]' <<<"$doc")"
}

# Messaging over pipes is bistable and the probes tip it (up to 20%
# longer), and tasks of few messages (under 2000 as processes, 20,000
# as threads) pay their cost a task (up to 20%, doc/benchmarks.md): run and bench leave them off there unless
# asked, and say so once per job; everything else keeps them.
test_probes_off_where_they_tip() {
	local id
	use_tmpdir
	run_sl bench messaging -T -p -g 1 -f 2 -l 10 --format json
	expect_eq "-T -p: exit status" 0 "$rc"
	expect_match "-T -p: says why" "^schedlab: warning: messaging: probes off: messaging over pipes is bistable.*--probes=on records them anyway" "$err"
	expect_eq "-T -p: probe metrics" 0 "$(jq '[.metrics | keys[] | select(startswith("sched."))] | length' <<<"$out")"
	run_sl bench messaging -p -g 1 -f 2 -l 10 --format json
	expect_eq "-p: exit status" 0 "$rc"
	expect_match "-p: says why" "^schedlab: warning: messaging: probes off: messaging over pipes is bistable" "$err"
	expect_eq "-p: probe metrics" 0 "$(jq '[.metrics | keys[] | select(startswith("sched."))] | length' <<<"$out")"
	run_sl bench messaging -g 1 -f 2 -l 1000 --format json
	expect_eq "process mode over sockets: warnings" "" "$(unwarned "$err")"
	jq -e '.metrics | has("sched.timeslices")' <<<"$out" >/dev/null || fail "process mode over sockets recorded no probes"
	run_sl bench messaging -T -p -g 1 -f 2 -l 10 --format json --probes=on
	expect_eq "-T -p --probes=on: exit status" 0 "$rc"
	expect_eq "-T -p --probes=on: warnings" "" "$(unwarned "$err")"
	jq -e '.metrics | has("sched.timeslices")' <<<"$out" >/dev/null || fail "--probes=on recorded no probes"
	run_sl bench messaging -T -g 1 -f 2 -l 10000 --format json
	expect_eq "-T: warnings" "" "$(unwarned "$err")"
	jq -e '.metrics | has("sched.timeslices")' <<<"$out" >/dev/null || fail "-T over sockets recorded no probes"
	# 1998 messages a task (-f 2 -l 999): one short of keeping them
	run_sl bench messaging -g 1 -f 2 -l 999 --format json
	expect_eq "few messages: exit status" 0 "$rc"
	expect_match "few messages: says why" "^schedlab: warning: messaging: probes off: each task handles 1998 messages \\(loops x fds\\), under 2000 in process mode.*--probes=on records them anyway" "$err"
	expect_eq "few messages: probe metrics" 0 "$(jq '[.metrics | keys[] | select(startswith("sched."))] | length' <<<"$out")"
	# threads: 20,000 a task
	run_sl bench messaging -T -g 1 -f 2 -l 9999 --format json
	expect_match "few messages, threads: says why" "^schedlab: warning: messaging: probes off: each task handles 19998 messages \\(loops x fds\\), under 20000 in thread mode" "$err"
	run_sl bench messaging -T -g 1 -f 2 -l 999 --format json --probes=on
	expect_eq "few messages --probes=on: warnings" "" "$(unwarned "$err")"
	jq -e '.metrics | has("sched.timeslices")' <<<"$out" >/dev/null || fail "few messages with --probes=on recorded no probes"
	# a job: once for the job, only its thread-and-pipe case
	printf '[tp]\nworkload = messaging\nmode = thread\nipc = socket,pipe\ngroups = 1\nfds = 2\nloops = 10000\niterations = 1\n' >"$tmp/tp.job"
	run_sl run -q "$tmp/tp.job" --db "$tmp/r.db"
	expect_eq "run: exit status" 0 "$rc"
	expect_eq "run: warnings about the probes" 1 "$(grep -c 'probes off' <<<"$err")"
	expect_match "run: names the job" "^schedlab: warning: tp: probes off: messaging over pipes.*probes = on records them anyway" "$err"
	id=$("$SCHEDLAB" list runs --db "$tmp/r.db" | awk 'NR == 2 { print $1 }')
	"$SCHEDLAB" export "$id" --db "$tmp/r.db" >"$tmp/r.json"
	expect_eq "socket case: probes" true "$(jq '.cases[] | select(.parameters.ipc == "socket") | .samples | has("sched.timeslices")' "$tmp/r.json")"
	expect_eq "pipe case: probes" false "$(jq '.cases[] | select(.parameters.ipc == "pipe") | .samples | has("sched.timeslices")' "$tmp/r.json")"
	printf 'probes = on\n' >>"$tmp/tp.job"
	run_sl run -q "$tmp/tp.job" --db "$tmp/r.db"
	expect_eq "probes = on: warnings" "" "$(unwarned "$err")"
}
