# SPDX-License-Identifier: GPL-2.0-only
#
# compute (AIM7-style multiuser load): the table row, the JSON metrics
# and their formulas, the job timing index of a fair and of a lopsided
# run, bad options, failures. Runs of 10-20 jobs of a few ms each.

# The title naming the mix, AIM7's column header, one row per run.
test_compute_aim7_rows() {
	run_sl bench -r 2 compute -n 2 -j 10
	expect_eq "exit status" 0 "$rc"
	expect_eq "title" "schedlab compute - AIM7-style multiuser load, job mix compute-v1, 10 jobs per task" \
		"$(sed -n 1p <<<"$out")"
	expect_eq "blank" "" "$(sed -n 2p <<<"$out")"
	expect_eq "header" "Tasks   Jobs/Min        JTI     Real    CPU     Jobs/sec/task" \
		"$(sed -n 3p <<<"$out")"
	# columns at 8-character stops, Jobs/Min 16 wide (seed 000's table);
	# Real and CPU to 3 significant digits, one decimal at least
	expect_match "row 1" '^2       [0-9]+\.[0-9] +[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]{4}$' \
		"$(sed -n 4p <<<"$out")"
	expect_eq "3 significant digits" "" "$(sed -n 4,5p <<<"$out" | awk '{
		for (i = 4; i <= 5; i++) {
			d = $i; sub(/^0\.0*/, "", d); sub(/\./, "", d); sub(/^0+/, "", d)
			if (length(d) < 3) print "column " i ": " $i
		} }')"
	expect_eq "JTI column" 24 "$(sed -n 4p <<<"$out" | awk '{ print index($0, " " $3 " ") }')"
	expect_match "row 2" '^2       ' "$(sed -n 5p <<<"$out")"
}

m() { jval "$out" ".metrics.\"$1\".value"; }

# One task: the standard deviation of one finish time is 0, JTI 100.
# Jobs/Min = jobs x tasks / Real x 60, Jobs/sec/task = jobs / Real.
test_compute_json_one_task() {
	local t0 t1
	t0=$(date +%s%N)
	run_sl bench compute -n 1 -j 10 --format json
	t1=$(date +%s%N)
	expect_eq "exit status" 0 "$rc"
	expect_eq "mix" compute-v1 "$(jval "$out" .parameters.mix)"
	expect_eq "headline" true "$(jval "$out" '.metrics."compute.jobs_per_min".headline')"
	expect_eq "JTI" 100 "$(m compute.jti)"
	approx "jobs/min" "$(awk -v r="$(m compute.real_s)" 'BEGIN { printf "%.12g", 10 * 1 / r * 60 }')" \
		"$(m compute.jobs_per_min)" 1e-6
	approx "jobs/sec/task" "$(awk -v r="$(m compute.real_s)" 'BEGIN { printf "%.12g", 10 / r }')" \
		"$(m compute.jobs_per_sec_task)" 1e-6
	expect_eq "first = last" "$(m compute.real_s)" "$(m compute.first_s)"
	# the task's CPU time, as AIM7's: the child's user + sys over its
	# life, its setup before the start included, so not bounded by
	# Real; one task cannot spend more than the command's own time
	awk -v c="$(m compute.cpu_s)" -v w="$(( (t1 - t0) / 1000 ))" \
		'BEGIN { exit !(c > 0 && c <= w / 1e6 * 1.05 + 0.01) }' ||
		fail "CPU $(m compute.cpu_s) s in a command of $(( (t1 - t0) / 1000000 )) ms"
	run_sl bench compute -n 4 -j 10 --format json
	expect_eq "exit status (4 tasks)" 0 "$rc"
	approx "jobs/min, 4 tasks" "$(awk -v r="$(m compute.real_s)" 'BEGIN { printf "%.12g", 10 * 4 / r * 60 }')" \
		"$(m compute.jobs_per_min)" 1e-6
}

# Three tasks on two CPUs, task 1 alone on the second and the other two
# sharing the first: every task is pinned to one CPU, so none ever
# migrates, whatever else the machine runs. How lopsided the finish
# times are (JTI about 71, the first finish about half the last, on a
# quiet machine) depends on what else runs: bench/compute.sh
# measures it, doc/benchmarks.md has the figures.
test_compute_jti_lopsided() {
	local cpus a b
	cpus=$(taskset -pc $$ | sed 's/.*: //')
	a=$(expand_cpus "$cpus" | sed -n 1p)
	b=$(expand_cpus "$cpus" | sed -n 2p)
	[ -n "$b" ] || skip "needs 2 CPUs to run on, has $cpus"
	rc=0
	out=$(taskset -c "$a,$b" "$SCHEDLAB" bench compute -n 3 -j 20 --pin-one "$b" \
		--probes=on --format json) || rc=$?
	expect_eq "exit status" 0 "$rc"
	expect_eq "pin" "$b" "$(jval "$out" .parameters.pin_one)"
	expect_match "JTI: a whole index" '^([0-9]|[1-9][0-9]|100)$' "$(m compute.jti)"
	awk -v f="$(m compute.first_s)" -v r="$(m compute.real_s)" \
		'BEGIN { exit !(f > 0 && f <= r) }' ||
		fail "first finish $(m compute.first_s) s after the last, $(m compute.real_s) s"
	if [ "$(jq -r '.metrics."sched.migrations".value' <<<"$out")" != null ]; then
		expect_eq "migrations of tasks pinned one CPU each" 0 "$(m sched.migrations)"
	fi
	if [ "$(jq -r '.metrics."sched.cpu_moves".value' <<<"$out")" != null ]; then
		expect_eq "CPU moves of tasks pinned one CPU each" 0 "$(m sched.cpu_moves)"
	fi
}

