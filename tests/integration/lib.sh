# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for integration tests. Each test is a function test_NAME in a
# tests/integration/test_*.sh file, run by tests/run.sh in a fresh bash
# with `set -e`, $SCHEDLAB pointing at the binary under test and $TOP at
# the source tree. A test fails by returning non-zero or by `fail`, and
# skips with `skip WHY` when the machine lacks what it needs.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip WHY: ends the test as skipped (exit 77), not passed; tests/run.sh
# prints "ok - NAME # SKIP WHY" and counts it in "N skipped". WHY names
# what this machine lacks ("no strace", "needs root").
skip() {
	echo "skip: $*"
	exit 77
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# expect_match WHAT REGEX TEXT
# unwarned TEXT: TEXT without the warnings a run may print on any
# machine: a busy machine, iterations too few for the test to decide
# (plan_warn_power()).
unwarned() {
	grep -Ev '^schedlab: warning: (the machine was busy|[0-9]+ iterations?( in [^:]*)?: )' <<<"$1" || true
}

expect_match() {
	[[ $3 =~ $2 ]] || fail "$1: '$3' does not match /$2/"
}

# run_sl ARGS...: runs schedlab; sets $out, $err and $rc, never fails.
run_sl() {
	local e
	e=$(mktemp)
	set +e
	out=$("$SCHEDLAB" "$@" 2>"$e")
	rc=$?
	set -e
	err=$(cat "$e")
	rm -f "$e"
}

# jval JSON JQ-FILTER: one value from JSON text.
jval() {
	jq -er "$2" <<<"$1" || fail "jq '$2' found nothing in: $1"
}

# Every process a test starts carries this tag in its environment, so a
# test finds its own schedlab processes and never another's: other
# schedlab runs (benchmarks, other test runs) may share the machine.
# tests/run.sh gives each test its own, and kills what carries it when
# the test has ended.
export SCHEDLAB_TEST_TAG="${SCHEDLAB_TEST_TAG:-sltest.$$.$RANDOM}"

# tagged_pids: live schedlab processes (not zombies) started by this test.
tagged_pids() {
	local f pid
	for f in $(grep -lsxzF "SCHEDLAB_TEST_TAG=$SCHEDLAB_TEST_TAG" \
		   /proc/[0-9]*/environ 2>/dev/null || true); do
		pid=${f#/proc/}
		pid=${pid%/environ}
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = schedlab ] || continue
		echo "$pid"
	done
}

# wait_gone SECONDS: true once no process of this test's is left, false
# if some still are after SECONDS.
wait_gone() {
	local deadline
	deadline=$(awk -v n="$EPOCHREALTIME" -v s="$1" 'BEGIN { print n + s }')
	while [ -n "$(tagged_pids)" ]; do
		awk -v n="$EPOCHREALTIME" -v d="$deadline" 'BEGIN { exit !(n < d) }' ||
			return 1
		sleep 0.05
	done
}

# No schedlab process (workload process or worker) may outlive a command.
# Those it killed may take a moment to go (an ASan build's exit, a loaded
# machine): 10 s, where a leftover would run for minutes.
expect_no_leftovers() {
	local left
	wait_gone 10 && return 0
	left=$(tagged_pids)
	[ -z "$left" ] || fail "processes left behind: $(ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ,)")"
}

# group_alive PGID: the live (not zombie) members of a process group.
group_alive() {
	local p
	for p in $(pgrep -g "$1" || true); do
		case $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) in
		''|Z|X) ;;
		*) echo "$p" ;;
		esac
	done
}

# expect_group_empty PGID: nothing of the process group survives.
expect_group_empty() {
	local left
	[ -n "$1" ] || return 0		# never seen: tagged_pids still covers it
	left=$(group_alive "$1")
	[ -z "$left" ] || fail "process group $1 still has: $(ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ,)")"
}

# start_sl ARGS...: starts schedlab in the background; $sl_pid is its pid.
# finish_sl collects it. A non-interactive shell starts background
# commands with SIGINT ignored; schedlab gets it at its default, as from
# a terminal, and whatever $SL_SIGNALS (env(1) options) says.
start_sl() {
	sl_outf=$(mktemp)
	sl_errf=$(mktemp)
	sl_start=$EPOCHREALTIME
	# shellcheck disable=SC2086
	env --default-signal=INT,QUIT ${SL_SIGNALS:-} "$SCHEDLAB" "$@" \
		>"$sl_outf" 2>"$sl_errf" &
	sl_pid=$!
}

