# SPDX-License-Identifier: GPL-2.0-only
# Runs between databases and across hosts: push and pull (idempotent by
# uuid, byte-exact round trips, running runs left for later, databases
# that cannot be reached), list runs --host, show's host line, compare
# --by host. The push/pull tests run SQLite -> SQLite and, where
# PostgreSQL's server programs are installed, against a real server
# (pg_start).

# sync_run DB LABEL HOST: one tiny run of the quick suite into DB.
sync_run() {
	"$SCHEDLAB" run quick --set groups=1 --set loops=10 --iterations 2 \
		--db "$1" --label "$2" --host "$3" -q >/dev/null 2>&1 ||
		fail "run $2 on $3 into $1 failed"
}

# uuids DB: the uuids of DB's runs, sorted, one a line.
uuids() {
	"$SCHEDLAB" list runs --format json --db "$1" | jq -r '.[].uuid' | sort
}

# sync_roundtrip TARGET: three runs in $tmp/a.db pushed to TARGET twice
# (stored once), pulled into $tmp/b.db by id, label and uuid, each
# exported byte for byte as from a.db.
sync_roundtrip() {
	local target=$1 u n
	sync_run "$tmp/a.db" base lkp-a
	sync_run "$tmp/a.db" cand lkp-a
	sync_run "$tmp/a.db" base lkp-b

	run_sl push --to "$target" --db "$tmp/a.db"
	expect_eq "first push: exit status ($err)" 0 "$rc"
	expect_eq "first push: lines for runs" 3 "$(grep -c '^pushed run ' <<<"$out")"
	n=$("$SCHEDLAB" list runs --format json --db "$tmp/a.db" | jq '[.[].samples] | add')
	expect_line "first push: summary" "^pushed 3 runs \\($n samples\\) to " "$out"
	run_sl push --to "$target" --db "$tmp/a.db"
	expect_eq "second push: exit status ($err)" 0 "$rc"
	expect_line "second push: summary" '^pushed 0 runs \(0 samples\) to .*; 3 already there$' "$out"
	expect_eq "second push: runs in the target" 3 \
		"$("$SCHEDLAB" list runs --format json --db "$target" | jq length)"
	expect_eq "target's uuids" "$(uuids "$tmp/a.db")" "$(uuids "$target")"

	# pull by label (the latest base), by uuid, by id
	u=$("$SCHEDLAB" list runs --format json --db "$tmp/a.db" |
		jq -r '.[] | select(.label == "cand") | .uuid')
	run_sl pull base "$u" --from "$target" --db "$tmp/b.db"
	expect_eq "pull: exit status ($err)" 0 "$rc"
	expect_line "pull: summary" '^pulled 2 runs \([0-9]+ samples\) from .* into ' "$out"
	run_sl pull base --from "$target" --db "$tmp/b.db"
	expect_eq "pull again: exit status ($err)" 0 "$rc"
	expect_line "pull again: summary" '^pulled 0 runs .*; 1 already there$' "$out"
	expect_eq "pulled runs" 2 "$(nruns "$tmp/b.db")"

	for u in $(uuids "$tmp/b.db"); do
		"$SCHEDLAB" export "$u" --db "$tmp/a.db" >"$tmp/from_a.json"
		"$SCHEDLAB" export "$u" --db "$target" >"$tmp/from_target.json"
		"$SCHEDLAB" export "$u" --db "$tmp/b.db" >"$tmp/from_b.json"
		cmp "$tmp/from_a.json" "$tmp/from_target.json" ||
			fail "run $u: the target's export differs from the original's"
		cmp "$tmp/from_a.json" "$tmp/from_b.json" ||
			fail "run $u: the pulled run's export differs from the original's"
	done
}

test_sync_push_pull_sqlite() {
	use_tmpdir
	sync_roundtrip "$tmp/fleet.db"
}

test_sync_push_pull_postgresql() {
	pg_start
	sync_roundtrip "$PGURL"
}

# Two pushes of the same runs at once store each run once.
sync_concurrent() {
	local target=$1 p1 p2
	for i in 1 2 3; do sync_run "$tmp/a.db" "r$i" lkp-a; done
	"$SCHEDLAB" push --to "$target" --db "$tmp/a.db" >"$tmp/p1" 2>&1 & p1=$!
	"$SCHEDLAB" push --to "$target" --db "$tmp/a.db" >"$tmp/p2" 2>&1 & p2=$!
	wait $p1 || fail "first push failed: $(cat "$tmp/p1")"
	wait $p2 || fail "second push failed: $(cat "$tmp/p2")"
	expect_eq "runs in the target" "$(uuids "$tmp/a.db")" "$(uuids "$target")"
}

