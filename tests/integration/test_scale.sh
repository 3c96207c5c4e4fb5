# SPDX-License-Identifier: GPL-2.0-only
#
# Limits: file descriptors, tasks, message sizes. schedlab raises what it
# may, and otherwise says what a run needs before it starts anything.

# hackbench -T -g 30 fails with EMFILE under 'ulimit -n 1024': 30 groups
# of 40 channel ends in one process. schedlab raises the soft limit.
test_fd_soft_limit_raised() {
	local g=30 f=20 hard

	hard=$(ulimit -H -n)
	if [ "$hard" != unlimited ] && [ "$hard" -lt $((g * 2 * f + 100)) ]; then
		skip "hard fd limit $hard is below the $((g * 2 * f + 100)) this test needs"
	fi
	set +e
	out=$(ulimit -S -n 1024 && "$SCHEDLAB" bench messaging -T -g $g -f $f -l 1 --format json --probes=on 2>&1)
	rc=$?
	set -e
	expect_eq "exit status (-T -g $g under ulimit -S -n 1024): $out" 0 "$rc"
	expect_eq "groups" $g "$(jval "$out" .parameters.groups)"
	expect_eq "status" ok "$(jval "$out" .status)"
	# and in process mode, which never needs them all at once
	set +e
	out=$(ulimit -S -n 1024 && "$SCHEDLAB" bench messaging -g $g -f $f -l 1 --format json --probes=on 2>&1)
	rc=$?
	set -e
	expect_eq "exit status (process mode): $out" 0 "$rc"
}

# With the hard limit low too, the run either raises it (privileged) or
# says what it needs and how to get it, before starting anything.
test_fd_hard_limit_low() {
	local g=30 f=20 tr e n

	tr=$(mktemp)
	e=$(mktemp)
	set +e
	out=$(ulimit -n 1024 && env "$NO_LSAN" strace -f -qq -o "$tr" -e trace=clone,clone3,fork,vfork \
		"$SCHEDLAB" bench messaging -T -g $g -f $f -l 1 --format json 2>"$e")
	rc=$?
	set -e
	err=$(cat "$e")
	rm -f "$e"
	if [ "$rc" -eq 0 ]; then
		expect_eq "status" ok "$(jval "$out" .status)"
		rm -f "$tr"
		return 0
	fi
	expect_eq "exit status" 1 "$rc"
	expect_eq "stdout" "" "$out"
	expect_eq "stderr lines" 1 "$(nlines "$err")"
	expect_match "stderr" 'needs [0-9]+ file descriptors.*ulimit' "$err"
	n=$(sed -E 's/.*needs ([0-9]+) file descriptors.*/\1/' <<<"$err")
	[ "$n" -ge $((g * 2 * f)) ] || fail "says $n descriptors, but $g groups of $((2 * f)) need more"
	expect_eq "processes created" 0 "$(grep -c . "$tr" || true)"
	rm -f "$tr"
}

# 100000 groups of 20 in one process: 4,000,000 descriptors, more than
# any limit can be raised to. It fails at once, saying how many it needs.
test_fd_request_that_cannot_fit() {
	local g=100000 f=20 tr n

	tr=$(mktemp)
	strace_sl "$tr" clone,clone3,fork,vfork bench messaging -T -g $g -f $f -l 1
	expect_match "exit status" '^[12]$' "$rc"
	expect_eq "stdout" "" "$out"
	expect_eq "stderr lines" 1 "$(nlines "$err")"
	expect_match "stderr" 'needs [0-9]+ file descriptors' "$err"
	expect_match "stderr says how to raise the limit" 'ulimit|limits\.conf|nr_open' "$err"
	n=$(sed -E 's/.*needs ([0-9]+) file descriptors.*/\1/' <<<"$err")
	[ "$n" -ge $((g * 2 * f)) ] || fail "says $n descriptors, but it needs at least $((g * 2 * f))"
	expect_eq "processes created" 0 \
		"$(grep -cE '^[0-9]+ +(clone|clone3|fork|vfork)\(' "$tr" || true)"
	rm -f "$tr"
}

# Above fs.nr_open no ulimit can help: the advice must name the sysctl
# (or the way around it), not a 'ulimit -Hn' that will be refused.
test_fd_advice_beyond_nr_open() {
	local nr_open g f

	nr_open=$(cat /proc/sys/fs/nr_open)
	f=20
	g=$((nr_open / (2 * f) + 1))
	[ $((g * 2 * f)) -le 4000000 ] || skip "fs.nr_open $nr_open is too high to exceed with 4000000 tasks"
	run_sl bench messaging -T -g $g -f $f -l 1
	expect_match "exit status" '^[12]$' "$rc"
	expect_match "stderr (needs > nr_open = $nr_open)" 'nr_open' "$err"
}

