# SPDX-License-Identifier: GPL-2.0-only
#
# wakeup (schbench): its blocks of output, the JSON metrics, pacing,
# bad options and a timeout. Runs are 1 s (-r takes whole seconds, as
# schbench's) with a small request (-F 16 -n 1) so they stay cheap.

SMALL="-F 16 -n 1"

# schbench's three blocks: title, percentile lines with the 99th (the
# 50th for RPS) starred, min/max, then the average.
test_wakeup_schbench_blocks() {
	run_sl bench wakeup -t 1 -r 1 $SMALL
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_eq "line count" 18 "$(nlines "$out")"
	expect_match "line 1" '^Wakeup Latencies percentiles \(usec\) runtime 1 \(s\) \([0-9]+ total samples\)$' \
		"$(sed -n 1p <<<"$out")"
	expect_match "p50" $'^\t  50\\.0th: [0-9]+ +\\([0-9]+ samples\\)$' "$(sed -n 2p <<<"$out")"
	expect_match "p90" $'^\t  90\\.0th: ' "$(sed -n 3p <<<"$out")"
	expect_match "p99" $'^\t\\* 99\\.0th: [0-9]+ +\\([0-9]+ samples\\)$' "$(sed -n 4p <<<"$out")"
	expect_match "p99.9" $'^\t  99\\.9th: ' "$(sed -n 5p <<<"$out")"
	expect_match "min/max" $'^\t  min=[0-9]+, max=[0-9]+$' "$(sed -n 6p <<<"$out")"
	expect_match "line 7" '^Request Latencies percentiles \(usec\) runtime 1 \(s\) ' \
		"$(sed -n 7p <<<"$out")"
	expect_match "line 13" '^RPS percentiles \(requests\) runtime 1 \(s\) \(1 total samples\)$' \
		"$(sed -n 13p <<<"$out")"
	expect_match "rps p50" $'^\t\\* 50\\.0th: ' "$(sed -n 15p <<<"$out")"
	expect_match "average" '^average rps: [0-9]+\.[0-9]{2}$' "$(sed -n 18p <<<"$out")"
	# the lines' samples add up to those at or below the 99.9th: at
	# most the total, and at least 99.9% of it
	awk -F'[()]' 'NR == 1 { split($4, t, " "); total = t[1] }
		NR >= 2 && NR <= 5 { split($2, s, " "); sum += s[1] }
		END { exit !(sum <= total && sum >= 0.999 * total - 1) }' <<<"$out" ||
		fail "percentile lines' samples do not add up: $out"
}

# Every measured request records one wakeup and one request latency;
# percentiles are ordered; one RPS sample per second of runtime.
test_wakeup_json() {
	local j
	run_sl bench wakeup -m 2 -t 2 -r 1 $SMALL --format json
	expect_eq "exit status" 0 "$rc"
	j=$out
	expect_eq "workload" wakeup "$(jval "$j" .workload)"
	expect_eq "message threads" 2 "$(jval "$j" .parameters.message_threads)"
	expect_eq "workers" 2 "$(jval "$j" .parameters.workers)"
	expect_eq "runtime" 1 "$(jval "$j" .parameters.runtime)"
	expect_eq "headline" true "$(jval "$j" '.metrics."wakeup.p99_us".headline')"
	expect_eq "unit" us "$(jval "$j" '.metrics."wakeup.p99_us".unit')"
	expect_eq "wakeups = requests" "$(jval "$j" '.metrics."wakeup.requests".value')" \
		"$(jval "$j" '.metrics."wakeup.samples".value')"
	expect_eq "request latencies = requests" "$(jval "$j" '.metrics."wakeup.requests".value')" \
		"$(jval "$j" '.metrics."wakeup.request_samples".value')"
	expect_eq "rps samples" 1 "$(jval "$j" '.metrics."wakeup.rps_samples".value')"
	jq -e '.metrics as $m | [$m."wakeup.min_us", $m."wakeup.p50_us",
		$m."wakeup.p90_us", $m."wakeup.p99_us", $m."wakeup.p999_us",
		$m."wakeup.max_us"] | map(.value) | . == sort and .[0] > 0' \
		<<<"$j" >/dev/null || fail "wakeup percentiles out of order: $j"
	jq -e '.metrics as $m | [$m."wakeup.request_min_us", $m."wakeup.request_p50_us",
		$m."wakeup.request_p99_us", $m."wakeup.request_max_us"] |
		map(.value) | . == sort' <<<"$j" >/dev/null ||
		fail "request percentiles out of order"
	# the one second counted holds (nearly) every request: average
	# and median agree within the requests of the last fraction
	approx "rps median vs average" "$(jval "$j" '.metrics."wakeup.rps".value')" \
		"$(jval "$j" '.metrics."wakeup.rps_p50".value')" 0.05
	# the probes explain the same latency: as many samples
	expect_eq "probe latency samples" "$(jval "$j" '.metrics."wakeup.samples".value')" \
		"$(jval "$j" '.metrics."latency.samples".value')"
}