# finish_sl: waits for the schedlab of start_sl; sets $rc, $out, $err and
# $secs (how long it ran, as seen from here).
finish_sl() {
	rc=0
	wait "$sl_pid" || rc=$?
	secs=$(awk -v a="$sl_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
	out=$(cat "$sl_outf")
	err=$(cat "$sl_errf")
	rm -f "$sl_outf" "$sl_errf"
}

# wait_workers N [thread|process [soft]]: waits (10 s at most) until the
# workload process of the schedlab started by start_sl runs N workers: N
# child processes, or with "thread" N threads besides its own. Sets
# $wl_pid (empty if never seen) and, for processes, $workers (their pids,
# oldest first). Fails the test if schedlab ends first, or with "soft"
# returns 1.
wait_workers() {
	local n=$1 mode=${2:-process} soft=${3:-} count tries=0

	while :; do
		wl_pid=$(pgrep -o -P "$sl_pid" || true)
		count=0
		if [ -n "$wl_pid" ]; then
			if [ "$mode" = thread ]; then
				count=$(($(ls "/proc/$wl_pid/task" 2>/dev/null | wc -l) - 1))
			else
				workers=$(pgrep -P "$wl_pid" | sort -n || true)
				count=$(wc -w <<<"$workers")
			fi
		fi
		[ "$count" -ge "$n" ] && return 0
		if ! kill -0 "$sl_pid" 2>/dev/null; then
			[ -z "$soft" ] || return 1
			fail "schedlab ended before $n workers ran: $(cat "$sl_errf")"
		fi
		tries=$((tries + 1))
		[ $tries -lt 200 ] || fail "no $n workers after 10 s (saw $count)"
		sleep 0.05
	done
}

# wait_started: after wait_workers, waits (10 s at most) until a
# process-mode messaging run is past its start barrier: the workload
# process is reaping its workers.
wait_started() {
	local w tries=0

	while :; do
		w=$(cat "/proc/$wl_pid/wchan" 2>/dev/null || true)
		case $w in
		do_wait*|kernel_wait*) return 0 ;;
		''|0) sleep 0.5; return 0 ;;	# no wchan here: give it time
		esac
		kill -0 "$sl_pid" 2>/dev/null ||
			fail "schedlab ended before the run started: $(cat "$sl_errf")"
		tries=$((tries + 1))
		[ $tries -lt 200 ] || fail "the run did not start in 10 s (wchan $w)"
		sleep 0.05
	done
}

# nlines TEXT: how many lines TEXT has (0 for none).
nlines() {
	if [ -z "$1" ]; then
		echo 0
	else
		wc -l <<<"$1"
	fi
}

# approx WHAT EXPECTED ACTUAL [RELATIVE]: the two numbers agree within
# RELATIVE (default 1e-6) of the expected one.
approx() {
	awk -v e="$2" -v a="$3" -v r="${4:-1e-6}" 'BEGIN {
		d = e - a; if (d < 0) d = -d
		m = e < 0 ? -e : e
		exit !(d <= r * m + 1e-12) }' ||
		fail "$1: expected about $2, got $3"
}

# For `env "$NO_LSAN" strace ...`: LeakSanitizer cannot run under ptrace
# (make check-asan's binary): it fails the program, and the thread it
# starts at exit would be counted. Leaks are checked by the other tests.
NO_LSAN="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# strace_sl FILE SYSCALLS ARGS...: runs schedlab under strace -f, tracing
# SYSCALLS (comma-separated) into FILE; sets $out $err $rc like run_sl.
strace_sl() {
	local file=$1 calls=$2 e
	shift 2
	e=$(mktemp)
	set +e
	out=$(env "$NO_LSAN" strace -f -qq -s 256 -o "$file" \
		-e trace="execve,$calls" "$SCHEDLAB" "$@" 2>"$e")
	rc=$?
	set -e
	err=$(cat "$e")
	rm -f "$e"
}

