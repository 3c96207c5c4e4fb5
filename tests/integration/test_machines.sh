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

# in_bare_cgroups TMP CMD...: CMD in a mount namespace where every cgroup
# hierarchy is unmounted, so none is there but what CMD mounts; CMD may
# mount into TMP/v1 and TMP/v2.
in_bare_cgroups() {
	local t=$1
	shift
	unshare -m sh -c 'awk "\$9 ~ /^cgroup/ { print \$5 }" /proc/self/mountinfo |
		sort -r | while read -r m; do umount -l "$m" || exit 1; done && exec "$@"' sh "$@"
}

# cgroup settings with no hierarchy, with cgroup v2 alone and with a
# cgroup v1 cpu hierarchy alone, each made in a mount namespace: the
# absent paths say which hierarchies there are; a present one runs and
# leaves no cgroup behind. What v2 offers is read from the mount itself.
test_machines_cgroup_hierarchies() {
	local have on
	mountns_needs
	use_tmpdir
	printf '[t]\nworkload = command\nargv = /bin/true\niterations = 1\n' >"$tmp/t.job"
	mkdir "$tmp/v1" "$tmp/v2"

	rc=0
	in_bare_cgroups "$tmp" "$SCHEDLAB" run -q "$tmp/t.job" --db "$tmp/r.db" \
		--set cgroup.cpu.cfs_quota_us=50000 2>"$tmp/err" || rc=$?
	expect_eq "no hierarchy: exit" 2 "$rc"
	expect_match "no hierarchy: why" "cgroup\.cpu\.cfs_quota_us: no cgroup hierarchy has the cpu controller \(v1 mounts: none; v2: not mounted\)" "$(cat "$tmp/err")"

	rc=0
	in_bare_cgroups "$tmp" sh -c 'mount -t cgroup2 none "$1/v2" &&
		cat "$1/v2/cgroup.controllers" >"$1/have" &&
		cat "$1/v2/cgroup.subtree_control" >"$1/on" &&
		exec "$2" run -q "$1/t.job" --db "$1/r.db" --set cgroup.cpu.max=max 2>"$1/err"' \
		sh "$tmp" "$SCHEDLAB" || rc=$?
	[ -f "$tmp/have" ] || skip "cannot mount cgroup v2 in a mount namespace"
	have=$(cat "$tmp/have")
	on=$(cat "$tmp/on")
	if [[ " $on " == *" cpu "* ]]; then
		expect_eq "v2 with cpu enabled: exit ($(cat "$tmp/err"))" 0 "$rc"
	elif [[ " $have " == *" cpu "* ]]; then
		expect_eq "v2, cpu not enabled: exit" 2 "$rc"
		expect_match "v2, cpu not enabled: why" "has the cpu controller but does not enable it for its children" "$(cat "$tmp/err")"
	else
		expect_eq "v2 without cpu: exit" 2 "$rc"
		expect_match "v2 without cpu: why" "no cgroup hierarchy has the cpu controller \(v1 mounts: none; v2: ${have:-none}\)" "$(cat "$tmp/err")"
	fi

	rc=0
	in_bare_cgroups "$tmp" sh -c 'mount -t cgroup -o cpu none "$1/v1" 2>/dev/null || exit 99
		"$2" run -q "$1/t.job" --db "$1/r.db" --label v1 --set cgroup.cpu.cfs_quota_us=50000 2>"$1/err" || exit
		ls "$1/v1" | grep "^schedlab-" >"$1/left" || true' \
		sh "$tmp" "$SCHEDLAB" || rc=$?
	[ "$rc" != 99 ] || skip "cannot mount a cgroup v1 cpu hierarchy here (cpu is in use under cgroup v2)"
	expect_eq "v1 cpu: exit ($(cat "$tmp/err"))" 0 "$rc"
	expect_eq "v1 cpu: no cgroup left" "" "$(cat "$tmp/left")"
	expect_eq "v1 cpu: stored" 50000 "$("$SCHEDLAB" show v1 --db "$tmp/r.db" --format json | jq -r '.cases[0].settings["cgroup.cpu.cfs_quota_us"]')"
}

# The perf probe's software counters: present as root wherever the
# kernel has perf events (else skip, saying so); absent where
# perf_event_open is refused, made so on any machine by strace's fault
# injection: the run still runs and stores why.
test_machines_perf_counters() {
	local why
	[ "$(id -u)" = 0 ] || skip "needs root (perf_event_paranoid applies otherwise)"
	command -v strace >/dev/null || skip "no strace"
	use_tmpdir
	printf '[p]\nworkload = pipe\nloops = 200\niterations = 1\nprobes = perf\n' >"$tmp/p.job"
	run_sl run -q "$tmp/p.job" --db "$tmp/r.db" --label on
	expect_eq "present: exit ($err)" 0 "$rc"
	run_sl show on --db "$tmp/r.db" --format json
	why=$(jq -r .environment.probes.perf.reason <<<"$out")
	[ "$(jq -r .environment.probes.perf.available <<<"$out")" = true ] ||
		skip "the kernel refuses software perf events to root: $why"
	expect_match "present: context switches counted" '^[0-9]+' \
		"$(jq -r '.cases[0].samples["perf.context_switches"][0]' <<<"$out")"

	rc=0
	env "$NO_LSAN" strace -f -qq -o /dev/null -e trace=perf_event_open \
		-e inject=perf_event_open:error=EACCES \
		"$SCHEDLAB" run -q "$tmp/p.job" --db "$tmp/r.db" --label off 2>"$tmp/err" || rc=$?
	expect_eq "absent: exit ($(cat "$tmp/err"))" 0 "$rc"
	run_sl show off --db "$tmp/r.db" --format json
	expect_eq "absent: available" false "$(jq -r .environment.probes.perf.available <<<"$out")"
	expect_match "absent: why" '^perf_event_open: Permission denied; needs perf_event_paranoid <= 1' \
		"$(jq -r .environment.probes.perf.reason <<<"$out")"
	expect_eq "absent: nothing counted" null "$(jq -r '.cases[0].samples["perf.context_switches"]' <<<"$out")"
}
