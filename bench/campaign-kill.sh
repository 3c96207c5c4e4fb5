#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A simulated 8-boot campaign killed with SIGKILL at 20 random moments
# (doc/statistics.md, "Campaigns across boots"). The "kernel" is a file
# the hook writes and the job's program reads (both states sleep alike,
# and a 0.1% threshold keeps the campaign from deciding before its 8
# boots, so that every boot is there to be killed); a "boot" is `schedlab campaign resume` started again. Each of
# KILLS resumes is killed with -9 at a random moment within the time the
# last whole resume took (mid-iteration, in the hook, around the store's
# commit, wherever it is), the kills spread over the boots by whole
# resumes between them; then resumes run to the end. Reports: boots measured, complete runs stored, runs
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
iterations = 10
warmup = 0

[spin]
workload = command
shell = true
argv = "if grep -qx b '$dir/state' 2>/dev/null; then sleep 0.05; else sleep 0.05; fi"
JOB
t0=$EPOCHREALTIME
rc=0
"$SCHEDLAB" campaign start k "$dir/job.job" --db "$db" --max-boots 8 --threshold 0.1 \
	--state "a:grep -qx a '$dir/state'" --state "b:grep -qx b '$dir/state'" \
	--hook "echo \$SCHEDLAB_STATE >'$dir/state'" >/dev/null 2>&1 || rc=$?
[ "$rc" = 75 ] || { echo "start exited $rc"; exit 1; }
# A whole resume (one boot) first: how long one lasts, so that each kill
# lands within one: after a random fraction of the last whole one's time.
# Whole resumes between the kills move the campaign on, so the kills
# fall on every boot, not only the first.
whole() {
	local a=$EPOCHREALTIME rc=0
	"$SCHEDLAB" campaign resume --db "$db" >/dev/null 2>&1 || rc=$?
	dur=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
	return $rc
}
boots_done() {
	"$SCHEDLAB" campaign status k --db "$db" --format json |
		jq '[.boots[] | select(.phase == "done")] | length'
}
dur=0
whole || true
killed=0
tries=0
per=0		# kills landed in the boot now running
last=$(boots_done)
# a kill that comes after its resume ended is no kill: draw again. A
# kill after a boot's run is stored moves the campaign on as a whole
# resume would; after 6 kills in one boot a whole resume does. Until the
# campaign has no boot left.
while [ "$killed" -lt "$KILLS" ] && [ "$tries" -lt $((KILLS * 4)) ]; do
	tries=$((tries + 1))
	"$SCHEDLAB" campaign resume --db "$db" >/dev/null 2>&1 &
	pid=$!
	sleep "$(awk -v r="$RANDOM" -v d="$dur" 'BEGIN { printf "%.3f", r / 32768 * d * 0.8 }')"
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1)) && per=$((per + 1)) || true
	wait "$pid" 2>/dev/null || true
	now=$(boots_done)
	[ "$now" = "$last" ] || per=0
	last=$now
	[ "$(jq -r .status <<<"$("$SCHEDLAB" campaign status k --db "$db" --format json)")" = running ] || break
	if [ "$per" -ge 6 ]; then
		whole || true
		per=0
		last=$(boots_done)
	fi
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
printf 'kills landed: %d of %d (%d tries)\n' "$killed" "$KILLS" "$tries"
printf 'boots measured: %d; complete runs stored: %d; each boot'"'"'s run stored exactly once: %s\n' \
	"$done_boots" "$(grep -c . <<<"$got")" "$([ "$want" = "$got" ] && echo yes || echo NO)"
printf 'runs left by killed attempts (not counted): %s\n' "${other:-none}"
printf 'campaign: %s, code %s, final resume exit %d\n' "$(jq -r .status <<<"$doc")" "$(jq -r .code <<<"$doc")" "$rc"
jq -r .verdict <<<"$doc"
printf 'processes left: %s\n' "${left:-none}"
awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "wall time: %.1f s\n", b - a }'
[ "$want" = "$got" ] && [ -z "$left" ] && [ "$(jq -r .status <<<"$doc")" = finished ]
