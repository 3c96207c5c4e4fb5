# SPDX-License-Identifier: GPL-2.0-only
#
# The fleet's job queue and its agents (doc/fleet.md) against a real
# PostgreSQL of each test's own (pg_start): queue add/list/cancel/retry,
# agents that share 100 jobs, an agent killed with -9 mid-job, the
# server stopped while a job runs, and the checks that keep a command
# job from an agent not started to run commands. Agents run with short
# leases and polls; the jobs are tiny.

# fleet_start: the cluster, the agents' state directories under $tmp,
# and the job files: $msg_job (messaging, no command), $true_job and
# $sleep_job (command: they need --allow-commands).
fleet_start() {
	pg_start
	export SCHEDLAB_STATE_DIR=$tmp/state
	msg_job=$tmp/msg.job
	true_job=$tmp/true.job
	sleep_job=$tmp/sleep.job
	printf '[msg]\nworkload = messaging\ngroups = 1\nloops = 10\niterations = 1\n' >"$msg_job"
	printf '[c]\nworkload = command\nargv = true\niterations = 1\n' >"$true_job"
	printf '[slow]\nworkload = command\nargv = sleep %s\niterations = 1\n' \
		"${1:-5}" >"$sleep_job"
	agent_pids=()
}

# agent_start NAME ARGS...: an agent in the background, its log in
# $tmp/NAME.log; its pid is appended to agent_pids and set in $agent_pid.
agent_start() {
	local name=$1
	shift
	env --default-signal=INT "$SCHEDLAB" agent --db "$PGURL" --name "$name" \
		--poll 1 --lease 3 "$@" 2>"$tmp/$name.log" &
	agent_pid=$!
	agent_pids+=("$agent_pid")
}

# agents_stop: SIGTERM to every agent started, each waited for.
agents_stop() {
	local p
	for p in "${agent_pids[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in "${agent_pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	agent_pids=()
}

# wait_sql SQL EXPECTED SECONDS: polls until SQL's answer is EXPECTED.
wait_sql() {
	local i got
	for ((i = 0; i < $3 * 10; i++)); do
		got=$(psql_t "$1" 2>/dev/null || true)
		[ "$got" = "$2" ] && return 0
		sleep 0.1
	done
	fail "after $3 s, '$1' is '$got', not '$2'"
}

# wait_log FILE REGEX SECONDS
wait_log() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "after $3 s, no /$2/ in $1: $(cat "$1")"
}

# expect_state_clean NAME: the agent's state directory holds its local
# database and nothing else (no journal, no job directory).
expect_state_clean() {
	local left
	left=$(ls -A "$SCHEDLAB_STATE_DIR/agent/$1" | grep -vxE 'results\.db(-wal|-shm|-journal)?' || true)
	[ -z "$left" ] || fail "agent $1 left: $left"
}

