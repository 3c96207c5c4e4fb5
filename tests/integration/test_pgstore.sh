# SPDX-License-Identifier: GPL-2.0-only
#
# Issue 16: PostgreSQL as a store - every command that takes --db PATH
# takes --db postgresql://..., against a throwaway server of the test's
# own (lib.sh's pg_start). The URLs carry a password (the cluster trusts
# any) that must appear in no message, stored command line or output.

PW=s3cr3t-pw

# pg_url: $PGURL with user and password in it, as a lab would write it.
pg_url() {
	echo "postgresql://schedlab:$PW@/schedlab?host=$PG_DIR&port=$PG_PORT"
}

# no_password WHAT TEXT...: none of TEXT holds the password.
no_password() {
	local what=$1
	shift
	for t in "$@"; do
		[[ $t != *"$PW"* ]] || fail "$what: the password shows: $t"
	done
}

# (probes on: tasks of 200 messages run without them otherwise)
tiny_run() {
	run_sl run quick --set groups=1 --set loops=10 --set probes=on --iterations 2 -q "$@"
}

# run into PostgreSQL, then list, show, export, compare and report read
# it from there; the stored command line has no password.
test_pgstore_run_and_read() {
	local url n nb
	pg_start
	url=$(pg_url)
	tiny_run --db "$url" --label a
	expect_eq "run a: exit ($err)" 0 "$rc"
	no_password "run" "$out" "$err"
	tiny_run --db "$url" --label b
	expect_eq "run b: exit ($err)" 0 "$rc"
	run_sl list runs --db "$url" --format json
	expect_eq "list: exit ($err)" 0 "$rc"
	expect_eq "labels" "b a" "$(jq -r '[.[].label] | join(" ")' <<<"$out")"
	expect_eq "status" "complete complete" "$(jq -r '[.[].status] | join(" ")' <<<"$out")"
	n=$(psql_t "SELECT count(*) FROM schedlab.samples x JOIN schedlab.cases c ON c.id = x.case_id JOIN schedlab.runs r ON r.id = c.run_id WHERE r.label = 'a'")
	expect_eq "samples listed" "$n" "$(jq -r '.[1].samples' <<<"$out")"
	expect_eq "cases" 5 "$(jq -r '.[1].cases' <<<"$out")"
	nb=$(jq -r '.[0].samples' <<<"$out")
	run_sl show a --db "$url"
	expect_eq "show: exit ($err)" 0 "$rc"
	expect_match "show names the run" "run +a" "$out"
	expect_match "show: its command, redacted" "command +schedlab run quick --set groups=1 .* --db postgresql://schedlab@/schedlab\?host=" "$out"
	no_password "show" "$out" "$err"
	no_password "stored command" "$(psql_t "SELECT string_agg(command, ' ') FROM schedlab.runs")"
	run_sl show a --db "$url" --format json
	expect_eq "show json: cases" 5 "$(jq '.cases | length' <<<"$out")"
	# the first case over sockets (the pipe jobs run without probes)
	expect_eq "show json: histograms" "latency" "$(jq -r '[.cases[] | select(.parameters.ipc == "socket")][0].histograms | keys | join(" ")' <<<"$out")"
	SCHEDLAB_DB=$url run_sl list runs --format json
	expect_eq "SCHEDLAB_DB=URL: exit ($err)" 0 "$rc"
	expect_eq "SCHEDLAB_DB=URL: runs" 2 "$(jq length <<<"$out")"
	SCHEDLAB_DB=$url tiny_run --label by-env
	expect_eq "run by SCHEDLAB_DB=URL: exit ($err)" 0 "$rc"
	no_password "run by SCHEDLAB_DB" "$out" "$err" \
		"$(psql_t "SELECT environment::text || command FROM schedlab.runs")"
	psql_t "DELETE FROM schedlab.runs WHERE label = 'by-env'"
	run_sl export a --db "$url" -o "$tmp/a.json"
	expect_eq "export: exit ($err)" 0 "$rc"
	expect_eq "export: label" a "$(jq -r .run.label "$tmp/a.json")"
	run_sl compare a b --db "$url" --format json
	expect_eq "compare: exit ($err)" 0 "$rc"
	expect_eq "compare: two runs" 2 "$(jq '.runs | length' <<<"$out")"
	run_sl report a b --db "$url" -o "$tmp/report"
	expect_eq "report: exit ($err)" 0 "$rc"
	[ -s "$tmp/report/index.html" ] || fail "report: no index.html"
	no_password "report" "$out" "$err" "$(cat "$tmp/report/index.html")"
	run_sl run --dry-run quick --set groups=1 --set loops=10 --iterations 2 --db "$url"
	expect_eq "dry-run: exit ($err)" 0 "$rc"
	expect_match "dry-run: an estimate from PostgreSQL" "estimated time: [0-9:]+ \(from earlier runs of all 5 cases in postgresql://schedlab@/schedlab" "$out"
	no_password "dry-run" "$out" "$err"
	# samples and histograms go with their run (a trigger, not a key)
	psql_t "DELETE FROM schedlab.runs WHERE label = 'a'"
	expect_eq "samples left" "$nb" "$(psql_t "SELECT count(*) FROM schedlab.samples")"
	# (probes on in every case, pipe jobs too: a latency histogram each)
	expect_eq "histograms left" 5 "$(psql_t "SELECT count(DISTINCT case_id) FROM schedlab.histograms")"
	expect_eq "cases left" 5 "$(psql_t "SELECT count(*) FROM schedlab.cases")"
}

