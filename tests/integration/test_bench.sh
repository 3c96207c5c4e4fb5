# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab bench: the reference tools' output lines, the JSON document,
# every mode, and the system calls a run makes (strace).

# hackbench's three lines, for a given mode flag (empty or -T).
check_hackbench_lines() {
	local flag=$1 word=$2 g=2 f=3 l=7 s=50

	run_sl bench messaging $flag -g $g -f $f -l $l -s $s
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_eq "line count" 3 "$(nlines "$out")"
	expect_eq "line 1" "Running in $word mode with $g groups using $((2 * f)) file descriptors each (== $((g * 2 * f)) tasks)" \
		"$(sed -n 1p <<<"$out")"
	expect_eq "line 2" "Each sender will pass $l messages of $s bytes" \
		"$(sed -n 2p <<<"$out")"
	expect_match "line 3" '^Time: [0-9]+\.[0-9]{3}$' "$(sed -n 3p <<<"$out")"
}

test_hackbench_lines_process() {
	check_hackbench_lines "" process
	check_hackbench_lines -P process
}

test_hackbench_lines_threaded() {
	check_hackbench_lines -T threaded
	check_hackbench_lines --threads threaded
}

# hackbench's defaults: 10 groups of 20 senders and 20 receivers, 100 bytes.
test_messaging_defaults() {
	run_sl bench messaging -l 1
	expect_eq "exit status" 0 "$rc"
	expect_eq "line 1" "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)" \
		"$(sed -n 1p <<<"$out")"
	expect_eq "line 2" "Each sender will pass 1 messages of 100 bytes" \
		"$(sed -n 2p <<<"$out")"
	run_sl bench messaging --loops=1 --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "parameters" \
		'{"groups":10,"fds":20,"loops":1,"datasize":100,"ipc":"socket","mode":"process","fifo":false}' \
		"$(jq -c .parameters <<<"$out")"
}

# Output goes to a file, not a pipe: lines printed before the workers are
# forked must not be repeated by them.
test_redirected_output_not_repeated() {
	local f
	f=$(mktemp)
	"$SCHEDLAB" bench messaging -g 2 -f 2 -l 3 >"$f"
	expect_eq "lines in the file" 3 "$(wc -l <"$f")"
	expect_eq "header lines" 1 "$(grep -c '^Running in' "$f")"
	"$SCHEDLAB" bench pipe -l 10 --format perf >"$f"
	expect_eq "perf header lines" 1 "$(grep -c "^# Running 'sched/pipe'" "$f")"
	rm -f "$f"
}

check_perf_messaging() {
	local flag=$1 what=$2 g=3 f=2 l=5

	run_sl bench messaging $flag -g $g -f $f -l $l --format perf
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_eq "line count" 5 "$(nlines "$out")"
	expect_eq "line 1" "# Running 'sched/messaging' benchmark:" "$(sed -n 1p <<<"$out")"
	expect_eq "line 2" "# $f sender and receiver $what per group" "$(sed -n 2p <<<"$out")"
	expect_eq "line 3" "# $g groups == $((g * 2 * f)) $what run" "$(sed -n 3p <<<"$out")"
	expect_eq "line 4" "" "$(sed -n 4p <<<"$out")"
	expect_match "line 5" '^     Total time: [0-9]+\.[0-9]{3} \[sec\]$' "$(sed -n 5p <<<"$out")"
}

test_perf_messaging_block() {
	check_perf_messaging "" processes
	check_perf_messaging -t threads
	check_perf_messaging -T threads
}

