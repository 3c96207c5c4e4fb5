# SPDX-License-Identifier: GPL-2.0-only
#
# Machine knobs switched around each iteration (harness/switch.h): the
# value holds during the iterations and is back after, after SIGINT, and
# after SIGKILL once the next schedlab has read the restore journal; a
# knob or value the machine refuses fails before anything runs, with
# nothing changed. The knob is kernel.sched_rr_timeslice_ms (what the
# round-robin policy's slice is; nothing here runs SCHED_RR), always put
# back by the trap.

RR=/proc/sys/kernel/sched_rr_timeslice_ms
RR_KEY=sysctl.kernel.sched_rr_timeslice_ms

# use_knob: use_tmpdir, a state directory of the test's own, and the
# knob's original ($orig) put back when the test ends, however it ends;
# $val: a value it does not have.
use_knob() {
	[ "$(id -u)" = 0 ] || skip "needs root to write $RR"
	[ -w "$RR" ] || skip "no writable $RR"
	knob_lock
	use_tmpdir
	orig=$(cat "$RR")
	val=37
	[ "$orig" != 37 ] || val=38
	export SCHEDLAB_STATE_DIR=$tmp/state
	# shellcheck disable=SC2064
	trap "echo '$orig' >'$RR'; ${knob_trap_extra:-:} || true; rm -rf '$tmp'" EXIT
}

# knob_job FILE [SLEEP]: a command job whose every iteration appends the
# knob's value to $tmp/seen (and sleeps SLEEP seconds).
knob_job() {
	cat >"$1" <<EOF
[global]
iterations = 3
warmup = 1

[show]
workload = command
argv = sh -c 'cat $RR >> $tmp/seen; sleep ${2:-0}'
EOF
}

# journals: the restore journals left in the state directory.
journals() {
	ls "$SCHEDLAB_STATE_DIR/restore" 2>/dev/null | grep -c . || true
}

# wait_seen: until an iteration has read the knob (10 s at most).
wait_seen() {
	local tries=0

	until [ -s "$tmp/seen" ]; do
		kill -0 "$sl_pid" 2>/dev/null ||
			fail "schedlab ended before an iteration ran: $(cat "$sl_errf")"
		tries=$((tries + 1))
		[ $tries -lt 200 ] || fail "no iteration in 10 s"
		sleep 0.05
	done
}

test_knob_holds_during_iterations() {
	local id

	use_knob
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR_KEY=$val"
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$(unwarned "$err")"
	# the warm-up and 3 iterations saw it; it is back after
	expect_eq "values seen" "$val $val $val $val" "$(echo $(cat "$tmp/seen"))"
	expect_eq "after the run" "$orig" "$(cat "$RR")"
	expect_eq "journals left" 0 "$(journals)"
	id=$(tail -n 1 <<<"$out" | sed -nE 's/^run ([0-9]+) .*/\1/p')
	run_sl show "$id" --db "$tmp/r.db" --format json
	expect_eq "stored setting" "$val" \
		"$(jval "$out" ".cases[0].settings[\"$RR_KEY\"]")"
	expect_eq "switch timings" 4 \
		"$(sqlite3 "$tmp/r.db" "select json_extract(environment, '\$.knob_switching.value.iterations') from runs where id = $id")"
}

test_knob_restored_after_sigint() {
	use_knob
	knob_job "$tmp/k.job" 30
	start_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR_KEY=$val"
	wait_seen
	expect_eq "during the run" "$val" "$(cat "$RR")"
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit status" 130 "$rc"
	expect_eq "after SIGINT" "$orig" "$(cat "$RR")"
	expect_eq "journals left" 0 "$(journals)"
	expect_no_leftovers
}

# Killed, schedlab cannot put it back: the journal stays, and the next
# schedlab of any command restores it and says so.
test_knob_recovered_after_sigkill() {
	local pid

	use_knob
	knob_job "$tmp/k.job" 30
	start_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR_KEY=$val"
	wait_seen
	pid=$sl_pid
	kill -KILL "$sl_pid"
	finish_sl
	expect_eq "exit status" 137 "$rc"
	wait_gone 10 || fail "the workload outlived schedlab"
	expect_eq "left by the killed run" "$val" "$(cat "$RR")"
	expect_eq "journals left" 1 "$(journals)"
	run_sl list runs --db "$tmp/r.db"
	expect_eq "exit status" 0 "$rc"
	expect_match "stderr" "^schedlab: restored 1 knob left by schedlab pid $pid \\(killed\\?\\): $RR_KEY=$orig\$" "$err"
	expect_eq "after recovery" "$orig" "$(cat "$RR")"
	expect_eq "journals left" 0 "$(journals)"
	# and once only
	run_sl list runs --db "$tmp/r.db"
	expect_eq "stderr the second time" "" "$err"
}

# refused STATUS REGEX: after run_sl: exit 2, one line matching REGEX,
# nothing run, stored or changed.
refused() {
	expect_eq "exit status" 2 "$rc"
	expect_match "stderr" "$1" "$(unwarned "$err")"
	expect_eq "stderr lines" 1 "$(nlines "$(unwarned "$err")")"
	[ ! -s "$tmp/seen" ] || fail "an iteration ran: $(cat "$tmp/seen")"
	expect_eq "the knob" "$orig" "$(cat "$RR")"
	expect_eq "journals left" 0 "$(journals)"
	expect_eq "runs stored" 0 "$(nruns "$tmp/r.db")"
}

