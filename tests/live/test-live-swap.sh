#!/usr/bin/env bash
# test-live-swap.sh - the sandbox's swap backends on the live kernel (root only): the
# free zram0 configured (compressor, size, swap at priority 100) and reset, zswap
# switched on in front of a swapfile and put back, the machine's own swap used as it
# is; each torn down exactly, also after kill -9 and restore; a page-cluster search
# on zram for random swap-in that ends with its decision; a search that varies the
# backend itself (the pseudo-knob swap), each trial run on the backend it stores.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip_live "live swap backend tests" "not root"
	done_testing
	exit
fi
if [ ! -e /sys/block/zram0 ] || [ "$(cat /sys/block/zram0/disksize)" != 0 ] || [ ! -d /sys/module/zswap/parameters ]; then
	skip_live "live swap backend tests" "no free zram0 or no zswap here (zram0 disksize $(cat /sys/block/zram0/disksize 2>/dev/null || echo none))"
	done_testing
	exit
fi
live_begin
wait_for() { local i; for i in $(seq 300); do eval "$1" && return 0; sleep 0.1; done; return 1; }
ALGO0=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/zram0/comp_algorithm)
ZSWAP0=$(cat /sys/module/zswap/parameters/enabled)
# the compressor to ask for: one zram0 offers that is not its current one
ALGO=$(tr -d '[]' </sys/block/zram0/comp_algorithm | tr ' ' '\n' | grep -E '^(lz4|lzo|lzo-rle)$' | grep -vx "$ALGO0" | head -1)
# what a workload sees of the swap while it runs: written where the test can read it
SEEN="exec:cat /proc/swaps /sys/block/zram0/disksize /sys/block/zram0/comp_algorithm /sys/module/zswap/parameters/enabled >$T/seen; echo value=1"

# --- zram ---------------------------------------------------------------------------------
lexpect 0 "run with --swap zram:256M:$ALGO" run --workload "$SEEN" --memory-limit 128M --swap "zram:256M:$ALGO"
check "the workload ran with /dev/zram0 as swap at priority 100" \
	test "$(awk '$1 == "/dev/zram0" { print $2, $3, $5 }' "$T/seen")" = "partition 262140 100"
check "of 256M" grep -qx 268435456 "$T/seen"
check "compressing with $ALGO" grep -q "\[$ALGO\]" "$T/seen"
check "it says what it configured" err_has "configured /dev/zram0: 256M of swap at priority 100, compressor $ALGO \(reset"
check "zram0 is reset: disksize 0" test "$(cat /sys/block/zram0/disksize)" = 0
check "and its compressor is $ALGO0 again" grep -q "\[$ALGO0\]" /sys/block/zram0/comp_algorithm
as_before "zram run"

# pages really go to zram: 300M written in a 128M cgroup, read back
lexpect 0 "swapbench 300M in 128M on zram" run --json --workload "swapbench -s 300M -a seq -P 1" \
	--memory-limit 128M --swap zram:512M:$ALGO --set vm.page-cluster=0
check "it swapped to zram (major faults on read-back)" \
	test "$(jq '.workloads[0].per_run[0].results.majflt_touch' "$T/out")" -gt 10000
check "the run's JSON names the backend" test "$(jq -r .swap_backend "$T/out")" = "zram:512M:$ALGO"
as_before "swapbench on zram"

lexpect 2 "zswap in front of zram is refused" run --workload "$SEEN" --swap zram:256M --zswap
check "saying why" err_has "compresses twice"
lexpect 3 "an unknown compressor is refused before anything changes" run --workload "$SEEN" --swap zram:256M:nosuch
check "naming what zram0 offers" err_has "offers the compressors .*not 'nosuch'"
as_before "zram refusals"

# zram0 in use (configured by hand here): vmtune leaves it alone
echo 64M >/sys/block/zram0/disksize
lexpect 3 "a zram0 already in use is refused" run --workload "$SEEN" --swap zram:256M
check "saying so" err_has "/dev/zram0 is in use"
check "and leaving it as it was (64M)" test "$(cat /sys/block/zram0/disksize)" = 67108864
echo 1 >/sys/block/zram0/reset
echo "$ALGO0" >/sys/block/zram0/comp_algorithm
as_before "zram0 in use"

# --- kill -9 with zram configured, then restore ----------------------------------------------
busy='grep -q "^/dev/zram0" /proc/swaps && [ -n "$(cat /sys/fs/cgroup/memory/vmtune-*/cgroup.procs 2>/dev/null)" ]'
"$VMTUNE" --state-dir "$STATE" run --workload "swapbench -s 300M -a rand -P 50" --memory-limit 128M \
	--swap "zram:512M:$ALGO" >"$T/out" 2>"$T/err" &
