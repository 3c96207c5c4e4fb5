# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab run, show, list, export and import: what a run stores, what
# it prints, and what survives a timeout, an interruption, a second
# writer and a round trip through JSON. Every test works in a temporary
# directory with its own database (use_tmpdir) and tiny job files; none
# runs a real suite.

# small_job FILE: three cases - two of a messaging sweep and a pipe
# ping-pong - three iterations each; a fraction of a second in all.
small_job() {
	cat >"$1" <<'EOF'
; a tiny job for the tests
[global]
iterations = 3

[msg]
workload = messaging
probes = on
groups = 1,2
fds = 2
loops = 10

[pp]
workload = pipe
loops = 1000
EOF
}

# run_id_of TEXT: the run id in the last line of a run's output.
run_id_of() {
	tail -n 1 <<<"$1" | sed -nE 's/^run ([0-9]+) \(.*/\1/p'
}

# nsamples DOC: the sample values (nulls not counted) in an export.
nsamples() {
	jq '[.cases[].samples[][] | select(. != null)] | length' <<<"$1"
}

# A run stores its cases, prints a line a case (--tables: each job's
# summary in mmtests' layout) and a last line naming the run; list runs
# shows it.
test_run_stores_and_prints_summary() {
	local id label doc rows

	use_tmpdir
	small_job "$tmp/small.job"
	label="$(uname -n)-$(uname -r)"
	run_sl run "$tmp/small.job" --db "$tmp/brief.db"
	expect_eq "brief: exit status" 0 "$rc"
	expect_eq "brief: heading" "job sweep median CoeffVar iter detects stopped" \
		"$(grep '^job ' <<<"$out" | xargs)"
	expect_eq "brief: a line a case" "msg 1 s 3 as asked|msg 2 s 3 as asked|pp us 3 as asked" \
		"$(awk '/^(msg|pp) / { sw = $1 == "msg" ? $2 " " : ""; n = $1 == "msg" ? 4 : 3
			printf "%s%s %s%s %s %s %s", sep, $1, sw, $(n), $(n + 2), $(n + 4), $(n + 5); sep = "|" }' <<<"$out" |
			sed 's/  */ /g')"
	expect_eq "brief: medians are numbers" "" \
		"$(awk '/^msg / && $3 !~ /^[0-9.e+-]+$/ || /^pp / && $2 !~ /^[0-9.e+-]+$/' <<<"$out")"
	expect_line "brief: what detects means" '^detects: the smallest change of the mean' "$out"
	expect_line "brief: where the tables are" "^tables, scheduler metrics, the machine: schedlab show 1 --db $tmp/brief\\.db$" "$out"
	expect_match "brief: last line" "^run 1 \\($label\\): complete, 3 of 3 cases complete, stored in $tmp/brief\\.db$" \
		"$(tail -n 1 <<<"$out")"
	# (the paths in the last two lines are as long as they are)
	[ "$(awk '/^tables, / { exit } { print length }' <<<"$out" | sort -n | tail -n 1)" -le 80 ] ||
		fail "brief: a line wider than 80 columns: $out"

	run_sl run "$tmp/small.job" --db "$tmp/r.db" --tables
	expect_eq "exit status" 0 "$rc"
	[ -f "$tmp/r.db" ] || fail "no database at $tmp/r.db"

	expect_eq "summary headers" "msg by groups: messaging.time, s (lower is better)
pp: pipe.usecs_per_op, us (lower is better)" \
		"$(grep -E '^[a-z]+( by [a-z ]+)?: ' <<<"$out")"
	# the rows in mmtests' order, every sweep value in each
	rows=$(awk '/^msg by/ { b = 1; next } /^$/ { b = 0 } b && !/^  / { print $1, $2 }' <<<"$out" | tr '\n' ,)
	expect_eq "msg rows" "Min 1,Min 2,Amean 1,Amean 2,Stddev 1,Stddev 2,CoeffVar 1,CoeffVar 2,Max 1,Max 2,BAmean-95 1,BAmean-95 2," "$rows"
	rows=$(awk '/^pp:/ { b = 1; next } /^$/ { b = 0 } b && !/^  / { print $1, $2 }' <<<"$out" | tr '\n' ,)
	expect_eq "pp rows" "Min -,Amean -,Stddev -,CoeffVar -,Max -,BAmean-95 -," "$rows"
	expect_eq "summary values" "" \
		"$(awk '/^(Min|Amean|Hmean|Stddev|CoeffVar|Max|BAmean-95) / && $NF !~ /^[0-9]+\.[0-9][0-9][0-9][0-9]$/' <<<"$out")"

	id=$(run_id_of "$out")
	[ -n "$id" ] || fail "no run id in the last line: $(tail -n 1 <<<"$out")"
	expect_eq "last line" "run $id ($label): complete, 3 of 3 cases complete, stored in $tmp/r.db" \
		"$(tail -n 1 <<<"$out")"
	expect_eq "stderr" "" "$(unwarned "$err")"
	# a run alone is compared run against run: its iterations' count
	# limits no test (ab warns: test_compare_too_few_to_decide)
	expect_eq "no warning of 3 iterations" 0 "$(grep -c 'warning: 3 iterations' <<<"$err" || true)"

	run_sl export "$id" --db "$tmp/r.db"
	expect_eq "export exit status" 0 "$rc"
	doc=$out
	expect_eq "label" "$label" "$(jval "$doc" .run.label)"
	expect_eq "host" "$(uname -n)" "$(jval "$doc" .run.host)"

	run_sl list runs --db "$tmp/r.db"
	expect_eq "list exit status" 0 "$rc"
	expect_eq "list lines" 2 "$(nlines "$out")"
	expect_match "list header" '^ +ID +LABEL +STARTED \(UTC\) +STATUS +CASES +SAMPLES +COMMIT$' "$(head -n 1 <<<"$out")"
	expect_match "list row" "^ +$id +$label +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} +complete +3 +$(nsamples "$doc")  [^ ]+\$" \
		"$(tail -n 1 <<<"$out")"
}

# show ID and show LABEL (the latest run with it) print the run's header,
# its environment and the same summary the run printed.
test_show_by_id_and_label() {
	local id1 id2 sum1 sum2 uuid1 uuid2

	use_tmpdir
	small_job "$tmp/a.job"
	printf '[other]\nworkload = pipe\nloops = 1000\niterations = 2\n' >"$tmp/b.job"
	run_sl run "$tmp/a.job" --db "$tmp/r.db" --label same --tables
	expect_eq "first run" 0 "$rc"
	id1=$(run_id_of "$out")
	sum1=$(sed '$d' <<<"$out")
	run_sl run "$tmp/b.job" --db "$tmp/r.db" --label same --tables
	expect_eq "second run" 0 "$rc"
	id2=$(run_id_of "$out")
	sum2=$(sed '$d' <<<"$out")
	[ "$id1" != "$id2" ] || fail "two runs, one id $id1"
	uuid1=$("$SCHEDLAB" export "$id1" --db "$tmp/r.db" | jq -r .run.uuid)
	uuid2=$("$SCHEDLAB" export "$id2" --db "$tmp/r.db" | jq -r .run.uuid)

	run_sl show same --db "$tmp/r.db"
	expect_eq "show label: exit status" 0 "$rc"
	expect_line "show label: the latest run" "^uuid +$uuid2$" "$out"
	expect_line "show label: status" "^status +complete, 1 cases?$" "$out"
	expect_eq "show label: summary" "$sum2" "$(sed -n '/^other: /,$p' <<<"$out")"

	run_sl show "$id1" --db "$tmp/r.db"
	expect_eq "show id: exit status" 0 "$rc"
	expect_eq "show id: stderr" "" "$err"
	expect_eq "show id: first line" "run        same" "$(head -n 1 <<<"$out")"
	expect_line "show id: status" "^status +complete, 3 cases$" "$out"
	expect_line "show id: uuid" "^uuid +$uuid1$" "$out"
	expect_line "show id: host" "^host +$(uname -n) \\([0-9]+ packages?, .*\\)$" "$out"
	expect_line "show id: started" "^started +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} UTC$" "$out"
	expect_line "show id: command" "^command +schedlab run .*$tmp/a\\.job" "$out"
	expect_line "show id: environment kernel" "^kernel +$(uname -r)( |$)" "$out"
	expect_line "show id: environment cpus" "^cpus online +$(getconf _NPROCESSORS_ONLN) " "$out"
	expect_eq "show id: summary" "$sum1" "$(sed -n '/^msg by groups: /,$p' <<<"$out")"

	# --format json is the export; a file or stdin shows as the database does
	"$SCHEDLAB" export "$id1" --db "$tmp/r.db" >"$tmp/e.json"
	run_sl show "$id1" --db "$tmp/r.db" --format json
	expect_eq "show json: exit status" 0 "$rc"
	expect_eq "show --format json is the export" "$(cat "$tmp/e.json")" "$out"
	local text
	run_sl show "$id1" --db "$tmp/r.db"
	text=$out
	run_sl show "$tmp/e.json"
	expect_eq "show FILE: exit status" 0 "$rc"
	expect_eq "show FILE" "$text" "$out"
	out=$("$SCHEDLAB" show - <"$tmp/e.json")
	expect_eq "show -" "$text" "$out"

	run_sl show nosuch --db "$tmp/r.db"
	expect_eq "show unknown: exit status" 2 "$rc"
	expect_eq "show unknown: stderr" "schedlab: no run 'nosuch' in $tmp/r.db (see 'schedlab list runs')" "$err"
	run_sl show 1 --db "$tmp/none.db"
	expect_eq "show without database: exit status" 2 "$rc"
	expect_eq "show without database: stderr lines" 1 "$(nlines "$err")"
	[ ! -e "$tmp/none.db" ] || fail "show created $tmp/none.db"
}

