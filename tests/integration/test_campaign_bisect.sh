# SPDX-License-Identifier: GPL-2.0-only
#
# schedlab campaign bisect: a kernel bisect across boots without a
# reboot. The "kernel" is a commit of a small git repository whose file
# `delay` the job's program sleeps for (0.02 s up to the first bad
# commit, 30 times that from it on: no load flips it); the build copies
# that file aside under the commit's name, the hook writes the commit a
# "boot" runs ($tmp/state) and the "reboot" is `campaign resume`
# started again. Nothing asserts a timing.

# brepo N BAD [FAST SLOW]: $tmp/repo, N commits, the BAD-th (2..N) the
# first slow one (delays FAST, default 0.02 s, and SLOW, 0.6 s);
# $first_bad its hash, $tmp/job.job the job.
brepo() {
	local n=$1 bad=$2 k d
	use_tmpdir
	mkdir -p "$tmp/repo" "$tmp/k"
	git -C "$tmp/repo" init -q -b main
	for ((k = 1; k <= n; k++)); do
		d=${3:-0.02}
		[ "$k" -lt "$bad" ] || d=${4:-0.6}
		echo "$d" >"$tmp/repo/delay"
		echo "$k" >"$tmp/repo/step"
		git -C "$tmp/repo" add -A
		GIT_CONFIG_GLOBAL=/dev/null git -C "$tmp/repo" -c user.name=t \
			-c user.email=t@t.invalid commit -q -m "step $k"
		[ "$k" != "$bad" ] || first_bad=$(git -C "$tmp/repo" rev-parse HEAD)
	done
	cat >"$tmp/job.job" <<EOF
[global]
iterations = 3
warmup = 0

[spin]
workload = command
shell = true
argv = "sleep \$(cat '$tmp/k/'\$(cat '$tmp/state'))"
EOF
}

# bstart NAME [OPTIONS]: the bisect of $tmp/repo, main~N..main, a step's
# boots the default's (6 times the planner's first look, 12 at least: at
# a load of 60 on 2 CPUs the former 4 left a step undecided, and a
# skipped step leaves git two commits to name).
bstart() {
	local name=$1
	shift
	run_sl campaign bisect "$name" "$tmp/job.job" --db "$tmp/r.db" \
		--repo "$tmp/repo" --good "main~$(($(git -C "$tmp/repo" rev-list --count main) - 1))" \
		--bad main --seed 7 \
		--build "cp delay '$tmp/k/'\$SCHEDLAB_COMMIT" \
		--hook "echo \$SCHEDLAB_COMMIT >'$tmp/state'" \
		--check "grep -qx \$SCHEDLAB_COMMIT '$tmp/state'" "$@"
}

# bboots: resume until the campaign ends (a resume killed with -9 is a
# boot that crashed: the next one goes on).
bboots() {
	local i
	for i in $(seq 1 80); do
		run_sl campaign resume --db "$tmp/r.db"
		[ "$rc" = 75 ] || [ "$rc" = 137 ] || return 0
	done
	fail "bisect still running after 80 resumes"
}

