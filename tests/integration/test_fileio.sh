# SPDX-License-Identifier: GPL-2.0-only
#
# fileio (the real sysbench fileio) and fio: run with tiny sizes, what
# schedlab stores is what the tool printed, and the run's directory is
# gone afterwards, after a Ctrl-C too; bad options exit 2 first.

# log_tool TOOL: $tmp/bin/TOOL runs the real one, appending its output
# to $tmp/TOOL.out (sysbench fileio runs three times: prepare, run,
# cleanup); for fio, the JSON file of its --output=FILE is kept as
# $tmp/fio.json before the run's directory goes.
log_tool() {
	local real
	real=$(command -v "$1") || skip "$1 is not installed (Debian package $1)"
	mkdir -p "$tmp/bin"
	cat >"$tmp/bin/$1" <<-EOS
	#!/bin/sh
	"$real" "\$@" >"$tmp/$1.last" 2>&1
	rc=\$?
	cat "$tmp/$1.last" >>"$tmp/$1.out"
	cat "$tmp/$1.last"
	for a in "\$@"; do
		case \$a in --output=*) cp "\${a#--output=}" "$tmp/fio.json" ;; esac
	done
	exit \$rc
	EOS
	chmod +x "$tmp/bin/$1"
}

# its_value KEY: the number after KEY in the last sysbench run's output
its_value() {
	awk -v k="$1" 'index($0, k) { sub(/.*: */, ""); sub(/s$/, ""); v = $0 }
		END { print v }' \
		"$tmp/sysbench.out"
}

test_fileio_reports_its_figures() {
	local k m
	use_tmpdir
	use_ext_tmpdir
	log_tool sysbench
	PATH=$tmp/bin:$PATH run_sl bench fileio --mode rndrw --file-total-size 8M \
		--file-num 2 --file-block-size 4K --threads 2 --time 1 --format json
	expect_eq "exit status ($err)" 0 "$rc"
	expect_match "prepare ran" "Creating file test_file.1" "$(cat "$tmp/sysbench.out")"
	expect_match "cleanup ran" "Removing test files" "$(cat "$tmp/sysbench.out")"
	expect_match "options reached it" "Block size 4KiB" "$(cat "$tmp/sysbench.out")"
	expect_match "threads reached it" "Number of threads: 2" "$(cat "$tmp/sysbench.out")"
	for k in "reads/s:=reads_per_sec" "writes/s:=writes_per_sec" \
		 "fsyncs/s:=fsyncs_per_sec" "read, MiB/s:=read_mib_per_sec" \
		 "written, MiB/s:=written_mib_per_sec" "avg:=latency_avg_ms" \
		 "max:=latency_max_ms" "95th percentile:=latency_p95_ms"; do
		m=${k#*=}
		[ -n "$(its_value "${k%=*}")" ] || fail "no '${k%=*}' in $(cat "$tmp/sysbench.out")"
		approx "fileio.$m" "$(its_value "${k%=*}")" \
			"$(jval "$out" ".metrics[\"fileio.$m\"].value")" 1e-12
	done
	approx "headline" "$(awk -v r="$(its_value "read, MiB/s:")" \
		-v w="$(its_value "written, MiB/s:")" 'BEGIN { printf "%.2f", r + w }')" \
		"$(jval "$out" '.metrics["fileio.mib_per_sec"].value')" 1e-9
	expect_ext_clean

	# the text format is sysbench's blocks, with the same figures
	: >"$tmp/sysbench.out"
	PATH=$tmp/bin:$PATH run_sl bench fileio --mode seqwr --file-total-size 4M \
		--file-num 1 --time 1 --file-fsync-freq 0
	expect_eq "text: exit status ($err)" 0 "$rc"
	expect_match "text" "^    written, MiB/s: +$(its_value "written, MiB/s:")" \
		"$(grep written <<<"$out")"
	! grep -q "Periodic FSYNC" "$tmp/sysbench.out" ||
		fail "--file-fsync-freq 0 did not reach it: $(cat "$tmp/sysbench.out")"
	expect_match "sequential write" "Doing sequential write" "$(cat "$tmp/sysbench.out")"
	expect_ext_clean
}

test_fileio_interrupt() {
	command -v sysbench >/dev/null || skip "sysbench is not installed"
	use_tmpdir
	use_ext_tmpdir
	start_sl bench fileio --file-total-size 4M --file-num 2 --time 60
	wait_workers 1
	sleep 1
	[ -n "$(ls -A "$tmp/t")" ] || fail "no fileio directory while it runs"
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "interrupt: exit status" 130 "$rc"
	expect_group_empty "$wl_pid"
	expect_ext_clean
}

test_fileio_bad_options() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench fileio --mode rndfoo
	expect_eq "mode: exit status" 2 "$rc"
	expect_match "mode" "mode.*seqwr" "$err"
	run_sl bench fileio --file-total-size 12Q
	expect_eq "size: exit status" 2 "$rc"
	expect_match "size" "^schedlab: fileio: option --file-total-size '12Q' is not a size" "$err"
	run_sl bench fileio --file-block-size 0
	expect_eq "block size: exit status" 2 "$rc"
	run_sl bench fileio --file-extra-flags direct,odd
	expect_eq "extra flags: exit status" 2 "$rc"
	expect_match "extra flags" "sync, dsync and direct" "$err"
	run_sl bench fileio --file-total-size 1M --file-num 100
	expect_eq "too small: exit status" 2 "$rc"
	run_sl bench fileio --file-total-size 900T
	expect_eq "no room: exit status" 2 "$rc"
	expect_match "no room" "MiB free on" "$err"
	[ -z "$(ls -A "$tmp/t")" ] || fail "a bad option left $(ls -A "$tmp/t")"
}