# The CPUs of a cpulist, one a line.
expand_cpus() {
	tr ',' '\n' <<<"$1" | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'
}

test_compute_bad_options() {
	run_sl bench compute -n 0
	expect_eq "-n 0" 2 "$rc"
	expect_match "-n 0 says" '-n/--tasks.*1\.\.100000' "$err"
	run_sl bench compute --mix compute-v0
	expect_eq "unknown mix" 2 "$rc"
	expect_match "mix says" 'compute-v1' "$err"
	run_sl bench compute --pin-one 999
	expect_eq "--pin-one 999" 2 "$rc"
	expect_match "pin says" "^schedlab: compute: option --pin-one '999' is not a CPU this process may run on" "$err"
	run_sl bench compute --pin-one x1
	expect_eq "--pin-one x1" 2 "$rc"
	expect_match "x1 says" "'x1' is not a CPU number" "$err"
	# taskset: util-linux, essential in Debian
	rc=0
	err=$(taskset -c 0 "$SCHEDLAB" bench compute --pin-one 0 2>&1 >/dev/null) || rc=$?
	expect_eq "--pin-one on the only CPU" 2 "$rc"
	expect_match "pin says" 'leaves no other CPU' "$err"
	expect_eq "stdout" "" "$out"
	expect_no_leftovers
}

# A task killed mid-run: the reason names it; nothing is left.
test_compute_task_killed() {
	local victim
	start_sl bench compute -n 3 -j 1000000 --timeout 60 --format json
	wait_workers 3
	wait_started
	victim=$(sed -n 2p <<<"$workers")
	kill -KILL "$victim"
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_match "stderr" "^schedlab: compute: worker 2 of 3 \\(pid $victim\\) was killed by signal 9" "$err"
	expect_group_empty "$wl_pid"
	expect_no_leftovers
}

test_compute_timeout() {
	start_sl bench compute -n 3 -j 1000000 --timeout 1 --format json
	wait_workers 3 process soft || true
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_match "stderr" '^schedlab: compute: timed out after 1 s$' "$err"
	expect_no_leftovers
}

# The shipped suite: 1, then 5 doubling up to 8x the CPUs, and 8x the
# CPUs: 2 CPUs 1,5,10,16; 80 CPUs seed 000's 1,5,10,...,640.
test_compute_suite_dry_run() {
	local out
	out=$(cd "$TOP" && SCHEDLAB_JOBS=$TOP/jobs SCHEDLAB_NCPU=2 "$SCHEDLAB" run --dry-run aim7-compute)
	expect_match "2 CPUs" '^# aim7-compute \(.*\): 4 cases, 20..40 iterations' "$out"
	expect_line "16 tasks" 'aim7-compute +compute +tasks=16 .*tasks=16 jobs=100 mix=compute-v1 ' "$out"
	out=$(cd "$TOP" && SCHEDLAB_JOBS=$TOP/jobs SCHEDLAB_NCPU=80 "$SCHEDLAB" run --dry-run aim7-compute)
	expect_eq "80 CPUs" "1 5 10 20 40 80 160 320 640" \
		"$(grep -oE 'sweep|tasks=[0-9]+ ' <<<"$out" | awk -F'[= ]' '/tasks/ && !seen[$2]++ { printf "%s%s", sep, $2; sep = " " }')"
}

# The three native workloads from a job file: each case stored with its
# own metrics (JTI of one task is 100 in every sample; the identity
# holds the options that differ from their defaults, the parameters
# every option, the mix included).
test_native_workloads_stored() {
	local j
	use_tmpdir
	cat > "$tmp/native.job" <<'JOB'
[global]
iterations = 2
timeout = 1m

[wk]
workload = wakeup
runtime = 1
workers = 1
footprint_kb = 16
operations = 1

[tcp]
workload = rr
length = 1

[aim]
workload = compute
jobs = 5
tasks = 1
JOB
	run_sl run "$tmp/native.job" --db "$tmp/r.db"
	expect_eq "exit status" 0 "$rc"
	expect_match "stored" 'run 1 .*: complete, 3 of 3 cases complete' "$out"
	j=$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json)
	expect_eq "wakeup p99 samples" 2 "$(jq '.cases[0].samples."wakeup.p99_us" | map(select(. > 0)) | length' <<<"$j")"
	expect_eq "rr samples" 2 "$(jq '.cases[1].samples."rr.trans_per_s" | map(select(. > 0)) | length' <<<"$j")"
	expect_eq "JTI" "[100,100]" "$(jq -c '.cases[2].samples."compute.jti"' <<<"$j")"
	expect_eq "identity" "jobs=5" "$(jq -r '.cases[2].params' <<<"$j")"
	expect_eq "mix" "compute-v1" "$(jq -r '.cases[2].parameters.mix' <<<"$j")"
}