# queue add, list, cancel and retry; what add refuses.
test_fleet_queue_commands() {
	local ids doc
	fleet_start
	run_sl queue list --db "$PGURL"
	expect_eq "list of a new database" 0 "$rc"
	expect_eq "no jobs" 1 "$(grep -c . <<<"$out")"
	expect_eq "list reads, never creates" "t" \
		"$(psql_t "SELECT to_regclass('schedlab.jobs') IS NULL")"
	run_sl queue add "$msg_job" --repeat 3 --label L --priority 5 \
		--hosts 'web*,db?' --tags big,numa --db "$PGURL"
	expect_eq "add exit" 0 "$rc"
	expect_eq "ids" "1 2 3" "$(echo $out)"
	run_sl queue add "$true_job" --db "$PGURL"
	expect_eq "command job's id" 4 "$out"
	expect_match "add says who may take it" "only an agent started with --allow-commands" "$err"
	expect_eq "stored columns" "4|t|f|{}" \
		"$(psql_t "SELECT id, needs_commands, needs_knobs, tags FROM jobs WHERE id = 4")"
	expect_eq "hosts as LIKE" '{web%,db_}|{web*,db?}|{big,numa}|5' \
		"$(psql_t "SELECT hosts_like, hosts, tags, priority FROM jobs WHERE id = 1")"
	expect_eq "text stored" "$(cat "$msg_job")" \
		"$(psql_t "SELECT jobfile FROM jobs WHERE id = 1")"
	run_sl queue list --db "$PGURL"
	expect_eq "list exit" 0 "$rc"
	expect_match "list header" "^ +ID +STATE +PRI +NAME +LABEL +WHERE +AGENT +TRIES +RESULT" "$out"
	expect_match "list row" "1 +queued +5 +[^ ]*msg.job +L +hosts=web\*,db\? tags=big,numa +- +0 +-" "$out"
	run_sl queue cancel 2 3 --db "$PGURL"
	expect_eq "cancel" "2 cancelled
3 cancelled" "$out"
	run_sl queue retry 3 --db "$PGURL"
	expect_eq "retry" "3 queued" "$out"
	run_sl queue retry 1 --db "$PGURL"
	expect_eq "retry of a queued job" 1 "$rc"
	expect_match "why" "job 1: it is queued; only a failed or cancelled job can be retried" "$err"
	run_sl queue list --state cancelled --format json --db "$PGURL"
	expect_eq "json by state" "2 cancelled" "$(jq -r '.[] | "\(.id) \(.state)"' <<<"$out")"
	run_sl queue list --hosts 'x*' --db "$PGURL"
	expect_eq "add's option to list" 2 "$rc"
	expect_match "named" "queue list: option --hosts is queue add's" "$err"
	run_sl queue cancel 1 --state queued --db "$PGURL"
	expect_eq "list's option to cancel" 2 "$rc"
	run_sl queue list --state lost --db "$PGURL"
	expect_eq "bad state" 2 "$rc"
	expect_match "states named" "expected one of queued, running, done, failed, cancelled" "$err"

	# refused before anything is queued: exit 2, one message
	printf '[a]\nworkload = messaging\ngroups = lots\n' >"$tmp/bad.job"
	run_sl queue add "$tmp/bad.job" --db "$PGURL"
	expect_eq "bad job exit" 2 "$rc"
	expect_match "names file:line" "bad.job:3: .*groups" "$err"
	printf '[a]\nworkload = messaging\n[variant:x]\nnice = 1\n' >"$tmp/ab.job"
	run_sl queue add "$tmp/ab.job" --db "$PGURL"
	expect_eq "variants exit" 2 "$rc"
	expect_match "variants" "ab.job has \[variant:...\] sections; ab jobs cannot be queued" "$err"
	run_sl queue add "$msg_job" --priority high --db "$PGURL"
	expect_eq "bad priority" 2 "$rc"
	run_sl queue add "$msg_job" --db "$tmp/local.db"
	expect_eq "sqlite refused" 2 "$rc"
	expect_match "sqlite named" "PostgreSQL database .* not in the SQLite file" "$err"
	[ ! -e "$tmp/local.db" ] || fail "queue add created a SQLite file"
	run_sl agent --db "$tmp/local.db" --once
	expect_eq "agent: sqlite refused" 2 "$rc"
	expect_match "agent: sqlite named" "PostgreSQL database .* not in the SQLite file" "$err"
	run_sl queue list --db "postgresql://u:sekrit@/nowhere?host=$tmp/none"
	expect_eq "unreachable" 2 "$rc"
	[[ $err != *sekrit* ]] || fail "password in: $err"
	expect_eq "still 4 jobs" 4 "$(psql_t "SELECT count(*) FROM jobs")"
}