# bcheck NAME: the first bad commit found; each measured boot's run
# stored once; git bisect log holds each step's call once, in order.
bcheck() {
	local doc want got calls logged
	doc=$("$SCHEDLAB" campaign status "$1" --db "$tmp/r.db" --format json)
	expect_eq status finished "$(jq -r .status <<<"$doc")"
	expect_eq "first bad commit" "$first_bad" "$(jq -r .bisect.first_bad <<<"$doc")"
	want=$(jq -r '.boots[] | select(.phase == "done") | .uuid' <<<"$doc" | sort)
	got=$(sqlite3 "$tmp/r.db" "SELECT uuid FROM runs WHERE label LIKE '$1/%'
		AND status = 'complete'" | sort)
	expect_eq "complete runs of campaign $1" "$want" "$got"
	expect_eq "boots measured twice" "" "$(uniq -d <<<"$want")"
	calls=$(jq -r '.bisect.steps[] | "git bisect \(.call) \(.commit)"' <<<"$doc")
	logged=$(git -C "$tmp/repo" bisect log | grep -E '^git bisect (good|bad|skip) ')
	expect_eq "the steps' calls as git bisect log has them" "$calls" "$logged"
	git -C "$tmp/repo" bisect log | grep -qx "# first bad commit: \[$first_bad\] .*" ||
		fail "git bisect log names no first bad commit $first_bad"
	[ "$(jq '[.bisect.steps[] | select(.call == "")] | length' <<<"$doc")" = 0 ] ||
		fail "a step without its call"
}

test_campaign_bisect_finds_the_first_bad_commit() {
	brepo 8 5
	local doc most
	bstart b1
	expect_eq "start's exit ($err)" 75 "$rc"
	# no noise model in a new store: a provisional most until the gate's
	# rounds measure the noise, then the most the plan allows
	expect_match "start's plan" "no noise model .* at most 500 boots until then" "$out"
	bboots
	expect_eq "exit at the end ($err)" 0 "$rc"
	expect_match "resume's last words" "first bad commit: $first_bad" "$out"
	bcheck b1
	doc=$("$SCHEDLAB" campaign status b1 --db "$tmp/r.db" --format json)
	most=$(jq .max_boots <<<"$doc")
	[ "$most" != 500 ] && [ "$most" -ge "$(jq '.boots | length' <<<"$doc")" ] ||
		fail "the most boots not planned: $most, $(jq '.boots | length' <<<"$doc") made"
	expect_eq "--max-boots not given" 0 "$(jq .bisect.max_boots_opt <<<"$doc")"
	# each step's most rounds kept with it, across its boots' processes:
	# the default's floor (12) at least
	expect_eq "steps whose most rounds were lost" "" \
		"$(jq -r '.bisect.steps[] | select(.most < 12) | "\(.commit) \(.most)"' <<<"$doc")"
	run_sl campaign status b1 --db "$tmp/r.db"
	expect_match "status: the most boots planned" "of at most $most boots \(planned\)" "$out"
	expect_match "status" "first bad commit: $first_bad" "$out"
	expect_match "status: a step's runs" "step 1 .* runs" "$out"
	expect_match "status: wall time" "wall time [0-9]+ s" "$out"
	expect_no_leftovers
}

# Good and bad that differ (p < 0.05) by less than --threshold: the gate
# says by how much, that it is less than the threshold, and the
# threshold that would bisect it with the boots the plan then needs -
# not "they do not differ".
test_campaign_bisect_difference_below_threshold() {
	brepo 4 3 0.05 0.08
	bstart b3 --threshold 300 --max-ref-boots 6
	expect_eq "start's exit ($err)" 75 "$rc"
	bboots
	expect_eq "exit at the end" 1 "$rc"
	expect_match "the gate's words" "the good and bad commits differ by \+[0-9.]+% \(bad/good 1\.[0-9]+, p=[0-9.e-]+, .*less than --threshold 300%: to bisect that, start again with --threshold [0-9.]+ \(by the plan about [0-9]+ rounds of the references, [0-9]+ a step, some [0-9]+ boots for 4 steps\)" "$err$out"
	[[ ! "$err$out" =~ "do not differ" ]] || fail "said they do not differ: $err$out"
	expect_no_leftovers
}

# kill -9 at random moments, then once just before and once just after
# git is told a step's call (a git on PATH that kills its caller): no run
# lost or doubled, git told each call once.
test_campaign_bisect_resumes_after_kill() {
	local i real
	brepo 8 3
	real=$(command -v git)
	mkdir -p "$tmp/bin"
	cat >"$tmp/bin/git" <<EOF
#!/bin/bash
if [ "\$3" = bisect ] && { [ "\$4" = good ] || [ "\$4" = bad ]; }; then
	if [ ! -e '$tmp/kb' ]; then touch '$tmp/kb'; kill -9 \$PPID; exit 1; fi
	if [ ! -e '$tmp/ka' ]; then touch '$tmp/ka'; '$real' "\$@"; kill -9 \$PPID; exit 0; fi
fi
exec '$real' "\$@"
EOF
	chmod +x "$tmp/bin/git"
	bstart b2
	expect_eq "start's exit ($err)" 75 "$rc"
	for i in 1 2 3 4; do
		start_sl campaign resume --db "$tmp/r.db"
		sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
		kill -9 "$sl_pid" 2>/dev/null || true
		finish_sl
		wait_gone 10 || fail "processes left after kill -9: $(tagged_pids)"
	done
	PATH=$tmp/bin:$PATH bboots
	expect_eq "exit at the end ($err)" 0 "$rc"
	[ -e "$tmp/kb" ] && [ -e "$tmp/ka" ] || fail "git never killed a resume"
	bcheck b2
	expect_no_leftovers
}

test_campaign_bisect_bad_input_exits_2() {
	local head
	brepo 4 3
	head=$(git -C "$tmp/repo" rev-parse main)
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/nope" \
		--good main~3 --bad main --build true --hook true
	expect_eq "missing repo" 2 "$rc"
	expect_match "message" "--repo '.*nope': not a git repository" "$err"
	expect_eq "one line" 1 "$(grep -c . <<<"$err")"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main --bad "$head" --build true --hook true
	expect_eq "good == bad" 2 "$rc"
	expect_match "message" "the same commit" "$err"
	expect_eq "one line" 1 "$(grep -c . <<<"$err")"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good deadbeef --bad main --build true --hook true
	expect_eq "unknown commit" 2 "$rc"
	expect_match "message" "--good 'deadbeef': no such commit" "$err"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main --bad main~3 --build true --hook true
	expect_eq "good after bad" 2 "$rc"
	expect_match "message" "not an ancestor" "$err"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --hook true
	expect_eq "no build" 2 "$rc"
	expect_match "message" "--build CMD is required" "$err"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --build true --hook true --max-step-boots 999
	expect_eq "max-step-boots 999" 2 "$rc"
	expect_match "message" "max-step-boots" "$err"
	printf '[a]\nworkload = command\nargv = true\n\n[b]\nworkload = command\nargv = true\n' >"$tmp/two.job"
	run_sl campaign bisect b3 "$tmp/two.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --build true --hook true
	expect_eq "two cases" 2 "$rc"
	expect_match "message" "two.job has 2 cases; a bisect calls each commit good or bad by one" "$err"
	run_sl campaign start b3 "$tmp/job.job" --db "$tmp/r.db" --state a --state b \
		--hook true --repo "$tmp/repo"
	expect_eq "--repo on start" 2 "$rc"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --build true --hook true --design blocks
	expect_eq "--design on bisect" 2 "$rc"
	expect_match "message" "--design belongs to campaign start" "$err"
	# a work tree with changes: git bisect could not check out a commit
	echo 9 >>"$tmp/repo/delay"
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --build true --hook true
	expect_eq "a dirty work tree" 2 "$rc"
	expect_match "message" "--repo '.*repo': its work tree has changes \( M delay\)" "$err"
	expect_eq "one line" 1 "$(grep -c . <<<"$err")"
	git -C "$tmp/repo" checkout -q -- delay
	# nothing was started: no campaign, no git bisect, the tree as it was
	[ ! -e "$tmp/r.db" ] || expect_eq "campaigns" "" \
		"$(sqlite3 "$tmp/r.db" 'SELECT name FROM campaigns' 2>/dev/null)"
	! git -C "$tmp/repo" bisect log >/dev/null 2>&1 || fail "a git bisect was started"
	expect_eq "HEAD" "$head" "$(git -C "$tmp/repo" rev-parse HEAD)"
	# a bisect already in progress is not taken over
	git -C "$tmp/repo" bisect start main main~3 >/dev/null
	run_sl campaign bisect b3 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --build true --hook true
	expect_eq "a bisect in progress" 2 "$rc"
	expect_match "message" "a git bisect is in progress" "$err"
	git -C "$tmp/repo" bisect reset >/dev/null 2>&1
}

# --max-boots given is kept, never planned: spent, the bisect stops
test_campaign_bisect_max_boots_given_is_kept() {
	brepo 4 3
	bstart b7 --max-boots 7
	expect_eq "start's exit ($err)" 75 "$rc"
	[[ $out != *"at most 500"* ]] || fail "a given --max-boots replaced: $out"
	bboots
	expect_eq "exit when spent ($err)" 1 "$rc"
	expect_match "why" "--max-boots 7 spent before the campaign ended" "$out$err"
	run_sl campaign status b7 --db "$tmp/r.db"
	expect_match "status" "bisect failed, 7 of at most 7 boots, job" "$out"
	git -C "$tmp/repo" bisect reset >/dev/null 2>&1
	expect_no_leftovers
}

# a bisect that stopped (its hook failed): its step is no longer shown
# measuring
test_campaign_bisect_status_of_a_failed_bisect() {
	brepo 4 3
	run_sl campaign bisect b4 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --build true --hook false
	expect_eq "start with a failing hook" 1 "$rc"
	run_sl campaign status b4 --db "$tmp/r.db"
	expect_match "status" "bisect failed" "$out"
	[[ $out != *measuring* ]] || fail "a failed bisect's step shown measuring: $out"
	expect_match "its step" "step 1 .* 0 runs +no call" "$out"
	git -C "$tmp/repo" bisect reset >/dev/null 2>&1
}

# kill -9 of campaign bisect while its build runs: the build's children
# (make -j's, here a sleep in the background) are ended by the next
# resume before it builds again - never two builds in one tree
test_campaign_bisect_kill_mid_build_leaves_no_build() {
	local mark i
	brepo 4 3
	mark="31.$RANDOM"
	touch "$tmp/slow"
	start_sl campaign bisect b5 "$tmp/job.job" --db "$tmp/r.db" --repo "$tmp/repo" \
		--good main~3 --bad main --seed 7 \
		--hook "echo \$SCHEDLAB_COMMIT >'$tmp/state'" \
		--check "grep -qx \$SCHEDLAB_COMMIT '$tmp/state'" \
		--build "if [ -e '$tmp/slow' ]; then rm '$tmp/slow'; sleep $mark & wait; fi
			! pgrep -f '^sleep $mark' >/dev/null || echo \$SCHEDLAB_COMMIT >>'$tmp/two'
			cp delay '$tmp/k/'\$SCHEDLAB_COMMIT"
	for i in $(seq 1 100); do
		pgrep -f "^sleep $mark" >/dev/null && break
		sleep 0.1
	done
	pgrep -f "^sleep $mark" >/dev/null || fail "the build never started: $(cat "$sl_errf")"
	kill -9 "$sl_pid"
	finish_sl
	expect_eq "bisect killed" 137 "$rc"
	run_sl campaign resume b5 --db "$tmp/r.db"
	expect_eq "resume ($err)" 75 "$rc"
	expect_match "says what it ended" "ending 1 processes that a killed campaign left running" "$err"
	[ ! -e "$tmp/two" ] || fail "a build ran beside the killed one's: $(cat "$tmp/two")"
	expect_eq "the killed build's children" "" "$(pgrep -f "^sleep $mark" || true)"
	expect_eq "records left" "" "$(ls "$tmp/campaigns" | grep running || true)"
	run_sl campaign abort b5 --db "$tmp/r.db"
	git -C "$tmp/repo" bisect reset >/dev/null 2>&1
	expect_no_leftovers
}
