#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How long `schedlab compare` takes on two large runs: 100 cases x 30
# samples each, every case with the workload's, the harness's and all the
# probes' metrics (as `schedlab run` stores them), imported into a
# database and compared by label. Prints the median of REPEAT timings of
# each form (from the database, from exported files) and their spread.
#
#   bench/compare.sh [REPEAT]        (default 21)
#
# The documents are generated with awk from a fixed seed, so every run of
# the script compares the same numbers. Targets: < 200 ms (issue 5);
# < 50 ms from the database, < 100 ms from files (issue 11).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
. "$top/bench/lib.sh"
repeat=${1:-21}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The metric names a messaging case stores (workload, harness, probes),
# from a tiny real run.
printf '[m]\nworkload = messaging\ngroups = 1\nfds = 1\nloops = 1\niterations = 1\n' >"$tmp/m.job"
"$sl" run "$tmp/m.job" --db "$tmp/m.db" -q
metrics=$("$sl" export 1 --db "$tmp/m.db" | jq -r '.metrics | keys_unsorted[]')

gen_doc base 1 1.0 100 30 "$metrics" >"$tmp/a.json"
gen_doc cand 2 1.03 100 30 "$metrics" >"$tmp/b.json"
"$sl" import "$tmp/a.json" --db "$tmp/r.db" >/dev/null
"$sl" import "$tmp/b.json" --db "$tmp/r.db" >/dev/null
"$sl" compare base cand --db "$tmp/r.db" >"$tmp/out.txt"
echo "compare of 100 cases x 30 samples x $(wc -w <<<"$metrics") metrics a side:" \
	"$(grep -c '^Change' "$tmp/out.txt") case comparisons," \
	"$(grep "^verdict:" "$tmp/out.txt")"

db=() files=()
for ((i = 0; i < repeat; i++)); do	# interleaved: db, files, db, files
	db+=("$(time_ms "$sl" compare base cand --db "$tmp/r.db")")
	files+=("$(time_ms "$sl" compare "$tmp/a.json" "$tmp/b.json")")
done
stats() {	# stats COLUMN: median, min, max of one column
	awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END {
		printf "median %d ms (min %d, max %d)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
for form in db files; do
	declare -n t=$form
	printf '%-18s wall %s; CPU %s; n=%d\n' \
		"$([ $form = db ] && echo "from the database:" || echo "from export files:")" \
		"$(printf '%s\n' "${t[@]}" | stats 1)" "$(printf '%s\n' "${t[@]}" | stats 2)" "$repeat"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
