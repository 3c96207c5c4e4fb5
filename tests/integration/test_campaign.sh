# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab campaign: A/B across boots without a reboot. The "kernel" is
# a file the hook writes ($tmp/state) and the job's program reads (b
# sleeps 30x longer than a: no load flips it); a "boot" is the entry
# point, `campaign resume`, started again. Tiny runs (3 iterations);
# nothing asserts a timing.

# cjob: the job file (and $tmp); state b is 30x slower than a. $DB is
# the store (a SQLite file unless the test set it).
cjob() {
	[ -n "${tmp:-}" ] || use_tmpdir
	DB=${DB:-$tmp/r.db}
	cat >"$tmp/job.job" <<EOF
[global]
iterations = 3
warmup = 0

[spin]
workload = command
shell = true
argv = "if grep -qx b '$tmp/state' 2>/dev/null; then sleep 0.6; else sleep 0.02; fi"
EOF
}

# cstart NAME [OPTIONS]: a campaign of states a and b (both a with AA=1).
cstart() {
	cjob
	local name=$1 b=b
	shift
	[ "${AA:-}" = 1 ] && b=a
	run_sl campaign start "$name" "$tmp/job.job" --db "$DB" \
		--state "a:grep -qx a '$tmp/state'" \
		--state "b:grep -qx $b '$tmp/state'" \
		--hook "[ \"\$SCHEDLAB_STATE\" = b ] && echo $b >'$tmp/state' || echo a >'$tmp/state'" \
		--seed 7 "$@"
}

# boots: resume until the campaign ends (at most 40 "boots"; a resume
# killed with -9 is a boot that crashed: the next one goes on).
boots() {
	local i
	for i in $(seq 1 40); do
		run_sl campaign resume --db "$DB"
		[ "$rc" = 75 ] || [ "$rc" = 137 ] || return 0
	done
	fail "campaign still running after 40 resumes"
}

# every_boot_once NAME: each measured boot's run is stored complete, and
# the complete runs of the campaign are exactly those.
every_boot_once() {
	local doc want got
	local q="SELECT uuid FROM runs WHERE label LIKE '$1/%' AND status = 'complete'"
	doc=$("$SCHEDLAB" campaign status "$1" --db "$DB" --format json)
	want=$(jq -r '.boots[] | select(.phase == "done") | .uuid' <<<"$doc" | sort)
	if [ "$DB" = "${PGURL:-}" ]; then
		got=$(psql_t "$q" | sort)
	else
		got=$(sqlite3 "$DB" "$q" | sort)
	fi
	[ -n "$want" ] || fail "no boot measured"
	expect_eq "complete runs of campaign $1" "$want" "$got"
	expect_eq "boots measured twice" "" "$(uniq -d <<<"$want")"
}

test_campaign_ab_finds_a_large_effect() {
	cstart c1 --max-boots 12
	expect_eq "start's exit ($err)" 75 "$rc"
	boots
	expect_eq "exit at the end" 0 "$rc"
	expect_match "verdict" "regressed" "$out"
	# why compare of the same runs says more: the campaign's looks
	expect_match "the looks said" "the campaign looks at its runs up to [0-9]+ times, each at p < 0\.[0-9]+ - its 5% false-alarm rate shared among the looks" "$out"
	# and compare of the same runs says why it says more
	run_sl compare c1/a --all c1/b --all --db "$tmp/r.db"
	expect_match "compare's note ($err)" "note: c1/a's runs are campaign c1's: its own verdict looks at them up to [0-9]+ times" "$out"
	run_sl compare c1/a c1/b --db "$tmp/r.db" --format json
	[[ ! $out =~ "note: c1/a" ]] || fail "the note in compare's JSON: $out"
	doc=$("$SCHEDLAB" campaign status c1 --db "$tmp/r.db" --format json)
	expect_eq status finished "$(jval "$doc" .status)"
	expect_eq code 1 "$(jval "$doc" .code)"
	every_boot_once c1
	same_as_compare "$doc"
	expect_no_leftovers
}

