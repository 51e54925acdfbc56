#!/usr/bin/env bash
# test-cli.sh - the command line against a fake --root tree: knobs, get, set,
# restore, run; bad input; the journal on every exit path; the lock. None of it
# may touch the live system, which is checked at the end.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
S=$R/var/lib/vmtune
LIVE_BEFORE=$(live_snapshot)
vm() { cat "$R/proc/sys/vm/$1"; }
thp() { cat "$R/sys/kernel/mm/transparent_hugepage/$1"; }

# --- knobs and get ---------------------------------------------------------
expect 0 "knobs lists the catalogue" --root "$R" knobs
check "knobs: page-cluster is 3 and available" out_has '^vm\.page-cluster +3 +3 +0\.\.6 +available'
check "knobs: prefault order 4 from fault_around_bytes 65536" out_has '^prefault\.max_order +4 .*fault_around_bytes'
check "knobs: 2.4-aa knobs are missing here" out_has '^vm\.vm_passes +- .* missing'
check "knobs: overcommit is not searchable" out_has '^vm\.overcommit_memory .*not searchable'
check "knobs: names the pseudo-knob swap, searched only when named" out_has '^swap: not a kernel knob .*file, zram or file\+zswap$'
expect 0 "knobs --json" --root "$R" knobs --json
check "knobs --json: page-cluster value, range and status" \
	test "$(jq -c '.[] | select(.name=="vm.page-cluster") | [.value, .search_range, .status]' "$T/out")" = '[3,[0,6],"available"]'
check "knobs --json: every knob is listed" test "$(jq length "$T/out")" -ge 25
expect 0 "global options after the command" knobs --json --root "$R"
check "knobs --root after the command reads the tree" \
	test "$(jq -r '.[] | select(.name=="vm.page-cluster") | .path' "$T/out")" = "$R/proc/sys/vm/page-cluster"
VMTUNE_ROOT=$R expect 0 "VMTUNE_ROOT works like --root" get vm.swappiness
check "VMTUNE_ROOT: value from the tree" out_has '^vm\.swappiness = 60$'

expect 0 "get two knobs" --root "$R" get vm.page-cluster thp.enabled
check "get prints name = value" out_has '^vm\.page-cluster = 3$'
check "get decodes the sysfs enum" out_has '^thp\.enabled = madvise$'
expect 0 "get --json" --root "$R" get --json vm.swappiness thp.defrag
check "get --json values" test "$(jq -c '[."vm.swappiness", ."thp.defrag"]' "$T/out")" = '[60,"madvise"]'
expect 2 "get of an unknown knob" --root "$R" get vm.bogus
check "unknown knob is named" err_has "unknown knob 'vm\.bogus'"
expect 3 "get of a knob this kernel lacks" --root "$R" get vm.vm_passes
check "missing knob says why" err_has 'vm\.vm_passes: no such file'

# --- set and restore -------------------------------------------------------
expect 0 "set two knobs" --root "$R" set vm.page-cluster=2 thp.enabled=never
check "set wrote page-cluster" test "$(vm page-cluster)" = 2
check "set wrote the enum word" test "$(thp enabled)" = never
check "set reports old -> new" err_has 'vm\.page-cluster: 3 -> 2'
check "set journalled the originals as kept" grep -qP '^knob\tK\t\d+\tvm\.page-cluster\t.*\t3$' "$S/journal"
expect 0 "a command after set" --root "$R" knobs
check "kept changes are no crash: no warning" test ! -s "$T/err"
expect 0 "restore" --root "$R" restore
check "restore put page-cluster back" test "$(vm page-cluster)" = 3
check "restore put thp.enabled back" test "$(thp enabled)" = madvise
check "restore emptied the journal" test ! -e "$S/journal"
expect 0 "restore with nothing to do" --root "$R" restore
check "restore says there is nothing" err_has 'nothing to restore'