test_sync_push_twice_at_once_sqlite() {
	use_tmpdir
	sync_concurrent "$tmp/fleet.db"
}

test_sync_push_twice_at_once_postgresql() {
	pg_start
	sync_concurrent "$PGURL"
}

# Named RUNs only; a RUN that is not there is refused before anything
# is copied.
test_sync_push_named_runs() {
	use_tmpdir
	sync_run "$tmp/a.db" base lkp-a
	sync_run "$tmp/a.db" cand lkp-a
	run_sl push cand nosuch --to "$tmp/fleet.db" --db "$tmp/a.db"
	expect_eq "unknown RUN: exit status" 2 "$rc"
	expect_match "unknown RUN: message" "no run 'nosuch'" "$err"
	expect_eq "unknown RUN: runs in the target" 0 "$(nruns "$tmp/fleet.db")"
	run_sl push cand --to "$tmp/fleet.db" --db "$tmp/a.db"
	expect_eq "push cand: exit status ($err)" 0 "$rc"
	expect_eq "push cand: labels in the target" cand \
		"$("$SCHEDLAB" list runs --format json --db "$tmp/fleet.db" | jq -r '.[].label')"
	run_sl pull 7 --from "$tmp/fleet.db" --db "$tmp/b.db"
	expect_eq "pull of no run: exit status" 2 "$rc"
	run_sl push --db "$tmp/a.db"
	expect_eq "push without --to: exit status" 2 "$rc"
	expect_match "push without --to: message" "--to DB is required" "$err"
	run_sl pull --from "$tmp/fleet.db" --db "$tmp/b.db"
	expect_eq "pull without RUN: exit status" 2 "$rc"
	run_sl pull 1 --from "$tmp/nothere.db" --db "$tmp/b.db"
	expect_eq "pull from no database: exit status" 2 "$rc"
	[ ! -e "$tmp/nothere.db" ] || fail "pull created the database it reads"
}

# A run still running is left for a later push; once it has ended, the
# next push takes it.
test_sync_push_skips_a_running_run() {
	use_tmpdir
	sync_run "$tmp/a.db" done lkp-a
	printf '[w]\nworkload = command\niterations = 1\nwarmup = 0\nargv = sh -c "while [ ! -e %s/go ]; do sleep 0.05; done"\n' \
		"$tmp" >"$tmp/wait.job"
	"$SCHEDLAB" run "$tmp/wait.job" --db "$tmp/a.db" --label waiting -q \
		>/dev/null 2>&1 & pid=$!
	for _ in $(seq 100); do
		[ "$(nruns "$tmp/a.db")" = 2 ] && break
		sleep 0.1
	done
	run_sl push --to "$tmp/fleet.db" --db "$tmp/a.db"
	touch "$tmp/go"
	wait $pid || fail "the waiting run failed"
	expect_eq "push: exit status ($err)" 0 "$rc"
	expect_line "push: the running run's note" \
		'^run [0-9]+ \(waiting\): still running, not pushed \(push it when it ends\)$' "$out"
	expect_line "push: summary" '^pushed 1 run .*; 1 still running, skipped$' "$out"
	run_sl push --to "$tmp/fleet.db" --db "$tmp/a.db"
	expect_line "push after it ended" '^pushed 1 run .*; 1 already there$' "$out"
	expect_eq "runs in the target" "$(uuids "$tmp/a.db")" "$(uuids "$tmp/fleet.db")"
}