# perf bench sched pipe's block, and that its three numbers agree.
check_perf_pipe() {
	local flags=$1 what=$2 order=$3 l=2000 total usecs ops

	run_sl bench pipe $flags -l $l --format perf
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_eq "line count" 8 "$(nlines "$out")"
	expect_eq "line 1" "# Running 'sched/pipe' benchmark:" "$(sed -n 1p <<<"$out")"
	expect_match "ordering line" "^# Loop ordering: $order \\(as perf " "$(sed -n 2p <<<"$out")"
	expect_eq "executed line" "# Executed $l pipe operations between two $what" \
		"$(sed -n 3p <<<"$out")"
	expect_eq "line 4" "" "$(sed -n 4p <<<"$out")"
	expect_match "total line" '^     Total time: [0-9]+\.[0-9]{3} \[sec\]$' "$(sed -n 5p <<<"$out")"
	expect_eq "line 6" "" "$(sed -n 6p <<<"$out")"
	# perf's " %14lf usecs/op" and " %14d ops/sec"
	expect_match "usecs line" '^ +[0-9]+\.[0-9]{6} usecs/op$' "$(sed -n 7p <<<"$out")"
	expect_eq "usecs field width" 15 "$(sed -n 7p <<<"$out" | sed 's/ usecs\/op$//' | awk '{ print length($0) }')"
	expect_match "ops line" '^ +[0-9]+ ops/sec$' "$(sed -n 8p <<<"$out")"
	expect_eq "ops field width" 15 "$(sed -n 8p <<<"$out" | sed 's/ ops\/sec$//' | awk '{ print length($0) }')"

	total=$(sed -n 5p <<<"$out" | awk '{ print $3 }')
	usecs=$(sed -n 7p <<<"$out" | awk '{ print $1 }')
	ops=$(sed -n 8p <<<"$out" | awk '{ print $1 }')
	# Total time is truncated to ms; usecs/op x loops is the same time.
	awk -v t="$total" -v u="$usecs" -v l=$l 'BEGIN {
		s = u * l / 1e6; exit !(s >= t - 1e-6 && s < t + 0.001 + 1e-6) }' ||
		fail "usecs/op $usecs x $l loops is not the total time $total"
	# ops/sec is (int)(loops / seconds); usecs/op is rounded to 1e-6 us,
	# which moves 1e6 / usecs by up to 0.5e-6 / usecs of itself
	awk -v o="$ops" -v u="$usecs" 'BEGIN {
		e = 1e6 / u; d = 1 + e * 0.5e-6 / u
		exit !(o <= e + d && o >= e - d) }' ||
		fail "ops/sec $ops does not match usecs/op $usecs"
}

test_perf_pipe_block() {
	check_perf_pipe "" processes one-token
	check_perf_pipe "-T --ordering two-tokens" threads two-tokens
	check_perf_pipe "--threaded --ordering=one-token" threads one-token
	check_perf_pipe "--mode process --ordering two-tokens" processes two-tokens
}

# pipe's default output is perf's block
test_pipe_default_format_is_perf() {
	run_sl bench pipe -l 10
	expect_eq "exit status" 0 "$rc"
	expect_eq "line 1" "# Running 'sched/pipe' benchmark:" "$(sed -n 1p <<<"$out")"
	expect_match "output" 'usecs/op' "$out"
}