expect 0 "set prefault.max_order" --root "$R" set prefault.max_order=2
check "prefault order 2 is 16384 bytes of fault-around" test "$(cat "$R/sys/kernel/debug/fault_around_bytes")" = 16384
expect 0 "set mthp.anon_max_order" --root "$R" set mthp.anon_max_order=3
check "mthp order 3: 16kB and 32kB always" test "$(thp hugepages-32kB/enabled)" = always
check "mthp order 3: 64kB never" test "$(thp hugepages-64kB/enabled)" = never
check "mthp leaves the PMD size alone" test "$(thp hugepages-2048kB/enabled)" = "always [inherit] madvise never"
expect 0 "set vm.dirty_bytes with a size" --root "$R" set vm.dirty_bytes=64M
check "dirty_bytes written in bytes" test "$(vm dirty_bytes)" = 67108864
expect 0 "restore all three" --root "$R" restore
check "fault_around_bytes restored" test "$(cat "$R/sys/kernel/debug/fault_around_bytes")" = 65536
check "mthp sizes restored" test "$(thp hugepages-16kB/enabled)" = never
check "dirty pair restored: bytes 0, ratio 20" test "$(vm dirty_bytes)/$(vm dirty_ratio)" = 0/20

# --- read-back: a value the kernel did not keep is reported --------------------
# mTHP order 1 is the 8kB size, which has no enabled file here (as on 6.18)
expect 0 "set a value this kernel cannot hold" --root "$R" set mthp.anon_max_order=1
check "the read-back difference is reported" err_has 'mthp\.anon_max_order: wrote 1, the kernel kept 0'
"$VMTUNE" --root "$R" restore >/dev/null 2>&1

# --- bad input: exit 2, the bad word named, nothing written ----------------
SUM=$(tree_sum "$R")
bad() {
	local word=$1; shift
	expect 2 "bad input '$word'" --root "$R" "$@"
	check "error names '$word'" grep -qF -- "$word" "$T/err"
}
bad "vm.swappiness=250" set vm.swappiness=250
check "out of range says the range" err_has 'out of range 0\.\.200'
bad "vm.page-cluster" set vm.page-cluster
bad "=5" set =5
bad "vm.bogus" set vm.page-cluster=1 vm.bogus=1
bad "12Q" set vm.dirty_bytes=12Q
bad "99999999999999999999M" set vm.dirty_bytes=99999999999999999999M
bad "sometimes" set thp.enabled=sometimes
bad "vm.page-cluster=x" set vm.page-cluster=x
bad "swappiness=10" run --set swappiness=10 --workload "exec:true"
bad "12Q" run --memory-limit 12Q --workload "exec:true"
bad "99999999999999999999M" run --swap 99999999999999999999M --workload "exec:true"
bad "tape:1G" run --swap tape:1G --workload "exec:true"
bad "zram:1G+zswap" run --swap zram:1G+zswap --workload "exec:true"
check "zswap in front of zram: says why" err_has 'compresses twice'
bad "--zswap" run --zswap --workload "exec:true"
check "--zswap alone: says it needs swap" err_has 'needs swap to sit in front of'
bad "zram:1G:LZ4" search --swap zram:1G:LZ4 --workload "exec:true"
bad "nosuch" run --workload "nosuch -x"
bad "0" run --runs 0 --workload "exec:true"
bad "5x" run --timeout 5x --workload "exec:true"
bad "--bogus" run --bogus
check "bad input wrote nothing" test "$(tree_sum "$R")" = "$SUM"
check "bad input left no journal" test ! -e "$S/journal"
expect 2 "--memory-limit is refused under --root" --root "$R" run --memory-limit 256M --workload "exec:true"
check "it says why" err_has 'cannot be used with --root'
expect 2 "--swap zram is refused under --root" --root "$R" run --swap zram:64M --workload "exec:true"
expect 2 "unknown command" --root "$R" frobnicate
expect 2 "ambiguous prefix" --root "$R" r
check "ambiguous lists the candidates" err_has "could be: .*run.*restore|could be: .*restore.*run"
expect 0 "unique prefix finds the command" --root "$R" kno
check "prefix ran knobs" out_has '^KNOB'
for c in knobs get set run search report apply verify export install-boot machine db recommend restore; do
	expect 0 "$c --help" $c --help
	check "$c --help shows its usage" out_has "^usage: vmtune $c"
	check "$c --help has no printf escapes left in it" out_lacks '%%'
done
expect 0 "--version" --version
expect 2 "--root that is not a directory" --root "$T/nonexistent" knobs

