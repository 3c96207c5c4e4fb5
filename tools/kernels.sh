#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Fetches two of Debian's cloud kernels for the tests that boot real
# kernels in qemu (tests/integration/test_vm.sh), into
#   ${SCHEDLAB_KERNELS:-/var/cache/schedlab/kernels}/RELEASE/
#       vmlinuz   config   modules/   (the modules a virtio disk and the
#                                    host's shared root need, and their order)
# The package names are resolved now, from what the archive holds: each
# version of linux-image-cloud-amd64 depends on one kernel package
# (bookworm and bookworm-security each have theirs). Where only one can
# be had the tests boot it with two command lines; where none, they skip
# and say why. Needs apt-get (root); fetches nothing already there.
set -u

dir=${SCHEDLAB_KERNELS:-/var/cache/schedlab/kernels}
meta=linux-image-cloud-amd64
# the modules a virtio disk and the host's shared root (virtiofs under
# an overlay) need, in the order they load
mods="drivers/virtio/virtio.ko drivers/virtio/virtio_ring.ko
drivers/virtio/virtio_pci_modern_dev.ko drivers/virtio/virtio_pci_legacy_dev.ko
drivers/virtio/virtio_pci.ko drivers/block/virtio_blk.ko fs/fuse/fuse.ko
fs/fuse/virtiofs.ko fs/overlayfs/overlay.ko"

say() { echo "tools/kernels.sh: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
	say "not root: the VM tests will skip (as root this fetches two $meta kernels)"
	exit 0
fi
mkdir -p "$dir" || exit 0
# a kernel fetched before the shared root came lacks its modules: again
have=$(ls -d "$dir"/*/modules/virtiofs.ko 2>/dev/null | wc -l)
[ "$have" -ge 2 ] && exit 0

# each version of the meta-package names one kernel package
resolve() {
	apt-cache madison "$meta" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
		while read -r v; do
			apt-cache show "$meta=$v" 2>/dev/null |
				sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n 1
		done | sort -u
}
pkgs=$(resolve)
if [ -z "$pkgs" ]; then
	apt-get update -qq >/dev/null 2>&1
	pkgs=$(resolve)
fi
if [ -z "$pkgs" ]; then
	say "the archive names no $meta kernel: the VM tests will skip"
	exit 0
fi

tmp=$(mktemp -d) || exit 0
trap 'rm -rf "$tmp"' EXIT
for p in $pkgs; do
	rel=${p#linux-image-}
	[ -f "$dir/$rel/modules/virtiofs.ko" ] && continue
	if ! (cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1); then
		say "cannot download $p: skipped"
		continue
	fi
	deb=$(ls "$tmp"/"$p"_*.deb 2>/dev/null | head -n 1)
	x="$tmp/x-$rel"
	if ! dpkg-deb -x "$deb" "$x"; then
		say "cannot unpack $deb: skipped"
		continue
	fi
	mkdir -p "$dir/$rel.new/modules" &&
	cp "$x/boot/vmlinuz-$rel" "$dir/$rel.new/vmlinuz" &&
	cp "$x/boot/config-$rel" "$dir/$rel.new/config" || continue
	for m in $mods; do
		cp "$x/lib/modules/$rel/kernel/$m" "$dir/$rel.new/modules/" || continue 2
	done
	echo "$mods" | xargs -n 1 basename >"$dir/$rel.new/modules/order"
	rm -rf "$dir/$rel" && mv "$dir/$rel.new" "$dir/$rel" && say "fetched $p"
	rm -rf "$x" "$deb"
done
exit 0
