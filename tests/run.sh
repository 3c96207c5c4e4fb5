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
# integration test functions by name, FILES=pattern integration test
# files (test_NAME.sh) by NAME, SKIP_FILES="test_A test_B" leaves those
# files out; TEST_JOBS=N runs N of them at once
# (default: the CPUs + 1); TEST_TIMEOUT=SECS kills a test that runs
# longer (default 300, 1800 with SCHEDLAB_TEST_KBUILD=1: the opt-in
# tests that build a real kernel, minutes each). An integration test skips with
# lib.sh's `skip WHY` (exit 77); a unit test with cmocka's skip(), which
# cmocka's TAP output writes "not ok N # SKIP NAME".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
O=${1:-build}
case $O in /*) ;; *) O=$top/$O ;; esac
export SCHEDLAB=$O/schedlab
export TOP=$top
test_timeout=${TEST_TIMEOUT:-300}
[ "${SCHEDLAB_TEST_KBUILD:-}" != 1 ] || test_timeout=${TEST_TIMEOUT:-1800}
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

# reap TAG: kills what a test left running (a test that failed while a
# schedlab it started in the background still ran), found by the tag
# lib.sh puts in the environment of everything the test starts, so that
# it cannot disturb the tests after it.
reap() {
	local f pid
	for f in $(grep -lsxzF "SCHEDLAB_TEST_TAG=$1" /proc/[0-9]*/environ 2>/dev/null); do
		pid=${f#/proc/}
		kill -KILL "${pid%/environ}" 2>/dev/null || true
	done
}

# One integration test function in a fresh bash, its result in
# $res/N.rc, its report printed whole (under a lock, so that two lanes'
# reports do not interleave).
run_one() {
	local n=$1 file=$2 fn=$3 start out rc secs name report
	local tag="sltest.$$.$n.$RANDOM"
	start=$EPOCHREALTIME
	out=$(SCHEDLAB_TEST_TAG=$tag SCHEDLAB_TEST_DIRS=$res/$n.dirs \
		timeout -k 5 "$test_timeout" bash -c \
		'source "$1"; source "$2"; set -e; "$3"' _ \
		"$top/tests/integration/lib.sh" "$file" "$fn" 2>&1)
	rc=$?
	reap "$tag"
	# a test killed at its timeout never ran its EXIT trap: its
	# temporary directories (lib.sh's use_tmpdir lists them) go here
	if [ -s "$res/$n.dirs" ]; then
		xargs -d '\n' rm -rf -- <"$res/$n.dirs"
	fi
	secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	name="$(basename "$file" .sh): $fn"
	if [ $rc -eq 0 ]; then
		report="ok - $name (${secs}s)"
	elif [ $rc -eq 77 ]; then
		why=$(sed -n 's/^skip: //p' <<<"$out" | tail -n 1)
		report="ok - $name # SKIP ${why:-(no reason given)}"
	else
		report="not ok - $name (exit $rc, ${secs}s)
$(sed 's/^/    /' <<<"$out" | tail -n 30)"
	fi
	echo "$rc $name" >"$res/$n.rc"
	{
		flock 8
		printf '%s\n' "$report"
	} 8>>"$res/print.lock"
}

if [ -z "${UNIT_ONLY:-}" ]; then
	# Independent tests run $jobs at a time (TEST_JOBS, default one more
	# than the CPUs: many tests wait on sleeps and servers). Each has its
	# own temporary directory, database, PostgreSQL cluster and process
	# tag; a test that writes a real knob holds lib.sh's knob_lock.
	jobs=${TEST_JOBS:-$(($(nproc) + 1))}
	res=$(mktemp -d "${TMPDIR:-/tmp}/sltest-run.XXXXXX")
	trap 'rm -rf "$res"' EXIT
	n=0
	running=0
	for file in "$top"/tests/integration/test_*.sh; do
		[[ $(basename "$file" .sh) == *${FILES:-}* ]] || continue
		[[ " ${SKIP_FILES:-} " != *" $(basename "$file" .sh) "* ]] || continue
		for fn in $(grep -oE '^test_[a-z0-9_]+' "$file"); do
			[[ $fn == *${TESTS:-}* ]] || continue
			if [ "$running" -ge "$jobs" ]; then
				wait -n
				running=$((running - 1))
			fi
			run_one "$n" "$file" "$fn" &
			n=$((n + 1))
			running=$((running + 1))
		done
	done
	wait
	for ((i = 0; i < n; i++)); do
		read -r rc name <"$res/$i.rc" || { rc=1; name="test $i (no result)"; }
		case $rc in
		0) pass=$((pass + 1)) ;;
		77) skipped=$((skipped + 1)) ;;
		*) fail=$((fail + 1)); failed+=("$name") ;;
		esac
	done
fi

for f in "${failed[@]}"; do
	echo "FAILED: $f"
done
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
