#!/usr/bin/env bash
# search-strategies.sh - how many trials bo, random and grid need to try settings
# within 2% of the optimum of tests/search/quadratic.sh (4 knobs, 1% noise), over
# SEEDS seeds (default 20) with a budget of BUDGET trials (default 60; a search
# that never gets there counts as BUDGET+1). Prints a markdown table of medians
# for bench/RESULTS.md. Runs on a fake --root tree: no root needed.
set -eu
cd "$(dirname "$0")/.."
SEEDS=${SEEDS:-20}
BUDGET=${BUDGET:-60}
make -s all
T=$(mktemp -d /tmp/vmtune-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
tests/mkroot.sh "$T/root"
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.dirty_ratio

# trials until the first setting within 2% of the optimum (f <= 10.2)
trials_to_2pct() {
	sqlite3 "$1" "select settings from trials where kind in ('baseline','candidate') order by seq" |
		awk '!seen[$0]++' |
		jq -r '[."vm.page-cluster", ."vm.swappiness", ."vm.vfs_cache_pressure", ."vm.dirty_ratio"] | @tsv' |
		awk -v budget="$BUDGET" '{ a=$1-4; b=($2-120)/40; c=($3-200)/150; d=($4-15)/10
			f = 10 + 0.5*a*a + b*b + 0.3*a*b + c*c + d*d
			if (f <= 10.2) { print NR; found=1; exit } }
			END { if (!found) print budget + 1 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A res
for st in bo random grid; do
	: >"$T/$st.txt"
	for seed in $(seq "$SEEDS"); do
		rm -f "$T/db" "$T/root/run/draws"
		mkdir -p "$T/root/run" && echo "$seed" >"$T/root/run/seed" # the objective's noise, seeded per search
		build/vmtune -q --root "$T/root" search --workload "exec:tests/search/quadratic.sh $T/root" --metric value \
			--knobs $KNOBS --strategy $st --trials "$BUDGET" --seed "$seed" --db "$T/db" -o "$T/p.yaml" \
			--confirm-rounds 2 --finalists 1 >/dev/null
		trials_to_2pct "$T/db" >>"$T/$st.txt"
	done
	res[$st]=$(median <"$T/$st.txt")
	reached=$(awk -v b="$BUDGET" '$1 <= b' "$T/$st.txt" | wc -l)
	echo "| $st | ${res[$st]} | $reached of $SEEDS | $(sort -n "$T/$st.txt" | tr '\n' ' ')|"
done
awk -v bo="${res[bo]}" -v r="${res[random]}" 'BEGIN { printf "\nbo needs %.2f of the trials random needs (median)\n", bo / r }'
