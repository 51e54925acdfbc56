#!/usr/bin/env bash
# test-safety.sh - restore cannot be skipped (SIGPIPE, SIGQUIT, SIGABRT), one lock
# for the whole system whatever the state dir, the rollback of a failed apply puts
# a ratio/bytes pair back by the member in force, the state dir refuses links and
# other owners, values outside a knob's safe range need --force, and the read-only
# commands work without root. On a fake --root tree (and the live kernel read, not
# written, as nobody); the live system must not change.
. "$(dirname "$0")/../lib.sh"

R=$T/root
"$TOP/tests/mkroot.sh" "$R"
S=$R/var/lib/vmtune
LIVE_BEFORE=$(live_snapshot)
vm() { cat "$R/proc/sys/vm/$1"; }
wait_for() { local i; for i in $(seq 100); do eval "$1" && return 0; sleep 0.1; done; return 1; }
sleeping() { pgrep -f "^/bin/sh -c sleep 3[01]" >/dev/null || pgrep -fx "sleep 3[01]" >/dev/null; }

# --- SIGQUIT and SIGPIPE end like SIGTERM: restored ---------------------------------
"$VMTUNE" --root "$R" run --set vm.page-cluster=5 --workload "exec:sleep 30" >"$T/out" 2>"$T/err" &
pid=$!
wait_for '[ "$(vm page-cluster)" = 5 ] && sleeping'
kill -QUIT $pid
wait $pid
rc=$?
check "SIGQUIT: vmtune exits with 128+3 ($rc)" test $rc = 131
check "SIGQUIT: page-cluster restored" test "$(vm page-cluster)" = 3
check "SIGQUIT: journal empty" test ! -e "$S/journal"

# stderr into a pipe whose reader goes away: the next message raises SIGPIPE
("$VMTUNE" --root "$R" -v run --set vm.swappiness=30 --workload "exec:sleep 3" 2>&1 >/dev/null
	echo "rc=$?" >"$T/pipe-rc") | head -1 >/dev/null
wait_for 'test -s "$T/pipe-rc"'
check "SIGPIPE: vmtune stops with 128+13 ($(cat "$T/pipe-rc"))" grep -qx 'rc=141' "$T/pipe-rc"
check "SIGPIPE: swappiness restored" test "$(vm swappiness)" = 60
check "SIGPIPE: journal empty" test ! -e "$S/journal"

# --- SIGABRT (a library's abort, a failed assertion): the knobs put back at once,
# the journal kept for restore and the next command ----------------------------------
"$VMTUNE" --root "$R" run --set vm.page-cluster=5 --set thp.enabled=never --workload "exec:sleep 31" \
	>"$T/out" 2>"$T/err" &
pid=$!
wait_for '[ "$(vm page-cluster)" = 5 ] && sleeping'
kill -ABRT $pid
wait $pid 2>/dev/null
rc=$?
check "SIGABRT: vmtune dies of it ($rc)" test $rc = 134
check "SIGABRT: page-cluster put back by the handler" test "$(vm page-cluster)" = 3
check "SIGABRT: thp.enabled put back by the handler" grep -q '^madvise$\|\[madvise\]' "$R/sys/kernel/mm/transparent_hugepage/enabled"
check "SIGABRT: the journal is kept" test -e "$S/journal"
wait_for '! sleeping'
expect 0 "the next command works" --root "$R" get vm.page-cluster
check "and warns about the unrestored run" err_has "vmtune \(pid $pid\) ended without restoring"
expect 0 "restore" --root "$R" restore
check "restore empties the journal" test ! -e "$S/journal"

# --- one lock for the system, whatever the state dir -----------------------------------
"$VMTUNE" --root "$R" run --set vm.swappiness=30 --workload "exec:sleep 30" >/dev/null 2>&1 &
pid=$!
wait_for '[ "$(vm swappiness)" = 30 ]'
mkdir -m 700 "$T/other-state"
expect 3 "a vmtune with another state dir is kept out" --root "$R" --state-dir "$T/other-state" set vm.page-cluster=1
check "it names the holder" err_has "another vmtune \(pid $pid\) is changing settings"
check "and wrote nothing" test "$(vm page-cluster)" = 3
kill -TERM $pid
wait $pid
check "the first one restored" test "$(vm swappiness)" = 60

# --- a failed apply rolls a ratio/bytes pair back by the member in force --------------
cat >"$T/pair.yaml" <<'YAML'
vmtune: 1
settings:
  vm.dirty_bytes: 64M
  vm.swappiness: 30
YAML
mv "$R/proc/sys/vm/swappiness" "$T/swappiness.real"
ln -s /dev/full "$R/proc/sys/vm/swappiness" # reads NULs, writes fail
expect 3 "apply with a failing write after a dirty_bytes write" --root "$R" apply "$T/pair.yaml"
rm "$R/proc/sys/vm/swappiness" && mv "$T/swappiness.real" "$R/proc/sys/vm/swappiness"
check "dirty_bytes is 0 again" test "$(vm dirty_bytes)" = 0
check "dirty_ratio is 20, in force again" test "$(vm dirty_ratio)" = 20
check "the rollback is reported" err_has 'vm\.dirty_bytes: rolled back to 0'

