#!/usr/bin/env bash
# test-live-faults.sh - faults from the system (root only), each ending with a clear
# message, the right exit code and the machine as it was: knob writes the kernel
# refuses (EPERM for real from debugfs here; EPERM, EINVAL and EBUSY injected), a
# read-only knob (a read-only bind mount), a full disk while making the swapfile (a
# small loop-mounted ext4) and while writing the journal and the store (a full
# tmpfs), swapon refused and a cgroup that cannot be made (injected), and
# workloads that hang, ignore SIGTERM, or fork a child and exit. Injected faults
# come from build/tests/fault.so (tests/fault/fault.c) at the system call vmtune
# makes; everything else is the real thing. The OOM killer and kill -9 are in
# test-live.sh, the PostgreSQL server going away in tests/cli/test-pg.sh.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip_live "fault tests" "not root"
	done_testing
	exit
fi
FAULT=$TOP/build/tests/fault.so
if [ ! -f "$FAULT" ]; then
	fail "$FAULT is missing (make check builds it)"
	done_testing
	exit
fi
live_begin
faults=0
MNT=()
cleanup_mounts() { for m in "${MNT[@]}"; do umount "$m" 2>/dev/null; done; }
trap 'cleanup_mounts; live_cleanup' EXIT
# fault ENV... -- ARGS: vmtune with the injection library and the given variables
fault() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	env LD_PRELOAD="$FAULT" "${env[@]}" "$VMTUNE" --state-dir "$STATE" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}
# ends NAME RC REGEX: the exit code, the message, and the machine as it was
ends() {
	faults=$((faults + 1))
	check "$1: exit $2 ($RC)" test "$RC" = "$2"
	if err_has "$3"; then pass "$1: says so"; else
		fail "$1: the message lacks /$3/"
		sed 's/^/#   /' "$T/err" | tail -5
	fi
	check "$1: no journal left" test ! -e "$STATE/journal"
	check "$1: no swapfile left" test -z "$(ls "$STATE" | grep swapfile)"
	as_before "$1"
}

# --- knob writes the kernel refuses ------------------------------------------------
for e in "1 Operation not permitted" "22 Invalid argument" "16 Device or resource busy"; do
	set -- $e
	n=$1
	shift
	fault FAULT_WRITE=/proc/sys/vm/swappiness:$n -- set vm.page-cluster=1 vm.swappiness=100
	ends "set, swappiness write fails with errno $n" 3 "cannot write '100' to /proc/sys/vm/swappiness: $*"
	check "errno $n: page-cluster, written first, was rolled back" err_has 'vm\.page-cluster: rolled back to'
done
fault FAULT_WRITE=/proc/sys/vm/page-cluster:16 -- run --workload "exec:true" --warmup 0 --set vm.swappiness=100 \
	--set vm.page-cluster=1
ends "run --set, page-cluster busy" 3 "cannot write '1' to /proc/sys/vm/page-cluster: Device or resource busy"
check "run --set: the workload never ran" test ! -s "$T/out"
if ! cat /sys/kernel/debug/fault_around_bytes >/dev/null 2>&1; then
	lvt set prefault.max_order=2
	ends "prefault.max_order where debugfs answers EPERM for real" 3 \
		'prefault\.max_order.*(Operation not permitted|lockdown)'
else
	faults=$((faults + 1))
	skip_live "prefault.max_order where debugfs answers EPERM for real" "debugfs answers here (no lockdown)"
fi

# --- a read-only knob: the fake tree's vm directory bind-mounted read-only ---------
R=$T/root
"$TOP/tests/mkroot.sh" "$R"
mount --bind "$R/proc/sys/vm" "$R/proc/sys/vm" && MNT+=("$R/proc/sys/vm") &&
	mount -o remount,bind,ro "$R/proc/sys/vm"
THP0=$(cat "$R/sys/kernel/mm/transparent_hugepage/enabled")
vt --root "$R" --state-dir "$STATE" set thp.enabled=never vm.swappiness=10
faults=$((faults + 1))
check "a read-only knob: exit 3 ($RC)" test "$RC" = 3
check "a read-only knob: named with the reason" err_has "/proc/sys/vm/swappiness is not writable: Read-only file system"
check "a read-only knob: thp.enabled, written first, was rolled back" \
	test "$(cat "$R/sys/kernel/mm/transparent_hugepage/enabled")" = "$THP0"
