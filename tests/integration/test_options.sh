# SPDX-License-Identifier: GPL-2.0-only
#
# The command line: bad options, help, the top-level commands, and the
# option spellings of the reference tools.

# expect_usage_error REGEX ARGS...: exit 2, nothing on stdout, exactly one
# line on stderr matching REGEX, and no process or thread created (strace).
expect_usage_error() {
	local re=$1 tr
	shift
	tr=$(mktemp)
	strace_sl "$tr" clone,clone3,fork,vfork "$@"
	expect_eq "exit status of '$*'" 2 "$rc"
	expect_eq "stdout of '$*'" "" "$out"
	expect_eq "stderr lines of '$*'" 1 "$(nlines "$err")"
	expect_match "stderr of '$*'" "^schedlab: .*$re" "$err"
	expect_eq "processes or threads created by '$*'" 0 \
		"$(grep -cE '^[0-9]+ +(clone|clone3|fork|vfork)\(' "$tr" || true)"
	rm -f "$tr"
}

test_bad_messaging_options() {
	local m="bench messaging"
	# shellcheck disable=SC2086
	{
	expect_usage_error "-g/--groups: '0' .*1\\.\\.100000" $m -g 0
	expect_usage_error "-g/--groups: '-1' .*1\\.\\.100000" $m -g -1
	expect_usage_error "-g/--groups: 'abc' .*1\\.\\.100000" $m -g abc
	expect_usage_error "-g/--groups: '99999999999999999999' .*1\\.\\.100000" $m -g 99999999999999999999
	# 2^32 + 1 would wrap to 1 if truncated to 32 bits
	expect_usage_error "-g/--groups: '4294967297' .*1\\.\\.100000" $m -g 4294967297
	expect_usage_error "-g/--groups: '100001' .*1\\.\\.100000" $m --groups=100001
	expect_usage_error "-g/--groups: '' " $m -g ''
	expect_usage_error "-g/--groups: '2x' " $m -g 2x
	expect_usage_error "-g/--groups: ' 2' " $m -g ' 2'
	expect_usage_error "-l/--loops: '0' .*1\\.\\.1000000000" $m -l 0
	expect_usage_error "-s/--datasize: '0' .*1\\.\\.1048576" $m -s 0
	expect_usage_error "-s/--datasize: '1048577' .*1\\.\\.1048576" $m -s 1048577
	expect_usage_error "-f/--fds: '0' .*1\\.\\.10000" $m -f 0
	expect_usage_error "-p/--pipe.*-i/--inet.*together" $m -p -i
	expect_usage_error "-i/--inet.*-p/--pipe.*together" $m -i -p
	expect_usage_error "-T/--threads.*-P/--process.*together" $m -T -P
	expect_usage_error "unknown option '-x'" $m -x
	expect_usage_error "unknown option '--bogus'" $m --bogus
	expect_usage_error "'-g' needs a value" $m -l 1 -g
	expect_usage_error "'--groups' needs a value" $m --groups
	expect_usage_error "'--pipe=1' takes no value" $m --pipe=1
	expect_usage_error "--format: 'bogus' .*hackbench, perf, json" $m --format bogus
	expect_usage_error "--timeout: '0' .*1\\.\\.31536000" $m --timeout 0
	expect_usage_error "--ipc: 'tcp' .*socket, pipe, inet" $m --ipc tcp
	expect_usage_error "--mode: 'fork' .*process, thread" $m --mode=fork
	expect_usage_error "-F/--fifo: 'maybe' .*true or false" $m --fifo=maybe
	expect_usage_error "unexpected argument 'stray'" $m stray
	expect_usage_error "unexpected argument 'stray'" $m -g 1 stray
	expect_usage_error "unknown workload 'nope'" bench nope
	expect_usage_error "unknown workload 'nope'" bench nope -g 1
	}
}

