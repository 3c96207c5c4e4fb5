#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A simulated 8-boot campaign killed with SIGKILL at 20 random moments
# (doc/statistics.md, "Campaigns across boots"). The "kernel" is a file
# the hook writes and the job's program reads (state b sleeps 10x
# longer); a "boot" is `schedlab campaign resume` started again. Each of
# KILLS resumes is killed with -9 after a random 0-2.5 s (mid-iteration,
# in the hook, around the store's commit, wherever it is); then resumes
# run to the end. Reports: boots measured, complete runs stored, runs
# stored per boot (must be exactly 1), the verdict, processes left.
#   SCHEDLAB=./schedlab KILLS=20 bench/campaign-kill.sh
set -euo pipefail
SCHEDLAB=${SCHEDLAB:-./schedlab}
KILLS=${KILLS:-20}
SCHEDLAB=$(realpath "$SCHEDLAB")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db=$dir/r.db
cat >"$dir/job.job" <<JOB
[global]
iterations = 3
warmup = 0

[spin]
workload = command
shell = true
argv = "if grep -qx b '$dir/state' 2>/dev/null; then sleep 0.3; else sleep 0.03; fi"
JOB
t0=$EPOCHREALTIME
rc=0
"$SCHEDLAB" campaign start k "$dir/job.job" --db "$db" --max-boots 8 \
	--state "a:grep -qx a '$dir/state'" --state "b:grep -qx b '$dir/state'" \
	--hook "echo \$SCHEDLAB_STATE >'$dir/state'" >/dev/null 2>&1 || rc=$?
[ "$rc" = 75 ] || { echo "start exited $rc"; exit 1; }
killed=0
for i in $(seq 1 "$KILLS"); do
	"$SCHEDLAB" campaign resume --db "$db" >/dev/null 2>&1 &
	pid=$!
	sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", r / 32767 * 2.5 }')"
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1)) || true
	wait "$pid" 2>/dev/null || true
done
for i in $(seq 1 40); do
	rc=0
	"$SCHEDLAB" campaign resume --db "$db" >"$dir/out" 2>&1 || rc=$?
	[ "$rc" = 75 ] || break
done
sleep 0.5
doc=$("$SCHEDLAB" campaign status k --db "$db" --format json)
done_boots=$(jq '[.boots[] | select(.phase == "done")] | length' <<<"$doc")
want=$(jq -r '.boots[] | select(.phase == "done") | .uuid' <<<"$doc" | sort)
got=$(sqlite3 "$db" "SELECT uuid FROM runs WHERE label LIKE 'k/%' AND status = 'complete'" | sort)
other=$(sqlite3 "$db" "SELECT status || ' ' || count(*) FROM runs WHERE label LIKE 'k/%' AND status != 'complete' GROUP BY status" | tr '\n' ' ')
left=$(pgrep -f "$dir" || true)
printf 'kills landed: %d of %d\n' "$killed" "$KILLS"
printf 'boots measured: %d; complete runs stored: %d; each boot'"'"'s run stored exactly once: %s\n' \
	"$done_boots" "$(grep -c . <<<"$got")" "$([ "$want" = "$got" ] && echo yes || echo NO)"
printf 'runs left by killed attempts (not counted): %s\n' "${other:-none}"
printf 'campaign: %s, code %s, final resume exit %d\n' "$(jq -r .status <<<"$doc")" "$(jq -r .code <<<"$doc")" "$rc"
jq -r .verdict <<<"$doc"
printf 'processes left: %s\n' "${left:-none}"
awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "wall time: %.1f s\n", b - a }'
[ "$want" = "$got" ] && [ -z "$left" ] && [ "$(jq -r .status <<<"$doc")" = finished ]