# --- run: the seed block, --set, failures -----------------------------------
expect 0 "run an exec workload 3 times" --root "$R" run --runs 3 --workload "exec:echo bytes_allocated=1234"
check "block header" out_has '^Averages for 3 exec runs$'
check "block fields in the seeds' order" test "$(grep -oE '^[A-Za-z][^:]*:' "$T/out" | head -7 | tr '\n' '|')" = \
	"bytes allocated:|User time (seconds):|System time (seconds):|Elapsed (wall clock) time:|Percent of CPU this job got:|Major (requiring I/O) page faults:|Minor (reclaiming a frame) faults:|"
check "bytes allocated from the workload's result" out_has '^bytes allocated: +1234$'
check "95% CI and CV follow" out_has '^Elapsed 95% confidence interval: +[0-9.]+ \.\. [0-9.]+ s'
check "CV line" out_has '^Elapsed coefficient of variation: +[0-9.]+%$'
check "median and MAD" out_has '^Elapsed median, MAD: +[0-9.]+ s, [0-9.]+ s$'
check "min .. max" out_has '^Elapsed min \.\. max: +[0-9.]+ \.\. [0-9.]+ s$'
check "under 5 runs normality is not checked, and it says so" out_has 'Student t interval of the mean; normality not checked under 5 runs'
check "a fake tree is not settled, and it says so" out_has '^Settling before each run: +none \(--root'
check "one warm-up run, not counted" out_has '^Warm-up runs \(not counted\): +1 '

rm -f "$T/cnt"
expect 0 "two runs far apart" --root "$R" run --runs 2 --warmup 0 \
	--workload "exec:if [ -e $T/cnt ]; then sleep 0.3; else touch $T/cnt; fi"
check "the interval of a time stops at 0 (a t interval on two runs reaches below)" \
	out_has '^Elapsed 95% confidence interval: +0\.000 \.\. [0-9.]+ s'
rm -f "$T/cnt"

# precision on demand, outliers, and an interval that does not assume normality
expect 0 "--precision 10% on a steady workload" --root "$R" run --json --precision 10% --workload "exec:sleep 0.2"
check "reached, in fewer runs than --max-runs" \
	test "$(jq '.workloads[0] | .precision_reached and .runs < 30 and .runs >= 3' "$T/out")" = true
check "its interval is within 10% of the centre" test "$(jq '.workloads[0].elapsed_interval.rel_halfwidth <= 0.10' "$T/out")" = true
check "at the raised level that keeps 95% over the looks" test "$(jq '.workloads[0].elapsed_interval.coverage >= 0.985' "$T/out")" = true
# every third run is 10x slower: never precise to 1%, and two clusters
n=0; rm -f "$T/cnt"
expect 0 "--precision 1% that cannot be met stops at --max-runs" --root "$R" run --precision 1% --max-runs 9 \
	--warmup 0 --workload "exec:n=\$(cat $T/cnt 2>/dev/null || echo 0); echo \$((n+1)) >$T/cnt; if [ \$((n % 3)) = 0 ]; then sleep 0.3; else sleep 0.03; fi"
check "the block says the level of each look" out_has "98\\.5% at each look, so that --precision's repeated looks keep 95%"
check "the block says it was not reached" out_has '^Precision: +NOT reached: 1\.0% asked \(--max-runs ended it\) after 9 runs$'
check "and a warning says so" err_has 'did not come within 1\.0% in 9 runs \(--max-runs 9\)'
check "two clusters are not normal: the rank interval of the median" \
	out_has 'rank interval of the median \(no normality assumed\); the runs are not normal, Shapiro-Francia p = 0\.0'
rm -f "$T/cnt"
expect 0 "a slow first run among steady ones" --root "$R" run --runs 8 --warmup 0 \
	--workload "exec:if [ -e $T/cnt ]; then sleep 0.05; else touch $T/cnt; sleep 0.4; fi"
check "it is named as an outlier" out_has '^warning: run 1 \([0-9.]+ s\) is an outlier: slower than the median'
check "and as a first run unlike the rest" out_has '^warning: the first run \(run 1, [0-9.]+ s\) is unlike the rest'
rm -f "$T/cnt"
expect 0 "with --warmup 1 the slow start is left out" --root "$R" run --runs 6 --json \
	--workload "exec:if [ -e $T/cnt ]; then sleep 0.05; else touch $T/cnt; sleep 0.4; fi"