# A run imported into PostgreSQL exports the same bytes as from SQLite,
# and one made in PostgreSQL the same bytes once imported into SQLite.
test_pgstore_import_same_bytes() {
	local url
	pg_start
	url=$(pg_url)
	tiny_run --db "$tmp/r.db" --label lite
	expect_eq "run into sqlite: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export lite --db "$tmp/r.db" -o "$tmp/lite.json"
	run_sl import "$tmp/lite.json" --db "$url"
	expect_eq "import: exit ($err)" 0 "$rc"
	expect_match "import: says where" "^imported run [0-9]+ \(lite\) into postgresql://schedlab@/schedlab\?host=" "$out"
	no_password "import" "$out" "$err"
	"$SCHEDLAB" export lite --db "$url" -o "$tmp/lite.pg.json"
	cmp "$tmp/lite.json" "$tmp/lite.pg.json" || fail "export from PostgreSQL differs: $(diff "$tmp/lite.json" "$tmp/lite.pg.json" | head -n 10)"
	tiny_run --db "$url" --label made
	expect_eq "run into pg: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export made --db "$url" -o "$tmp/made.json"
	run_sl import "$tmp/made.json" --db "$tmp/r.db"
	expect_eq "import into sqlite: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export made --db "$tmp/r.db" -o "$tmp/made.lite.json"
	cmp "$tmp/made.json" "$tmp/made.lite.json" || fail "export from SQLite differs: $(diff "$tmp/made.json" "$tmp/made.lite.json" | head -n 10)"
	# what SQLite's own tests store: nulls, odd metric names, text that
	# COPY must escape, a command line that is not UTF-8
	jq '.run.uuid = "00000000-0000-4000-8000-000000000001" | .run.label = "odd\tlabel"
	    | .cases[0].reason = "back\\slash\nnew line" | .cases[0].params = null
	    | .metrics["odd\\name\tx"] = {"unit": "", "better": "none", "headline": false, "help": "tab\there"}
	    | .cases[0].samples["odd\\name\tx"] = [1e-300, null]' \
		"$tmp/lite.json" >"$tmp/odd.json"
	run_sl import "$tmp/odd.json" --db "$tmp/r.db"
	expect_eq "odd into sqlite: exit ($err)" 0 "$rc"
	run_sl import "$tmp/odd.json" --db "$url"
	expect_eq "odd into pg: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export "odd	label" --db "$tmp/r.db" -o "$tmp/odd.lite.json"
	"$SCHEDLAB" export "odd	label" --db "$url" -o "$tmp/odd.pg.json"
	cmp "$tmp/odd.lite.json" "$tmp/odd.pg.json" || fail "odd run differs: $(diff "$tmp/odd.lite.json" "$tmp/odd.pg.json" | head -n 10)"
}

