# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run.sh itself, on a tree of its own in $tmp: a skip is printed
# as a skip with its reason and counted apart from passes, in the one
# summary line CI reads.

test_runner_counts_skips() {
	use_tmpdir
	local tree=$tmp/tree
	mkdir -p "$tree/tests/integration" "$tree/build/tests"
	cp "$TOP/tests/run.sh" "$tree/tests/"
	cp "$TOP/tests/integration/lib.sh" "$tree/tests/integration/"
	# (indented here, so that run.sh does not take them for tests of ours)
	cat >"$tree/tests/integration/test_fake.sh" <<-'EOT'
	test_fake_passes() { true; }
	test_fake_fails() { fail "on purpose"; }
	test_fake_skips() { command -v no-such-program-here >/dev/null || skip "no no-such-program-here"; }
	test_fake_skips_silently() { exit 77; }
	EOT
	# a unit test binary: cmocka's TAP, one skip() among them
	cat >"$tree/build/tests/test_unit" <<'EOT'
#!/bin/sh
printf '1..3\nok 1 - a\nnot ok 2 # SKIP b\nok 3 - c\n# ok - t\n'
EOT
	chmod +x "$tree/build/tests/test_unit"
	set +e
	out=$(env -u TESTS -u FILES -u UNIT_ONLY "$tree/tests/run.sh" build 2>&1)
	rc=$?
	set -e
	expect_eq "exit status (one failed): $out" 1 "$rc"
	expect_eq "summary line" "3 passed, 1 failed, 3 skipped" "$(tail -n 1 <<<"$out")"
	expect_line "unit skip" '^test_unit: ok 2 - b # SKIP$' "$out"
	expect_line "skip with a reason" \
		'^ok - test_fake: test_fake_skips # SKIP no no-such-program-here$' "$out"
	expect_line "skip without one" \
		'^ok - test_fake: test_fake_skips_silently # SKIP \(no reason given\)$' "$out"
	expect_line "pass" '^ok - test_fake: test_fake_passes \([0-9.]+s\)$' "$out"
	expect_line "fail" '^not ok - test_fake: test_fake_fails \(exit 1, [0-9.]+s\)$' "$out"
	expect_line "failed list" '^FAILED: test_fake: test_fake_fails$' "$out"
	# with nothing failed, exit 0
	sed -i '/test_fake_fails/d' "$tree/tests/integration/test_fake.sh"
	out=$(env -u TESTS -u FILES -u UNIT_ONLY "$tree/tests/run.sh" build 2>&1) ||
		fail "exit status with only passes and skips: $out"
	expect_eq "summary line, none failed" "3 passed, 0 failed, 3 skipped" "$(tail -n 1 <<<"$out")"
}