check "a read-only knob: no journal left" test ! -e "$STATE/journal"
umount "$R/proc/sys/vm"
MNT=()

# --- a full disk: the journal, the store, the swapfile -----------------------------
mkdir -p "$T/full"
mount -t tmpfs -o size=256k tmpfs "$T/full" && MNT+=("$T/full")
mkdir -p "$T/full/state" && chmod 700 "$T/full/state"
dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null # until the file system is full
lvt --state-dir "$T/full/state" set vm.page-cluster=1 vm.swappiness=100
ends "the journal on a full disk" 3 "cannot write journal .*No space left on device"
check "the journal on a full disk: nothing was written" test "$(cat /proc/sys/vm/page-cluster)" = \
	"$(echo "$BEFORE" | sed -n 's/^page-cluster=//p' | tr -d ' ')"
rm -f "$T/full/fill" "$T/full/state"/*
# the store: made, then the disk fills while the search writes to it
"$VMTUNE" -q --state-dir "$T/full/state" --db "$T/full/state/r.db" db export >/dev/null 2>&1
dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
lvt --state-dir "$T/full/state" --db "$T/full/state/r.db" search --workload "exec:true" --knobs vm.page-cluster \
	--trials 3 --time 2m --warmup 0 --settle none -o "$T/full.yaml"
ends "the store on a full disk" 3 '(database or disk is full|No space left)'
check "the store on a full disk: no profile" test ! -e "$T/full.yaml"
check "the store on a full disk: its journal is gone too" test ! -e "$T/full/state/journal"
umount "$T/full"
MNT=()
# the swapfile: a 40M ext4 file system asked for 64M of swap
truncate -s 40M "$T/small.img"
mkfs.ext4 -q -F "$T/small.img" && mkdir -p "$T/small" && mount -o loop "$T/small.img" "$T/small" && MNT+=("$T/small")
mkdir -p "$T/small/state" && chmod 700 "$T/small/state"
lvt --state-dir "$T/small/state" run --workload "exec:true" --warmup 0 --memory-limit 32M --swap 64M
ends "the swapfile on a full disk" 3 "cannot write swapfile .*No space left on device"
check "the swapfile on a full disk: none left there" test -z "$(ls "$T/small/state" | grep swapfile)"
umount "$T/small"
MNT=()

# --- swapon refused, a cgroup that cannot be made ----------------------------------
fault FAULT_SWAPON=1 -- run --workload "exec:true" --warmup 0 --swap 64M
ends "swapon refused" 3 "swapon $STATE/swapfile-[0-9]+: Operation not permitted"
fault FAULT_MKDIR=/sys/fs/cgroup/:13 -- run --workload "exec:true" --warmup 0 --memory-limit 32M --set vm.swappiness=100
ends "a cgroup that cannot be made" 3 "cannot create cgroup /sys/fs/cgroup/.*vmtune-[0-9-]+: Permission denied"

# --- workloads that misbehave --------------------------------------------------------
t0=$(date +%s)
lvt run --workload "exec:sleep 300.4217" --warmup 0 --timeout 2s --memory-limit 32M
ends "a workload that hangs (--timeout 2s)" 1 'stopped at the timeout'
check "a workload that hangs: stopped within 20 s" test $(($(date +%s) - t0)) -lt 20
# (a length nothing else on the machine sleeps for: only this workload can match)
check "a workload that hangs: no sleep 300.4217 left" test -z "$(pgrep -x -f 'sleep 300.4217')"

t0=$(date +%s)
lvt run --workload "exec:trap '' TERM; sleep 301" --warmup 0 --timeout 2s
ends "a workload that ignores SIGTERM" 1 'stopped at the timeout'
check "a workload that ignores SIGTERM: killed within 20 s" test $(($(date +%s) - t0)) -lt 20
check "a workload that ignores SIGTERM: no sleep 301 left" test -z "$(pgrep -x -f 'sleep 301')"

for cg in "" "--memory-limit 32M"; do
	lvt run --workload "exec:sleep 302 & echo value=1" --warmup 0 $cg
	ends "a workload that forks a child and exits ${cg:-(no cgroup)}" 0 '^vmtune: exec run 1/1: completed, '
	check "its child is not left running ${cg:-(no cgroup)}" test -z "$(pgrep -x -f 'sleep 302')"
	pkill -x -f 'sleep 302'
done

echo "# faults tried: $faults"
cleanup_mounts
as_before "the fault tests"
done_testing
