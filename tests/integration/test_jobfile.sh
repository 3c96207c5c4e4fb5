# SPDX-License-Identifier: GPL-2.0-only
#
# Job files that cannot run: each is refused with exit status 2 and one
# line on stderr, "FILE:LINE: ..." naming the option or section where
# the mistake has a line, and nothing is stored - a new database is not
# even created, an existing one gets no run.

# bad_job NAME LINE REGEX CONTENT: writes CONTENT (printf %b escapes) to
# $tmp/NAME.job; `schedlab run` of it must fail as above, its one line
# of stderr starting "schedlab: FILE:LINE: " (just "FILE: " when LINE is
# -) and matching REGEX.
bad_job() {
	local name=$1 line=$2 regex=$3 file=$tmp/$1.job where

	printf '%b' "$4" >"$file"
	if [ "$line" = - ]; then
		where="$file: "
	else
		where="$file:$line: "
	fi
	bad_run "$name" "$file" "$where" "$regex"
}

# bad_run NAME FILE PREFIX REGEX: `schedlab run FILE` fails with exit
# status 2, one line on stderr starting with "schedlab: PREFIX" and
# matching REGEX; neither $tmp/new.db nor a run in $tmp/have.db appears;
# -n (--dry-run) refuses it too.
bad_run() {
	local name=$1 file=$2 prefix=$3 regex=$4

	run_sl run "$file" --db "$tmp/new.db"
	expect_eq "$name: exit status" 2 "$rc"
	expect_eq "$name: stdout" "" "$out"
	expect_eq "$name: stderr lines ($err)" 1 "$(nlines "$err")"
	[[ $err == "schedlab: $prefix"* ]] ||
		fail "$name: stderr does not start with 'schedlab: $prefix': $err"
	expect_match "$name: message" "$regex" "$err"
	[ ! -e "$tmp/new.db" ] || fail "$name: the database was created"
	run_sl run "$file" --db "$tmp/have.db"
	expect_eq "$name: exit status (existing database)" 2 "$rc"
	expect_eq "$name: runs" 1 "$(nruns "$tmp/have.db")"
	run_sl run -n "$file" --db "$tmp/have.db"
	expect_eq "$name: exit status (--dry-run)" 2 "$rc"
	expect_eq "$name: stdout (--dry-run)" "" "$out"
}

# have_db: $tmp/have.db with one run in it.
have_db() {
	printf '[p]\nworkload = pipe\nloops = 100\niterations = 1\n' >"$tmp/ok.job"
	"$SCHEDLAB" run -q "$tmp/ok.job" --db "$tmp/have.db" || fail "the first run failed"
	expect_eq "runs" 1 "$(nruns "$tmp/have.db")"
}

test_jobfile_mistakes() {
	use_tmpdir
	have_db
	bad_job unknown-option 3 "'bogus' is not an option of workload messaging" \
		'[j]\nworkload = messaging\nbogus = 1\n'
	bad_job bad-value 4 "groups: 'many' is not a number" \
		'[j]\nworkload = messaging\nfds = 2\ngroups = many\n'
	bad_job bad-value-in-global 2 "iterations: '0' is out of range" \
		'[global]\niterations = 0\n[j]\nworkload = pipe\n'
	bad_job sweep-item-out-of-range 3 "groups: '0' is out of range \(expected a whole number in 1\.\.100000\)" \
		'[j]\nworkload = messaging\ngroups = 1,0,3\n'
	bad_job sweep-item-too-big 3 "groups \\(from 1\\.\\.200000:\\*2\\): '131072' is out of range" \
		'[j]\nworkload = messaging\ngroups = 1..200000:*2,200000\n'
	bad_job sweep-enum 3 "ipc: 'carrier-pigeon'" \
		'[j]\nworkload = messaging\nipc = pipe,carrier-pigeon\n'
	bad_job unknown-workload 2 "unknown workload 'nosuch'" \
		'[j]\nworkload = nosuch\nloops = 1\n'
	bad_job duplicate-section 4 "duplicate job \[j\]" \
		'[j]\nworkload = pipe\n\n[j]\nworkload = messaging\n'
	bad_job sweep-to-nothing 3 "groups: '8\.\.4' expands to nothing" \
		'[j]\nworkload = messaging\ngroups = 8..4\n'
	bad_job too-many-cases - "20000 cases, more than 10000" \
		'[j]\nworkload = messaging\ngroups = 1..200\nfds = 1..100\n'
	bad_job too-many-cases-over-jobs - "more than 10000" \
		'[a]\nworkload = pipe\nloops = 1..6000\n[b]\nworkload = pipe\nloops = 1..6000\n'
	bad_job bad-timeout 3 "timeout: '5x' is not a duration" \
		'[j]\nworkload = pipe\ntimeout = 5x\n'
	bad_job bad-cpus 3 "cpus: '8191' is out of range .*CPU 8191 does not exist" \
		'[j]\nworkload = pipe\ncpus = 8191\n'
	bad_job outside-section 1 "'loops' is outside any section" \
		'loops = 1\n[j]\nworkload = pipe\n'
	bad_job global-option-of-no-job 2 "'fds' is not an option of the jobs' workloads" \
		'[global]\nfds = 2\n[j]\nworkload = pipe\n'
	bad_job not-key-value 3 "not a section header or key = value line" \
		'[j]\nworkload = pipe\nloops\n'
	bad_job no-jobs - "no jobs" \
		'[global]\niterations = 2\n'
	bad_job empty - "no jobs" ''
	# NCPU: a term that comes to 0
	SCHEDLAB_NCPU=1 bad_job ncpu-zero 3 'groups: .\$ncpu/2. is 0 with 1 CPU' \
		'[j]\nworkload = messaging\ngroups = $ncpu/2\n'
}

