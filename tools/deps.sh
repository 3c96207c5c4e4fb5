#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the Debian packages schedlab needs for a purpose, if missing:
#   tools/deps.sh build   compile schedlab
#   tools/deps.sh test    compile and run the test suite
#   tools/deps.sh bench   run bench/ scripts beside the reference tools
# As root it runs apt-get; otherwise it prints the one apt-get line needed
# and fails.
set -eu

build="gcc libc6-dev make pkg-config libjansson-dev libsqlite3-dev libinih-dev libmnl-dev libgsl-dev libpq-dev"
# clang: make check's clang build and make fuzz (libFuzzer); its
# sanitizer and libFuzzer runtimes are only a Recommends of clang-14.
# qemu-system-x86, busybox-static, kexec-tools, e2fsprogs: the tests that
# boot real kernels (tests/integration/test_vm.sh); tools/kernels.sh
# fetches the kernels they boot. flex, bison, bc, libelf-dev (objtool)
# and libssl-dev (certificates): what `schedlab vm build` asks of a
# machine before it builds a kernel (tests/integration/test_vm_build.sh
# builds a stand-in tree); ccache makes its rebuilds quicker.
test="$build clang libclang-rt-14-dev libcmocka-dev jq sqlite3 strace procps git dbench postgresql postgresql-contrib sysbench fio chromium gnuplot-nox fonts-dejavu-core qemu-system-x86 busybox-static kexec-tools e2fsprogs cpio flex bison bc libelf-dev libssl-dev ccache"
# kbuild (jobs/kbuild.job) and bench/vm-kernel-tree.sh: the kernel source.
bench="$test rt-tests linux-perf time linux-source"

case "${1:-build}" in
build) want=$build ;;
test) want=$test ;;
bench) want=$bench ;;
*) echo "usage: tools/deps.sh build|test|bench" >&2; exit 2 ;;
esac

# the kernels the VM tests boot: fetched whatever else is installed
kernels() {
	[ "${1:-}" = test ] && sh "$(dirname "$0")/kernels.sh"
	return 0
}

missing=
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	kernels "${1:-build}"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "schedlab needs these Debian packages; install them with:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
kernels "${1:-build}"
