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

# Every monitor the binary accepts (monitor.h's MONITOR_LIST, as
# --monitor's error lists them) has its entry in the man page's MONITORS.
test_monitors_are_documented() {
	local names m section
	names=$("$SCHEDLAB" run --monitor bogus 2>&1 >/dev/null |
		sed -n 's/.*expected a comma list of \(.*\), or default.*/\1/p' | tr -d ,)
	[ -n "$names" ] || fail "no monitor names in --monitor's error"
	section=$(awk '/^\.SH MONITORS/ {on=1; next} on && /^\.SH / {exit} on' "$TOP/doc/schedlab.1")
	for m in $names; do
		grep -qx "\.B $m" <<<"$section" ||
			fail "doc/schedlab.1's MONITORS has no entry for monitor $m"
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

# The test command runs the sanitizer and clang builds: make check runs
# the unit and integration tests under ASan+UBSan, every fuzz harness in
# tests/fuzz/ has a corpus that make check replays (under gcc's and
# clang's sanitizers), and make fuzz knows every harness.
test_check_runs_sanitizers_and_fuzz_corpus() {
	local plan names h n b
	# not the variables of a make this runs under (make check-asan's O=)
	plan=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$TOP" check \
		2>/dev/null) || fail "make -n check failed"
	local skip f
	skip=$(sed -nE 's/^SKIP_FILES="([^"]*)" tests\/run.sh build\/asan$/\1/p' <<<"$plan")
	grep -qE '^SKIP_FILES="[^"]*" tests/run.sh build/asan$' <<<"$plan" ||
		fail "make check does not run the integration tests against build/asan"
	# what the sanitizer stage leaves out is few, and each said why
	[ "$(wc -w <<<"$skip")" -le 6 ] || fail "the ASan stage skips $(wc -w <<<"$skip") files: $skip"
	for f in $skip; do
		[ -e "$TOP/tests/integration/$f.sh" ] || fail "SAN_SKIP names $f, which is no test file"
		grep -q "$f" "$TOP/doc/reliability.md" ||
			fail "doc/reliability.md does not say why the ASan stage skips $f"
	done
	grep -q 'build/clang' <<<"$plan" ||
		fail "make check has no clang build"
	names=$(sed -nE 's/^for n in ([a-z0-9 ]+); do.*/\1/p' <<<"$plan" |
		head -n 1)
	[ -n "$names" ] || fail "make check replays no fuzz corpus"
	for b in asan clang; do
		grep -qF "build/$b/fuzz/replay_\$n tests/fuzz/corpus/\$n" \
			<<<"$plan" || fail "make check does not replay the corpus in build/$b"
	done
	for h in "$TOP"/tests/fuzz/fuzz_*.c; do
		n=$(basename "$h" .c)
		n=${n#fuzz_}
		grep -qw "$n" <<<"$names" ||
			fail "make check does not replay harness $n (replays: $names)"
		[ "$(find "$TOP/tests/fuzz/corpus/$n" -type f | wc -l)" -ge 5 ] ||
			fail "tests/fuzz/corpus/$n has fewer than 5 inputs"
	done
	grep -q "fuzz_$(sed 's/ .*//' <<<"$names")" \
		<<<"$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$TOP" fuzz \
			2>/dev/null)" ||
		fail "make fuzz does not build the harnesses"
}

# Every schedlab command line the README quotes in its code blocks names
# a command this schedlab has, and every long option on it is one that
# command's --help lists (a bench line's, its workload's --help too): a
# renamed or dropped option cannot leave a recipe that no longer runs.
test_readme_commands_parse() {
	local line words cmd wl o help checked=0 cmds wls
	cmds=$("$SCHEDLAB" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1} /^$/ {on=0}')
	wls=$("$SCHEDLAB" list workloads | awk '{ print $1 }')
	while IFS= read -r line; do
		line=${line%%  #*}
		read -ra words <<<"$line"
		cmd=${words[1]:-}
		case $cmd in
		--version|--help|-h) "$SCHEDLAB" "$cmd" >/dev/null || fail "README: '$line' fails"
			checked=$((checked + 1)); continue ;;
		esac
		grep -qxF -- "$cmd" <<<"$cmds" ||
			fail "README: '$line': no command '$cmd' (commands: $(echo $cmds))"
		[ "$cmd" != help ] || continue	# its operand is a command
		help=$("$SCHEDLAB" "$cmd" --help 2>&1 || true)
		if [ "$cmd" = bench ]; then
			for wl in "${words[@]:2}"; do
				grep -qxF -- "$wl" <<<"$wls" || continue
				help+=$("$SCHEDLAB" bench "$wl" --help 2>&1 || true)
				break
			done
		fi
		for o in $(grep -oE -- '(^| )--[a-z][a-z0-9-]*' <<<"$line" | tr -d ' '); do
			grep -qE -- "(^| |,)$o([^a-z0-9-]|$)" <<<"$help" ||
				fail "README: '$line': $cmd --help has no $o"
		done
		checked=$((checked + 1))
	done < <(awk '/^```/ { n = !n; next } n && /^(\$ )?schedlab / { sub(/^\$ /, ""); print }' "$TOP/README.md")
	[ "$checked" -ge 20 ] || fail "only $checked command lines found in README's code blocks"
	echo "$checked README command lines checked"
}

# Wherever `bench messaging --format perf` is offered for perf bench
# sched messaging, the docs say it is not perf's time, with the figure
# (issue 29, item 13: it takes 0.86 of perf's time, hackbench 0.84).
test_docs_messaging_perf_time_differs() {
	local row
	row=$(grep -F '| `perf bench sched messaging -g 4` |' "$TOP/README.md") ||
		fail "README: the swap's row is gone"
	expect_match "README: the row warns" "less time" "$row"
	grep -qF '0.86 of perf' "$TOP/README.md" || fail "README: no figure"
	grep -qF '0.84 of perf' "$TOP/README.md" || fail "README: no hackbench figure"
	[ "$(grep -c 'median ratio of 0.86\|took 0.86 of perf' "$TOP/doc/schedlab.1")" -ge 2 ] ||
		fail "doc/schedlab.1: the figure is not in DESCRIPTION and WORKLOAD messaging"
	grep -qF 'median ratio **0.86**' "$TOP/doc/benchmarks.md" ||
		fail "doc/benchmarks.md: no figure"
}

# doc/architecture.md's entry for src/cmd/main.c lists the command table as
# main.c has it: every command of 'schedlab --help', in its order, then
# help and --version.
test_architecture_command_table() {
	local want got
	want=$("$SCHEDLAB" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1} /^$/ {on=0}' |
		grep -vx help | tr '\n' ' ')
	[ -n "$want" ] || fail "no commands in --help"
	want="${want}help --version"
	got=$(awk '/^src\/cmd\/main\.c / {on=1} on {print} on && /\)/ {exit}' "$TOP/doc/architecture.md" |
		tr '\n' ' ' | sed -E 's/.*command table \(([^)]*)\).*/\1/; s/ +/ /g; s/, ?/ /g; s/ $//')
	expect_eq "doc/architecture.md's command table (src/cmd/main.c)" "$want" "$got"
}