# ncalls FILE SYSCALL [PIDS]: calls of SYSCALL in an strace -f log (each
# counted once, whether or not strace split it into unfinished and
# resumed), by any process or only by the space-separated PIDS.
ncalls() {
	awk -v sc="$2" -v pids=" ${3:-} " '
		$2 ~ "^" sc "\\(" && (pids == "  " || index(pids, " " $1 " ")) { n++ }
		END { print n + 0 }' "$1"
}

# trace_pids FILE: every pid in an strace_sl log, in order of appearance;
# the first is schedlab's own (its execve comes first).
trace_pids() {
	awk '$1 ~ /^[0-9]+$/ && !seen[$1]++ { print $1 }' "$1"
}

# use_tmpdir: makes $tmp, a directory removed when the test ends, and
# points $SCHEDLAB_DB into it, so that a command that forgets --db still
# never touches the user's database.
use_tmpdir() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/sltest.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	# and the runner's list, for a test killed at its timeout
	[ -z "${SCHEDLAB_TEST_DIRS:-}" ] || echo "$tmp" >>"$SCHEDLAB_TEST_DIRS"
	export SCHEDLAB_DB=$tmp/default.db
	# a campaign's command files (campaign/local.c), never root's own
	export SCHEDLAB_CAMPAIGN_DIR=$tmp/campaigns
	unset SCHEDLAB_JOBS SCHEDLAB_NCPU
	# the test's temporary files, and schedlab's, in its own directory:
	# a test that looks for what was left behind sees only its own,
	# whatever runs beside it
	mkdir -m 1777 "$tmp/tmpdir"
	export TMPDIR=$tmp/tmpdir
}

# busy_now: the percentage of the CPUs' time that was not idle over the
# next half second (the tests' own share included: call it between
# runs). A timing test that fails on a machine others kept busy says
# nothing; it skips instead when no try found the machine quiet.
busy_now() {
	local a b
	a=$(awk '/^cpu / { print $2+$3+$4+$7+$8+$9, $5+$6 }' /proc/stat)
	sleep 0.5
	b=$(awk '/^cpu / { print $2+$3+$4+$7+$8+$9, $5+$6 }' /proc/stat)
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
		t = (y[1] - x[1]) + (y[2] - x[2]);
		printf "%d", t ? 100 * (y[1] - x[1]) / t : 0 }'
}

# nruns DB: how many runs DB holds, by 'schedlab list runs' (0 when
# there is no database).
nruns() {
	"$SCHEDLAB" list runs --db "$1" 2>/dev/null | awk 'NR > 1' | wc -l
}

# summary_row TEXT JOB ROW SWEEP: the number in row ROW (Min, Amean,
# Stddev, ...) for the sweep value SWEEP ("-" when nothing is swept) of
# job JOB's summary in mmtests' layout in TEXT; empty if there is none.
summary_row() {
	awk -v job="$2" -v row="$3" -v sw="$4" '
		index($0, job " by ") == 1 || index($0, job ": ") == 1 { inb = 1; next }
		/^$/ { inb = 0 }
		inb && $1 == row {
			s = $2
			for (i = 3; i < NF; i++)
				s = s " " $i
			if (s == sw) { print $NF; exit }
		}' <<<"$1"
}

# expect_line WHAT REGEX TEXT: some line of TEXT matches the extended
# regular expression REGEX.
expect_line() {
	grep -qE -- "$2" <<<"$3" || fail "$1: no line matches /$2/ in:
$3"
}

# tool_pids: live processes of external programs (tbench, postgres, qemu, ...)
# started by this test, found by the tag in their environment.
tool_pids() {
	local f pid
	for f in $(grep -lsxzF "SCHEDLAB_TEST_TAG=$SCHEDLAB_TEST_TAG" \
		   /proc/[0-9]*/environ 2>/dev/null || true); do
		pid=${f#/proc/}
		pid=${pid%/environ}
		case $(cat "/proc/$pid/comm" 2>/dev/null) in
		dbench|tbench|tbench_srv|postgres|pgbench|sysbench|fio|initdb|sleep|qemu-system-*|virtiofsd)
			case $(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) in
			''|Z|X) ;;
			*) echo "$pid" ;;
			esac ;;
		esac
	done
}