# A run the target refuses (a trigger aborts its insert) fails alone:
# the others are pushed, exit 1, nothing of it is left half-written.
test_sync_push_one_run_fails() {
	use_tmpdir
	sync_run "$tmp/a.db" ok1 lkp-a
	sync_run "$tmp/a.db" bad lkp-a
	sync_run "$tmp/a.db" ok2 lkp-a
	sync_run "$tmp/fleet.db" other lkp-z
	sqlite3 "$tmp/fleet.db" "CREATE TRIGGER refuse AFTER INSERT ON cases
		WHEN (SELECT label FROM runs WHERE id = NEW.run_id) = 'bad'
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
	run_sl push --to "$tmp/fleet.db" --db "$tmp/a.db"
	expect_eq "push: exit status ($err)" 1 "$rc"
	expect_line "push: summary" '^pushed 2 runs .*; 1 failed$' "$out"
	expect_match "push: why" "refused by the test" "$err"
	expect_line "push: the run that failed" '^run [0-9]+ \(bad\): failed, not pushed$' "$out"
	expect_eq "target's labels" "ok1 ok2 other" \
		"$("$SCHEDLAB" list runs --format json --db "$tmp/fleet.db" | jq -r '.[].label' | sort | xargs)"
	expect_eq "no case of the refused run" 0 \
		"$(sqlite3 "$tmp/fleet.db" "SELECT count(*) FROM cases WHERE run_id NOT IN (SELECT id FROM runs)")"
	sqlite3 "$tmp/fleet.db" "DROP TRIGGER refuse"
	run_sl push --to "$tmp/fleet.db" --db "$tmp/a.db"
	expect_eq "push again: exit status ($err)" 0 "$rc"
	expect_line "push again: summary" '^pushed 1 run .*; 2 already there$' "$out"
}

# A database that cannot be reached: exit 2, one line naming it without
# its password, nothing stored locally.
test_sync_unreachable_database() {
	use_tmpdir
	sync_run "$tmp/a.db" base lkp-a
	run_sl push --to "postgresql://fleet:s3cret@127.0.0.1:1/schedlab?connect_timeout=2" \
		--db "$tmp/a.db"
	expect_eq "push: exit status" 2 "$rc"
	expect_match "push: names the database" "postgresql://fleet@127.0.0.1:1/schedlab" "$err"
	[[ $err != *s3cret* ]] || fail "push: the password is in the message: $err"
	expect_eq "push: lines of messages" 1 "$(wc -l <<<"$err")"
	run_sl pull base --from "postgresql://fleet:s3cret@127.0.0.1:1/schedlab?password=s3cret" \
		--db "$tmp/b.db"
	expect_eq "pull: exit status" 2 "$rc"
	[[ $err != *s3cret* ]] || fail "pull: the password is in the message: $err"
	[ ! -e "$tmp/b.db" ] || fail "pull from an unreachable database created $tmp/b.db"
}

# list runs --host: a glob over the hosts; a HOST column once the runs
# listed come from more than one host.
test_sync_list_runs_host() {
	use_tmpdir
	sync_run "$tmp/a.db" base lkp-a
	sync_run "$tmp/a.db" base lkp-b
	sync_run "$tmp/a.db" base other
	run_sl list runs --db "$tmp/a.db"
	expect_eq "list: exit status ($err)" 0 "$rc"
	expect_line "list: HOST column" '^ +ID +LABEL +HOST +STARTED' "$out"
	expect_eq "list: hosts in the HOST column" "lkp-a lkp-b other" \
		"$(awk 'NR > 1 { print $3 }' <<<"$out" | sort | xargs)"
	run_sl list runs --db "$tmp/a.db" --host 'lkp-*' --format json
	expect_eq "--host lkp-*: hosts" "lkp-a lkp-b" "$(jq -r '.[].host' <<<"$out" | sort | xargs)"
	run_sl list runs --db "$tmp/a.db" --host lkp-b
	expect_eq "--host lkp-b: runs" 1 "$(awk 'NR > 1' <<<"$out" | wc -l)"
	[[ $(head -n 1 <<<"$out") != *HOST* ]] || fail "--host lkp-b: a HOST column for one host"
	run_sl list runs --db "$tmp/a.db" --host 'nothing*' --format json
	expect_eq "--host nothing*: runs" 0 "$(jq length <<<"$out")"
	run_sl list suites --host lkp-a
	expect_eq "list suites --host: exit status" 2 "$rc"
}