# The schema's shape and types, shared by every workload.
check_json_shape() {
	local doc=$1 wl=$2

	jq -e '.schema == "schedlab-bench/1"' <<<"$doc" >/dev/null || fail "schema: $doc"
	jq -e '.schedlab_version | type == "string" and length > 0' <<<"$doc" >/dev/null ||
		fail "schedlab_version"
	expect_eq "workload" "$wl" "$(jval "$doc" .workload)"
	expect_eq "status" ok "$(jval "$doc" .status)"
	jq -e 'has("reason") | not' <<<"$doc" >/dev/null || fail "a reason on an ok run"
	jq -e '.parameters | type == "object"' <<<"$doc" >/dev/null || fail "parameters"
	jq -e '.metrics | type == "object" and length > 0' <<<"$doc" >/dev/null || fail "metrics"
	# the workload's own metrics are positive; the probes' may be 0
	jq -e --arg wl "$(jval "$doc" .workload)" '[.metrics | to_entries[] |
		select(.key | startswith($wl + ".")) | .value.value > 0] | all' <<<"$doc" >/dev/null ||
		fail "a workload metric is not positive: $(jq -c .metrics <<<"$doc")"
	jq -e '[.metrics[] | (.value | type == "number") and .value >= 0 and
		(.unit | type == "string" and length > 0) and
		(.better | IN("lower", "higher", "none")) and
		(.headline | type == "boolean")] | all' <<<"$doc" >/dev/null ||
		fail "a metric lacks value/unit/better/headline: $(jq -c .metrics <<<"$doc")"
	expect_eq "headline metrics" 1 "$(jq '[.metrics[] | select(.headline)] | length' <<<"$doc")"
	# the workload's, then the probes' (doc/json.md)
	jq -e '.metrics | keys | all(startswith($wl + ".") or
		test("^(sched|rusage|cpu|psi|schedstat|perf|latency|probes)\\."))' --arg wl "$wl" <<<"$doc" >/dev/null ||
		fail "metric names are not $wl.* or a probe's: $(jq -c '.metrics | keys' <<<"$doc")"
	jq -e '.process | (.wall_s | type == "number") and .wall_s > 0 and
		(.user_s | type == "number") and .user_s >= 0 and
		(.sys_s | type == "number") and .sys_s >= 0 and
		(.maxrss_kib | type == "number") and .maxrss_kib > 0 and
		.leftover_killed == 0' <<<"$doc" >/dev/null ||
		fail "process: $(jq -c .process <<<"$doc")"
}

test_json_messaging() {
	local g=2 f=3 l=4 s=64 t rate wall

	run_sl bench messaging -g $g -f $f -l $l -s $s -p -T --format json --probes=off
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	check_json_shape "$out" messaging
	expect_eq "parameters" \
		"{\"groups\":$g,\"fds\":$f,\"loops\":$l,\"datasize\":$s,\"ipc\":\"pipe\",\"mode\":\"thread\",\"fifo\":false}" \
		"$(jq -c .parameters <<<"$out")"
	expect_eq "metric names" '["messaging.msgs_per_sec","messaging.time"]' \
		"$(jq -c '[.metrics | keys[] | select(startswith("messaging."))]' <<<"$out")"
	expect_eq "time unit" s "$(jval "$out" '.metrics["messaging.time"].unit')"
	expect_eq "time better" lower "$(jval "$out" '.metrics["messaging.time"].better')"
	expect_eq "time is the headline" true "$(jval "$out" '.metrics["messaging.time"].headline')"
	expect_eq "rate better" higher "$(jval "$out" '.metrics["messaging.msgs_per_sec"].better')"
	t=$(jval "$out" '.metrics["messaging.time"].value')
	rate=$(jval "$out" '.metrics["messaging.msgs_per_sec"].value')
	approx "msgs/s x time = groups x fds x fds x loops" $((g * f * f * l)) \
		"$(awk -v r="$rate" -v t="$t" 'BEGIN { printf "%.6f", r * t }')" 1e-6
	wall=$(jval "$out" .process.wall_s)
	awk -v t="$t" -v w="$wall" 'BEGIN { exit !(t <= w) }' ||
		fail "timed part $t is longer than the workload process's life $wall"
}

test_json_pipe() {
	local l=3000 t us ops

	run_sl bench pipe -l $l --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	check_json_shape "$out" pipe
	expect_eq "parameters" "{\"loops\":$l,\"mode\":\"process\",\"ordering\":\"one-token\",\"nonblocking\":false,\"cgroups\":\"\"}" \
		"$(jq -c .parameters <<<"$out")"
	expect_eq "headline" pipe.usecs_per_op \
		"$(jq -r '.metrics | to_entries[] | select(.value.headline) | .key' <<<"$out")"
	expect_eq "units" '{"pipe.time":"s","pipe.usecs_per_op":"us","pipe.ops_per_sec":"ops/s"}' \
		"$(jq -c '.metrics | with_entries(select(.key | startswith("pipe."))) | map_values(.unit)' <<<"$out")"
	expect_eq "directions" '{"pipe.time":"lower","pipe.usecs_per_op":"lower","pipe.ops_per_sec":"higher"}' \
		"$(jq -c '.metrics | with_entries(select(.key | startswith("pipe."))) | map_values(.better)' <<<"$out")"
	t=$(jval "$out" '.metrics["pipe.time"].value')
	us=$(jval "$out" '.metrics["pipe.usecs_per_op"].value')
	ops=$(jval "$out" '.metrics["pipe.ops_per_sec"].value')
	approx "ops/s x time = loops" $l "$(awk -v o="$ops" -v t="$t" 'BEGIN { printf "%.6f", o * t }')" 1e-6
	approx "usecs/op x loops = time" "$t" "$(awk -v u="$us" -v l=$l 'BEGIN { printf "%.12f", u * l / 1e6 }')" 1e-6
}

