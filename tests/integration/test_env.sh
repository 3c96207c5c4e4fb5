# SPDX-License-Identifier: GPL-2.0-only
# schedlab env: the environment object agrees with the machine, covers
# the topology exactly, and says why for every item it cannot read.

# The CPUs of a cpulist ("0-2,5") one per line, via jq.
expand_cpulist() {
	jq -rn --arg l "$1" '$l | select(. != "") | split(",")[] | split("-") |
		map(tonumber) | if length == 2 then range(.[0]; .[1] + 1) else .[0] end'
}

# Every item of the document: {available: true, value} or
# {available: false, reason: non-empty}; prints the offenders.
bad_items() {
	jq -r 'to_entries[] | select(.value | type == "object") |
		.key as $g | .value |
		(if has("available") then {"": .} else . end) | to_entries[] |
		select((.value.available == true and (.value | has("value")))
		    or (.value.available == false and
			(.value.reason | type == "string" and length > 0)) | not) |
		"\($g).\(.key)"' <<<"$1"
}

test_env_json_kernel_matches_uname() {
	run_sl env --format json
	expect_eq "exit status" 0 "$rc"
	expect_eq "schema" "schedlab-env/1" "$(jval "$out" .schema)"
	expect_eq "kernel release" "$(uname -r)" "$(jval "$out" .kernel.release.value)"
	expect_eq "kernel version" "$(uname -v)" "$(jval "$out" .kernel.version.value)"
	expect_eq "cmdline" "$(cat /proc/cmdline)" "$(jval "$out" .kernel.cmdline.value)"
	expect_eq "schedlab version" "$("$SCHEDLAB" --version | awk '{print $2}')" \
		"$(jval "$out" .schedlab_version)"
}

# nproc counts the CPUs this process may run on (affinity, cpusets), which
# is cpus.allowed; on an unrestricted machine that is every online CPU.
test_env_json_online_cpus_match_nproc() {
	local count list allowed
	run_sl env --format json
	count=$(jval "$out" .cpus.online.value.count)
	list=$(jval "$out" .cpus.online.value.list)
	expect_eq "online CPUs" "$(getconf _NPROCESSORS_ONLN)" "$count"
	expect_eq "online list" "$(cat /sys/devices/system/cpu/online)" "$list"
	expect_eq "CPUs in the online list" "$count" "$(expand_cpulist "$list" | wc -l)"
	allowed=$(jval "$out" .cpus.allowed.value)
	expect_eq "allowed CPUs" "$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)" \
		"$(expand_cpulist "$allowed" | wc -l)"
	if [ "$allowed" = "$list" ]; then
		expect_eq "online CPUs (unrestricted, so nproc)" \
			"$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)" "$count"
	fi
}

# SMT groups and LLC groups (and NUMA nodes and packages) each list every
# online CPU exactly once; an LLC is read exactly when this machine's
# sysfs describes its caches (test_machines.sh reads both kinds of
# machine on any machine).
test_env_topology_covers_every_online_cpu_once() {
	local online what got why
	run_sl env --format json
	online=$(expand_cpulist "$(jval "$out" .cpus.online.value.list)" | sort -n)
	[ -n "$online" ] || fail "no online CPUs"
	for what in smt llc numa packages; do
		if [ "$(jq -r ".topology.$what.available" <<<"$out")" != true ]; then
			why=$(jq -r ".topology.$what.reason" <<<"$out")
			case $what in
			smt) fail "topology.smt not available: $why" ;;
			llc) [ ! -e /sys/devices/system/cpu/cpu0/cache/index0 ] ||
				fail "topology.llc not available: $why" ;;
			esac
			continue
		fi
		got=$(jq -r ".topology.$what.value.groups[][]" <<<"$out" | sort -n)
		expect_eq "CPUs in topology.$what groups" "$online" "$got"
	done
	expect_match "threads per core" '^[1-9][0-9]*$' \
		"$(jval "$out" .topology.smt.value.threads_per_core)"
	if [ -e /sys/devices/system/cpu/cpu0/cache/index0 ]; then
		expect_match "LLC level" '^[1-9]$' "$(jval "$out" .topology.llc.value.level)"
	else
		expect_eq "LLC without cache directories" false \
			"$(jq -r .topology.llc.available <<<"$out")"
	fi
}

# What this machine lacks is recorded with a reason, never left out; what
# it has is read. (On the 6.18 test VM /proc/schedstat, sched_ext, debugfs
# and cpufreq are all absent.)
test_env_absent_items_say_why() {
	local item path avail reason checked=0
	run_sl env --format json
	expect_eq "exit status" 0 "$rc"
	while read -r item path; do
		avail=$(jq -r ".$item.available" <<<"$out")
		if [ -r "$path" ] && cat "$path" >/dev/null 2>&1; then
			expect_eq "$item available ($path readable)" true "$avail"
			continue
		fi
		expect_eq "$item available ($path unreadable)" false "$avail"
		reason=$(jq -r ".$item.reason" <<<"$out")
		expect_match "$item reason" "^$path: " "$reason"
		checked=$((checked + 1))
	done <<-EOF
		sched.schedstat_version /proc/schedstat
		sched.sched_ext /sys/kernel/sched_ext/state
		sched.features /sys/kernel/debug/sched/features
		sched.nr_migrate /sys/kernel/debug/sched/nr_migrate
		cpufreq.governor /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
		cpus.nohz_full /sys/devices/system/cpu/nohz_full
	EOF
	echo "$checked absent items checked"
	local bad
	bad=$(bad_items "$out")
	[ -z "$bad" ] || fail "items without a value or a reason: $bad"
}

test_env_bad_option_exits_2() {
	run_sl env --bogus
	expect_eq "exit status for --bogus" 2 "$rc"
	expect_eq "stdout for --bogus" "" "$out"
	expect_match "message" "unknown option '--bogus'" "$err"
	expect_eq "one line" 1 "$(grep -c . <<<"$err")"
	run_sl env --format xml
	expect_eq "exit status for --format xml" 2 "$rc"
	expect_match "message" "'xml'.*text, json" "$err"
	run_sl env extra
	expect_eq "exit status for an operand" 2 "$rc"
}

test_env_text_and_help() {
	local n
	run_sl env
	expect_eq "exit status" 0 "$rc"
	n=$(getconf _NPROCESSORS_ONLN)
	grep -qE "^kernel +$(uname -r | sed 's/[.]/[.]/g') " <<<"$out" ||
		fail "no kernel line with $(uname -r) in: $out"
	grep -qE "^topology +$n CPUs, " <<<"$out" || fail "no topology line in: $out"
	if [ ! -e /proc/schedstat ]; then
		grep -qE "^schedstat version +not available \(/proc/schedstat: " <<<"$out" ||
			fail "no reason for /proc/schedstat in: $out"
	fi
	run_sl env --help
	expect_eq "exit status of --help" 0 "$rc"
	expect_match "help" "--format" "$out"
	run_sl help env
	expect_eq "exit status of help env" 0 "$rc"
}