check "the warm-up took the slow run" test "$(jq '.workloads[0].warmup_elapsed_s[0] > 0.3 and .workloads[0].elapsed_max < 0.3' "$T/out")" = true
expect 2 "--settle with an unknown step" --root "$R" run --settle sync,flush --workload "exec:true"
check "names the step and the choices" err_has "unknown step 'flush' \(all, none, or a list of sync, drop-caches"
expect 2 "--precision that is not a percentage" --root "$R" run --precision fast --workload "exec:true"
check "it says what it wants" err_has "--precision 'fast': a percentage"
expect 2 "--max-runs below --runs" --root "$R" run --precision 5% --runs 10 --max-runs 5 --workload "exec:true"

expect 0 "run --set sees the setting while it runs" --root "$R" run --json --set vm.page-cluster=5 \
	--workload "exec:echo pc=\$(cat $R/proc/sys/vm/page-cluster)"
check "the workload saw page-cluster 5" test "$(jq '.workloads[0].per_run[0].results.pc' "$T/out")" = 5
check "and it is 3 again afterwards" test "$(vm page-cluster)" = 3
check "run --json carries the averages" test "$(jq '.workloads[0].completed' "$T/out")" = 1

expect 1 "a failing workload is a failed run, not a crash" --root "$R" run --set vm.page-cluster=5 --workload "exec:exit 7"
check "the failure is described" out_has 'run 1: exited with status 7'
check "settings restored after a failed run" test "$(vm page-cluster)" = 3
expect 1 "a workload killed by a signal" --root "$R" run --workload 'exec:kill -SEGV $$'
check "the signal is named" out_has 'killed by signal 11'
expect 1 "timeout" --root "$R" run --timeout 1 --set vm.swappiness=5 --workload "exec:sleep 20"
check "the timeout is reported" out_has 'stopped at the timeout'
check "settings restored after a timeout" test "$(vm swappiness)" = 60

# --- signals and kill -9 ----------------------------------------------------
wait_for() { local i; for i in $(seq 100); do eval "$1" && return 0; sleep 0.1; done; return 1; }
for sig in TERM INT HUP; do
	"$VMTUNE" --root "$R" run --set vm.page-cluster=5 --workload "exec:sleep 30" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for '[ "$(vm page-cluster)" = 5 ] && pgrep -f "^sleep 30" -P $pid >/dev/null || pgrep -f "^/bin/sh -c sleep 30" >/dev/null'
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig: vmtune exits with 128+SIG$sig = $want ($rc)" test "$rc" = "$want"
	check "SIG$sig: page-cluster restored" test "$(vm page-cluster)" = 3
	check "SIG$sig: journal empty" test ! -e "$S/journal"
done

"$VMTUNE" --root "$R" run --set vm.page-cluster=5 --set thp.defrag=never --workload "exec:sleep 30" >/dev/null 2>&1 &
pid=$!
wait_for '[ "$(vm page-cluster)" = 5 ] && [ "$(thp defrag)" = never ]'
sleep 0.3
kill -9 $pid
wait $pid 2>/dev/null
check "kill -9 leaves the change" test "$(vm page-cluster)" = 5
check "kill -9: the workload dies with vmtune" wait_for '! pgrep -f "^/bin/sh -c sleep 30" >/dev/null'
expect 0 "the next command still works" --root "$R" get vm.page-cluster
check "and warns about the unrestored run" err_has "vmtune \(pid $pid\) ended without restoring: 2 knob file"
check "and says how to fix it" err_has "run 'vmtune restore'"
expect 0 "restore after kill -9" --root "$R" restore
check "page-cluster back after kill -9" test "$(vm page-cluster)" = 3
check "thp.defrag back after kill -9" test "$(thp defrag)" = madvise
expect 0 "no warning once restored" --root "$R" knobs
check "stderr is clean" test ! -s "$T/err"