# show's host line: the host and the topology stored with the run.
test_sync_show_host_topology() {
	use_tmpdir
	sync_run "$tmp/a.db" base lkp-a
	"$SCHEDLAB" export base --db "$tmp/a.db" | jq '
		.run.uuid = "0badc0de-0000-4000-8000-000000000001" |
		.environment.cpus.online.value.count = 32 |
		.environment.topology.packages.value.groups = [[range(0;16)], [range(16;32)]] |
		.environment.topology.smt.value.groups = [range(0;16) | [., . + 16]] |
		.environment.topology.smt.value.threads_per_core = 2 |
		.environment.topology.llc = {available: true,
			value: {groups: [[range(0;16)], [range(16;32)]], level: 3}}' \
		>"$tmp/big.json"
	"$SCHEDLAB" import "$tmp/big.json" --db "$tmp/a.db" >/dev/null
	run_sl show 0badc0de-0000-4000-8000-000000000001 --db "$tmp/a.db"
	expect_eq "show: exit status ($err)" 0 "$rc"
	expect_line "show: host line" \
		'^host +lkp-a \(2 packages, 16 cores, 32 CPUs, 2 LLCs, SMT on\)$' "$out"
	# this machine's, with an LLC count only where its sysfs has caches
	local llc=
	[ ! -e /sys/devices/system/cpu/cpu0/cache/index0 ] || llc=' [0-9]+ LLCs?,'
	run_sl show 1 --db "$tmp/a.db"
	expect_line "show: this machine's host line" \
		"^host +lkp-a \\([0-9]+ packages?, [0-9]+ cores?, $(getconf _NPROCESSORS_ONLN) CPUs?,$llc SMT o(n|ff)\\)$" "$out"
}

# compare BASE CAND --by host: seed 003's shape - the same change
# regresses one host and improves another - with a host that has only
# the baseline named in a note. The runs are real (each host's machine
# description, its command line), their timings set afterwards to 0.1 s
# (base), 0.4 s (lkp-a's cand) and 0.01 s (lkp-b's), each +-2%: what
# is tested is the grouping by host, not how fast a program starts on a
# loaded machine (which can take longer than the sleeps themselves).
sync_hosts() {
	local n=0 h label t
	printf '[w]\nworkload = command\niterations = 5\nwarmup = 0\nargv = true\n' >"$tmp/w.job"
	while read -r h label t; do
		n=$((n + 1))
		"$SCHEDLAB" run "$tmp/w.job" --db "$tmp/real.db" --label "$label" \
			--host "$h" -q || fail "run $label on $h"
		"$SCHEDLAB" export "$n" --db "$tmp/real.db" |
			jq --argjson t "$t" '.cases[0].samples."command.time" =
				[1, 1.01, 0.99, 1.02, 0.98 | . * $t]' >"$tmp/run$n.json"
		"$SCHEDLAB" import "$tmp/run$n.json" --db "$tmp/h.db" >/dev/null ||
			fail "import $label of $h"
	done <<-EOF
		lkp-a base 0.1
		lkp-b base 0.1
		lkp-c base 0.1
		lkp-a cand 0.4
		lkp-b cand 0.01
	EOF
}

test_sync_compare_by_host() {
	use_tmpdir
	sync_hosts
	run_sl compare --unit iteration base cand --by host --match job --db "$tmp/h.db"
	expect_eq "text: exit status ($err)" 0 "$rc"
	expect_line "text: lkp-a's block" '^== host lkp-a \([0-9]+ packages?, .*CPUs?.*\) ==$' "$out"
	expect_line "text: lkp-b's block" '^== host lkp-b \(' "$out"
	[[ $out != *"== host lkp-c"* ]] || fail "text: a block for lkp-c, which has no cand"
	expect_line "text: lkp-a's verdict" '^lkp-a +w +command\.time +-[0-9.]+% +regressed$' "$out"
	expect_line "text: lkp-b's verdict" '^lkp-b +w +command\.time +\+[0-9.]+% +improved$' "$out"
	expect_line "text: the host with one label" '^note: lkp-c has only base, not compared$' "$out"

	run_sl compare --unit iteration base cand --by host --match job --db "$tmp/h.db" --format json
	expect_eq "json: exit status ($err)" 0 "$rc"
	expect_eq "json: schema" schedlab-compare-hosts/1 "$(jval "$out" .schema)"
	expect_eq "json: verdicts" "lkp-a:regressed lkp-b:improved" \
		"$(jq -r '.hosts[] | "\(.host):\(.verdict)"' <<<"$out" | xargs)"
	expect_eq "json: each host's comparison" "schedlab-compare/1 schedlab-compare/1" \
		"$(jq -r '.hosts[].comparison.schema' <<<"$out" | xargs)"
	expect_eq "json: the runs compared on lkp-a" \
		"$("$SCHEDLAB" list runs --db "$tmp/h.db" --host lkp-a --format json | jq -r '[.[] | .uuid] | reverse | join(" ")')" \
		"$(jq -r '.hosts[0].comparison.runs | map(.uuid) | join(" ")' <<<"$out")"
	expect_eq "json: only" "lkp-c:base" "$(jq -r '.only[] | "\(.host):\(.has)"' <<<"$out")"

	run_sl compare --unit iteration base cand --by host --match job --db "$tmp/h.db" --format markdown
	expect_line "markdown: lkp-a's heading" '^## host lkp-a \(' "$out"
	expect_line "markdown: lkp-b's row" '^\| lkp-b \| w \| command\.time \| \+[0-9.]+% \| improved \|$' "$out"
	run_sl compare --unit iteration base cand --by host --match job --db "$tmp/h.db" --format csv
	expect_line "csv: header" '^host,job,sweep,metric,run,' "$out"
	expect_eq "csv: rows per host" "2 2" \
		"$(awk -F, 'NR > 1 { n[$1]++ } END { print n["lkp-a"], n["lkp-b"] }' <<<"$out")"
}

