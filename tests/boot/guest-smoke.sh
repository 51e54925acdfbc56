#!/bin/sh
# guest-smoke.sh - run as init inside the qemu-booted Debian kernel (test-guest.sh):
# the unified cgroup v2 hierarchy with its memory controller, debugfs, an ext4 disk
# for the state dir and its swapfile. The live smoke suite there: knobs, set and
# restore of every available knob, prefault.max_order for real, run through
# memory.max and memory.swap.max with a swapfile, a short search, kill -9 then
# restore, and the machine as it was. Each result is a "GUEST ok|not ok - ..." line
# on the console; the host reads them.
export PATH=/bin
# it mounts over /proc, /tmp and /sys/fs/cgroup and powers off: only ever as the
# guest's init
if [ $$ != 1 ] || [ ! -f /vmtune.path ]; then
	echo "guest-smoke.sh: runs only as init inside the guest (tests/boot/test-guest.sh)" >&2
	exit 2
fi
V=$(cat /vmtune.path)
S=/var/lib/vmtune
n=0
say() { echo "GUEST $*"; }
ok() { say "ok - $*"; }
no() { say "not ok - $*"; }
check() { # DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else no "$d"; fi
}
diag() { sed 's/^/GUEST # /' "$@"; }
snapshot() {
	for f in /proc/sys/vm/*; do [ -r "$f" ] && echo "${f##*/}=$(cat "$f" 2>/dev/null | tr '\n\t' '  ')"; done
	for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag \
		/sys/kernel/mm/transparent_hugepage/hugepages-*/enabled /sys/kernel/debug/fault_around_bytes; do
		[ -r "$f" ] && echo "$f=$(cat "$f")"
	done
	echo "swaps=$(tail -n +2 /proc/swaps | awk '{ print $1 }' | tr '\n' ' ')"
	echo "cgroups=$(ls -d /sys/fs/cgroup/vmtune* 2>/dev/null | tr '\n' ' ')"
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
while read -r m; do insmod "$m" 2>/dev/null; done </modules.load
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda ] && break; sleep 0.5; done
mkdir -p $S
mount -t ext4 /dev/vda $S && chmod 700 $S
say "kernel $(uname -r), $(awk '/MemTotal/ { print $2, $3 }' /proc/meminfo)"
check "the unified cgroup v2 hierarchy with the memory controller" grep -qw memory /sys/fs/cgroup/cgroup.subtree_control
check "an ext4 disk for the state dir" grep -q " $S ext4 " /proc/mounts
BEFORE=$(snapshot)

# --- knobs: what this kernel has, what it lacks ---------------------------------
"$V" knobs >/tmp/knobs 2>/tmp/err
check "vmtune knobs (exit $?)" test $? = 0
diag /tmp/knobs
check "the knobs this kernel lacks are reported missing, not fatal" grep -q ' missing ' /tmp/knobs
check "prefault.max_order is available here (debugfs readable, no lockdown)" \
	grep -q '^prefault\.max_order .* available ' /tmp/knobs
[ "$(cat /sys/kernel/security/lockdown 2>/dev/null)" ] && say "# lockdown: $(cat /sys/kernel/security/lockdown)"

# --- set and restore every available knob, one at a time ------------------------
tried=0
back=0
awk 'NR > 1 && ($5 == "available" || ($5 == "not" && $6 == "searchable")) { print $1, $2, $4 }' /tmp/knobs >/tmp/avail
while read -r k cur range; do
	case $range in
	*..*)
		lo=${range%..*}
		hi=${range#*..}
		if [ "$cur" = "$lo" ]; then v=$hi; else v=$lo; fi
		;;
	*) # the choices of thp.*, or not searchable: a value the kernel takes
		case $k in
		thp.*) if [ "$cur" = never ]; then v=madvise; else v=never; fi ;;
		zswap.compressor | zram.comp_algorithm) if [ "$cur" = lzo ]; then v=lzo-rle; else v=lzo; fi ;;
		*_bytes) v=64M ;;
		*) v=$((cur + 1)) ;;
		esac
		;;
	esac
	tried=$((tried + 1))
	if ! "$V" --state-dir $S set "$k=$v" >/tmp/out 2>/tmp/err; then
		no "set $k=$v"
		diag /tmp/err
		"$V" --state-dir $S restore >/dev/null 2>&1
		continue
	fi
	now=$("$V" get "$k" 2>/dev/null | sed 's/.* = //')
	"$V" --state-dir $S restore >/dev/null 2>/tmp/err
	rc=$?
	after=$("$V" get "$k" 2>/dev/null | sed 's/.* = //')
	if [ $rc = 0 ] && [ "$after" = "$cur" ] && [ "$now" != "$cur" ]; then
		back=$((back + 1))
	else
		no "set $k=$v (read $now) and restore (exit $rc, read $after, was $cur)"
		diag /tmp/err
	fi