# same_as_compare DOC: the campaign's last decision, made from what it
# knew after each boot (each run loaded once), reads the change that
# `compare A1+A2.. B1+B2..` of the same runs reads from the store.
same_as_compare() {
	local a b cmp want got
	a=$(jq -r '[.boots[] | select(.phase == "done" and .state == "a") | .uuid] | join("+")' <<<"$1")
	b=$(jq -r '[.boots[] | select(.phase == "done" and .state == "b") | .uuid] | join("+")' <<<"$1")
	cmp=$("$SCHEDLAB" compare "$a" "$b" --db "$DB" --format json) ||
		fail "compare of the campaign's runs failed"
	want=$(jq -r '.jobs[0].cases[0].runs[1] | "\(.change) (\(.runs[0]) and \(.runs[1]) runs)"' <<<"$cmp")
	got=$(jval "$1" .verdict | sed -n 's/.*, +\{0,1\}\([-0-9.]*\)% (\([0-9]* and [0-9]* runs\)).*/\1 (\2)/p')
	[ -n "$got" ] || fail "no change in the verdict: $(jval "$1" .verdict)"
	expect_eq "the campaign's change, as compare reads it" \
		"$(awk -v x="${want%% *}" 'BEGIN { printf "%.1f", x }') ${want#* }" "$got"
}

# A/A: the states alike. Its false-alarm rate (5% by design) is
# bench/'s to measure; here a 50% threshold, which no two runs of one
# sleep differ by, makes any change called a fault of the plumbing.
test_campaign_aa_calls_no_change() {
	AA=1 cstart c2 --max-boots 6 --threshold 50
	boots
	expect_eq "exit at the end" 0 "$rc"
	doc=$("$SCHEDLAB" campaign status c2 --db "$tmp/r.db" --format json)
	expect_eq status finished "$(jval "$doc" .status)"
	[[ $(jval "$doc" .verdict) != *regressed* && $(jval "$doc" .verdict) != *improved* ]] ||
		fail "A/A called a change: $(jval "$doc" .verdict)"
	every_boot_once c2
}

# A hook that kills its campaign once, as a reboot does, after moving
# the machine; a check that kills it once before the run.
test_campaign_resumes_after_kill_in_hook_and_check() {
	cjob
	run_sl campaign start c3 "$tmp/job.job" --db "$tmp/r.db" --seed 7 --max-boots 6 \
		--state "a:grep -qx a '$tmp/state' && { [ -e '$tmp/k2' ] || { touch '$tmp/k2'; kill -9 \$PPID; }; }" \
		--state "b:grep -qx b '$tmp/state'" \
		--hook "echo \$SCHEDLAB_STATE >'$tmp/state'; [ -e '$tmp/k1' ] || { touch '$tmp/k1'; kill -9 \$PPID; }"
	expect_eq "start killed by its hook" 137 "$rc"
	boots
	expect_eq "exit at the end" 0 "$rc"
	every_boot_once c3
	[ -e "$tmp/k1" ] && [ -e "$tmp/k2" ] || fail "the hook and check never killed it"
	expect_no_leftovers
}

# kill -9 mid-iteration (the job's program running) and at random
# moments: no run lost, none counted twice, nothing left running.
test_campaign_resumes_after_kill_mid_run() {
	local i
	cstart c4 --max-boots 8
	for i in 1 2 3 4; do
		start_sl campaign resume --db "$tmp/r.db"
		sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
		kill -9 "$sl_pid" 2>/dev/null || true
		finish_sl
		wait_gone 10 || fail "processes left after kill -9: $(tagged_pids)"
	done
	boots
	expect_eq "exit at the end ($err)" 0 "$rc"
	every_boot_once c4
	expect_no_leftovers
}

