#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# From a kernel tree to a verdict, on a real kernel (doc/benchmarks.md,
# "Kernels built from a tree"; doc/statistics.md, "A bisect over real
# kernel builds"): Debian's linux-source-6.1 made a git repository, 8
# commits on a branch of its own - the 5th adds a busy delay of DELAY
# microseconds to pick_next_task_fair() (kernel/sched/fair.c), the
# others change a comment in a scheduler file, so that every step
# rebuilds one file - and schedlab builds each commit itself (vm build)
# and boots it in VMs. Parts (PARTS, default "build ab aa bisect sizes"):
#   build   the first full build and a one-file rebuild, timed
#   ab      campaign start --vm --state base:TREE@c1 --state cand:TREE@c5:
#           the verdict, its direction, the boots, the wall time
#   aa      the same of c1 against c1: no change claimed
#   bisect  campaign bisect --vm --repo TREE --good c1 --bad c8, no
#           --build: the commit named, the boots, the wall time, each
#           step's build time
#   sizes   A/B of c1 against a delay of each of SIZES microseconds (a
#           commit each, on c1): the smallest size decided
#
#   bench/vm-kernel-tree.sh
#   PARTS="ab aa" DELAY=500 bench/vm-kernel-tree.sh
#
# Environment: PARTS; TREE (the repository, made from
# /usr/src/linux-source-6.1.tar.xz when it has no .git; default
# /var/tmp/schedlab-linux-6.1: kept, its builds with it in the cache);
# DELAY (500: us a pick, the proof's change); SIZES ("20 50 100");
# BOOTS (12: --max-boots of the A/B and A/A); CPUS (2: the guest's);
# ACCEL (tcg); SCHEDLAB; KEEP=DIR (the store, outputs). Needs root (the
# guest's root is the host's), qemu, flex, bison, bc, libelf-dev,
# libssl-dev (tools/deps.sh bench).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
parts=${PARTS:-build ab aa bisect sizes}
tree=${TREE:-/var/tmp/schedlab-linux-6.1}
delay=${DELAY:-500} sizes=${SIZES:-20 50 100}
boots=${BOOTS:-12} cpus=${CPUS:-2} accel=${ACCEL:-tcg}
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
db=$tmp/r.db
vm="--vm --accel $accel --cpus $cpus"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }
g() { git -C "$tree" -c user.name=bench -c user.email=bench@schedlab "$@"; }

# the tree: the tarball as one commit (Debian's .gitignore ignores every
# top-level file of the source: its packaging lines go)
if [ ! -d "$tree/.git" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -r "$tarball" ] || { echo "vm-kernel-tree: no $tarball (apt-get install linux-source-6.1)" >&2; exit 2; }
	mkdir -p "$tree"
	tar -xf "$tarball" -C "$tree" --strip-components=1
	n=$(grep -n "^# Debian packaging" "$tree/.gitignore" | head -n 1 | cut -d: -f1)
	[ -z "$n" ] || sed -i "$((n - 1)),\$d" "$tree/.gitignore"
	g init -q
	g add -A
	g commit -qm "linux-source-6.1 (Debian's), as released"
fi
base=$(g rev-list --max-parents=0 HEAD | tail -n 1)

# commit_on BASE SUBJECT EDIT...: a commit on BASE (detached; the tree's
# checkout is the bench's own) after the sed EDIT of a file; its hash.
commit_on() {
	local on=$1 subject=$2 file=$3 expr=$4
	g checkout -q --detach "$on"
	sed -i "$expr" "$tree/$file"
	g commit -qam "$subject"
	g rev-parse HEAD
}
# delay_commit BASE US: a commit on BASE whose pick_next_task_fair()
# spins US microseconds at each call (udelay, before its first label)
delay_commit() {
	local on=$1 us=$2
	g checkout -q --detach "$on"
	sed -i -e 's|^#include <linux/softirq.h>$|&\n#include <linux/delay.h>|' \
		-e "/^pick_next_task_fair(struct rq \\*rq, struct task_struct \\*prev/,/^again:\$/ s|^again:\$|\\tudelay($us);\\nagain:|" \
		"$tree/kernel/sched/fair.c"
	g commit -qam "sched/fair: a busy delay of $us us at every pick (schedlab's proof)"
	g rev-parse HEAD
}

