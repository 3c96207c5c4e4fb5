#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fileio.sh - sysbench fileio and fio by hand and through schedlab, the
# same options, interleaved A B A B N times; figures for
# doc/benchmarks.md: the medians and the median of the pairwise ratios
# schedlab/by hand.
#
#   fileio: rndrw, 64M in 16 files, 16K blocks, 2 threads, 3 s
#           (schedlab: fileio.mib_per_sec; by hand: read + written MiB/s)
#   fio:    randread, libaio, iodepth 16, 2 jobs of 32M, 4k, 3 s
#           (schedlab: fio.iops; by hand: jobs[0].read.iops)
#
# Both use $TMPDIR's file system (default /tmp).
#
# usage: bench/fileio.sh [-n N] [-s SCHEDLAB]
set -uo pipefail

N=5
SL=$(cd "$(dirname "$0")/.." && pwd)/build/schedlab
while getopts "n:s:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	s) SL=$OPTARG ;;
	*) echo "usage: bench/fileio.sh [-n N] [-s SCHEDLAB]" >&2; exit 2 ;;
	esac
done
base=${TMPDIR:-/tmp}

fileio_hand() {
	local d sb=(sysbench fileio --file-num=16 --file-total-size=67108864)
	d=$(mktemp -d "$base/fileio-hand.XXXXXX")
	(cd "$d" && "${sb[@]}" prepare >/dev/null &&
	 "${sb[@]}" --file-test-mode=rndrw --file-block-size=16384 --threads=2 \
		--time=3 --file-fsync-freq=100 --file-fsync-all=off \
		--file-fsync-end=on --file-fsync-mode=fsync run |
		awk '/read, MiB\/s:/ { r = $3 } /written, MiB\/s:/ { w = $3 }
		     END { printf "%.2f\n", r + w }' &&
	 "${sb[@]}" cleanup >/dev/null)
	rm -rf "$d"
}

fileio_sl() {
	"$SL" bench fileio --mode rndrw --file-total-size 64M --file-num 16 \
		--file-block-size 16K --threads 2 --time 3 --format json |
		jq -r '.metrics["fileio.mib_per_sec"].value'
}

fio_hand() {
	local d
	d=$(mktemp -d "$base/fio-hand.XXXXXX")
	fio --output-format=json --group_reporting --directory="$d" \
		--name=schedlab --rw=randread --bs=4096 --size=33554432 \
		--ioengine=libaio --iodepth=16 --numjobs=2 --runtime=3 \
		--time_based | jq -r '.jobs[0].read.iops'
	rm -rf "$d"
}

fio_sl() {
	"$SL" bench fio --rw randread --bs 4k --size 32M --ioengine libaio \
		--iodepth 16 --numjobs 2 --runtime 3 --format json |
		jq -r '.metrics["fio.iops"].value'
}

median() {
	sort -g | awk '{ v[NR] = $1 }
		END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'
}

for t in fileio fio; do
	: >"$base/$t.pairs"
	for i in $(seq "$N"); do
		a=$(${t}_hand) b=$(${t}_sl)
		echo "$a $b" >>"$base/$t.pairs"
		echo "$t pair $i: by hand $a, schedlab $b"
	done
	printf '%s: by hand median %s, schedlab median %s, ratio median %s\n' "$t" \
		"$(awk '{ print $1 }' "$base/$t.pairs" | median)" \
		"$(awk '{ print $2 }' "$base/$t.pairs" | median)" \
		"$(awk '{ printf "%.4f\n", $2 / $1 }' "$base/$t.pairs" | median)"
	rm -f "$base/$t.pairs"
done
