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