# The export holds what the job file asked for: the cartesian product of
# the sweeps, every iteration of every metric, the options used, the
# metrics' metadata and the machine.
test_export_matches_job_file() {
	local doc id

	use_tmpdir
	cat >"$tmp/j.job" <<'EOF'
[global]
iterations = 2
fds = 2

[msg]
workload = messaging
groups = 1..3
ipc = pipe,socket
loops = 10

[pp]
workload = pipe
loops = 1000
mode = process,thread
iterations = 3
EOF
	run_sl run "$tmp/j.job" --db "$tmp/r.db" -q
	expect_eq "exit status" 0 "$rc"
	expect_eq "quiet: stdout" "" "$out"
	run_sl export 1 --db "$tmp/r.db"
	expect_eq "export exit status" 0 "$rc"
	doc=$out

	expect_eq "schema" "schedlab-run/1" "$(jval "$doc" .schema)"
	expect_eq "run status" complete "$(jval "$doc" .run.status)"
	expect_eq "cases" 8 "$(jval "$doc" '.cases | length')"
	expect_eq "seq" "1 2 3 4 5 6 7 8" "$(jq -r '[.cases[].seq] | map(tostring) | join(" ")' <<<"$doc")"
	expect_eq "case statuses" "complete" "$(jq -r '[.cases[] | .status] | unique | join(",")' <<<"$doc")"
	expect_eq "reasons" "null" "$(jq -c '[.cases[].reason] | unique | .[]' <<<"$doc")"
	# groups outermost, as in the job file
	expect_eq "msg sweeps" "1 pipe,1 socket,2 pipe,2 socket,3 pipe,3 socket" \
		"$(jq -r '[.cases[] | select(.job == "msg") | .sweep | gsub(","; " ")] | join(",")' <<<"$doc")"
	expect_eq "pp sweeps" "process,thread" \
		"$(jq -r '[.cases[] | select(.job == "pp") | .sweep] | join(",")' <<<"$doc")"
	expect_eq "msg workload" messaging "$(jq -r '[.cases[] | select(.job == "msg") | .workload] | unique | join(",")' <<<"$doc")"
	expect_eq "pp workload" pipe "$(jq -r '[.cases[] | select(.job == "pp") | .workload] | unique | join(",")' <<<"$doc")"
	# parameters echo the options, the swept ones as in the case's sweep
	expect_eq "msg parameters" "" "$(jq -c '.cases[] | select(.job == "msg") |
		[.sweep | splits("[ ,]")] as $s | .parameters |
		select(.groups != ($s[0] | tonumber) or .ipc != $s[1] or .fds != 2 or
		       .loops != 10 or .datasize != 100 or .mode != "process")' <<<"$doc")"
	expect_eq "pp parameters" "" "$(jq -c '.cases[] | select(.job == "pp") |
		.sweep as $s | .parameters | select(.loops != 1000 or .mode != $s)' <<<"$doc")"
	# the identity: the options that differ from their defaults, by name
	expect_eq "params strings" "fds=2 groups=1 ipc=pipe loops=10,fds=2 groups=1 loops=10,fds=2 groups=2 ipc=pipe loops=10,fds=2 groups=2 loops=10,fds=2 groups=3 ipc=pipe loops=10,fds=2 groups=3 loops=10,loops=1000,loops=1000 mode=thread" \
		"$(jq -r '[.cases[].params] | join(",")' <<<"$doc")"
	# over pipes, and with 20 messages a task, messaging runs without
	# probes unless asked, which its cases' settings record
	expect_eq "versions and settings" '[1,{}]' \
		"$(jq -c '[.cases[] | select(.job == "pp") | [.version, .settings]] | unique | .[]' <<<"$doc")"
	expect_eq "messaging cases' settings" '[1,{"probes":"off"}]' \
		"$(jq -c '[.cases[] | select(.job == "msg") | [.version, .settings]] | unique | .[]' <<<"$doc")"
	# iterations and samples: warm-ups aside, every array has one entry an iteration
	expect_eq "msg iterations" 2 "$(jq -r '[.cases[] | select(.job == "msg") | .iterations] | unique | join(",")' <<<"$doc")"
	expect_eq "pp iterations" 3 "$(jq -r '[.cases[] | select(.job == "pp") | .iterations] | unique | join(",")' <<<"$doc")"
	expect_eq "sample array lengths" "" "$(jq -c '.cases[] | .iterations as $n |
		.samples | to_entries[] | select((.value | length) != $n) | .key' <<<"$doc")"
	# the workloads' metrics are measured every time (a probe may not be:
	# /proc/stat has nothing to say of a run shorter than a tick)
	expect_eq "null samples" 0 "$(jq '[.cases[] | .workload as $w | .samples | to_entries[] |
		select(.key | startswith($w + ".")) | .value[] | select(. == null)] | length' <<<"$doc")"
	expect_eq "headline samples" "messaging.time pipe.usecs_per_op" \
		"$(jq -r '[.cases[] | .samples | keys[]] | unique | map(select(. == "messaging.time" or . == "pipe.usecs_per_op")) | join(" ")' <<<"$doc")"
	# every metric with samples has its metadata
	expect_eq "metrics without metadata" "" "$(jq -r '.metrics as $m |
		[.cases[].samples | keys[]] | unique[] | select($m[.] == null)' <<<"$doc")"
	expect_eq "metadata" "" "$(jq -r '.metrics | to_entries[] |
		select((.value.unit | type) != "string" or
		       ([.value.better] | inside(["lower", "higher", "none"]) | not) or
		       (.value.headline | type) != "boolean" or
		       (.value.help | type) != "string" or .value.help == "") | .key' <<<"$doc")"
	expect_eq "headline metrics" "messaging.time pipe.usecs_per_op" \
		"$(jq -r '[.metrics | to_entries[] | select(.value.headline) | .key] | sort | join(" ")' <<<"$doc")"
	expect_eq "kernel release" "$(uname -r)" "$(jval "$doc" .environment.kernel.release.value)"
	expect_match "uuid" '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' "$(jval "$doc" .run.uuid)"
	jq -e '.run.started <= .run.ended and .run.ended <= now + 1' <<<"$doc" >/dev/null ||
		fail "started/ended: $(jq -c '.run | {started, ended}' <<<"$doc")"
	expect_match "list row" " complete +8 +$(nsamples "$doc")  [^ ]+\$" "$("$SCHEDLAB" list runs --db "$tmp/r.db" | tail -n 1)"
}

# doc/export.md: sweep_keys and sweep are "" when nothing is swept, and
# several swept options are space-separated, in the same order as their values.
test_export_sweep_fields_as_documented() {
	local doc

	use_tmpdir
	printf '[one]\nworkload = pipe\nloops = 1000\niterations = 1\n[two]\nworkload = messaging\ngroups = 1,2\nipc = pipe,socket\nfds = 2\nloops = 10\niterations = 1\n' >"$tmp/s.job"
	run_sl run "$tmp/s.job" --db "$tmp/r.db" -q
	expect_eq "exit status" 0 "$rc"
	doc=$("$SCHEDLAB" export 1 --db "$tmp/r.db")
	expect_eq "sweep fields (unswept case, case with two swept options)" \
		'{"sweep_keys":"","sweep":""} {"sweep_keys":"groups ipc","sweep":"1 pipe"}' \
		"$(jq -c '(.cases[0] | {sweep_keys, sweep}), (.cases[1] | {sweep_keys, sweep})' <<<"$doc" | tr '\n' ' ' | sed 's/ $//')"
}