pid=$! BG=$!
check "a zram run is under way" wait_for "$busy"
kill -9 $pid
wait $pid 2>/dev/null
BG=
check "kill -9 leaves zram0 configured and swapped on" grep -q '^/dev/zram0' /proc/swaps
check "the workload died with vmtune" wait_for '[ -z "$(cat /sys/fs/cgroup/memory/vmtune-*/cgroup.procs 2>/dev/null)" ]'
lexpect 0 "the next command works" get vm.page-cluster
check "and warns, naming zram0" err_has "ended without restoring: .*zram /dev/zram0"
lexpect 0 "vmtune restore after kill -9" restore
check "zram0 is reset (disksize 0, compressor $ALGO0)" \
	test "$(cat /sys/block/zram0/disksize) $(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/zram0/comp_algorithm)" = "0 $ALGO0"
as_before "zram, kill -9 and restore"

# --- zswap in front of a swapfile -------------------------------------------------------------
lexpect 0 "run with --swap file:256M --zswap" run --workload "$SEEN" --memory-limit 128M --swap file:256M --zswap
check "the workload ran with zswap on" grep -qx Y "$T/seen"
check "in front of vmtune's swapfile" grep -Eq "^$STATE/swapfile-[0-9]+ +file" "$T/seen"
check "zswap is $ZSWAP0 again" test "$(cat /sys/module/zswap/parameters/enabled)" = "$ZSWAP0"
as_before "zswap run"
zs() { awk '$1 == "zswpout" { print $2 }' /proc/vmstat; }
zs0=$(zs)
lexpect 0 "swapbench 300M in 128M with zswap in front" run --workload "swapbench -s 300M -a seq -P 1" \
	--memory-limit 128M --swap file:512M+zswap --warmup 0
zs1=$(zs)
check "pages went into the zswap pool (zswpout up by $((zs1 - zs0)), over 100 MB)" test $((zs1 - zs0)) -gt 25600
as_before "swapbench with zswap"

# --- the machine's own swap ---------------------------------------------------------------------
lexpect 0 "run with --swap machine" run --workload "$SEEN" --memory-limit 128M --swap machine
check "the workload saw exactly the machine's swap areas, none added" \
	test "$(grep '^/' "$T/seen" | awk '{ print $1 }')" = "$(tail -n +2 /proc/swaps | awk '{ print $1 }')"
if [ -z "$(tail -n +2 /proc/swaps)" ]; then
	check "on a machine without swap it says the runs have none" err_has "this machine has no swap"
else
	check "on a machine with swap it does not say it has none" err_lacks "this machine has no swap"
fi
as_before "machine swap"

# --- a page-cluster search on zram, random swap-in ---------------------------------------------------
lexpect 0 "a page-cluster search on zram for random swap-in" search --workload "swapbench -s 300M -a rand -P 2" \
	--knobs vm.page-cluster --memory-limit 128M --swap "zram:512M:$ALGO" --time 90s --trials 30 -o "$T/zram.yaml"
decision_agrees "the zram search" "$T/zram.yaml"
check "its plan names the backend" err_has "^swap: 512M on /dev/zram0"
check "the run stores the backend" \
	test "$(sqlite3 "$STATE/vmtune.db" "select json_extract(config, '$.swap_backend') from runs order by id desc limit 1")" = "zram:512M:$ALGO"
check "its profile records the swap it was measured with" grep -Eq '^machine: \{.* swap: compressed[,}]' "$T/zram.yaml"
check "and the backend" grep -Eq '^machine: \{.* swap_backend: "?zram:512M:'"$ALGO"'"?[,}]' "$T/zram.yaml"
lexpect 0 "apply --dry-run of that profile" apply "$T/zram.yaml" --dry-run
if [ -z "$(tail -n +2 /proc/swaps)" ] && [ "$ZSWAP0" = N ]; then
	check "warns that this machine's swap (none) is not the profile's" \
		err_has "was measured with compressed swap \(zram:512M:$ALGO\); this machine's swap is none"
elif ! grep -q '^/dev/zram' /proc/swaps; then
	check "warns that this machine's swap is not the profile's" \
		err_has "was measured with compressed swap \(zram:512M:$ALGO\); this machine's swap is "
else
	check "this machine's swap is compressed too: no warning" err_lacks "was measured with compressed swap"
fi
as_before "the zram search"

