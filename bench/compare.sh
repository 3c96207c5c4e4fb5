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
# the script compares the same numbers. Target (issue 5): < 200 ms.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
repeat=${1:-21}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The metric names a messaging case stores (workload, harness, probes),
# from a tiny real run.
printf '[m]\nworkload = messaging\ngroups = 1\nfds = 1\nloops = 1\niterations = 1\n' >"$tmp/m.job"
"$sl" run "$tmp/m.job" --db "$tmp/m.db" -q
metrics=$("$sl" export 1 --db "$tmp/m.db" | jq -r '.metrics | keys_unsorted[]')

# gen LABEL SEED SCALE: an export document on stdout.
gen() {
	awk -v label="$1" -v seed="$2" -v scale="$3" -v mlist="$metrics" '
	BEGIN {
		srand(seed)
		nm = split(mlist, m, "\n")
		printf "{\"schema\":\"schedlab-run/1\",\"run\":{\"uuid\":\"%08x-0000-4000-8000-%012d\",", seed, seed
		printf "\"label\":\"%s\",\"host\":\"bench\",\"started\":1.0,\"ended\":2.0,", label
		printf "\"status\":\"complete\",\"command\":null,\"schedlab_version\":null},"
		printf "\"environment\":{},\"metrics\":{"
		for (k = 1; k <= nm; k++)
			printf "%s\"%s\":{\"unit\":\"s\",\"better\":\"%s\",\"headline\":%s,\"help\":\"-\"}",
				(k > 1 ? "," : ""), m[k], (k == 1 ? "lower" : "none"),
				(m[k] == "messaging.time" ? "true" : "false")
		printf "},\"cases\":["
		for (c = 0; c < 100; c++) {
			printf "%s{\"seq\":%d,\"job\":\"job%d\",\"workload\":\"messaging\",", (c ? "," : ""), c + 1, int(c / 10)
			printf "\"params\":\"groups=%d loops=100\",\"sweep_keys\":\"groups\",\"sweep\":\"%d\",", c % 10 + 1, c % 10 + 1
			printf "\"status\":\"complete\",\"reason\":null,\"parameters\":{},\"iterations\":30,\"samples\":{"
			for (k = 1; k <= nm; k++) {
				printf "%s\"%s\":[", (k > 1 ? "," : ""), m[k]
				for (i = 0; i < 30; i++) {
					# skewed: a floor and an exponential tail
					v = (1 + c / 10) * scale * (1 - 0.1 * log(1 - rand()))
					printf "%s%.9g", (i ? "," : ""), v
				}
				printf "]"
			}
			printf "}}"
		}
		printf "]}\n"
	}'
}

gen base 1 1.0 >"$tmp/a.json"
gen cand 2 1.03 >"$tmp/b.json"
"$sl" import "$tmp/a.json" --db "$tmp/r.db" >/dev/null
"$sl" import "$tmp/b.json" --db "$tmp/r.db" >/dev/null
"$sl" compare base cand --db "$tmp/r.db" >"$tmp/out.txt"
echo "compare of 100 cases x 30 samples x $(wc -w <<<"$metrics") metrics a side:" \
	"$(grep -c '^Change' "$tmp/out.txt") case comparisons," \
	"$(grep "^verdict:" "$tmp/out.txt")"

# time_ms CMD...: "WALL CPU" milliseconds of one run (CPU: user + system,
# which a busy machine disturbs less than wall time).
time_ms() {
	local TIMEFORMAT='%3R %3U %3S' t
	t=$( { time "$@" >/dev/null; } 2>&1 )
	awk '{ printf "%.0f %.0f\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}

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