# Every channel kind in both modes, spelled the hackbench way and the
# long way; the run says which one it used.
test_messaging_modes() {
	local flags ipc mode g=2 f=2 l=3

	while read -r ipc mode flags; do
		run_sl bench messaging $flags -g $g -f $f -l $l --format json
		expect_eq "exit status ($flags)" 0 "$rc"
		# over pipes, and with 6 messages a task, it runs without
		# probes unless asked (test_probes.sh:
		# test_probes_off_where_they_tip)
		err=$(grep -v '^schedlab: warning: messaging: probes off: ' <<<"$err" || true)
		expect_eq "stderr ($flags)" "" "$err"
		expect_eq "ipc ($flags)" "$ipc" "$(jval "$out" .parameters.ipc)"
		expect_eq "mode ($flags)" "$mode" "$(jval "$out" .parameters.mode)"
		expect_eq "status ($flags)" ok "$(jval "$out" .status)"
		jq -e '.metrics["messaging.time"].value > 0' <<<"$out" >/dev/null ||
			fail "no time ($flags)"
	done <<-EOF
		socket process -P
		pipe process -p
		inet process -i
		socket thread -T
		pipe thread -p -T
		inet thread -i -t
		pipe thread --ipc=pipe --mode=thread
		inet process --inet --processes
		socket thread --ipc socket --thread
	EOF
}

test_messaging_big_messages() {
	# a megabyte per message, in both modes (hackbench -T crashes here)
	run_sl bench messaging -T -s 1048576 -g 1 -f 2 -l 2 --format json
	expect_eq "thread exit status" 0 "$rc"
	expect_eq "thread datasize" 1048576 "$(jval "$out" .parameters.datasize)"
	run_sl bench messaging -s 1048576 -g 1 -f 2 -l 2 --format json
	expect_eq "process exit status" 0 "$rc"
}

test_pipe_orderings() {
	local mode

	for mode in process thread; do
		run_sl bench pipe -l 100 --mode $mode --format json
		expect_eq "default ordering ($mode)" one-token "$(jval "$out" .parameters.ordering)"
		run_sl bench pipe -l 100 --mode $mode --ordering two-tokens --format json
		expect_eq "exit status ($mode)" 0 "$rc"
		expect_eq "ordering ($mode)" two-tokens "$(jval "$out" .parameters.ordering)"
		expect_eq "mode ($mode)" $mode "$(jval "$out" .parameters.mode)"
	done
	run_sl bench pipe -l 100 -T --format json
	expect_eq "-T" thread "$(jval "$out" .parameters.mode)"
	run_sl bench pipe --loop 100 --format json
	expect_eq "--loop" 100 "$(jval "$out" .parameters.loops)"
}

# --- system calls: what strace -f -c would count, computed from the
# parameters. Only the main schedlab process writes to stdout, and it
# makes no read/write/poll of the workload's.