test_bad_pipe_options() {
	expect_usage_error "-l/--loops: '0' .*1\\.\\.2000000000" bench pipe -l 0
	expect_usage_error "-l/--loops: '-5' " bench pipe --loop=-5
	expect_usage_error "-l/--loops: '2000000001' .*1\\.\\.2000000000" bench pipe -l 2000000001
	expect_usage_error "--ordering: 'three' .*one-token, two-tokens" bench pipe --ordering three
	# pipe has perf's block and JSON, not hackbench's lines
	expect_usage_error "--format: 'hackbench' .*perf, json" bench pipe --format hackbench
	# messaging's flags are not pipe's
	expect_usage_error "unknown option '-g'" bench pipe -g 1
	expect_usage_error "unknown option '-p'" bench pipe -p
	expect_usage_error "unexpected argument '100'" bench pipe 100
}

# The reference tools' spellings all land on the same parameters.
test_option_spellings() {
	run_sl bench messaging -g1 -f2 -l3 -s40 -p -t --format=json
	expect_eq "exit status" 0 "$rc"
	expect_eq "attached values" \
		'{"groups":1,"fds":2,"loops":3,"datasize":40,"ipc":"pipe","mode":"thread","fifo":false}' \
		"$(jq -c .parameters <<<"$out")"
	run_sl bench messaging --groups=2 --fds 2 --loops=2 --datasize 10 --inet --threads --format json
	expect_eq "hackbench long options" \
		'{"groups":2,"fds":2,"loops":2,"datasize":10,"ipc":"inet","mode":"thread","fifo":false}' \
		"$(jq -c .parameters <<<"$out")"
	# perf bench's --group (a prefix of --groups), and -P after -p
	run_sl bench messaging --group 2 -f 2 -l 2 -p -P --format json
	expect_eq "perf spellings" '[2,"pipe","process"]' \
		"$(jq -c '[.parameters.groups, .parameters.ipc, .parameters.mode]' <<<"$out")"
	run_sl bench messaging -g 1 -f 1 -l 1 --fifo=false --format json
	expect_eq "--fifo=false" false "$(jval "$out" .parameters.fifo)"
	run_sl bench pipe --loop=7 --threaded --format json
	expect_eq "pipe long options" '{"loops":7,"mode":"thread","ordering":"one-token","nonblocking":false,"cgroups":""}' \
		"$(jq -c .parameters <<<"$out")"
}

