# SPDX-License-Identifier: GPL-2.0-only
#
# Every registered workload, as `schedlab list workloads` prints them,
# runs briefly and has help: a new workload cannot land untested, since
# one missing from the table below fails test_workloads_table. About
# 12 s on 2 CPUs, most of it the external programs' shortest runs.

# Tiny options for each workload: a run of a second or less where the
# workload allows it (dbench and tbench need 2 s, pgbench a cluster).
declare -A tiny=(
	[messaging]="-g 1 -f 2 -l 10"
	[pipe]="-l 1000"
	[command]="-- true"
	[dbench]="--clients 1 -t 2"
	[tbench]="--clients 1 -t 2"
	[pgbench]="-c 1 -T 1 -s 1"
	[sysbench]="--test cpu --threads 1 --time 1"
	[fileio]="--file-total-size 4M --file-num 2 --time 1"
	[fio]="--size 4M --iodepth 4 --runtime 1"
	[wakeup]="-m 1 -t 1 -r 1"
	[rr]="-P 1 -l 1"
	[compute]="-n 1 -j 1"
)

# The metric each one's JSON marks as its headline.
declare -A headline=(
	[messaging]=messaging.time
	[pipe]=pipe.usecs_per_op
	[command]=command.time
	[dbench]=dbench.mbps
	[tbench]=tbench.mbps
	[pgbench]=pgbench.tps
	[sysbench]=sysbench.events_per_sec
	[fileio]=fileio.mib_per_sec
	[fio]=fio.iops
	[wakeup]=wakeup.p99_us
	[rr]=rr.trans_per_s
	[compute]=compute.jobs_per_min
)

# The programs a workload runs, with those options; "postgresql" is a
# PostgreSQL server on PATH or in /usr/lib/postgresql/*/bin.
declare -A needs=(
	[dbench]="dbench"
	[tbench]="tbench tbench_srv"
	[pgbench]="pgbench postgresql"
	[sysbench]="sysbench"
	[fileio]="sysbench"
	[fio]="fio"
)

listed_workloads() {
	"$SCHEDLAB" list workloads | awk '{ print $1 }'
}

# missing_programs W: the programs W needs that this machine lacks.
missing_programs() {
	local p
	for p in ${needs[$1]:-}; do
		if [ "$p" = postgresql ]; then
			command -v postgres >/dev/null ||
				compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null ||
				echo postgresql
		elif ! command -v "$p" >/dev/null; then
			echo "$p"
		fi
	done
}

# The workloads the binary lists and those of the tables are the same.
test_workloads_table() {
	local w listed
	listed=$(listed_workloads)
	[ "$(nlines "$listed")" -ge 10 ] || fail "list workloads printed too few: $listed"
	for w in $listed; do
		[ -n "${tiny[$w]+set}" ] ||
			fail "workload $w has no tiny options in tests/integration/test_workloads.sh"
		[ -n "${headline[$w]+set}" ] ||
			fail "workload $w has no headline metric in tests/integration/test_workloads.sh"
	done
	for w in "${!tiny[@]}" "${!headline[@]}" "${!needs[@]}"; do
		grep -qx -- "$w" <<<"$listed" ||
			fail "test_workloads.sh names '$w', which list workloads does not print"
	done
}

# expect_help W: --help exits 0, says the headline, and (given JSON
# parameters) offers every option the run reported.
expect_help() {
	local w=$1 params=${2:-} help k
	run_sl bench "$w" --help
	expect_eq "$w --help: exit status" 0 "$rc"
	help=$out
	expect_line "$w --help: usage" "^usage: schedlab bench .*$w" "$help"
	expect_line "$w --help: headline" "^  ${headline[$w]//./\\.} .*\\(headline\\)$" "$help"
	for k in $params; do
		expect_line "$w --help: option $k" "--$k([=;, ]|$)" "$help"
	done
}

test_workloads_run_briefly() {
	local w missing skipped=() h params n
	use_tmpdir
	use_ext_tmpdir
	for w in $(listed_workloads); do
		[ -n "${tiny[$w]+set}" ] || fail "workload $w has no tiny options"
		missing=$(missing_programs "$w" | tr '\n' ' ')
		if [ -n "$missing" ]; then
			expect_help "$w"
			skipped+=("$w (no ${missing% })")
			continue
		fi
		h=${headline[$w]}
		# shellcheck disable=SC2086
		run_sl bench "$w" --format json --timeout 30 ${tiny[$w]}
		expect_eq "$w: exit status ($err)" 0 "$rc"
		expect_eq "$w: workload" "$w" "$(jval "$out" .workload)"
		expect_eq "$w: status" ok "$(jval "$out" .status)"
		expect_eq "$w: the headline metric" "$h" \
			"$(jval "$out" '[.metrics | to_entries[] | select(.value.headline) | .key] | join(" ")')"
		jq -e --arg h "$h" '.metrics[$h].value |
			type == "number" and (isinfinite | not) and (isnan | not)' \
			<<<"$out" >/dev/null ||
			fail "$w: $h is not a finite number: $(jq -c --arg h "$h" '.metrics[$h]' <<<"$out")"
		params=$(jval "$out" '.parameters | keys[]')
		n=$(nlines "$params")
		[ "$n" -ge 1 ] || fail "$w: no parameters in its JSON"
		expect_help "$w" "$params"
		expect_ext_clean
	done
	[ ${#skipped[@]} -eq 0 ] || skip "not run: ${skipped[*]}"
}