# The summary's numbers are the statistics of the stored samples.
test_show_statistics_match_samples() {
	local doc text job_sweep job sweep metric want got row val n

	use_tmpdir
	cat >"$tmp/st.job" <<'EOF'
[pp]
workload = pipe
loops = 1000
mode = process,thread
iterations = 5

[msg]
workload = messaging
probes = on
groups = 1,2
fds = 2
loops = 50
iterations = 4
EOF
	run_sl run "$tmp/st.job" --db "$tmp/r.db" --label st --tables
	expect_eq "exit status" 0 "$rc"
	text=$(sed '$d' <<<"$out")
	doc=$("$SCHEDLAB" export st --db "$tmp/r.db")
	run_sl show st --db "$tmp/r.db"
	expect_eq "show exit status" 0 "$rc"
	expect_eq "show's summary is the run's" "$text" "$(sed -n '/^pp by mode: /,$p' <<<"$out")"
	for job_sweep in pp:process pp:thread msg:1 msg:2; do
		job=${job_sweep%%:*}
		sweep=${job_sweep#*:}
		[ "$job" = pp ] && metric=pipe.usecs_per_op || metric=messaging.time
		want=$(jq -r --arg j "$job" --arg s "$sweep" --arg m "$metric" \
			'.cases[] | select(.job == $j and .sweep == $s) | .samples[$m][]' <<<"$doc" |
			awk '{ x[NR] = $1; s += $1; if (NR == 1 || $1 < mn) mn = $1; if (NR == 1 || $1 > mx) mx = $1 }
			END {
				m = s / NR
				for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2
				sd = sqrt(v / (NR - 1))
				printf "Min %.4f\nAmean %.4f\nStddev %.4f\nCoeffVar %.4f\nMax %.4f\n", mn, m, sd, 100 * sd / m, mx
			}')
		[ "$job" = pp ] && n=5 || n=4
		expect_eq "$job $sweep: samples" "$n" \
			"$(jq -r --arg j "$job" --arg s "$sweep" --arg m "$metric" \
				'.cases[] | select(.job == $j and .sweep == $s) | .samples[$m] | length' <<<"$doc")"
		while read -r row val; do
			got=$(summary_row "$out" "$job" "$row" "$sweep")
			expect_eq "$job $sweep $row" "$val" "$got"
		done <<<"$want"
	done
	# a higher-is-better headline is summarised by its harmonic mean
	run_sl show - <<<"$(jq '.metrics["pipe.usecs_per_op"].better = "higher"' <<<"$doc")"
	expect_eq "higher is better: exit status" 0 "$rc"
	expect_line "higher is better: header" '^pp by mode: pipe\.usecs_per_op, us \(higher is better\)$' "$out"
	for sweep in process thread; do
		want=$(jq -r --arg s "$sweep" '.cases[] | select(.job == "pp" and .sweep == $s) |
			.samples["pipe.usecs_per_op"][]' <<<"$doc" |
			awk '{ s += 1 / $1 } END { printf "%.4f", NR / s }')
		expect_eq "pp $sweep Hmean" "$want" "$(summary_row "$out" pp Hmean "$sweep")"
		expect_eq "pp $sweep Amean row" "" "$(summary_row "$out" pp Amean "$sweep")"
	done
	expect_eq "msg keeps Amean" "$(summary_row "$text" msg Amean 1)" "$(summary_row "$out" msg Amean 1)"
}

# --iterations overrides the job file; warm-ups run but are not stored.
test_run_iterations_and_warmup() {
	local doc

	use_tmpdir
	cat >"$tmp/w.job" <<'EOF'
[global]
iterations = 3
warmup = 2

[pp]
workload = pipe
loops = 1000

[msg]
workload = messaging
probes = on
groups = 1
fds = 2
loops = 10
warmup = 1
EOF
	run_sl run "$tmp/w.job" --db "$tmp/r.db" -n
	expect_eq "dry-run exit status" 0 "$rc"
	expect_match "dry-run header" '^# w \(.*/w\.job\): 2 cases, 6 iterations \+ 3 warm-up$' "$(head -n 1 <<<"$out")"
	run_sl run "$tmp/w.job" --db "$tmp/r.db" -n --iterations 7
	expect_match "dry-run --iterations" '^# w \(.*/w\.job\): 2 cases, 14 iterations \+ 3 warm-up$' "$(head -n 1 <<<"$out")"

	run_sl run "$tmp/w.job" --db "$tmp/r.db" -q
	expect_eq "exit status" 0 "$rc"
	doc=$("$SCHEDLAB" export 1 --db "$tmp/r.db")
	expect_eq "iterations (warm-ups not counted)" "3,3" "$(jq -r '[.cases[].iterations | tostring] | join(",")' <<<"$doc")"
	expect_eq "sample array lengths" "3" "$(jq -r '[.cases[].samples[] | length] | unique | map(tostring) | join(",")' <<<"$doc")"

	run_sl run "$tmp/w.job" --db "$tmp/r.db" -q --iterations 2
	expect_eq "--iterations exit status" 0 "$rc"
	doc=$("$SCHEDLAB" export 2 --db "$tmp/r.db")
	expect_eq "--iterations 2" "2,2" "$(jq -r '[.cases[].iterations | tostring] | join(",")' <<<"$doc")"
	expect_eq "--iterations 2: sample array lengths" "2" "$(jq -r '[.cases[].samples[] | length] | unique | map(tostring) | join(",")' <<<"$doc")"

	run_sl run "$tmp/w.job" --db "$tmp/r.db" --iterations 0
	expect_eq "--iterations 0" 2 "$rc"
	expect_match "--iterations 0: message" "^schedlab: run: option --iterations: '0' is out of range" "$err"
	expect_eq "runs after a refused --iterations" 2 "$(nruns "$tmp/r.db")"
}

# A case that passes its timeout fails with the reason; the run goes on
# with the next case, is partial and exits 1.
test_run_timeout_fails_one_case() {
	local doc id t0 secs

	use_tmpdir
	cat >"$tmp/t.job" <<'EOF'
[global]
iterations = 2

[ok]
workload = pipe
loops = 1000

[slow]
workload = messaging
groups = 1
fds = 2
loops = 1000000000
timeout = 1

[after]
workload = pipe
loops = 1000
EOF
	t0=$EPOCHREALTIME
	run_sl run "$tmp/t.job" --db "$tmp/r.db" --tables
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
	expect_eq "exit status" 1 "$rc"
	awk -v s="$secs" 'BEGIN { exit !(s >= 1 && s < 20) }' || fail "took $secs s with a 1 s timeout"
	expect_eq "stderr" "schedlab: case 2 (slow): timed out after 1 s" \
		"$(unwarned "$err")"
	id=$(run_id_of "$out")
	expect_eq "last line" "run $id ($(uname -n)-$(uname -r)): partial, 2 of 3 cases complete, stored in $tmp/r.db" "$(tail -n 1 <<<"$out")"
	expect_eq "summary of the failed case" "slow: messaging.time, s (lower is better)
Failed    -    timed out after 1 s" "$(sed -n '/^slow: /,/^$/p' <<<"$out" | sed '/^$/d')"
	expect_line "summary of the case after it" "^after: pipe\\.usecs_per_op, us \\(lower is better\\)$" "$out"

	doc=$("$SCHEDLAB" export "$id" --db "$tmp/r.db")
	expect_eq "run status" partial "$(jval "$doc" .run.status)"
	expect_eq "case statuses" "complete failed complete" "$(jq -r '[.cases[].status] | join(" ")' <<<"$doc")"
	expect_eq "reason" "timed out after 1 s" "$(jval "$doc" '.cases[1].reason')"
	expect_eq "failed case: iterations" 0 "$(jval "$doc" '.cases[1].iterations')"
	expect_eq "failed case: samples" "{}" "$(jq -c '.cases[1].samples' <<<"$doc")"
	expect_eq "the case after it" 2 "$(jval "$doc" '.cases[2].iterations')"
	run_sl show "$id" --db "$tmp/r.db"
	expect_line "show: status" "^status +partial, 3 cases$" "$out"
	expect_line "show: failed case" "^Failed +- +timed out after 1 s$" "$out"
	expect_no_leftovers
}

# retries reruns a failed iteration: with retries = 1, a case that times
# out runs twice - two workload processes, two seconds - then fails. A
# run whose every case failed is failed.
test_run_retries_rerun_failed_iteration() {
	local doc

	use_tmpdir
	# each attempt leaves a line, so the count does not depend on
	# catching a short-lived process (on a loaded machine a poll can
	# miss one)
	printf '[slow]\nworkload = command\nshell = true\nargv = echo attempt >>%s/attempts; exec sleep 100\niterations = 1\ntimeout = 1\nretries = 1\n' \
		"$tmp" >"$tmp/r.job"
	start_sl run "$tmp/r.job" --db "$tmp/r.db" -q
	finish_sl
	expect_eq "exit status" 1 "$rc"
	expect_eq "attempts" 2 "$(nlines "$(cat "$tmp/attempts")")"
	awk -v s="$secs" 'BEGIN { exit !(s >= 1.95) }' ||
		fail "two attempts at a 1 s timeout took $secs s"
	expect_line "stderr" '^schedlab: case 1 \(slow\): timed out after 1 s$' "$err"
	doc=$("$SCHEDLAB" export 1 --db "$tmp/r.db")
	expect_eq "run status" failed "$(jval "$doc" .run.status)"
	expect_eq "case status" failed "$(jval "$doc" '.cases[0].status')"
	expect_eq "reason" "timed out after 1 s" "$(jval "$doc" '.cases[0].reason')"
	expect_no_leftovers
}

# cpus = 0: the workload process and every worker may run on CPU 0 only.
test_run_cpus_sets_affinity() {
	local p list

	use_tmpdir
	cat >"$tmp/c.job" <<'EOF'
[pinned]
workload = messaging
groups = 1
fds = 2
loops = 1000000000
iterations = 1
timeout = 60
cpus = 0
EOF
	start_sl run "$tmp/c.job" --db "$tmp/r.db"
	wait_workers 4
	for p in "$wl_pid" $workers; do
		list=$(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$p/status")
		expect_eq "Cpus_allowed_list of $p" 0 "$list"
	done
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit status after SIGINT" 130 "$rc"
	expect_group_empty "$wl_pid"
	expect_no_leftovers

	# and a run with it completes
	sed -i 's/^loops = .*/loops = 10/' "$tmp/c.job"
	run_sl run "$tmp/c.job" --db "$tmp/r.db" -q
	expect_eq "exit status" 0 "$rc"
}

# Run settings that change results are stored with the case, beside its
# identity: cpus when set, probes when not on; {} when neither.
test_run_settings_stored() {
	use_tmpdir
	cat >"$tmp/s.job" <<'EOF'
[global]
groups = 1
fds = 2
loops = 1000
iterations = 1

[plain]
workload = messaging

[pinned]
workload = messaging
cpus = 0
probes = off
EOF
	run_sl run "$tmp/s.job" --db "$tmp/r.db" -q
	expect_eq "exit status" 0 "$rc"
	run_sl export 1 --db "$tmp/r.db"
	expect_eq "settings" '{} {"cpus":"0","probes":"off"}' \
		"$(jq -r -c '[.cases[].settings | tojson] | join(" ")' <<<"$out")"
	expect_eq "same identity" "fds=2 groups=1 loops=1000" \
		"$(jq -r '[.cases[].params] | unique | join(",")' <<<"$out")"
}

# --dry-run prints the plan and an estimate, and runs and stores nothing.
test_run_dry_run_prints_plan() {
	use_tmpdir
	cat >"$tmp/sw.job" <<'EOF'
[j]
workload = messaging
groups = 1..2*$ncpu:*2
ipc = pipe,socket
fds = 2
loops = 10
EOF
	out=$(SCHEDLAB_NCPU=4 "$SCHEDLAB" run --dry-run "$tmp/sw.job" --db "$tmp/r.db")
	expect_match "header, 4 CPUs" "^# sw \($tmp/sw\\.job\): 8 cases, 40 iterations \\+ 0 warm-up$" "$(head -n 1 <<<"$out")"
	expect_eq "case lines, 4 CPUs" 8 "$(grep -cE '^ +[0-9]+ +j +messaging ' <<<"$out")"
	expect_eq "groups, 4 CPUs" "1 1 2 2 4 4 8 8" "$(grep -oE 'groups=[0-9]+ ipc' <<<"$out" | grep -oE '[0-9]+' | tr '\n' ' ' | sed 's/ $//')"
	expect_line "estimate" "^estimated time: unknown \(no earlier run of these cases in $tmp/r.db\)\$" "$out"
	[ ! -e "$tmp/r.db" ] || fail "--dry-run created the database"

	out=$(SCHEDLAB_NCPU=2 "$SCHEDLAB" run -n "$tmp/sw.job" --db "$tmp/r.db")
	expect_match "header, 2 CPUs" ": 6 cases, 30 iterations" "$(head -n 1 <<<"$out")"
	expect_eq "case lines, 2 CPUs" 6 "$(grep -cE '^ +[0-9]+ +j +messaging ' <<<"$out")"
	[ ! -e "$tmp/r.db" ] || fail "--dry-run created the database"

	# repeated values run once
	printf '[j]\nworkload = pipe\nloops = 1000,$ncpu*500,2000\n' >"$tmp/rep.job"
	out=$(SCHEDLAB_NCPU=2 "$SCHEDLAB" run -n "$tmp/rep.job" --db "$tmp/r.db")
	expect_match "repeated values" ": 2 cases," "$(head -n 1 <<<"$out")"

	# after a run of the same cases, the estimate comes from it; still nothing stored
	SCHEDLAB_NCPU=1 "$SCHEDLAB" run -q "$tmp/sw.job" --db "$tmp/r.db" --iterations 1 ||
		fail "the run for the estimate failed"
	run_sl run -n "$tmp/sw.job" --db "$tmp/r.db"
	expect_eq "exit status" 0 "$rc"
	expect_line "estimate from the earlier run" "^estimated time: [0-9]+:[0-9]{2} \(from earlier runs of " "$out"
	expect_eq "runs after --dry-run" 1 "$(nruns "$tmp/r.db")"
}

# One case is not "1 of 1 case" nor "runs of 1 of the 1 cases"; all of
# several is "all N" (issue 12, defect 12's wording).
test_run_case_count_wording() {
	use_tmpdir
	printf '[a]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/one.job"
	printf '[a]\nworkload = pipe\nloops = 100\niterations = 1\n[b]\nworkload = pipe\nloops = 200\niterations = 1\n' >"$tmp/two.job"
	run_sl run "$tmp/one.job" --db "$tmp/r.db"
	expect_eq "exit status ($err)" 0 "$rc"
	expect_match "one case: last line" "^run 1 \(.*\): complete \(one case\), stored in $tmp/r.db$" "$(tail -n 1 <<<"$out")"
	run_sl run -n "$tmp/one.job" --db "$tmp/r.db"
	expect_line "one case: estimate" "^estimated time: [0-9:]+ \(from an earlier run of the case in $tmp/r.db\)$" "$out"
	run_sl run -n "$tmp/two.job" --db "$tmp/r.db"
	expect_line "1 of 2: estimate" "^estimated time: [0-9:]+ \(from earlier runs of 1 of the 2 cases in $tmp/r.db; the other counted at the average\)$" "$out"
	"$SCHEDLAB" run -q "$tmp/two.job" --db "$tmp/r.db" || fail "the second run failed"
	run_sl run -n "$tmp/two.job" --db "$tmp/r.db"
	expect_line "2 of 2: estimate" "^estimated time: [0-9:]+ \(from earlier runs of both cases in $tmp/r.db\)$" "$out"
}

# The quick suite with 2 CPUs is 13 cases; with 1, repeated group counts
# run once.
test_run_dry_run_quick_suite() {
	use_tmpdir
	out=$(cd "$tmp" && SCHEDLAB_JOBS=$TOP/jobs SCHEDLAB_NCPU=2 "$SCHEDLAB" run --dry-run)
	expect_match "quick, 2 CPUs" '^# quick \(.*/jobs/quick\.job\): 13 cases, 65 iterations \+ 0 warm-up$' "$(head -n 1 <<<"$out")"
	expect_eq "quick case lines" 13 "$(grep -cE '^ +[0-9]+  [a-z-]+ +(messaging|pipe) ' <<<"$out")"
	expect_line "estimated time" "^estimated time: " "$out"
	out=$(cd "$TOP" && SCHEDLAB_NCPU=1 "$SCHEDLAB" run -n quick)
	expect_match "quick, 1 CPU" '^# quick \(.*\): 9 cases' "$(head -n 1 <<<"$out")"
	[ ! -e "$SCHEDLAB_DB" ] || fail "--dry-run created $SCHEDLAB_DB"
}

# SCHEDLAB_DB is the database when there is no --db.
test_run_uses_schedlab_db() {
	use_tmpdir
	small_job "$tmp/small.job"
	run_sl run "$tmp/small.job" -q
	expect_eq "exit status" 0 "$rc"
	expect_eq "runs in SCHEDLAB_DB" 1 "$(nruns "$SCHEDLAB_DB")"
	run_sl list runs
	expect_eq "list runs without --db" 2 "$(nlines "$out")"
	run_sl show 1
	expect_eq "show without --db" 0 "$rc"
}

# export | import into another database | export gives the same bytes.
test_export_import_round_trip() {
	local first second

	use_tmpdir
	small_job "$tmp/small.job"
	run_sl run "$tmp/small.job" --db "$tmp/a.db" -q --label rt
	expect_eq "run" 0 "$rc"
	first=$("$SCHEDLAB" export rt --db "$tmp/a.db")
	"$SCHEDLAB" export rt --db "$tmp/a.db" >"$tmp/first.json"
	run_sl import - --db "$tmp/b.db" <"$tmp/first.json"
	expect_eq "import exit status" 0 "$rc"
	expect_eq "import says" "imported run 1 (rt) into $tmp/b.db" "$out"
	expect_eq "import stderr" "" "$err"
	"$SCHEDLAB" export 1 --db "$tmp/b.db" >"$tmp/second.json"
	cmp "$tmp/first.json" "$tmp/second.json" || fail "export -> import -> export changed the document"
	second=$("$SCHEDLAB" export rt --db "$tmp/b.db")
	expect_eq "by label" "$first" "$second"
	# and list says the same of both
	expect_eq "list" "$("$SCHEDLAB" list runs --db "$tmp/a.db" | tail -n 1 | cut -c1-60)" \
		"$("$SCHEDLAB" list runs --db "$tmp/b.db" | tail -n 1 | cut -c1-60)"

	# once only: the same uuid is refused, and nothing changes
	run_sl import "$tmp/first.json" --db "$tmp/b.db"
	expect_eq "second import: exit status" 2 "$rc"
	expect_eq "second import: stderr lines" 1 "$(nlines "$err")"
	expect_match "second import: message" "^schedlab: $tmp/first.json: run [0-9a-f-]+ is already in $tmp/b.db as run 1$" "$err"
	expect_eq "runs after the second import" 1 "$(nruns "$tmp/b.db")"
}

# export -o FILE writes FILE and nothing else.
test_export_to_file() {
	use_tmpdir
	small_job "$tmp/small.job"
	"$SCHEDLAB" run "$tmp/small.job" --db "$tmp/r.db" -q || fail "run failed"
	mkdir "$tmp/out"
	run_sl export 1 --db "$tmp/r.db" -o "$tmp/out/run.json"
	expect_eq "exit status" 0 "$rc"
	expect_eq "stdout" "" "$out"
	expect_eq "stderr" "" "$err"
	expect_eq "files" "run.json" "$(ls -A "$tmp/out")"
	cmp "$tmp/out/run.json" <("$SCHEDLAB" export 1 --db "$tmp/r.db") || fail "export -o differs from export"
	# replaced whole
	echo stale >"$tmp/out/run.json"
	run_sl export 1 --db "$tmp/r.db" -o "$tmp/out/run.json"
	expect_eq "second export exit status" 0 "$rc"
	cmp "$tmp/out/run.json" <("$SCHEDLAB" export 1 --db "$tmp/r.db") || fail "export -o did not replace the file"
	expect_eq "files after the second" "run.json" "$(ls -A "$tmp/out")"
	run_sl export 1 --db "$tmp/r.db" -o "$tmp/nodir/run.json"
	expect_eq "export into a missing directory" 2 "$rc"
	expect_eq "stderr lines" 1 "$(nlines "$err")"
	[ ! -e "$tmp/nodir" ] || fail "export created $tmp/nodir"
}

# A document above the import size limit is refused before it is parsed,
# from a file or from standard input; the limit is settable (issue 12,
# "Deliver 5": 200 MB took 750 MB of memory).
test_import_size_limit() {
	local size

	use_tmpdir
	printf '[j]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/j.job"
	"$SCHEDLAB" run -q "$tmp/j.job" --db "$tmp/r.db" || fail "the run failed"
	"$SCHEDLAB" export 1 --db "$tmp/r.db" >"$tmp/run.json"
	size=$(stat -c %s "$tmp/run.json")
	SCHEDLAB_IMPORT_MAX=1K run_sl import "$tmp/run.json" --db "$tmp/new.db"
	expect_eq "file above SCHEDLAB_IMPORT_MAX: exit status" 2 "$rc"
	expect_eq "stderr lines ($err)" 1 "$(nlines "$err")"
	expect_match "message" "$tmp/run\\.json: $size bytes, above the import limit of 1024 bytes \\(SCHEDLAB_IMPORT_MAX\\)" "$err"
	[ ! -e "$tmp/new.db" ] || fail "the database was created"
	SCHEDLAB_IMPORT_MAX=1K run_sl import - --db "$tmp/new.db" < <(cat "$tmp/run.json")
	expect_eq "stdin above the limit: exit status" 2 "$rc"
	expect_match "stdin: message" "^schedlab: stdin: more than 1024 bytes, above the import limit" "$err"
	run_sl import "$tmp/run.json" --db "$tmp/new.db" --max-size 1K
	expect_eq "--max-size: exit status" 2 "$rc"
	expect_match "--max-size: message" "above the import limit of 1024 bytes \\(--max-size\\)" "$err"
	SCHEDLAB_IMPORT_MAX=1K run_sl show "$tmp/run.json"
	expect_eq "show FILE above the limit: exit status" 2 "$rc"
	# at or above its size it is imported, stdin too
	SCHEDLAB_IMPORT_MAX=$size run_sl import - --db "$tmp/new.db" < <(cat "$tmp/run.json")
	expect_eq "at the limit: exit status ($err)" 0 "$rc"
	run_sl import "$tmp/run.json" --db "$tmp/new2.db" --max-size 1M
	expect_eq "--max-size 1M: exit status ($err)" 0 "$rc"
	# bad limits
	for v in 0 x 1Q -5 2T; do
		SCHEDLAB_IMPORT_MAX=$v run_sl import "$tmp/run.json" --db "$tmp/new3.db"
		expect_eq "SCHEDLAB_IMPORT_MAX=$v: exit status" 2 "$rc"
		expect_match "SCHEDLAB_IMPORT_MAX=$v: message" "SCHEDLAB_IMPORT_MAX: '$v' is not a size from 1 byte to 1T \\(as 256M, 4096, 1G\\)" "$err"
		run_sl import "$tmp/run.json" --db "$tmp/new3.db" --max-size "$v"
		expect_eq "--max-size $v: exit status" 2 "$rc"
		expect_match "--max-size $v: message" "max-size: '$v' is not a size" "$err"
	done
	[ ! -e "$tmp/new3.db" ] || fail "a refused limit created the database"
}

# A document that is not a whole, valid export is refused with one line
# naming the file, and the database is left as it was.
test_import_rejects_bad_documents() {
	local good f

	use_tmpdir
	small_job "$tmp/small.job"
	"$SCHEDLAB" run "$tmp/small.job" --db "$tmp/a.db" -q || fail "run failed"
	good=$tmp/good.json
	"$SCHEDLAB" export 1 --db "$tmp/a.db" >"$good"
	"$SCHEDLAB" import "$good" --db "$tmp/b.db" >/dev/null || fail "import failed"
	expect_eq "runs before" 1 "$(nruns "$tmp/b.db")"

	# each gets a new uuid, so only the fault can refuse it
	head -c "$(($(wc -c <"$good") / 2))" "$good" >"$tmp/truncated.json"
	echo 'this is not JSON' >"$tmp/notjson.json"
	echo '{"hello": "world"}' >"$tmp/notexport.json"
	jq '.run.uuid = "11111111-2222-4333-8444-555555555555" |
	    .cases[0].samples["messaging.time"] |= .[0:2]' "$good" >"$tmp/shortsamples.json"
	jq '.run.uuid = "11111111-2222-4333-8444-555555555556" |
	    .cases[1].samples["messaging.time"] += [1.0]' "$good" >"$tmp/longsamples.json"
	jq '.run.uuid = "11111111-2222-4333-8444-555555555557" |
	    .cases[2].samples["wakeup.p99_us"] = [1, 2, 3]' "$good" >"$tmp/nometric.json"
	jq '.run.uuid = "11111111-2222-4333-8444-555555555558" | .run.status = "done"' "$good" >"$tmp/badstatus.json"
	jq '.run.uuid = "11111111-2222-4333-8444-555555555559" | .cases[1].seq = .cases[0].seq' "$good" >"$tmp/dupseq.json"
	jq '.run.uuid = "11111111-2222-4333-8444-55555555555a" | .schema = "schedlab-run/2"' "$good" >"$tmp/schema2.json"
	jq '.run.uuid = "11111111-2222-4333-8444-55555555555b" | .cases[0].samples["messaging.time"][1] = "x"' "$good" >"$tmp/stringsample.json"

	for f in truncated notjson notexport shortsamples longsamples nometric badstatus dupseq schema2 stringsample; do
		run_sl import "$tmp/$f.json" --db "$tmp/b.db"
		expect_eq "$f: exit status" 2 "$rc"
		expect_eq "$f: stdout" "" "$out"
		expect_eq "$f: stderr lines" 1 "$(nlines "$err")"
		expect_match "$f: names the file" "^schedlab: $tmp/$f\\.json:" "$err"
		expect_eq "$f: runs after" 1 "$(nruns "$tmp/b.db")"
		# nor is a database made for it
		run_sl import "$tmp/$f.json" --db "$tmp/new.db"
		expect_eq "$f: exit status, new database" 2 "$rc"
		[ ! -e "$tmp/new.db" ] || fail "$f: a refused import created $tmp/new.db"
	done
	expect_match "truncated: line and column" "^schedlab: $tmp/truncated\\.json:[0-9]+:[0-9]+: " \
		"$("$SCHEDLAB" import "$tmp/truncated.json" --db "$tmp/b.db" 2>&1)"
	expect_match "short samples: the path" "cases\\[0\\]\\.samples\\.messaging\\.time: 2 values for 3 iterations" \
		"$("$SCHEDLAB" import "$tmp/shortsamples.json" --db "$tmp/b.db" 2>&1)"
	expect_match "not an export" 'not a schedlab export' \
		"$("$SCHEDLAB" import "$tmp/notexport.json" --db "$tmp/b.db" 2>&1)"
	run_sl import "$tmp/missing.json" --db "$tmp/b.db"
	expect_eq "missing file: exit status" 2 "$rc"
	expect_match "missing file: message" "^schedlab: $tmp/missing\\.json: " "$err"
	# a refused import leaves the database exactly as it was
	cmp <("$SCHEDLAB" export 1 --db "$tmp/b.db") "$good" || fail "the stored run changed"
}

# import holds a document to the rules `run` writes by (issue 29, item
# 10): a uuid, a label that is not empty, a host as --host takes it,
# times from 1970 to 9999, job names as job files have them, workloads
# this schedlab has, an A/B link of a uuid and a variant name. Each is
# refused with one message naming the file, the member and what is
# accepted; nothing is stored. show and compare of the file refuse it
# too.
test_import_refuses_what_run_could_not_write() {
	local good f n=0 msg

	use_tmpdir
	printf '[j]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/j.job"
	"$SCHEDLAB" run -q "$tmp/j.job" --db "$tmp/a.db" || fail "the run failed"
	good=$tmp/good.json
	"$SCHEDLAB" export 1 --db "$tmp/a.db" >"$good"
	while IFS='#' read -r f filter msg; do
		n=$((n + 1))
		# each its own uuid, so that only the fault can refuse it
		jq --arg u "11111111-2222-4333-8444-5555555555$(printf %02x $n)" \
			".run.uuid = \$u | $filter" "$good" >"$tmp/$f.json"
		run_sl import "$tmp/$f.json" --db "$tmp/b.db"
		expect_eq "$f: exit status" 2 "$rc"
		expect_eq "$f: stdout" "" "$out"
		expect_eq "$f: message" "schedlab: $tmp/$f.json: $msg" "$err"
		# read from the file, it is refused alike
		run_sl show "$tmp/$f.json"
		expect_eq "show $f: exit status" 2 "$rc"
		expect_eq "show $f: message" "schedlab: $tmp/$f.json: $msg" "$err"
		run_sl compare "$good" "$tmp/$f.json"
		expect_eq "compare $f: exit status" 2 "$rc"
		expect_eq "compare $f: stdout" "" "$out"
	done <<'EOF_CASES'
sqluuid#.run.uuid = "'; DROP TABLE runs; --"#run.uuid: ''; DROP TABLE runs; --' is not a uuid (8-4-4-4-12 lowercase hex digits)
upperuuid#.run.uuid = "11111111-2222-4333-8444-55555555555A"#run.uuid: '11111111-2222-4333-8444-55555555555A' is not a uuid (8-4-4-4-12 lowercase hex digits)
emptylabel#.run.label = ""#run.label: empty (expected text or null)
hostnl#.run.host = "a\nb"#run.host: 'a\nb' is not a host name (1 to 255 characters, no blank or '/') or null
hostslash#.run.host = "../x"#run.host: '../x' is not a host name (1 to 255 characters, no blank or '/') or null
early#.run.started = -1e18#run.started: -1e+18 is not a time schedlab writes (seconds since 1970 from 0 to 253402300799, the end of 9999)
late#.run.ended = 1e300#run.ended: 1.0000000000000001e+300 is not a time schedlab writes (seconds since 1970 from 0 to 253402300799, the end of 9999)
jobangle#.cases[0].job = "<script>"#cases[0].job: '<script>' is not a job name (1 to 64 letters, digits, '.', '_', '-' or '+'; not global)
jobdots#.cases[0].job = "../etc"#cases[0].job: '../etc' is not a job name (1 to 64 letters, digits, '.', '_', '-' or '+'; not global)
jobglobal#.cases[0].job = "global"#cases[0].job: 'global' is not a job name (1 to 64 letters, digits, '.', '_', '-' or '+'; not global)
nowl#.cases[0].workload = "nosuch"#cases[0].workload: 'nosuch' is not a workload of this schedlab (schedlab list workloads)
abnotuuid#.run.ab = "x" | .run.variant = "base"#run.ab: 'x' is not an A/B run's uuid (8-4-4-4-12 lowercase hex digits) or null
badvariant#.run.ab = "11111111-2222-4333-8444-000000000000" | .run.variant = "a b"#run.variant: 'a b' is not a variant name (up to 32 letters, digits, '_', '-', '.' or '+') or null
EOF_CASES
	[ ! -e "$tmp/b.db" ] || fail "a refused import created $tmp/b.db"
	# what run can write is still taken: a label with a tab, a variant
	jq '.run.label = "odd\tlabel" | .run.ab = "11111111-2222-4333-8444-000000000000" |
	    .run.variant = "base"' "$good" >"$tmp/ok.json"
	run_sl import "$tmp/ok.json" --db "$tmp/b.db"
	expect_eq "a good one: exit status ($err)" 0 "$rc"
}

# A file that is not a schedlab database is refused, unchanged; so is a
# database whose directory cannot be made.
test_run_database_faults() {
	local sum

	use_tmpdir
	small_job "$tmp/small.job"
	head -c 4096 /dev/urandom >"$tmp/garbage.db"
	sum=$(md5sum <"$tmp/garbage.db")
	run_sl run "$tmp/small.job" --db "$tmp/garbage.db"
	expect_eq "garbage: exit status" 2 "$rc"
	expect_eq "garbage: stderr" "schedlab: $tmp/garbage.db: not a schedlab database (file is not a database)" "$err"
	expect_eq "garbage: stdout" "" "$out"
	expect_eq "garbage: unchanged" "$sum" "$(md5sum <"$tmp/garbage.db")"
	expect_eq "garbage: no -wal or -shm" "garbage.db small.job tmpdir" "$(ls "$tmp" | tr '\n' ' ' | sed 's/ $//')"
	for cmd in "list runs" "show 1" "export 1"; do
		# shellcheck disable=SC2086
		run_sl $cmd --db "$tmp/garbage.db"
		expect_eq "$cmd on garbage: exit status" 2 "$rc"
		expect_eq "$cmd on garbage: stderr lines" 1 "$(nlines "$err")"
		expect_match "$cmd on garbage: names the file" "^schedlab: $tmp/garbage\\.db: " "$err"
	done
	run_sl import - --db "$tmp/garbage.db" <<<'{}'
	expect_eq "import a bad document into garbage" 2 "$rc"
	expect_eq "garbage: still unchanged" "$sum" "$(md5sum <"$tmp/garbage.db")"

	# the directory of the database cannot be made: a file is in its way
	touch "$tmp/afile"
	run_sl run "$tmp/small.job" --db "$tmp/afile/sub/r.db"
	expect_eq "uncreatable directory: exit status" 2 "$rc"
	expect_eq "uncreatable directory: stderr lines" 1 "$(nlines "$err")"
	expect_match "uncreatable directory: message" "^schedlab: $tmp/afile/sub/r\\.db: cannot create directory $tmp/afile/sub: Not a directory$" "$err"
	# a directory as the database
	run_sl run "$tmp/small.job" --db "$tmp"
	expect_eq "a directory: exit status" 2 "$rc"
	expect_eq "a directory: stderr lines" 1 "$(nlines "$err")"
	# missing directories are made
	run_sl run "$tmp/small.job" --db "$tmp/new/dir/r.db" -q
	expect_eq "missing directories: exit status" 0 "$rc"
	expect_eq "missing directories: runs" 1 "$(nruns "$tmp/new/dir/r.db")"
	expect_no_leftovers
}

# read_only_checks DB WHY: the readers read DB (list runs, show and
# export agree on run 1 and its 3 cases) and run refuses to write it,
# in one line saying WHY, before running anything; DB is unchanged.
read_only_checks() {
	local db=$1 why=$2 sum
	sum=$(md5sum <"$db")
	run_sl list runs --db "$db"
	expect_eq "list runs: exit status ($err)" 0 "$rc"
	expect_line "list runs: the run" "^ +1  ro " "$out"
	run_sl show 1 --db "$db" --format json
	expect_eq "show: exit status ($err)" 0 "$rc"
	expect_eq "show: the label" ro "$(jval "$out" .run.label)"
	run_sl export 1 --db "$db"
	expect_eq "export: exit status ($err)" 0 "$rc"
	expect_eq "export: cases" 3 "$(jval "$out" '.cases | length')"
	run_sl run "$tmp/marker.job" --db "$db" -q
	expect_eq "run: exit status" 2 "$rc"
	expect_eq "run: stderr lines" 1 "$(nlines "$err")"
	expect_eq "run: message" "schedlab: $db: cannot write the database ($why)" "$err"
	[ ! -e "$tmp/marker" ] || fail "run started a workload on a database it cannot write"
	expect_eq "unchanged" "$sum" "$(md5sum <"$db")"
}

# marker_job FILE: one command case that leaves $tmp/marker behind.
marker_job() {
	printf '[m]\nworkload = command\nargv = touch %s/marker\niterations = 1\n' \
		"$tmp" >"$1"
}

# Issue 12, defect 7: a database in a read-only directory (for a user
# who may not write there) or on a read-only filesystem can be read, and
# run says why it cannot write it - not "No such file or directory".
test_run_read_only_database() {
	local nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	use_tmpdir
	[ "$(id -u)" = 0 ] || skip "needs root (a read-only mount, another user)"
	small_job "$tmp/small.job"
	marker_job "$tmp/marker.job"
	mkdir "$tmp/dir"
	run_sl run "$tmp/small.job" --db "$tmp/dir/r.db" --label ro -q
	expect_eq "the run to read: exit status ($err)" 0 "$rc"

	# a read-only directory, read by nobody
	chmod 755 "$tmp"
	chmod 555 "$tmp/dir"
	chmod 444 "$tmp/dir/r.db"
	"${nobody[@]}" true 2>/dev/null || skip "setpriv cannot become nobody here"
	"${nobody[@]}" test -x "$SCHEDLAB" || skip "nobody cannot run $SCHEDLAB"
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${nobody[*]}" "$SCHEDLAB" >"$tmp/as-nobody"
	chmod 755 "$tmp/as-nobody"
	SCHEDLAB=$tmp/as-nobody read_only_checks "$tmp/dir/r.db" "Permission denied"
	expect_eq "read-only directory: no -wal or -shm" "r.db" "$(ls "$tmp/dir")"

	# a read-only filesystem
	mkdir "$tmp/mnt"
	mount -t tmpfs -o size=4m tmpfs "$tmp/mnt" 2>/dev/null ||
		skip "cannot mount a tmpfs here"
	# shellcheck disable=SC2064
	trap "umount '$tmp/mnt'; rm -rf '$tmp'" EXIT
	cp "$tmp/dir/r.db" "$tmp/mnt/r.db"
	mount -o remount,ro "$tmp/mnt" || skip "cannot remount a tmpfs read-only"
	read_only_checks "$tmp/mnt/r.db" "Read-only file system"
}

# Issue 12, defects 14 and 12: a damaged page is found before a run
# starts (quick_check): run and judge refuse in one line before any
# workload process starts, and list runs exits 2 (not 1) on it.
test_run_corrupt_database_refused() {
	local size runs_page
	use_tmpdir
	command -v sqlite3 >/dev/null || skip "no sqlite3"
	small_job "$tmp/small.job"
	marker_job "$tmp/marker.job"
	for i in 1 2 3 4 5 6; do
		run_sl run "$tmp/small.job" --db "$tmp/r.db" -q --iterations 20
		expect_eq "run $i: exit status ($err)" 0 "$rc"
	done
	# judge's baseline, kept where the damage cannot reach it
	"$SCHEDLAB" export 1 --db "$tmp/r.db" -o "$tmp/base.json" || fail "export"
	size=$(stat -c %s "$tmp/r.db")
	runs_page=$(sqlite3 "$tmp/r.db" "SELECT rootpage FROM sqlite_master WHERE name = 'runs'")
	[ "$size" -ge $((16 * 4096)) ] || fail "the database is too small to damage its middle ($size bytes)"
	head -c 4096 /dev/zero | tr '\0' '\245' |
		dd of="$tmp/r.db" bs=4096 seek=$((size / 4096 / 2)) conv=notrunc status=none
	run_sl run "$tmp/marker.job" --db "$tmp/r.db"
	expect_eq "run: exit status" 2 "$rc"
	expect_eq "run: stderr lines" 1 "$(nlines "$err")"
	expect_match "run: message" "^schedlab: $tmp/r\\.db: the database is corrupt \\(quick_check: .+\\)$" "$err"
	expect_eq "run: stdout" "" "$out"
	[ ! -e "$tmp/marker" ] || fail "run started a workload before finding the database corrupt"
	# judge's run is refused as run's, with an exit status that stops
	# git bisect (abort) rather than count the commit good or bad
	run_sl judge --baseline "$tmp/base.json" "$tmp/marker.job" --db "$tmp/r.db"
	expect_eq "judge: exit status ($err)" 128 "$rc"
	expect_match "judge: message" "^schedlab: $tmp/r\\.db: the database is corrupt \\(quick_check: .+\\)$" "$err"
	[ ! -e "$tmp/marker" ] || fail "judge started a workload before finding the database corrupt"
	# list reads the runs table: a damaged page there is bad input
	head -c 4096 /dev/zero | tr '\0' '\245' |
		dd of="$tmp/r.db" bs=4096 seek=$((runs_page - 1)) conv=notrunc status=none
	run_sl list runs --db "$tmp/r.db"
	expect_eq "list runs: exit status ($err)" 2 "$rc"
	expect_eq "list runs: stderr lines" 1 "$(nlines "$err")"
	expect_match "list runs: names the file" "^schedlab: $tmp/r\\.db: " "$err"
}

# concurrent_runs DB: two runs of a 4-case job into DB at once; both
# exit 0 and both are stored whole.
concurrent_runs() {
	local db=$1 a b ra=0 rb=0 doc l

	"$SCHEDLAB" run "$tmp/c.job" --db "$db" -q --label A >"$tmp/a.out" 2>"$tmp/a.err" &
	a=$!
	"$SCHEDLAB" run "$tmp/c.job" --db "$db" -q --label B >"$tmp/b.out" 2>"$tmp/b.err" &
	b=$!
	wait "$a" || ra=$?
	wait "$b" || rb=$?
	expect_eq "run A: exit status ($(cat "$tmp/a.err"))" 0 "$ra"
	expect_eq "run B: exit status ($(cat "$tmp/b.err"))" 0 "$rb"
	for l in A B; do
		doc=$("$SCHEDLAB" export "$l" --db "$db") || fail "no run $l"
		expect_eq "run $l: status" complete "$(jval "$doc" .run.status)"
		expect_eq "run $l: cases" "complete complete complete complete" "$(jq -r '[.cases[].status] | join(" ")' <<<"$doc")"
		expect_eq "run $l: sample arrays" "3" "$(jq -r '[.cases[].samples[] | length] | unique | map(tostring) | join(",")' <<<"$doc")"
		expect_eq "run $l: iterations" "3" "$(jq -r '[.cases[].iterations] | unique | map(tostring) | join(",")' <<<"$doc")"
	done
}

concurrent_job() {
	cat >"$tmp/c.job" <<'EOF'
[global]
iterations = 3

[m]
workload = messaging
groups = 1,2,3
fds = 2
loops = 10

[p]
workload = pipe
loops = 1000
EOF
}

# Two runs writing one existing database queue for it; both are whole.
test_run_concurrent_existing_database() {
	use_tmpdir
	concurrent_job
	printf '[p]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/one.job"
	"$SCHEDLAB" run "$tmp/one.job" --db "$tmp/r.db" -q || fail "first run failed"
	concurrent_runs "$tmp/r.db"
	expect_eq "runs" 3 "$(nruns "$tmp/r.db")"
}

# The same with a database neither finds: both create and migrate it
# (doc/store.md: the second waits, then finds it migrated). A few rounds,
# as the race is the first moments of each.
test_run_concurrent_new_database() {
	local i

	use_tmpdir
	concurrent_job
	for i in 1 2 3 4 5; do
		concurrent_runs "$tmp/r$i.db"
		expect_eq "round $i: runs" 2 "$(nruns "$tmp/r$i.db")"
	done
}

# SIGINT in the second case: exit 130, the first case kept, the run
# partial, nothing left running.
test_run_interrupted_keeps_finished_cases() {
	local doc

	use_tmpdir
	cat >"$tmp/i.job" <<'EOF'
[global]
iterations = 2

[first]
workload = pipe
loops = 1000

[second]
workload = messaging
groups = 1
fds = 2
loops = 1000000000
timeout = 60

[third]
workload = pipe
loops = 1000
EOF
	start_sl run "$tmp/i.job" --db "$tmp/r.db"
	wait_workers 4		# the pipe case has two workers: this is the second
	wait_started
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "exit status" 130 "$rc"
	expect_line "stderr" "^schedlab: run: interrupted; the 1 finished cases? (are|is) kept$" "$err"
	expect_match "last line" "^run 1 \(.*\): partial, 1 of 3 cases complete, stored in $tmp/r.db$" "$(tail -n 1 <<<"$out")"
	expect_group_empty "$wl_pid"
	expect_no_leftovers
	doc=$("$SCHEDLAB" export 1 --db "$tmp/r.db")
	expect_eq "run status" partial "$(jval "$doc" .run.status)"
	expect_eq "cases" "1 first complete 2" "$(jq -r '.cases[] | "\(.seq) \(.job) \(.status) \(.iterations)"' <<<"$doc")"
	jq -e '.run.ended != null' <<<"$doc" >/dev/null || fail "no end time"
	expect_match "list" " partial +1 +[0-9]+  [^ ]+$" "$("$SCHEDLAB" list runs --db "$tmp/r.db" | tail -n 1)"
}

# Progress goes to a terminal, and only to a terminal.
test_run_progress_only_on_terminal() {
	local tty

	use_tmpdir
	cat >"$tmp/p.job" <<'EOF'
[global]
iterations = 2
warmup = 1

[msg]
workload = messaging
probes = on
groups = 1,2
fds = 2
loops = 10

[pp]
workload = pipe
loops = 1000
EOF
	run_sl run "$tmp/p.job" --db "$tmp/r.db" --tables
	expect_eq "exit status" 0 "$rc"
	expect_eq "no progress to a file" "" "$(unwarned "$err")"
	[[ $err != *$'\r'* && $err != *$'\e'* ]] || fail "control characters on stderr: $(cat -v <<<"$err")"
	[[ $out != *$'\r'* && $out != *$'\e'* && $out != *iteration* ]] || fail "progress on stdout: $(cat -v <<<"$out")"

	command -v script >/dev/null ||
		skip "no script(1) to give stderr a terminal (the file half passed)"
	tty=$(script -qec "'$SCHEDLAB' run '$tmp/p.job' --db '$tmp/r.db' --tables >'$tmp/out'" /dev/null </dev/null) ||
		fail "run on a terminal failed: $tty"
	expect_match "progress, first case" '\[1/3\] msg 1: iteration 1/2' "$tty"
	expect_match "progress, warm-up" '\[1/3\] msg 1: warm-up 1/1' "$tty"
	expect_match "progress, last case" '\[3/3\] pp: iteration 2/2, [0-9]+:[0-9]{2} elapsed' "$tty"
	expect_match "progress, time left" 'elapsed, ~[0-9]+:[0-9]{2} left' "$tty"
	out=$(cat "$tmp/out")
	[[ $out != *$'\r'* && $out != *$'\e'* && $out != *iteration* ]] || fail "progress on stdout: $(cat -v <<<"$out")"
	expect_match "summary on stdout" "^msg by groups: " "$out"

	# -q: none on a terminal either
	tty=$(script -qec "'$SCHEDLAB' run -q '$tmp/p.job' --db '$tmp/r.db'" /dev/null </dev/null) ||
		fail "quiet run on a terminal failed: $tty"
	[[ ! $tty =~ iteration\ [0-9]+/ ]] || fail "progress with -q: $(cat -v <<<"$tty")"
}

test_list_suites_and_runs() {
	use_tmpdir
	mkdir "$tmp/jobs"
	printf '; my own suite\n[p]\nworkload = pipe\nloops = 100\n' >"$tmp/jobs/mine.job"
	out=$(cd "$TOP" && SCHEDLAB_JOBS=$tmp/jobs "$SCHEDLAB" list suites)
	expect_line "quick" "^ +quick +The default suite" "$out"
	expect_line "lkml-hackbench" "^ +lkml-hackbench +[^ ]" "$out"
	expect_line "SCHEDLAB_JOBS" "^ +mine +my own suite$" "$out"
	out=$(SCHEDLAB_JOBS=$tmp/jobs "$SCHEDLAB" run -n mine --db "$tmp/r.db")
	expect_match "a suite from SCHEDLAB_JOBS" "^# mine \($tmp/jobs/mine\\.job\): 1 case, " "$out"

	run_sl list runs --db "$tmp/missing.db"
	expect_eq "no database: exit status" 0 "$rc"
	expect_eq "no database: stdout" "" "$out"
	expect_match "no database: says so" "no runs" "$err"
	[ ! -e "$tmp/missing.db" ] || fail "list runs created the database"

	run_sl list bogus
	expect_eq "list bogus: exit status" 2 "$rc"
	expect_eq "list bogus: stderr lines" 1 "$(nlines "$err")"
	expect_match "list bogus: message" "bogus" "$err"
	expect_eq "list bogus: stdout" "" "$out"

	run_sl list workloads
	expect_line "workloads" "^messaging " "$out"
	expect_line "workloads" "^pipe " "$out"
}

# no_control NAME TEXT: TEXT holds no control character but newlines.
no_control() {
	if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' <<<"$2"; then
		fail "$1: a control character is printed raw: $(od -c <<<"$2" | head -n 5)"
	fi
}

# A label, a job name and a tool's output with escape sequences in them
# are printed escaped by the text formats, as stored in JSON (issue 12,
# "Deliver 5"); the label is not changed where it is stored.
test_text_output_escapes_control_characters() {
	local label=$'evil\e[2J\e]0;title\a-1'

	use_tmpdir
	printf '[j]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/e.job"
	run_sl run "$tmp/e.job" --label "$label" --db "$tmp/r.db"
	expect_eq "run: exit status ($err)" 0 "$rc"
	no_control "run: stdout" "$out"
	expect_match "run: the label escaped" 'evil\\x1b\[2J\\x1b\]0;title\\x07-1' "$out"
	run_sl list runs --db "$tmp/r.db"
	no_control "list runs" "$out"
	expect_match "list runs: the label escaped" 'evil\\x1b\[2J' "$out"
	run_sl show 1 --db "$tmp/r.db"
	expect_eq "show: exit status ($err)" 0 "$rc"
	no_control "show" "$out"
	expect_line "show: the label escaped" '^run +evil\\x1b\[2J\\x1b\]0;title\\x07-1$' "$out"
	run_sl show 1 --db "$tmp/r.db" --format json
	expect_eq "json: the label as given" "$label" "$(jval "$out" .run.label)"
	run_sl compare 1 1 --db "$tmp/r.db"
	no_control "compare" "$out$err"
	run_sl show "$label-nothere" --db "$tmp/r.db"
	expect_eq "unknown label: exit status" 2 "$rc"
	no_control "unknown label: message" "$err"
	expect_match "unknown label: named escaped" 'evil\\x1b\[2J' "$err"
	# a tool's last line, quoted in the failure message
	run_sl bench command -- sh -c 'printf "\033[2Jboom\n"; exit 3'
	expect_eq "command: exit status" 1 "$rc"
	no_control "command: message" "$err"
	expect_match "command: its line escaped" "its last line: '\\\\x1b\\[2Jboom'" "$err"
}

# bench -r N: N results, then each metric's mean +- standard error.
test_bench_repeat() {
	run_sl bench -r 3 messaging -g 1 -f 2 -l 10
	expect_eq "exit status" 0 "$rc"
	expect_eq "Time lines" 3 "$(grep -cE '^Time: [0-9]+\.[0-9]+$' <<<"$out")"
	expect_line "footer: time" "^ +[0-9.]+ \+- [0-9.]+ s messaging\.time +\( \+- +[0-9.]+% \)" "$out"
	expect_line "footer: runs" "^ 3 runs; " "$out"

	run_sl bench -r 3 messaging -g 1 -f 2 -l 10 --format json
	expect_eq "json: exit status" 0 "$rc"
	expect_eq "json: runs" 3 "$(jval "$out" .runs)"
	expect_eq "json: samples per metric" 3 "$(jq -r '[.metrics[].samples | length] | unique | map(tostring) | join(",")' <<<"$out")"
	approx "json: mean of the samples" "$(jq '.metrics["messaging.time"].samples | add / length' <<<"$out")" \
		"$(jval "$out" '.metrics["messaging.time"].value')" 1e-9

	run_sl bench -r 0 messaging -g 1 -f 2 -l 10
	expect_eq "-r 0: exit status" 2 "$rc"
	expect_eq "-r 0: stderr lines" 1 "$(nlines "$err")"
	expect_eq "-r 0: stdout" "" "$out"
	expect_no_leftovers
}

# The command line stored with a run splits back into the words that
# were run, a quote and a blank in them included: run's and judge's
# (argv_join()).
test_run_command_recorded() {
	use_tmpdir
	local job="$tmp/my dir/it's.job" want
	mkdir "$tmp/my dir"
	printf '[p]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$job"
	"$SCHEDLAB" run -q "$job" --label 'base line' --db "$tmp/r.db" ||
		fail "run failed"
	want="schedlab run -q '$tmp/my dir/it'\\''s.job' --label 'base line' --db $tmp/r.db"
	expect_eq "run's command" "$want" \
		"$("$SCHEDLAB" export 'base line' --db "$tmp/r.db" | jq -r .run.command)"
	set +e
	"$SCHEDLAB" judge --baseline 'base line' "$job" --label cand --db "$tmp/r.db" >/dev/null 2>&1
	set -e
	want="schedlab judge --baseline 'base line' '$tmp/my dir/it'\\''s.job' --label cand --db $tmp/r.db"
	expect_eq "judge's command" "$want" \
		"$("$SCHEDLAB" export cand --db "$tmp/r.db" | jq -r .run.command)"
}

# schedlab killed outright mid-run leaves its run "running" with nobody
# to end it: list and show say abandoned (the writer's pid is gone on
# this boot), and the next writer marks it so, with an end time; the
# export carries the status (issue 12, defect 3).
test_run_killed_is_abandoned() {
	use_tmpdir
	printf '[long]\nworkload = messaging\ngroups = 1\nfds = 2\nloops = 1000000000\ntimeout = 60\niterations = 1\n' >"$tmp/long.job"
	start_sl run "$tmp/long.job" --db "$tmp/r.db" -q
	wait_workers 4
	kill -KILL "$sl_pid"
	finish_sl
	expect_eq "exit status" 137 "$rc"
	wait_gone 10 || fail "workers outlived schedlab"
	expect_eq "stored" "running|0" "$(sqlite3 "$tmp/r.db" 'SELECT status, ended IS NOT NULL FROM runs WHERE id = 1')"
	run_sl show 1 --db "$tmp/r.db" --format json
	expect_eq "show: status" abandoned "$(jval "$out" .run.status)"
	run_sl list runs --db "$tmp/r.db"
	expect_match "list runs" " abandoned +0 +0  [^ ]+\$" "$(tail -n 1 <<<"$out")"
	expect_eq "readers change nothing" running "$(sqlite3 "$tmp/r.db" 'SELECT status FROM runs WHERE id = 1')"
	small_job "$tmp/small.job"
	run_sl run "$tmp/small.job" --db "$tmp/r.db" -q
	expect_eq "next run" 0 "$rc"
	expect_eq "marked by the next writer" "abandoned|1" "$(sqlite3 "$tmp/r.db" 'SELECT status, ended >= started FROM runs WHERE id = 1')"
	"$SCHEDLAB" export 1 --db "$tmp/r.db" -o "$tmp/e.json"
	run_sl import "$tmp/e.json" --db "$tmp/other.db"
	expect_eq "import of an abandoned run" 0 "$rc"
	expect_eq "imported status" abandoned "$(sqlite3 "$tmp/other.db" 'SELECT status FROM runs')"
}

# Ctrl-C during `export -o FILE` (here while its write is held up by
# strace) leaves FILE whole or absent, never FILE.tmp.PID (defect 9).
test_export_interrupted_leaves_no_tmp() {
	local spid pid tries=0 erc=0

	command -v strace >/dev/null || skip "no strace"
	use_tmpdir
	small_job "$tmp/small.job"
	"$SCHEDLAB" run "$tmp/small.job" --db "$tmp/r.db" -q
	env --default-signal=INT strace -f -qq -o /dev/null -e trace=write \
		-e inject=write:delay_exit=1500000 \
		"$SCHEDLAB" export 1 --db "$tmp/r.db" -o "$tmp/e.json" &
	spid=$!
	until compgen -G "$tmp/e.json.tmp.*" >/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt 200 ] || fail "export never made its temporary file"
		sleep 0.02
	done
	pid=$(tagged_pids)
	[ -n "$pid" ] || fail "no schedlab export process"
	kill -INT $pid
	wait "$spid" || erc=$?
	expect_eq "export's end" 130 "$erc"
	expect_eq "temporary files left" "" "$(compgen -G "$tmp/e.json.tmp.*" || true)"
	expect_eq "the export is whole" 1 "$(jq '.cases | length > 0' "$tmp/e.json" | grep -c true)"
}
