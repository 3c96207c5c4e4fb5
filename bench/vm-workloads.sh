#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The seeds' workloads in a guest that sees the host's system (doc/
# benchmarks.md, "The seeds' workloads in a guest"): one job with a case
# of each shipped suite's workload at sizes above the test suite's
# (tbench and dbench 4 clients, pgbench 220 MB, sysbench OLTP 4 tables
# of 100000 rows, fio and fileio files of 256 MB, rr, compute, command),
# run once on the host and once in one boot of a guest (`vm run`, the
# host's root), each case's headline figure printed side by side with
# the boot's wall time.
#
#   bench/vm-workloads.sh
#   SIZE=small bench/vm-workloads.sh     the test suite's sizes
#
# Environment: SIZE (large), CPUS (2: the guest's), MEMORY (2048 MiB),
# ACCEL (auto), KERNEL, SCHEDLAB, KEEP=DIR. Under TCG the guest's figures
# are emulated: that every case runs there, with nothing named by hand,
# and what it costs, is what this shows.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/build/schedlab}
case $sl in /*) ;; *) sl=$PWD/$sl ;; esac
size=${SIZE:-large} cpus=${CPUS:-2} mem=${MEMORY:-2048} accel=${ACCEL:-auto}
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
k=$(vm_kernel vm-workloads) || exit 2
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
export SCHEDLAB_VM_CACHE=$tmp/vmcache
db=$tmp/r.db

if [ "$size" = small ]; then
	c=2 rt=2s pg=22MB rows=1000 tables=1 io=8M
else
	c=4 rt=10s pg=220MB rows=100000 tables=4 io=256M
fi
cat >"$tmp/seeds.job" <<EOF
[global]
iterations = 1
warmup = 0
timeout = 30m
runtime = $rt
[tbench]
workload = tbench
clients = $c
[dbench]
workload = dbench
clients = $c
[pgbench]
workload = pgbench
db-size = $pg
clients = $c
mode = select-only
[sysbench-oltp]
workload = sysbench
test = oltp_read_only
threads = $c
tables = $tables
table-size = $rows
[fio]
workload = fio
ioengine = libaio
rw = randread
numjobs = 1
size = $io
bs = 4k
iodepth = 16
[fileio]
workload = fileio
mode = rndrd
threads = $c
file-total-size = $io
file-num = 4
file-block-size = 16K
[rr]
workload = rr
test = TCP_RR
pairs = $c
[compute]
workload = compute
mix = compute-v1
jobs = 20
tasks = $c
[command]
workload = command
argv = sh -c 'test -s /usr/share/dbench/client.txt'
EOF

s=$(date +%s.%N)
"$sl" run "$tmp/seeds.job" --db "$db" --label host -q
host_s=$(echo "$(date +%s.%N) - $s" | bc)
s=$(date +%s.%N)
"$sl" vm run "$k" "$tmp/seeds.job" --db "$db" --label guest --cpus "$cpus" \
	--memory "$mem" --accel "$accel" -q
guest_s=$(echo "$(date +%s.%N) - $s" | bc)

# each case's first metric, its value on each side
first_metric() {
	"$sl" export "$1" --db "$db" | jq -r '.cases[] | .job as $j |
		(.samples | to_entries | map(select(.key | test("^(process|cpu|psi|rusage|schedstat|sched|probes|command)\\.") | not)) | .[0]) as $m |
		"\($j) \($m.key // "-") \(($m.value // [0]) | add / length)"'
}
echo "# kernel $(basename "$(dirname "$k")"), $cpus vCPUs, $mem MiB, size $size, $(nproc) host CPUs"
echo "# wall: host run ${host_s} s; guest boot and run ${guest_s} s"
echo "# guest: $("$sl" export guest --db "$db" | jq -r '.environment.machine.vm.value | "\(.accel), root \(.root), writable \(.writable)"')"
printf '%-16s %-24s %14s %14s %8s\n' case metric host guest guest/host
join <(first_metric host | sort) <(first_metric guest | sort) |
	awk '{ printf "%-16s %-24s %14.2f %14.2f %8.2f\n", $1, $2, $3, $5, $3 ? $5 / $3 : 0 }'
