#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Campaigns across real VM boots (doc/statistics.md, "Campaigns over VM
# boots, measured"; doc/benchmarks.md): each boot a fresh qemu of one of
# Debian's cloud kernels (tools/kernels.sh), driven by `schedlab campaign
# start|bisect --vm`. Parts (PARTS, default "aa ab bisect noise"):
#   aa      AA campaigns: one kernel in both states; the claims counted
#           (a finished campaign whose code is 1: a change called)
#   ab      A/B of a real scheduler difference in the guest:
#           preempt=none against preempt=full, on messaging and on the
#           wakeup workload: verdicts, boots, wall time
#   bisect  a bisect over a small repository whose "kernel" at each
#           commit is the image plus a command line, the bad commit
#           adding maxcpus=1 (a CPU-bound job of 2 tasks then shares one
#           CPU): found, wrong calls, boots
#   noise   boot-to-boot noise of the AA campaigns' runs (schedlab noise)
#           beside this host's run-to-run noise of the same job
#
#   bench/vm-campaigns.sh
#   PARTS=aa AA=4 BOOTS=6 bench/vm-campaigns.sh
#
# Environment: PARTS, AA (10 campaigns), BOOTS (8: --max-boots of each
# AA and A/B campaign), CPUS (2: the guest's), ACCEL (tcg), KERNEL (the
# first of $SCHEDLAB_KERNELS), SCHEDLAB, KEEP=DIR. Under TCG the guest's
# times are emulated: the decisions and their rates are what this
# measures, not the hardware's speeds.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
parts=${PARTS:-aa ab bisect noise}
naa=${AA:-10} boots=${BOOTS:-8} cpus=${CPUS:-2} accel=${ACCEL:-tcg}
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
k=$(vm_kernel vm-campaigns) || exit 2
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
export SCHEDLAB_VM_CACHE=$tmp/vmcache
db=$tmp/r.db
vm="--vm --accel $accel --cpus $cpus"

cat >"$tmp/msg.job" <<EOF
[global]
iterations = 3
warmup = 0

[msg]
workload = messaging
groups = 1
loops = 200
EOF
cat >"$tmp/wakeup.job" <<EOF
[global]
iterations = 3
warmup = 0

[wakeup]
workload = wakeup
message_threads = 1
workers = 2
runtime = 2
warmup_s = 0
EOF
cat >"$tmp/cpu.job" <<EOF
[global]
iterations = 3
warmup = 0

[cpu]
workload = compute
tasks = 2
jobs = 20
EOF

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }
echo "vm-campaigns: kernel $k, guest $cpus CPUs, $accel, $(nproc) host CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ " $parts " == *" aa "* ]]; then
	claims=0 nochange=0
	for i in $(seq 1 "$naa"); do
		t0=$(now)
		# shellcheck disable=SC2086
		"$sl" campaign start "aa$i" "$tmp/msg.job" --db "$db" $vm \
			--state "a:$k" --state "b:$k" --max-boots "$boots" --seed "$i" \
			>"$tmp/aa$i.out" 2>&1 || true
		doc=$("$sl" campaign status "aa$i" --db "$db" --format json)
		code=$(jq -r .code <<<"$doc")
		[ "$code" = 1 ] && claims=$((claims + 1))
		[ "$code" = 0 ] && nochange=$((nochange + 1))
		echo "aa $i: $(jq -r .status <<<"$doc"), code $code, $(jq -r '.boots | length' <<<"$doc") boots, $(secs "$t0") s: $(jq -r .verdict <<<"$doc" | head -n 1)"
	done
	echo "aa: $claims of $naa campaigns claimed a change; $nochange concluded no change"
fi

if [[ " $parts " == *" ab "* ]]; then
	for j in msg wakeup; do
		t0=$(now)
		# shellcheck disable=SC2086
		"$sl" campaign start "ab-$j" "$tmp/$j.job" --db "$db" $vm \
			--state "full:$k preempt=full" --state "none:$k preempt=none" \
			--max-boots "$boots" --seed 7 >"$tmp/ab-$j.out" 2>&1 || true
		doc=$("$sl" campaign status "ab-$j" --db "$db" --format json)
		echo "ab $j (preempt=none against full): code $(jq -r .code <<<"$doc"), $(jq -r '.boots | length' <<<"$doc") boots, $(secs "$t0") s:"
		jq -r .verdict <<<"$doc" | sed 's/^/    /'
	done
fi

if [[ " $parts " == *" bisect "* ]]; then
	repo=$tmp/repo
	git init -q "$repo"
	git -C "$repo" config user.email bench@schedlab
	git -C "$repo" config user.name bench
	bad=5
	for c in 1 2 3 4 5 6 7 8; do
		if [ "$c" -ge "$bad" ]; then echo "maxcpus=1" >"$repo/append"; else echo "" >"$repo/append"; fi
		echo "$c" >"$repo/n"
		git -C "$repo" add -A
		git -C "$repo" commit -qm "c$c"
	done
	good=$(git -C "$repo" rev-list --reverse HEAD | head -n 1)
	first_bad=$(git -C "$repo" rev-list --reverse HEAD | sed -n "${bad}p")
	t0=$(now)
	# shellcheck disable=SC2086
	"$sl" campaign bisect vbis "$tmp/cpu.job" --db "$db" $vm --repo "$repo" \
		--good "$good" --bad HEAD --seed 7 \
		--build "cp '$k' \"\$SCHEDLAB_IMAGE\" && cp append \"\$SCHEDLAB_IMAGE.append\"" \
		>"$tmp/bisect.out" 2>&1 || true
	doc=$("$sl" campaign status vbis --db "$db" --format json)
	found=$(jq -r '.bisect.first_bad // "none"' <<<"$doc")
	echo "bisect (8 commits, c$bad adds maxcpus=1): first bad $found ($([ "$found" = "$first_bad" ] && echo right || echo WRONG, c$bad is $first_bad)), $(jq -r '.boots | length' <<<"$doc") boots, $(jq -r '.bisect.steps | length' <<<"$doc") steps, $(secs "$t0") s"
	jq -r '.bisect.steps[] | "    step \(.state): \(.call) after \(.looks) looks"' <<<"$doc"
fi

if [[ " $parts " == *" noise "* ]]; then
	echo "noise: boot to boot in the guest (the AA campaigns' runs):"
	"$sl" noise msg --db "$db" 2>&1 | sed 's/^/    /'
	for i in 1 2 3 4 5 6; do
		"$sl" run "$tmp/msg.job" --db "$tmp/host.db" --label host -q >/dev/null 2>&1
	done
	echo "noise: run to run on this host (6 runs of the same job):"
	"$sl" noise msg --db "$tmp/host.db" 2>&1 | sed 's/^/    /'
fi
