# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab vm build: a kernel image from a commit of a git tree, without
# a ten-minute kernel build - the tree is lib.sh's fake_ktree, whose
# Makefile answers make's targets as a kernel's does. Cache hits,
# incremental reuse of the build folder, the user's checkout untouched,
# a failing build, a killed one, bad input. The campaigns that boot what
# it builds are in test_vm.sh (they need qemu and kernels). A real
# linux-source-6.1 build: bench/vm-kernel-tree.sh.

# kb_needs: what a build needs here (make, flex, bison, bc, a compiler,
# libelf's and OpenSSL's headers), else skip naming it.
kb_needs() {
	local t
	for t in make flex bison bc gcc git; do
		command -v "$t" >/dev/null || skip "no $t (tools/deps.sh installs what a kernel build needs)"
	done
	[ -r /usr/include/libelf.h ] || skip "no libelf.h (Debian package libelf-dev)"
	[ -r /usr/include/openssl/opensslv.h ] || skip "no OpenSSL headers (Debian package libssl-dev)"
	use_tmpdir
	export SCHEDLAB_VM_CACHE=$tmp/vmcache
	fake_ktree "$tmp/linux"
}

# The image of a commit; the same again is the cache's, make not run;
# the next commit rebuilds only the file it changed, in the same build
# folder; the user's checkout, index and branches as they were.
test_vm_build_caches_and_reuses() {
	kb_needs
	local img img2 log head status branches
	head=$(git -C "$tmp/linux" rev-parse HEAD)
	echo "int a_changed_but_not_committed;" >"$tmp/linux/kernel/a.c"
	status=$(git -C "$tmp/linux" status --porcelain)
	branches=$(git -C "$tmp/linux" branch -a; git -C "$tmp/linux" worktree list)
	run_sl vm build "$tmp/linux"
	expect_eq "vm build ($err)" 0 "$rc"
	img=$out
	expect_match "the image is in the cache" "^$SCHEDLAB_VM_CACHE/kbuild/images/${head:0:12}-[0-9a-f]{16}/bzImage\$" "$img"
	cmp -s "$img" "$tmp/linux/Makefile" || fail "the image is not what the build made"
	expect_match "what it built, said" "building ${head:0:12} \\(first\\)" "$err"
	expect_match "uncommitted changes are not built" "uncommitted changes: they are not built" "$err"
	log=$(dirname "$img")/build.log
	expect_match "both files compiled" "CC +kernel/a.o" "$(cat "$log")"
	expect_match "the commit in the release" "LOCALVERSION -g${head:0:12}" "$(cat "$log")"
	grep -q "int a;" "$SCHEDLAB_VM_CACHE"/kbuild/linux-*/out/kernel/a.o ||
		fail "the uncommitted change was built"
	expect_match "the guest's options in its config" "CONFIG_VIRTIO_FS=y" "$(cat "$(dirname "$img")/config")"
	expect_match "kvm_guest.config in its config" "CONFIG_HYPERVISOR_GUEST=y" "$(cat "$(dirname "$img")/config")"
	# the user's tree as it was
	expect_eq "HEAD" "$head" "$(git -C "$tmp/linux" rev-parse HEAD)"
	expect_eq "the checkout" "$status" "$(git -C "$tmp/linux" status --porcelain)"
	expect_eq "branches and worktrees" "$branches" "$(git -C "$tmp/linux" branch -a; git -C "$tmp/linux" worktree list)"
	# again: the cache's, nothing built
	run_sl vm build "$tmp/linux" "$head"
	expect_eq "vm build again ($err)" 0 "$rc"
	expect_eq "the same image" "$img" "$out"
	expect_match "said so" "was built before" "$err"
	# a commit that changes one file rebuilds that file only
	git -C "$tmp/linux" checkout -q -- kernel/a.c
	echo "int b2;" >"$tmp/linux/kernel/b.c"
	ktree_commit "$tmp/linux" "b changed"
	run_sl vm build "$tmp/linux" HEAD
	expect_eq "the second commit ($err)" 0 "$rc"
	img2=$out
	[ "$img2" != "$img" ] || fail "two commits, one image: $img"
	log=$(dirname "$img2")/build.log
	expect_match "the changed file compiled" "CC +kernel/b.o" "$(cat "$log")"
	[[ ! $(cat "$log") =~ kernel/a.o ]] || fail "an unchanged file was compiled again: $(cat "$log")"
	expect_match "the last build's time said" "the last build of this tree took" "$err"
	# the first commit is still the cache's
	run_sl vm build "$tmp/linux" "$head" -q
	expect_eq "the first again" "$img" "$out"
	expect_eq "quiet" "" "$err"
	# another configuration is another image
	run_sl vm build "$tmp/linux" "$head" --configitem CONFIG_EXTRA=y
	expect_eq "with an item ($err)" 0 "$rc"
	[ "$out" != "$img" ] || fail "an item did not change the image's key"
	expect_match "the item in its config" "CONFIG_EXTRA=y" "$(cat "$(dirname "$out")/config")"
}