test_too_many_tasks() {
	run_sl bench messaging -g 100000 -f 21 -l 1
	expect_eq "exit status" 2 "$rc"
	expect_eq "stdout" "" "$out"
	expect_eq "stderr lines" 1 "$(nlines "$err")"
	expect_match "stderr" '4200000 tasks.*4000000' "$err"
}

# Threads that do not fit under 'ulimit -v' are blamed on it, not on
# 'ulimit -u' (issue 12, defect 12).
test_thread_limit_by_address_space() {
	(ulimit -v 150000; "$SCHEDLAB" --version) >/dev/null 2>&1 ||
		skip "schedlab cannot start under ulimit -v 150000 (a sanitizer build)"
	set +e
	err=$( (ulimit -v 150000; "$SCHEDLAB" bench messaging -T -g 100 -l 10) 2>&1 >/dev/null)
	rc=$?
	set -e
	expect_eq "exit status ($err)" 1 "$rc"
	expect_match "names ulimit -v" "cannot create thread [0-9]+ of 4000.*ulimit -v" "$err"
	[[ $err != *"ulimit -u"* ]] || fail "blames ulimit -u: $err"
}

# hackbench keeps the message buffer on a PTHREAD_STACK_MIN stack and
# crashes with -T -s 20000; schedlab sizes the stack.
test_thread_mode_large_messages() {
	run_sl bench messaging -T -s 20000 -g 1 -l 10 --format json
	expect_eq "exit status: $err" 0 "$rc"
	expect_eq "datasize" 20000 "$(jval "$out" .parameters.datasize)"
	expect_eq "status" ok "$(jval "$out" .status)"
	run_sl bench messaging -T -s 200000 -g 1 -f 4 -l 2 --format json
	expect_eq "exit status -s 200000: $err" 0 "$rc"
}

# A larger run still ends clean: 30 groups of 20 (1200 processes).
test_thirty_groups_process_mode() {
	run_sl bench messaging -g 30 -l 2 --format json
	expect_eq "exit status: $err" 0 "$rc"
	expect_eq "leftovers killed" 0 "$(jval "$out" .process.leftover_killed)"
	expect_no_leftovers
}

# Each receiver reads fds x loops messages: 5 x 858993460 is 2^32 + 4,
# which must not wrap to 4 (the receivers would quit after 4 messages and
# the senders die of SIGPIPE). Either the combination is refused up front
# or the run really goes on until the timeout.
test_messages_per_receiver_do_not_wrap() {
	local f=5 l=858993460

	run_sl bench messaging -g 1 -f $f -l $l --timeout 2 --format json
	case $rc in
	2)	expect_match "refusal" 'loops|fds' "$err" ;;
	1)	expect_match "the run must go on until the timeout" 'timed out after 2 s$' "$err" ;;
	*)	fail "exit status $rc: $err" ;;
	esac
	expect_no_leftovers
}

