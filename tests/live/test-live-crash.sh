#!/usr/bin/env bash
# test-live-crash.sh - crash anywhere, lose nothing (root only). The crash build
# (make crash-build) stops itself at a named point (VMTUNE_CRASH_AT, its
# VMTUNE_CRASH_NTH passage); this test SIGKILLs it there, in set, apply, run,
# search and restore. After each kill: the next command warns, `vmtune restore`
# puts every knob, the swap list, the cgroup tree and the mounts back exactly, no
# swapfile is left in the state dir, the SQLite store passes integrity_check with
# every completed trial intact, and `search --resume` finishes the run.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip_live "crash tests" "not root"
	done_testing
	exit
fi
CV=$TOP/build-crash/vmtune
if [ ! -x "$CV" ]; then
	fail "the crash build $CV is missing (make crash-build; make check builds it)"
	done_testing
	exit
fi
live_begin
# more than live_snapshot: the whole vmtune cgroup subtree and every mount
full_snapshot() {
	live_snapshot
	find /sys/fs/cgroup -maxdepth 3 -type d -name 'vmtune*' | sort
	cut -d' ' -f1-4 /proc/mounts | sort
}
BEFORE_FULL=$(full_snapshot)
DB=$STATE/vmtune.db
# the search: a real swap-in in the cgroup, scored by a value that falls with
# page-cluster (plus the clock's digit as noise), so that candidates beat the
# original and the confirmation always runs
W="exec:$TOP/build/swapbench -s 48M -a seq -P 1 >/dev/null &&"
W="$W echo value=\$((200 - 10 * \$(cat /proc/sys/vm/page-cluster) + \$(date +%N | cut -c1)))"
SEARCH=(search --workload "$W" --metric value --knobs vm.page-cluster,vm.swappiness
	--memory-limit 32M --swap 64M --trials 3 --time 5m --confirm-rounds 2 --confirm-max-rounds 2 --race-rounds 0
	--finalists 1 --warmup 0 --settle none)
RUN=(run --workload "swapbench -s 48M -a seq -P 1" --memory-limit 32M --swap 64M --runs 2 --warmup 0
	--settle none --set vm.page-cluster=1 --set vm.swappiness=100)
SET=(set vm.page-cluster=1 vm.swappiness=100 vm.vfs_cache_pressure=120)
cat >"$T/apply.yaml" <<'YAML'
vmtune: 1
name: crash
settings:
  vm.page-cluster: 1
  vm.swappiness: 100
  vm.vfs_cache_pressure: 120
  vm.dirty_background_ratio: 7
YAML
APPLY=(apply "$T/apply.yaml" --force)
tried=0    # kills attempted (a point never reached is a failure, and counts as tried)
survived=0 # kills after which every check passed
skipped=0  # points this machine cannot reach, each shown as a SKIP
PT_OK=1    # the current point's checks, all passed so far

# zram_free: whether zram0 is there and unused (the zram points need it)
zram_free() { [ -e /sys/block/zram0 ] && [ "$(cat /sys/block/zram0/disksize)" = 0 ]; }
zram_why() { if [ -e /sys/block/zram0 ]; then echo "zram0 is in use (disksize $(cat /sys/block/zram0/disksize))"; else echo "no zram0 here"; fi; }
# skip_point NAME: a point not tried, shown and counted
skip_point() { skipped=$((skipped + 1)); skip_live "$1" "$(zram_why)"; }
# survive: the point is done; count it survived if every check after the kill passed
survive() { survived=$((survived + PT_OK)); }

# crash NAME POINT NTH ARGS...: run the crash build until it stops at POINT's NTH
# passage, then SIGKILL it. Returns 1 when it never got there.
crash() {
	local name=$1 point=$2 nth=$3 pid st="" i
	shift 3
	tried=$((tried + 1))
	PT_OK=1
	VMTUNE_CRASH_AT=$point VMTUNE_CRASH_NTH=$nth "$CV" --state-dir "$STATE" "$@" >"$T/cout" 2>"$T/cerr" &
	pid=$!
	for ((i = 0; i < 1200; i++)); do
		st=$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -d' ' -f1)
		[ "$st" = T ] || [ -z "$st" ] || [ "$st" = Z ] && break
		sleep 0.1
	done
	if [ "$st" != T ]; then
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		fail "$name: never stopped at $point (passage $nth)"
		sed 's/^/#   /' "$T/cerr" | tail -5
		return 1
	fi
	kill -9 $pid
	wait $pid 2>/dev/null
	return 0
}