# The same in the fleet's PostgreSQL: the campaign's state and its runs
# in one database, a resume killed mid-run and one killed by its hook,
# the server restarted between two boots.
test_campaign_in_postgresql() {
	local i
	pg_start
	DB=$PGURL
	cstart p1 --max-boots 8
	expect_eq "start's exit ($err)" 75 "$rc"
	expect_eq "its row" p1 "$(psql_t "SELECT name FROM campaigns")"
	for i in 1 2; do
		start_sl campaign resume --db "$DB"
		sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
		kill -9 "$sl_pid" 2>/dev/null || true
		finish_sl
		wait_gone 10 || fail "processes left after kill -9: $(tagged_pids)"
	done
	pg_stop
	run_sl campaign resume --db "$DB"
	expect_eq "resume with the server down" 2 "$rc"
	expect_match "why" "cannot connect" "$err"
	pg_restart
	boots
	expect_eq "exit at the end ($err)" 0 "$rc"
	expect_match "verdict" "regressed" "$out"
	# an attempt a kill left unfinished is p1/STATE/discarded
	expect_eq "runs under p1's labels that did not complete" 0 \
		"$(psql_t "SELECT count(*) FROM runs WHERE label IN ('p1/a', 'p1/b') AND status != 'complete'")"
	run_sl campaign status p1 --db "$DB" --format json
	expect_eq "status ($err)" finished "$(jval "$out" .status)"
	expect_eq "the stored document" "$(jq -cS . <<<"$out")" \
		"$(psql_t "SELECT state FROM campaigns WHERE name = 'p1'" | jq -cS .)"
	every_boot_once p1
	run_sl campaign start p1 "$tmp/job.job" --db "$DB" --state a --state b --hook true
	expect_eq "a name taken" 2 "$rc"
	expect_no_leftovers
}

test_campaign_reports_a_boot_that_never_arrives() {
	cjob
	run_sl campaign start c5 "$tmp/job.job" --db "$tmp/r.db" --seed 7 \
		--state "a:grep -qx a '$tmp/state'" --state "b:false" \
		--hook "echo a >'$tmp/state'"
	boots
	expect_eq "exit" 1 "$rc"
	expect_match "message" "never reached state b" "$err"
	expect_eq status lost "$("$SCHEDLAB" campaign status c5 --db "$tmp/r.db" --format json | jq -r .status)"
	# a deadline passed: lost too
	run_sl campaign start c6 "$tmp/job.job" --db "$tmp/r.db" --deadline 1 \
		--state a --state b --hook true
	sleep 1.2
	run_sl campaign resume c6 --db "$tmp/r.db"
	expect_eq "exit past the deadline" 1 "$rc"
	expect_match "message" "did not come back within its deadline" "$err"
}

test_campaign_bad_input_exits_2() {
	cjob
	run_sl campaign start c7 "$tmp/job.job" --db "$tmp/r.db" --state a --hook true
	expect_eq "one state" 2 "$rc"
	expect_match "message" "2 to 16 states" "$err"
	expect_eq "one line" 1 "$(grep -c . <<<"$err")"
	run_sl campaign start c7 "$tmp/job.job" --db "$tmp/r.db" --state a --state b
	expect_eq "no hook" 2 "$rc"
	run_sl campaign start c7 "$tmp/nope.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "no job file" 2 "$rc"
	run_sl campaign start c7 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true --max-boots 1
	expect_eq "max-boots 1" 2 "$rc"
	expect_match "message" "max-boots" "$err"
	run_sl campaign start c7 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true --block 3
	expect_eq "--block without --design blocks" 2 "$rc"
	expect_match "message" "--design blocks" "$err"
	run_sl campaign start c7 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true --max-ref-boots 4
	expect_eq "--max-ref-boots on start" 2 "$rc"
	run_sl campaign resume nope --db "$tmp/r.db"
	expect_eq "unknown campaign" 2 "$rc"
	run_sl campaign frob
	expect_eq "unknown subcommand" 2 "$rc"
	run_sl campaign start c8 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "started" 75 "$rc"
	run_sl campaign start c8 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "a name taken" 2 "$rc"
	run_sl campaign abort c8 --db "$tmp/r.db"
	expect_eq "abort" 0 "$rc"
	run_sl campaign resume c8 --db "$tmp/r.db"
	expect_eq "resume of an aborted campaign" 1 "$rc"
}

