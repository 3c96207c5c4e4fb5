#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# external.sh - the external workloads' targets, figures for
# doc/benchmarks.md.
#
#   same:     for dbench, tbench, pgbench and sysbench, N runs each
#             through schedlab with the tool wrapped so that its own
#             output is kept: the number schedlab stores must be the one
#             the tool printed, every time.
#   direct:   the tool run by hand and through schedlab, interleaved
#             A B A B N times (dbench -t 5, 2 clients; pgbench -S -c 2
#             -T 5 on a cluster of scale 1): medians and the median of
#             the pairwise ratios schedlab/direct.
#   setup:    pgbench's cluster at scale 1 (initdb, start, pgbench -i):
#             pgbench.setup_s over N fresh runs, median and max
#             (target < 10 s).
#   teardown: after each run, no process of the tools and no directory
#             left in the run's TMPDIR.
#
# usage: bench/external.sh [-n N] [-s SCHEDLAB]   (as root, for postgres)
set -uo pipefail

N=5
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/external.sh [-n N] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
for t in jq dbench tbench sysbench; do
	command -v $t >/dev/null || { echo "needs $t: sh tools/deps.sh test" >&2; exit 2; }
done
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t" "$tmp/bin" "$tmp/pg"
chmod 755 "$tmp/t" "$tmp/pg"
export TMPDIR=$tmp/t

. "$(dirname "$0")/lib.sh"

