# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for integration tests. Each test is a function test_NAME in a
# tests/integration/test_*.sh file, run by tests/run.sh in a fresh bash
# with `set -e`, $SCHEDLAB pointing at the binary under test and $TOP at
# the source tree. A test fails by returning non-zero or by `fail`.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# expect_match WHAT REGEX TEXT
expect_match() {
	[[ $3 =~ $2 ]] || fail "$1: '$3' does not match /$2/"
}

# run_sl ARGS...: runs schedlab; sets $out, $err and $rc, never fails.
run_sl() {
	local e
	e=$(mktemp)
	set +e
	out=$("$SCHEDLAB" "$@" 2>"$e")
	rc=$?
	set -e
	err=$(cat "$e")
	rm -f "$e"
}

# jval JSON JQ-FILTER: one value from JSON text.
jval() {
	jq -er "$2" <<<"$1" || fail "jq '$2' found nothing in: $1"
}

# No schedlab process (workload process or worker) may outlive a command.
expect_no_leftovers() {
	local left
	sleep 0.2
	left=$(pgrep -x schedlab || true)
	[ -z "$left" ] || fail "processes left behind: $(ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ,)")"
}