# --- the state dir: no link, nobody else's --------------------------------------------
ln -s "$T/elsewhere" "$T/link-state"
mkdir "$T/elsewhere"
expect 3 "a state dir that is a symbolic link is refused" --root "$R" --state-dir "$T/link-state" set vm.page-cluster=1
check "it says why" err_has "is not a directory \(a symbolic link\?\)"
mkdir -m 777 "$T/open-state"
expect 3 "a state dir others can write is refused" --root "$R" --state-dir "$T/open-state" set vm.page-cluster=1
check "it says why" err_has "writable by others \(mode 777\)"
check "neither wrote anything" test "$(vm page-cluster)" = 3
mkdir -m 700 "$T/planted"
ln -s "$T/victim" "$T/planted/journal.tmp"
expect 0 "a link planted where the journal's temp file goes" --root "$R" --state-dir "$T/planted" set vm.page-cluster=1
check "is not followed" test ! -e "$T/victim"
expect 0 "restore" --root "$R" --state-dir "$T/planted" restore
check "the knob is back" test "$(vm page-cluster)" = 3

# --- values outside the safe range need --force ---------------------------------------
cat >"$T/big.yaml" <<'YAML'
vmtune: 1
settings:
  vm.min_free_kbytes: 2000000
  vm.swappiness: 5
YAML
expect 0 "apply --dry-run of a profile from a much bigger machine" --root "$R" apply --dry-run "$T/big.yaml"
check "dry run: min_free_kbytes outside its safe range, with the range" \
	err_has 'warning: vm\.min_free_kbytes = 2000000 is outside its safe range [0-9]+\.\.[0-9]+ on this machine; apply needs --force'
check "dry run: swappiness 5 outside 10..200" err_has 'vm\.swappiness = 5 is outside its safe range 10\.\.200'
expect 2 "apply refuses it" --root "$R" apply "$T/big.yaml"
check "and wrote nothing" test "$(vm min_free_kbytes)" = 67584 -a "$(vm swappiness)" = 60
expect 2 "install-boot refuses it" --root "$R" install-boot "$T/big.yaml"
expect 0 "apply --force applies it" --root "$R" apply --force "$T/big.yaml"
check "min_free_kbytes is written" test "$(vm min_free_kbytes)" = 2000000
expect 0 "restore" --root "$R" restore
check "and put back" test "$(vm min_free_kbytes)" = 67584 -a "$(vm swappiness)" = 60

# --- read-only commands without root, on the live kernel --------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	U=$(mktemp -d /tmp/vmtune-nobody-XXXXXX)
	chmod 755 "$U"
	cp "$TOP/profiles/desktop-swap.yaml" "$U/p.yaml"
	chmod 644 "$U/p.yaml"
	# a store nobody can read, made here from a search on the fake tree
	"$VMTUNE" --root "$R" --db "$U/r.db" -q search --workload "exec:true" --knobs vm.page-cluster,vm.swappiness \
		--trials 4 --confirm-rounds 2 -o "$T/r.yaml" >/dev/null 2>&1
	chmod 644 "$U/r.db"
	nobody() { (cd "$U" && HOME=$U setpriv --reuid=65534 --regid=65534 --clear-groups "$VMTUNE" "$@") >"$T/out" 2>"$T/err"; RC=$?; }
	for c in "knobs" "machine" "report $U/p.yaml" "export --current" "export $U/p.yaml --format tuned"; do
		nobody $c
		check "as nobody: vmtune $c (exit $RC)" test "$RC" = 0
	done
	nobody export --current
	check "as nobody: export --current lists the live sysctls" out_has '^vm\.swappiness = [0-9]+$'
	nobody verify "$U/p.yaml"
	check "as nobody: verify compares (exit $RC: 0 or 1, not 3)" test "$RC" = 0 -o "$RC" = 1
	nobody search --dry-run --workload mtest01 --knobs vm.page-cluster,vm.swappiness
	check "as nobody: search --dry-run plans (exit $RC)" test "$RC" = 0
	check "as nobody: the plan names the knobs" out_has '^  vm\.page-cluster +original'
	nobody recommend --db "$U/r.db" --workload "exec:true"
	check "as nobody: recommend reads a store it is given (exit $RC)" test "$RC" = 0
	check "as nobody: from the model, not the shipped profile" out_has '^basis: '
	nobody recommend --workload mtest01
	check "as nobody without a store: it says where root's searches are" \
		err_has 'searches run as root are stored in /var/lib/vmtune/vmtune\.db, which only root can read'
	rm -rf "$U"
else
	skip "read-only commands as nobody" "needs root and setpriv"
fi

check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
