#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every test and ends with one summary line "N passed, N failed".
#   tests/run.sh [BUILD_DIR]      unit tests from BUILD_DIR/tests, then
#                                 tests/integration/test_*.sh against
#                                 BUILD_DIR/schedlab
# UNIT_ONLY=1 skips the integration tests; TESTS=pattern selects
# integration test functions by name.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
O=${1:-build}
case $O in /*) ;; *) O=$top/$O ;; esac
export SCHEDLAB=$O/schedlab
export TOP=$top
pass=0
fail=0
failed=()

for t in "$O"/tests/test_*; do
	[ -x "$t" ] || continue
	log=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
	rc=$?
	p=$(grep -c '^ok ' <<<"$log")
	f=$(grep -c '^not ok ' <<<"$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed before reporting
	fi
	echo "$log" | grep -E '^(ok|not ok) ' | sed "s|^|$(basename "$t"): |"
	[ "$f" -gt 0 ] && { failed+=("$(basename "$t")"); echo "$log" | grep -v '^ok '; }
	pass=$((pass + p))
	fail=$((fail + f))
done

if [ -z "${UNIT_ONLY:-}" ]; then
	for file in "$top"/tests/integration/test_*.sh; do
		for fn in $(grep -oE '^test_[a-z0-9_]+' "$file"); do
			[[ $fn == *${TESTS:-}* ]] || continue
			start=$EPOCHREALTIME
			out=$(timeout -k 5 300 bash -c \
				'source "$1"; source "$2"; set -e; "$3"' _ \
				"$top/tests/integration/lib.sh" "$file" "$fn" 2>&1)
			rc=$?
			secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
			name="$(basename "$file" .sh): $fn"
			if [ $rc -eq 0 ]; then
				echo "ok - $name (${secs}s)"
				pass=$((pass + 1))
			else
				echo "not ok - $name (exit $rc)"
				echo "$out" | sed 's/^/    /' | tail -n 30
				fail=$((fail + 1))
				failed+=("$name")
			fi
		done
	done
fi

for f in "${failed[@]}"; do
	echo "FAILED: $f"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