# --- the backend as a dimension: page-cluster and swap searched together ------------------------
# every run writes down the swap it saw, then swaps 300M in and out of a 128M cgroup (one
# finalist and no race: the confirmation's first look, which runs whatever the time, is then
# 10 runs, and the 2 minutes leave the 9 trials their time)
VARY="exec:{ echo ===; tail -n +2 /proc/swaps; cat /sys/module/zswap/parameters/enabled; } >>$T/vary.log; \
$TOP/build/swapbench -s 300M -a seq -P 1 >/dev/null"
: >"$T/vary.log"
lexpect 0 "a search of page-cluster and the swap backend" search --workload "$VARY" --knobs vm.page-cluster,swap \
	--memory-limit 128M --swap 512M --trials 9 --time 2m --finalists 1 --race-rounds 0 --warmup 0 \
	--db "$T/vary.db" -o "$T/vary.yaml"
check "its plan says the backends take turns" err_has '^swap: varied \(the pseudo-knob swap\)'
decision_agrees "the search varying the backend" "$T/vary.yaml"
# what each run saw, in order: vmtune's swapfile, zram0, zswap
awk -v st="$STATE/swapfile-" '
	/^===/ { if (n++) print f, z, y; f = 0; z = 0; y = "?"; next }
	index($1, st) == 1 { f = 1; next }
	$1 == "/dev/zram0" { z = 1; next }
	/^[YN]$/ { y = $1 }
	END { if (n) print f, z, y }' "$T/vary.log" |
	awk '{ print ($1 && !$2 && $3 == "N") ? "file" : (!$1 && $2 && $3 == "N") ? "zram" : ($1 && !$2 && $3 == "Y") ? "file+zswap" : "mixed:" $0 }' >"$T/seen.txt"
sqlite3 "$T/vary.db" "select json_extract(settings, '$.swap') from trials order by seq" >"$T/stored.txt"
check "every run saw exactly one of vmtune's areas on, zswap only with the swapfile" \
	test "$(grep -c mixed "$T/seen.txt")" = 0
check "each stored trial ran on the backend it records ($(wc -l <"$T/stored.txt") trials)" \
	cmp -s "$T/seen.txt" "$T/stored.txt"
check "all three backends were tried ($(sort -u "$T/stored.txt" | tr '\n' ' '))" \
	test "$(sort -u "$T/stored.txt" | wc -l)" = 3
rb=$(sed -n 's/^machine: {.* swap_backend: "\{0,1\}\([^",}]*\).*/\1/p' "$T/vary.yaml")
rk=$(sed -n 's/^machine: {.* swap: \([^,}]*\).*/\1/p' "$T/vary.yaml")
echo "# the profile: swap_backend $rb, swap $rk"
case "$rb" in
zram:512M) want=compressed ;;
file:512M) want="rotational|flash" ;;
file:512M+zswap) want="(rotational|flash)\+zswap" ;;
*) want=unknown ;;
esac
check "the profile records the recommended backend ($rb)" test "$want" != unknown
check "and the machine's swap as that backend makes it ($rk)" eval 'echo "$rk" | grep -Eqx "$want"'
check "the backend is not among its settings" eval '! grep -q "^  swap:" "$T/vary.yaml"'
lexpect 0 "vmtune loads the profile back" apply "$T/vary.yaml" --dry-run
as_before "the search varying the backend"
# kill -9 while the backends take turns, then restore
"$VMTUNE" --state-dir "$STATE" search --workload "swapbench -s 300M -a rand -P 50" --knobs swap \
	--memory-limit 128M --swap 512M --trials 9 --time 5m --warmup 0 --db "$T/vary.db" >"$T/out" 2>"$T/err" &
pid=$! BG=$!
check "a search varying the backend is under way" \
	wait_for '[ "$(cat /sys/block/zram0/disksize)" != 0 ] && [ -n "$(cat /sys/fs/cgroup/memory/vmtune-*/cgroup.procs 2>/dev/null)" ]'
kill -9 $pid
wait $pid 2>/dev/null
BG=
check "the workload died with vmtune" wait_for '[ -z "$(cat /sys/fs/cgroup/memory/vmtune-*/cgroup.procs 2>/dev/null)" ]'
lexpect 0 "the next command works" get vm.page-cluster
check "and warns, naming zram0 and the swapfile" eval 'err_has "zram /dev/zram0" && err_has "swapfile $STATE/swapfile-"'
lexpect 0 "vmtune restore after kill -9" restore
as_before "the search varying the backend, kill -9 and restore"

done_testing