# c1..c8: c5 the delay, the others a comment each in a scheduler file
files=(kernel/sched/core.c kernel/sched/fair.c kernel/sched/rt.c kernel/sched/idle.c
       "" kernel/sched/deadline.c kernel/sched/stats.c kernel/sched/loadavg.c)
c=("$base")
for i in 1 2 3 4 5 6 7; do
	if [ "$i" = 4 ]; then
		c+=("$(delay_commit "${c[$((i - 1))]}" "$delay")")
	else
		c+=("$(commit_on "${c[$((i - 1))]}" "c$((i + 1)): a comment" "${files[$i]}" "1s|\$| /* schedlab bench c$((i + 1)) */|")")
	fi
done
g checkout -q --detach "${c[7]}"
echo "vm-kernel-tree: $tree, c1 ${c[0]:0:12} .. c8 ${c[7]:0:12}, c5 ${c[4]:0:12} adds udelay($delay) to pick_next_task_fair(); guest $cpus CPUs, $accel; $(nproc) host CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(gcc --version | head -n 1)$(command -v ccache >/dev/null && echo ', ccache')"

cat >"$tmp/msg.job" <<EOF
[global]
iterations = 3
warmup = 0

[msg]
workload = messaging
groups = 1
loops = 200
EOF

build_s() { jq -r ".build_s | floor" "$(dirname "$1")/info.json"; }
if [[ " $parts " == *" build "* ]]; then
	for i in 0 1; do
		t0=$(now)
		img=$("$sl" vm build "$tree" "${c[$i]}" -q)
		echo "build c$((i + 1)): $(secs "$t0") s wall (its build $(build_s "$img") s, a cache hit costs nothing): $img"
	done
fi

# campaign NAME STATE-A STATE-B: an A/B in VMs, its verdict in a line
campaign() {
	local name=$1 a=$2 b=$3 t0 doc
	t0=$(now)
	# shellcheck disable=SC2086
	"$sl" campaign start "$name" "$tmp/msg.job" --db "$db" $vm --state "$a" --state "$b" \
		--max-boots "$boots" --seed 7 >"$tmp/$name.out" 2>&1 || true
	doc=$("$sl" campaign status "$name" --db "$db" --format json)
	echo "$name: code $(jq -r .code <<<"$doc"), $(jq -r '.boots | length' <<<"$doc") boots, $(secs "$t0") s (builds included: $(jq -r '[.states[].build_s | floor] | join(" s, ")' <<<"$doc") s):"
	jq -r .verdict <<<"$doc" | sed 's/^/    /'
}

[[ " $parts " != *" ab "* ]] || campaign kab "base:$tree@${c[0]}" "cand:$tree@${c[4]}"
[[ " $parts " != *" aa "* ]] || campaign kaa "a:$tree@${c[0]}" "b:$tree@${c[0]}"

if [[ " $parts " == *" bisect "* ]]; then
	t0=$(now)
	# shellcheck disable=SC2086
	"$sl" campaign bisect kbis "$tmp/msg.job" --db "$db" $vm --repo "$tree" \
		--good "${c[0]}" --bad "${c[7]}" --seed 7 >"$tmp/bisect.out" 2>&1 || true
	doc=$("$sl" campaign status kbis --db "$db" --format json)
	found=$(jq -r '.bisect.first_bad // "none"' <<<"$doc")
	echo "bisect (8 commits, c5 adds udelay($delay)): first bad ${found:0:12} ($([ "$found" = "${c[4]}" ] && echo right || echo "WRONG: c5 is ${c[4]:0:12}")), $(jq -r '.boots | length' <<<"$doc") boots, $(jq -r '.bisect.steps | length' <<<"$doc") steps, $(secs "$t0") s wall"
	"$sl" campaign status kbis --db "$db" | sed 's/^/    /'
	g bisect reset -q 2>/dev/null || true
fi

if [[ " $parts " == *" sizes "* ]]; then
	for us in $sizes; do
		s=$(delay_commit "${c[0]}" "$us")
		campaign "ksize$us" "base:$tree@${c[0]}" "d$us:$tree@$s"
	done
fi
