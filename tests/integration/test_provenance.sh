# SPDX-License-Identifier: GPL-2.0-only
# Provenance: a run records the git commit of the work tree it was made
# in (or why none) and the kernel's build id; show, list runs and export
# display them.

# A pipe job of one short iteration.
prov_job() {
	printf '[pp]\nworkload = pipe\nloops = 200\niterations = 1\nwarmup = 0\n' >"$1"
}

# prov_git ARGS...: git in $tmp/repo, with an author.
prov_git() {
	git -C "$tmp/repo" -c user.name=t -c user.email=t@example.org "$@"
}

# Makes $tmp/repo, one file committed and tagged v1 (annotated: describe
# names annotated tags), and keeps git from looking above $tmp.
prov_repo() {
	command -v git >/dev/null || skip "no git (tools/deps.sh test installs it)"
	export GIT_CEILING_DIRECTORIES=${tmp%/*}
	mkdir "$tmp/repo"
	git init -q "$tmp/repo"
	echo 1 >"$tmp/repo/prog.c"
	prov_git add prog.c
	prov_git commit -q -m one
	prov_git tag -a -m v1 v1
}

# prov_run DIR: schedlab run of the job from DIR into $tmp/r.db; sets
# $doc (the export of the run) and $id.
prov_run() {
	(cd "$1" && "$SCHEDLAB" run "$tmp/p.job" --db "$tmp/r.db" -q) ||
		fail "run in $1 failed"
	id=$("$SCHEDLAB" list runs --db "$tmp/r.db" | awk 'NR == 2 { print $1 }')
	run_sl export "$id" --db "$tmp/r.db"
	expect_eq "export exit status ($err)" 0 "$rc"
	doc=$out
}

# list runs' commit of run $1, from its json ("-" for null), after
# checking that the text's COMMIT column (the last) says the same.
list_commit() {
	local json text
	json=$("$SCHEDLAB" list runs --format json --db "$tmp/r.db" |
		jq -r --argjson id "$1" '.[] | select(.id == $id) | .commit // "-"')
	text=$("$SCHEDLAB" list runs --db "$tmp/r.db" | awk -v id="$1" '$1 == id { print $NF }')
	expect_eq "list runs' COMMIT column for run $1" "$json" "$text"
	echo "$json"
}

test_provenance_git_commit_of_the_work_tree() {
	local head top short
	use_tmpdir
	prov_repo
	prov_job "$tmp/p.job"
	mkdir "$tmp/repo/sub"
	head=$(git -C "$tmp/repo" rev-parse HEAD)
	top=$(cd "$tmp/repo" && pwd -P)
	short=${head:0:12}

	# clean, from a subdirectory of the work tree
	prov_run "$tmp/repo/sub"
	expect_eq "git available" true "$(jval "$doc" .environment.git.available)"
	expect_eq "describe" v1 "$(jval "$doc" .environment.git.value.describe)"
	expect_eq "commit" "$head" "$(jval "$doc" .environment.git.value.commit)"
	expect_eq "work tree" "$top" "$(jval "$doc" .environment.git.value.work_tree)"
	expect_eq "list runs commit" v1 "$(list_commit "$id")"
	run_sl show "$id" --db "$tmp/r.db"
	expect_eq "show exit status" 0 "$rc"
	expect_line "show's commit line" "^commit     v1 \($short\)\$" "$out"
	expect_line "show's git line" "^git +v1 \(commit $head, work tree $top\)\$" "$out"
	# the run made nothing dirty, and the work tree is as it was
	expect_eq "git status" "" "$(git -C "$tmp/repo" status --porcelain --untracked-files=no)"

	# a tracked file changed: -dirty
	echo 2 >"$tmp/repo/prog.c"
	prov_run "$tmp/repo"
	expect_eq "describe, dirty" v1-dirty "$(jval "$doc" .environment.git.value.describe)"
	expect_eq "commit, dirty" "$head" "$(jval "$doc" .environment.git.value.commit)"
	expect_eq "list runs commit, dirty" v1-dirty "$(list_commit "$id")"
	run_sl show "$id" --db "$tmp/r.db"
	expect_line "show's commit line, dirty" "^commit     v1-dirty \($short\)\$" "$out"

	# committed: one past the tag; the earlier runs keep theirs
	prov_git commit -q -am two
	head=$(git -C "$tmp/repo" rev-parse HEAD)
	prov_run "$tmp/repo"
	expect_eq "describe, one past" "v1-1-g$(git -C "$tmp/repo" rev-parse --short HEAD)" \
		"$(jval "$doc" .environment.git.value.describe)"
	expect_eq "commit, one past" "$head" "$(jval "$doc" .environment.git.value.commit)"
	expect_eq "list runs commits" "$(jval "$doc" .environment.git.value.describe) v1-dirty v1" \
		"$("$SCHEDLAB" list runs --db "$tmp/r.db" | awk 'NR > 1 { print $NF }' | xargs)"
	# list runs --format json: the run as export has it
	expect_eq "list runs json" \
		"$(jq -c --argjson id "$id" '{id: $id, uuid: .run.uuid, label: .run.label,
			host: .run.host, status: .run.status, cases: (.cases | length),
			commit: .environment.git.value.describe}' <<<"$doc")" \
		"$("$SCHEDLAB" list runs --format json --db "$tmp/r.db" |
			jq -c '.[0] | {id, uuid, "label": .label, host, status, cases, commit}')"

	# an export carries it into another database
	printf '%s\n' "$doc" >"$tmp/e.json"
	run_sl import "$tmp/e.json" --db "$tmp/b.db"
	expect_eq "import exit status ($err)" 0 "$rc"
	expect_eq "list runs commit, imported" "$(jval "$doc" .environment.git.value.describe)" \
		"$("$SCHEDLAB" list runs --db "$tmp/b.db" | awk 'NR == 2 { print $NF }')"
}

# Outside any work tree: the missing form with the reason, and "-".
test_provenance_outside_a_work_tree() {
	local here
	use_tmpdir
	command -v git >/dev/null || skip "no git (tools/deps.sh test installs it)"
	export GIT_CEILING_DIRECTORIES=${tmp%/*}
	prov_job "$tmp/p.job"
	mkdir "$tmp/plain"
	here=$(cd "$tmp/plain" && pwd -P)
	prov_run "$tmp/plain"
	expect_eq "git available" false "$(jval "$doc" .environment.git.available)"
	expect_eq "git reason" \
		"$here: not inside a git work tree (git rev-parse --show-toplevel exited with 128)" \
		"$(jval "$doc" .environment.git.reason)"
	jq -e '.environment.git | has("value") | not' <<<"$doc" >/dev/null ||
		fail "a missing git item has a value: $(jq -c .environment.git <<<"$doc")"
	expect_eq "list runs commit" - "$(list_commit "$id")"
	run_sl show "$id" --db "$tmp/r.db"
	expect_line "show's commit line" '^commit     -$' "$out"
	expect_line "show's git line" "^git +not available \\($here: not inside a git work tree" "$out"
}

# git that hangs: killed after 10 s, its stdin /dev/null, its stderr
# not schedlab's; git not on PATH: said so.
test_provenance_git_hangs_or_is_missing() {
	local start secs pid
	use_tmpdir
	mkdir "$tmp/bin"
	# exec keeps the pid: the one schedlab must kill
	printf '#!/bin/sh\necho $$ >"%s/pid"\nreadlink /proc/self/fd/0 >"%s/stdin"\necho "fake git speaking" >&2\necho hung\nexec sleep 60\n' \
		"$tmp" "$tmp" >"$tmp/bin/git"
	chmod +x "$tmp/bin/git"
	start=$EPOCHREALTIME
	PATH=$tmp/bin:$PATH run_sl env --format json
	secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
	expect_eq "env exit status" 0 "$rc"
	expect_eq "git reason" \
		"$(pwd -P): git rev-parse --show-toplevel: no answer within 10 s" \
		"$(jval "$out" .git.reason)"
	[ "$secs" -ge 9 ] && [ "$secs" -le 20 ] || fail "env took ${secs}s, not about 10"
	expect_eq "git's stdin" /dev/null "$(cat "$tmp/stdin")"
	case $err in *"fake git"*) fail "git's stderr reached schedlab's: $err" ;; esac
	pid=$(cat "$tmp/pid")
	! kill -0 "$pid" 2>/dev/null || fail "the hung git (pid $pid) still runs"

	set +e
	out=$(PATH=$tmp/nothing "$SCHEDLAB" env --format json)
	rc=$?
	set -e
	expect_eq "env exit status, no git" 0 "$rc"
	expect_eq "git reason, no git" "$(pwd -P): git: not found on PATH; install git" \
		"$(jval "$out" .git.reason)"
}

# The kernel's release, version string and build id, in env and show.
test_provenance_kernel_build_id() {
	local want
	use_tmpdir
	run_sl env --format json
	expect_eq "release" "$(uname -r)" "$(jval "$out" .kernel.release.value)"
	expect_eq "version" "$(uname -v)" "$(jval "$out" .kernel.version.value)"
	if [ ! -r /sys/kernel/notes ]; then
		expect_eq "build id available" false "$(jval "$out" .kernel.build_id.available)"
		expect_match "build id reason" '^/sys/kernel/notes: ' "$(jval "$out" .kernel.build_id.reason)"
		return
	fi
	# the notes read independently: namesz, descsz, type (little-endian
	# words), the name, the descriptor, each padded to 4 bytes
	want=$(od -An -v -tu1 /sys/kernel/notes | xargs | awk '
		function w(i) { return b[i] + 256 * (b[i+1] + 256 * (b[i+2] + 256 * b[i+3])) }
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			p = 0
			while (p + 12 <= n) {
				ns = w(p); ds = w(p + 4); t = w(p + 8); q = p + 12
				nm = ""
				for (i = 0; i < ns - 1; i++) nm = nm sprintf("%c", b[q + i])
				d = q + int((ns + 3) / 4) * 4
				if (t == 3 && nm == "GNU") {
					for (i = 0; i < ds; i++) printf "%02x", b[d + i]
					exit
				}
				p = d + int((ds + 3) / 4) * 4
			}
		}')
	[ "$(uname -m)" = x86_64 ] || [ "$(uname -m)" = aarch64 ] ||
		skip "the independent reader assumes little-endian notes"
	if [ -z "$want" ]; then
		expect_eq "build id available" false "$(jval "$out" .kernel.build_id.available)"
		return
	fi
	expect_eq "build id" "$want" "$(jval "$out" .kernel.build_id.value)"
	run_sl env
	expect_line "env's build id line" "^kernel build id +$want\$" "$out"
	grep -qxF "$(printf '%-17s %s %s' kernel "$(uname -r)" "$(uname -v)")" <<<"$out" ||
		fail "env's kernel line is not release and version: $out"

	prov_job "$tmp/p.job"
	run_sl run "$tmp/p.job" --db "$tmp/r.db" -q
	expect_eq "run exit status ($err)" 0 "$rc"
	run_sl show 1 --db "$tmp/r.db"
	expect_line "show's build id line" "^kernel build id +$want\$" "$out"
}

# A work tree another user owns, which git refuses (safe.directory):
# the reason names it and its owner rather than "not a work tree".
test_provenance_work_tree_of_another_user() {
	local top
	use_tmpdir
	[ "$(id -u)" -eq 0 ] || skip "needs root (to give the repository away)"
	prov_repo
	mkdir "$tmp/repo/sub"
	chown -R 65534 "$tmp/repo"
	top=$(cd "$tmp/repo" && pwd -P)
	out=$(cd "$tmp/repo/sub" && env -u SUDO_UID "$SCHEDLAB" env --format json) ||
		fail "env failed"
	expect_eq "git reason" \
		"$top/sub: git refuses the work tree $top, owned by uid 65534, not this uid 0 (see safe.directory in git-config(1))" \
		"$(jval "$out" .git.reason)"
}

# list runs --format json without a database is an empty array; --format
# is refused for the other lists.
test_provenance_list_runs_json_edges() {
	use_tmpdir
	run_sl list runs --format json --db "$tmp/none.db"
	expect_eq "exit status" 0 "$rc"
	expect_eq "no database" "[]" "$out"
	expect_eq "stderr" "no runs yet: no database at $tmp/none.db" "$err"
	run_sl list workloads --format json
	expect_eq "workloads --format json: exit status" 2 "$rc"
	expect_eq "workloads --format json: stderr" \
		"schedlab: list: --format json is for 'list runs' only" "$err"
	run_sl list runs --format csv --db "$tmp/none.db"
	expect_eq "--format csv: exit status" 2 "$rc"
	expect_match "--format csv: stderr" "csv" "$err"
}