# A uuid already stored: plain import refuses it (exit 2, nothing
# written), as SQLite does; two imports of one file at once store it
# once, the other refused.
# monitors' series (one row per case, iteration and monitor) through
# PostgreSQL: exported the same bytes as from SQLite, either way; a
# schema 1 database (before monitors) is migrated by the next writer.
test_pgstore_monitors() {
	local url
	pg_start
	url=$(pg_url)
	tiny_run --db "$tmp/r.db" --label lite --monitor cpu,runq --monitor-interval 20ms
	expect_eq "run into sqlite: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export lite --db "$tmp/r.db" -o "$tmp/lite.json"
	expect_eq "series in the export" cpu,runq "$(jq -r '.cases[0].monitors | keys | join(",")' "$tmp/lite.json")"
	run_sl import "$tmp/lite.json" --db "$url"
	expect_eq "import: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export lite --db "$url" -o "$tmp/lite.pg.json"
	cmp "$tmp/lite.json" "$tmp/lite.pg.json" || fail "export from PostgreSQL differs: $(diff "$tmp/lite.json" "$tmp/lite.pg.json" | head -n 10)"
	expect_eq "rows: a case's iterations x monitors" \
		"$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM monitors")" \
		"$(psql_t "SELECT count(*) FROM schedlab.monitors")"
	# back to the schema before monitors (2): a writer migrates it
	psql_t "DROP TABLE schedlab.monitors, schedlab.campaigns;
		$PG_UNDO_5
		UPDATE schedlab.schema_version SET version = 2"
	tiny_run --db "$url" --label made --monitor runq --monitor-interval 20ms
	expect_eq "run into pg: exit ($err)" 0 "$rc"
	expect_eq "migrated" 5 "$(psql_t "SELECT version FROM schedlab.schema_version")"
	"$SCHEDLAB" export made --db "$url" -o "$tmp/made.json"
	run_sl import "$tmp/made.json" --db "$tmp/r.db"
	expect_eq "import into sqlite: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export made --db "$tmp/r.db" -o "$tmp/made.lite.json"
	cmp "$tmp/made.json" "$tmp/made.lite.json" || fail "export from SQLite differs"
	expect_eq "made's series" runq "$(jq -r '.cases[0].monitors | keys | join(",")' "$tmp/made.json")"
}