# bench's own -r (repeat) before the workload, schbench's -r (runtime) after.
test_wakeup_runtime_vs_repeat() {
	run_sl bench -r 2 wakeup -t 1 -r 1 $SMALL --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "runs" 2 "$(jval "$out" .runs)"
	expect_eq "runtime" 1 "$(jval "$out" .parameters.runtime)"
}

# -R paces: 2 workers asked for 100 requests/s serve about 100 in 1 s
# (each sleeps to its next 20 ms slot; the work takes far less).
test_wakeup_paced() {
	local n
	run_sl bench wakeup -t 2 -R 100 -r 1 $SMALL --format json
	expect_eq "exit status" 0 "$rc"
	n=$(jval "$out" '.metrics."wakeup.requests".value')
	awk -v n="$n" 'BEGIN { exit !(n >= 80 && n <= 102) }' ||
		fail "-R 100 for 1 s served $n requests"
}

# --record=off: no latency recorded, RPS still counted.
test_wakeup_record_off() {
	run_sl bench wakeup -t 1 -r 1 $SMALL --record=off --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "p99" null "$(jq -r '.metrics."wakeup.p99_us".value' <<<"$out")"
	jq -e '.metrics."wakeup.rps".value > 0' <<<"$out" >/dev/null ||
		fail "no rps with --record=off"
	run_sl bench wakeup -t 1 -r 1 $SMALL --record=off
	expect_eq "exit status" 0 "$rc"
	expect_match "text" '^RPS percentiles' "$out"
}

test_wakeup_bad_options() {
	run_sl bench wakeup -m 0
	expect_eq "-m 0" 2 "$rc"
	expect_match "-m 0 says" '-m/--message_threads.*1\.\.1024' "$err"
	run_sl bench wakeup -F 0
	expect_eq "-F 0" 2 "$rc"
	run_sl bench wakeup -r 0
	expect_eq "-r 0" 2 "$rc"
	run_sl bench wakeup -t 4 -R 2
	expect_eq "-R below the workers" 2 "$rc"
	expect_match "-R says" 'rps 2 is less than one request per second' "$err"
	run_sl bench wakeup -m 64 -t 1000
	expect_eq "too many workers" 2 "$rc"
	expect_eq "stdout" "" "$out"
	expect_no_leftovers
}

# A timeout ends the run: threads blocked on futexes, the process gone.
test_wakeup_timeout() {
	start_sl bench wakeup -t 2 -r 100 $SMALL --timeout 1 --format json
	wait_workers 3 thread soft || true
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_match "stderr" '^schedlab: wakeup: timed out after 1 s$' "$err"
	expect_no_leftovers
}

# The shipped suite: workers 1..2x CPUs doubling on one message thread,
# CPUs/2 and CPUs on two. With 2 CPUs: 1,2,4 + 1,2 = 5 cases; with 8:
# 1,2,4,8,16 + 4,8 = 7. Runtime 30 s after 5 s of warm-up.
test_wakeup_suite_dry_run() {
	local out
	out=$(cd "$TOP" && SCHEDLAB_JOBS=$TOP/jobs SCHEDLAB_NCPU=2 "$SCHEDLAB" run --dry-run schbench-sweep)
	expect_match "2 CPUs" '^# schbench-sweep \(.*\): 5 cases, 25..50 iterations' "$out"
	expect_line "runtime" 'schbench-m1 +wakeup +workers=4 .* runtime=30 warmup_s=5 ' "$out"
	out=$(cd "$TOP" && SCHEDLAB_JOBS=$TOP/jobs SCHEDLAB_NCPU=8 "$SCHEDLAB" run --dry-run schbench-sweep)
	expect_match "8 CPUs" '^# schbench-sweep \(.*\): 7 cases, ' "$out"
	expect_line "16 workers" 'schbench-m1 +wakeup +workers=16 ' "$out"
	expect_line "2 x 4" 'schbench-m2 +wakeup +workers=4 +.*message_threads=2 ' "$out"
}