# Resumed by hand on a terminal, a boot's run shows its progress line;
# from the unit (no terminal) nothing but the campaign's own lines.
test_campaign_progress_on_a_terminal() {
	local tty
	cstart c9 --max-boots 2
	expect_eq "start's exit ($err)" 75 "$rc"
	tty=$(script -qec "'$SCHEDLAB' campaign resume --db '$tmp/r.db'" /dev/null </dev/null) || true
	expect_match "the run's progress" '\[1/1\] spin: iteration 1/3' "$tty"
	run_sl campaign resume --db "$tmp/r.db"
	[[ $err != *"iteration 1/3"* ]] || fail "progress off a terminal: $err"
	! grep -q '^spin ' <<<"$out" || fail "the run's summary off a terminal: $out"
	boots
	every_boot_once c9
}

# resume without a name continues every running campaign, not the first
# alone; status says when a store has none, and never "-0 s ago"
test_campaign_resume_every_running_campaign() {
	cjob
	run_sl run "$tmp/job.job" --db "$tmp/r.db" -q
	run_sl campaign status --db "$tmp/r.db"
	expect_eq "status without campaigns ($err)" 0 "$rc"
	expect_eq "says so" "campaign: no campaigns in $tmp/r.db" "$out"
	run_sl campaign start m1 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "m1 started ($err)" 75 "$rc"
	run_sl campaign start m2 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "m2 started ($err)" 75 "$rc"
	run_sl campaign status m1 --db "$tmp/r.db"
	expect_match "the hook's age" "hook called [0-9]+ s ago" "$out"
	run_sl campaign resume --db "$tmp/r.db"
	expect_eq "resume ($err)" 75 "$rc"
	for c in m1 m2; do
		doc=$("$SCHEDLAB" campaign status $c --db "$tmp/r.db" --format json)
		expect_eq "$c: boots" 2 "$(jq '.boots | length' <<<"$doc")"
		expect_eq "$c: boot 1" done "$(jval "$doc" '.boots[0].phase')"
	done
	run_sl campaign abort m1 --db "$tmp/r.db"
	run_sl campaign resume --db "$tmp/r.db"
	expect_eq "resume with m1 aborted ($err)" 75 "$rc"
	expect_eq "m2: boots" 3 "$("$SCHEDLAB" campaign status m2 --db "$tmp/r.db" --format json | jq '.boots | length')"
	expect_no_leftovers
}

# psql_as ROLE SQL: SQL run as ROLE (a lab machine's login), its output
# and errors on stdout.
psql_as() {
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" \
		-U "$1" -d schedlab -c "$2" 2>&1
}

