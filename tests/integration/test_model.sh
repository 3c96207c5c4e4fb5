# SPDX-License-Identifier: GPL-2.0-only
#
# The run model as commands show it: the export's case members in the
# agreed order, a case's settings in show's text, run's summary equal to
# show's of the stored run.

# A messaging job swept over two group counts and a pipe job: latency
# histograms (messaging records them) and two job headings.
model_job() {
	printf '[msg]\nworkload = messaging\ngroups = 1,2\nloops = 20\niterations = 2\n[pp]\nworkload = pipe\nloops = 1000\niterations = 2\n' >"$1"
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
	run_sl run "$tmp/m.job" --db "$tmp/r.db"
	expect_eq "run exit status" 0 "$rc"
	sum=$(sed '$d' <<<"$out")
	run_sl show 1 --db "$tmp/r.db"
	expect_eq "show exit status" 0 "$rc"
	expect_eq "summary" "$sum" "$(sed -n '/^msg by groups: /,$p' <<<"$out")"
}
