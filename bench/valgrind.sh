#!/usr/bin/env bash
# valgrind.sh - vmtune run and vmtune search on the live kernel under valgrind
# (memcheck, full leak check; the workloads themselves are not traced): each must
# end with 0 errors and nothing definitely or indirectly lost, and leave the machine
# as it was. Root only. Prints valgrind's summaries: record them in tests/README.md.
# Valgrind does not implement swapon(2) (ENOSYS), so the swap the runs ask for is
# made beforehand with util-linux and vmtune finds it there; the swapfile path is
# covered by make sanitize and the live suites.
cd "$(dirname "$0")/.." || exit 4
. tests/lib.sh
[ "$(id -u)" = 0 ] || { echo "valgrind.sh: root only (the live kernel)"; exit 2; }
live_begin
dd if=/dev/zero of="$STATE/pre-swap" bs=1M count=80 status=none && chmod 600 "$STATE/pre-swap" &&
	mkswap -q "$STATE/pre-swap" && swapon "$STATE/pre-swap" || { echo "cannot make the swap beforehand"; exit 1; }
BEFORE=$(live_snapshot)
trap 'swapoff "$STATE/pre-swap"; live_cleanup' EXIT
VG=(valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect
	--track-origins=yes --trace-children=no)
vg() { # NAME ARGS...
	local name=$1
	shift
	"${VG[@]}" --log-file="$T/$name.vg" "$VMTUNE" --state-dir "$STATE" "$@" >"$T/out" 2>"$T/err"
	RC=$?
	check "$name under valgrind (exit $RC)" test "$RC" = 0
	grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|in use at exit' "$T/$name.vg" | sed "s/^==[0-9]*== /# $name: /"
	as_before "$name under valgrind"
}
vg run run --workload "swapbench -s 48M -a seq -P 1" --memory-limit 32M --swap 64M --runs 3 --warmup 1 \
	--set vm.page-cluster=1
vg search search --workload "swapbench -s 48M -a seq -P 1" --knobs vm.page-cluster,vm.swappiness --memory-limit 32M \
	--swap 64M --trials 6 --time 30m --confirm-rounds 2 --confirm-max-rounds 4 --finalists 1 -o "$T/p.yaml"
vg recommend recommend --workload "swapbench -s 48M -a seq -P 1"
done_testing