test_version() {
	run_sl --version
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_match "version" '^schedlab [0-9A-Za-z][0-9A-Za-z.+~-]*$' "$out"
	local v=${out#schedlab }
	run_sl bench messaging -g 1 -f 1 -l 1 --format json
	expect_eq "JSON schedlab_version" "$v" "$(jval "$out" .schedlab_version)"
}

test_top_level_help() {
	local a

	for a in --help -h help; do
		run_sl $a
		expect_eq "exit status ($a)" 0 "$rc"
		expect_eq "stderr ($a)" "" "$err"
		expect_match "usage ($a)" '^usage: schedlab' "$out"
		expect_match "bench listed ($a)" $'\n  bench ' "$out"
		expect_match "list listed ($a)" $'\n  list ' "$out"
	done
	run_sl
	expect_eq "no command: exit status" 2 "$rc"
	expect_eq "no command: stdout" "" "$out"
	expect_match "no command: usage on stderr" '^usage: schedlab' "$err"
	run_sl nope
	expect_eq "unknown command: exit status" 2 "$rc"
	expect_eq "unknown command: stdout" "" "$out"
	expect_eq "unknown command: stderr lines" 1 "$(nlines "$err")"
	expect_match "unknown command: stderr" "unknown command 'nope'" "$err"
	run_sl help nope
	expect_eq "help nope: exit status" 2 "$rc"
	expect_match "help nope: stderr" "'nope'" "$err"
	run_sl --bogus
	expect_eq "unknown top-level flag: exit status" 2 "$rc"
}

test_help_commands() {
	run_sl help bench
	expect_eq "help bench: exit status" 0 "$rc"
	expect_match "help bench" '^usage: schedlab bench (\[-r N\] )?WORKLOAD' "$out"
	expect_match "help bench: messaging" $'\n  messaging ' "$out"
	expect_match "help bench: pipe" $'\n  pipe ' "$out"
	run_sl bench --help
	expect_eq "bench --help: exit status" 0 "$rc"
	expect_match "bench --help" '^usage: schedlab bench (\[-r N\] )?WORKLOAD' "$out"
	run_sl bench
	expect_eq "bench alone: exit status" 2 "$rc"
	expect_eq "bench alone: stdout" "" "$out"
	expect_match "bench alone: usage on stderr" '^usage: schedlab bench' "$err"
	run_sl help list
	expect_eq "help list: exit status" 0 "$rc"
	expect_match "help list" '^usage: schedlab list' "$out"
}

test_list_workloads() {
	local a

	for a in "list" "list workloads"; do
		run_sl $a
		expect_eq "exit status ($a)" 0 "$rc"
		expect_eq "stderr ($a)" "" "$err"
		expect_match "messaging ($a)" '(^|'$'\n'')messaging +[^ ]' "$out"
		expect_match "pipe ($a)" '(^|'$'\n'')pipe +[^ ]' "$out"
	done
	run_sl list nope
	expect_eq "list nope: exit status" 2 "$rc"
	expect_match "list nope" "'nope'" "$err"
	run_sl list workloads extra
	expect_eq "list workloads extra: exit status" 2 "$rc"
}

# --help lists every spelling of every option, with its range.
test_messaging_help() {
	local o

	run_sl bench messaging --help
	expect_eq "exit status" 0 "$rc"
	expect_eq "stderr" "" "$err"
	expect_match "usage" '^usage: schedlab bench (\[-r N\] )?messaging' "$out"
	for o in "-g, --groups=NUM" "-f, --fds=NUM" "-l, --loops=NUM" "-s, --datasize=BYTES" \
		 "--ipc=KIND" "-p, --pipe" "-i, --inet" "--mode=MODE" "-T, --threads" \
		 "-t, --thread" "-P, --process" "--processes" "-F, --fifo" "--format=FMT" \
		 "--timeout=SECONDS" "-h, --help" "1..100000" "1..10000" "1..1048576" \
		 "socket, pipe, inet" "hackbench, perf, json" "messaging.time" \
		 "messaging.msgs_per_sec"; do
		grep -qF -- "$o" <<<"$out" || fail "'bench messaging --help' lacks '$o'"
	done
	run_sl bench messaging -h
	expect_eq "-h exit status" 0 "$rc"
	expect_match "-h" '^usage: schedlab bench (\[-r N\] )?messaging' "$out"
	run_sl bench pipe --help
	expect_eq "pipe exit status" 0 "$rc"
	for o in "-l, --loops, --loop=NUM" "-T, --threaded" "--mode=MODE" "--ordering=ORDER" \
		 "one-token, two-tokens" "perf, json" "--timeout=SECONDS" "pipe.usecs_per_op" \
		 "pipe.time" "pipe.ops_per_sec"; do
		grep -qF -- "$o" <<<"$out" || fail "'bench pipe --help' lacks '$o'"
	done
}

# Every workload that 'list workloads' names has help, and every option
# its help shows is accepted with its documented default, so a new
# workload is covered as soon as it is registered.
test_every_workload_has_help() {
	local wl names n=0 opt def

	names=$("$SCHEDLAB" list workloads | awk '{ print $1 }')
	[ -n "$names" ] || fail "no workloads listed"
	for wl in $names; do
		run_sl bench "$wl" --help
		expect_eq "$wl --help: exit status" 0 "$rc"
		expect_eq "$wl --help: stderr" "" "$err"
		expect_match "$wl --help" "^usage: schedlab bench (\[-r N\] )?$wl " "$out"
		expect_match "$wl --help: metrics" $'\nMetrics' "$out"
		expect_match "$wl --help: json" 'json' "$out"
		run_sl help bench
		expect_match "'help bench' names $wl" $'\n  '"$wl " "$out"
		# every option with a default: --name=default parses (exit 0 on
		# --help means the value was accepted)
		while read -r opt def; do
			run_sl bench "$wl" "$opt=$def" --help
			expect_eq "$wl $opt=$def" 0 "$rc"
		done < <(awk '
			/^ +(-[A-Za-z], )?--[a-z_-]+=[A-Z]+( |$)/ {
				o = $0; sub(/^ +(-[A-Za-z], )?/, "", o); sub(/=.*/, "", o); next_opt = o; next }
			next_opt != "" && /default [^]]+\]/ {
				d = $0; sub(/.*default /, "", d); sub(/\].*/, "", d)
				print next_opt, d; next_opt = "" }' <<<"$("$SCHEDLAB" bench "$wl" --help)")
		n=$((n + 1))
	done
	expect_eq "workloads" "$n" "$(wc -w <<<"$names")"
}

