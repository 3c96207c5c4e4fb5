#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How fast a run goes into PostgreSQL (issue 16's target: >= 100,000
# samples/s): `schedlab import --db URL` of a big run's export (and
# `schedlab push` of it from a SQLite file, when this binary has push),
# REPEAT interleaved repeats, the median samples/s of each.
#
#   bench/fleet-ingest.sh [REPEAT] [SAMPLES]     (default 5, 1000000)
#   PGURL=postgresql://... bench/fleet-ingest.sh
#                       into that database instead of a throwaway
#                       cluster (its schedlab runs are TRUNCATEd!)
#
# The run: gen_doc (bench/lib.sh, fixed seed) of 100 messaging cases
# with every metric a messaging case stores, imported into a SQLite file
# and exported from it, so that the document is one schedlab writes.
# Between repeats the runs are TRUNCATEd, so each starts from the same
# empty tables. The throwaway cluster is started as lib.sh's pg_start
# does (initdb, trust, a socket only, fsync off; PG_FSYNC=on turns it on).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
repeat=${1:-5}
want=${2:-1000000}
. "$top/bench/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp"
pgdir=
as=()
cleanup() {
	if [ -n "$pgdir" ] && [ -f "$pgdir/data/postmaster.pid" ]; then
		"${as[@]}" "$bin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

url=${PGURL:-}
if [ -z "$url" ]; then
	bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -x "$bin/initdb" ] || { echo "no PostgreSQL server programs; set PGURL" >&2; exit 2; }
	pgdir=$tmp/pg
	port=$((20000 + RANDOM % 20000))
	mkdir -p "$pgdir"
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres "$pgdir"
		as=(runuser -u postgres --)
	fi
	"${as[@]}" "$bin/initdb" -D "$pgdir/data" -A trust -U schedlab -E UTF8 \
		--no-sync >"$pgdir/initdb.log" 2>&1
	"${as[@]}" "$bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w \
		-o "-k $pgdir -p $port -c listen_addresses= -c fsync=${PG_FSYNC:-off}" start >/dev/null
	"$bin/createdb" -h "$pgdir" -p "$port" -U schedlab schedlab
	url="postgresql:///schedlab?host=$pgdir&port=$port&user=schedlab"
	server=$("$bin/postgres" --version)
else
	server=$(psql -X -A -t -d "$url" -c 'SHOW server_version')
fi
sql() { psql -X -q -A -t -v ON_ERROR_STOP=1 -d "$url" -c "$1"; }

printf '[m]\nworkload = messaging\ngroups = 1\nfds = 1\nloops = 1\niterations = 1\n' >"$tmp/m.job"
"$sl" run "$tmp/m.job" --db "$tmp/m.db" -q 2>/dev/null
metrics=$("$sl" export 1 --db "$tmp/m.db" | jq -r '.metrics | keys_unsorted[]')
nm=$(wc -w <<<"$metrics")
niter=$(( (want + 100 * nm - 1) / (100 * nm) ))
gen_doc big 7 1.0 100 "$niter" "$metrics" >"$tmp/gen.json"
"$sl" import "$tmp/gen.json" --db "$tmp/big.db" >/dev/null
"$sl" export big --db "$tmp/big.db" -o "$tmp/big.json"
samples=$("$sl" list runs --db "$tmp/big.db" --format json | jq '.[0].samples')
bytes=$(stat -c %s "$tmp/big.json")

forms=(import)
"$sl" push --help >/dev/null 2>&1 && forms+=(push)
run_form() {	# run_form FORM
	case $1 in
	import) "$sl" import "$tmp/big.json" --db "$url" ;;
	push) "$sl" push big --db "$tmp/big.db" --to "$url" ;;
	esac
}
"$sl" import "$tmp/big.json" --db "$url" >/dev/null	# the schema, once
declare -A t
for ((i = 0; i < repeat; i++)); do
	for form in "${forms[@]}"; do
		sql "SET client_min_messages = warning; TRUNCATE schedlab.runs, schedlab.samples, schedlab.histograms CASCADE"
		sql "VACUUM ANALYZE"
		quiet
		t[$form]+="$(time_ms run_form "$form")"$'\n'
		[ "$(sql "SELECT count(*) FROM schedlab.samples")" = "$samples" ] ||
			{ echo "$form stored the wrong number of samples" >&2; exit 1; }
	done
done

echo "PostgreSQL ingestion, $(date -u '+%Y-%m-%d %H:%M') UTC"
echo "schedlab:  $("$sl" --version 2>/dev/null || echo "$sl")"
echo "server:    $server${pgdir:+ (throwaway cluster, fsync=${PG_FSYNC:-off}, unix socket)}"
echo "run:       100 cases x $niter iterations x $nm metrics = $samples samples," \
	"export $((bytes / 1024 / 1024)) MiB"
printf '%-8s %10s %10s %14s\n' form "wall ms" "CPU ms" "samples/s"
for form in "${forms[@]}"; do
	w=$(awk 'NF { print $1 }' <<<"${t[$form]}" | median)
	c=$(awk 'NF { print $2 }' <<<"${t[$form]}" | median)
	printf '%-8s %10s %10s %14.0f\n' "$form" "$w" "$c" \
		"$(awk -v n="$samples" -v w="$w" 'BEGIN { print n / (w / 1000) }')"
done
echo "median of $repeat, interleaved"
for form in "${forms[@]}"; do
	echo "$form walls (ms): $(awk 'NF { printf "%s ", $1 }' <<<"${t[$form]}")"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
