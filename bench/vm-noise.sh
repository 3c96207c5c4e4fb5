#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Where a guest's boot-to-boot noise comes from, and what reduces it
# (doc/statistics.md, "A guest's boots made repeatable"). Each boot is
# one `schedlab vm run` of the issue's messaging job (groups 2, loops
# 100, 3 iterations); its run's median iteration is one value. The
# configurations are boots of one kernel that differ only in what qemu
# is given, applied by a qemu wrapper on PATH, so that no option of
# schedlab's is needed to try one; they are interleaved boot by boot
# (A B C A B C ...), so that the host's slow drifts fall on all alike.
# The host's own runs of the job (`schedlab run`, one process a run)
# are interleaved with them: the yardstick the target is set against.
#
#   bench/vm-noise.sh
#   CONFIGS="base pin" BOOTS=8 bench/vm-noise.sh
#
# Configurations (CONFIGS, default "base pin prealloc host"):
#   base     qemu as schedlab starts it
#   pin      each vCPU thread ("CPU n/TCG" or "CPU n/KVM") pinned to
#            host CPU n mod the host's CPUs once it appears
#   prealloc -mem-prealloc: the guest's memory touched before it boots
#   icount   -icount shift=auto: TCG's clock counts instructions (one
#            thread runs every vCPU in turn; here the guest did not
#            reach its init within 40 s with shift=auto, 4 or 7)
#   tsc      tsc=reliable on the guest's command line: the TSC its
#            clocksource (TCG's vCPUs fail the kernel's TSC sync check,
#            and the clock is then the HPET: an emulated MMIO read, under
#            qemu's global lock, at every read of the time)
#   maxcpus1 base with maxcpus=1 on the guest's command line
#   maxcpus1tsc  maxcpus=1 tsc=reliable
#   prio     tsc, and the vCPU threads at nice -10 (the host's other
#            threads, qemu's own and virtiofsd's, yield to them)
#   minimal  tsc, with --root minimal (no virtiofsd)
#   host     the job on this host, no VM
# Prints, per configuration, each value and the run-to-run noise (the
# sample standard deviation of the values over their mean) and the
# median. Environment: CONFIGS, BOOTS (8), CPUS (2: the guest's),
# ACCEL (tcg), KERNEL, SCHEDLAB, KEEP=DIR, ROOT (auto: --root).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/build/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
configs=${CONFIGS:-base pin prealloc host}
boots=${BOOTS:-8} cpus=${CPUS:-2} accel=${ACCEL:-tcg} root=${ROOT:-auto}
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
k=$(vm_kernel vm-noise) || exit 2
real=$(command -v qemu-system-x86_64) || { echo "vm-noise: no qemu" >&2; exit 2; }
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
export SCHEDLAB_VM_CACHE=$tmp/vmcache
db=$tmp/r.db

cat >"$tmp/msg.job" <<EOF
[global]
iterations = 3
warmup = 0

[msg]
workload = messaging
groups = 2
loops = 100
EOF

# vcpu_wrapper FILE ACTION: a qemu that, once its vCPU threads ("CPU
# n/TCG", "CPU n/KVM") are up, runs ACTION for each with $v its vCPU
# number, $n the host's CPUs and $tid its thread.
vcpu_wrapper() {
	cat >"$1" <<EOF
#!/bin/bash
"$real" "\$@" &
q=\$!
trap 'kill -KILL \$q 2>/dev/null' TERM INT
n=\$(nproc)
for i in \$(seq 1 200); do
	t=\$(grep -l '^CPU [0-9]*/' /proc/\$q/task/*/comm 2>/dev/null | wc -l)
	[ "\$t" -ge $cpus ] && break
	sleep 0.05
done
for f in /proc/\$q/task/*/comm; do
	name=\$(cat "\$f" 2>/dev/null) || continue
	tid=\$(basename "\$(dirname "\$f")")
	case \$name in
	"CPU "*/*) v=\${name#CPU }; v=\${v%%/*}; $2 >/dev/null ;;
	esac
done
wait \$q
EOF
}

# one folder of wrappers a configuration
wrapper() {
	local c=$1 d=$tmp/bin-$1
	mkdir -p "$d"
	case $c in
	pin) vcpu_wrapper "$d/qemu-system-x86_64" 'taskset -p -c $((v % n)) $tid' ;;
	prio) vcpu_wrapper "$d/qemu-system-x86_64" 'renice -n -10 -p $tid' ;;
	icount)
		cat >"$d/qemu-system-x86_64" <<EOF
#!/bin/sh
exec "$real" "\$@" -icount shift=auto
EOF
		;;
	prealloc)
		cat >"$d/qemu-system-x86_64" <<EOF
#!/bin/sh
exec "$real" "\$@" -mem-prealloc
EOF
		;;
	*)
		ln -sf "$real" "$d/qemu-system-x86_64"
		;;
	esac
	chmod +x "$d/qemu-system-x86_64" 2>/dev/null || true
}

for c in $configs; do wrapper "$c"; done

# the command line a configuration adds
append_of() {
	case $1 in
	maxcpus1) echo maxcpus=1 ;;
	tsc) echo tsc=reliable ;;
	maxcpus1tsc) echo maxcpus=1 tsc=reliable ;;
	prio|minimal) echo tsc=reliable ;;
	esac
}

# the run labelled L's median iteration (messaging.time), in seconds
median_of() {
	"$sl" export "$1" --db "$db" |
		jq -r '.cases[0].samples["messaging.time"] | sort | .[(length / 2 | floor)]'
}

for b in $(seq 1 "$boots"); do
	for c in $configs; do
		l=$c-$b
		if ! case $c in
		host)
			"$sl" run "$tmp/msg.job" --db "$db" --label "$l" -q >/dev/null 2>>"$tmp/errors" ;;
		maxcpus1|tsc|maxcpus1tsc|prio|minimal)
			PATH=$tmp/bin-$c:$PATH "$sl" vm run "$k" "$tmp/msg.job" --db "$db" \
				--label "$l" --accel "$accel" --cpus "$cpus" \
				--root "$([ "$c" = minimal ] && echo minimal || echo "$root")" \
				--append "$(append_of "$c")" -q 2>>"$tmp/errors" ;;
		*)
			PATH=$tmp/bin-$c:$PATH "$sl" vm run "$k" "$tmp/msg.job" --db "$db" \
				--label "$l" --accel "$accel" --cpus "$cpus" --root "$root" -q 2>>"$tmp/errors" ;;
		esac; then
			echo "$c $b failed (its error: $tmp/errors)"
			continue
		fi
		echo "$c $b $(median_of "$l")" | tee -a "$tmp/values"
	done
done

echo
echo "# kernel $(basename "$(dirname "$k")"), $cpus vCPUs, $accel, root $root, $(nproc) host CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %6s %10s %8s   %s\n' config runs median noise values
for c in $configs; do
	awk -v c="$c" '$1 == c { print $3 }' "$tmp/values" | sort -g |
		awk -v c="$c" '{ v[++n] = $1; s += $1 }
		END {
			m = s / n; for (i = 1; i <= n; i++) d += (v[i] - m) ^ 2
			sd = n > 1 ? sqrt(d / (n - 1)) : 0
			med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			line = ""; for (i = 1; i <= n; i++) line = line sprintf(" %.3f", v[i])
			printf "%-10s %6d %10.4f %7.1f%%  %s\n", c, n, med, 100 * sd / m, line
		}'
done