# What a campaign runs as root at boot is its machine's own (its command
# file, campaign/local.c): another lab machine, logged in as the same
# agent role (the roles doc/fleet.md makes), rewrites the hook in the
# shared store; resume refuses and runs nothing.
test_campaign_commands_are_the_machines_own() {
	local agent_url orig
	pg_start
	cjob
	run_sl run "$tmp/job.job" --db "$PGURL" -q	# the schema, by its owner
	awk '/^```sql$/ { s = 1; next } /^```$/ { s = 0 } s' "$TOP/doc/fleet.md" \
		>"$tmp/roles.sql"
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" \
		-U schedlab -d schedlab -f "$tmp/roles.sql" >/dev/null
	agent_url=${PGURL/user=schedlab/user=schedlab_agent}
	DB=$agent_url
	cstart p2 --max-boots 8
	expect_eq "start as the agent role ($err)" 75 "$rc"
	expect_eq "its command file" "-rw-------" "$(stat -c %A "$tmp/campaigns/p2.cmd")"
	orig=$(psql_t "SELECT state FROM campaigns WHERE name = 'p2'")
	orig=${orig//\'/\'\'}
	# the other machine: the same role, the hook of p2 rewritten
	psql_as schedlab_agent "UPDATE schedlab.campaigns SET state =
		jsonb_set(state::jsonb, '{hook}', to_jsonb('touch $tmp/pwned'::text))::json
		WHERE name = 'p2'"
	run_sl campaign resume p2 --db "$DB"
	expect_eq "resume of the rewritten campaign" 2 "$rc"
	expect_eq "why" "schedlab: campaign p2: its hook in the store differs from the command file $tmp/campaigns/p2.cmd: the store's copy was changed after start; nothing run (the file holds what this machine agreed to run)" "$err"
	run_sl campaign resume --db "$DB"
	expect_eq "resume of every campaign" 2 "$rc"
	[ ! -e "$tmp/pwned" ] || fail "the rewritten hook ran"
	expect_eq "runs of p2" 0 "$(psql_t "SELECT count(*) FROM runs WHERE label LIKE 'p2/%'")"
	# a check rewritten: named too
	psql_as schedlab_agent "UPDATE schedlab.campaigns SET state =
		jsonb_set('$orig'::jsonb, '{states,1,check}',
		to_jsonb('touch $tmp/pwned'::text))::json WHERE name = 'p2'" >/dev/null
	run_sl campaign status p2 --db "$DB" --format json
	expect_eq "the store's copy shown" "touch $tmp/pwned" "$(jval "$out" '.states[1].check')"
	run_sl campaign resume p2 --db "$DB"
	expect_eq "resume with a check rewritten" 2 "$rc"
	expect_match "why" "campaign p2: its states\[1\]\.check in the store differs" "$err"
	[ ! -e "$tmp/pwned" ] || fail "the rewritten check ran"
	# put back as start wrote it: the campaign goes on
	psql_as schedlab_agent "UPDATE schedlab.campaigns SET state = '$orig'
		WHERE name = 'p2'" >/dev/null
	# the file written by others, or gone: refused
	chmod 0622 "$tmp/campaigns/p2.cmd"
	run_sl campaign resume p2 --db "$DB"
	expect_eq "a file others may write" 2 "$rc"
	expect_match "why" "campaign p2: its command file $tmp/campaigns/p2.cmd may be written by others \(mode 0622\): nothing run" "$err"
	chmod 0600 "$tmp/campaigns/p2.cmd"
	# a machine without its command file leaves it alone
	SCHEDLAB_CAMPAIGN_DIR=$tmp/m2 run_sl campaign resume --db "$DB"
	expect_eq "another machine's resume ($err)" 0 "$rc"
	expect_match "says why" "no campaign of this machine's is running .*others are" "$out"
	SCHEDLAB_CAMPAIGN_DIR=$tmp/m2 run_sl campaign resume p2 --db "$DB"
	expect_eq "another machine's resume of p2" 2 "$rc"
	expect_match "why" "campaign p2: its command file $tmp/m2/p2.cmd" "$err"
	# the machine that started it resumes it, as the agent role
	run_sl campaign resume p2 --db "$DB"
	expect_eq "resume as it was started ($err)" 75 "$rc"
	[ "$(psql_t "SELECT count(*) FROM runs WHERE label LIKE 'p2/%'")" -gt 0 ] ||
		fail "no run of p2 after its resume"
	expect_no_leftovers
}

# Two lab machines, each its own login in the agent role (doc/fleet.md):
# each stores its runs and keeps its campaign - the runs' ends, the
# boots - and neither can change the other's: an UPDATE of the other's
# run or campaign changes no row, rows added to the other's run are
# refused, and schedlab as the other login refuses to write its
# campaign. Everyone reads everything.
test_campaign_fleet_logins_own_their_rows() {
	local m1 m2 uuid2 orig
	pg_start
	cjob
	run_sl run "$tmp/job.job" --db "$PGURL" -q	# the schema, by its owner
	awk '/^```sql$/ { s = 1; next } /^```$/ { s = 0 } s' "$TOP/doc/fleet.md" \
		>"$tmp/roles.sql"
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" \
		-U schedlab -d schedlab -f "$tmp/roles.sql" >/dev/null
	m1=${PGURL/user=schedlab/user=lab_m1}
	m2=${PGURL/user=schedlab/user=lab_m2}
	run_sl run "$tmp/job.job" --db "$m1" -q --label m1run
	expect_eq "machine 1 stores a run ($err)" 0 "$rc"
	expect_eq "complete: its end recorded" "complete lab_m1" \
		"$(psql_t "SELECT status || ' ' || owner FROM runs WHERE label = 'm1run'")"
	DB=$m2
	SCHEDLAB_CAMPAIGN_DIR=$tmp/m2 cstart k2 --max-boots 2
	expect_eq "machine 2 starts a campaign ($err)" 75 "$rc"
	SCHEDLAB_CAMPAIGN_DIR=$tmp/m2 run_sl campaign resume k2 --db "$m2"
	expect_match "and resumes it ($err)" "^(0|75)$" "$rc"
	uuid2=$(psql_t "SELECT uuid FROM runs WHERE label LIKE 'k2/%' LIMIT 1")
	[ -n "$uuid2" ] || fail "no run of machine 2's campaign"
	expect_eq "machine 2's run is its own" lab_m2 "$(psql_t "SELECT owner FROM runs WHERE uuid = '$uuid2'")"
	# machine 1 against machine 2's rows
	orig=$(psql_t "SELECT label || status FROM runs WHERE uuid = '$uuid2'")
	expect_eq "an UPDATE of the other's run" "UPDATE 0" \
		"$("$PG_BIN/psql" -X -A -t -h "$PG_DIR" -p "$PG_PORT" -U lab_m1 -d schedlab \
		   -c "UPDATE schedlab.runs SET label = 'x', status = 'failed' WHERE uuid = '$uuid2'" 2>&1)"
	expect_eq "unchanged" "$orig" "$(psql_t "SELECT label || status FROM runs WHERE uuid = '$uuid2'")"
	expect_eq "an UPDATE of the other's campaign" "UPDATE 0" \
		"$("$PG_BIN/psql" -X -A -t -h "$PG_DIR" -p "$PG_PORT" -U lab_m1 -d schedlab \
		   -c "UPDATE schedlab.campaigns SET state = '{}' WHERE name = 'k2'" 2>&1)"
	expect_match "a row added to the other's run" "rows of another login's run: samples is not lab_m1's to add to" \
		"$(psql_as lab_m1 "INSERT INTO schedlab.samples (case_id, metric, iteration, value)
		   SELECT c.id, 'x', 1, 0 FROM schedlab.cases c JOIN schedlab.runs r
		   ON r.id = c.run_id WHERE r.uuid = '$uuid2' LIMIT 1")"
	expect_match "a run stored as the other" "violates row-level security" \
		"$(psql_as lab_m1 "INSERT INTO schedlab.runs (uuid, started, status, owner)
		   VALUES ('f00', 0, 'complete', 'lab_m2')")"
	SCHEDLAB_CAMPAIGN_DIR=$tmp/m2 run_sl campaign abort k2 --db "$m1"
	expect_eq "schedlab as machine 1 aborts machine 2's campaign" 2 "$rc"
	expect_match "why" "no campaign 'k2' that this login may write" "$err"
	expect_eq "still running" running "$(jval "$("$SCHEDLAB" campaign status k2 --db "$m1" --format json)" .status)"
	# machine 2 changes its own
	expect_eq "machine 2's own" "UPDATE 1" \
		"$("$PG_BIN/psql" -X -A -t -h "$PG_DIR" -p "$PG_PORT" -U lab_m2 -d schedlab \
		   -c "UPDATE schedlab.runs SET label = label WHERE uuid = '$uuid2'" 2>&1)"
	expect_no_leftovers
}

# An attempt that did not complete (its run killed under it) is moved to
# NAME/STATE/discarded: the campaign's labels hold its complete runs
# only, list, compare and history see no failed run there, and show
# still finds the discarded one by its uuid.
test_campaign_discards_an_attempt() {
	use_tmpdir
	cat >"$tmp/kill.job" <<EOF
[global]
iterations = 1
warmup = 0

[k]
workload = command
shell = true
argv = "[ -e '$tmp/killed' ] || { touch '$tmp/killed'; kill -9 \$PPID; sleep 5; }"
EOF
	run_sl campaign start d1 "$tmp/kill.job" --db "$tmp/r.db" --state a --state b \
		--hook true --max-boots 2
	expect_eq "start ($err)" 75 "$rc"
	run_sl campaign resume --db "$tmp/r.db"
	[ -e "$tmp/killed" ] || fail "the job never killed its run"
	local q="SELECT count(*) FROM runs WHERE label IN ('d1/a', 'd1/b')"
	expect_eq "runs under the campaign's labels that did not complete" 0 \
		"$(sqlite3 "$tmp/r.db" "$q AND status != 'complete'")"
	local gone
	gone=$(sqlite3 "$tmp/r.db" "SELECT uuid FROM runs WHERE label LIKE 'd1/%/discarded'")
	expect_eq "discarded attempts" 1 "$(wc -w <<<"$gone")"
	run_sl show "$gone" --db "$tmp/r.db"
	expect_eq "show of the discarded attempt ($err)" 0 "$rc"
	expect_match "its label" "d1/[ab]/discarded" "$out"
	expect_no_leftovers
}

# A run that fails by itself is not a crash: /bin/false is run 3 times
# (the man page's count), the campaign stops with the run's own error;
# a job file gone mid-campaign is input, said once, nothing run again
test_campaign_failing_run_and_missing_job() {
	use_tmpdir
	printf '[global]\niterations = 1\nwarmup = 0\n\n[f]\nworkload = command\nargv = /bin/false\n' \
		>"$tmp/false.job"
	run_sl campaign start f1 "$tmp/false.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "start ($err)" 75 "$rc"
	run_sl campaign resume --db "$tmp/r.db"
	expect_eq "resume of a failing job" 1 "$rc"
	expect_match "the campaign's words" "campaign f1: boot 1 \(state [ab]\): the job failed 3 times \(schedlab run exited 1\): f: " "$err"
	expect_eq "runs made" 3 "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM runs WHERE label LIKE 'f1/%'")"
	expect_eq "the campaign's lines" 1 "$(grep -c '^schedlab: campaign f1' <<<"$err")"
	expect_eq status failed "$("$SCHEDLAB" campaign status f1 --db "$tmp/r.db" --format json | jq -r .status)"
	cjob
	run_sl campaign start f2 "$tmp/job.job" --db "$tmp/r.db" --state a --state b --hook true
	expect_eq "start ($err)" 75 "$rc"
	rm "$tmp/job.job"
	run_sl campaign resume f2 --db "$tmp/r.db"
	expect_eq "resume without its job file" 2 "$rc"
	expect_match "says so" "campaign f2: boot 1 \(state [ab]\): the job $tmp/job.job was refused as input" "$err"
	expect_eq "error lines" 2 "$(grep -c . <<<"$err")"
	expect_eq "runs made" 0 "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM runs WHERE label LIKE 'f2/%'")"
	expect_no_leftovers
}

