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

# qemu_pids: qemu processes this test started (they carry its tag).
qemu_pids() {
	local f pid
	for f in $(grep -lsxzF "SCHEDLAB_TEST_TAG=$SCHEDLAB_TEST_TAG" \
		   /proc/[0-9]*/environ 2>/dev/null || true); do
		pid=${f#/proc/}
		pid=${pid%/environ}
		case $(cat "/proc/$pid/comm" 2>/dev/null) in
		qemu-system-*) echo "$pid" ;;
		esac
	done
}

expect_no_qemu() {
	local left
	left=$(qemu_pids)
	[ -z "$left" ] || fail "qemu left running: $(ps -o pid,args -p "$(echo $left | tr ' ' ,)")"
}

# The job on a kernel, its run stored here with the guest's machine:
# its kernel, its command line, the shape asked for, and what ran it.
# --accel auto: KVM where a guest shows life under it, else TCG.
test_vm_run() {
	vm_needs
	run_sl vm run "$K1" "$tmp/tiny.job" --db "$DB" --accel auto --sockets 2 \
		--cores 1 --append "schedlab_test=1" --label guest
	expect_eq "vm run's exit ($err)" 0 "$rc"
	local doc accel
	doc=$("$SCHEDLAB" export guest --db "$DB")
	expect_eq "the run's kernel" "$R1" "$(jval "$doc" '.environment.kernel.release.value')"
	expect_match "the guest's command line" "schedlab_test=1" \
		"$(jval "$doc" '.environment.kernel.cmdline.value')"
	expect_eq "the guest's CPUs" 2 "$(jval "$doc" '.environment.cpus.online.value.count')"
	expect_eq "the vm's sockets" 2 "$(jval "$doc" '.environment.machine.vm.value.sockets')"
	accel=$(jval "$doc" '.environment.machine.vm.value.accel')
	expect_match "what ran it" '^(kvm|tcg)$' "$accel"
	expect_eq "the run's host" "$(uname -n)-$accel" "$(jval "$doc" '.run.host')"
	expect_eq "the run" complete "$(jval "$doc" '.run.status')"
	[ "$accel" = kvm ] || expect_match "the TCG warning" "TCG, emulated" "$err"
	# the guest's topology as the guest's own probe read it
	expect_match "the topology shown" "2 packages" \
		"$("$SCHEDLAB" show guest --db "$DB" | grep '^topology')"
	expect_match "the vm line shown" "^vm +qemu, $accel" \
		"$("$SCHEDLAB" show guest --db "$DB" | grep '^vm ')"
	# the second boot of the same files reuses the root
	expect_eq "roots in the cache" 1 "$(ls "$SCHEDLAB_VM_CACHE"/root-*.cpio | wc -l)"
	expect_no_qemu
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
		--cpus 1 --state "a:$K1" --state "b:$K2 schedlab_state=b" \
		--max-boots 4 --seed 5 >"$tmp/start.out" 2>&1 &
	local pid=$! i
	# killed once the second boot's VM is up
	for i in $(seq 1 600); do
		grep -q "boot 2: state" "$tmp/start.out" 2>/dev/null && [ -n "$(qemu_pids)" ] && break
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
	expect_eq "boots" 4 "$(jval "$doc" '.boots | length')"
	want=$(jq -r '.boots[] | select(.phase == "done") | .uuid' <<<"$doc" | sort)
	got=$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE label LIKE 'vmab/%' AND status = 'complete'" | sort)
	expect_eq "the complete runs are the boots' runs, once each" "$want" "$got"
	expect_eq "kernels of state b" "$R2" "$(sqlite3 "$DB" "SELECT DISTINCT json_extract(environment, '\$.kernel.release.value') FROM runs WHERE label = 'vmab/b' AND status = 'complete'")"
	expect_match "b's command line" "schedlab_state=b" "$(sqlite3 "$DB" "SELECT json_extract(environment, '\$.kernel.cmdline.value') FROM runs WHERE label = 'vmab/b' AND status = 'complete' LIMIT 1")"
	expect_no_qemu
}