# Where a job may run: hosts, tags, kernel; --once with nothing to do.
test_fleet_agent_matching() {
	fleet_start
	# LIKE's own wildcards are letters in a host pattern
	"$SCHEDLAB" queue add "$msg_job" --hosts 'web_1,100%' --db "$PGURL" >/dev/null
	run_sl agent --db "$PGURL" --name x1 --host webx1 --once
	expect_match "_ is no wildcard" "agent x1: nothing to do" "$err"
	run_sl agent --db "$PGURL" --name x2 --host 1000 --once
	expect_match "% is no wildcard" "agent x2: nothing to do" "$err"
	run_sl agent --db "$PGURL" --name x3 --host 100% --once
	expect_eq "the host named" "done|x3" "$(psql_t "SELECT state, agent FROM jobs")"
	psql_t "TRUNCATE jobs RESTART IDENTITY; TRUNCATE runs, run_metrics, cases, samples, histograms" >/dev/null
	"$SCHEDLAB" queue add "$msg_job" --hosts 'web*' --db "$PGURL" >/dev/null
	"$SCHEDLAB" queue add "$msg_job" --tags numa --db "$PGURL" >/dev/null
	"$SCHEDLAB" queue add "$msg_job" --kernel 0.0-other --db "$PGURL" >/dev/null
	run_sl agent --db "$PGURL" --name db1 --host db1 --once
	expect_eq "nothing for db1" 0 "$rc"
	expect_match "says so" "agent db1: nothing to do" "$err"
	expect_eq "all queued" "queued,queued,queued" \
		"$(psql_t "SELECT string_agg(state, ',' ORDER BY id) FROM jobs")"
	# a password in the URL (trust authentication ignores it) is never logged
	run_sl agent --db "$PGURL&password=sekrit" --name w1 --host web1 --once
	[[ $err != *sekrit* ]] || fail "password in the agent's log: $err"
	expect_match "the queue named" "agent w1: started on web1 .*queue postgresql://" "$err"
	expect_eq "web1 takes job 1" "1|done|w1" \
		"$(psql_t "SELECT id, state, agent FROM jobs WHERE state <> 'queued'")"
	expect_eq "its run's host" "web1" "$(psql_t "SELECT host FROM runs")"
	run_sl agent --db "$PGURL" --name w1 --host web1 --tags numa,big --once
	expect_eq "tags" "done" "$(psql_t "SELECT state FROM jobs WHERE id = 2")"
	psql_t "UPDATE jobs SET kernel = '$(uname -r)' WHERE id = 3" >/dev/null
	run_sl agent --db "$PGURL" --name w1 --host other --once
	expect_eq "kernel" "done" "$(psql_t "SELECT state FROM jobs WHERE id = 3")"
	expect_eq "agent row" "w1|other|{}" \
		"$(psql_t "SELECT name, host, tags FROM agents WHERE name = 'w1'")"
	expect_state_clean w1
	expect_no_leftovers
}

# 4 agents and 100 tiny jobs: each done exactly once, by all of them.
test_fleet_four_agents_hundred_jobs() {
	local a
	fleet_start
	"$SCHEDLAB" queue add "$msg_job" --repeat 100 --db "$PGURL" >/dev/null
	for a in a1 a2 a3 a4; do
		agent_start "$a"
	done
	wait_sql "SELECT count(*) FROM jobs WHERE state = 'done'" 100 200
	agents_stop
	expect_eq "jobs" "100|100|100" \
		"$(psql_t "SELECT count(*), count(DISTINCT run_uuid), sum(attempts) FROM jobs")"
	expect_eq "runs in the store" 100 "$(psql_t "SELECT count(*) FROM runs")"
	expect_eq "every job's run there" 100 \
		"$(psql_t "SELECT count(*) FROM jobs j JOIN runs r ON r.uuid = j.run_uuid")"
	expect_eq "agents that took some" 4 \
		"$(psql_t "SELECT count(DISTINCT agent) FROM jobs")"
	for a in a1 a2 a3 a4; do
		expect_state_clean "$a"
	done
	expect_no_leftovers
}

# kill -9 of an agent mid-job: its run ends with it, another agent runs
# the job again once the lease is over, and there is one result.
test_fleet_agent_killed_mid_job() {
	local run_pid
	fleet_start 4
	"$SCHEDLAB" queue add "$sleep_job" --db "$PGURL" >/dev/null 2>&1
	agent_start a1 --allow-commands
	wait_log "$tmp/a1.log" "running as run .* \(pid [0-9]+\)" 20
	run_pid=$(sed -nE 's/.*running as run .* \(pid ([0-9]+)\).*/\1/p' "$tmp/a1.log")
	sleep 0.5
	kill -KILL "${agent_pids[0]}"
	wait "${agent_pids[0]}" 2>/dev/null || true
	agent_pids=()
	# the run (a process group of its own) goes with its agent
	for ((i = 0; i < 50; i++)); do
		[ -z "$(group_alive "$run_pid")" ] && break
		sleep 0.1
	done
	expect_group_empty "$run_pid"
	expect_eq "still running, attempt 1" "running|1|a1" \
		"$(psql_t "SELECT state, attempts, agent FROM jobs")"
	agent_start a2 --allow-commands
	wait_sql "SELECT state || ' ' || attempts || ' ' || agent FROM jobs" "done 2 a2" 30
	agents_stop
	expect_eq "one result" "1|1" \
		"$(psql_t "SELECT count(*), count(DISTINCT uuid) FROM runs")"
	expect_eq "the job's" "t" \
		"$(psql_t "SELECT run_uuid = (SELECT uuid FROM runs) FROM jobs")"
	# a1 started again gives back nothing (not its job now), cleans up
	run_sl agent --db "$PGURL" --name a1 --allow-commands --once --lease 3
	expect_eq "a1 again" 0 "$rc"
	expect_match "a1 saw its dead attempt" "job 1: attempt 1 ended with its agent" "$err"
	expect_eq "unchanged" "done 2 a2" \
		"$(psql_t "SELECT state || ' ' || attempts || ' ' || agent FROM jobs")"
	expect_state_clean a1
	expect_state_clean a2
	expect_no_leftovers
}

