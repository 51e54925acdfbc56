#!/usr/bin/env bash
# drift.sh - how often the live machine's baselines show drift: live searches (root),
# each in a state directory of its own, and for each what `vmtune report --json` says
# of its original settings' runs (drift.h: a random walk seen through noise, kept only
# when a likelihood-ratio test at 5% shows it). SEARCHES searches of each case
# (default 3; seeds from FIRST, default 1): page-cluster against sequential swap-in
# of 600M in a 256M cgroup (a 1G swapfile, TRIALS trials, default 15), and mtest01
# -p 80 -w over page-cluster and swappiness in a 512M cgroup (the same trials).
# Prints a markdown table for bench/RESULTS.md; the machine is as it was afterwards
# (checked).
set -eu
cd "$(dirname "$0")/.."
SEARCHES=${SEARCHES:-3}
FIRST=${FIRST:-1}
TRIALS=${TRIALS:-15}
[ "$(id -u)" = 0 ] || { echo "drift.sh: run as root (it searches the live kernel)" >&2; exit 3; }
. tests/lib.sh
make -s all
D=$(mktemp -d /var/tmp/vmtune-drift-XXXXXX)
# whatever an interrupted search left is put back from its journal
trap 'for st in "$D"/*/; do [ -d "$st" ] && "$VMTUNE" --state-dir "$st" restore >/dev/null 2>&1; done; rm -rf "$T" "$D"' EXIT
before=$(live_snapshot)

cases=("swapbench -s 600M -a seq -P 2|vm.page-cluster|256M" "mtest01|vm.page-cluster,vm.swappiness|512M")
echo "drift.sh: SEARCHES=$SEARCHES FIRST=$FIRST TRIALS=$TRIALS"
echo
echo "| workload | search | runs of the original settings | drift shown | p | noise per run | level moved | minutes |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
	IFS='|' read -r wl knobs mem <<<"$c"
	for i in $(seq "$FIRST" $((FIRST + SEARCHES - 1))); do
		st=$D/$i-${wl%% *}
		t0=$SECONDS
		"$VMTUNE" --state-dir "$st" -q search --workload "$wl" --knobs "$knobs" --memory-limit "$mem" --swap 1G \
			--trials "$TRIALS" --seed "$i" -o "$st/p.yaml" >"$st.out" 2>&1 || {
			echo "drift.sh: search $i of $wl failed:" >&2
			cat "$st.out" >&2
			exit 1
		}
		min=$(((SECONDS - t0 + 30) / 60))
		"$VMTUNE" --state-dir "$st" report 1 --json | jq -r --arg w "$wl" --arg i "$i" --arg m "$min" '.drift[0] |
			if .found == null then "| \($w) | \($i) | \(.baselines) | not fitted | | | | \($m) |" else
			"| \($w) | \($i) | \(.baselines) | \(if .found then "yes" else "no" end) | \(.p * 1000 | round / 1000) | \(.noise_pct * 10 | round / 10)% | \(.change_pct * 10 | round / 10)% | \($m) |" end'
	done
done
after=$(live_snapshot)
[ "$before" = "$after" ] || {
	echo "drift.sh: the machine is not as it was:" >&2
	diff <(echo "$before") <(echo "$after") >&2
	exit 1
}
