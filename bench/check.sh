#!/usr/bin/env bash
# check.sh - what `search --check-workload` decides, on simulated workloads whose
# answer is known: the search tunes `sim sparse` (whose recommendation always raises
# vm.page-cluster to 5 or more), and the check workload is `sim effect E NOISE`, which
# costs 10, E lower at page-cluster >= 5 (E -0.10: the recommendation makes it 11%
# worse; E 0: no effect at all). For SEARCHES seeds (default 100, from FIRST) of each
# E in EFFECTS (default "0 -0.05 -0.10"): how often the recommendation is refused, with
# the exact (Clopper-Pearson) 95% interval of that rate, and how the other verdicts
# fall. At E 0 a refusal is the check's error (it promises at most 5%); at E < 0 the
# refusal rate is its power. Prints markdown for bench/RESULTS.md. No root needed.
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SEARCHES=${SEARCHES:-100}
FIRST=${FIRST:-1}
NOISE=${NOISE:-0.05}
EFFECTS=${EFFECTS:-0 -0.05 -0.10}
VMTUNE=${VMTUNE:-$TOP/build/vmtune} # a copy keeps a rebuild during the bench out of its results
make -s all build/tests/sim
SIM=$(dirname "$VMTUNE")/tests/sim
T=$(mktemp -d /tmp/vmtune-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT

one() { # EFFECT SEED -> the check's verdict, or "crashed" / "no claim"
	local r=$T/r$2 res
	"$TOP/tests/mkroot.sh" "$r"
	echo "$2" >"$r/seed"
	if ! "$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM sparse $NOISE" --metric value \
		--minimize --knobs vm.page-cluster,vm.swappiness,vm.dirty_ratio --seed "$2" -o "$r/p.yaml" \
		--check-workload "exec:$SIM effect $1 $NOISE" --check-metric value >"$r/out" 2>&1; then
		echo crashed
		rm -rf "$r" "$r.db"
		return
	fi
	res=$(sqlite3 "$r.db" "select result from runs order by id desc limit 1")
	jq -r 'if .check == null then "no claim" else .check.verdict + (if .check.refused then " (refused)" else "" end) end' \
		<<<"$res"
	rm -rf "$r" "$r.db"
}

echo "| check effect E | searches | refused | 95% CI of the refusal rate | worse | no-worse | better | undecided | no claim | crashed |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
crashed_all=0
for e in $EFFECTS; do
	: >"$T/v"
	for s in $(seq "$FIRST" $((FIRST + SEARCHES - 1))); do
		one "$e" "$s" >>"$T/v"
	done
	n() { grep -c "^$1" "$T/v" || true; }
	refused=$(grep -c '(refused)' "$T/v" || true)
	crashed=$(n crashed)
	crashed_all=$((crashed_all + crashed))
	ci=$(/usr/bin/python3 -c 'import sys
from scipy.stats import beta
k, n = int(sys.argv[1]), int(sys.argv[2])
lo = beta.ppf(0.025, k, n - k + 1) if k > 0 else 0.0
hi = beta.ppf(0.975, k + 1, n - k) if k < n else 1.0
print("%.1f%% .. %.1f%%" % (100 * lo, 100 * hi))' "$refused" "$SEARCHES")
	echo "| $e | $SEARCHES | $refused | $ci | $(n worse) | $(n no-worse) | $(n better) | $(n undecided) | $(n 'no claim') | $crashed |"
done
[ "$crashed_all" = 0 ] || { echo "check.sh: $crashed_all search(es) crashed" >&2; exit 1; }