# PostgreSQL stopped while a job runs: the agent keeps the result and
# uploads it once the server is back; one result.
test_fleet_server_down_during_job() {
	fleet_start 3
	"$SCHEDLAB" queue add "$sleep_job" --db "$PGURL" >/dev/null 2>&1
	agent_start a1 --allow-commands --once
	wait_log "$tmp/a1.log" "running as run" 20
	pg_stop
	wait_log "$tmp/a1.log" "cannot record its result yet" 30
	ls "$SCHEDLAB_STATE_DIR/agent/a1" | grep -q '^pending-1-1$' ||
		fail "no journal while the server is down: $(ls "$SCHEDLAB_STATE_DIR/agent/a1")"
	pg_restart
	wait "$agent_pid" || fail "agent exit $?: $(cat "$tmp/a1.log")"
	agent_pids=()
	expect_eq "done" "done|1" "$(psql_t "SELECT state, attempts FROM jobs")"
	expect_eq "one run" 1 "$(psql_t "SELECT count(*) FROM runs")"
	expect_eq "the one run kept locally" \
		"$(psql_t "SELECT uuid FROM runs")" \
		"$("$SCHEDLAB" list runs --db "$SCHEDLAB_STATE_DIR/agent/a1/results.db" --format json | jq -r '.[].uuid')"
	expect_state_clean a1
	expect_no_leftovers
}

# A command job: an agent not allowed to run commands leaves it; a
# forged row (needs_commands cleared) is claimed, refused by the agent's
# own check of the text and given back.
test_fleet_command_job_refused() {
	fleet_start
	"$SCHEDLAB" queue add "$true_job" --db "$PGURL" >/dev/null 2>&1
	run_sl agent --db "$PGURL" --name a1 --once
	expect_match "left" "agent a1: nothing to do" "$err"
	expect_eq "queued" "queued|0" "$(psql_t "SELECT state, attempts FROM jobs")"
	psql_t "UPDATE jobs SET needs_commands = false" >/dev/null
	run_sl agent --db "$PGURL" --name a1 --once
	expect_match "refused" "agent a1: job 1 refused: it runs commands \(workload command in \[c\]\); start the agent with --allow-commands to take such jobs" "$err"
	expect_eq "given back" "queued|1|{a1}" \
		"$(psql_t "SELECT state, attempts, refused_by FROM jobs")"
	expect_eq "nothing ran" 0 "$(psql_t "SELECT count(*) FROM runs")"
	run_sl agent --db "$PGURL" --name a1 --once
	expect_match "not claimed again" "agent a1: nothing to do" "$err"
	run_sl agent --db "$PGURL" --name a2 --allow-commands --once
	expect_eq "an allowed agent runs it" "done|a2" \
		"$(psql_t "SELECT state, agent FROM jobs")"
	# a knob job the same way
	printf '[k]\nworkload = messaging\nloops = 10\nsysctl.kernel.sched_child_runs_first = 0\n' >"$tmp/knob.job"
	"$SCHEDLAB" queue add "$tmp/knob.job" --db "$PGURL" >/dev/null 2>&1
	expect_eq "knob column" "t" "$(psql_t "SELECT needs_knobs FROM jobs WHERE id = 2")"
	psql_t "UPDATE jobs SET needs_knobs = false WHERE id = 2" >/dev/null
	run_sl agent --db "$PGURL" --name a2 --allow-commands --once
	expect_match "knob refused" "job 2 refused: it changes the machine \(setting sysctl.kernel.sched_child_runs_first in \[k\]\); start the agent with --allow-knobs" "$err"
	expect_state_clean a1
	expect_no_leftovers
}

