# SPDX-License-Identifier: GPL-2.0-only
#
# The run model as commands show it: the export's case members in the
# agreed order, a case's settings in show's text, run's summary equal to
# show's of the stored run.

# A messaging job swept over two group counts and a pipe job: latency
# histograms (messaging records them) and two job headings.
model_job() {
	printf '[msg]\nworkload = messaging\ngroups = 1,2\nloops = 20\niterations = 2\nprobes = on\n[pp]\nworkload = pipe\nloops = 1000\niterations = 2\n' >"$1"
}

# The members of a case, in the order export writes them (doc/export.md).
test_export_case_members_in_order() {
	local doc

	use_tmpdir
	model_job "$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q
	expect_eq "run exit status" 0 "$rc"
	run_sl export 1 --db "$tmp/r.db"
	expect_eq "export exit status" 0 "$rc"
	doc=$out
	expect_eq "case members" \
		'["seq","job","workload","version","params","sweep_keys","sweep","status","reason","parameters","settings","iterations","samples","histograms"]' \
		"$(jq -c '.cases[0] | keys_unsorted' <<<"$doc")"
	expect_eq "version" "1,1,1" "$(jq -r '[.cases[].version] | join(",")' <<<"$doc")"
	expect_eq "histograms per iteration" 2 \
		"$(jq '.cases[0].histograms.latency | length' <<<"$doc")"
	# and the file reads back to the same bytes
	printf '%s\n' "$doc" >"$tmp/e.json"
	run_sl show "$tmp/e.json" --format json
	expect_eq "show FILE --format json" "$doc" "$out"
}

# Settings every case of a job shares go beside its heading; settings
# that differ within a job go beside each sweep value.
test_show_prints_settings() {
	local text

	use_tmpdir
	model_job "$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q
	expect_eq "run exit status" 0 "$rc"
	"$SCHEDLAB" export 1 --db "$tmp/r.db" |
		jq '.cases[].settings = {"cpus": "0-1"}' >"$tmp/same.json"
	run_sl show "$tmp/same.json"
	expect_eq "show exit status" 0 "$rc"
	expect_eq "headings" "msg [cpus=0-1] by groups: messaging.time, s (lower is better)
pp [cpus=0-1]: pipe.usecs_per_op, us (lower is better)" \
		"$(grep -E '^[a-z]+ \[' <<<"$out")"

	jq '.cases[1].settings = {"cpus": "1"}' "$tmp/same.json" >"$tmp/diff.json"
	run_sl show "$tmp/diff.json"
	expect_eq "show exit status" 0 "$rc"
	text=$out
	expect_line "msg heading without settings" '^msg by groups: messaging.time' "$text"
	expect_line "case 1's settings by its sweep" '^Min +1 \[cpus=0-1\] +[0-9]+\.[0-9]{4}$' "$text"
	expect_line "case 2's settings by its sweep" '^Min +2 \[cpus=1\] +[0-9]+\.[0-9]{4}$' "$text"
	expect_line "pp keeps its heading" '^pp \[cpus=0-1\]: ' "$text"
}

# What run prints as each job ends is what show prints for the stored
# run, explanation lines included.
test_run_summary_is_show_summary() {
	local sum

	use_tmpdir
	model_job "$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" --tables
	expect_eq "run exit status" 0 "$rc"
	sum=$(sed '$d' <<<"$out")
	run_sl show 1 --db "$tmp/r.db"
	expect_eq "show exit status" 0 "$rc"
	expect_eq "summary" "$sum" "$(sed -n '/^msg by groups: /,$p' <<<"$out")"
}

# Settings keys of issue 14 (task settings, knobs, cgroups) print as
# cpus does: every one, in the stored order, beside the heading when the
# job's cases share them, beside the sweep value when they differ.
test_show_prints_every_setting() {
	use_tmpdir
	model_job "$tmp/m.job"
	run_sl run "$tmp/m.job" --db "$tmp/r.db" -q
	expect_eq "run exit status" 0 "$rc"
	"$SCHEDLAB" export 1 --db "$tmp/r.db" |
		jq '.cases[].settings = {"cgroup.cpu.cfs_quota_us": "50000", "nice": "7", "sysctl.kernel.sched_rr_timeslice_ms": "37"}
		    | .cases[1].settings.policy = "batch"' >"$tmp/s.json"
	run_sl show "$tmp/s.json"
	expect_eq "show exit status" 0 "$rc"
	expect_line "msg case 1" '^Min +1 \[cgroup.cpu.cfs_quota_us=50000 nice=7 sysctl.kernel.sched_rr_timeslice_ms=37\] ' "$out"
	expect_line "msg case 2" '^Min +2 \[cgroup.cpu.cfs_quota_us=50000 nice=7 sysctl.kernel.sched_rr_timeslice_ms=37 policy=batch\] ' "$out"
	expect_line "pp heading" '^pp \[cgroup.cpu.cfs_quota_us=50000 nice=7 sysctl.kernel.sched_rr_timeslice_ms=37\]: pipe' "$out"
}

