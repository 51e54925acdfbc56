#!/usr/bin/env bash
# sensitivity.sh - how often the report's sensitivity finds each knob's effect, on the
# hard surface whose effects are known (`sim hard` of tests/search/sim.c, the surface of
# bench/peers.sh: six knobs that matter, from a few percent to half the cost, and
# vm.dirty_ratio and vm.dirty_expire_centisecs that do nothing). For each NOISE (default
# "0.05 0.15") and each of SEEDS seeds (default 20, from FIRST): one search --strategy bo
# --trials TRIALS (default 40), then `vmtune report --json` of it: per knob, in how many
# reports an effect was found. OLD=BIN reads the same runs with another build's report
# too (an A/B of the sensitivity alone: the searches are the same). Each knob's true
# effect, the range of the cost along the knob with the others at the optimum, is
# printed beside it. No root needed; JOBS (default 2) seeds run side by side;
# VMTUNE=BIN searches and reports with another build (a copy, so that a rebuild while
# it runs changes nothing).
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SEEDS=${SEEDS:-20}
FIRST=${FIRST:-1}
TRIALS=${TRIALS:-40}
NOISES=${NOISES:-0.05 0.15}
JOBS=${JOBS:-2}
VMTUNE=${VMTUNE:-$TOP/build/vmtune}
OLD=${OLD:-}
make -s all build/tests/sim
T=$(mktemp -d /tmp/vmtune-sens-XXXXXX)
trap 'rm -rf "$T"' EXIT
SIM=$TOP/build/tests/sim
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.watermark_scale_factor,vm.compaction_proactiveness,thp.enabled,vm.dirty_ratio,vm.dirty_expire_centisecs

# one seed at one noise: "NOISE SEED WHICH KNOB FOUND" per knob and report (new, old)
one() { # NOISE SEED
	local noise=$1 seed=$2 r=$T/r-$1-$2
	"$TOP/tests/mkroot.sh" "$r"
	echo "$seed" >"$r/seed"
	"$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM hard $noise" --metric value --minimize \
		--knobs "$KNOBS" --strategy bo --trials "$TRIALS" --seed "$seed" -o "$r/p.yaml" >"$r.out" 2>&1 || true
	"$VMTUNE" --db "$r.db" report --json | jq -r --arg p "$noise $seed new" '.knobs[] | "\($p) \(.knob) \(if .effect_found then 1 else 0 end)"'
	[ -z "$OLD" ] ||
		"$OLD" --db "$r.db" report --json | jq -r --arg p "$noise $seed old" '.knobs[] | "\($p) \(.knob) \(if .effect_found then 1 else 0 end)"'
	rm -rf "$r" "$r.db" "$r.out"
}
export -f one
export T TOP SIM KNOBS TRIALS VMTUNE OLD

# the true effect of a knob: the cost's range along it, the others at the optimum (%)
OPT="vm.page-cluster=4 vm.swappiness=140 vm.vfs_cache_pressure=200 vm.watermark_scale_factor=80 vm.compaction_proactiveness=10"
truth() { # KNOB VALUE...
	local k=$1 v
	shift
	# shellcheck disable=SC2086
	for v in "$@"; do "$SIM" hard-true $OPT "$k=$v"; done | grep -v failed | sort -g |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f%%", 100 * (hi / lo - 1) }'
}
declare -A TRUE
TRUE[vm.page-cluster]=$(truth vm.page-cluster 0 1 2 3 4 5 6)
TRUE[vm.swappiness]=$(truth vm.swappiness $(seq 10 10 200))
TRUE[vm.vfs_cache_pressure]=$(truth vm.vfs_cache_pressure $(seq 50 25 500))
TRUE[vm.watermark_scale_factor]=$(truth vm.watermark_scale_factor 10 14 20 28 40 56 80 113 160 226 320 453 500)
TRUE[vm.compaction_proactiveness]=$(truth vm.compaction_proactiveness $(seq 0 5 50))
TRUE[thp.enabled]=$(truth thp.enabled always madvise never)
TRUE[vm.dirty_ratio]=$(truth vm.dirty_ratio $(seq 5 5 40))
TRUE[vm.dirty_expire_centisecs]=$(truth vm.dirty_expire_centisecs $(seq 500 500 6000))

t0=$SECONDS
for noise in $NOISES; do
	for s in $(seq "$FIRST" $((FIRST + SEEDS - 1))); do
		echo "$noise $s"
	done
done | xargs -P "$JOBS" -n 2 bash -c 'one "$0" "$1"' >"$T/all"

echo "sensitivity.sh: SEEDS=$SEEDS FIRST=$FIRST TRIALS=$TRIALS, $((SECONDS - t0)) s"
for noise in $NOISES; do
	echo
	echo "noise $noise, $SEEDS searches: in how many reports the knob's effect was found"
	echo
	if [ -n "$OLD" ]; then
		echo "| knob | true effect | found (this build) | found (OLD) |"
		echo "|---|---|---|---|"
	else
		echo "| knob | true effect | found |"
		echo "|---|---|---|"
	fi
	for k in $(tr , ' ' <<<"$KNOBS"); do
		row="| $k | ${TRUE[$k]} | $(awk -v n="$noise" -v k="$k" '$1 == n && $3 == "new" && $4 == k { f += $5; t++ } END { printf "%d of %d", f, t }' "$T/all") |"
		[ -z "$OLD" ] ||
			row="$row $(awk -v n="$noise" -v k="$k" '$1 == n && $3 == "old" && $4 == k { f += $5; t++ } END { printf "%d of %d", f, t }' "$T/all") |"
		echo "$row"
	done
done
