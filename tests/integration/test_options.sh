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
	expect_eq "pipe long options" '{"loops":7,"mode":"thread","ordering":"one-token"}' \
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