# An asked-for option the configuration drops is said; the user's own
# .config is the base when given.
test_vm_build_config_dropped() {
	kb_needs
	printf 'CONFIG_MINE=y\nCONFIG_64BIT=y\n' >"$tmp/my.config"
	run_sl vm build "$tmp/linux" --config "$tmp/my.config" --configitem CONFIG_DROPME=y
	expect_eq "vm build ($err)" 0 "$rc"
	expect_match "the dropped option said" "1 option asked for the configuration dropped .*CONFIG_DROPME=y \\(now not set\\)" "$err"
	local cfg
	cfg=$(cat "$(dirname "$out")/config")
	expect_match "the user's base kept" "CONFIG_MINE=y" "$cfg"
	[[ ! $cfg =~ CONFIG_TINY ]] || fail "tinyconfig used though --config was given: $cfg"
}

# A commit that does not build: exit 1, the log's last lines and its
# path, nothing in the cache.
test_vm_build_failure() {
	kb_needs
	touch "$tmp/linux/BROKEN"
	ktree_commit "$tmp/linux" "broken"
	run_sl vm build "$tmp/linux"
	expect_eq "a failed build" 1 "$rc"
	expect_match "said" "the build of [0-9a-f]{12} \\(broken\\) failed: make exited 2" "$err"
	expect_match "its last lines" "kernel/broken.c:1: error: it is broken" "$err"
	expect_match "the log's path" "the build's last lines \\($SCHEDLAB_VM_CACHE/kbuild/linux-[0-9a-f]+/build-[0-9a-f]{12}.log\\)" "$err"
	[ -z "$(ls "$SCHEDLAB_VM_CACHE/kbuild/images" 2>/dev/null)" ] ||
		fail "a failed build left an image: $(ls "$SCHEDLAB_VM_CACHE/kbuild/images")"
}

# A build killed (SIGTERM, as a campaign's child gets; SIGINT the same)
# stops make and its compilers, caches nothing, exits 130; the next
# build of the tree works.
test_vm_build_killed() {
	kb_needs
	touch "$tmp/linux/SLOW"
	ktree_commit "$tmp/linux" "slow"
	"$SCHEDLAB" vm build "$tmp/linux" >"$tmp/out" 2>"$tmp/err" &
	local pid=$! i
	for ((i = 0; i < 100; i++)); do
		pgrep -f "sleep 31.7" >/dev/null && break
		sleep 0.1
	done
	pgrep -f "sleep 31.7" >/dev/null || fail "the slow build never started: $(cat "$tmp/err")"
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "a killed build" 130 "$rc"
	expect_match "said" "interrupted: nothing was cached, nothing is left running" "$(cat "$tmp/err")"
	! pgrep -f "sleep 31.7" >/dev/null || fail "the build's compiler is left running"
	[ -z "$(ls "$SCHEDLAB_VM_CACHE/kbuild/images" 2>/dev/null)" ] ||
		fail "a killed build left an image: $(ls -R "$SCHEDLAB_VM_CACHE/kbuild/images")"
	git -C "$tmp/linux" rm -q SLOW
	ktree_commit "$tmp/linux" "fast again"
	run_sl vm build "$tmp/linux"
	expect_eq "the next build ($err)" 0 "$rc"
}