# wrap NAME DIR: DIR/NAME runs the real NAME, keeping its output in $tmp/NAME.out
wrap() {
	local real=$3
	printf '#!/bin/sh\n"%s" "$@" >"%s" 2>&1\nrc=$?\ncat "%s"\nexit $rc\n' \
		"$real" "$tmp/$1.out" "$tmp/$1.out" >"$2/$1"
	chmod 755 "$2/$1"
}
pgbin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")
for f in "$pgbin"/*; do ln -s "$f" "$tmp/pg/"; done
rm "$tmp/pg/pgbench"
wrap pgbench "$tmp/pg" "$pgbin/pgbench"
for t in dbench tbench sysbench; do wrap $t "$tmp/bin" "$(command -v $t)"; done

leftovers() {
	local p left=
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in "$tmp/t"*) left="$left ${p#/proc/}" ;; esac
		case $(cat "$p/comm" 2>/dev/null) in
		dbench|tbench|tbench_srv|pgbench|sysbench) left="$left ${p#/proc/}" ;;
		esac
	done
	[ -z "$(ls -A "$tmp/t")" ] || left="$left dirs:$(ls -A "$tmp/t")"
	echo "$left"
}

echo "schedlab external workloads, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "kernel $(uname -r), $(nproc) CPUs, $("$SL" --version)"

echo
echo "== same: what schedlab stores vs the tool's own line, $N runs each"
bad=0
for i in $(seq "$N"); do
	for w in dbench tbench pgbench sysbench; do
		case $w in
		dbench) args="-t 3 --clients 2"; key=dbench.mbps
			pick() { awk '$1 == "Throughput" { print $2 }' "$tmp/dbench.out"; } ;;
		tbench) args="-t 3 --clients 2"; key=tbench.mbps
			pick() { awk '$1 == "Throughput" { print $2 }' "$tmp/tbench.out"; } ;;
		pgbench) args="-S -c 2 -T 2"; key=pgbench.tps
			pick() { awk '$1 == "tps" { print $3 }' "$tmp/pgbench.out"; } ;;
		sysbench) args="--threads 2 --time 2 --table-size 1000"; key=sysbench.tps
			pick() { sed -n 's/.*transactions: *[0-9]* *(\([0-9.]*\) per sec.)/\1/p' "$tmp/sysbench.out"; } ;;
		esac
		# shellcheck disable=SC2086
		PATH=$tmp/bin:$PATH SCHEDLAB_PG_BINDIR=$tmp/pg "$SL" bench $w $args --format json >"$tmp/j" 2>"$tmp/e" ||
			{ echo "$w failed: $(cat "$tmp/e")"; bad=$((bad + 1)); continue; }
		stored=$(jq -r ".metrics[\"$key\"].value" "$tmp/j")
		printed=$(pick)
		same=$(awk -v a="$stored" -v b="$printed" 'BEGIN { print (a == b) ? "equal" : "DIFFERENT" }')
		[ "$same" = equal ] || bad=$((bad + 1))
		left=$(leftovers)
		[ -z "$left" ] || bad=$((bad + 1))
		printf "  %-9s run %d: tool printed %-14s schedlab stored %-14s %s; left behind: %s\n" \
			$w "$i" "$printed" "$stored" "$same" "${left:-nothing}"
	done
done
echo "  mismatches or leftovers: $bad"

echo
echo "== direct: the tool by hand vs through schedlab, A B interleaved $N times"
for i in $(seq "$N"); do
	mkdir -p "$tmp/d"
	dbench -t 5 -D "$tmp/d" 2 2>&1 | awk '$1 == "Throughput" { print $2 }' >>"$tmp/dbench.a"
	rm -rf "$tmp/d"
	"$SL" bench dbench -t 5 --clients 2 --format json | jq -r '.metrics["dbench.mbps"].value' >>"$tmp/dbench.b"
done
paste "$tmp/dbench.a" "$tmp/dbench.b" | awk '{ print $2 / $1 }' >"$tmp/dbench.r"
echo "  dbench -t 5, 2 clients (MB/s): direct median $(median <"$tmp/dbench.a"), schedlab median $(median <"$tmp/dbench.b"), ratio median $(median <"$tmp/dbench.r")"
echo "    direct:   $(tr '\n' ' ' <"$tmp/dbench.a")"
echo "    schedlab: $(tr '\n' ' ' <"$tmp/dbench.b")"

# pgbench by hand on a cluster made the same way
pgd=$tmp/t/direct
mkdir -p "$pgd/sock"
chown -R postgres "$pgd" 2>/dev/null
as() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as "$pgbin/initdb" -D "$pgd/data" -U schedlab -A trust --no-locale -E UTF8 --no-sync >/dev/null
as "$pgbin/pg_ctl" -D "$pgd/data" -l "$pgd/log" -o "-c listen_addresses='' -k $pgd/sock" -w start >/dev/null
"$pgbin/pgbench" -h "$pgd/sock" -U schedlab -i -s 1 postgres >/dev/null 2>&1
for i in $(seq "$N"); do
	"$pgbin/pgbench" -h "$pgd/sock" -U schedlab -n -b select-only -c 2 -j 2 -T 5 postgres 2>&1 |
		awk '$1 == "tps" { print $3 }' >>"$tmp/pg.a"
	"$SL" bench pgbench -S -c 2 -T 5 --format json | jq -r '.metrics["pgbench.tps"].value' >>"$tmp/pg.b"
done
as "$pgbin/pg_ctl" -D "$pgd/data" -m fast stop >/dev/null
rm -rf "$pgd"
paste "$tmp/pg.a" "$tmp/pg.b" | awk '{ print $2 / $1 }' >"$tmp/pg.r"
echo "  pgbench -S -c 2 -j 2 -T 5, scale 1 (tps): direct median $(median <"$tmp/pg.a"), schedlab median $(median <"$tmp/pg.b"), ratio median $(median <"$tmp/pg.r")"
echo "    direct:   $(tr '\n' ' ' <"$tmp/pg.a")"
echo "    schedlab: $(tr '\n' ' ' <"$tmp/pg.b")"

echo
echo "== setup: pgbench's throwaway cluster at scale 1, $N fresh runs"
for i in $(seq "$N"); do
	"$SL" bench pgbench -S -T 1 --format json | jq -r '.metrics["pgbench.setup_s"].value' >>"$tmp/setup"
done
echo "  pgbench.setup_s: median $(median <"$tmp/setup") s, max $(sort -g "$tmp/setup" | tail -1) s (target < 10 s)"
echo "    $(tr '\n' ' ' <"$tmp/setup")"
left=$(leftovers)
echo "  left behind after all runs: ${left:-nothing}"
