#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Calibrates the change-point detector (src/stats/changepoint.h) on this
# machine's own run-to-run noise; doc/statistics.md ("History: change
# points") has the figures and what they mean.
#
#   1. RUNS real stored runs of one small case (messaging, groups=1,
#      fds=2, loops=LOOPS, ITER iterations, every task on CPUS as
#      bench/calibrate.sh pins them), one `schedlab run` after another,
#      under nice -n 19; each run's median of the headline metric
#      (messaging.time) is read back from the database.
#   2. build/bench/history-calib (bench/history-calib.c) draws SERIES
#      series of LEN runs by resampling those medians, injects a step at
#      a random position (the values after it times 1 + STEP/100) and
#      counts the series whose step was found within +-2 runs, and, on
#      as many series without a step, those with any change point: for
#      each step of STEPS and each length of LENS.
#
#   make bench-history                       200 runs, then the table
#   RUNS=50 bench/history-calib.sh           quicker, the medians less varied
#   KEEP=DIR bench/history-calib.sh          keeps the database and medians
#   KEEP=DIR ANALYZE=1 bench/history-calib.sh  the table again from DIR's runs
#
# Environment: RUNS (200), ITER (5), LOOPS (5000: about 30 ms an
# iteration), CPUS (0; CPUS= leaves the placement to the scheduler,
# which on a shared 2-CPU VM is several times noisier), SERIES (100), LENS
# ("60 30"), STEPS ("5 -5 2 -2 10 -10"), MIN_SIZE, ALPHA, PERMS (the
# detector's options; unset: its defaults), SEED (1).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sl=${SCHEDLAB:-$top/build/schedlab}
drv=${DRIVER:-$top/build/bench/history-calib}
runs=${RUNS:-200}
iter=${ITER:-5}
loops=${LOOPS:-5000}
cpus=${CPUS-0}
tmp=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
db=$tmp/history.db

if [ -z "${ANALYZE:-}" ]; then
	{
		printf '[msg]\nworkload = messaging\ngroups = 1\nfds = 2\n'
		printf 'loops = %s\niterations = %s\n' "$loops" "$iter"
		[ -z "$cpus" ] || printf 'cpus = %s\n' "$cpus"
	} >"$tmp/msg.job"
	rm -f "$db" "$tmp/warnings"
	# a copy, so that a rebuild meanwhile does not pull it away
	cp "$sl" "$tmp/schedlab"
	t0=$(date +%s)
	for ((i = 1; i <= runs; i++)); do
		nice -n 19 "$tmp/schedlab" run "$tmp/msg.job" --db="$db" \
			--label="r$i" -q 2>>"$tmp/warnings"
	done
	echo "# $runs runs of messaging groups=1 fds=2 loops=$loops cpus=$cpus x $iter iterations" \
		"in $(($(date +%s) - t0)) s; $(grep -c busy "$tmp/warnings") started" \
		"on a busy machine"
fi
# each run's median of its headline metric, in the order run
sqlite3 "$db" "SELECT c.run_id, s.value FROM samples s
	JOIN cases c ON c.id = s.case_id
	JOIN run_metrics m ON m.run_id = c.run_id AND m.name = s.metric
	WHERE m.headline = 1 ORDER BY c.run_id, s.value" |
awk -F'|' '
	function flush() {
		if (n) print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		n = 0
	}
	$1 != id { flush(); id = $1 }
	{ v[++n] = $2 }
	END { flush() }' >"$tmp/medians"
[ -s "$tmp/medians" ] || { echo "history-calib: no medians in $tmp" >&2; exit 1; }
"$drv" <"$tmp/medians"