# wk_affinity: each thread of the wakeup workload process ($wl_pid) as
# its Cpus_allowed_list, oldest first (main, message threads, workers),
# once the last one has pinned itself (5 s at most: it pins before the
# start barrier); $1: the list the last thread should show.
wk_affinity() {
	local last=$1 tries=0 t lists
	while :; do
		lists=$(for t in $(ls "/proc/$wl_pid/task" | sort -n); do
			awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$wl_pid/task/$t/status"
		done | tr '\n' ' ')
		[ "${lists% }" != "${lists% "$last" }" ] && break
		tries=$((tries + 1))
		[ $tries -lt 100 ] || break
		sleep 0.05
	done
	echo "${lists% }"
}

# -M: message thread i on the i-th CPU of the list, round robin; -W:
# every worker on the whole list; the main thread keeps the process's.
test_wakeup_placement() {
	local all
	all=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	start_sl bench wakeup -m 3 -t 1 -M 0-1 -W 1 -r 2 $SMALL --format json
	wait_workers 6 thread
	expect_eq "-M 0-1 -W 1" "$all 0 1 0 1 1 1" "$(wk_affinity 1)"
	finish_sl
	expect_eq "exit status" 0 "$rc"
	# -M alone: the workers are not pinned
	start_sl bench wakeup -m 1 -t 2 -M 1 -r 2 $SMALL --format json
	wait_workers 3 thread
	sleep 0.2
	expect_eq "-M 1" "$all 1 $all $all" "$(wk_affinity "$all")"
	finish_sl
	expect_eq "exit status" 0 "$rc"
}

# auto: the message threads one CPU each from the first allowed, the
# workers on the allowed CPUs left.
test_wakeup_placement_auto() {
	[ "$(nproc)" -eq 2 ] || skip "written for 2 CPUs (0-1)"
	start_sl bench wakeup -m 1 -t 2 -W auto -r 2 $SMALL --format json
	wait_workers 3 thread
	expect_eq "-W auto" "0-1 0 1 1" "$(wk_affinity 1)"
	finish_sl
	expect_eq "exit status" 0 "$rc"
	run_sl bench wakeup -m 2 -t 1 -M auto -r 1 $SMALL
	expect_eq "-m 2 -M auto on 2 CPUs" 2 "$rc"
	expect_match "says" 'auto: 2 message threads leave none of the 2 allowed CPUs' "$err"
}

# -i: schbench's blocks so far on stderr every interval of the runtime,
# each ending "current rps"; stdout stays the result. The reports are
# read as they come: one per interval, before the program ends.
test_wakeup_interval() {
	local stamps
	use_tmpdir
	stamps=$tmp/stamps
	# a pipeline, which ends only when the reader has read every line
	{
		"$SCHEDLAB" bench wakeup -t 1 -r 3 -i 1 $SMALL --format json \
			2>&1 >"$tmp/out"
		echo $? >"$tmp/rc"
		echo "$EPOCHREALTIME" >"$tmp/exited"
	} | while IFS= read -r line; do
		printf '%s %s\n' "$EPOCHREALTIME" "$line"
	done >"$stamps"
	rc=$(cat "$tmp/rc")
	out=$(cat "$tmp/out")
	expect_eq "exit status" 0 "$rc"
	jq -e '.metrics."wakeup.p99_us".value > 0' <<<"$out" >/dev/null ||
		fail "stdout is not the JSON result: $out"
	err=$(cut -d' ' -f2- "$stamps")
	expect_eq "reports" 3 "$(grep -c '^current rps: [0-9]*\.[0-9][0-9]$' <<<"$err")"
	expect_eq "runtimes" "1 1 1 2 2 2 3 3 3" \
		"$(sed -n 's/.* runtime \([0-9]*\) (s).*/\1/p' <<<"$err" | tr '\n' ' ' | sed 's/ $//')"
	expect_eq "lines" 54 "$(nlines "$err")"
	expect_match "a block" $'^Wakeup Latencies percentiles \\(usec\\) runtime 1 \\(s\\) \\([0-9]+ total samples\\)\n\t  50\\.0th: ' "$err"
	# the reports come as they are made: the first is read before the
	# program ends (two intervals later), not flushed at its exit (how
	# far apart they come is the machine's business: bench/wakeup.sh)
	awk -v e="$(cat "$tmp/exited")" '/current rps/ { print ($1 < e) ? "streamed" : "at exit"; exit }' \
		"$stamps" | grep -qx streamed ||
		fail "the first report came at the program's exit ($(cat "$tmp/exited")): $(grep 'current rps' "$stamps")"
	run_sl bench wakeup -r 2 -i 3
	expect_eq "-i past the runtime" 2 "$rc"
	expect_match "says" '-i/--interval 3 is longer than the runtime' "$err"
}

