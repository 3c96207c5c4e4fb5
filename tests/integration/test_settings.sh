# SPDX-License-Identifier: GPL-2.0-only
#
# Issue 14: the task settings (nice, policy, uclamp, env.NAME), the
# affinity and the case's cgroup, seen from inside the workload: a
# `command` job whose program writes its own state (/proc/self/stat's
# nice, /proc/self/sched's policy, Cpus_allowed_list, its environment,
# /proc/self/cgroup, a child's policy and nice) into a file that the
# test reads. The run's stored case settings must say the same.

# recorder FILE: the program, `sh FILE OUT`, that writes its state to OUT.
recorder() {
	cat >"$1" <<'EOF'
exec >"$1"
echo "nice $(cut -d' ' -f19 /proc/self/stat)"
echo "policy $(awk '$1 == "policy" { print $3 }' /proc/self/sched)"
echo "uclamp_min $(awk '$1 == "uclamp.min" { print $3 }' /proc/self/sched)"
echo "cpus $(awk '$1 == "Cpus_allowed_list:" { print $2 }' /proc/self/status)"
echo "foo ${FOO-unset}"
sleep 0.2 &
echo "child_policy $(awk '$1 == "policy" { print $3 }' /proc/$!/sched)"
echo "child_nice $(cut -d' ' -f19 /proc/$!/stat)"
wait
cg=$(awk -F: '$2 == "cpu" || $2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)
echo "cpu_cgroup $cg"
for h in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
	[ -f "$h$cg/cgroup.procs" ] || continue
	grep -qx "$$" "$h$cg/cgroup.procs" && echo "in_procs yes"
	echo "quota $(cat "$h$cg/cpu.cfs_quota_us")"
	break
done
EOF
}

# rec_job FILE [KEY=VALUE...]: a one-iteration job running the recorder
# into $tmp/state, with the given harness keys.
rec_job() {
	local f=$1
	shift
	recorder "$tmp/rec.sh"
	{
		printf '[rec]\nworkload = command\nargv = sh %s %s\niterations = 1\n' \
			"$tmp/rec.sh" "$tmp/state"
		for kv in "$@"; do
			printf '%s\n' "$kv"
		done
	} >"$f"
}

# state KEY: what the recorder wrote for KEY.
state() {
	awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$tmp/state"
}

# expect_no_cgroups [NAME]: the cgroup NAME (/schedlab-...) is in no
# hierarchy, nor any schedlab-PID-* whose schedlab is gone (a leftover);
# those of live schedlab processes (other tests') may be there.
expect_no_cgroups() {
	local d pid
	for d in /sys/fs/cgroup/*/schedlab-* /sys/fs/cgroup/schedlab-*; do
		[ -d "$d" ] || continue
		[ -z "${1:-}" ] || [ "/${d##*/}" != "$1" ] || fail "cgroup left behind: $d"
		pid=${d##*/schedlab-}
		pid=${pid%%-*}
		[[ $pid =~ ^[0-9]+$ ]] || continue
		kill -0 "$pid" 2>/dev/null || fail "cgroup left behind: $d"
	done
}

# nice, policy, cpus and env.NAME take effect in the workload's program
# and its children (no SCHED_RESET_ON_FORK), and are stored with the case.
test_setting_task_effect() {
	local set
	use_tmpdir
	rec_job "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set nice=7 \
		--set policy=batch --set cpus=0 --set env.FOO=bar
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "nice" 7 "$(state nice)"
	expect_eq "policy (SCHED_BATCH)" 3 "$(state policy)"
	expect_eq "cpus" 0 "$(state cpus)"
	expect_eq "env" bar "$(state foo)"
	expect_eq "a child's policy" 3 "$(state child_policy)"
	expect_eq "a child's nice" 7 "$(state child_nice)"
	set=$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json | jq -c '.cases[0].settings')
	expect_eq "stored settings" \
		'{"cpus":"0","env.FOO":"bar","nice":"7","policy":"batch"}' "$set"
	expect_no_leftovers
}

# A real-time policy and a negative nice, which SCHED_RESET_ON_FORK
# would take from the children: they keep them.
test_setting_rt_inherits() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	use_tmpdir
	rec_job "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set policy=rr:5 --set nice=-3
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "policy (SCHED_RR)" 2 "$(state policy)"
	expect_eq "a child's policy" 2 "$(state child_policy)"
	expect_eq "a child's nice" -3 "$(state child_nice)"
	expect_eq "stored" "rr:5" \
		"$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json | jq -r '.cases[0].settings.policy')"
	expect_no_leftovers
}