test_sync_compare_by_host_refuses_runs() {
	use_tmpdir
	sync_hosts
	"$SCHEDLAB" export base --db "$tmp/h.db" >"$tmp/base.json"
	for spec in 1 "$tmp/base.json" \
		"$("$SCHEDLAB" list runs --db "$tmp/h.db" --format json | jq -r '.[0].uuid')"; do
		run_sl compare "$spec" cand --by host --db "$tmp/h.db"
		expect_eq "--by host with $spec: exit status" 2 "$rc"
		expect_match "--by host with $spec: message" "--by host takes two labels" "$err"
	done
	run_sl compare base cand --by host --format html --db "$tmp/h.db"
	expect_eq "--format html: exit status" 2 "$rc"
	run_sl compare base nosuch --by host --db "$tmp/h.db"
	expect_eq "no host with both: exit status" 2 "$rc"
	expect_match "no host with both: message" "no host has runs labelled both 'base' and 'nosuch'" "$err"
	run_sl compare base cand --by nothing --db "$tmp/h.db"
	expect_eq "--by nothing: exit status" 2 "$rc"
}

# The fleet's way: every host pushes into one PostgreSQL database, and
# compare --by host reads it there as from the SQLite file.
test_sync_compare_by_host_postgresql() {
	pg_start
	sync_hosts
	run_sl push --to "$PGURL" --db "$tmp/h.db"
	expect_eq "push: exit status ($err)" 0 "$rc"
	run_sl compare --unit iteration base cand --by host --match job --db "$tmp/h.db" --format json
	local want=$out
	run_sl compare --unit iteration base cand --by host --match job --db "$PGURL" --format json
	expect_eq "compare from PostgreSQL: exit status ($err)" 0 "$rc"
	expect_eq "compare from PostgreSQL: the same document" "$want" "$out"
	run_sl list runs --db "$PGURL" --host 'lkp-[ab]' --format json
	expect_eq "list --host from PostgreSQL" "lkp-a lkp-a lkp-b lkp-b" \
		"$(jq -r '.[].host' <<<"$out" | sort | xargs)"
}

# A run written into a database by other means than schedlab run (here
# sqlite3: a uuid that is none, a host with a newline) is not pushed on:
# push checks what import checks. Its label is shown escaped.
test_sync_push_refuses_what_run_could_not_write() {
	use_tmpdir
	sync_run "$tmp/a.db" ok lkp-a
	sync_run "$tmp/a.db" forged lkp-a
	sqlite3 "$tmp/a.db" "UPDATE runs SET uuid = ''';DROP TABLE runs;--',
		host = 'a' || char(10) || 'b', label = 'forged' || char(10) || 'x'
		WHERE label = 'forged'"
	run_sl push --to "$tmp/fleet.db" --db "$tmp/a.db"
	expect_eq "push: exit status ($err)" 1 "$rc"
	expect_line "push: summary" '^pushed 1 run .*; 1 failed$' "$out"
	expect_line "push: the run, escaped" '^run [0-9]+ \(forged\\nx\): failed, not pushed: it holds what schedlab run could not have written$' "$out"
	expect_match "push: why" "run [0-9]+: run\.(uuid|host)" "$err"
	expect_eq "pushed: only the good run" ok \
		"$("$SCHEDLAB" list runs --format json --db "$tmp/fleet.db" | jq -r '.[].label' | xargs)"
}
