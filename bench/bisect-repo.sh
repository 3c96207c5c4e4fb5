#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The demonstration repository of bench/bisect.sh and
# tests/integration/test_bisect.sh: a git history in which one commit
# slows a CPU-bound user-space program, for `git bisect run` with
# `schedlab judge` to find.
#
#   bench/bisect-repo.sh DIR NCOMMITS BAD_COMMIT SLOWDOWN_PCT
#
# makes DIR (which must not exist) a git repository of NCOMMITS commits
# on branch main and prints the full hash of the BAD_COMMIT-th (2 ..
# NCOMMITS; the first commit is the good state, the last the bad one).
# The program, prog.c, runs a dependent chain of multiply-xorshift
# steps WORK times (work.h; $WORK, default 30000000: about 60 ms on the
# 2-CPU development VM) and prints the result, so that the compiler
# cannot drop the loop. Every commit changes a harmless file (NOTES);
# the BAD_COMMIT-th also multiplies WORK by 1 + SLOWDOWN_PCT/100.
# WORK_SCALE in the program's environment multiplies it again (a
# boot's own offset, bench/campaign-bisect.sh's OFFSET). The
# authors and dates are fixed, so the same arguments give the same
# hashes on any machine.
set -eu

usage() {
	echo "usage: bench/bisect-repo.sh DIR NCOMMITS BAD_COMMIT SLOWDOWN_PCT" >&2
	exit 2
}

[ $# -eq 4 ] || usage
dir=$1 n=$2 bad=$3 slow=$4
work=${WORK:-30000000}
[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 2 ] && [ "$n" -le 1000 ] ||
	{ echo "bisect-repo: NCOMMITS '$n': expected a whole number in 2..1000" >&2; exit 2; }
[[ $bad =~ ^[0-9]+$ ]] && [ "$bad" -ge 2 ] && [ "$bad" -le "$n" ] ||
	{ echo "bisect-repo: BAD_COMMIT '$bad': expected a whole number in 2..$n" >&2; exit 2; }
[[ $slow =~ ^[0-9]+([.][0-9]+)?$ ]] ||
	{ echo "bisect-repo: SLOWDOWN_PCT '$slow': expected a positive number" >&2; exit 2; }
[[ $work =~ ^[0-9]+$ ]] && [ "$work" -ge 1 ] ||
	{ echo "bisect-repo: WORK '$work': expected a positive whole number" >&2; exit 2; }
[ ! -e "$dir" ] || { echo "bisect-repo: '$dir' already exists" >&2; exit 2; }

# Whatever the user's configuration says (signing, hooks, templates),
# the commits come out the same.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="schedlab demo" GIT_AUTHOR_EMAIL="demo@schedlab.invalid"
export GIT_COMMITTER_NAME="schedlab demo" GIT_COMMITTER_EMAIL="demo@schedlab.invalid"

commit() {	# commit K SUBJECT: commit everything at a fixed date, K hours in
	local date="@$((1767225600 + $1 * 3600)) +0000"
	git add -A
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		git commit -q --no-verify -m "$2"
}

mkdir -p "$dir"
cd "$dir"
git init -q -b main --template=
printf '/* How many steps prog runs. */\n#define WORK %s\n' "$work" >work.h
cat >prog.c <<'EOF'
/* A CPU-bound program: a dependent chain of WORK multiply-xorshift steps. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(void)
{
	const char *scale = getenv("WORK_SCALE");
	long i, n = (long)(WORK * (scale ? atof(scale) : 1.0));
	uint64_t x = 1;

	for (i = 0; i < n; i++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ULL;
		x += (uint64_t)i;
	}
	printf("%llu\n", (unsigned long long)x);
	return 0;
}
EOF
cat >Makefile <<'EOF'
CFLAGS = -O2
prog: prog.c work.h
	$(CC) $(CFLAGS) -o $@ prog.c
clean:
	rm -f prog
.PHONY: clean
EOF
printf 'prog\n' >.gitignore
echo "notes, changed by every commit" >NOTES
commit 1 "prog: a CPU-bound loop"

for ((k = 2; k <= n; k++)); do
	echo "step $k" >>NOTES
	if [ "$k" -eq "$bad" ]; then
		slow_work=$(awk -v w="$work" -v s="$slow" \
			'BEGIN { printf "%.0f", w * (1 + s / 100) }')
		sed -i "s/^#define WORK .*/#define WORK $slow_work/" work.h
	fi
	commit "$k" "notes: step $k"
	[ "$k" -ne "$bad" ] || git rev-parse HEAD
done
