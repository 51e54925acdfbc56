#!/usr/bin/env bash
# swap-backends.sh - a page-cluster search per swap backend, all into one store, then
# recommend for each backend's machine as the store saw it: does the model give each
# kind of swap its own settings? WORKLOAD (default sequential swap-in of 600M in a
# 256M cgroup, two read-back passes), TRIALS (10), BACKENDS (a 1G swapfile, 1G of zram
# with lz4, the swapfile with zswap in front). Prints markdown for bench/RESULTS.md.
# Root only; the machine is left as it was (vmtune restores, the state dir is removed).
set -eu
cd "$(dirname "$0")/.."
WORKLOAD=${WORKLOAD:-"swapbench -s 600M -a seq -P 2"}
TRIALS=${TRIALS:-10}
BACKENDS=${BACKENDS:-"file:1G zram:1G:lz4 file:1G+zswap"}
VMTUNE=$PWD/build/vmtune
[ "$(id -u)" = 0 ] || { echo "swap-backends.sh: run as root (it searches the live kernel)" >&2; exit 3; }
make -s all
S=$(mktemp -d /var/tmp/vmtune-bench-XXXXXX)
trap '"$VMTUNE" --state-dir "$S" restore >/dev/null 2>&1; rm -rf "$S"' EXIT
V() { "$VMTUNE" --state-dir "$S" "$@"; }

echo "workload: \`$WORKLOAD\`, knob vm.page-cluster, $TRIALS trials per search, 256M cgroup"
echo
echo "| swap | minutes | recommended page-cluster | decision |"
echo "|---|---|---|---|"
for b in $BACKENDS; do
	t0=$SECONDS
	V search --workload "$WORKLOAD" --knobs vm.page-cluster --memory-limit 256M --swap "$b" \
		--trials "$TRIALS" -o "$S/$b.yaml" >"$S/out" 2>"$S/err" || { echo "search with $b failed:" >&2; tail "$S/err" >&2; exit 1; }
	pc=$(awk '/^  vm\.page-cluster:/ { print $2 }' "$S/$b.yaml")
	decision=$(grep -E '^(elapsed: |nothing beat)' "$S/out" | head -1)
	echo "| $b | $(((SECONDS - t0) / 60)) | $pc | $decision |"
done
echo
echo "recommend from that one store, for each run's machine as it was during the run (its fingerprint, stored with the run):"
echo
echo "| machine as searched | swap kind | recommended page-cluster | predicted change of the cost |"
echo "|---|---|---|---|"
n=0
for b in $BACKENDS; do
	n=$((n + 1))
	sqlite3 "$S/vmtune.db" "select machine from runs where id = $n" >"$S/m$n.json"
	kind=$(jq -r '[.swap_devices[].kind] | join(",")' "$S/m$n.json")$(jq -r 'if .zswap then "+zswap" else "" end' "$S/m$n.json")
	V --machine "$S/m$n.json" recommend --workload "$WORKLOAD" >"$S/rec" 2>"$S/err" || { cat "$S/err" >&2; exit 1; }
	pc=$(awk '/^  vm\.page-cluster / { print $2 }' "$S/rec")
	pred=$(sed -n 's/^predicted change of the cost: //p' "$S/rec")
	echo "| $b | $kind | $pc | ${pred:-$(grep -m1 -E '^(not recommended|fallback)' "$S/rec")} |"
done