test_knob_unknown_refused() {
	use_knob
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set sysctl.kernel.nope=1
	refused '^schedlab: sysctl\.kernel\.nope: /proc/sys/kernel/nope does not exist$'
}

# A value the kernel refuses fails at prepare, before any iteration.
test_knob_value_refused() {
	use_knob
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR_KEY=abc"
	refused "^schedlab: $RR_KEY=abc: the kernel refuses the value \\(Invalid argument\\)\$"
}

# -5 is taken, and read back as the default slice: warned, kept.
test_knob_reads_back_otherwise() {
	use_knob
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR_KEY=-5" -q
	expect_eq "exit status" 0 "$rc"
	expect_match "stderr" "schedlab: warning: $RR_KEY=-5 reads back as [0-9]+" "$err"
	expect_eq "after the run" "$orig" "$(cat "$RR")"
}

# Scheduler features live in debugfs, which this kernel locks down.
test_knob_sched_feat_refused() {
	local f=/sys/kernel/debug/sched/features

	[ "$(id -u)" = 0 ] || skip "needs root"
	if [ ! -e /sys/kernel/debug/sched ]; then
		mount -t debugfs none /sys/kernel/debug 2>/dev/null ||
			skip "debugfs cannot be mounted"
		knob_trap_extra="umount /sys/kernel/debug"
	fi
	use_knob
	if cat "$f" >/dev/null 2>&1 && grep -qw TTWU_QUEUE "$f"; then
		skip "this kernel lets root switch sched features"
	fi
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set sched_feat=NO_TTWU_QUEUE
	refused "^schedlab: sched_feat: the kernel refuses (to read|writes).* \\(debugfs locked down\\?\\)\$"
}

test_knob_scx_without_sched_ext() {
	use_knob
	[ ! -e /sys/kernel/sched_ext ] || skip "this kernel has sched_ext"
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set scx=scx_simple
	refused '^schedlab: scx: this kernel has no sched_ext \(/sys/kernel/sched_ext does not exist\)$'
}

# A path is followed to its file, which must be under /proc or /sys.
test_knob_path_outside_refused() {
	use_knob
	knob_job "$tmp/k.job"
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set /proc/self/cwd=1
	refused '^schedlab: /proc/self/cwd: it leads to .*, outside /proc and /sys'
	run_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR=$val" -q
	expect_eq "exit status" 0 "$rc"
	expect_eq "values seen" "$val $val $val $val" "$(echo $(cat "$tmp/seen"))"
	expect_eq "after the run" "$orig" "$(cat "$RR")"
}

# Not root: refused before anything runs, saying so.
test_knob_needs_root() {
	command -v setpriv >/dev/null || skip "no setpriv"
	use_knob
	knob_job "$tmp/k.job"
	chmod 755 "$tmp"
	mkdir -m 777 "$tmp/nobody"
	rc=0
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$tmp/nobody" SCHEDLAB_STATE_DIR="$tmp/nobody/state" \
		"$SCHEDLAB" run "$tmp/k.job" --db "$tmp/nobody/r.db" \
		--set "$RR_KEY=$val" 2>&1 >/dev/null) || rc=$?
	expect_eq "exit status" 2 "$rc"
	expect_match "stderr" "^schedlab: $RR_KEY: writing needs root \\(euid 65534\\)\$" "$(unwarned "$err")"
	[ ! -s "$tmp/seen" ] || fail "an iteration ran"
	expect_eq "the knob" "$orig" "$(cat "$RR")"
	[ ! -e "$tmp/nobody/state" ] || fail "a journal was written: $(ls -R "$tmp/nobody/state")"
}

# A cgroup of a killed run is removed by the next schedlab, with the knob.
test_knob_cgroup_recovered_after_sigkill() {
	local pid dir

	[ -f /sys/fs/cgroup/cpu/cpu.shares ] || skip "no cgroup v1 cpu hierarchy at /sys/fs/cgroup/cpu"
	use_knob
	knob_job "$tmp/k.job" 30
	start_sl run "$tmp/k.job" --db "$tmp/r.db" --set "$RR_KEY=$val" \
		--set cgroup.cpu.shares=512
	wait_seen
	pid=$sl_pid
	dir=/sys/fs/cgroup/cpu/schedlab-$pid-1
	# shellcheck disable=SC2064
	trap "echo '$orig' >'$RR'; rmdir '$dir' 2>/dev/null || true; rm -rf '$tmp'" EXIT
	[ -d "$dir" ] || fail "no cgroup $dir: $(ls /sys/fs/cgroup/cpu)"
	expect_eq "its shares" 512 "$(cat "$dir/cpu.shares")"
	kill -KILL "$sl_pid"
	finish_sl
	wait_gone 10 || fail "the workload outlived schedlab"
	[ -d "$dir" ] || fail "the cgroup went with schedlab"
	run_sl list runs --db "$tmp/r.db"
	expect_eq "exit status" 0 "$rc"
	expect_match "stderr" "^schedlab: restored 1 knob and 1 cgroup left by schedlab pid $pid \\(killed\\?\\): $RR_KEY=$orig $dir\$" "$err"
	[ ! -e "$dir" ] || fail "$dir is left"
	expect_eq "after recovery" "$orig" "$(cat "$RR")"
	expect_eq "journals left" 0 "$(journals)"
}
