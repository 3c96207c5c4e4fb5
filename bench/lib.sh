# SPDX-License-Identifier: GPL-2.0-only
# What the bench/ scripts share; sourced, not run.

# The median of the numbers on stdin (the mean of the middle two when
# there is an even count).
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}

# vm_kernel WHO: the kernel image the VM scripts boot - $KERNEL, else the
# first of $SCHEDLAB_KERNELS (tools/kernels.sh fetches them); fails,
# saying so as WHO, when there is none.
vm_kernel() {
	local kdir=${SCHEDLAB_KERNELS:-/var/cache/schedlab/kernels} k
	k=${KERNEL:-$(ls -d "$kdir"/*/vmlinuz 2>/dev/null | sort | head -n 1)}
	[ -n "$k" ] && [ -f "$k" ] || { echo "$1: no kernel (tools/kernels.sh)" >&2; return 1; }
	echo "$k"
}

# spin DIR: compiles into DIR/spin the CPU-bound program the bench/
# scripts time: spin N runs N turns of a multiply-add chain, nothing else.
spin() {
	cat >"$1/spin.c" <<-'EOF'
	/* spin N: N turns of a multiply-add chain, nothing else. */
	#include <stdlib.h>
	int main(int argc, char **argv)
	{
		unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 0, x = 1;

		while (n--) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			__asm__ volatile("" : "+r"(x));
		}
		return x == 42;
	}
	EOF
	cc -O2 -o "$1/spin" "$1/spin.c"
}

# Waits up to 2 minutes for the machine to have at most 2 runnable tasks
# (the 4th field of /proc/loadavg), so that a measurement does not start
# in the middle of someone else's burst.
quiet() {
	local i
	for ((i = 0; i < 240; i++)); do
		[ "$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)" -le 2 ] && return 0
		sleep 0.5
	done
}
# gen_doc LABEL SEED SCALE NCASES NITER METRICS: an export document on
# stdout of NCASES messaging cases (10 jobs, sweeps of groups 1..10) of
# NITER iterations each, a value for every metric of METRICS (names, one
# a line; messaging.time the headline). Skewed samples, a floor and an
# exponential tail, from awk's generator seeded with SEED: the same
# document every time.
gen_doc() {
	awk -v label="$1" -v seed="$2" -v scale="$3" -v ncases="$4" -v niter="$5" \
		-v mlist="$6" '
	BEGIN {
		srand(seed)
		nm = split(mlist, m, "\n")
		printf "{\"schema\":\"schedlab-run/1\",\"run\":{\"uuid\":\"%08x-0000-4000-8000-%012d\",", seed, seed
		printf "\"label\":\"%s\",\"host\":\"bench\",\"started\":1.0,\"ended\":2.0,", label
		printf "\"status\":\"complete\",\"command\":null,\"schedlab_version\":null},"
		printf "\"environment\":{},\"metrics\":{"
		for (k = 1; k <= nm; k++)
			printf "%s\"%s\":{\"unit\":\"s\",\"better\":\"%s\",\"headline\":%s,\"help\":\"-\"}",
				(k > 1 ? "," : ""), m[k], (k == 1 ? "lower" : "none"),
				(m[k] == "messaging.time" ? "true" : "false")
		printf "},\"cases\":["
		for (c = 0; c < ncases; c++) {
			printf "%s{\"seq\":%d,\"job\":\"job%d\",\"workload\":\"messaging\",", (c ? "," : ""), c + 1, int(c / 10)
			printf "\"params\":\"groups=%d loops=100\",\"sweep_keys\":\"groups\",\"sweep\":\"%d\",", c % 10 + 1, c % 10 + 1
			printf "\"status\":\"complete\",\"reason\":null,\"parameters\":{},\"iterations\":%d,\"samples\":{", niter
			for (k = 1; k <= nm; k++) {
				printf "%s\"%s\":[", (k > 1 ? "," : ""), m[k]
				for (i = 0; i < niter; i++) {
					# skewed: a floor and an exponential tail
					v = (1 + c / 10) * scale * (1 - 0.1 * log(1 - rand()))
					printf "%s%.9g", (i ? "," : ""), v
				}
				printf "]"
			}
			printf "}}"
		}
		printf "]}\n"
	}'
}

# time_ms CMD...: "WALL CPU" milliseconds of one run (CPU: user + system,
# which a busy machine disturbs less than wall time).
time_ms() {
	local TIMEFORMAT='%3R %3U %3S' t
	t=$( { time "$@" >/dev/null; } 2>&1 )
	awk '{ printf "%.0f %.0f\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}

# The sampler of --monitor default at 10 ms beside `sleep 10`: its CPU
# time (se.sum_exec_runtime of /proc/PID/sched, else utime + stime) over
# the reads it made (its voluntary switches: one sleep in poll() before
# each), both read just before it is stopped. What one read of
# every default monitor costs, so the share of a CPU it takes at any
# interval, which no pair of noisy runs resolves.
sampler_cost() {
	local sl s ms reads
	# $SL: the schedlab binary
	"$SL" bench command --monitor default --monitor-interval 10ms -- sleep 10 \
		>/dev/null 2>&1 &
	sl=$!
	for _ in $(seq 100); do
		s=$(pgrep -P "$sl" -x schedlab-mon || true)
		[ -n "$s" ] && break
		sleep 0.05
	done
	[ -n "$s" ] || { echo "# no sampler seen"; wait "$sl"; return; }
	sleep 9
	if [ -r "/proc/$s/sched" ]; then
		ms=$(awk '/se.sum_exec_runtime/ { print $3 }' "/proc/$s/sched")
	else
		ms=$(awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$s/stat")
	fi
	# reads: one after each sleep in poll(), a voluntary switch each
	reads=$(awk '/^voluntary_ctxt_switches/ { print $2 + 1 }' "/proc/$s/status")
	wait "$sl" || true
	awk -v ms="$ms" -v n="$reads" -v c="$(nproc)" 'BEGIN {
		per = ms / n
		printf "# sampler: %.1f ms of CPU over about %d reads: %.3f ms a read of the default set\n", ms, n, per
		printf "# share of one CPU: %.4f%% at 1 s, %.3f%% at 100 ms, %.2f%% at 10 ms; 2%% of one CPU at %.1f ms, of all %d CPUs at %.1f ms\n",
			per / 10, per, per * 10, per / 0.02, c, per / 0.02 / c }'
}