# The section of a job without a workload has a line: the message names it.
test_jobfile_missing_workload_names_line() {
	use_tmpdir
	have_db
	bad_job missing-workload 2 "job \[j\] has no 'workload =' line" \
		'; a comment\n[j]\ngroups = 1\n'
}

test_jobfile_binary_garbage() {
	use_tmpdir
	have_db
	printf '\0\1\2' >"$tmp/garbage.job"
	bad_run binary "$tmp/garbage.job" "$tmp/garbage.job:1: " "binary"
	head -c 3000 /dev/urandom >"$tmp/random.job"
	printf '\0' >>"$tmp/random.job"
	bad_run random "$tmp/random.job" "$tmp/random.job:" "."
}

test_jobfile_missing_file_or_suite() {
	use_tmpdir
	have_db
	bad_run missing-file "$tmp/nothere.job" "" "$tmp/nothere\\.job"
	expect_match "missing-file: why" "No such file or directory" "$err"
	# a name without / or .job is a suite: SCHEDLAB_JOBS, then built in
	mkdir "$tmp/jobs"
	(cd "$tmp" && SCHEDLAB_JOBS=$tmp/jobs bad_run unknown-suite nosuchsuite "" "nosuchsuite")
	expect_match "unknown-suite: hint" "list suites" \
		"$(cd "$tmp" && "$SCHEDLAB" run nosuchsuite --db "$tmp/new.db" 2>&1)"
	# two operands
	run_sl run "$tmp/ok.job" "$tmp/ok.job" --db "$tmp/have.db"
	expect_eq "two job files: exit status" 2 "$rc"
	expect_eq "two job files: runs" 1 "$(nruns "$tmp/have.db")"
	# a directory
	bad_run directory "$tmp/jobs" "" "$tmp/jobs"
}

# A FIFO (or any file that is not a regular file) is refused before it
# is opened: reading one would block until a writer came (issue 12,
# defect 10). timeout turns a hang into a failure, not a stuck suite.
test_jobfile_fifo_refused() {
	use_tmpdir
	have_db
	mkfifo "$tmp/fifo.job"
	set +e
	timeout 10 "$SCHEDLAB" run -n "$tmp/fifo.job" --db "$tmp/have.db" 2>"$tmp/err" >/dev/null
	rc=$?
	set -e
	[ "$rc" != 124 ] || { fail "fifo: run -n blocked on the FIFO"; return; }
	bad_run fifo "$tmp/fifo.job" "$tmp/fifo.job: " "not a regular file \\(a FIFO\\)"
	bad_run chardev /dev/null "/dev/null: " "not a regular file \\(a character device\\)"
}

# A mistake in a job after good ones still stops everything before any
# case runs.
test_jobfile_late_mistake_runs_nothing() {
	use_tmpdir
	have_db
	bad_job late-mistake 7 "loops: '0' is out of range" \
		'[good]\nworkload = pipe\nloops = 100\n\n[bad]\nworkload = pipe\nloops = 0\n'
	expect_no_leftovers
}
