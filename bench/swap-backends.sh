#!/usr/bin/env bash
# swap-backends.sh - a page-cluster search per swap backend, all into one store, then
# recommend for each backend's machine as the store saw it: does the model give each
# kind of swap its own settings? WORKLOAD (default sequential swap-in of 600M in a
# 256M cgroup, two read-back passes), TRIALS (10), BACKENDS (a 1G swapfile, 1G of zram
# with lz4, the swapfile with zswap in front). Prints markdown for bench/RESULTS.md.
# VARY=1: instead, one search of page-cluster and the backend itself (the pseudo-knob
# swap, 1G each, VTRIALS trials, default 15), and recommend from it for the machine as
# each backend makes it.
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

if [ "${VARY:-0}" = 1 ]; then
	VTRIALS=${VTRIALS:-15}
	echo "workload: \`$WORKLOAD\`, knobs vm.page-cluster and swap (file, zram, file+zswap; 1G each), $VTRIALS trials, 256M cgroup"
	echo
	t0=$SECONDS
	V search --workload "$WORKLOAD" --knobs vm.page-cluster,swap --memory-limit 256M --swap 1G \
		--trials "$VTRIALS" -o "$S/vary.yaml" >"$S/out" 2>"$S/err" || { echo "the search failed:" >&2; tail "$S/err" >&2; exit 1; }
	echo "| minutes | recommended | profile's swap | decision |"
	echo "|---|---|---|---|"
	pc=$(awk '/^  vm\.page-cluster:/ { print $2 }' "$S/vary.yaml")
	sb=$(sed -n 's/^machine: {.* swap_backend: "\{0,1\}\([^",}]*\).*/\1/p' "$S/vary.yaml")
	sk=$(sed -n 's/^machine: {.* swap: \([^,}]*\).*/\1/p' "$S/vary.yaml")
	echo "| $(((SECONDS - t0) / 60)) | page-cluster $pc, swap $sb | $sk | $(grep -E '^(elapsed: |nothing beat)' "$S/out" | head -1) |"
	echo
	echo "trials per backend (candidates, repeats and confirmation runs; mean cost relative to the original):"
	echo
	echo "| backend | trials | mean cost | best cost (page-cluster) |"
	echo "|---|---|---|---|"
	sqlite3 -separator ' | ' "$S/vmtune.db" "select json_extract(settings, '\$.swap'), count(*), printf('%.3f', exp(avg(ln(score)))),
		printf('%.3f (%d)', min(score), (select json_extract(t2.settings, '\$.\"vm.page-cluster\"') from trials t2
		where json_extract(t2.settings, '\$.swap') = json_extract(t.settings, '\$.swap') and t2.score is not null
		order by t2.score limit 1)) from trials t where score is not null group by 1 order by 1" | sed 's/^/| /; s/$/ |/'
	echo
	echo "recommend from that store, for the machine as each backend makes it (the run's fingerprint with its swap replaced):"
	echo
	echo "| machine | recommended page-cluster | predicted change of the cost |"
	echo "|---|---|---|"
	sqlite3 "$S/vmtune.db" "select machine from runs where id = 1" >"$S/m.json"
	for b in file zram file+zswap; do
		case $b in
		zram) jq '.swap_devices = [{name: "/dev/zram0", kind: "zram", size_kb: .swap_total_kb}] | .zswap = false' "$S/m.json" ;;
		file) jq '.swap_devices |= map(select(.kind != "zram")) | .zswap = false' "$S/m.json" ;;
		file+zswap) jq '.swap_devices |= map(select(.kind != "zram")) | .zswap = true' "$S/m.json" ;;
		esac >"$S/m-$b.json"
		V --machine "$S/m-$b.json" recommend --workload "$WORKLOAD" >"$S/rec" 2>"$S/err" || { cat "$S/err" >&2; exit 1; }
		pc=$(awk '/^  vm\.page-cluster / { print $2 }' "$S/rec")
		pred=$(sed -n 's/^predicted change of the cost: //p' "$S/rec")
		echo "| $b | $pc | ${pred:-$(grep -m1 -E '^(not recommended|fallback)' "$S/rec")} |"
	done
	exit 0
fi

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
