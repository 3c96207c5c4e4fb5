#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How fast the commands that read runs are (issue 11's targets):
#   show of a 100,000-sample run            < 50 ms
#   compare of 100 cases x 30 samples a side < 50 ms from the database,
#                                            < 100 ms from export files
# each the whole command, from the database and from export files.
#
#   bench/readers.sh [REPEAT]          (default 21)
#   OLD=/path/to/schedlab bench/readers.sh
#                                      the same, interleaved with another
#                                      binary (e.g. the previous commit's)
#
# The documents come from gen_doc (bench/lib.sh, a fixed seed): every run
# of the script reads the same numbers. Prints the median wall and CPU
# time of each form, and the ratio new/old of the medians with OLD.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/schedlab}
old=${OLD:-}
repeat=${1:-21}
. "$top/bench/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The metric names a messaging case stores, from a tiny real run.
printf '[m]\nworkload = messaging\ngroups = 1\nfds = 1\nloops = 1\niterations = 1\n' >"$tmp/m.job"
"$sl" run "$tmp/m.job" --db "$tmp/m.db" -q
metrics=$("$sl" export 1 --db "$tmp/m.db" | jq -r '.metrics | keys_unsorted[]')
nm=$(wc -w <<<"$metrics")
big_iter=$(( (100000 + 100 * nm - 1) / (100 * nm) ))

gen_doc base 1 1.0 100 30 "$metrics" >"$tmp/a.json"
gen_doc cand 2 1.03 100 30 "$metrics" >"$tmp/b.json"
gen_doc big 3 1.0 100 "$big_iter" "$metrics" >"$tmp/big.json"
for bin in "$sl" ${old:+"$old"}; do
	db=$tmp/$(basename "$(dirname "$bin")")-$RANDOM.db
	for f in a b big; do
		"$bin" import "$tmp/$f.json" --db "$db" >/dev/null
	done
	echo "$db" >>"$tmp/dbs"
done
mapfile -t dbs <"$tmp/dbs"
echo "show: 100 cases x $big_iter iterations x $nm metrics = $((100 * big_iter * nm)) samples;" \
	"compare: 100 cases x 30 samples x $nm metrics a side"

forms=("show-db" "show-file" "compare-db" "compare-files")
cmd() {	# cmd FORM BIN DB
	case $1 in
	show-db) "$2" show big --db "$3" ;;
	show-file) "$2" show "$tmp/big.json" ;;
	compare-db) "$2" compare base cand --db "$3" ;;
	compare-files) "$2" compare "$tmp/a.json" "$tmp/b.json" ;;
	esac
}
declare -A t
for ((i = 0; i < repeat; i++)); do	# interleaved: every form, new then old
	for form in "${forms[@]}"; do
		t[new.$form]+="$(time_ms cmd "$form" "$sl" "${dbs[0]}")"$'\n'
		[ -n "$old" ] && t[old.$form]+="$(time_ms cmd "$form" "$old" "${dbs[1]}")"$'\n'
	done
done
printf '%-14s %10s %10s' form "wall ms" "CPU ms"
[ -n "$old" ] && printf ' %10s %10s %9s' "old wall" "old CPU" "new/old"
echo
for form in "${forms[@]}"; do
	w=$(awk 'NF { print $1 }' <<<"${t[new.$form]}" | median)
	c=$(awk 'NF { print $2 }' <<<"${t[new.$form]}" | median)
	printf '%-14s %10s %10s' "$form" "$w" "$c"
	if [ -n "$old" ]; then
		ow=$(awk 'NF { print $1 }' <<<"${t[old.$form]}" | median)
		oc=$(awk 'NF { print $2 }' <<<"${t[old.$form]}" | median)
		printf ' %10s %10s %9.2f' "$ow" "$oc" "$(awk -v a="$w" -v b="$ow" 'BEGIN { print a / b }')"
	fi
	echo
done
echo "n=$repeat each, interleaved; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