# A job cancelled while it runs: its agent stops the run at the next
# heartbeat and records nothing.
test_fleet_cancel_running_job() {
	fleet_start 20
	"$SCHEDLAB" queue add "$sleep_job" --db "$PGURL" >/dev/null 2>&1
	agent_start a1 --allow-commands --once
	wait_log "$tmp/a1.log" "running as run" 20
	"$SCHEDLAB" queue cancel 1 --db "$PGURL" >/dev/null
	wait_log "$tmp/a1.log" "job 1: no longer ours: it was cancelled; stopping its run" 10
	wait "$agent_pid" || true
	agent_pids=()
	expect_eq "cancelled" "cancelled" "$(psql_t "SELECT state FROM jobs")"
	expect_eq "no run" 0 "$(psql_t "SELECT count(*) FROM runs")"
	expect_state_clean a1
	expect_no_leftovers
}

# An agent told to stop mid-job stops its run and gives the job back.
test_fleet_agent_sigterm() {
	fleet_start 20
	"$SCHEDLAB" queue add "$sleep_job" --db "$PGURL" >/dev/null 2>&1
	agent_start a1 --allow-commands
	wait_log "$tmp/a1.log" "running as run" 20
	kill -TERM "$agent_pid"
	rc=0
	wait "$agent_pid" || rc=$?
	agent_pids=()
	expect_eq "exit" 130 "$rc"
	expect_eq "given back" "queued|its agent was stopped" \
		"$(psql_t "SELECT state, reason FROM jobs")"
	expect_state_clean a1
	expect_no_leftovers
}

# doc/fleet.md's two roles, applied as the doc writes them: an agent
# runs a job as the agent role, the reader lists runs and cannot queue.
test_fleet_roles() {
	local agent_url reader_url
	fleet_start
	# monitored: the agent role stores the monitors' series too
	printf 'monitors = runq\nmonitor_interval = 10ms\n' >>"$msg_job"
	"$SCHEDLAB" queue add "$msg_job" --db "$PGURL" >/dev/null
	awk '/^```sql$/ { s = 1; next } /^```$/ { s = 0 } s' "$TOP/doc/fleet.md" \
		>"$tmp/roles.sql"
	[ -s "$tmp/roles.sql" ] || fail "no SQL in doc/fleet.md"
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" \
		-U schedlab -d schedlab -f "$tmp/roles.sql" >/dev/null
	agent_url=${PGURL/user=schedlab/user=schedlab_agent}
	reader_url=${PGURL/user=schedlab/user=schedlab_reader}
	run_sl agent --db "$agent_url" --name a1 --once
	expect_eq "agent role's exit ($err)" 0 "$rc"
	expect_eq "done" "done" "$(psql_t "SELECT state FROM jobs")"
	# what a job runs is not the agent's to change
	if "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" \
		-U schedlab_agent -d schedlab \
		-c "UPDATE schedlab.jobs SET jobfile = 'x'" >"$tmp/upd" 2>&1; then
		fail "the agent role rewrote a job's text"
	fi
	expect_match "agent role refused" "permission denied for table jobs" "$(cat "$tmp/upd")"
	run_sl list runs --db "$reader_url" --format json
	expect_eq "reader lists ($err)" 0 "$rc"
	expect_eq "the run" "$(psql_t "SELECT run_uuid FROM jobs")" \
		"$(jq -r '.[].uuid' <<<"$out")"
	[ "$(psql_t "SELECT count(*) FROM monitors")" -gt 0 ] || fail "no monitor rows stored by the agent"
	run_sl show "$(jq -r '.[0].uuid' <<<"$out")" --db "$reader_url" --format json
	expect_eq "reader reads the monitors ($err)" 0 "$rc"
	# a lab machine's campaign, kept by the agent role, read by the reader
	run_sl campaign start k1 "$msg_job" --db "$agent_url" --state a --state b \
		--hook true
	expect_eq "agent role starts a campaign ($err)" 75 "$rc"
	run_sl campaign status k1 --db "$reader_url" --format json
	expect_eq "reader reads it ($err)" running "$(jval "$out" .status)"
	run_sl campaign abort k1 --db "$reader_url"
	[ "$rc" -ne 0 ] || fail "the reader aborted a campaign"
	run_sl queue add "$msg_job" --db "$reader_url"
	[ "$rc" -ne 0 ] || fail "the reader queued a job"
	expect_match "reader refused" "permission denied" "$err"
	expect_eq "still one job" 1 "$(psql_t "SELECT count(*) FROM jobs")"
	expect_no_leftovers
}