# -j: schbench's JSON, to a file or with - to stdout: its "normal" texts
# and "int" numbers, five percentiles, min and max per block.
test_wakeup_schbench_json() {
	local f k
	use_tmpdir
	f=$tmp/sb.json
	run_sl bench wakeup -t 1 -r 1 $SMALL -j "$f" -J nightly
	expect_eq "exit status" 0 "$rc"
	expect_line "text still printed" '^average rps: ' "$out"
	expect_eq "jobname" nightly "$(jq -r .normal.jobname "$f")"
	expect_eq "version" "$(uname -r)" "$(jq -r .normal.version "$f")"
	expect_match "cmdline" 'bench wakeup -t 1 -r 1 .*-j .*sb\.json -J nightly$' "$(jq -r .normal.cmdline "$f")"
	expect_eq "normal keys" "cmdline hostname jobname sched_ext version" \
		"$(jq -r '.normal | keys | join(" ")' "$f")"
	for k in wakeup_latency request_latency rps; do
		expect_eq "$k keys" "${k}_max ${k}_min ${k}_pct20.0 ${k}_pct50.0 ${k}_pct90.0 ${k}_pct99.0 ${k}_pct99.9" \
			"$(jq -r --arg k "$k" '.int | keys | map(select(startswith($k + "_"))) | join(" ")' "$f")"
	done
	expect_eq "runtime" 1 "$(jq -r .int.runtime "$f")"
	jq -e '.int.time > 1600000000 and .int["wakeup_latency_pct20.0"] <= .int["wakeup_latency_pct99.0"]
		and .int.rps_min <= .int.rps_max and (.int | map(type) | unique) == ["number"]' \
		"$f" >/dev/null || fail "int values: $(cat "$f")"
	# the same percentiles as schedlab's own JSON, in whole microseconds
	run_sl bench wakeup -t 1 -r 1 $SMALL -j - --format json
	expect_eq "-j - exit status" 0 "$rc"
	expect_eq "-j -: two JSON documents on stdout" 2 "$(jq -s length <<<"$out")"
	jq -s -e '.[0].int["wakeup_latency_pct99.0"] == (.[1].metrics."wakeup.p99_us".value | round)' \
		<<<"$out" >/dev/null || fail "p99 differs between the two: $out"
	expect_eq "no jobname" null "$(jq -s -r '.[0].normal.jobname' <<<"$out")"
	run_sl bench wakeup -t 1 -r 1 $SMALL -j "$tmp/no/such/dir/x.json"
	expect_eq "unwritable -j" 1 "$rc"
	expect_match "says" "-j/--json '$tmp/no/such/dir/x.json'" "$err"
}

# --split P: P% of -F private to each worker, the rest on matrices all
# share: with 4 workers and -F 8192, 100 (the default) holds 4 x 8 MiB
# of matrices, 0 one shared 8 MiB - seen in the workload's VmRSS.
wk_rss_kb() {
	start_sl bench wakeup -t 4 -F 8192 -n 1 -s 0 -r 2 "$@" --format json
	wait_workers 5 thread
	sleep 0.5
	awk '/^VmRSS:/ { print $2 }' "/proc/$wl_pid/status"
	finish_sl
	[ "$rc" = 0 ] || fail "wakeup $* exit status $rc: $err"
}