# A run's output that cannot be written is a failure (exit 1), never a
# silent success.
test_bench_stdout_write_error() {
	local a

	for a in "messaging -g 1 -f 1 -l 1" "messaging -g 1 -f 1 -l 1 --format json" "pipe -l 10"; do
		set +e
		err=$("$SCHEDLAB" bench $a 2>&1 >/dev/full)
		rc=$?
		set -e
		expect_eq "exit status (bench $a > /dev/full)" 1 "$rc"
		expect_match "stderr (bench $a)" 'standard output|stdout' "$err"
	done
}

# The same for the informational commands: 'schedlab list workloads |
# ...' in a script must not succeed with nothing written.
test_info_stdout_write_error() {
	local a

	for a in "list workloads" "--version" "--help" "bench messaging --help"; do
		set +e
		"$SCHEDLAB" $a >/dev/full 2>/dev/null
		rc=$?
		set -e
		[ "$rc" -ne 0 ] || fail "'schedlab $a > /dev/full' exits 0: the write error is ignored"
	done
}

# One vocabulary: every timed workload takes `runtime` with a unit in a
# job file, and its old name as an alias; --dry-run prints the seconds.
test_runtime_in_every_timed_workload_job() {
	local wl
	use_tmpdir
	# dbench and tbench need 2 s at least (with 1 they report 0 MB/sec)
	printf '[global]\nruntime = 2s\n' >"$tmp/t.job"
	for wl in rr wakeup dbench tbench pgbench sysbench; do
		printf '[%s]\nworkload = %s\n' "$wl" "$wl" >>"$tmp/t.job"
	done
	printf '[rr-own]\nworkload = rr\nruntime = 1s\n[wk-min]\nworkload = wakeup\nruntime = 2m\n' >>"$tmp/t.job"
	printf '[rr-alias]\nworkload = rr\nlength = 1h\n[pg-alias]\nworkload = pgbench\ntime = 3s\n' >>"$tmp/t.job"
	run_sl run "$tmp/t.job" --dry-run
	expect_eq "dry-run exit status ($err)" 0 "$rc"
	for wl in rr wakeup dbench tbench pgbench sysbench; do
		expect_line "$wl: runtime = 2s" "^ +[0-9]+ +$wl +$wl +- .* runtime=2( |$)" "$out"
	done
	expect_line "rr-own: runtime = 1s" "^ +[0-9]+ +rr-own +rr .* runtime=1 " "$out"
	expect_line "wk-min: runtime = 2m" "^ +[0-9]+ +wk-min +wakeup .* runtime=120 " "$out"
	expect_line "rr-alias: length = 1h" "^ +[0-9]+ +rr-alias +rr .* runtime=3600 " "$out"
	expect_line "pg-alias: time = 3s" "^ +[0-9]+ +pg-alias +pgbench .* runtime=3 " "$out"
	grep -qE ' (time|length)=' <<<"$out" && fail "an old name in the params: $out"

	# and a run of the in-tree ones stores runtime, as a number
	printf '[global]\niterations = 1\nprobes = off\n[r]\nworkload = rr\nruntime = 1s\n' >"$tmp/run.job"
	printf '[w]\nworkload = wakeup\nruntime = 1s\nmessage_threads = 1\nworkers = 1\n' >>"$tmp/run.job"
	run_sl run -q "$tmp/run.job" --db "$tmp/r.db"
	expect_eq "run exit status ($err)" 0 "$rc"
	run_sl export 1 --db "$tmp/r.db"
	expect_eq "rr runtime" 1 "$(jval "$out" '.cases[0].parameters.runtime')"
	expect_eq "wakeup runtime" 1 "$(jval "$out" '.cases[1].parameters.runtime')"
	expect_eq "no length" null "$(jq -c '.cases[0].parameters.length' <<<"$out")"

	bad_runtime() {
		printf '[j]\nworkload = %s\nruntime = %s\n' "$1" "$2" >"$tmp/bad.job"
		run_sl run "$tmp/bad.job" --dry-run
		expect_eq "$1 runtime = $2: exit status" 2 "$rc"
		expect_eq "$1 runtime = $2: one line" 1 "$(nlines "$err")"
		expect_match "$1 runtime = $2" "^schedlab: $tmp/bad.job:3: runtime: '$2' $3 \\(expected a duration in $4 seconds, such as 30, 30s, 2m or 1h\\)$" "$err"
	}
	bad_runtime rr 30x "is not a duration" "1\\.\\.31536000"
	bad_runtime rr 1.5s "is not a duration" "1\\.\\.31536000"
	bad_runtime dbench 1s "is out of range" "2\\.\\.86400"
	bad_runtime sysbench 25h "is out of range" "1\\.\\.86400"
}

