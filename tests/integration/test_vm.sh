# SPDX-License-Identifier: GPL-2.0-only
#
# Real kernels, real boots: Debian's cloud kernels (tools/kernels.sh puts
# them in $SCHEDLAB_KERNELS, default /var/cache/schedlab/kernels) booted
# in qemu - `schedlab vm run`, campaigns over VMs, and the bare-metal
# recipe (the shipped unit's resume at every boot, a kexec hook, the
# store on a disk that outlives the guest) played inside a VM whose
# power the test cuts. TCG here (KVM where it works); tiny jobs; nothing
# asserts a timing. Without qemu or the kernels each test skips, saying
# which is missing.

KDIR=${SCHEDLAB_KERNELS:-/var/cache/schedlab/kernels}

# vm_needs: $K1 and $K2, two kernel images (the same one twice, told
# apart by command line, where only one could be fetched), $R1 and $R2
# their releases; qemu and busybox; a cache and a store of the test's.
vm_needs() {
	command -v qemu-system-x86_64 >/dev/null ||
		skip "no qemu-system-x86_64 (Debian package qemu-system-x86)"
	command -v busybox >/dev/null || skip "no busybox (Debian package busybox-static)"
	local k
	k=$(ls -d "$KDIR"/*/vmlinuz 2>/dev/null | sort | head -n 2)
	[ -n "$k" ] || skip "no kernels in $KDIR (tools/kernels.sh fetches them, as root)"
	K1=$(echo "$k" | head -n 1)
	K2=$(echo "$k" | tail -n 1)
	R1=$(basename "$(dirname "$K1")")
	R2=$(basename "$(dirname "$K2")")
	use_tmpdir
	export SCHEDLAB_VM_CACHE=$tmp/vmcache
	DB=$tmp/r.db
	cat >"$tmp/tiny.job" <<EOF
[global]
iterations = 2
warmup = 0

[msg]
workload = messaging
groups = 1
loops = 20
EOF
}

# qemu_pids: qemu processes this test started (lib.sh's tool_pids).
qemu_pids() {
	local pid
	for pid in $(tool_pids); do
		case $(cat "/proc/$pid/comm" 2>/dev/null) in
		qemu-system-*|virtiofsd) echo "$pid" ;;
		esac
	done
}

expect_no_qemu() {
	local left
	left=$(qemu_pids)
	[ -z "$left" ] || fail "qemu left running: $(ps -o pid,args -p "$(echo $left | tr ' ' ,)")"
}

# The job on a kernel, its run stored here with the guest's machine:
# its kernel, its command line, the shape asked for (two sockets of one
# core with two threads, two NUMA nodes) as the guest saw it, and what
# ran it.
# --accel auto: KVM where a guest shows life under it, else TCG.
test_vm_run() {
	vm_needs
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --accel auto --sockets 2 \
		--cores 1 --threads 2 --numa 2 --append "schedlab_test=1" --label guest
	expect_eq "vm run's exit ($err)" 0 "$rc"
	local doc accel
	doc=$("$SCHEDLAB" export guest --db "$DB")
	expect_eq "the run's kernel" "$R1" "$(jval "$doc" '.environment.kernel.release.value')"
	expect_match "the guest's command line" "schedlab_test=1" \
		"$(jval "$doc" '.environment.kernel.cmdline.value')"
	expect_eq "the guest's CPUs" 4 "$(jval "$doc" '.environment.cpus.online.value.count')"
	expect_eq "the vm's sockets" 2 "$(jval "$doc" '.environment.machine.vm.value.sockets')"
	accel=$(jval "$doc" '.environment.machine.vm.value.accel')
	expect_match "what ran it" '^(kvm|tcg)$' "$accel"
	expect_eq "the run's host" "$(uname -n)-$accel" "$(jval "$doc" '.run.host')"
	expect_eq "the run" complete "$(jval "$doc" '.run.status')"
	[ "$accel" = kvm ] || expect_match "the TCG warning" "TCG( instead)?, emulated" "$err"
	# the guest's topology as the guest's own probe read it
	expect_match "the topology shown" "2 packages, 2 cores, SMT on .*NUMA nodes: 0 \\(0-1\\) 1 \\(2-3\\)" \
		"$("$SCHEDLAB" show guest --db "$DB" | grep '^topology')"
	expect_match "the vm line shown" "^vm +qemu, $accel" \
		"$("$SCHEDLAB" show guest --db "$DB" | grep '^vm ')"
	# the second boot of the same files reuses the root
	expect_eq "roots in the cache" 1 "$(ls "$SCHEDLAB_VM_CACHE"/root-*.cpio | wc -l)"
	expect_no_qemu
}

# A command line the guest's kernel rejects is said, not silent: its
# warning (below what quiet lets on the console) in vm run's output, the
# run's record and show.
test_vm_kernel_rejects_cmdline() {
	vm_needs
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --accel tcg --cpus 1 \
		--append "preempt=bogus" --label bogus
	expect_eq "vm run ($err)" 0 "$rc"
	expect_match "the warning" "the guest's kernel said of its command line: .*unsupported mode: bogus" "$err"
	expect_match "the record" "unsupported mode: bogus" \
		"$(jval "$("$SCHEDLAB" export bogus --db "$DB")" '.environment.machine.vm.value.kernel_said | join("; ")')"
	expect_match "show" "^kernel said +.*bogus" "$("$SCHEDLAB" show bogus --db "$DB" | grep -A1 '^kernel said')"
	# a command line it takes: nothing said
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --accel tcg --cpus 1 \
		--append "preempt=full" --label full
	expect_eq "vm run ($err)" 0 "$rc"
	[[ ! $err =~ "kernel said" ]] || fail "a command line the kernel takes was warned about: $err"
}

# The kernel configuration the guest needs: `vm config` prints it as a
# fragment; `vm check-config` names what a .config lacks and what each
# costs (exit 1), says when nothing is missing (exit 0), refuses what is
# not a configuration (exit 2), and skips options a kernel no longer has
# (SCHED_DEBUG since 6.15).
test_vm_config() {
	use_tmpdir
	run_sl vm config
	expect_eq "vm config ($err)" 0 "$rc"
	expect_match "the fragment" "CONFIG_VIRTIO_FS=y" "$out"
	{ echo "# Linux/x86 6.1.192 Kernel Configuration"; echo "$out"; } >"$tmp/full.config"
	run_sl vm check-config "$tmp/full.config"
	expect_eq "a complete configuration ($out)" 0 "$rc"
	expect_match "its words" "has every option schedlab's guest needs" "$out"
	grep -v -e CONFIG_FILE_LOCKING -e CONFIG_SCHED_DEBUG "$tmp/full.config" >"$tmp/some.config"
	echo "# CONFIG_FILE_LOCKING is not set" >>"$tmp/some.config"
	run_sl vm check-config "$tmp/some.config"
	expect_eq "a configuration that lacks two" 1 "$rc"
	expect_match "what FILE_LOCKING costs" "CONFIG_FILE_LOCKING +the guest's SQLite store" "$out"
	expect_match "what SCHED_DEBUG costs" "CONFIG_SCHED_DEBUG +/sys/kernel/debug/sched" "$out"
	expect_eq "lines" 3 "$(wc -l <<<"$out")"
	sed -i 's|^# Linux/x86 6.1.192|# Linux/x86 6.15.0|' "$tmp/some.config"
	run_sl vm check-config "$tmp/some.config"
	expect_eq "6.15 lacks one" 1 "$rc"
	[[ ! $out =~ SCHED_DEBUG ]] || fail "SCHED_DEBUG asked of 6.15: $out"
	echo "hello" >"$tmp/not.config"
	run_sl vm check-config "$tmp/not.config"
	expect_eq "not a configuration" 2 "$rc"
	expect_match "its message" "is not a kernel configuration" "$err"
	run_sl vm check-config "$tmp/missing.config"
	expect_eq "a missing file" 2 "$rc"
}

# Bad input: one message, exit 2, before any boot.
test_vm_bad_input() {
	vm_needs
	run_sl vm run "$tmp/nope" "$tmp/tiny.job" --db "$DB"
	expect_eq "a missing kernel" 2 "$rc"
	expect_match "its message" "kernel image '$tmp/nope' cannot be read" "$err"
	run_sl vm run "$tmp/tiny.job" "$tmp/tiny.job" --db "$DB"
	expect_eq "a file that is no kernel" 2 "$rc"
	expect_match "its message" "not a bootable x86 kernel image" "$err"
	run_sl vm run "$K1" "$tmp/missing.job" --db "$DB"
	expect_eq "a missing job" 2 "$rc"
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 3 --sockets 2
	expect_eq "a shape that does not multiply out" 2 "$rc"
	expect_match "its message" "--cpus 3 is not --sockets 2" "$err"
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 4 --numa 3
	expect_eq "nodes that do not divide the CPUs" 2 "$rc"
	# a program the guest needs and this host lacks: dbench, off PATH
	mkdir "$tmp/bin2"
	ln -s "$(command -v busybox)" "$tmp/bin2/busybox"
	ln -s "$(command -v qemu-system-x86_64)" "$tmp/bin2/qemu-system-x86_64"
	printf '[gone]\nworkload = dbench\n' >"$tmp/gone.job"
	out=$(PATH=$tmp/bin2 "$SCHEDLAB" vm run "$K1" "$tmp/gone.job" --db "$DB" 2>&1) && rc=0 || rc=$?
	expect_eq "a program this host lacks" 2 "$rc"
	# (the workload's own check where the host's root is shared, the
	# minimal root's where not: each names the program and its package)
	expect_match "its message" "'dbench' is not on PATH; install the Debian package dbench|\\[gone\\] runs dbench, which this host lacks" "$out"
	# a cache folder that cannot be made
	SCHEDLAB_VM_CACHE=/proc/schedlab-cache run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB"
	expect_eq "no cache folder" 2 "$rc"
	expect_match "its message" "cannot make the cache folder /proc/schedlab-cache" "$err"
	# qemu absent: the package named
	mkdir "$tmp/bin"
	ln -s "$(command -v busybox)" "$tmp/bin/busybox"
	out=$(PATH=$tmp/bin "$SCHEDLAB" vm run "$K1" "$tmp/tiny.job" --db "$DB" 2>&1) && rc=0 || rc=$?
	expect_eq "no qemu" 2 "$rc"
	expect_match "its message" "install the Debian package qemu-system-x86" "$out"
	[ ! -e "$DB" ] || fail "bad input stored something in $DB"
	expect_no_qemu
}

# A guest that never reaches its init panics (panic=-1 ends qemu): a
# clear error with the console's last lines; one that hangs is killed
# at --timeout. Nothing stored, nothing left running.
test_vm_guest_faults() {
	vm_needs
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --accel tcg --cpus 1 \
		--append "rdinit=/nonexistent"
	expect_eq "a panicking guest" 1 "$rc"
	expect_match "its message" "panicked" "$err"
	expect_match "the console's tail" "Kernel panic" "$err"
	cat >"$tmp/hang.job" <<EOF
[hang]
workload = command
argv = sleep 600
iterations = 1
warmup = 0
EOF
	run_sl vm run "$K1" "$tmp/hang.job" --db "$DB" --accel tcg --cpus 1 --timeout 10s
	expect_eq "a guest past its timeout" 1 "$rc"
	expect_match "its message" "did not finish within --timeout 10 s: qemu killed" "$err"
	expect_eq "runs stored" 0 "$(sqlite3 "$DB" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)"
	expect_no_qemu
	[ -z "$(ls "$tmp/tmpdir")" ] || fail "temporary files left: $(ls "$tmp/tmpdir")"
}

# --accel kvm where /dev/kvm cannot be used is bad input; auto falls
# back to TCG and says so (/dev/kvm hidden where this machine has it).
test_vm_no_kvm() {
	vm_needs
	mountns_needs
	hiding /dev/kvm "$SCHEDLAB" vm run "$K1" "$tmp/tiny.job" --db "$DB" \
		--accel kvm >"$tmp/o" 2>&1 && rc=0 || rc=$?
	expect_eq "--accel kvm without KVM" 2 "$rc"
	expect_match "its message" "/dev/kvm cannot be used here" "$(cat "$tmp/o")"
}

# kvm_qemu MODE: $tmp/kvmbin/qemu-system-x86_64, a qemu that fails under
# KVM as real hosts do - abort: dies by SIGABRT at once with the
# assertion a nested host that refuses an MSR gives; exit: exits 1 at
# once; hang: never starts the guest; works: runs the guest (under TCG,
# standing in for a KVM that works). Without -accel kvm it is the real
# qemu. The tests using it need a /dev/kvm that schedlab takes for
# usable (it opens and answers KVM's API version), so that auto tries
# KVM at all: --accel kvm says whether it does, before anything else.
kvm_qemu() {
	local real
	real=$(command -v qemu-system-x86_64)
	run_sl vm run "$K1" "$tmp/no-such.job" --accel kvm
	[[ ! $err =~ "/dev/kvm cannot be used here" ]] ||
		skip "no usable /dev/kvm here (absent, no access, or no KVM behind it): auto never tries KVM"
	mkdir -p "$tmp/kvmbin"
	cat >"$tmp/kvmbin/qemu-system-x86_64" <<EOF
#!/bin/bash
case " \$* " in
*" -accel kvm "*) ;;
*) exec "$real" "\$@" ;;
esac
case $1 in
abort)
	echo 'error: failed to set MSR 0x10a to 0x69' >&2
	echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:2893: kvm_buf_set_msrs: Assertion 'ret == cpu->kvm_msr_buf->nmsrs' failed." >&2
	kill -ABRT \$\$ ;;
exit)
	echo 'qemu-system-x86_64: failed to initialize kvm: Operation not permitted' >&2
	exit 1 ;;
hang)
	exec sleep 600 ;;
works)
	args=()
	while [ \$# -gt 0 ]; do
		case \$1 in
		-accel) args+=(-accel tcg); shift ;;
		-cpu) shift ;;
		*) args+=("\$1") ;;
		esac
		shift
	done
	exec "$real" "\${args[@]}" ;;
esac
EOF
	chmod +x "$tmp/kvmbin/qemu-system-x86_64"
}

# Every way KVM fails falls back to TCG under auto, with one warning in
# qemu's words, remembered for the next boot; --accel kvm fails with the
# reason. Each failure is real: a qemu that dies by a signal, one that
# exits (a hang: test_vm_kvm_hangs).
test_vm_kvm_fails() {
	vm_needs
	kvm_qemu abort
	local doc
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1 --label a
	expect_eq "auto where qemu aborts under KVM ($err)" 0 "$rc"
	expect_match "the warning" "KVM failed: qemu was killed by signal 6 \\(SIGABRT\\) before the guest's kernel printed anything \\(qemu said: 'error: failed to set MSR 0x10a to 0x69'\\).*booting under TCG instead" "$err"
	doc=$("$SCHEDLAB" export a --db "$DB")
	expect_eq "what ran it" tcg "$(jval "$doc" '.environment.machine.vm.value.accel')"
	# remembered: the next boot goes to TCG at once, saying why
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1 --label b
	expect_eq "auto the second time" 0 "$rc"
	expect_match "the note quoted" "KVM failed on this host before \\(qemu was killed by signal 6 \\(SIGABRT\\)" "$err"
	[[ ! $err =~ "KVM failed: " ]] || fail "KVM tried again despite the note: $err"
	# --accel kvm: the failure, in qemu's words, exit 1
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1 --accel kvm
	expect_eq "--accel kvm where qemu aborts" 1 "$rc"
	expect_match "its message" "--accel kvm: qemu was killed by signal 6 \\(SIGABRT\\).*failed to set MSR" "$err"
	# qemu exiting under KVM: the same, with a fresh cache
	kvm_qemu exit
	SCHEDLAB_VM_CACHE=$tmp/vmcache2 PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" \
		"$tmp/tiny.job" --db "$DB" --cpus 1 --label c
	expect_eq "auto where qemu exits under KVM ($err)" 0 "$rc"
	expect_match "the warning" "KVM failed: qemu exited 1 before .*failed to initialize kvm" "$err"
	expect_eq "runs stored" 3 "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE status = 'complete'")"
	expect_no_qemu
}

# A qemu that hangs under KVM: auto gives it 15 s, then TCG; --accel kvm
# fails after as long, not at --timeout.
test_vm_kvm_hangs() {
	vm_needs
	kvm_qemu hang
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1
	expect_eq "auto where KVM hangs ($err)" 0 "$rc"
	expect_match "the warning" "KVM failed: the guest showed no sign of life within 15 s" "$err"
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1 \
		--accel kvm --timeout 300
	expect_eq "--accel kvm where KVM hangs" 1 "$rc"
	expect_match "its message" "--accel kvm: the guest showed no sign of life within 15 s under KVM" "$err"
	expect_no_qemu
	[ -z "$(tool_pids)" ] || fail "left running: $(tool_pids)"
}

# A kernel that starts under KVM and then panics failed by itself: no
# fallback, no note. (KVM works here, or stands in working: the guest
# runs under TCG as qemu's -accel kvm.) Where KVM works, auto uses it.
test_vm_kvm_kernel_panics() {
	vm_needs
	kvm_qemu works
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1 \
		--append "rdinit=/nonexistent"
	expect_eq "a kernel that panics under KVM" 1 "$rc"
	expect_match "its message" "panicked" "$err"
	[[ ! $err =~ "KVM failed" ]] || fail "a kernel's panic taken for KVM's failure: $err"
	[ -z "$(ls "$SCHEDLAB_VM_CACHE"/kvm-fails-* 2>/dev/null)" ] ||
		fail "a kernel's panic noted as KVM's failure"
	PATH=$tmp/kvmbin:$PATH run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --cpus 1 --label k
	expect_eq "auto where KVM works ($err)" 0 "$rc"
	expect_eq "what ran it" kvm "$(jval "$("$SCHEDLAB" export k --db "$DB")" '.environment.machine.vm.value.accel')"
	expect_no_qemu
}

# host_root_needs: the host's root can be shared here: root, virtiofsd,
# $K1 with its modules beside it (tools/kernels.sh fetches them).
host_root_needs() {
	[ "$(id -u)" = 0 ] || skip "needs root (virtiofsd runs only as root)"
	[ -x /usr/lib/qemu/virtiofsd ] || skip "no /usr/lib/qemu/virtiofsd (Debian package qemu-system-common)"
	[ -f "$(dirname "$K1")/modules/virtiofs.ko" ] ||
		skip "no modules beside $K1 (tools/kernels.sh fetches them)"
}

# The seeds' workloads in a guest with nothing named by hand: the host's
# root shared, the smallest case of each shipped suite in one job (tbench
# and dbench read dbench's loadfile, pgbench and sysbench a throwaway
# PostgreSQL cluster, fio and fileio files, rr loopback, compute its mix,
# command a host file), one boot, a complete run stored with each case.
test_vm_host_root_workloads() {
	vm_needs
	host_root_needs
	local s miss=
	for s in dbench tbench sysbench fio pgbench; do
		command -v $s >/dev/null || miss="$miss $s"
	done
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || miss="$miss postgresql"
	[ -z "$miss" ] || skip "this host lacks:$miss (tools/deps.sh test installs them)"
	cat >"$tmp/seeds.job" <<'EOF'
[global]
iterations = 1
warmup = 0
timeout = 5m
runtime = 2s
[tbench]
workload = tbench
clients = 2
[dbench]
workload = dbench
clients = 2
[pgbench]
workload = pgbench
db-size = 22MB
clients = 2
mode = select-only
[sysbench-oltp]
workload = sysbench
test = oltp_read_only
threads = 2
tables = 1
table-size = 1000
[sysbench-threads]
workload = sysbench
test = threads
threads = 2
[fio]
workload = fio
ioengine = libaio
rw = randread
numjobs = 2
size = 8M
bs = 4k
iodepth = 4
runtime = 1s
[fileio]
workload = fileio
mode = rndrd
threads = 2
file-total-size = 8M
file-num = 2
file-block-size = 16K
runtime = 1s
[rr]
workload = rr
test = TCP_RR
pairs = 1
[compute]
workload = compute
mix = compute-v1
jobs = 5
tasks = 2
[command]
workload = command
argv = sh -c 'test -s /usr/share/dbench/client.txt && uname -r'
EOF
	run_sl vm run "$K1" "$tmp/seeds.job" --db "$DB" --memory 1536 --label seeds
	expect_eq "vm run of the seeds' workloads ($err)" 0 "$rc"
	expect_match "its words" "stored \\((kvm|tcg), the host's root" "$out"
	local doc
	doc=$("$SCHEDLAB" export seeds --db "$DB")
	expect_eq "the run" complete "$(jval "$doc" '.run.status')"
	expect_eq "the root it had" host "$(jval "$doc" '.environment.machine.vm.value.root')"
	expect_eq "the guest's kernel" "$R1" "$(jval "$doc" '.environment.kernel.release.value')"
	expect_eq "cases" "command compute dbench fileio fio pgbench rr sysbench-oltp sysbench-threads tbench" \
		"$(jq -r '[.cases[].job] | sort | join(" ")' <<<"$doc")"
	expect_eq "cases not complete" "" \
		"$(jq -r '.cases[] | select(.status != "complete") | "\(.job): \(.status) \(.reason)"' <<<"$doc")"
	expect_no_qemu
}

# Read-only holds on the host's side: a guest that mounts the shared
# root again and remounts it read-write cannot write to the host. The
# job succeeds only where the remount worked and the write failed.
test_vm_host_root_read_only() {
	vm_needs
	host_root_needs
	local target=$tmp/written-by-the-guest
	# the guest reads this script from the host, through the shared root
	cat >"$tmp/rw.sh" <<EOF
mkdir -p /run/m && mount -t virtiofs hostroot /run/m &&
	mount -o remount,rw /run/m && ! touch /run/m$target &&
	! mkdir /run/m$tmp/dir && touch /tmp/mine
EOF
	cat >"$tmp/rw.job" <<EOF
[rw]
workload = command
iterations = 1
warmup = 0
argv = sh $tmp/rw.sh
EOF
	run_sl vm run "$K1" "$tmp/rw.job" --db "$DB" --root host --label rw
	expect_eq "the guest's writes refused by the host ($err)" 0 "$rc"
	[ ! -e "$target" ] && [ ! -e "$tmp/dir" ] ||
		fail "the guest wrote to the host: $(ls -la "$tmp")"
	expect_no_qemu
}

# A job that writes more than a quarter of the guest's memory gets a
# disk as its writable layer (ext4 on a sparse image in the run's
# temporary folder), recorded in the run; one whose disk would not fit
# on the host, or whose program the host lacks, is refused before any
# boot.
test_vm_host_root_disk() {
	vm_needs
	host_root_needs
	cat >"$tmp/fio.job" <<EOF
[global]
iterations = 1
warmup = 0
[fio]
workload = fio
ioengine = libaio
rw = randwrite
numjobs = 2
size = 40M
bs = 64k
iodepth = 4
runtime = 1s
EOF
	run_sl vm run "$K1" "$tmp/fio.job" --db "$DB" --memory 256 --label disk
	expect_eq "a job that writes 80 MiB in a guest of 256 MiB ($err)" 0 "$rc"
	local doc
	doc=$("$SCHEDLAB" export disk --db "$DB")
	expect_eq "its writable layer" disk "$(jval "$doc" '.environment.machine.vm.value.writable')"
	expect_eq "the case" complete "$(jval "$doc" '.cases[0].status')"
	sed -i 's/^size = 40M/size = 900T/' "$tmp/fio.job"
	run_sl vm run "$K1" "$tmp/fio.job" --db "$DB" --memory 256
	expect_eq "a disk that does not fit on the host" 2 "$rc"
	expect_match "its message" "does not fit in the [0-9]+ MiB free on $TMPDIR/schedlab-vm" "$err"
	# what a workload checks before it starts is checked here, before a boot
	printf '[c]\nworkload = command\nargv = no-such-program-here 1\n' >"$tmp/bad.job"
	run_sl vm run "$K1" "$tmp/bad.job" --db "$DB"
	expect_eq "a program missing on the host" 2 "$rc"
	expect_match "its message" "'no-such-program-here' is not on PATH" "$err"
	[[ ! $err =~ booting ]] || fail "booted for a job it could have refused: $err"
	expect_no_qemu
	[ -z "$(ls "$tmp/tmpdir")" ] || fail "temporary files left: $(ls "$tmp/tmpdir")"
}

# Where the host's root cannot be had: a kernel without its modules
# (auto warns and boots the minimal root; --root host is refused before
# any boot), a user who is not root, a module that will not load (the
# guest says the root did not mount, with the console's tail).
test_vm_host_root_absent() {
	vm_needs
	host_root_needs
	mkdir "$tmp/k"
	cp "$K1" "$tmp/k/vmlinuz"
	cp "$(dirname "$K1")/config" "$tmp/k/config"
	run_sl vm run "$tmp/k/vmlinuz" "$tmp/tiny.job" --db "$DB" --label bare
	expect_eq "auto without the modules ($err)" 0 "$rc"
	expect_match "the warning" "the host's root cannot be shared \\(its kernel $R1 has it as a module \\(CONFIG_VIRTIO=m in $tmp/k/config\\) and no virtio.ko of its own was found" "$err"
	expect_eq "the root it had" minimal \
		"$(jval "$("$SCHEDLAB" export bare --db "$DB")" '.environment.machine.vm.value.root')"
	run_sl vm run "$tmp/k/vmlinuz" "$tmp/tiny.job" --db "$DB" --root host
	expect_eq "--root host without the modules" 2 "$rc"
	expect_match "its message" "--root host: the host's root cannot be shared: its kernel" "$err"
	if command -v setpriv >/dev/null; then
		chmod 755 "$tmp"
		setpriv --reuid 65534 --regid 65534 --clear-groups env HOME="$tmp/tmpdir" \
			SCHEDLAB_VM_CACHE="$tmp/tmpdir/c" "$SCHEDLAB" vm run "$K1" "$tmp/tiny.job" \
			--db "$tmp/tmpdir/n.db" --root host >"$tmp/o" 2>&1 && rc=0 || rc=$?
		expect_eq "--root host as another user" 2 "$rc"
		expect_match "its message" "virtiofsd, which serves it, runs only as root" "$(cat "$tmp/o")"
	fi
	# a virtiofs module that is not one: the guest's mount fails
	mkdir "$tmp/k/modules"
	cp "$(dirname "$K1")"/modules/*.ko "$(dirname "$K1")/modules/order" "$tmp/k/modules/"
	cp "$tmp/k/modules/overlay.ko" "$tmp/k/modules/virtiofs.ko"
	run_sl vm run "$tmp/k/vmlinuz" "$tmp/tiny.job" --db "$DB" --root host --accel tcg
	expect_eq "a root that does not mount" 1 "$rc"
	expect_match "its message" "the host's root did not mount in the guest" "$err"
	expect_match "the console's tail" "mount: mounting hostroot on /host failed" "$err"
	expect_no_qemu
}

# virtiofsd or qemu killed mid-run: exit 1, nothing stored, nothing
# left running, no temporary folder left.
test_vm_host_root_killed() {
	vm_needs
	host_root_needs
	local victim pid i
	cat >"$tmp/long.job" <<EOF
[long]
workload = command
iterations = 1
warmup = 0
argv = sleep 60
EOF
	for victim in virtiofsd qemu-system-x86_64; do
		"$SCHEDLAB" vm run "$K1" "$tmp/long.job" --db "$DB" --root host --accel tcg \
			>"$tmp/o" 2>&1 &
		pid=$!
		for i in $(seq 1 600); do
			grep -q "the host's root is mounted" "$SCHEDLAB_VM_CACHE"/console/*.log 2>/dev/null && break
			sleep 0.1
		done
		sleep 1
		pkill -KILL -x "${victim:0:15}" -P "$pid" || fail "no $victim found to kill"
		wait "$pid" && rc=0 || rc=$?
		expect_eq "vm run when $victim is killed" 1 "$rc"
		[ "$victim" != virtiofsd ] ||
			expect_match "its message" "virtiofsd, which served the host's root to the guest, ended during the boot" "$(cat "$tmp/o")"
		rm -f "$SCHEDLAB_VM_CACHE"/console/*.log
		for i in $(seq 1 50); do
			[ -z "$(qemu_pids)" ] && break
			sleep 0.1
		done
		expect_no_qemu
	done
	expect_eq "runs stored" 0 "$(sqlite3 "$DB" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)"
	[ -z "$(ls "$tmp/tmpdir")" ] || fail "temporary files left: $(ls "$tmp/tmpdir")"
}

# A campaign over VM boots: two kernels (or one, told apart by its
# command line), alternated from here, each boot a fresh VM. The
# campaign killed with -9 mid-boot, then resumed: no qemu left behind,
# no run lost or stored twice. /dev/kvm hidden: the fallback is taken
# and said.
test_vm_campaign() {
	vm_needs
	mountns_needs
	local doc want got
	hiding /dev/kvm "$SCHEDLAB" campaign start vmab "$tmp/tiny.job" --db "$DB" --vm \
		--cpus 1 --state "a:$K1" --state "b:$K2 schedlab_state=b preempt=bogus" \
		--max-boots 2 --seed 5 >"$tmp/start.out" 2>&1 &
	local pid=$! i
	# killed once the second (and last) boot's VM is up; a loaded host
	# boots slowly under TCG: 300 s at most
	for i in $(seq 1 3000); do
		grep -q "boot 2: state" "$tmp/start.out" 2>/dev/null && [ -n "$(qemu_pids)" ] && break
		kill -0 "$pid" 2>/dev/null ||
			fail "the campaign ended before its second boot's VM was seen: $(tail -n 3 "$tmp/start.out")"
		sleep 0.1
	done
	sleep 1
	# the campaign's own process (hiding's shell and unshare exec it)
	local camp
	camp=$(for p in $(tagged_pids); do
		tr '\0' ' ' <"/proc/$p/cmdline" | grep -q "campaign start vmab" && echo "$p"
	done)
	[ -n "$camp" ] || fail "no campaign process found"
	kill -9 $camp
	wait "$pid" || true
	for i in $(seq 1 50); do
		[ -z "$(qemu_pids)" ] && break
		sleep 0.1
	done
	expect_no_qemu
	expect_match "the fallback said" "/dev/kvm cannot be used here" "$(cat "$tmp/start.out")"
	# the first boot settles the accelerator for all of them
	expect_match "settled" "boot 1 had accel tcg: every boot of this campaign will" \
		"$(cat "$tmp/start.out")"
	expect_eq "the campaign's accel" tcg \
		"$(jval "$("$SCHEDLAB" campaign status vmab --db "$DB" --format json)" .vm.accel)"
	expect_match "the campaign's root" '^(host|minimal)$' \
		"$(jval "$("$SCHEDLAB" campaign status vmab --db "$DB" --format json)" .vm.root)"
	run_sl campaign resume vmab --db "$DB" --accel tcg
	[ "$rc" = 2 ] || fail "resume took the VM's shape options (exit $rc)"
	# a second driver of the same campaign is refused while one runs
	"$SCHEDLAB" campaign resume vmab --db "$DB" >"$tmp/r1.out" 2>&1 &
	pid=$!
	for i in $(seq 1 300); do
		[ -n "$(qemu_pids)" ] && break
		sleep 0.1
	done
	run_sl campaign resume vmab --db "$DB"
	expect_eq "a second resume while one drives it" 2 "$rc"
	expect_match "its message" "is being driven by another schedlab" "$err"
	wait "$pid" || fail "the first resume failed: $(cat "$tmp/r1.out")"
	doc=$("$SCHEDLAB" campaign status vmab --db "$DB" --format json)
	expect_eq "status" finished "$(jval "$doc" .status)"
	expect_eq "boots" 2 "$(jval "$doc" '.boots | length')"
	want=$(jq -r '.boots[] | select(.phase == "done") | .uuid' <<<"$doc" | sort)
	got=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE label LIKE 'vmab/%' AND status = 'complete'" | sort)
	expect_eq "the complete runs are the boots' runs, once each" "$want" "$got"
	expect_eq "the roots the boots had" 1 "$(sqlite3 "$DB" "SELECT count(DISTINCT json_extract(environment, '\$.machine.vm.value.root')) FROM runs WHERE label LIKE 'vmab/%' AND status = 'complete'")"
	expect_eq "what ran the boots" tcg "$(sqlite3 "$DB" "SELECT DISTINCT json_extract(environment, '\$.machine.vm.value.accel') FROM runs WHERE label LIKE 'vmab/%' AND status = 'complete'")"
	expect_eq "kernels of state b" "$R2" "$(sqlite3 "$DB" "SELECT DISTINCT json_extract(environment, '\$.kernel.release.value') FROM runs WHERE label = 'vmab/b' AND status = 'complete'")"
	expect_match "b's command line" "schedlab_state=b" "$(sqlite3 "$DB" "SELECT json_extract(environment, '\$.kernel.cmdline.value') FROM runs WHERE label = 'vmab/b' AND status = 'complete' LIMIT 1")"
	# what b's kernel said of its command line, under b in the status
	got=$("$SCHEDLAB" campaign status vmab --db "$DB")
	expect_match "b's kernel said" "its kernel said of its command line: .*bogus" \
		"$(sed -n '/^  state b /,/^  state /p' <<<"$got")"
	[[ ! $(sed -n '/^  state a /,/^  state b /p' <<<"$got") =~ "kernel said" ]] ||
		fail "state a's kernel was said to complain: $got"
	expect_no_qemu
}

# ---- The bare-metal recipe, inside a VM ----------------------------------
#
# The guest plays a lab machine: its init does what the shipped unit
# (tools/schedlab-campaign.service) does at every boot - reads
# /etc/schedlab/campaign.env and runs `schedlab campaign resume` - and
# then what systemd does for `systemctl kexec`: executes the kernel the
# hook loaded, once the resume has ended. The store, the campaign's state
# and the kernels live on a virtio disk (ext4) that outlives every boot;
# the hook is a real kexec (kexec-tools' kexec_file_load) into the
# state's kernel; the state's check is the kernel's release and command
# line. Cutting the power is killing qemu; booting again is starting it
# on the default kernel (as a machine's firmware would), which is the
# wrong kernel for any state.

# bm_setup START_OPTIONS...: $tmp/initrd.img and $tmp/disk/, a campaign
# "bm" of states a ($K1) and b ($K2) that the first boot starts.
bm_setup() {
	vm_needs
	command -v kexec >/dev/null || skip "no kexec (Debian package kexec-tools)"
	command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null ||
		skip "no mkfs.ext4 or debugfs (Debian package e2fsprogs)"
	command -v cpio >/dev/null || skip "no cpio"
	local root withs m d=$tmp/disk
	withs="--with $(command -v kexec)"
	for m in "$KDIR/$R1"/modules/* "$KDIR/$R2"/modules/*; do
		withs="$withs --with $m"
	done
	# shellcheck disable=SC2086
	root=$("$SCHEDLAB" vm root "$tmp/tiny.job" $withs) || fail "vm root failed"
	mkdir -p "$tmp/ovl" "$d/boot" "$d/etc"
	cat >"$tmp/ovl/init" <<INIT
#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /tmp /run /bin /sbin /usr/bin /usr/sbin /var/lib/schedlab /etc
/bin/busybox --install -s
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
exec </dev/null >/dev/ttyS0 2>&1
echo "bm: up \$(uname -r): \$(cat /proc/cmdline)"
# the virtio modules, in passes: an order that suits every kernel
for pass in 1 2 3; do
	for m in \$(cat $KDIR/\$(uname -r)/modules/order); do
		insmod $KDIR/\$(uname -r)/modules/\$m 2>/dev/null
	done
done
mount -t ext4 /dev/vda /var/lib/schedlab || { echo "bm: no disk"; poweroff -f; }
ln -s /var/lib/schedlab/etc /etc/schedlab
# the test's power switch says, on the default kernel's command line,
# what this power-on holds: a fault to stall at, a slow hook
if grep -qw bm_default /proc/cmdline; then
	rm -f /var/lib/schedlab/stall /var/lib/schedlab/slow
	f=\$(sed -n 's/.*bm_fault=\([a-z-]*\).*/\1/p' /proc/cmdline)
	[ -z "\$f" ] || echo "\$f" >/var/lib/schedlab/stall
	! grep -qw bm_slow /proc/cmdline || touch /var/lib/schedlab/slow
	sync
fi
# the unit: EnvironmentFile=, then ExecStart=schedlab campaign resume
set -a
. /etc/schedlab/campaign.env
set +a
cd /
if [ ! -e /var/lib/schedlab/started ]; then
	touch /var/lib/schedlab/started
	sync
	sh /var/lib/schedlab/start.sh
	rc=\$?
else
	schedlab campaign resume
	rc=\$?
fi
echo "bm: resume exited \$rc"
sync
# systemctl kexec: the kernel the hook loaded, once the unit has ended
if [ -e /run/schedlab-kexec ]; then
	umount /var/lib/schedlab
	echo "bm: kexec"
	kexec -e
fi
umount /var/lib/schedlab
echo "bm: poweroff"
poweroff -f
INIT
	chmod +x "$tmp/ovl/init"
	(cd "$tmp/ovl" && echo init | cpio -o -H newc --quiet) >"$tmp/ovl.cpio"
	cat "$root" "$tmp/ovl.cpio" >"$d/boot/initrd.img"
	cp "$d/boot/initrd.img" "$tmp/initrd.img"
	cp "$K1" "$d/boot/vmlinuz-a"
	cp "$K2" "$d/boot/vmlinuz-b"
	cp "$tmp/tiny.job" "$d/job.job"
	printf 'SCHEDLAB_DB=/var/lib/schedlab/results.db\nSCHEDLAB_FAULT_STALL=/var/lib/schedlab/stall\n' >"$d/etc/campaign.env"
	{
		echo "schedlab campaign start bm /var/lib/schedlab/job.job \\"
		echo "  --state 'a:grep -qw bm_state=a /proc/cmdline && test \"\$(uname -r)\" = $R1' \\"
		echo "  --state 'b:grep -qw bm_state=b /proc/cmdline && test \"\$(uname -r)\" = $R2' \\"
		echo "  --hook 'echo \"bm: hook \$SCHEDLAB_STATE\"; [ ! -e /var/lib/schedlab/slow ] || sleep 3; kexec -s -l /var/lib/schedlab/boot/vmlinuz-\$SCHEDLAB_STATE --initrd=/var/lib/schedlab/boot/initrd.img --append=\"console=ttyS0 panic=-1 no_timer_check quiet bm_state=\$SCHEDLAB_STATE \$(cat /var/lib/schedlab/boot/append-\$SCHEDLAB_STATE 2>/dev/null)\" && touch /run/schedlab-kexec' \\"
		echo "  $*"
	} >"$d/start.sh"
	BM_BOOTS=0
}

# bm_disk: the disk image made from $tmp/disk (once, before the first boot).
bm_disk() {
	mkfs.ext4 -q -F -d "$tmp/disk" "$tmp/disk.img" 128M >/dev/null ||
		fail "mkfs.ext4 failed"
}

# bm_power_on [ARGS]: the machine started on its default kernel ($K1, no
# state; ARGS to its command line: bm_fault=PLACE, bm_slow); $bm_pid,
# its console $bm_con.
bm_power_on() {
	BM_BOOTS=$((BM_BOOTS + 1))
	bm_con=$tmp/console.$BM_BOOTS.log
	qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
		-accel tcg -m 512 -smp 1 -kernel "$K1" -initrd "$tmp/initrd.img" \
		-append "console=ttyS0 panic=-1 no_timer_check quiet bm_default ${1:-}" \
		-drive "file=$tmp/disk.img,format=raw,if=virtio" \
		-serial "file:$bm_con" >/dev/null 2>&1 &
	bm_pid=$!
}

# bm_wait_for REGEX SECONDS: the console shows REGEX (else fail).
bm_wait_for() {
	local i
	for i in $(seq 1 $(($2 * 10))); do
		grep -qE "$1" "$bm_con" 2>/dev/null && return 0
		kill -0 "$bm_pid" 2>/dev/null || fail "the machine stopped before '$1': $(tail -n 20 "$bm_con")"
		sleep 0.1
	done
	fail "no '$1' on the console within $2 s: $(tail -n 20 "$bm_con")"
}

# bm_cut: the power cut (qemu killed at once).
bm_cut() {
	kill -9 "$bm_pid" 2>/dev/null || true
	wait "$bm_pid" 2>/dev/null || true
}

# bm_wait_off SECONDS: the machine powered itself off (else fail).
bm_wait_off() {
	local i
	for i in $(seq 1 $(($1 * 10))); do
		kill -0 "$bm_pid" 2>/dev/null || { wait "$bm_pid" 2>/dev/null || true; return 0; }
		sleep 0.1
	done
	bm_cut
	fail "the machine still ran after $1 s: $(tail -n 20 "$bm_con")"
}

# bm_store: the store as the disk holds it now, in $tmp/out.db (with its
# write-ahead log, when a power cut left one).
bm_store() {
	rm -f "$tmp"/out.db*
	debugfs -R "dump /results.db $tmp/out.db" "$tmp/disk.img" >/dev/null 2>&1
	debugfs -R "dump /results.db-wal $tmp/out.db-wal" "$tmp/disk.img" >/dev/null 2>&1 || true
	[ -s "$tmp/out.db-wal" ] || rm -f "$tmp/out.db-wal"
	[ -s "$tmp/out.db" ] || fail "no store on the disk"
}

# bm_runs_once: the store is whole, and its complete runs of the
# campaign are exactly the measured boots' runs, each in its state's
# kernel and command line.
bm_runs_once() {
	local doc want got
	expect_eq "the store's integrity" ok "$(sqlite3 "$tmp/out.db" 'PRAGMA integrity_check')"
	doc=$("$SCHEDLAB" campaign status bm --db "$tmp/out.db" --format json)
	want=$(jq -r '.boots[] | select(.phase == "done") | .uuid' <<<"$doc" | sort)
	got=$(sqlite3 "$tmp/out.db" "SELECT uuid FROM runs WHERE label LIKE 'bm/%' AND status = 'complete'" | sort)
	expect_eq "the complete runs are the boots' runs, once each" "$want" "$got"
	for s in a b; do
		local r=$R1
		[ $s = a ] || r=$R2
		got=$(sqlite3 "$tmp/out.db" "SELECT DISTINCT json_extract(environment, '\$.kernel.release.value') FROM runs WHERE label = 'bm/$s' AND status = 'complete'")
		[ -z "$got" ] || expect_eq "state $s's kernels" "$r" "$got"
		expect_eq "runs of $s outside its command line" 0 "$(sqlite3 "$tmp/out.db" "SELECT count(*) FROM runs WHERE label = 'bm/$s' AND status = 'complete' AND json_extract(environment, '\$.kernel.cmdline.value') NOT LIKE '%bm_state=$s%'")"
	done
}

# (a) An A/B campaign across up to 6 real kernel switches by kexec: the
# verdict given, every run stored once. The two kernels differ, and under
# a loaded host their runs may differ enough to decide after the second
# round (4 boots): then the campaign ends there, as it should, and the
# verdict is not "inconclusive".
test_vm_bare_metal_kexec() {
	bm_setup --max-boots 6 --seed 11
	bm_disk
	bm_power_on
	bm_wait_off 240
	bm_store
	local doc boots
	doc=$("$SCHEDLAB" campaign status bm --db "$tmp/out.db" --format json)
	expect_eq "status" finished "$(jval "$doc" .status)"
	boots=$(jval "$doc" '.boots | length')
	expect_match "boots (two rounds at least, 6 at most)" "^[46]$" "$boots"
	jval "$doc" .verdict >/dev/null
	if [ "$boots" -lt 6 ]; then
		! grep -q inconclusive <<<"$(jval "$doc" .verdict)" ||
			fail "a campaign that ended after $boots boots did not decide: $(jval "$doc" .verdict)"
	fi
	expect_eq "kexec reboots" "$boots" "$(grep -c '^bm: kexec' "$bm_con")"
	expect_eq "power-ons" 1 "$BM_BOOTS"
	bm_runs_once
}

# (b) The power cut during a run, during the store's commit (a fault
# point holds the commit open) and during the hook; each time the
# machine comes back on the default kernel, the wrong one: the campaign
# hooks again and ends with nothing lost or doubled, the store intact.
test_vm_bare_metal_power_cuts() {
	bm_setup --max-boots 2 --seed 3
	bm_disk
	bm_power_on				# 1: cut during the first run
	bm_wait_for "campaign bm: boot 1: state [ab], run" 120
	sleep 1
	bm_cut
	bm_power_on bm_fault=case-commit	# 2: cut while a case's commit is held open
	bm_wait_for "schedlab: fault: stalled at case-commit" 120
	bm_cut
	bm_power_on bm_slow			# 3: cut during the hook
	bm_wait_for "^bm: hook" 120
	sleep 1
	bm_cut
	bm_power_on				# 4: on to the end
	bm_wait_off 240
	bm_store
	local doc
	doc=$("$SCHEDLAB" campaign status bm --db "$tmp/out.db" --format json)
	expect_eq "status" finished "$(jval "$doc" .status)"
	expect_eq "boots" 2 "$(jval "$doc" '.boots | length')"
	expect_match "a wrong kernel was hooked again" "is not in state" "$(cat "$tmp"/console.*.log)"
	bm_runs_once
}

# (c) A kernel that never comes back (state b's command line sends its
# init nowhere; panic=-1 powers it off): the machine is started again on
# the default kernel after --deadline, and the campaign reports the boot
# lost and stops, as the man page says.
test_vm_bare_metal_lost_kernel() {
	# seed 2: b is booted first
	bm_setup --max-boots 4 --seed 2 --deadline 15s
	echo "rdinit=/nonexistent" >"$tmp/disk/boot/append-b"
	bm_disk
	bm_power_on
	bm_wait_off 240
	grep -q "Kernel panic" "$bm_con" || fail "b's kernel did not panic: $(tail -n 20 "$bm_con")"
	sleep 12				# past the deadline, then the power comes back
	bm_power_on
	bm_wait_off 120
	bm_store
	local doc
	doc=$("$SCHEDLAB" campaign status bm --db "$tmp/out.db" --format json)
	expect_eq "status" lost "$(jval "$doc" .status)"
	expect_match "why" "did not come back within its deadline" "$(jval "$doc" .verdict)"
	expect_match "resume's exit" "bm: resume exited 1" "$(cat "$bm_con")"
	bm_runs_once
}

# States that are commits of a kernel tree (TREE@COMMIT, built by
# schedlab as vm build does: lib.sh's fake_ktree, whose "build" copies
# the kernel image its file `image` names): each built once, its boots
# of its own image (the release its runs record), a state's command-line
# addition kept, its commit and build time in status; a second campaign
# of the same commits builds nothing.
test_vm_campaign_of_tree_commits() {
	vm_needs
	command -v flex >/dev/null && command -v bison >/dev/null ||
		skip "no flex or bison (tools/deps.sh installs what vm build asks for)"
	fake_ktree "$tmp/linux" "$K1"
	echo "$K2" >"$tmp/linux/image"
	ktree_commit "$tmp/linux" "the second kernel"
	local second
	second=$(git -C "$tmp/linux" rev-parse HEAD)
	run_sl campaign start kt "$tmp/tiny.job" --db "$DB" --vm --cpus 1 --accel tcg \
		--state "a:$tmp/linux@$ktree_first" --state "b:$tmp/linux@main schedlab_state=b" \
		--max-boots 2 --seed 3
	expect_match "campaign start ($err)" "^(0|1|125)$" "$rc"
	expect_match "a built" "state a is ${ktree_first:0:12} \\(first\\), built in" "$out"
	expect_match "b built" "state b is ${second:0:12} \\(the second kernel\\), built in" "$out"
	expect_eq "a's runs" 1 "$("$SCHEDLAB" list runs --db "$DB" --format json | jq '[.[] | select(.label == "kt/a")] | length')"
	expect_eq "b's runs" 1 "$("$SCHEDLAB" list runs --db "$DB" --format json | jq '[.[] | select(.label == "kt/b")] | length')"
	local doc
	doc=$("$SCHEDLAB" export kt/a --db "$DB")
	expect_eq "a's kernel" "$R1" "$(jval "$doc" '.environment.kernel.release.value')"
	doc=$("$SCHEDLAB" export kt/b --db "$DB")
	expect_eq "b's kernel" "$R2" "$(jval "$doc" '.environment.kernel.release.value')"
	expect_match "b's command line" "schedlab_state=b" "$(jval "$doc" '.environment.kernel.cmdline.value')"
	run_sl campaign status kt --db "$DB"
	expect_match "a's tree and commit" "tree $tmp/linux@$ktree_first: commit ${ktree_first:0:12}, its kernel built in [0-9]+ s" "$out"
	expect_match "b's" "tree $tmp/linux@main: commit ${second:0:12}, its kernel built in [0-9]+ s" "$out"
	run_sl campaign start kt2 "$tmp/tiny.job" --db "$DB" --vm --cpus 1 --accel tcg \
		--state "a:$tmp/linux@$ktree_first" --state "b:$tmp/linux@main" --max-boots 2
	expect_match "the same commits again: built before" "state a is .*built before" "$out"
	# bad input: before any build or boot
	run_sl campaign start kt3 "$tmp/tiny.job" --db "$DB" --vm \
		--state "a:$tmp/linux@nope" --state "b:$tmp/linux@main"
	expect_eq "no such commit" 2 "$rc"
	expect_match "its message" "has no commit 'nope'" "$err"
	run_sl campaign start kt "$tmp/tiny.job" --db "$DB" --vm \
		--state "a:$tmp/linux@main" --state "b:$tmp/linux@main~1"
	expect_eq "a name taken" 2 "$rc"
	expect_match "said before building" "a campaign 'kt' exists" "$err"
	run_sl campaign start kt4 "$tmp/tiny.job" --db "$DB" --vm \
		--state "a:$tmp/linux" --state "b:$tmp/linux@main"
	expect_eq "a tree without a commit" 2 "$rc"
	expect_match "its message" "is a folder: a commit of a kernel tree is TREE@COMMIT" "$err"
	run_sl campaign start kt5 "$tmp/tiny.job" --db "$DB" --vm --configitem PREEMPT=y \
		--state "a:$tmp/linux@main" --state "b:$tmp/linux@main~1"
	expect_eq "a bad item" 2 "$rc"
	expect_no_qemu
}

# A bisect in VMs with no --build: schedlab builds each commit. The
# fake tree's first commit boots $K1, the others $K2, and the job sleeps
# 0.5 s a run under $R2 (the kernel that booted, nothing else, decides);
# the 2nd commit does not build: skipped, only it and the 3rd are left,
# and the bisect says so. Naming a commit across real builds and boots:
# bench/vm-kernel-tree.sh.
test_vm_bisect_builds_commits() {
	vm_needs
	[ "$K1" != "$K2" ] || skip "one kernel in $KDIR: the bisect needs two that differ"
	command -v flex >/dev/null && command -v bison >/dev/null ||
		skip "no flex or bison (tools/deps.sh installs what vm build asks for)"
	fake_ktree "$tmp/linux" "$K1"
	echo "$K2" >"$tmp/linux/image"
	touch "$tmp/linux/BROKEN"
	ktree_commit "$tmp/linux" "commit 2"
	local broken
	broken=$(git -C "$tmp/linux" rev-parse HEAD)
	git -C "$tmp/linux" rm -q BROKEN
	ktree_commit "$tmp/linux" "commit 3"
	cat >"$tmp/k.job" <<EOF
[global]
iterations = 3
warmup = 0

[k]
workload = command
shell = true
argv = "case \$(uname -r) in $R2) sleep 0.5;; *) sleep 0.02;; esac"
EOF
	run_sl campaign bisect kb "$tmp/k.job" --db "$DB" --vm --cpus 1 --accel tcg \
		--root minimal --repo "$tmp/linux" --good "$ktree_first" --bad main \
		--threshold 50 --max-ref-boots 6 --max-step-boots 4
	expect_eq "the bisect ($out $err)" 0 "$rc"
	expect_match "only the skipped commit and the bad one left" "only 'skip'ped commits left.*${broken:0:12}" "$(echo $out)"
	run_sl campaign status kb --db "$DB"
	expect_match "the builds said" "each commit's kernel built by schedlab \\(vm build\\): good's in [0-9]+ s, bad's in [0-9]+ s" "$out"
	expect_match "the commit that does not build, skipped" "step 1 +${broken:0:12} +0 runs +skip .*its kernel did not build" "$out"
	expect_no_qemu
}