test_wakeup_split() {
	local private shared
	private=$(wk_rss_kb)
	shared=$(wk_rss_kb --split 0)
	awk -v p="$private" -v s="$shared" 'BEGIN { exit !(p - s > 20000 && s < p / 2) }' ||
		fail "VmRSS split 100 $private KiB, split 0 $shared KiB: not 24 MiB apart"
	run_sl bench wakeup -t 1 -r 1 $SMALL --split 50 --format json
	expect_eq "--split 50" 50 "$(jval "$out" .parameters.split)"
	expect_eq "--split 50 exit status" 0 "$rc"
}

# -L / --no-locking: no per-CPU lock (nothing a test sees from outside:
# the lock is a spin without system calls, as schbench's trylock loop).
test_wakeup_no_locking() {
	run_sl bench wakeup -t 1 -r 1 $SMALL -L --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "-L" false "$(jval "$out" .parameters.locking)"
	run_sl bench wakeup -t 1 -r 1 $SMALL --no-locking --format json
	expect_eq "--no-locking" false "$(jval "$out" .parameters.locking)"
	jq -e '.metrics."wakeup.request_samples".value > 0' <<<"$out" >/dev/null ||
		fail "no requests without the lock"
}

test_wakeup_bad_new_options() {
	run_sl bench wakeup -M x
	expect_eq "-M x" 2 "$rc"
	expect_match "-M x says" "-M/--message_cpus 'x' is not a cpulist \(such as 0-3,8\), auto or none" "$err"
	run_sl bench wakeup -W 0-8191
	expect_eq "-W beyond the allowed CPUs" 2 "$rc"
	expect_match "-W says" "-W/--worker_cpus '0-8191': CPU [0-9]+ is not one this process may use" "$err"
	run_sl bench wakeup -W 3-1
	expect_eq "-W reversed" 2 "$rc"
	run_sl bench wakeup --split 101
	expect_eq "--split 101" 2 "$rc"
	expect_match "--split says" 'split.*0\.\.100' "$err"
	run_sl bench wakeup -i x
	expect_eq "-i x" 2 "$rc"
	expect_eq "stdout" "" "$out"
	expect_no_leftovers
}

# wk_calls FILE TID: "name count" of each system call TID made (futex
# split into futex_wait and futex_wake), one per line.
wk_calls() {
	awk -v t="$2" '$1 == t && $2 !~ /^<\.\.\./ { s = $2; sub(/\(.*/, "", s)
		if (s == "futex") s = /FUTEX_WAIT/ ? "futex_wait" : "futex_wake"
		c[s]++ } END { for (k in c) print k, c[k] }' "$1"
}

wk_count() {
	awk -v s="$2" '$1 == s { n = $2 } END { print n + 0 }' <<<"$1"
}

# schbench's system calls per request: the worker sleeps (usleep: one
# clock_nanosleep), posts its message thread (at most one FUTEX_WAKE)
# and waits (at most one FUTEX_WAIT); the message thread wakes each
# waiter (one FUTEX_WAKE per request) and waits. The clock and
# sched_getcpu() are the vDSO's; the lock is a trylock spin. Pinning is
# one sched_setaffinity per thread, before the start.
test_wakeup_syscalls() {
	local tr msg workers w calls sleeps total=0 req other
	command -v strace >/dev/null || skip "no strace"
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	tr=$(mktemp)
	strace_sl "$tr" all bench wakeup -m 1 -t 2 -M 0 -W 1 -r 1 $SMALL --format json
	expect_eq "exit status" 0 "$rc"
	req=$(jval "$out" '.metrics."wakeup.requests".value')
	expect_eq "pinning calls" 3 "$(ncalls "$tr" sched_setaffinity)"
	msg=$(awk '/^[0-9]+ +sched_setaffinity\(0, [0-9]+, \[0[] ]/ { print $1 }' "$tr")
	workers=$(awk '/^[0-9]+ +sched_setaffinity\(0, [0-9]+, \[1[] ]/ { print $1 }' "$tr" | tr '\n' ' ')
	expect_eq "message threads pinned to 0" 1 "$(wc -w <<<"$msg")"
	expect_eq "workers pinned to 1" 2 "$(wc -w <<<"$workers")"
	for w in $workers; do
		calls=$(wk_calls "$tr" "$w")
		sleeps=$(wk_count "$calls" clock_nanosleep)
		total=$((total + sleeps))
		[ "$(wk_count "$calls" futex_wait)" -le $((sleeps + 2)) ] &&
			[ "$(wk_count "$calls" futex_wake)" -le $((sleeps + 2)) ] ||
			fail "worker $w: more than one wait and one post per request: $calls"
		other=$(awk '$1 !~ /^(futex_wait|futex_wake|clock_nanosleep)$/ { n += $2 } END { print n + 0 }' <<<"$calls")
		# thread start and exit, a few more under ASan; never per request
		[ "$other" -le 64 ] || fail "worker $w: $other other calls: $calls"
	done
	awk -v t="$total" -v r="$req" 'BEGIN { exit !(t >= r && t <= r + 4) }' ||
		fail "workers slept $total times for $req requests"
	calls=$(wk_calls "$tr" "$msg")
	expect_eq "message thread sleeps" 0 "$(wk_count "$calls" clock_nanosleep)"
	# one wake per request, and a few more now and then (one CI run saw
	# t + 3: the count takes every FUTEX_WAKE-like call, the C library's
	# own included), but never one per request
	awk -v n="$(wk_count "$calls" futex_wake)" -v r="$req" -v t="$total" \
		'BEGIN { exit !(n >= r && n <= t + 8) }' ||
		fail "message thread: $(wk_count "$calls" futex_wake) wakes for $req requests"
	rm -f "$tr"
}