# Runs made side by side (judge's live references here, ab's variants
# alike) share one A/B id: show names the run's variant and lists the
# runs of its A/B by id; list runs --ab RUN lists only those, by id or
# label of any of them; JSON carries ab and variant.
test_show_and_list_the_ab_of_a_run() {
	local ab
	use_tmpdir
	printf '[cmd]\nworkload = command\nargv = true\n' >"$tmp/c.job"
	run_sl run "$tmp/c.job" --db "$tmp/r.db" --label alone -q --iterations 3
	expect_eq "run exit status" 0 "$rc"
	run_sl judge --label step --db "$tmp/r.db" --good-set 'argv=true' \
		--iterations 3 "$tmp/c.job"
	expect_match "judge exit status (good, bad or skip)" "^(0|1|125)$" "$rc"
	run_sl run "$tmp/c.job" --db "$tmp/r.db" --label later -q --iterations 3
	expect_eq "run exit status" 0 "$rc"

	run_sl show step/good --db "$tmp/r.db" --format json
	expect_eq "show json exit status" 0 "$rc"
	ab=$(jval "$out" .run.ab)
	expect_match "ab is a uuid" '^[0-9a-f]{8}-[0-9a-f-]{27}$' "$ab"
	expect_eq "variant" good "$(jval "$out" .run.variant)"
	run_sl show step --db "$tmp/r.db"
	expect_eq "show exit status" 0 "$rc"
	expect_eq "variant line" "variant    run of A/B ${ab:0:8}... (runs 2 run, 3 good)" \
		"$(grep '^variant ' <<<"$out")"
	run_sl show alone --db "$tmp/r.db"
	expect_eq "a run made alone has no variant line" "" "$(grep '^variant ' <<<"$out" || true)"

	run_sl list runs --db "$tmp/r.db" --ab step/good --format json
	expect_eq "list --ab exit status" 0 "$rc"
	expect_eq "the A/B's runs" "3 good $ab,2 run $ab" \
		"$(jq -r 'map("\(.id) \(.variant) \(.ab)") | join(",")' <<<"$out")"
	run_sl list runs --db "$tmp/r.db" --ab 2
	expect_eq "list --ab text" "3 2" "$(awk 'NR > 1 { print $1 }' <<<"$out" | paste -sd' ')"
	run_sl list runs --db "$tmp/r.db" --format json
	expect_eq "all runs" "4 3 2 1" "$(jq -r 'map(.id) | join(" ")' <<<"$out")"
	expect_eq "alone: null" "null null" "$(jq -r '.[3] | "\(.ab) \(.variant)"' <<<"$out")"

	run_sl list runs --db "$tmp/r.db" --ab alone
	expect_eq "--ab of a run made alone: exit" 2 "$rc"
	expect_eq "its message" "schedlab: list: --ab alone: run 1 was not made beside others (it has no A/B)" "$err"
	run_sl list runs --db "$tmp/r.db" --ab nosuch
	expect_eq "--ab of no run: exit" 2 "$rc"
	expect_match "its message" "no run 'nosuch'" "$err"
	run_sl list suites --ab 2
	expect_eq "--ab with suites: exit" 2 "$rc"

	# export and import keep the link
	"$SCHEDLAB" export step/good --db "$tmp/r.db" >"$tmp/g.json"
	run_sl import "$tmp/g.json" --db "$tmp/other.db"
	expect_eq "import exit status" 0 "$rc"
	run_sl show 1 --db "$tmp/other.db" --format json
	expect_eq "imported ab" "$ab good" "$(jq -r '.run | "\(.ab) \(.variant)"' <<<"$out")"
	run_sl show "$tmp/g.json"
	expect_eq "from a file: no runs listed" "variant    good of A/B ${ab:0:8}..." \
		"$(grep '^variant ' <<<"$out")"
}