# Bad input: one message, exit 2, nothing built.
test_vm_build_bad_input() {
	kb_needs
	run_sl vm build "$tmp/nope"
	expect_eq "a missing tree" 2 "$rc"
	mkdir "$tmp/plain"
	run_sl vm build "$tmp/plain"
	expect_eq "not a git repository" 2 "$rc"
	expect_match "its message" "is not a git repository" "$err"
	git -C "$tmp/plain" init -q
	echo hi >"$tmp/plain/README"
	ktree_commit "$tmp/plain" "not a kernel"
	run_sl vm build "$tmp/plain"
	expect_eq "not a kernel tree" 2 "$rc"
	expect_match "its message" "is not a kernel tree" "$err"
	run_sl vm build "$tmp/linux" no-such-commit
	expect_eq "no such commit" 2 "$rc"
	expect_match "its message" "has no commit 'no-such-commit'" "$err"
	run_sl vm build "$tmp/linux" --make O=/tmp/x
	expect_eq "O= is schedlab's" 2 "$rc"
	run_sl vm build "$tmp/linux" --make "not a var"
	expect_eq "not VAR=VALUE" 2 "$rc"
	run_sl vm build "$tmp/linux" --configitem "PREEMPT=y"
	expect_eq "an item without CONFIG_" 2 "$rc"
	expect_match "its message" "option --configitem: 'PREEMPT=y' is not CONFIG_NAME=VALUE" "$err"
	run_sl vm build "$tmp/linux" --config "$tmp/missing.config"
	expect_eq "a missing --config" 2 "$rc"
	run_sl vm build "$tmp/linux" HEAD extra
	expect_eq "three operands" 2 "$rc"
	# a tool missing: named, with its package, before anything runs
	mkdir "$tmp/bin"
	local t
	for t in make bison bc perl git gcc ccache mktemp cat rm; do
		command -v "$t" >/dev/null && ln -s "$(command -v "$t")" "$tmp/bin/$t"
	done
	PATH=$tmp/bin run_sl vm build "$tmp/linux"
	expect_eq "no flex" 2 "$rc"
	expect_match "its message" "building a kernel needs flex \\(apt-get install flex\\)" "$err"
	PATH=$tmp/bin run_sl vm build "$tmp/linux" --make LLVM=1
	expect_eq "no clang" 2 "$rc"
	expect_match "its message" "needs flex, clang, ld.lld \\(apt-get install flex clang lld\\)" "$err"
	[ ! -d "$SCHEDLAB_VM_CACHE/kbuild/images" ] || fail "bad input built something"
}

# A real kernel: Debian's linux-source-6.1 made a git repository, built
# with the guest's configuration, its config checked by vm check-config
# and its release naming the commit; booted when qemu is here. Minutes
# of building: opt-in.
test_vm_build_linux_source() {
	[ "${SCHEDLAB_TEST_KBUILD:-}" = 1 ] ||
		skip "a kernel build takes minutes: set SCHEDLAB_TEST_KBUILD=1"
	local tarball=/usr/src/linux-source-6.1.tar.xz n head
	[ -r "$tarball" ] || skip "no $tarball (apt-get install linux-source-6.1)"
	kb_needs
	mkdir "$tmp/src"
	tar -xf "$tarball" -C "$tmp/src" --strip-components=1
	n=$(grep -n "^# Debian packaging" "$tmp/src/.gitignore" | head -n 1 | cut -d: -f1)
	[ -z "$n" ] || sed -i "$((n - 1)),\$d" "$tmp/src/.gitignore"
	git -C "$tmp/src" init -q -b main
	ktree_commit "$tmp/src" "linux-source-6.1"
	head=$(git -C "$tmp/src" rev-parse HEAD)
	run_sl vm build "$tmp/src"
	expect_eq "vm build ($err)" 0 "$rc"
	run_sl vm check-config "$(dirname "$out")/config"
	expect_eq "the guest's options all there ($out)" 0 "$rc"
	if command -v qemu-system-x86_64 >/dev/null && command -v busybox >/dev/null; then
		cat >"$tmp/tiny.job" <<EOF
[global]
iterations = 1
warmup = 0

[msg]
workload = messaging
groups = 1
loops = 20
EOF
		local img=$(dirname "$out")/bzImage
		run_sl vm run "$img" "$tmp/tiny.job" --db "$tmp/r.db" --accel tcg --label k
		expect_eq "vm run ($err)" 0 "$rc"
		expect_match "the release names the commit" "g${head:0:12}\$" \
			"$(jval "$("$SCHEDLAB" export k --db "$tmp/r.db")" '.environment.kernel.release.value')"
	fi
}
