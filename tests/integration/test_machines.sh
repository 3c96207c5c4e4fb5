# SPDX-License-Identifier: GPL-2.0-only
# Other machines, and what this one lacks: the environment and the
# probes read on fixtures of real machines' sysfs (a two-socket SMT
# server, a hybrid laptop, this project's CI VM without cache
# directories) bound over /sys/devices/system, and with each optional
# source hidden. Every path runs on every machine; only a machine that
# cannot make a mount namespace (not root) skips.

# env_on FIXTURE: `schedlab env --format json` on that machine's sysfs;
# sets $out, $rc.
env_on() {
	sysfs_fixture "$1" "$tmp/$1"
	rc=0
	out=$(with_sysfs "$tmp/$1" "$SCHEDLAB" env --format json) || rc=$?
	expect_eq "$1: env's exit status" 0 "$rc"
}

# groups WHAT: topology.WHAT's groups as cpulists, blank-separated.
groups() {
	jq -r ".topology.$1.value.groups | map(map(tostring) | join(\",\")) | join(\" \")" <<<"$out"
}

test_machines_two_socket_smt_server() {
	mountns_needs
	use_tmpdir
	env_on xeon-2s-smt
	expect_eq "online CPUs" 32 "$(jval "$out" .cpus.online.value.count)"
	expect_eq "packages" "0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23 8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31" \
		"$(groups packages)"
	expect_eq "package ids" "0 1" "$(jq -r '.topology.packages.value.ids | join(" ")' <<<"$out")"
	expect_eq "SMT cores" 16 "$(jq '.topology.smt.value.groups | length' <<<"$out")"
	expect_eq "CPU 3's core" "3,19" "$(groups smt | tr ' ' '\n' | grep -x '3,19')"
	expect_eq "threads per core" 2 "$(jval "$out" .topology.smt.value.threads_per_core)"
	expect_eq "SMT control" on "$(jval "$out" .topology.smt.value.control)"
	expect_eq "LLC level (L3, not the L1i listed after L1d)" 3 "$(jval "$out" .topology.llc.value.level)"
	expect_eq "LLCs: one per package" "$(groups packages)" "$(groups llc)"
	expect_eq "NUMA nodes" "0 1" "$(jq -r '.topology.numa.value.ids | join(" ")' <<<"$out")"
	expect_eq "node groups" "$(groups packages)" "$(groups numa)"
	expect_eq "cpufreq governor" performance "$(jval "$out" .cpufreq.governor.value)"
	expect_eq "cpufreq driver" intel_pstate "$(jval "$out" .cpufreq.driver.value)"

	# a run made there: show's host line counts what it had
	printf '[t]\nworkload = command\nargv = true\niterations = 1\n' >"$tmp/t.job"
	rc=0
	with_sysfs "$tmp/xeon-2s-smt" "$SCHEDLAB" run -q "$tmp/t.job" \
		--db "$tmp/r.db" --host big || rc=$?
	expect_eq "run on the server's sysfs" 0 "$rc"
	run_sl show 1 --db "$tmp/r.db"
	expect_line "show: host line" \
		'^host +big \(2 packages, 16 cores, 32 CPUs, 2 LLCs, SMT on\)$' "$out"
}

test_machines_hybrid_laptop() {
	mountns_needs
	use_tmpdir
	env_on hybrid-laptop
	expect_eq "online CPUs" 16 "$(jval "$out" .cpus.online.value.count)"
	expect_eq "one package" "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15" "$(groups packages)"
	expect_eq "cores: 4 with SMT, 8 without" "0,1 2,3 4,5 6,7 8 9 10 11 12 13 14 15" \
		"$(groups smt)"
	expect_eq "threads per core (the most)" 2 "$(jval "$out" .topology.smt.value.threads_per_core)"
	expect_eq "LLC level" 3 "$(jval "$out" .topology.llc.value.level)"
	expect_eq "one L3 for all (not the E-cores' shared L2)" \
		"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15" "$(groups llc)"
	expect_eq "cpufreq governor" powersave "$(jval "$out" .cpufreq.governor.value)"
}