# The same keys in a job file: [global]'s apply to every job, a job's own
# value wins; a run without any leaves the program as schedlab was.
test_setting_jobfile_keys() {
	use_tmpdir
	rec_job "$tmp/r.job" "nice = 4" "policy = idle" "env.FOO = from-job"
	sed -i '1i [global]\nnice = 2\nenv.FOO = from-global' "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db"
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "the job's nice" 4 "$(state nice)"
	expect_eq "policy (SCHED_IDLE)" 5 "$(state policy)"
	expect_eq "the job's env" from-job "$(state foo)"
	expect_eq "stored nice" 4 \
		"$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json | jq -r '.cases[0].settings.nice')"
	rec_job "$tmp/plain.job"
	run_sl run "$tmp/plain.job" --db "$tmp/r.db"
	expect_eq "exit ($err)" 0 "$rc"
	expect_eq "inherited nice" "$(cut -d' ' -f19 /proc/self/stat)" "$(state nice)"
	expect_eq "inherited policy" 0 "$(state policy)"
	expect_eq "no env" unset "$(state foo)"
	expect_no_leftovers
}

# Bad values stop the run at load, exit 2, naming the setting and what
# is accepted; nothing runs.
test_setting_bad_values() {
	use_tmpdir
	rec_job "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set nice=30
	expect_eq "nice=30: exit" 2 "$rc"
	expect_match "nice=30: why" "nice: '30' is out of range \(expected -20\.\.19\)" "$err"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set policy=fifo
	expect_eq "policy=fifo: exit" 2 "$rc"
	expect_match "policy=fifo: why" "policy fifo needs a priority in 1\.\.99, as fifo:10" "$err"
	rec_job "$tmp/bad.job" "policy = deadline"
	run_sl run "$tmp/bad.job" --db "$tmp/r.db"
	expect_eq "job file: exit" 2 "$rc"
	expect_match "job file: where and why" "bad\.job:5: policy: 'deadline' is not a scheduling policy \(expected other, batch, idle" "$err"
	[ ! -e "$tmp/state" ] || fail "the program ran"
	expect_eq "runs stored" 0 "$(nruns "$tmp/r.db")"
	expect_no_leftovers
}

# uclamp: where the kernel has it the program runs clamped; where it has
# not (this VM), the run fails saying so, naming the setting.
test_setting_uclamp() {
	use_tmpdir
	rec_job "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set uclamp_min=512
	if [ "$rc" = 0 ]; then
		expect_eq "uclamp.min" 512 "$(state uclamp_min)"
	else
		expect_match "no uclamp: why" "uclamp_min=512: this kernel has no utilization clamping \(sched_setattr: Operation not supported\)" "$err"
		[ ! -e "$tmp/state" ] || fail "the program ran unclamped"
	fi
	expect_no_leftovers
}

# A negative nice is refused to an unprivileged user, with the reason.
test_setting_nice_unprivileged() {
	local u=nobody
	[ "$(id -u)" = 0 ] || skip "needs root (to run schedlab as $u)"
	id "$u" >/dev/null 2>&1 || skip "no user $u"
	command -v setpriv >/dev/null || skip "no setpriv"
	use_tmpdir
	chmod 777 "$tmp"
	rec_job "$tmp/r.job"
	chmod 644 "$tmp/r.job" "$tmp/rec.sh"
	set +e
	err=$(HOME=$tmp setpriv --reuid "$u" --regid nogroup --clear-groups \
	      "$SCHEDLAB" run "$tmp/r.job" --db "$tmp/u.db" --set nice=-5 2>&1 >/dev/null)
	rc=$?
	set -e
	[ "$rc" != 0 ] || fail "nice=-5 ran unprivileged"
	expect_match "why" "nice=-5: cannot set: Permission denied" "$err"
	[ ! -e "$tmp/state" ] || fail "the program ran"
	expect_no_leftovers
}