# Every source file has a row in doc/architecture.md's table of files,
# under its own path or as NAME.[ch].
test_architecture_every_file_has_a_row() {
	local f missing=
	for f in $(cd "$TOP" && find src -name '*.[ch]' | sort); do
		grep -qE "^(${f//./\\.}|${f%.[ch]}\\.\\[ch\\])( |\$)" "$TOP/doc/architecture.md" ||
			missing="$missing $f"
	done
	[ -z "$missing" ] || fail "files without a row in doc/architecture.md:$missing"
}

# A file's name says which file it is: no two source files of src/ share
# one (cmd/compare.c beside compare/compare.c sent a reader, and grep,
# to the wrong one).
test_source_file_names_are_unique() {
	local twice
	twice=$(cd "$TOP" && find src -name '*.[ch]' -printf '%f\n' | sort | uniq -d)
	[ -z "$twice" ] || fail "file names used twice in src/: $(echo $twice)"
}

# The layers doc/architecture.md lists ("layer N: FOLDER ..."): every
# folder of src/ is in one, and every #include reaches a folder of a
# lower layer, or its own - so no folder includes one that includes it
# back, whatever the path.
test_architecture_layers() {
	local layers bad=""
	layers=$(sed -nE 's/^layer ([0-9]+): +(.*)$/\1 \2/p' "$TOP/doc/architecture.md")
	[ -n "$layers" ] || fail "doc/architecture.md lists no layers"
	bad=$(cd "$TOP/src" && find . -name '*.[ch]' | sed 's|^\./||' | sort |
	      while read -r f; do
		      sed -nE 's/^#[[:space:]]*include[[:space:]]+"([a-z_]+)\/[^"]+"/\1/p' "$f" |
			      sed "s|^|$f |"
	      done |
	      awk -v layers="$layers" '
		BEGIN {
			n = split(layers, line, "\n")
			for (i = 1; i <= n; i++) {
				k = split(line[i], w, " ")
				for (j = 2; j <= k; j++)
					layer[w[j]] = w[1]
			}
		}
		{
			from = $1
			sub(/\/[^\/]*$/, "", from)
			if (from == $1)
				from = "src"
			if (!(from in layer)) {
				print "folder " from " is in no layer"
				next
			}
			if (!($2 in layer)) {
				print $1 ": includes from " $2 ", in no layer"
				next
			}
			if ($2 != from && layer[$2] >= layer[from])
				print $1 " (layer " layer[from] ") includes from " $2 " (layer " layer[$2] ")"
		}' | sort -u)
	[ -z "$bad" ] || fail "includes against doc/architecture.md's layers:
$bad"
}

# The same layers for calls: every symbol an object file of src/ uses
# (nm's undefined ones) that another folder's object defines is defined
# in a lower layer - so no folder calls up into one that includes or
# calls it, which includes alone would not show (a header of one folder
# declaring what another defines). Reads the objects of the build under
# test, one per source file there is now. No exceptions.
test_architecture_layers_calls() {
	local layers objdir f o objs bad missing=
	command -v nm >/dev/null || skip "no nm (binutils)"
	layers=$(sed -nE 's/^layer ([0-9]+): +(.*)$/\1 \2/p' "$TOP/doc/architecture.md")
	[ -n "$layers" ] || fail "doc/architecture.md lists no layers"
	objdir=$(dirname "$SCHEDLAB")/src
	[ -d "$objdir" ] || skip "no object files beside $SCHEDLAB"
	objs=()
	for f in $(cd "$TOP/src" && find . -name '*.c' | sed 's|^\./||' | sort); do
		o=$objdir/${f%.c}.o
		[ -f "$o" ] || missing="$missing $f"
		objs+=("$o")
	done
	[ -z "$missing" ] || fail "no object files for (build them first):$missing"
	bad=$(nm -P -A "${objs[@]}" |
	      sed "s|^$objdir/||; s|\.o: |.c |" |
	      awk '$3 ~ /^[TDBRCGSVWu]$/ { print "D", $1, $2 }
		   $3 == "U" { print "U", $1, $2 }' |
	      awk -v layers="$layers" '
		function folder(path) {
			if (path !~ /\//)
				return "src"
			sub(/\/[^\/]*$/, "", path)
			return path
		}
		BEGIN {
			n = split(layers, line, "\n")
			for (i = 1; i <= n; i++) {
				k = split(line[i], w, " ")
				for (j = 2; j <= k; j++)
					layer[w[j]] = w[1]
			}
		}
		$1 == "D" { def[$3] = folder($2); next }
		{ use[++nu] = $2 " " $3 }
		END {
			for (i = 1; i <= nu; i++) {
				split(use[i], u, " ")
				if (!(u[2] in def))
					continue
				from = folder(u[1]); to = def[u[2]]
				# src/ itself is what every layer uses
				if (to == from || to == "src")
					continue
				if (!(from in layer) || !(to in layer))
					print u[1] " calls " u[2] " of " to ", a folder in no layer"
				else if (layer[to] >= layer[from])
					print u[1] " (layer " layer[from] ") calls " u[2] " of " to " (layer " layer[to] ")"
			}
		}' | sort -u)
	[ -z "$bad" ] || fail "calls against doc/architecture.md's layers:
$bad"
}

# No two files of one folder call each other (a helper both use lives
# in a leaf file of its own): from the same objects as the layer test, a
# symbol one file uses that a sibling defines, both ways.
test_no_sibling_files_call_each_other() {
	local objdir f o objs circles
	command -v nm >/dev/null || skip "no nm (binutils)"
	objdir=$(dirname "$SCHEDLAB")/src
	[ -d "$objdir" ] || skip "no object files beside $SCHEDLAB"
	objs=()
	for f in $(cd "$TOP/src" && find . -name '*.c' | sed 's|^\./||' | sort); do
		o=$objdir/${f%.c}.o
		[ -f "$o" ] || fail "no object file for $f (build it first)"
		objs+=("$o")
	done
	circles=$(nm -P -A "${objs[@]}" | sed "s|^$objdir/||; s|\.o: |.c |" |
		awk '$3 ~ /^[TDBRCGSVWu]$/ { def[$2] = $1; next }
		     $3 == "U" { use[++n] = $1 " " $2 }
		     END {
			for (i = 1; i <= n; i++) {
				split(use[i], u, " ")
				if (!(u[2] in def) || def[u[2]] == u[1])
					continue
				a = u[1]; b = def[u[2]]
				da = a; sub(/\/[^\/]*$/, "", da)
				db = b; sub(/\/[^\/]*$/, "", db)
				if (da == db)
					calls[a " " b] = calls[a " " b] " " u[2]
			}
			for (k in calls) {
				split(k, p, " ")
				if ((p[2] " " p[1]) in calls && p[1] < p[2])
					print p[1] " <-> " p[2] ":" calls[k] " |" calls[p[2] " " p[1]]
			}
		     }' | sort)
	[ -z "$circles" ] || fail "files of one folder that call each other:
$circles"
}

# Every shipped suite says what it can detect between separate runs, and
# how that was measured (issue: the boot is the unit, item 6).
test_suites_say_what_they_detect() {
	local f missing=
	for f in "$TOP"/jobs/*.job; do
		grep -q '^; What it can detect' "$f" || missing="$missing $(basename "$f")"
	done
	[ -z "$missing" ] || fail "suites without '; What it can detect':$missing"
}

# The user's docs speak of what was measured and where, never of the
# project's issues (a user has none of them): no "issue 29", "(issue:
# Foundation)", "the issue's target" or "the closing note of issue 30";
# and where README sends the reader to doc/benchmarks.md, it names a
# section that file has.
test_docs_name_no_issues() {
	local hits name n=0
	hits=$(grep -nHiE '\bissues?[ -]#?[0-9]+|\(issues?[: ]|\bthe issues?\b|closing note' \
		"$TOP/README.md" "$TOP"/doc/*.md "$TOP/doc/schedlab.1" || true)
	[ -z "$hits" ] || fail "the docs cite the project's issues:
$hits"
	while IFS= read -r name; do
		n=$((n + 1))
		grep -qE "^##+ $(sed 's/[][\.*^$/]/\\&/g' <<<"$name")" "$TOP/doc/benchmarks.md" ||
			fail "README names a section \"$name\" that doc/benchmarks.md lacks"
	done < <(tr '\n' ' ' <"$TOP/README.md" | grep -oE 'doc/benchmarks\.md\)?, "[^"]+"' |
		sed -E 's/.*, "//; s/"$//; s/  +/ /g')
	[ "$n" -ge 4 ] || fail "README names $n sections of doc/benchmarks.md"
}
