#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# peers.sh - run schedlab side by side with the tools it re-implements,
# hackbench (rt-tests) and perf bench sched messaging|pipe, on the same
# parameters, and print plain text with aligned columns for
# doc/benchmarks.md. Timings are only as good as the machine is quiet.
#
# Command lines are built as strings and word-split on purpose; printf
# formats are shared row layouts; parsers are called by name.
# shellcheck disable=SC2046,SC2059,SC2086,SC2317

set -uo pipefail

usage() {
	cat <<EOF
usage: bench/peers.sh [-n N] [-q] [-s SCHEDLAB] > results.txt
  -n N      runs of each tool per timed case (default 10)
  -q        quick smoke run (same as -n 2)
  -s PATH   schedlab binary (default: ./schedlab at the top of the tree)
Timed cases interleave the tools (schedlab, reference, schedlab, ...) so
that drift in machine load hits both alike; ratios are schedlab/reference
of run i with run i. Needs: hackbench perf strace jq.
EOF
}

N=10
SL=$(cd "$(dirname "$0")/.." && pwd)/schedlab
while getopts "n:qs:h" opt; do
	case $opt in
	n) N=$OPTARG ;;
	q) N=2 ;;
	s) SL=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "peers.sh: -n wants a whole number > 0" >&2; exit 2; }

TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
FAILED=0

# Command strings below are word-split, so they name schedlab "sl" rather
# than a path that might hold spaces; strace gets the path itself.
sl() { "$SL" "$@"; }

check_tools() {
	local t missing=
	for t in hackbench perf strace jq; do
		command -v "$t" >/dev/null || missing+=" $t"
	done
	# Debian's perf can be installed yet unusable (no build for this kernel).
	[[ -z $missing ]] && ! perf bench sched pipe -l 1 >/dev/null 2>&1 && missing+=" perf(bench)"
	if [[ -n $missing ]]; then
		echo "peers.sh: missing:$missing" >&2
		echo "install with: apt-get install rt-tests linux-perf strace jq" >&2
		exit 2
	fi
	[[ -x $SL ]] || { echo "peers.sh: $SL not found; run make first" >&2; exit 2; }
}

header() {
	local cpu pkg
	cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	pkg=$(dpkg-query -W -f '${Version}' rt-tests 2>/dev/null || echo "?")
	echo "schedlab vs reference tools, $(date '+%Y-%m-%d %H:%M %Z')"
	echo "kernel:    $(uname -r)"
	echo "cpus:      $(nproc) x ${cpu:-unknown}"
	echo "schedlab:  $(sl --version)"
	echo "hackbench: rt-tests $pkg"
	echo "perf:      $(perf --version)"
	echo "runs:      $N of each tool per timed case, interleaved"
}

# Parsers: the reference tools' own lines; schedlab prints the same ones.
hb_time()    { awk '$1 == "Time:" { print $2 }'; }                 # hackbench
perf_total() { awk '$1 == "Total" && $2 == "time:" { print $3 }'; } # perf messaging
perf_usecs() { awk '$2 == "usecs/op" { print $1 }'; }               # perf pipe

. "$(dirname "$0")/lib.sh"

# measure PARSER CMD...: run once, print the parsed number.
measure() {
	local parse=$1 out v
	shift
	out=$("$@" 2>"$TMP/err") ||
		{ echo "peers.sh: '$*' failed: $(head -n3 "$TMP/err")" >&2; return 1; }
	v=$($parse <<<"$out")
	[[ -n $v ]] || { echo "peers.sh: no number in the output of '$*'" >&2; return 1; }
	echo "$v"
}

ROW="%-28s %10s %10s %8s %7s %7s\n"
fmt() { xargs printf %.3f; }

# compare LABEL PARSER "SCHEDLAB CMD" "REFERENCE CMD": N interleaved pairs.
compare() {
	local label=$1 parse=$2 a=$3 b=$4 i
	: >"$TMP/a" && : >"$TMP/b"
	for ((i = 0; i < N; i++)); do
		measure "$parse" $a >>"$TMP/a" || break
		measure "$parse" $b >>"$TMP/b" || break
	done
	((i == N)) || { printf "$ROW" "$label" failed - - - -; FAILED=1; return; }
	paste "$TMP/a" "$TMP/b" | awk '$2 > 0 { printf "%.4f\n", $1 / $2 }' >"$TMP/r"
	[[ -s $TMP/r ]] || echo nan >"$TMP/r"  # every reference time was 0.000
	printf "$ROW" "$label" "$(median <"$TMP/a" | fmt)" "$(median <"$TMP/b" | fmt)" \
		"$(median <"$TMP/r" | fmt)" "$(sort -g "$TMP/r" | head -n1 | fmt)" \
		"$(sort -g "$TMP/r" | tail -n1 | fmt)"
}