# -p: schbench's pipe mode. A hand-off writes the bytes each way, with
# no sleep and no work: the wakeup block (20th percentile first), then
# each worker's transfer rate; -j has the wakeup block only.
test_wakeup_pipe_mode() {
	local tr
	use_tmpdir
	run_sl bench wakeup -t 2 -r 1 -p 4096 -j "$tmp/p.json"
	expect_eq "exit status" 0 "$rc"
	expect_eq "lines" 8 "$(nlines "$out")"
	expect_match "line 1" '^Wakeup Latencies percentiles \(usec\) runtime 1 \(s\) \([0-9]+ total samples\)$' \
		"$(sed -n 1p <<<"$out")"
	expect_match "p20" $'^\t  20\\.0th: [0-9]+ +\\([0-9]+ samples\\)$' "$(sed -n 2p <<<"$out")"
	expect_match "p99" $'^\t\\* 99\\.0th: ' "$(sed -n 5p <<<"$out")"
	expect_match "transfer" '^avg worker transfer: [0-9]+\.[0-9]{2} ops/sec [0-9]+\.[0-9]{2}(B|KB|MB|GB)/s$' \
		"$(sed -n 8p <<<"$out")"
	expect_eq "-j keys" "runtime time wakeup_latency_max wakeup_latency_min wakeup_latency_pct20.0 wakeup_latency_pct50.0 wakeup_latency_pct90.0 wakeup_latency_pct99.0 wakeup_latency_pct99.9" \
		"$(jq -r '.int | keys | join(" ")' "$tmp/p.json")"
	run_sl bench wakeup -t 2 -r 1 -p 4096 --format json
	jq -e '.metrics as $m | ($m."wakeup.transfer_bytes".value / $m."wakeup.transfer_ops".value | round) == 4096
		and $m."wakeup.p20_us".value <= $m."wakeup.p50_us".value' <<<"$out" >/dev/null ||
		fail "pipe metrics: $out"
	# no usleep in pipe mode: the workers only wait and post
	command -v strace >/dev/null || return 0
	tr=$(mktemp)
	strace_sl "$tr" clock_nanosleep,futex bench wakeup -t 2 -r 1 -p 64 --format json
	expect_eq "strace exit status" 0 "$rc"
	expect_eq "usleeps" 0 "$(grep -cE '^[0-9]+ +clock_nanosleep\(CLOCK_REALTIME' "$tr" || true)"
	[ "$(ncalls "$tr" futex)" -ge "$(jval "$out" '.metrics."wakeup.requests".value')" ] ||
		fail "fewer futex calls than hand-offs"
	rm -f "$tr"
	run_sl bench wakeup -p 1048577
	expect_eq "-p too big" 2 "$rc"
	expect_match "-p says" 'pipe_bytes.*0\.\.1048576' "$err"
	run_sl bench wakeup -p 8 -r 2 -i 1
	expect_eq "-p with -i" 2 "$rc"
}