# after NAME: the checks every crash is followed by (the knobs, swap, cgroups,
# mounts; the state dir; the next command's warning)
after() {
	local name=$1 ok=1 now
	V knobs >/dev/null 2>"$T/err"
	if grep -q 'ended without restoring' "$T/err"; then pass "$name: the next command warns"; else
		ok=0
		fail "$name: the next command did not warn"
		sed 's/^/#   /' "$T/err"
	fi
	lexpect 0 "$name: vmtune restore" restore
	[ "$RC" = 0 ] || ok=0
	now=$(full_snapshot)
	if [ "$now" = "$BEFORE_FULL" ]; then pass "$name: knobs, swap, cgroups and mounts as at the start"; else
		ok=0
		fail "$name: the machine changed"
		diff <(echo "$BEFORE_FULL") <(echo "$now") | sed 's/^/#   /'
	fi
	if [ -z "$(ls "$STATE" | grep -v '^vmtune\.db' | grep -v '^profiles$')" ]; then
		pass "$name: no journal, swapfile or temporary file left in the state dir"
	else
		ok=0
		fail "$name: left in the state dir: $(ls "$STATE" | tr '\n' ' ')"
	fi
	V knobs >/dev/null 2>"$T/err"
	if [ -s "$T/err" ]; then
		ok=0
		fail "$name: after restore the next command still says: $(head -1 "$T/err")"
	fi
	[ $ok = 1 ] || PT_OK=0
}

# the completed trials of run 1: id, kind, settings and the measurements' metrics
completed() {
	sqlite3 "$DB" "SELECT t.id, t.kind, t.settings, group_concat(m.metric) FROM trials t JOIN measurements m
		ON m.trial_id = t.id WHERE t.run_id = $1 AND t.score IS NOT NULL GROUP BY t.id ORDER BY t.id"
}

# search_after NAME: the store after a crash in a search, and --resume to the end
search_after() {
	local name=$1 run kept ok=1
	check "$name: the store passes integrity_check" test "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok || ok=0
	run=$(sqlite3 "$DB" "SELECT id FROM runs WHERE status = 'running' ORDER BY id DESC LIMIT 1")
	if [ -z "$run" ]; then
		fail "$name: no unfinished run in the store to resume"
		PT_OK=0
		return 1
	fi
	kept=$(completed "$run")
	lexpect 0 "$name: search --resume $run finishes the run" search --resume "$run" -o "$T/resumed.yaml"
	[ "$RC" = 0 ] || { ok=0; sed 's/^/#   /' "$T/err" | tail -5; }
	check "$name: the run is done" test "$(sqlite3 "$DB" "SELECT status FROM runs WHERE id = $run")" = done || ok=0
	if [ "$(comm -23 <(echo "$kept" | sort) <(completed "$run" | sort) | grep -c .)" = 0 ]; then
		pass "$name: every trial completed before the kill is there, unchanged ($(echo "$kept" | grep -c .))"
	else
		ok=0
		fail "$name: completed trials changed or were lost"
	fi
	check "$name: the resumed search wrote its profile" test -s "$T/resumed.yaml" || ok=0
	as_before "$name: resumed" || ok=0
	rm -f "$T/resumed.yaml"
	[ $ok = 1 ] || PT_OK=0
}

# --- set and apply: between journal and write, and mid-write of several knobs -----
for c in "knob-journalled 1" "knob-written 1" "knob-journalled 2" "knob-written 2" "journal-before-rename 3"; do
	set -- $c
	crash "set killed at $1 #$2" "$1" "$2" "${SET[@]}" && after "set killed at $1 #$2" && survive
done
for c in "knob-journalled 1" "knob-written 3" "knob-journalled 4"; do
	set -- $c
	crash "apply killed at $1 #$2" "$1" "$2" "${APPLY[@]}" && after "apply killed at $1 #$2" && survive
done

# --- run: the swapfile, the cgroup, the workload, the knobs it sets --------------
for c in "knob-written 1" "swap-journalled 1" "swap-file-made 1" "swap-active 1" "cgroup-journalled 1" \
	"cgroup-made 1" "workload-running 1" "workload-running 2"; do
	set -- $c
	crash "run killed at $1 #$2" "$1" "$2" "${RUN[@]}" && after "run killed at $1 #$2" && survive
done

# --- run with zram: journalled, compressor written, sized, swapped on ---------------
ZPOINTS=("zram-journalled 1" "zram-compressor-written 1" "zram-sized 1" "zram-active 1")
if zram_free; then
	algo=$(tr -d '[]' </sys/block/zram0/comp_algorithm | tr ' ' '\n' | grep -E '^(lz4|lzo)$' |
		grep -vx "$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/zram0/comp_algorithm)" | head -1)
	RUNZ=(run --workload "swapbench -s 48M -a seq -P 1" --memory-limit 32M --swap "zram:64M:$algo" --runs 1
		--warmup 0 --settle none)
	for c in "${ZPOINTS[@]}"; do
		set -- $c
		crash "run --swap zram killed at $1 #$2" "$1" "$2" "${RUNZ[@]}" && after "run --swap zram killed at $1 #$2" &&
			survive
	done