MODES="process/socket process/pipe thread/socket thread/pipe"

# flags MODE THREAD_FLAG: hackbench and schedlab say -T, perf says -t.
flags() {
	local f=
	[[ $1 == thread/* ]] && f+=" $2"
	[[ $1 == */pipe ]] && f+=" -p"
	echo $f
}

section_messaging() {
	local m w="-g 4 -l 1000"
	echo
	echo "messaging $w: seconds, median of $N; ratio = schedlab/reference"
	printf "$ROW" "mode vs reference" schedlab reference ratio min max
	for m in $MODES; do
		compare "$m vs hackbench" hb_time \
			"sl bench messaging $(flags $m -T) $w" "hackbench $(flags $m -T) $w"
		compare "$m vs perf" perf_total \
			"sl bench messaging --format perf $(flags $m -T) $w" \
			"perf bench sched messaging $(flags $m -t) $w"
	done
}

# perf changed the pipe loop in Linux 6.15 (one token -> two tokens in
# flight, about half the time); match whichever this perf implements.
perf_ordering() {
	perf --version | awk '{ split($3, v, ".")
		print ((v[1] > 6 || (v[1] == 6 && v[2] >= 15)) ? "two-tokens" : "one-token") }'
}

section_pipe() {
	local ord
	ord=$(perf_ordering)
	echo
	echo "pipe -l 200000: usecs/op, median of $N; ratio = schedlab/perf"
	[[ $ord == one-token ]] &&
		echo "ordering: one-token on both: $(perf --version) predates Linux 6.15," &&
		echo "so one token ping-pongs (2 switches/op); that is schedlab's default."
	[[ $ord == two-tokens ]] && echo "ordering: two-tokens on both (perf >= 6.15)."
	printf "$ROW" "mode" schedlab perf ratio min max
	compare "process" perf_usecs "sl bench pipe -l 200000 --ordering=$ord" \
		"perf bench sched pipe -l 200000"
	compare "thread (-T)" perf_usecs "sl bench pipe -l 200000 -T --ordering=$ord" \
		"perf bench sched pipe -l 200000 -T"
}

# elf_reads CMD...: read() calls the dynamic loader makes at startup, one
# 832-byte ELF header per shared library, plus which libraries it opened.
elf_reads() {
	[[ $1 == sl ]] && set -- "$SL" "${@:2}"
	strace -f -e trace=openat,read -o "$TMP/ld" "$@" >/dev/null 2>&1
	printf '%s\t%s\n' "$(grep -c 'read([0-9]*, "\\177ELF' "$TMP/ld")" \
		"$(grep -o '"/[^"]*\.so[.0-9]*"' "$TMP/ld" | sed 's|.*/||; s|"||' |
			awk 'NR <= 3 { s = s (NR > 1 ? " " : "") $0 }
			END { printf "%s%s", s, (NR > 3) ? " ... (" NR " in all)" : "" }')"
}

declare -A LDREADS
SROW="%-16s %-10s %8s %8s %6s %8s %9s %9s\n"

