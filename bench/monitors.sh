#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# monitors.sh - what the monitors cost the workload, and what they cost
# the store. Figures for doc/benchmarks.md ("Monitors").
#
#   overhead: N pairs (default 20) of `schedlab bench WORKLOAD --format
#   json --probes off`, one with --monitor default at an interval and one
#   without, the order within each pair random and the pairs one after
#   the other, for messaging -g 4 -l 1000 (messaging.time) and pipe
#   -l 50000 (pipe.usecs_per_op); each pair's ratio on/off, then the
#   median of the ratios and of each side. Intervals: -i "1s 100ms".
#   store: one run of pipe (-l STORE_LOOPS, about 30 s here) x 4
#   iterations with monitors = default at 1 s, into SQLite, then
#   exported and imported into a throwaway PostgreSQL cluster (when
#   PostgreSQL's server programs are installed); the bytes of the
#   monitors table (SQLite's dbstat pages, PostgreSQL's
#   pg_total_relation_size with TOAST and index) and of the monitor.*
#   sample rows, per monitored CPU-minute (the seconds the series cover
#   x the online CPUs / 60).
#
# usage: bench/monitors.sh [-n PAIRS] [-i "INTERVALS"] [-s SCHEDLAB] [-S]
#   -S: the store part only
set -euo pipefail

N=20
INTERVALS="1s 100ms"
SL=$(cd "$(dirname "$0")/.." && pwd)/build/schedlab
STORE_ONLY=
STORE_LOOPS=${STORE_LOOPS:-300000}
while getopts "n:i:s:Sh" opt; do
	case $opt in
	n) N=$OPTARG ;;
	i) INTERVALS=$OPTARG ;;
	s) SL=$OPTARG ;;
	S) STORE_ONLY=1 ;;
	*) echo "usage: bench/monitors.sh [-n PAIRS] [-i INTERVALS] [-s SCHEDLAB] [-S]" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "install with: apt-get install jq" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHEDLAB_DB=$tmp/m.db

# one WORKLOAD-ARGS... run's headline, monitors off or at interval $1
one() {
	local iv=$1 metric=$2
	shift 2
	if [ "$iv" = off ]; then
		"$SL" bench "$@" --format json --probes off
	else
		"$SL" bench "$@" --format json --probes off --monitor default \
			--monitor-interval "$iv" 2>/dev/null
	fi | jq -r ".metrics[\"$metric\"].value"
}

# pairs NAME METRIC INTERVAL ARGS...: N interleaved pairs, then the line
# for the table.
pairs() {
	local name=$1 metric=$2 iv=$3 on off i
	shift 3
	: >"$tmp/r"
	: >"$tmp/on"
	: >"$tmp/off"
	for ((i = 0; i < N; i++)); do
		if ((RANDOM % 2)); then
			on=$(one "$iv" "$metric" "$@")
			off=$(one off "$metric" "$@")
		else
			off=$(one off "$metric" "$@")
			on=$(one "$iv" "$metric" "$@")
		fi
		echo "$on" >>"$tmp/on"
		echo "$off" >>"$tmp/off"
		awk -v a="$on" -v b="$off" 'BEGIN { printf "%.6f\n", a / b }' >>"$tmp/r"
	done
	printf '%-40s %-6s pairs %3d  median on %-10s off %-10s  ratio %.4f (%+.2f%%)  ratios p25 %.4f p75 %.4f\n' \
		"$name" "$iv" "$N" "$(median <"$tmp/on")" "$(median <"$tmp/off")" \
		"$(median <"$tmp/r")" "$(awk -v r="$(median <"$tmp/r")" 'BEGIN { print (r - 1) * 100 }')" \
		"$(sort -g "$tmp/r" | awk '{ v[NR] = $1 } END { print v[int(NR / 4) + 1] }')" \
		"$(sort -g "$tmp/r" | awk '{ v[NR] = $1 } END { print v[int(3 * NR / 4) + 1] }')"
}

if [ -z "$STORE_ONLY" ]; then
	echo "# overhead of --monitor default (monitors on / off), $N interleaved pairs; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	for iv in $INTERVALS; do
		quiet
		pairs "messaging -g 4 -l 1000 (messaging.time)" messaging.time "$iv" messaging -g 4 -l 1000
		quiet
		pairs "pipe -l 50000 (pipe.usecs_per_op)" pipe.usecs_per_op "$iv" pipe -l 50000
	done
fi

# ---- the sampler's own cost: sampler_cost (bench/lib.sh) ------------
if [ -z "$STORE_ONLY" ]; then
	quiet
	sampler_cost
fi

# ---- store ----------------------------------------------------------
cat >"$tmp/s.job" <<JOB
[global]
iterations = 4
monitors = default
monitor_interval = 1s
[pipe]
workload = pipe
loops = $STORE_LOOPS
JOB
"$SL" run -q --label mon "$tmp/s.job" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
# the seconds the series cover: each iteration's last t of its cpu series
secs=$(sqlite3 "$SCHEDLAB_DB" "SELECT series FROM monitors WHERE monitor = 'cpu'" |
	jq -r '.t | split(" ") | last' | awk '{ s += $1 } END { printf "%.1f", s }')