# --max-boots not given: the planner's count from this host's noise
# model of the job (calibrate's runs make one), else 20 and how to get
# one.
test_campaign_max_boots_from_the_planner() {
	cjob
	echo a >"$tmp/state"
	run_sl campaign start nomodel "$tmp/job.job" --db "$DB" --state a --state b \
		--hook "echo a >'$tmp/state'" --seed 7
	expect_match "without a model" "--max-boots 20: no noise model of the job on this host" "$out"
	expect_eq "its max_boots" 20 "$("$SCHEDLAB" campaign status nomodel --db "$DB" --format json | jq .max_boots)"
	run_sl calibrate "$tmp/job.job" --db "$DB" --runs 5 --iterations 3 -q
	expect_eq "calibrate ($err)" 0 "$rc"
	run_sl campaign start planned "$tmp/job.job" --db "$DB" --state a --state b \
		--hook "echo a >'$tmp/state'" --seed 7 --threshold 50
	local n
	n=$("$SCHEDLAB" campaign status planned --db "$DB" --format json | jq .max_boots)
	expect_match "with a model" "--max-boots $n, from this host's noise \\([0-9.]+% between runs\\)" "$out"
	[ "$n" -ge 4 ] && [ "$n" -le 1000 ] || fail "planned --max-boots $n"
}