test_pgstore_import_twice() {
	local url runs ok
	pg_start
	url=$(pg_url)
	tiny_run --db "$tmp/r.db" --label x
	"$SCHEDLAB" export x --db "$tmp/r.db" -o "$tmp/x.json"
	run_sl import "$tmp/x.json" --db "$url"
	expect_eq "first: exit ($err)" 0 "$rc"
	run_sl import "$tmp/x.json" --db "$url"
	expect_eq "second: exit" 2 "$rc"
	expect_match "second: why" "x.json: run [0-9a-f-]+ is already in postgresql://schedlab@/schedlab\?host=.* as run 1$" "$err"
	no_password "second" "$err"
	expect_eq "one run" 1 "$(psql_t "SELECT count(*) FROM schedlab.runs")"
	# at once: several pairs, so that the two overlap in some
	jq '.run.uuid = "00000000-0000-4000-8000-00000000000a"' "$tmp/x.json" >"$tmp/y.json"
	for i in 1 2 3 4 5 6; do
		sed "s/0000000a/0000000$i/" "$tmp/y.json" >"$tmp/y$i.json"
		"$SCHEDLAB" import "$tmp/y$i.json" --db "$url" >"$tmp/o1.$i" 2>&1 &
		"$SCHEDLAB" import "$tmp/y$i.json" --db "$url" >"$tmp/o2.$i" 2>&1 &
	done
	wait
	for i in 1 2 3 4 5 6; do
		runs=$(psql_t "SELECT count(*) FROM schedlab.runs WHERE uuid = '00000000-0000-4000-8000-00000000000$i'")
		expect_eq "pair $i: one run" 1 "$runs"
		ok=$(cat "$tmp/o1.$i" "$tmp/o2.$i" | grep -c '^imported run' || true)
		expect_eq "pair $i: one import ($(cat "$tmp/o1.$i" "$tmp/o2.$i"))" 1 "$ok"
		expect_match "pair $i: the other refused" "is already in" "$(cat "$tmp/o1.$i" "$tmp/o2.$i")"
	done
	expect_eq "cases of each" 5 "$(psql_t "SELECT count(*) FROM schedlab.cases c JOIN schedlab.runs r ON r.id = c.run_id WHERE r.uuid LIKE '%0000000003'")"
	# store_import_once(): the unit test against this server
	SCHEDLAB_TEST_PGURL=$url "$(dirname "$SCHEDLAB")/tests/server_pgstore" >"$tmp/unit" 2>&1 ||
		fail "server_pgstore: $(cat "$tmp/unit")"
	grep -q SKIPPED "$tmp/unit" && fail "server_pgstore skipped: $(cat "$tmp/unit")"
	return 0
}

# A database whose schema is newer than this binary: readers and writers
# refuse it, naming both versions; nothing is written.
test_pgstore_newer_schema_refused() {
	local url
	pg_start
	url=$(pg_url)
	tiny_run --db "$url" --label a
	expect_eq "run: exit ($err)" 0 "$rc"
	psql_t "UPDATE schedlab.schema_version SET version = 99"
	run_sl list runs --db "$url"
	expect_eq "list: exit" 2 "$rc"
	expect_match "list: why" "^schedlab: postgresql://schedlab@/schedlab\?host=[^ ]*: database schema version 99 is newer than this schedlab \(5\)$" "$err"
	run_sl show a --db "$url"
	expect_eq "show: exit" 2 "$rc"
	tiny_run --db "$url" --label b
	expect_eq "run: exit" 2 "$rc"
	expect_match "run: why" "schema version 99 is newer" "$err"
	no_password "refusals" "$err"
	expect_eq "nothing written" 1 "$(psql_t "SELECT count(*) FROM schedlab.runs")"
}

# A database no writer has been to: readers see no runs and create
# nothing; run --dry-run gives no estimate rather than fail.
test_pgstore_empty_database() {
	local url
	pg_start
	url=$(pg_url)
	run_sl list runs --db "$url" --format json
	expect_eq "list: exit ($err)" 0 "$rc"
	expect_eq "list: none" "[]" "$(jq -c . <<<"$out")"
	run_sl show a --db "$url"
	expect_eq "show: exit" 2 "$rc"
	expect_eq "show: why" "schedlab: no run 'a' in postgresql://schedlab@/schedlab?host=$PG_DIR&port=$PG_PORT (see 'schedlab list runs')" "$err"
	run_sl compare a b --db "$url"
	expect_eq "compare: exit" 2 "$rc"
	run_sl run --dry-run quick --db "$url"
	expect_eq "dry-run: exit ($err)" 0 "$rc"
	expect_match "dry-run: no estimate" "estimated time: unknown \(no earlier run of these cases in postgresql://schedlab@/schedlab\?host=" "$out"
	expect_eq "nothing created" "" "$(psql_t "SELECT to_regnamespace('schedlab')")"
}