# strace_row LABEL TOOL EXP_READ EXP_WRITE CMD...: syscall counts of one run.
strace_row() {
	local label=$1 tool=$2 er=$3 ew=$4 r w p
	shift 4
	[[ $1 == sl ]] && set -- "$SL" "${@:2}"
	strace -f -c -o "$TMP/st" "$@" >/dev/null 2>"$TMP/err" ||
		{ printf "$SROW" "$label" "$tool" failed - - - - -; FAILED=1; return; }
	# "calls" is the 4th column whether or not "errors" is filled in.
	read -r r w p < <(awk '$NF == "read" { r = $4 } $NF == "write" { w = $4 }
		$NF == "poll" || $NF == "ppoll" { p += $4 }
		END { printf "%d %d %d\n", r, w, p }' "$TMP/st")
	printf "$SROW" "$label" "$tool" "$r" "$((r - ${LDREADS[$tool]}))" "$w" "$p" "$er" "$ew"
}

section_syscalls() {
	local m g=2 f=20 l=50 pl=20000 data ready tool libs
	# schedlab shows one read() more than hackbench. That is the dynamic
	# loader reading one 832-byte ELF header per shared library: checked
	# with strace -f -e trace=read,openat, schedlab loads 3 (libjansson,
	# libm, libc) and hackbench 2 (libpthread, libc) - one more, as claimed,
	# though the sets differ. Measure it per binary rather than assume it.
	echo
	echo "startup reads by the dynamic loader (ELF headers) and libraries:"
	for tool in schedlab hackbench perf; do
		case $tool in
		schedlab) set -- sl bench messaging -g 1 -l 1 ;;
		hackbench) set -- hackbench -g 1 -l 1 ;;
		perf) set -- perf bench sched messaging -g 1 -l 1 ;;
		esac
		IFS=$'\t' read -r LDREADS[$tool] libs < <(elf_reads "$@")
		printf "  %-10s %2s  %s\n" "$tool" "${LDREADS[$tool]}" "$libs"
	done
	data=$((g * f * f * l)) ready=$((g * 2 * f))
	echo
	echo "system calls, strace -f -c: messaging -g $g -l $l, pipe -l $pl"
	echo "exp.write = $g*$f*$f*$l data + $ready ready (one per worker) + 1 wake;"
	echo "exp.read  = $data data + $ready ready; read-ld = read minus loader reads."
	# Each tool also write()s its report to stdout: a couple of writes more
	# than exp.write (stdout is /dev/null, so block-buffered and flushed
	# before fork). perf also reads some files of its own at startup.
	printf "$SROW" case tool read read-ld write poll exp.read exp.write
	for m in $MODES; do
		strace_row "$m" schedlab $((data + ready)) $((data + ready + 1)) \
			sl bench messaging $(flags $m -T) -g $g -l $l
		strace_row "" hackbench $((data + ready)) $((data + ready + 1)) \
			hackbench $(flags $m -T) -g $g -l $l
		strace_row "" perf $((data + ready)) $((data + ready + 1)) \
			perf bench sched messaging $(flags $m -t) -g $g -l $l
	done
	# pipe: each of the two workers reads and writes once per loop.
	strace_row "pipe process" schedlab $((2 * pl)) $((2 * pl)) sl bench pipe -l $pl
	strace_row "" perf $((2 * pl)) $((2 * pl)) perf bench sched pipe -l $pl
	strace_row "pipe thread" schedlab $((2 * pl)) $((2 * pl)) sl bench pipe -l $pl -T
	strace_row "" perf $((2 * pl)) $((2 * pl)) perf bench sched pipe -l $pl -T
}

# 16,000 tasks under the common soft limit of 1024 fds: schedlab has to
# raise the limit itself (hackbench -T fails with EMFILE here).
section_scale() {
	local mode flag out rc
	echo
	echo "scale: messaging -g 400 -l 10 (16000 tasks), ulimit -S -n 1024, one run"
	echo "maxrss = peak RSS of the workload's main process (.process.maxrss_kib)"
	printf "%-8s %-7s %9s %12s  %s\n" mode status time maxrss_kib "target < 8192 KiB"
	for mode in process thread; do
		flag= && [[ $mode == thread ]] && flag=-T
		out=$(ulimit -S -n 1024 && sl bench messaging $flag -g 400 -l 10 --format json 2>"$TMP/err")
		rc=$?
		if [[ $rc -ne 0 ]] || ! jq -e . <<<"$out" >/dev/null 2>&1; then
			printf "%-8s failed (exit %d): %s\n" "$mode" "$rc" "$(head -n1 "$TMP/err")"
			FAILED=1 && continue
		fi
		jq -r --arg m "$mode" '[$m, .status, .metrics["messaging.time"].value,
			.process.maxrss_kib,
			(if $m == "thread" then "n/a (one address space: thread stacks count)"
			 elif .process.maxrss_kib < 8192 then "met" else "MISSED" end)] | @tsv' <<<"$out" |
			awk -F'\t' '{ printf "%-8s %-7s %9.3f %12s  %s\n", $1, $2, $3, $4, $5 }'
	done
}

check_tools
header
section_messaging
section_pipe
section_syscalls
section_scale
exit $FAILED