# The systemd unit: starts the agent after the network, again whenever
# it ends, credentials from its environment file; make install puts it
# in PREFIX/lib/systemd/system with the installed binary's path.
test_fleet_systemd_unit() {
	local unit=$TOP/tools/schedlab-agent.service plan
	use_tmpdir
	grep -qx 'After=network-online.target' "$unit" || fail "not after the network"
	grep -qx 'Restart=always' "$unit" || fail "not restarted"
	grep -qx 'EnvironmentFile=/etc/schedlab/agent.env' "$unit" || fail "no environment file"
	grep -q 'ExecStart=/usr/local/bin/schedlab agent ' "$unit" || fail "no agent"
	! grep -qiE 'password|postgres(ql)?://' <(grep -v '^#' "$unit") ||
		fail "credentials in the unit"
	plan=$(make -s -C "$TOP" -n install DESTDIR="$tmp/root" PREFIX=/usr)
	expect_match "installed" "tools/schedlab-agent.service.*>$tmp/root/usr/lib/systemd/system/schedlab-agent.service" "$(tr -d '\\\n' <<<"$plan")"
	if command -v systemd-analyze >/dev/null; then
		mkdir -p "$tmp/u"
		sed "s|/usr/local/bin/schedlab|$SCHEDLAB|; s|^EnvironmentFile=.*|EnvironmentFile=-$tmp/agent.env|" \
			"$unit" >"$tmp/u/schedlab-agent.service"
		systemd-analyze verify --man=no "$tmp/u/schedlab-agent.service" >"$tmp/verify" 2>&1 ||
			fail "systemd-analyze verify: $(cat "$tmp/verify")"
	fi
}

# The issue's end: two agents on this machine, one PostgreSQL, take a
# queued suite between them, and their results compare per host.
test_fleet_two_agents_compare_by_host() {
	local h l out_json
	fleet_start
	for l in base cand; do
		for h in lkp-a lkp-b; do
			"$SCHEDLAB" queue add quick --set groups=1 --set loops=10 \
				--iterations 2 --label "$l" --hosts "$h" --db "$PGURL" >/dev/null
		done
	done
	agent_start a --host lkp-a
	agent_start b --host lkp-b
	wait_sql "SELECT count(*) FROM jobs WHERE state = 'done'" 4 120
	agents_stop
	expect_eq "each host ran its two" "a|lkp-a|2,b|lkp-b|2" \
		"$(psql_t "SELECT string_agg(agent || '|' || host || '|' || n, ',' ORDER BY agent) FROM (SELECT j.agent, r.host, count(*) AS n FROM jobs j JOIN runs r ON r.uuid = j.run_uuid GROUP BY 1, 2) x")"
	run_sl compare base cand --by host --db "$PGURL"
	expect_eq "compare exit ($err)" 0 "$rc"
	expect_match "lkp-a's block" "== host lkp-a " "$out"
	expect_match "lkp-b's block" "== host lkp-b " "$out"
	run_sl compare base cand --by host --db "$PGURL" --format json
	expect_eq "a verdict per host" "lkp-a lkp-b" \
		"$(jq -r '[.hosts[] | select(.verdict != null) | .host] | join(" ")' <<<"$out")"
	expect_no_leftovers
}