# A server that cannot be reached: one line naming the database by its
# redacted URL, exit 2, for readers and writers alike; nothing left.
test_pgstore_unreachable() {
	local url
	pg_start
	url=$(pg_url)
	tiny_run --db "$tmp/r.db" --label x
	"$SCHEDLAB" export x --db "$tmp/r.db" -o "$tmp/x.json"
	pg_stop
	for cmd in "list runs" "show x" "export x" "compare x x" "import $tmp/x.json"; do
		# shellcheck disable=SC2086
		run_sl $cmd --db "$url"
		expect_eq "$cmd: exit" 2 "$rc"
		expect_match "$cmd: why" "^schedlab: postgresql://schedlab@/schedlab\?host=[^ ]*: cannot connect \(.*\)$" "$err"
		expect_eq "$cmd: one line" 1 "$(wc -l <<<"$err")"
		no_password "$cmd" "$out" "$err"
	done
	tiny_run --db "$url" --label y
	expect_eq "run: exit" 2 "$rc"
	expect_match "run: why" "cannot connect" "$err"
	no_password "run" "$out" "$err"
	expect_no_leftovers
}

# ab into PostgreSQL: both variants stored and linked; list runs --ab
# and show find the others there.
test_pgstore_ab() {
	local url
	pg_start
	url=$(pg_url)
	printf '[t]\nworkload = command\nargv = true\niterations = 2\n' >"$tmp/t.job"
	run_sl ab "$tmp/t.job" --label v --db "$url" -q \
		--variant 'a: env.TAG=a' --variant 'b: env.TAG=b'
	expect_eq "ab: exit ($err)" 0 "$rc"
	no_password "ab" "$out" "$err"
	run_sl list runs --db "$url" --ab v/a --format json
	expect_eq "list --ab: exit ($err)" 0 "$rc"
	expect_eq "list --ab: both" "a b" "$(jq -r '[.[].variant] | sort | join(" ")' <<<"$out")"
	expect_eq "one ab" 1 "$(jq -r '[.[].ab] | unique | length' <<<"$out")"
	run_sl show v/b --db "$url"
	expect_eq "show: exit ($err)" 0 "$rc"
	expect_match "show: the other variant" "variant +b of A/B [0-9a-f]{8}\.\.\. \(runs [0-9]+ a, [0-9]+ b\)" "$out"
}

# A writer killed outright leaves its run "running": readers show it
# abandoned, and the next writer marks it so.
test_pgstore_abandoned() {
	local url pid
	pg_start
	url=$(pg_url)
	printf '[t]\nworkload = command\nargv = sleep 30\niterations = 1\n' >"$tmp/t.job"
	"$SCHEDLAB" run "$tmp/t.job" --db "$url" --label k -q >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ "$(psql_t "SELECT count(*) FROM schedlab.runs")" = 1 ] && break
		sleep 0.1
	done
	kill -9 "$pid"
	wait "$pid" || true
	expect_eq "stored running" running "$(psql_t "SELECT status FROM schedlab.runs")"
	run_sl list runs --db "$url" --format json
	expect_eq "shown abandoned" abandoned "$(jq -r '.[0].status' <<<"$out")"
	tiny_run --db "$url" --label next
	expect_eq "next run: exit ($err)" 0 "$rc"
	expect_eq "marked abandoned" abandoned "$(psql_t "SELECT status FROM schedlab.runs WHERE label = 'k'")"
	expect_no_leftovers
}