check_messaging_syscalls() {
	local g=$1 f=$2 l=$3
	shift 3
	local tr pids main others workers stdout_writes

	tr=$(mktemp)
	strace_sl "$tr" read,write,poll bench messaging -g "$g" -f "$f" -l "$l" "$@"
	expect_eq "exit status ($*)" 0 "$rc"
	pids=$(trace_pids "$tr")
	main=$(head -n1 <<<"$pids")
	others=$(tail -n +2 <<<"$pids" | tr '\n' ' ')
	workers=$((g * 2 * f))
	# data writes, one ready byte per worker, one wake byte
	expect_eq "writes by the workload ($*)" $((g * f * f * l + workers + 1)) \
		"$(ncalls "$tr" write "$others")"
	expect_eq "reads by the workload ($*)" $((g * f * f * l + workers)) \
		"$(ncalls "$tr" read "$others")"
	expect_eq "polls ($*)" $workers "$(ncalls "$tr" poll)"
	# the rest of strace -c's write count is stdout, and only schedlab's:
	# its lines are written whole, once or twice (header, then result)
	stdout_writes=$(grep -cE "^$main +write\\(1," "$tr" || true)
	[ "$stdout_writes" -ge 1 ] && [ "$stdout_writes" -le 2 ] ||
		fail "schedlab wrote stdout $stdout_writes times ($*)"
	expect_eq "writes to stdout by workers ($*)" 0 \
		"$(grep -v "^$main " "$tr" | grep -cE '^[0-9]+ +write\(1,' || true)"
	expect_eq "all writes ($*)" $((g * f * f * l + workers + 1 + stdout_writes)) \
		"$(ncalls "$tr" write)"
	expect_eq "writes to stderr ($*)" 0 "$(grep -cE '^[0-9]+ +write\(2,' "$tr" || true)"
	rm -f "$tr"
}

test_messaging_syscalls_process() {
	check_messaging_syscalls 1 4 10 --format json --probes=on
	check_messaging_syscalls 2 3 5 -p
}

test_messaging_syscalls_thread() {
	check_messaging_syscalls 1 4 10 -T --format json --probes=on
	check_messaging_syscalls 2 2 6 -T -p --format perf
}

test_messaging_syscalls_inet() {
	check_messaging_syscalls 1 3 4 -i --format json --probes=on
}

# Messages are sent in hackbench's order: each sender loops over the
# receivers j = 0..F-1, so its writes cycle through F fds in a fixed order.
test_messaging_write_order() {
	local tr f=3 l=4 seqs

	tr=$(mktemp)
	strace_sl "$tr" write bench messaging -g 1 -f $f -l $l --format json
	expect_eq "exit status" 0 "$rc"
	# per sender (a pid writing 100-byte messages): its fd sequence
	seqs=$(awk '$2 ~ /^write\([0-9]+,/ && (/, 100\) += 100$/ || /, 100 <unfinished/) {
			fd = $2; sub(/^write\(/, "", fd); sub(/,$/, "", fd)
			s[$1] = s[$1] " " fd }
		END { for (p in s) print s[p] }' "$tr")
	expect_eq "senders" $f "$(nlines "$seqs")"
	while read -r seq; do
		awk -v f=$f -v l=$l '{
			if (NF != f * l) exit 1
			for (i = f + 1; i <= NF; i++) if ($i != $(i - f)) exit 1
			for (i = 1; i <= f; i++) for (j = 1; j < i; j++) if ($i == $j) exit 1
		}' <<<"$seq" || fail "a sender's writes do not cycle through $f fds: $seq"
	done <<<"$seqs"
	rm -f "$tr"
}

