# SPDX-License-Identifier: GPL-2.0-only
# The man page and README stay true to the option tables and commands.

# Every long option in every workload's --help is documented in the man
# page (roff writes -- as \-\-).
test_man_page_documents_every_option() {
	local wl opts o
	for wl in $("$SCHEDLAB" list workloads | awk '{print $1}'); do
		grep -q "^\.SH WORKLOAD $wl\$" "$TOP/doc/schedlab.1" ||
			fail "doc/schedlab.1 has no section for workload $wl"
		opts=$("$SCHEDLAB" bench "$wl" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
		[ -n "$opts" ] || fail "no options in 'bench $wl --help'"
		for o in $opts; do
			grep -qF -- "\\-\\-${o#--}" "$TOP/doc/schedlab.1" ||
				fail "doc/schedlab.1 does not mention $o (workload $wl)"
		done
	done
}

# Every command in 'schedlab --help' has a section in the man page and a
# line in the README.
test_commands_are_documented() {
	local cmds c
	cmds=$("$SCHEDLAB" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1} /^$/ {on=0}')
	[ -n "$cmds" ] || fail "no commands in --help"
	for c in $cmds; do
		grep -qE "^\.(B|BI|TP)? ?\"?$c" "$TOP/doc/schedlab.1" ||
			grep -q "^\.B $c\|^\.BI \"$c " "$TOP/doc/schedlab.1" ||
			fail "doc/schedlab.1 has no entry for command $c"
		grep -q "schedlab $c" "$TOP/README.md" ||
			fail "README.md does not mention 'schedlab $c'"
	done
}

# README opens with the two set-up commands, and .ci/run runs the second.
test_readme_setup_commands() {
	local block
	block=$(awk '/^```/ {n++; next} n == 1' "$TOP/README.md")
	expect_eq "set-up commands in README" 2 "$(grep -c . <<<"$block")"
	local test_cmd
	test_cmd=$(sed -n 2p <<<"$block" | sed 's/ *#.*//')
	grep -qF -- "$test_cmd" "$TOP/.ci/run" ||
		fail ".ci/run does not run the README's test command '$test_cmd'"
}
