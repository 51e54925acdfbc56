#!/usr/bin/env bash
# test-confirm.sh - the short version of bench/confirm.sh, in every `make check`: on
# a simulated workload whose answer is known (`sim effect` of tests/search/sim.c, 10% log-normal
# noise, seeded so each search is repeatable), searches of three knobs at the default
# budget must claim few improvements when nothing matters, and find most true 10%
# effects (page-cluster >= 5) with an interval that covers -10%; the report's
# sensitivity must rarely find an effect of the knobs that have none, and find a 30%
# effect of page-cluster in at least half of SEARCHES/2 more searches (a 10% one is
# mostly within its band; over seeds 1-24 the 30% one is found in 17). The bench runs 200 searches each and records the rates; here SEARCHES
# (default 20) of each.
. "$(dirname "$0")/../lib.sh"

N=${SEARCHES:-20}
LIVE_BEFORE=$(live_snapshot)
one() { # EFFECT SEED -> "significant pc lo hi" and the report's effect_found (1/0) of the three knobs
	local r=$T/r$2-$1
	"$TOP/tests/mkroot.sh" "$r"
	echo "$2" >"$r/seed"
	"$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM effect $1 0.1" \
		--metric value --minimize --knobs vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure --seed "$2" \
		-o "$r/p.yaml" >"$r.out" 2>&1
	printf '%s\t%s\n' "$(sqlite3 "$r.db" "select result from runs order by id desc limit 1" |
		jq -r '[(if .significant then 1 else 0 end), .recommended["vm.page-cluster"], (.ci95_pct_lo // "nan"),
			(.ci95_pct_hi // "nan")] | @tsv')" \
		"$("$VMTUNE" --root "$r" --db "$r.db" report --json | jq -r '[.knobs[] | if .effect_found then 1 else 0 end] | @tsv')"
}
claims=0 found=0 covered=0 pc_found=0 null_found=0
for s in $(seq "$N"); do
	read -r sig pc lo hi e1 e2 e3 < <(one 0 "$s")
	[ "$sig" = 1 ] && claims=$((claims + 1))
	null_found=$((null_found + e1 + e2 + e3))
	read -r sig pc lo hi e1 e2 e3 < <(one 0.10 "$s")
	if [ "$sig" = 1 ] && [ "$pc" -ge 5 ]; then
		found=$((found + 1))
		awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= -10 && -10 <= hi) }' && covered=$((covered + 1))
	fi
	pc_found=$((pc_found + e1))
	null_found=$((null_found + e2 + e3))
done
echo "# null: $claims of $N searches claimed an improvement; 10% effect: $found of $N found, $covered covered"
echo "# sensitivity: page-cluster's effect found in $pc_found of $N effect searches; an effect found for a knob without one: $null_found of $((5 * N))"
check "no effect: at most 2 of $N searches claim one ($claims)" test "$claims" -le 2
check "a true 10% effect: at least 70% of $N searches find it ($found)" test "$((found * 10))" -ge "$((N * 7))"
check "its interval covers the true -10% ($covered of $found)" test "$covered" -ge "$((found - 1))"
check "the report's sensitivity says 'none found' for knobs without an effect in at least 90% of reports ($null_found of $((5 * N)) found one)" \
	test "$((null_found * 10))" -le "$((5 * N))"
# a 30% effect (the cost 7 instead of 10), which the band can resolve
strong=0
for s in $(seq "$((N / 2))"); do
	read -r sig pc lo hi e1 e2 e3 < <(one 0.30 "$s")
	strong=$((strong + e1))
done
echo "# sensitivity: a 30% effect of page-cluster found in $strong of $((N / 2)) searches"
check "and finds a 30% effect of page-cluster in at least half of the searches ($strong of $((N / 2)))" \
	test "$((strong * 2))" -ge "$((N / 2))"
check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