# --- a journal from before a reboot: its knob entries are void ---------------------
expect 0 "set swappiness (kept, journalled)" --root "$R" set vm.swappiness=10
"$VMTUNE" --root "$R" run --set vm.page-cluster=5 --workload "exec:sleep 30" >/dev/null 2>&1 &
pid=$!
wait_for '[ "$(vm page-cluster)" = 5 ]'
sleep 0.3
kill -9 $pid
wait $pid 2>/dev/null
check "the journal records its boot" grep -q "^# boot $(cat "$R/proc/sys/kernel/random/boot_id")$" "$S/journal"
# the reboot: a new boot id, the kernel's defaults, then a boot profile sets page-cluster 4
echo 5f1e2d3c-0000-4000-8000-000000000001 >"$R/proc/sys/kernel/random/boot_id"
echo 60 >"$R/proc/sys/vm/swappiness"
echo 4 >"$R/proc/sys/vm/page-cluster"
expect 0 "after the reboot the next command works" --root "$R" get vm.page-cluster
check "and does not ask to restore knobs the reboot reset" test ! -s "$T/err"
expect 0 "restore after the reboot" --root "$R" restore
check "says the knob entries are void" err_has 'from before the last reboot: 2 knob entries dropped'
check "leaves what was set since the boot" test "$(vm page-cluster)/$(vm swappiness)" = 4/60
check "and empties the journal" test ! -e "$S/journal"
echo 3 >"$R/proc/sys/vm/page-cluster"

# --- the lock -------------------------------------------------------------
"$VMTUNE" --root "$R" run --set vm.swappiness=30 --workload "exec:sleep 30" >/dev/null 2>&1 &
pid=$!
wait_for '[ "$(vm swappiness)" = 30 ]'
expect 3 "a second vmtune is kept out" --root "$R" set vm.page-cluster=1
check "it names the holder" err_has "another vmtune \(pid $pid\) is changing settings"
check "and wrote nothing" test "$(vm page-cluster)" = 3
expect 0 "reading is not locked" --root "$R" get vm.swappiness
check "no stale warning while the owner lives" test ! -s "$T/err"
kill -TERM $pid
wait $pid
check "the first one restored on SIGTERM" test "$(vm swappiness)" = 60

# --- privileges --------------------------------------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$VMTUNE"; then
	NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=$T/nobody"
	$NOBODY "$VMTUNE" knobs >"$T/out" 2>"$T/err"
	check "not root: knobs works on the live system" test $? = 0
	$NOBODY "$VMTUNE" set vm.page-cluster=3 >"$T/out" 2>"$T/err"
	RC=$?
	check "not root: set is refused (exit 3)" test $RC = 3
	check "not root: the message names the file and the privilege" err_has '/proc/sys/vm/page-cluster is not writable: Permission denied \(run as root\)'
else
	skip "not root: read-only commands work, writes are refused" "needs root and setpriv to drop to nobody"
fi

# --- the machine fingerprint -------------------------------------------------------
expect 0 "machine --json" machine --json
check "machine: memory as /proc/meminfo has it" \
	test "$(jq .mem_total_kb "$T/out")" = "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
check "machine: CPUs" test "$(jq .cpus "$T/out")" = "$(nproc)"
check "machine: page size" test "$(jq .page_size "$T/out")" = "$(getconf PAGESIZE)"
check "machine: one swap device entry per /proc/swaps line" \
	test "$(jq '.swap_devices | length' "$T/out")" = "$(tail -n +2 /proc/swaps | wc -l)"
if [ -s /etc/machine-id ]; then
	id=$(jq -r .machine_id "$T/out")
	check "machine: an id of 32 hex digits ($id)" grep -qxE '[0-9a-f]{32}' <<<"$id"
	check "machine: derived from /etc/machine-id, not the id itself" test "$id" != "$(cat /etc/machine-id)"
	expect 0 "machine --json again" machine --json
	check "machine: the same id every time" test "$(jq -r .machine_id "$T/out")" = "$id"
fi

# --- the man page: every command and every option each command's --help names
man_lacks=
for c in $("$VMTUNE" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'); do
	grep -q "^\.B $(sed 's/-/\\\\-/g' <<<"$c")\b" "$TOP/man/vmtune.1" || man_lacks+=" $c"
	for o in $("$VMTUNE" "$c" --help | sed '/^global options:/,$d' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -qF -- "$(sed 's/-/\\-/g' <<<"$o")" "$TOP/man/vmtune.1" || man_lacks+=" $c:$o"
	done
done
check "the man page covers every command and option (missing:${man_lacks:- none})" test -z "$man_lacks"
check "and man --warnings has nothing to say" sh -c "man --warnings -l '$TOP/man/vmtune.1' 2>&1 >/dev/null | grep . && exit 1 || exit 0"

check "nothing on the live system changed" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