# cwd_pids DIR: live processes whose working directory is under DIR
# (PostgreSQL's processes run in their data directory and overwrite
# their environment with their titles, so the tag does not find them).
cwd_pids() {
	local f pid
	for f in /proc/[0-9]*/cwd; do
		case $(readlink "$f" 2>/dev/null) in
		"$1"|"$1"/*)
			pid=${f#/proc/}
			echo "${pid%/cwd}" ;;
		esac
	done
}

# use_ext_tmpdir: after use_tmpdir, points TMPDIR at $tmp/t, where the
# external workloads make their temporary directories (PostgreSQL, run
# as another user, must be able to reach it).
use_ext_tmpdir() {
	mkdir "$tmp/t"
	chmod 755 "$tmp" "$tmp/t"
	export TMPDIR=$tmp/t
}

# expect_ext_clean: no external program of this test still runs (after
# a second's grace) and $tmp/t is empty.
expect_ext_clean() {
	local left i
	for i in $(seq 20); do
		left=$(tool_pids; cwd_pids "$tmp/t")
		[ -z "$left" ] && break
		sleep 0.05
	done
	[ -z "$left" ] || fail "programs left behind: $(ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ,)")"
	left=$(ls -A "$tmp/t")
	[ -z "$left" ] || fail "directories left behind in $tmp/t: $left"
	expect_no_leftovers
}

# wait_runs DB N: waits until DB holds N runs (the schedlab of start_sl
# has begun its own), failing if that schedlab ends first.
wait_runs() {
	until [ "$(sqlite3 "$1" 'SELECT count(*) FROM runs' 2>/dev/null)" = "$2" ]; do
		kill -0 "$sl_pid" 2>/dev/null || fail "schedlab ended first"
		sleep 0.02
	done
}

# hold_lock DB: takes DB's write lock with sqlite3(1) (BEGIN IMMEDIATE)
# and keeps it until release_lock, as another writer would.
hold_lock() {
	local tries=0

	# in the test's directory when it has one: a test that fails while
	# holding the lock leaves nothing behind
	lock_fifo=$(mktemp -u "${tmp:-${TMPDIR:-/tmp}}/sltest.lock.XXXXXX")
	lock_out=$(mktemp "${tmp:-${TMPDIR:-/tmp}}/sltest.lockout.XXXXXX")
	mkfifo "$lock_fifo"
	sqlite3 "$1" <"$lock_fifo" >"$lock_out" 2>&1 &
	lock_pid=$!
	exec {lock_fd}>"$lock_fifo"
	printf ".timeout 10000\nBEGIN IMMEDIATE;\nSELECT 'locked';\n" >&"$lock_fd"
	until grep -q locked "$lock_out"; do
		tries=$((tries + 1))
		[ $tries -lt 200 ] || fail "sqlite3 did not lock $1: $(cat "$lock_out")"
		sleep 0.05
	done
}

# release_lock: ends hold_lock's transaction (nothing written) and its sqlite3.
release_lock() {
	printf "ROLLBACK;\n" >&"$lock_fd"
	exec {lock_fd}>&-
	wait "$lock_pid" || true
	rm -f "$lock_fifo" "$lock_out"
}

# knob_lock: the machine's knobs are one for every test suite running on
# it (two worktrees' suites at once): a test that writes a real knob holds
# this lock until it ends, so that another suite's test does not change
# the knob under it.
KNOB_LOCK=/tmp/schedlab-tests-knobs.lock
knob_lock() {
	exec 9>>"$KNOB_LOCK"
	flock 9
}

# pg_start: a throwaway PostgreSQL cluster of this test's own (initdb,
# trust authentication, no TCP: a socket in $tmp), stopped and removed
# when the test ends. Sets $PGURL, the URL schedlab takes
# (postgresql:///schedlab?host=...&port=...&user=schedlab), and $PG_BIN.
# Calls use_tmpdir first when the test has not. Skips without
# PostgreSQL's server programs. pg_stop and pg_restart stop and start
# that server (the faults agents must survive).
pg_start() {
	local bin
	bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -n "$bin" ] && [ -x "$bin/initdb" ] ||
		skip "no PostgreSQL server programs (Debian package postgresql)"
	[ -n "${tmp:-}" ] || use_tmpdir
	PG_BIN=$bin
	PG_DIR=$tmp/pg
	PG_PORT=$((20000 + RANDOM % 20000))	# names the socket only
	PG_AS=()
	mkdir -p "$PG_DIR"
	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 ||
			skip "PostgreSQL will not run as root, and there is no user postgres"
		chmod 755 "$tmp"
		chown postgres "$PG_DIR"
		PG_AS=(runuser -u postgres --)
	fi
	"${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U schedlab \
		-E UTF8 --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
		fail "initdb: $(tail -n 3 "$PG_DIR/initdb.log")"
	# shellcheck disable=SC2064
	trap "pg_cleanup; rm -rf '$tmp'" EXIT
	pg_restart
	"$PG_BIN/createdb" -h "$PG_DIR" -p "$PG_PORT" -U schedlab schedlab ||
		fail "createdb failed"
	export PGURL="postgresql:///schedlab?host=$PG_DIR&port=$PG_PORT&user=schedlab"
}

# pg_restart: starts the test's server again (after pg_stop). fsync is
# off unless PG_FSYNC=on (a benchmark's figure with the disk's flushes).
pg_restart() {
	"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
		-o "-k $PG_DIR -p $PG_PORT -c listen_addresses= -c fsync=${PG_FSYNC:-off} -c max_connections=60" \
		start >/dev/null || fail "postgres did not start: $(tail -n 3 "$PG_DIR/log")"
}

# pg_stop: stops the test's server (fast: connections are cut).
pg_stop() {
	"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null
}

pg_cleanup() {
	[ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] &&
		"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w \
			stop >/dev/null 2>&1
	return 0
}

# psql_t SQL: runs SQL on the test's database; prints the rows, fields
# separated by '|', no header.
psql_t() {
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" \
		-U schedlab -d schedlab -c "$1"
}

# ---- other machines, and sources this one lacks ---------------------
# A test that depends on what the kernel exposes tests both paths on
# every machine: the present path from a fixture of a real machine's
# sysfs, the absent path by hiding the source, each in a private mount
# namespace that ends with the command (nothing of it outlives the test).

# mountns_needs: skips unless this process may make a mount namespace
# (unshare -m needs CAP_SYS_ADMIN: root, as in CI).
mountns_needs() {
	command -v unshare >/dev/null || skip "no unshare (util-linux)"
	unshare -m true 2>/dev/null ||
		skip "cannot make a mount namespace (unshare -m needs root)"
}

# sysfs_fixture NAME DIR: makes DIR a stand-in for /sys/devices/system
# from tests/fixtures/sys/NAME.txt (PATH:CONTENT lines, as `grep -r .`
# prints them; a PATH ending in / is a directory).
sysfs_fixture() {
	local f=$TOP/tests/fixtures/sys/$1.txt
	mkdir -p "$2"
	(
		cd "$2" &&
		awk '!/^#/ && NF { p = $0; sub(/:.*/, "", p); sub(/\/[^\/]*$/, "", p); print p }' "$f" |
			sort -u | xargs mkdir -p &&
		awk '!/^#/ && NF && !/^[^:]*\/:?$/ { p = $0; sub(/:.*/, "", p); v = $0
			sub(/^[^:]*:/, "", v); print v >p; close(p) }' "$f"
	)
}