# The machine CI runs on: no cpuN/cache, no cpufreq. Its topology is
# read, the LLC and cpufreq say why not, and show's host line leaves
# the LLC count out rather than guessing one.
test_machines_vm_without_cache_directories() {
	mountns_needs
	use_tmpdir
	env_on vm-2cpu-nocache
	expect_eq "online CPUs" 2 "$(jval "$out" .cpus.online.value.count)"
	expect_eq "cores" "0 1" "$(groups smt)"
	expect_eq "threads per core" 1 "$(jval "$out" .topology.smt.value.threads_per_core)"
	expect_eq "one package" "0,1" "$(groups packages)"
	expect_eq "LLC available" false "$(jq -r .topology.llc.available <<<"$out")"
	expect_match "LLC: why not" \
		'^/sys/devices/system/cpu/cpu0/cache/index0: No such file or directory; the kernel describes no data or unified cache$' \
		"$(jq -r .topology.llc.reason <<<"$out")"
	expect_eq "cpufreq available" false "$(jq -r .cpufreq.governor.available <<<"$out")"
	expect_match "cpufreq: why not" 'scaling_governor: No such file or directory; no cpufreq driver' \
		"$(jq -r .cpufreq.governor.reason <<<"$out")"

	printf '[t]\nworkload = command\nargv = true\niterations = 1\n' >"$tmp/t.job"
	rc=0
	with_sysfs "$tmp/vm-2cpu-nocache" "$SCHEDLAB" run -q "$tmp/t.job" \
		--db "$tmp/r.db" --host vm || rc=$?
	expect_eq "run on the VM's sysfs" 0 "$rc"
	run_sl show 1 --db "$tmp/r.db"
	expect_line "show: host line" '^host +vm \(1 package, 2 cores, 2 CPUs, SMT off\)$' "$out"
	run_sl show 1 --db "$tmp/r.db" --format json
	expect_eq "the stored environment keeps the reason" false \
		"$(jq -r .environment.topology.llc.available <<<"$out")"
}

# Each optional source hidden in turn, whether or not this machine has
# it: env says why it is missing, and a run with probes on still runs
# and stores the probes' availability with the reason.
test_machines_hidden_sources_say_why() {
	local item path reason
	mountns_needs
	use_tmpdir
	while read -r item path reason; do
		rc=0
		out=$(hiding "$path" "$SCHEDLAB" env --format json) || rc=$?
		expect_eq "$path hidden: env's exit status" 0 "$rc"
		expect_eq "$path hidden: $item available" false \
			"$(jq -r ".$item.available" <<<"$out")"
		expect_match "$path hidden: $item's reason" "$reason" \
			"$(jq -r ".$item.reason" <<<"$out")"
	done <<-'EOF'
		topology.llc /sys/devices/system/cpu/cpu0/cache ^/sys/devices/system/cpu/cpu0/cache/index0: No such file
		cpufreq.governor /sys/devices/system/cpu/cpu0/cpufreq ^/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor: No such file
		sched.sched_ext /sys/kernel/sched_ext ^/sys/kernel/sched_ext/state: No such file
		sched.features /sys/kernel/debug ^/sys/kernel/debug/sched/features: 
		sched.schedstat_version /proc/schedstat ^/proc/schedstat: 
	EOF

	printf '[p]\nworkload = pipe\nloops = 200\niterations = 1\nprobes = on\n' >"$tmp/p.job"
	rc=0
	hiding /proc/pressure "$SCHEDLAB" run -q "$tmp/p.job" --db "$tmp/r.db" || rc=$?
	expect_eq "run with /proc/pressure hidden" 0 "$rc"
	run_sl show 1 --db "$tmp/r.db" --format json
	expect_eq "psi available" false "$(jq -r .environment.probes.psi.available <<<"$out")"
	expect_match "psi: why not" '^/proc/pressure/cpu: ' \
		"$(jq -r .environment.probes.psi.reason <<<"$out")"
}