cpumin=$(awk -v s="$secs" -v n="$ncpu" 'BEGIN { printf "%.3f", s * n / 60 }')
rows=$(sqlite3 "$SCHEDLAB_DB" "SELECT count(*) FROM monitors")
payload=$(sqlite3 "$SCHEDLAB_DB" "SELECT sum(length(series)) FROM monitors")
lite_mon=$(sqlite3 "$SCHEDLAB_DB" "SELECT sum(pgsize) FROM dbstat WHERE name IN ('monitors', 'sqlite_autoindex_monitors_1')")
nsamp=$(sqlite3 "$SCHEDLAB_DB" "SELECT count(*) FROM samples")
nmsamp=$(sqlite3 "$SCHEDLAB_DB" "SELECT count(*) FROM samples WHERE metric LIKE 'monitor.%'")
lite_samp=$(sqlite3 "$SCHEDLAB_DB" "SELECT sum(pgsize) FROM dbstat WHERE name = 'samples'")
lite_msamp=$(awk -v b="$lite_samp" -v m="$nmsamp" -v n="$nsamp" 'BEGIN { printf "%d", b * m / n }')
echo "# store: monitors = default at 1 s, $secs s monitored x $ncpu CPUs = $cpumin CPU-minutes; $rows series rows, $nmsamp monitor.* samples"
per() { awk -v b="$1" -v m="$cpumin" 'BEGIN { printf "%.0f", b / m }'; }
printf '%-12s %-40s %10s %16s\n' store what bytes "per CPU-minute"
printf '%-12s %-40s %10s %16s\n' series "JSON text (length(series))" "$payload" "$(per "$payload")"
printf '%-12s %-40s %10s %16s\n' sqlite "table monitors + index (dbstat pages)" "$lite_mon" "$(per "$lite_mon")"
printf '%-12s %-40s %10s %16s\n' sqlite "monitor.* rows of samples (pro rata)" "$lite_msamp" "$(per "$lite_msamp")"
# A table of a few rows is mostly its fixed pages: the same rows 100
# times over (other case ids) say what a row costs once there are many.
REP=100
sqlite3 "$SCHEDLAB_DB" "PRAGMA foreign_keys = OFF;
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $REP - 1)
	INSERT INTO monitors SELECT case_id + 1000000 * i, monitor, iteration, series FROM monitors, n;"
lite_rep=$(sqlite3 "$SCHEDLAB_DB" "SELECT sum(pgsize) FROM dbstat WHERE name IN ('monitors', 'sqlite_autoindex_monitors_1')")
lite_rep1=$(awk -v b="$lite_rep" -v r="$REP" 'BEGIN { printf "%d", b / r }')
printf '%-12s %-40s %10s %16s\n' sqlite "table monitors, x$REP rows, per copy" "$lite_rep1" "$(per "$lite_rep1")"

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
	echo "# no PostgreSQL server programs: PostgreSQL's figures left out"
	exit 0
fi
pgd=$tmp/pg
mkdir -p "$pgd"
as=()
if [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$tmp"
	chown postgres "$pgd"
	as=(runuser -u postgres --)
fi
"${as[@]}" "$bin/initdb" -D "$pgd/data" -A trust -U schedlab --no-sync >/dev/null
port=$((20000 + RANDOM % 20000))
"${as[@]}" "$bin/pg_ctl" -D "$pgd/data" -l "$pgd/log" -w \
	-o "-k $pgd -p $port -c listen_addresses= -c fsync=off" start >/dev/null
trap '"${as[@]}" "$bin/pg_ctl" -D "$pgd/data" -m immediate -w stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
"$bin/createdb" -h "$pgd" -p "$port" -U schedlab schedlab
url="postgresql:///schedlab?host=$pgd&port=$port&user=schedlab"
"$SL" export mon -o "$tmp/mon.json"
"$SL" import "$tmp/mon.json" --db "$url" >/dev/null
psql() { "$bin/psql" -X -q -A -t -h "$pgd" -p "$port" -U schedlab -d schedlab -c "$1"; }
psql "VACUUM ANALYZE" >/dev/null
pg_mon=$(psql "SELECT pg_total_relation_size('schedlab.monitors')")
pg_col=$(psql "SELECT sum(pg_column_size(series)) FROM schedlab.monitors")
psql "INSERT INTO schedlab.monitors SELECT case_id + 1000000 * i, monitor, iteration, series
	FROM schedlab.monitors, generate_series(1, $REP - 1) AS i" >/dev/null
psql "VACUUM ANALYZE schedlab.monitors" >/dev/null
pg_rep1=$(psql "SELECT pg_total_relation_size('schedlab.monitors') / $REP")
pg_samp=$(psql "SELECT pg_total_relation_size('schedlab.samples')")
pg_msamp=$(awk -v b="$pg_samp" -v m="$nmsamp" -v n="$nsamp" 'BEGIN { printf "%d", b * m / n }')
printf '%-12s %-40s %10s %16s\n' postgresql "series (pg_column_size, compressed)" "$pg_col" "$(per "$pg_col")"
printf '%-12s %-40s %10s %16s\n' postgresql "table monitors (with TOAST, index)" "$pg_mon" "$(per "$pg_mon")"
printf '%-12s %-40s %10s %16s\n' postgresql "table monitors, x$REP rows, per copy" "$pg_rep1" "$(per "$pg_rep1")"
printf '%-12s %-40s %10s %16s\n' postgresql "monitor.* rows of samples (pro rata)" "$pg_msamp" "$(per "$pg_msamp")"
echo "# the monitor.* samples are per iteration (3 per summary field), not per minute: $nmsamp rows for 4 iterations here"