done </tmp/avail
check "set and restore of every available knob: $back of $tried" test "$back" = "$tried" -a "$tried" -gt 10
check "and the machine is as it was" test "$(snapshot)" = "$BEFORE"

# --- prefault.max_order for real: each order through fault_around_bytes -----------
fab0=$(cat /sys/kernel/debug/fault_around_bytes)
ps=$(getconf PAGESIZE 2>/dev/null || echo 4096)
max=$(awk '$1 == "prefault.max_order" { split($4, r, "\\.\\."); print r[2] }' /tmp/knobs)
good=0
o=0
while [ "$o" -le "${max:-4}" ]; do
	"$V" --state-dir $S set prefault.max_order=$o >/dev/null 2>/tmp/err
	got=$(cat /sys/kernel/debug/fault_around_bytes)
	if [ "$got" = $((ps << o)) ]; then good=$((good + 1)); else
		no "prefault.max_order=$o: fault_around_bytes is $got, not $((ps << o))"
		diag /tmp/err
	fi
	o=$((o + 1))
done
"$V" --state-dir $S restore >/dev/null 2>&1
check "prefault.max_order 0..$max each read back from fault_around_bytes ($good of $((max + 1)))" \
	test "$good" = $((max + 1))
check "restore puts fault_around_bytes back to $fab0" test "$(cat /sys/kernel/debug/fault_around_bytes)" = "$fab0"

# --- run through memory.max and memory.swap.max, with a swapfile ------------------
"$V" --state-dir $S run --workload "swapbench -s 160M -a seq -P 1" --memory-limit 128M --swap 256M --warmup 0 \
	--settle sync,drop-caches >/tmp/out 2>/tmp/err &
pid=$!
cg=
for i in $(seq 1 600); do
	cg=$(ls -d /sys/fs/cgroup/vmtune-* 2>/dev/null | head -1)
	[ -n "$cg" ] && [ -e "$cg/memory.swap.max" ] && [ "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break
	sleep 0.1
done
mmax=$(cat "$cg/memory.max" 2>/dev/null)
smax=$(cat "$cg/memory.swap.max" 2>/dev/null)
swaps=$(tail -n +2 /proc/swaps | awk '{ print $1 }')
wait $pid
rc=$?
check "run --memory-limit 128M --swap 256M (exit $rc)" test $rc = 0
[ $rc = 0 ] || diag /tmp/err
check "its cgroup had memory.max 128M ($mmax)" test "$mmax" = 134217728
check "and memory.swap.max 256M ($smax)" test "$smax" = 268435456
check "a swapfile in the state dir was on ($swaps)" test "${swaps#$S/swapfile-}" != "$swaps"
check "the workload swapped (major faults)" grep -q 'Major (requiring I/O) page faults: *[1-9]' /tmp/out
check "the run left the machine as it was" test "$(snapshot)" = "$BEFORE"

# --- a short search -------------------------------------------------------------
"$V" --state-dir $S search --workload "swapbench -s 48M -a seq -P 1" --knobs vm.page-cluster,vm.swappiness \
	--memory-limit 32M --swap 64M --trials 3 --time 10m --confirm-rounds 2 --confirm-max-rounds 2 --race-rounds 0 \
	--finalists 1 --warmup 0 --settle sync -o /tmp/p.yaml >/tmp/out 2>/tmp/err
rc=$?
check "a short search (exit $rc)" test $rc = 0
[ $rc = 0 ] || diag /tmp/err
check "it wrote a profile vmtune loads" "$V" report /tmp/p.yaml
check "the search left the machine as it was" test "$(snapshot)" = "$BEFORE"

# --- kill -9 mid-run, then restore -----------------------------------------------
"$V" --state-dir $S run --workload "swapbench -s 160M -a seq -P 4" --memory-limit 64M --swap 256M --runs 3 \
	--warmup 0 --settle none --set vm.swappiness=100 --set vm.page-cluster=1 >/dev/null 2>&1 &
pid=$!
for i in $(seq 1 600); do
	cg=$(ls -d /sys/fs/cgroup/vmtune-* 2>/dev/null | head -1)
	[ -n "$cg" ] && [ "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break
	sleep 0.1
done
check "a run is under way (cgroup with tasks, swappiness 100)" test -n "$cg" -a "$(cat /proc/sys/vm/swappiness)" = 100
kill -9 $pid
wait $pid 2>/dev/null
"$V" --state-dir $S knobs >/dev/null 2>/tmp/err
check "after kill -9 the next command warns" grep -q 'ended without restoring' /tmp/err
"$V" --state-dir $S restore >/tmp/out 2>/tmp/err
check "vmtune restore (exit $?)" test $? = 0
check "the knobs, swap and cgroups are as they were" test "$(snapshot)" = "$BEFORE"
if [ "$(snapshot)" != "$BEFORE" ]; then
	snapshot >/tmp/now
	echo "$BEFORE" | diff - /tmp/now | diag
fi
say "done"
umount $S
poweroff -f
