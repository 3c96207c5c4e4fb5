#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every test, one TAP-style line each ("ok - NAME", "not ok - NAME",
# "ok - NAME # SKIP why"), and ends with one summary line, which CI reads:
#   N passed, N failed, N skipped
#   tests/run.sh [BUILD_DIR]      unit tests from BUILD_DIR/tests, then
#                                 tests/integration/test_*.sh against
#                                 BUILD_DIR/schedlab
# UNIT_ONLY=1 skips the integration tests; TESTS=pattern selects
# integration test functions by name. An integration test skips with
# lib.sh's `skip WHY` (exit 77); a unit test with cmocka's skip(), which
# cmocka's TAP output writes "not ok N # SKIP NAME".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
O=${1:-build}
case $O in /*) ;; *) O=$top/$O ;; esac
export SCHEDLAB=$O/schedlab
export TOP=$top
pass=0
fail=0
skipped=0
failed=()

for t in "$O"/tests/test_*; do
	[ -x "$t" ] || continue
	log=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
	rc=$?
	log=$(sed -E 's/^not ok ([0-9]+) # SKIP (.*)$/ok \1 - \2 # SKIP/' <<<"$log")
	s=$(grep -cE '^ok .* # SKIP' <<<"$log")
	p=$(($(grep -c '^ok ' <<<"$log") - s))
	f=$(grep -c '^not ok ' <<<"$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed before reporting
	fi
	echo "$log" | grep -E '^(ok|not ok) ' | sed "s|^|$(basename "$t"): |"
	[ "$f" -gt 0 ] && { failed+=("$(basename "$t")"); echo "$log" | grep -v '^ok '; }
	pass=$((pass + p))
	fail=$((fail + f))
	skipped=$((skipped + s))
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
			elif [ $rc -eq 77 ]; then
				why=$(sed -n 's/^skip: //p' <<<"$out" | tail -n 1)
				echo "ok - $name # SKIP ${why:-(no reason given)}"
				skipped=$((skipped + 1))
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
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