# Two attempts finish: an agent frozen (SIGSTOP) past its lease loses
# the job to another, which records it; thawed, the first finds the job
# done and records nothing. One result.
test_fleet_two_attempts_finish() {
	local first
	fleet_start 2
	"$SCHEDLAB" queue add "$sleep_job" --db "$PGURL" >/dev/null 2>&1
	agent_start a1 --allow-commands --once
	first=$agent_pid
	wait_log "$tmp/a1.log" "running as run" 20
	kill -STOP "$first"
	agent_start a2 --allow-commands
	wait_sql "SELECT state || ' ' || attempts || ' ' || agent FROM jobs" "done 2 a2" 30
	kill -CONT "$first"
	wait "$first" || true
	agent_pids=("$agent_pid")	# a1 is reaped: never signal its pid again
	agents_stop
	wait_log "$tmp/a1.log" "job 1: result not recorded: attempt 2 \(a2\) finished it first \(done\)" 10
	expect_eq "one result, a2's" "1|t" \
		"$(psql_t "SELECT count(*), bool_and(r.uuid = j.run_uuid) FROM runs r, jobs j")"
	expect_eq "a1's run kept locally" 1 \
		"$(nruns "$SCHEDLAB_STATE_DIR/agent/a1/results.db")"
	expect_state_clean a1
	expect_state_clean a2
	expect_no_leftovers
}

# The other way round (issue 29, item 12): a1 frozen past its lease,
# a2 claims the job (attempt 2), a1 thawed finds its run ended and
# records it first. The job's agent is a1, whose run is the result, and
# queue list says the result is attempt 1 of 2; a2 is told attempt 1
# (a1) finished it.
test_fleet_earlier_attempt_is_the_result() {
	local first uuid row
	fleet_start 1
	# shellcheck disable=SC2064
	trap "agents_stop; pg_cleanup; rm -rf '$tmp'" EXIT	# failing too
	"$SCHEDLAB" queue add "$sleep_job" --db "$PGURL" >/dev/null 2>&1
	agent_start a1 --allow-commands --once
	first=$agent_pid
	wait_log "$tmp/a1.log" "running as run" 20
	kill -STOP "$first"
	uuid=$(sed -nE 's/.*running as run ([0-9a-f-]+) .*/\1/p' "$tmp/a1.log")
	agent_start a2 --allow-commands
	wait_sql "SELECT state || ' ' || attempts || ' ' || agent FROM jobs" "running 2 a2" 30
	kill -CONT "$first"
	wait "$first" || true
	wait_log "$tmp/a1.log" "job 1: done, run $uuid" 10
	wait_log "$tmp/a2.log" "job 1: .*attempt 1 \(a1\) finished it" 20
	agent_pids=("$agent_pid")	# a1 is reaped: never signal its pid again
	agents_stop
	expect_eq "the job's row" "done|a1|2|1|$uuid" \
		"$(psql_t "SELECT state, agent, attempts, result_attempt, run_uuid FROM jobs")"
	run_sl queue list --db "$PGURL"
	expect_eq "list exit ($err)" 0 "$rc"
	row=$(grep -E '^ +1 ' <<<"$out")
	expect_match "list: a1's result, attempt 1 of 2" "^ +1 +done +0 +[^ ]+ +- +any +a1 +2 +$uuid \(attempt 1 of 2\)$" "$row"
	run_sl queue list --db "$PGURL" --format json
	expect_eq "json" "a1 2 1 $uuid" "$(jval "$out" '.[0] | "\(.agent) \(.attempts) \(.result_attempt) \(.run_uuid)"')"
	expect_no_leftovers
}

# A queue of schema 1 (before result_attempt, monitors, campaigns and the runs' owners): a reader refuses it until
# a writer migrates it; the job queued before is listed after.
test_fleet_schema_1_migrates() {
	fleet_start
	"$SCHEDLAB" queue add "$msg_job" --db "$PGURL" >/dev/null 2>&1
	psql_t "DROP TABLE monitors, campaigns; $PG_UNDO_5
		ALTER TABLE jobs DROP COLUMN result_attempt; UPDATE schema_version SET version = 1" >/dev/null
	run_sl queue list --db "$PGURL"
	expect_eq "reader of schema 1: exit" 2 "$rc"
	expect_match "reader of schema 1: why" "database schema version 1 is older than this schedlab \(5\); a writer upgrades it" "$err"
	run_sl queue add "$msg_job" --db "$PGURL"
	expect_eq "writer: exit ($err)" 0 "$rc"
	expect_eq "migrated" "5|0|0" \
		"$(psql_t "SELECT (SELECT version FROM schema_version), count(result_attempt), (SELECT count(*) FROM campaigns) FROM jobs")"
	run_sl queue list --db "$PGURL" --format json
	expect_eq "both jobs, no result yet" "1 null 2 null" \
		"$(jq -r '[.[] | "\(.id) \(.result_attempt)"] | join(" ")' <<<"$out")"
}