# A process-mode messaging run's workers inherit the workload process's
# nice and policy: read from each worker while it runs.
test_setting_workers_inherit() {
	local w n=0 pol nice
	use_tmpdir
	printf '[m]\nworkload = messaging\nmode = process\nipc = pipe\ngroups = 1\nfds = 2\nloops = 1000000\niterations = 1\n' >"$tmp/m.job"
	start_sl run "$tmp/m.job" --db "$tmp/m.db" --set nice=5 --set policy=batch
	wait_workers 4
	for w in $workers; do
		pol=$(awk '$1 == "policy" { print $3 }' "/proc/$w/sched" 2>/dev/null || true)
		nice=$(cut -d' ' -f19 "/proc/$w/stat" 2>/dev/null || true)
		[ -n "$pol" ] || continue	# gone already
		expect_eq "worker $w's policy" 3 "$pol"
		expect_eq "worker $w's nice" 5 "$nice"
		n=$((n + 1))
	done
	kill -INT "$sl_pid" 2>/dev/null || true
	finish_sl
	[ "$n" -gt 0 ] || fail "no worker was read"
	expect_no_leftovers
}

# cgroup setup: skip when the run cannot have a v1 cpu cgroup here.
need_cpu_cgroup() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] ||
		[ -f /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us ] ||
		skip "no cgroup v1 cpu hierarchy"
}

# A cgroup v1 cpu quota: the program runs in the schedlab-* cgroup the run
# made, which lists it and has the quota; nothing is left afterwards.
test_setting_cgroup_quota() {
	need_cpu_cgroup
	use_tmpdir
	rec_job "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set cgroup.cpu.cfs_quota_us=50000
	if [ "$rc" = 2 ] && [[ $err == *"not implemented"* ]]; then
		skip "switch_prepare has no cgroups yet: $err"
	fi
	expect_eq "exit ($err)" 0 "$rc"
	expect_match "the program's cgroup" "^/schedlab-[0-9]+-[0-9A-Za-z-]+$" "$(state cpu_cgroup)"
	expect_eq "cgroup.procs lists it" yes "$(state in_procs)"
	expect_eq "the quota" 50000 "$(state quota)"
	expect_eq "stored" 50000 \
		"$("$SCHEDLAB" show 1 --db "$tmp/r.db" --format json | jq -r '.cases[0].settings["cgroup.cpu.cfs_quota_us"]')"
	expect_no_cgroups "$(state cpu_cgroup)"
	expect_no_leftovers
}

# The quota is enforced: a program that spins for half a second under a
# 10% quota is throttled (cpu.stat's nr_throttled).
test_setting_cgroup_throttles() {
	need_cpu_cgroup
	use_tmpdir
	cat >"$tmp/spin.sh" <<'EOF'
cg=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)
timeout 0.5 sh -c 'while :; do :; done'
for h in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
	[ -f "$h$cg/cpu.stat" ] && awk '$1 == "nr_throttled" { print $2 }' "$h$cg/cpu.stat" >"$1" && break
done
echo "$cg" >"$1.cgroup"
EOF
	printf '[spin]\nworkload = command\nargv = sh %s %s\niterations = 1\ncgroup.cpu.cfs_quota_us = 10000\n' \
		"$tmp/spin.sh" "$tmp/throttled" >"$tmp/s.job"
	run_sl run "$tmp/s.job" --db "$tmp/r.db"
	if [ "$rc" = 2 ] && [[ $err == *"not implemented"* ]]; then
		skip "switch_prepare has no cgroups yet: $err"
	fi
	expect_eq "exit ($err)" 0 "$rc"
	[ "$(cat "$tmp/throttled")" -gt 0 ] || fail "not throttled: nr_throttled $(cat "$tmp/throttled")"
	expect_match "its cgroup" "^/schedlab-" "$(cat "$tmp/throttled.cgroup")"
	expect_no_cgroups "$(cat "$tmp/throttled.cgroup")"
	expect_no_leftovers
}

# A cgroup setting the controller does not have fails before anything
# runs, exit 2, naming the files it does have; nothing is left.
test_setting_cgroup_unknown_file() {
	need_cpu_cgroup
	use_tmpdir
	rec_job "$tmp/r.job"
	run_sl run "$tmp/r.job" --db "$tmp/r.db" --set cgroup.cpu.wieght=50
	if [ "$rc" = 2 ] && [[ $err == *"not implemented"* ]]; then
		skip "switch_prepare has no cgroups yet: $err"
	fi
	expect_eq "exit" 2 "$rc"
	expect_match "why" "cgroup\.cpu\.wieght: the cpu controller has no file cpu\.wieght \(its files: .*cpu\.shares" "$err"
	[ ! -e "$tmp/state" ] || fail "the program ran"
	expect_no_cgroups
	expect_no_leftovers
}
