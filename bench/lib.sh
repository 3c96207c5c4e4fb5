# SPDX-License-Identifier: GPL-2.0-only
# What the bench/ scripts share; sourced, not run.

# The median of the numbers on stdin (the mean of the middle two when
# there is an even count).
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
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