else
	for c in "${ZPOINTS[@]}"; do
		set -- $c
		skip_point "run --swap zram killed at $1 #$2"
	done
fi

# --- search: mid-trial, writing the store, confirming, writing the profile --------
for c in "swap-active 1" "trial-knob-written 2" "trial-stored 3" "workload-running 4" "measurement-stored 5" \
	"confirm-round 1" "run-finished 1" "profile-before-rename 1"; do
	set -- $c
	rm -f "$T/p.yaml"
	if crash "search killed at $1 #$2" "$1" "$2" "${SEARCH[@]}" -o "$T/p.yaml"; then
		after "search killed at $1 #$2"
		case $1 in
		swap-active) # before the run is stored: nothing to resume, nothing in the store
			check "search killed at $1: no run was stored" test "$(sqlite3 "$DB" \
				"SELECT count(*) FROM runs WHERE status = 'running'" 2>/dev/null || echo 0)" = 0 || PT_OK=0 ;;
		run-finished) # done and stored: its profile was written first
			check "search killed at $1: the run is done and its profile is whole" \
				test "$(sqlite3 "$DB" "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = done \
				-a "$("$VMTUNE" -q report "$T/p.yaml" | grep -c '^settings:')" = 1 || PT_OK=0 ;;
		profile-before-rename)
			check "search killed at $1: no half-written profile" test ! -e "$T/p.yaml" || PT_OK=0
			search_after "search killed at $1 #$2" ;;
		*) search_after "search killed at $1 #$2" ;;
		esac
		survive
	fi
done

# --- a search varying the swap backend: both areas made, then mid-switch; resumed ------
VPOINTS=("swap-backend-selected 1" "swap-backend-selected 2")
if zram_free; then
	SEARCHV=(search --workload "$W" --metric value --knobs swap --strategy grid --memory-limit 32M --swap 64M
		--trials 3 --time 5m --confirm-rounds 2 --confirm-max-rounds 2 --race-rounds 0 --finalists 1 --warmup 0
		--settle none)
	for c in "${VPOINTS[@]}"; do
		set -- $c
		rm -f "$T/p.yaml"
		if crash "search --knobs swap killed at $1 #$2" "$1" "$2" "${SEARCHV[@]}" -o "$T/p.yaml"; then
			after "search --knobs swap killed at $1 #$2"
			# #1 is the setup's, before the run is stored; #2 a switch between trials
			[ "$2" = 1 ] || search_after "search --knobs swap killed at $1 #$2"
			survive
		fi
	done
else
	for c in "${VPOINTS[@]}"; do
		set -- $c
		skip_point "search --knobs swap killed at $1 #$2"
	done
fi

# --- restore itself, killed half-way: the resources undone, the knobs not yet -----
VMTUNE_CRASH_AT=workload-running "$CV" --state-dir "$STATE" "${RUN[@]}" >/dev/null 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do
	[ "$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -d' ' -f1)" = T ] && break
	sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null
if crash "restore killed half-way" restore-midway 1 restore; then
	after "restore killed half-way, then restore again"
	survive
fi

# --- db import, killed inside its transaction: SQLite rolls it back ---------------
"$VMTUNE" -q --state-dir "$STATE" db export -o "$T/runs.jsonl"
if crash "db import killed inside its transaction" import-in-transaction 2 --db "$T/imp.db" db import "$T/runs.jsonl"
then
	check "db import killed: the store passes integrity_check" \
		test "$(sqlite3 "$T/imp.db" 'PRAGMA integrity_check')" = ok || PT_OK=0
	check "db import killed: the run it was writing is not there, the one before is whole" \
		test "$(sqlite3 "$T/imp.db" "SELECT count(*) FROM runs")" = 1 -a \
		"$(sqlite3 "$T/imp.db" "SELECT count(*) FROM trials")" -gt 0 || PT_OK=0
	lexpect 0 "db import killed: importing again completes it" --db "$T/imp.db" db import "$T/runs.jsonl" || PT_OK=0
	check "db import killed: every run is there once" \
		test "$(sqlite3 "$T/imp.db" "SELECT count(*) FROM runs")" = "$(wc -l <"$T/runs.jsonl")" || PT_OK=0
	survive
fi

echo "# crash points survived: $survived of $tried tried, $skipped skipped"
check "every crash point tried was survived ($survived of $tried)" test "$survived" = "$tried"
# 5 + 3 of set and apply, 8 of run, 4 with zram, 8 of search, 2 varying the backend, restore, db import
check "every one of the 32 kills was tried or shown skipped ($tried tried, $skipped skipped)" \
	test $((tried + skipped)) = 32
as_before "the crash tests"
check "the whole cgroup tree and the mounts are as at the start" test "$(full_snapshot)" = "$BEFORE_FULL"
done_testing