# --runtime on the command line, besides the reference tools' flags.
test_runtime_on_the_command_line() {
	run_sl bench rr --runtime 1 --format json
	expect_eq "rr --runtime 1 ($err)" 0 "$rc"
	expect_eq "rr --runtime 1" 1 "$(jval "$out" .parameters.runtime)"
	run_sl bench rr -l 1s --length=1 --probes off --format json
	expect_eq "rr -l 1s --length=1 ($err)" 0 "$rc"
	expect_eq "rr --length" 1 "$(jval "$out" .parameters.runtime)"
	run_sl bench wakeup --runtime 1s -m 1 -t 1 --format json
	expect_eq "wakeup --runtime 1s ($err)" 0 "$rc"
	expect_eq "wakeup --runtime" 1 "$(jval "$out" .parameters.runtime)"
	expect_usage_error "option -r/--runtime: '1x' is not a duration \\(expected a duration in 1\\.\\.31536000 seconds, such as 30, 30s, 2m or 1h\\)$" \
		bench wakeup --runtime 1x
	expect_usage_error "option -T/--runtime: '0' is out of range" bench pgbench --time 0
	expect_usage_error "option -t/--runtime: '1' is out of range \\(expected a duration in 2\\.\\.86400" \
		bench dbench -t 1
	expect_usage_error "option --runtime: '2d' is not a duration" bench sysbench --runtime 2d
	expect_usage_error "option --timeout: '1x' is not a duration" bench pipe --timeout 1x
}

# pipe: --loops is its job-file key; perf's --loop stays an alias.
test_pipe_loops_and_loop() {
	local o
	for o in "--loops 100" "--loop 100" "--loops=100" "--loop=100" "-l 100"; do
		# shellcheck disable=SC2086
		run_sl bench pipe $o --format json
		expect_eq "pipe $o ($err)" 0 "$rc"
		expect_eq "pipe $o" 100 "$(jval "$out" .parameters.loops)"
	done
	run_sl bench pipe --help
	grep -qF -- "-l, --loops, --loop=NUM" <<<"$out" || fail "pipe --help lacks its aliases: $out"
	run_sl bench rr --help
	grep -qF -- "-l, --runtime, --length=SECS" <<<"$out" || fail "rr --help lacks its aliases: $out"
}