# with_sysfs DIR CMD...: CMD with DIR bound over /sys/devices/system.
with_sysfs() {
	local d=$1
	shift
	unshare -m sh -c 'mount --bind "$0" /sys/devices/system && exec "$@"' \
		"$d" "$@"
}

# hiding PATH CMD...: CMD with PATH hidden - an empty directory bound
# over a directory (what was in it is gone: ENOENT), an empty file over
# a file (it reads as nothing). A PATH that does not exist is absent
# already: CMD runs as it is.
hiding() {
	local p=$1 e
	shift
	if [ -d "$p" ]; then
		e=$(mktemp -d)
	elif [ -e "$p" ]; then
		e=$(mktemp)
	else
		"$@"
		return
	fi
	unshare -m sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' \
		"$e" "$p" "$@"
	local rc=$?
	rm -rf "$e"
	return $rc
}

# readable WHAT TEXT: fails when TEXT, something a person reads (a table,
# a page), shows a number no reader should see: nan or inf, raw JSON
# ({"count":2} or its HTML-escaped form, [[0],[1]]), or a float's
# artifact (28.571428571428573: ten or more decimals).
readable() {
	local bad
	bad=$(grep -noiE '(^|[^a-z_])[+-]?(nan|inf)([^a-z_]|$)|\{"[a-z_]+":|\{&quot;[a-z_]+&quot;:|\[\[|[0-9]\.[0-9]{10,}' <<<"$2" | head -n 5) || true
	[ -z "$bad" ] || fail "$1: unreadable numbers (line:match): $bad"
}