# sl_stack SOFT HARD ARGS...: schedlab ARGS under 'ulimit -s' SOFT/HARD
# KiB, into $out, $err, $rc (HARD "-" leaves the hard limit alone), with
# PATH alone in its environment. Under a 16 KiB limit the environment's
# strings and the kernel's random offset of up to 8 KiB below the stack
# top leave the dynamic loader too little before main() runs: with 3 KiB
# of environment even /bin/true dies by SIGSEGV in about one start in
# five (55 of 300), and this test's threaded messaging in 58 of 500 with
# 2.4 KiB (about what make check passes down); with PATH alone, none in
# 1,000. So the environment is emptied before the limit is set: `env -i`
# started under it still had this shell's, and died in 1 run of 300.
sl_stack() {
	local soft=$1 hard=$2

	shift 2
	set +e
	out=$(env -i PATH="$PATH" SOFT="$soft" HARD="$hard" bash -c \
		'ulimit -Ss "$SOFT"; if [ "$HARD" != - ]; then ulimit -Hs "$HARD"; fi
		unset SOFT HARD; exec "$@"' _ "$SCHEDLAB" "$@" 2>"$tmp/err")
	rc=$?
	set -e
	err=$(cat "$tmp/err")
}

# Under a tiny stack limit (ulimit -s 16..24) the main process died with
# SIGSEGV (issue 12, defect 13). A soft limit below what schedlab needs
# is raised up to the hard one; a hard limit below it is refused with
# one message, before anything is stored. Process-mode messaging
# workers hold a message on their stack: -s 20000 at 24-32 KiB works,
# and a size that the hard limit cannot hold is refused in prepare().
test_small_stack_limits() {
	# ASan's runtime needs more than 16 KiB of stack before main (about
	# one start in ten dies): the normal build's run of this test counts
	if grep -q __asan_init "$SCHEDLAB"; then
		skip "a sanitizer build cannot start under ulimit -s 16"
	fi
	use_tmpdir
	printf '[j]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/j.job"
	for s in 16 20 24; do
		sl_stack "$s" "$s" run -q "$tmp/j.job" --db "$tmp/h.db"
		expect_eq "hard $s KiB: exit status ($err)" 2 "$rc"
		expect_eq "hard $s KiB: stderr lines" 1 "$(nlines "$err")"
		expect_match "hard $s KiB: message" "stack limit \\(ulimit -s\\) of $s KiB is below the 128 KiB schedlab needs" "$err"
		[ ! -e "$tmp/h.db" ] || fail "hard $s KiB: the database was created"
		sl_stack "$s" - run -q "$tmp/j.job" --db "$tmp/r.db"
		expect_eq "soft $s KiB: exit status ($err)" 0 "$rc"
		sl_stack "$s" - bench messaging -T -s 20000 -g 1 -l 10
		expect_eq "soft $s KiB, -T -s 20000: exit status ($err)" 0 "$rc"
	done
	expect_eq "runs stored" 3 "$(nruns "$tmp/r.db")"
	for s in 24 32; do
		sl_stack "$s" - bench messaging -s 20000 -g 1 -l 10
		expect_eq "soft $s KiB, process mode -s 20000: exit status ($err)" 0 "$rc"
	done
	sl_stack 256 256 bench messaging -s 1000000 -g 1 -l 10
	expect_eq "process mode -s 1000000 under hard 256 KiB: exit status" 2 "$rc"
	expect_eq "stderr lines ($err)" 1 "$(nlines "$err")"
	expect_match "message" "messaging: datasize 1000000 needs a worker stack of [0-9]+ KiB, above the hard stack limit \\(ulimit -Hs\\) of 256 KiB" "$err"
	sl_stack 256 256 bench messaging -T -s 1000000 -g 1 -l 10
	expect_eq "thread mode -s 1000000 under hard 256 KiB: exit status ($err)" 0 "$rc"
}

# A worker maps what the process that forked it had mapped, and at
# 16,000 workers each mapping costs: torn down at exit in the timed
# region, walked by reverse-map scanners. libpq (and the twenty libraries
# it brings) and gsl are loaded only when a PostgreSQL store or a
# statistic needs them, so a messaging worker maps neither.
test_workers_map_no_store_libraries() {
	local pid kid maps n
	"$SCHEDLAB" bench messaging -g 1 -f 2 -l 1000000 --timeout 30 >/dev/null 2>&1 &
	pid=$!
	maps=
	for _ in $(seq 100); do
		kid=$pid
		while n=$(pgrep -P "$kid" -n); do kid=$n; done
		# a worker: a grandchild, or a child once the workload runs in schedlab
		if [ "$kid" != "$pid" ] && maps=$(cat "/proc/$kid/maps" 2>/dev/null) &&
			[ -n "$maps" ]; then
			break
		fi
		maps=
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" || true
	[ -n "$maps" ] || fail "found no worker of the messaging run"
	grep -q 'libc\.so' <<<"$maps" || fail "the worker's maps name no libc: $maps"
	for lib in libpq libgsl libgslcblas libkrb5 libssl libcrypto libldap; do
		if grep -q "/$lib[.-]" <<<"$maps"; then
			fail "a messaging worker maps $lib: $(grep "/$lib" <<<"$maps" | head -1)"
		fi
	done
	expect_no_leftovers
}

# Symbols bound when schedlab starts, as Debian's hardened hackbench's
# are: lazily bound, each of 16,000 workers looked its first calls up in
# every library's symbol table, a third of all their page faults.
test_symbols_bound_at_start() {
	command -v readelf >/dev/null || skip "no readelf"
	readelf -d "$SCHEDLAB" | grep -Eq 'FLAGS.*(BIND_NOW| NOW)' ||
		fail "schedlab is not linked with -z now: $(readelf -d "$SCHEDLAB" | grep FLAGS)"
	run_sl bench messaging -g 1 -l 10
	expect_eq "exit status: $err" 0 "$rc"
}