check_pipe_syscalls() {
	local l=$1 first_reads=$2
	shift 2
	local tr pids others starts

	tr=$(mktemp)
	strace_sl "$tr" read,write bench pipe -l "$l" "$@"
	expect_eq "exit status ($*)" 0 "$rc"
	pids=$(trace_pids "$tr")
	others=$(tail -n +2 <<<"$pids" | tr '\n' ' ')
	expect_eq "writes by the workers ($*)" $((2 * l)) "$(ncalls "$tr" write "$others")"
	expect_eq "reads by the workers ($*)" $((2 * l)) "$(ncalls "$tr" read "$others")"
	# 4-byte messages only
	expect_eq "4-byte writes ($*)" $((2 * l)) \
		"$(grep -E '^[0-9]+ +write\(' "$tr" | grep -cE ', 4( <unfinished \.\.\.>|\) += 4)$' || true)"
	# the ordering: how many workers begin with a read
	starts=$(awk -v others=" $others " '
		index(others, " " $1 " ") && $2 ~ /^(read|write)\(/ && !seen[$1]++ {
			n += $2 ~ /^read/ }
		END { print n + 0 }' "$tr")
	expect_eq "workers that read first ($*)" "$first_reads" "$starts"
	rm -f "$tr"
}

test_pipe_syscalls() {
	check_pipe_syscalls 1000 1 --format json
	check_pipe_syscalls 1000 0 --ordering two-tokens
	check_pipe_syscalls 500 1 -T
	check_pipe_syscalls 500 0 -T --ordering two-tokens --format json
}

# perf bench sched pipe -n (tools/perf/bench/sched-pipe.c; Debian's perf
# 6.1 lacks it): both pipes pipe2(O_NONBLOCK), one epoll instance per
# worker with EPOLLIN on its read end, and an epoll_wait before every
# read - per op a side: one write, one epoll_wait, one read.
check_pipe_nonblock_syscalls() {
	local l=$1 tr others seqs
	shift

	tr=$(mktemp)
	strace_sl "$tr" read,write,pipe,pipe2,epoll_wait,epoll_create,epoll_create1,epoll_ctl \
		bench pipe -l "$l" -n "$@"
	expect_eq "exit status (-n $*)" 0 "$rc"
	others=$(trace_pids "$tr" | tail -n +2 | tr '\n' ' ')
	expect_eq "O_NONBLOCK pipes (-n $*)" 2 \
		"$(grep -cE '^[0-9]+ +pipe2\(\[[0-9]+, [0-9]+\], O_NONBLOCK\) += 0' "$tr" || true)"
	expect_eq "writes (-n $*)" $((2 * l)) "$(ncalls "$tr" write "$others")"
	expect_eq "reads (-n $*)" $((2 * l)) "$(ncalls "$tr" read "$others")"
	expect_eq "epoll_waits (-n $*)" $((2 * l)) "$(ncalls "$tr" epoll_wait "$others")"
	expect_eq "epoll instances (-n $*)" 2 \
		$(( $(ncalls "$tr" epoll_create "$others") + $(ncalls "$tr" epoll_create1 "$others") ))
	expect_eq "EPOLLIN registrations (-n $*)" 2 \
		"$(grep -E '^[0-9]+ +epoll_ctl\([0-9]+, EPOLL_CTL_ADD, [0-9]+, \{events=EPOLLIN,' "$tr" | wc -l)"
	# in each worker, every read comes right after an epoll_wait
	seqs=$(awk -v others=" $others " '
		index(others, " " $1 " ") && $2 ~ /^(read|write|epoll_wait)\(/ {
			sub(/\(.*/, "", $2); s[$1] = s[$1] substr($2, 1, 1) }
		END { for (p in s) print s[p] }' "$tr")
	expect_eq "workers doing ops (-n $*)" 2 "$(wc -l <<<"$seqs")"
	while read -r seq; do
		[[ $seq != *[rw]r* && $seq != r* ]] ||
			fail "a read without an epoll_wait before it (-n $*): $seq"
	done <<<"$seqs"
	rm -f "$tr"
}

test_pipe_nonblock_syscalls() {
	local tr
	check_pipe_nonblock_syscalls 500
	check_pipe_nonblock_syscalls 500 --ordering two-tokens
	check_pipe_nonblock_syscalls 300 -T --format json
	# and without -n: blocking pipes, no epoll
	tr=$(mktemp)
	strace_sl "$tr" read,write,pipe,pipe2,epoll_wait bench pipe -l 100
	expect_eq "exit status" 0 "$rc"
	expect_eq "blocking pipes" 2 "$(grep -cE '^[0-9]+ +pipe2?\(\[[0-9]+, [0-9]+\](, 0)?\) += 0' "$tr" || true)"
	expect_eq "epoll_waits without -n" 0 "$(ncalls "$tr" epoll_wait)"
	rm -f "$tr"
}

test_pipe_nonblock_json() {
	run_sl bench pipe -l 1000 --nonblocking --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "parameter" true "$(jq -r .parameters.nonblocking <<<"$out")"
	run_sl bench pipe -l 1000 --format json
	expect_eq "default" false "$(jq -r .parameters.nonblocking <<<"$out")"
}

# perf's -G names are relative to the perf_event v1 hierarchy's mount,
# else the cgroup v2 mount (tools/lib/api/fs/cgroup.c), from /proc/mounts
pipe_cgroup_mount() {
	awk '$3 == "cgroup" && ("," $4 ",") ~ /,perf_event,/ { print $2; found = 1; exit }
	     $3 == "cgroup2" { v2 = $2 }
	     END { if (!found && v2 != "") print v2 }' /proc/mounts
}

test_pipe_cgroups() {
	local mnt s r tr ps pr
	[ "$(id -u)" = 0 ] || skip "joining a cgroup needs root"
	mnt=$(pipe_cgroup_mount)
	[ -n "$mnt" ] || skip "no perf_event cgroup v1 hierarchy and no cgroup v2"
	s=sl-test-$$-send r=sl-test-$$-recv
	mkdir "$mnt/$s" "$mnt/$r" || skip "cannot create cgroups under $mnt"
	tr=$(mktemp)
	strace_sl "$tr" openat,write bench pipe -l 200 -G "$s,$r"
	rmdir "$mnt/$s" "$mnt/$r"
	expect_eq "exit status (err: $err)" 0 "$rc"
	# worker 0 (the child) joins SEND, worker 1 (the workload process) RECV
	ps=$(awk -v d="\"$mnt/$s\"," '$2 == "openat(AT_FDCWD," && $3 == d && $4 ~ /^O_RDONLY\)?$/ { print $1 }' "$tr")
	pr=$(awk -v d="\"$mnt/$r\"," '$2 == "openat(AT_FDCWD," && $3 == d && $4 ~ /^O_RDONLY\)?$/ { print $1 }' "$tr")
	[ -n "$ps" ] && [ -n "$pr" ] && [ "$ps" != "$pr" ] ||
		fail "each worker opens its cgroup: send by '$ps', recv by '$pr'"
	for p in $ps $pr; do
		grep -qE "^$p +openat\([0-9]+, \"cgroup.procs\", O_WRONLY" "$tr" ||
			fail "worker $p opens no cgroup.procs"
		# the kernel took the pid: the whole write went
		[ "$(awk -v p="$p" '
			$1 != p { next }
			$2 ~ /^write\(/ && index($0, "\"" p "\\n\"") { w = 1 }
			w && / = [0-9-]+$/ { print $NF; exit }' "$tr")" = $(( ${#p} + 1 )) ] ||
			fail "worker $p did not write its pid into cgroup.procs"
	done
	rm -f "$tr"
}

test_pipe_cgroups_bad() {
	local mnt
	run_sl bench pipe -l 10 -G onlyone
	expect_eq "exit status, no comma" 2 "$rc"
	expect_match "message" "-G/--cgroups takes SEND,RECV: it should have two cgroup names: onlyone" "$err"
	mnt=$(pipe_cgroup_mount)
	[ -n "$mnt" ] || skip "no perf_event cgroup v1 hierarchy and no cgroup v2"
	run_sl bench pipe -l 10 -G "sl-none-$$-a,sl-none-$$-b"
	expect_eq "exit status, no such cgroup" 2 "$rc"
	expect_match "message" "no access to cgroup $mnt/sl-none-$$-a" "$err"
	expect_match "perf's message" "Failed to open cgroup file in sl-none-$$-a \\(hint: create the cgroup first, like 'mkdir $mnt/sl-none-$$-a'\\)" "$err"
	expect_eq "no result printed" "" "$out"
}