# run --set KEY=VALUE overrides a job file, for every job or one.
test_run_set() {
	use_tmpdir
	printf '[global]\nloops = 1000\niterations = 3\n[a]\nworkload = pipe\n[b]\nworkload = pipe\nloops = 2000\n[r]\nworkload = rr\nlength = 5\n' >"$tmp/s.job"
	run_sl run "$tmp/s.job" --dry-run --set loops=100 --set b.loops=1,2 --set runtime=1s --set r.iterations=1
	expect_eq "dry-run exit status ($err)" 0 "$rc"
	expect_line "a" '^ +1 +a +pipe +- +3\+0 +loops=100 ' "$out"
	expect_line "b 1" '^ +2 +b +pipe +loops=1 +3\+0 +loops=1 ' "$out"
	expect_line "b 2" '^ +3 +b +pipe +loops=2 +3\+0 +loops=2 ' "$out"
	expect_line "r" '^ +4 +r +rr +- +1\+0 +test=TCP_RR pairs=1 runtime=1 ' "$out"

	# a run with --set stores what it ran
	run_sl run -q "$tmp/s.job" --db "$tmp/r.db" --set loops=50 --set iterations=1 --set r.runtime=1 --set probes=off
	expect_eq "run exit status ($err)" 0 "$rc"
	run_sl export 1 --db "$tmp/r.db"
	expect_eq "a loops" 50 "$(jval "$out" '.cases[0].parameters.loops')"
	expect_eq "b loops" 50 "$(jval "$out" '.cases[1].parameters.loops')"
	expect_eq "r runtime" 1 "$(jval "$out" '.cases[2].parameters.runtime')"
	expect_eq "iterations" 1 "$(jval "$out" '.cases[0].iterations')"

	expect_usage_error "--set nope=1: 'nope' is not a key of any job in $tmp/s.job \\(harness keys: iterations, min_iterations, max_iterations, budget, warmup, timeout, retries, cpus, probes, monitors, monitor_interval, settings \\(nice, policy, env.\\*, cgroup.\\*, sysctl.\\*, sched.\\*, sched_feat, scx, a /proc or /sys path\\); pipe: loops, mode, ordering, nonblocking, cgroups; rr: test, " \
		run "$tmp/s.job" --set nope=1
	expect_usage_error "--set zz.loops=1: $tmp/s.job has no job \\[zz\\] \\(jobs: \\[a\\], \\[b\\], \\[r\\]\\)$" \
		run "$tmp/s.job" --set zz.loops=1
	expect_usage_error "--set a.runtime=1: 'runtime' is not a key of job \\[a\\] " \
		run "$tmp/s.job" --set a.runtime=1 --dry-run
	expect_usage_error "--set loops=0: loops: '0' is out of range \\(expected a whole number in 1\\.\\.2000000000\\)$" \
		run "$tmp/s.job" --set loops=0
	expect_usage_error "--set runtime=soon, in job \\[r\\]: runtime: 'soon' is not a duration" \
		run "$tmp/s.job" --set runtime=soon
	expect_usage_error "--set loops: expected KEY=VALUE or JOB.KEY=VALUE$" \
		run "$tmp/s.job" --set loops
	expect_usage_error "run: option '--set' needs a value" run "$tmp/s.job" --set
	[ "$(nruns "$tmp/r.db")" = 1 ] || fail "a refused --set stored a run"
	run_sl run --help
	grep -qF -- "--set=[JOB.]KEY=VALUE" <<<"$out" || fail "run --help lacks --set: $out"
}