# The server stopped in the middle of an import's COPY: the import says
# so in one line (exit 2) and nothing of the run is stored.
test_pgstore_server_stops_mid_import() {
	local url pid
	pg_start
	url=$(pg_url)
	tiny_run --db "$tmp/r.db" --label big
	"$SCHEDLAB" export big --db "$tmp/r.db" |
		jq '.cases |= map(.iterations = 2000
		    | .histograms = {} | .samples |= map_values([range(2000)] | map(. + 0.5)))' \
		>"$tmp/big.json"
	run_sl import "$tmp/big.json" --db "$url"	# the schema, and a check
	expect_eq "import: exit ($err)" 0 "$rc"
	psql_t "DELETE FROM schedlab.runs"
	"$SCHEDLAB" import "$tmp/big.json" --db "$url" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 200); do
		[ "$(psql_t "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY samples%'")" = 1 ] && break
		sleep 0.02
	done
	pg_stop
	set +e
	wait "$pid"
	rc=$?
	set -e
	expect_eq "import: exit ($(cat "$tmp/err"))" 2 "$rc"
	expect_eq "import: one line" 1 "$(wc -l <"$tmp/err")"
	expect_match "import: names the database" "^schedlab: postgresql://schedlab@/schedlab\?host=" "$(cat "$tmp/err")"
	pg_restart
	expect_eq "no run" 0 "$(psql_t "SELECT count(*) FROM schedlab.runs")"
	expect_eq "no case" 0 "$(psql_t "SELECT count(*) FROM schedlab.cases")"
	expect_eq "no sample" 0 "$(psql_t "SELECT count(*) FROM schedlab.samples")"
	expect_no_leftovers
}

# The server restarted in the middle of `run --db URL`: the run's next
# cases are stored on a new connection, and it ends as it should.
test_pgstore_server_restarts_mid_run() {
	local url pid cases status
	pg_start
	url=$(pg_url)
	printf '[a]\nworkload = command\nargv = sleep 2\niterations = 1\n[b]\nworkload = command\nargv = sleep 2\niterations = 1\n[c]\nworkload = command\nargv = sleep 2\niterations = 1\n' >"$tmp/t.job"
	"$SCHEDLAB" run "$tmp/t.job" --db "$url" --label r -q >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 200); do
		[ "$(psql_t "SELECT count(*) FROM schedlab.cases" 2>/dev/null)" = 1 ] && break
		sleep 0.05
	done
	pg_stop
	pg_restart
	set +e
	wait "$pid"
	rc=$?
	set -e
	cases=$(psql_t "SELECT string_agg(job, ' ' ORDER BY seq) FROM schedlab.cases")
	status=$(psql_t "SELECT status FROM schedlab.runs")
	# b was running while the server was down: stored if it ended after
	# the restart, lost (and said) if before
	if [ "$cases" = "a b c" ]; then
		expect_eq "status ($(cat "$tmp/err"))" complete "$status"
		expect_eq "exit" 0 "$rc"
	else
		expect_eq "cases ($(cat "$tmp/err"))" "a c" "$cases"
		expect_eq "status" partial "$status"
	fi
	no_password "run" "$(cat "$tmp/out" "$tmp/err")"
	expect_no_leftovers
}

# A label stands for its latest complete run with cases in PostgreSQL as
# in SQLite: a newer run of it abandoned before its first case does not
# hide it (show names the run it took).
test_pgstore_label_skips_abandoned_run() {
	local url
	pg_start
	url=$(pg_url)
	tiny_run --db "$tmp/r.db" --label k
	expect_eq "run: exit ($err)" 0 "$rc"
	"$SCHEDLAB" export k --db "$tmp/r.db" -o "$tmp/k.json"
	jq --arg uuid "$(cat /proc/sys/kernel/random/uuid)" \
		'.run.uuid = $uuid | .run.started += 100 | .run.ended = .run.started + 1 |
		 .run.status = "abandoned" | .cases = []' "$tmp/k.json" >"$tmp/k-abandoned.json"
	for f in k k-abandoned; do
		run_sl import "$tmp/$f.json" --db "$url"
		expect_eq "import $f: exit ($err)" 0 "$rc"
	done
	expect_eq "show: the complete run" "$(jq -r .run.uuid "$tmp/k.json") complete" \
		"$("$SCHEDLAB" show k --db "$url" --format json | jq -r '"\(.run.uuid) \(.run.status)"')"
}
