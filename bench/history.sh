#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How fast `schedlab history` is over many stored runs (issue 18's
# target: 1,000 runs in < 1 s, on SQLite):
#   bench/history.sh [RUNS] [REPEAT]     (default 1000 runs, 11 repeats)
#   DB=FILE bench/history.sh ...         keep the database in FILE, and
#                                        reuse it when it is there
#
# RUNS export documents from gen_doc (bench/lib.sh, fixed seeds), each
# one job of 10 cases (a sweep of groups) x 5 iterations x every metric
# a messaging case stores, imported into one database; then the median
# wall and CPU time of the whole command, in each format, and of the
# store's query alone (--min-size above the run count: the detector is
# not run, the command exits 2 after reading the series).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
runs=${1:-1000}
repeat=${2:-11}
. "$top/bench/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '[m]\nworkload = messaging\ngroups = 1\nfds = 1\nloops = 1\niterations = 1\n' >"$tmp/m.job"
"$sl" run "$tmp/m.job" --db "$tmp/m.db" -q 2>/dev/null
metrics=$("$sl" export 1 --db "$tmp/m.db" | jq -r '.metrics | keys_unsorted[]')
nm=$(wc -w <<<"$metrics")
db=${DB:-$tmp/h.db}
if [ -e "$db" ]; then
	runs=$("$sl" list runs --db "$db" --format json | jq length)
else
	for ((i = 1; i <= runs; i++)); do
		# a 5% step at the middle run
		gen_doc "r$i" "$i" "$( ((i > runs / 2)) && echo 1.05 || echo 1.0)" 10 5 \
			"$metrics" >"$tmp/d.json"
		"$sl" import "$tmp/d.json" --db "$db" >/dev/null
	done
fi
echo "$runs runs x 10 cases x 5 iterations x $nm metrics ($((runs * 10 * 5 * nm)) samples), $(du -m "$db" | cut -f1) MiB"
measure() {
	local what=$1 t
	shift
	quiet
	for ((k = 0; k < repeat; k++)); do
		time_ms "$@" || true
	done >"$tmp/t"
	printf '%-40s wall %6s ms   CPU %6s ms\n' "$what" \
		"$(cut -d' ' -f1 "$tmp/t" | median)" "$(cut -d' ' -f2 "$tmp/t" | median)"
}
measure "history job0 (text)" "$sl" history job0 --db "$db"
measure "history job0 --format json" "$sl" history job0 --db "$db" --format json
measure "the query alone (--min-size $runs)" "$sl" history job0 --db "$db" --min-size "$runs"
"$sl" history job0 --db "$db" | grep -c '^---- change' | sed 's/^/change points marked: /'