# fio_value JQ: from the JSON fio wrote
fio_value() {
	jq -r "$1" "$tmp/fio.json"
}

test_fio_reports_its_json() {
	use_tmpdir
	use_ext_tmpdir
	log_tool fio
	PATH=$tmp/bin:$PATH run_sl bench fio --rw randrw --bs 4k --size 8M \
		--ioengine libaio --iodepth 4 --numjobs 2 --runtime 1 --format json
	expect_eq "exit status ($err)" 0 "$rc"
	expect_eq "one group-reported job" 1 "$(fio_value '.jobs | length')"
	expect_eq "numjobs reached it" 2 "$(fio_value '."global options".numjobs // .jobs[0]."job options".numjobs')"
	expect_eq "iodepth reached it" 4 "$(fio_value '.jobs[0]."job options".iodepth')"
	approx "read iops" "$(fio_value '.jobs[0].read.iops')" \
		"$(jval "$out" '.metrics["fio.read_iops"].value')" 1e-12
	approx "write iops" "$(fio_value '.jobs[0].write.iops')" \
		"$(jval "$out" '.metrics["fio.write_iops"].value')" 1e-12
	approx "headline" "$(fio_value '.jobs[0].read.iops + .jobs[0].write.iops')" \
		"$(jval "$out" '.metrics["fio.iops"].value')" 1e-12
	approx "read MiB/s" "$(fio_value '.jobs[0].read.bw_bytes / 1048576')" \
		"$(jval "$out" '.metrics["fio.read_mib_per_sec"].value')" 1e-9
	approx "write p99" "$(fio_value '.jobs[0].write.clat_ns.percentile["99.000000"] / 1000')" \
		"$(jval "$out" '.metrics["fio.write_clat_p99_us"].value')" 1e-12
	approx "read lat" "$(fio_value '.jobs[0].read.lat_ns.mean / 1000')" \
		"$(jval "$out" '.metrics["fio.read_lat_avg_us"].value')" 1e-9
	expect_ext_clean
}

# A fio job file: its jobs run in the run's directory; one that places
# its files itself is refused before anything runs.
test_fio_jobfile() {
	use_tmpdir
	use_ext_tmpdir
	log_tool fio
	printf '[global]\nrw=write\nbs=8k\nsize=2M\nioengine=psync\n[one]\n[two]\nrw=read\n' \
		>"$tmp/two.fio"
	PATH=$tmp/bin:$PATH run_sl bench fio --jobfile "$tmp/two.fio" --format json
	expect_eq "exit status ($err)" 0 "$rc"
	# --group_reporting: one entry for the group, the writer's and the reader's I/O
	expect_eq "one group" 1 "$(fio_value '.jobs | length')"
	fio_value '.jobs[0].write.total_ios > 0 and .jobs[0].read.total_ios > 0' |
		grep -qx true || fail "not both jobs did I/O: $(cat "$tmp/fio.json")"
	approx "write iops" "$(fio_value '.jobs[0].write.iops')" \
		"$(jval "$out" '.metrics["fio.write_iops"].value')" 1e-12
	approx "read iops" "$(fio_value '.jobs[0].read.iops')" \
		"$(jval "$out" '.metrics["fio.read_iops"].value')" 1e-12
	expect_ext_clean

	printf '[j]\nrw=read\n  directory = /tmp\n' >"$tmp/dir.fio"
	run_sl bench fio --jobfile "$tmp/dir.fio"
	expect_eq "directory=: exit status" 2 "$rc"
	expect_match "directory=" "sets directory= \\(line 3\\)" "$err"
	run_sl bench fio --jobfile "$tmp/none.fio"
	expect_eq "missing: exit status" 2 "$rc"
	expect_match "missing" "option --jobfile .*cannot be read" "$err"
}

test_fio_interrupt() {
	command -v fio >/dev/null || skip "fio is not installed"
	use_tmpdir
	use_ext_tmpdir
	start_sl bench fio --size 4M --runtime 60 --iodepth 2
	wait_workers 1
	sleep 1
	[ -n "$(ls -A "$tmp/t")" ] || fail "no fio directory while it runs"
	kill -INT "$sl_pid"
	finish_sl
	expect_eq "interrupt: exit status" 130 "$rc"
	expect_group_empty "$wl_pid"
	expect_ext_clean
}

test_fio_bad_options() {
	use_tmpdir
	use_ext_tmpdir
	run_sl bench fio --ioengine posixaio
	expect_eq "engine: exit status" 2 "$rc"
	expect_match "engine" "libaio.*io_uring.*psync" "$err"
	run_sl bench fio --bs 4x
	expect_eq "bs: exit status" 2 "$rc"
	expect_match "bs" "^schedlab: fio: option --bs '4x' is not a size" "$err"
	run_sl bench fio --size ""
	expect_eq "size: exit status" 2 "$rc"
	run_sl bench fio --iodepth 0
	expect_eq "iodepth: exit status" 2 "$rc"
	run_sl bench fio --rw trim
	expect_eq "rw: exit status" 2 "$rc"
	[ -z "$(ls -A "$tmp/t")" ] || fail "a bad option left $(ls -A "$tmp/t")"
}