# fake_ktree DIR: a git repository that builds like a kernel tree as
# schedlab drives it (make -C DIR O=OUT tinyconfig | olddefconfig |
# bzImage, a Makefile with VERSION and PATCHLEVEL, arch/x86/boot,
# kernel/configs/kvm_guest.config) in a second, not ten minutes:
# tinyconfig writes two lines; olddefconfig drops CONFIG_DROPME (as if
# what it depends on were not set); bzImage "compiles" each kernel/*.c
# whose copy in OUT is older (make's own rule: a step rebuilds only what
# it changed, each said as "  CC      kernel/X.o"), says LOCALVERSION,
# fails when the tree has a file BROKEN, runs a "compiler" for 30 s
# ("sleep 31.7") when it has SLOW, and makes OUT/arch/x86/boot/bzImage a
# copy of the file the tree's `image` names (a real kernel image, or
# any file). The first commit is in; $ktree_first is its hash.
fake_ktree() {
	local d=$1
	mkdir -p "$d/arch/x86/boot" "$d/kernel/configs"
	cat >"$d/Makefile" <<'MK'
# a stand-in for a kernel tree's Makefile (tests/integration/lib.sh)
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 0
srctree := $(CURDIR)
O ?= .
SRCS := $(wildcard $(srctree)/kernel/*.c)
OBJS := $(patsubst $(srctree)/%.c,$(O)/%.o,$(SRCS))

tinyconfig:
	@mkdir -p $(O) && printf 'CONFIG_TINY=y\n# CONFIG_64BIT is not set\n' >$(O)/.config

olddefconfig:
	@grep -v '^CONFIG_DROPME=' $(O)/.config >$(O)/.config.new; mv $(O)/.config.new $(O)/.config

$(O)/%.o: $(srctree)/%.c
	@mkdir -p $(dir $@); echo "  CC      $*.o"; cp $< $@

bzImage: $(OBJS)
	@echo "  LOCALVERSION $(LOCALVERSION)"
	@if [ -e $(srctree)/SLOW ]; then sleep 31.7; fi
	@if [ -e $(srctree)/BROKEN ]; then echo "kernel/broken.c:1: error: it is broken"; exit 1; fi
	@mkdir -p $(O)/arch/x86/boot; cp "$$(cat $(srctree)/image)" $(O)/arch/x86/boot/bzImage
	@echo "Kernel: arch/x86/boot/bzImage is ready"

.PHONY: tinyconfig olddefconfig bzImage
MK
	echo "# x86" >"$d/arch/x86/boot/Makefile"
	echo "CONFIG_HYPERVISOR_GUEST=y" >"$d/kernel/configs/kvm_guest.config"
	echo "int a;" >"$d/kernel/a.c"
	echo "int b;" >"$d/kernel/b.c"
	echo "${2:-$d/Makefile}" >"$d/image"
	git -C "$d" init -q -b main
	ktree_commit "$d" "first"
	ktree_first=$(git -C "$d" rev-parse HEAD)
}

# ktree_commit DIR SUBJECT: everything in DIR committed.
ktree_commit() {
	git -C "$1" add -A
	GIT_CONFIG_GLOBAL=/dev/null git -C "$1" -c user.name=t -c user.email=t@t.invalid \
		commit -q -m "$2"
}

# PG_UNDO_5: SQL that takes a schema of version 5 back to what version 4
# had (the runs' owner, row-level security, the trigger on rows added),
# for the tests that migrate an older schema; campaigns and monitors go
# with the test's own DROP.
PG_UNDO_5="ALTER TABLE schedlab.runs DROP COLUMN owner CASCADE;
	DROP POLICY everyone_reads ON schedlab.runs;
	ALTER TABLE schedlab.runs DISABLE ROW LEVEL SECURITY;
	DROP FUNCTION schedlab.rows_of_own_runs CASCADE;"
