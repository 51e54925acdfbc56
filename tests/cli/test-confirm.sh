#!/usr/bin/env bash
# test-confirm.sh - the short version of bench/confirm.sh, in every `make check`: on
# a simulated workload whose answer is known (`sim effect` of tests/search/sim.c, 10% log-normal
# noise, seeded so each search is repeatable), searches of three knobs at the default
# budget must claim few improvements when nothing matters (N_NULL searches), and find
# most true 10% effects (page-cluster >= 5; N_EFF searches) with an interval that covers
# -10%; the report's sensitivity must rarely find an effect of the knobs that have none,
# and find a 30% effect of page-cluster in at least half of N_STRONG more searches (a
# 10% one is mostly within its band). A search that fails counts as neither a claim nor
# a miss, and fails the suite. JOBS searches at a time (default 3: each waits on its
# workload runs more than it computes).
. "$(dirname "$0")/../lib.sh"

# The thresholds, from the binomial (exact, python3's math.comb), at the rates of the
# last 200-search bench/confirm.sh run in bench/RESULTS.md ("The finalists from the
# race's contenders only": false claims 7 of 200 = 3.5%, power 175 of 200 = 87.5%):
# - power: N_EFF = 40, pass with MIN_FOUND = 32 or more found.
#   P(pass | 87.5%) = P(X >= 32 | 40, 0.875) = 0.945;
#   P(fail | 67.5%, 20 points lower) = P(X <= 31 | 40, 0.675) = 0.940.
# - false claims: N_NULL = 40, pass with MAX_CLAIMS = 3 or fewer.
#   P(pass | 3.5%) = P(X <= 3 | 40, 0.035) = 0.950;
#   P(fail | 7%, doubled) = P(X >= 4 | 40, 0.07) = 0.306 only. This check fails at least
#   90% of the time only from a rate of 16% on. Failing a doubled rate 90% of the time
#   while passing the measured one 90% takes about 300 null searches (pass with 14 or
#   fewer claims: P(pass | 3.5%) = 0.892, P(fail | 7%) = 0.935), some 12 CPU-minutes
#   here; that is bench/confirm.sh's to show, not this suite's.
# - both pass together with probability 0.945 x 0.950 = 0.898 at the measured rates (the
#   searches are seeded: a given build passes or fails the same way every time; the
#   figures are for builds whose seeds' outcomes are fresh draws).
# At the rates of the 200 + 200 searches of the build with the walk back (RESULTS.md,
# "Everything the search now does": 2.0% false claims, 94.5% power) the same thresholds
# pass with P(X <= 3 | 40, 0.02) = 0.992 and P(X >= 32 | 40, 0.945) = 1.000, and fail a
# doubled false-claim rate (4%) only 7.5% of the time, 20 points less power (74.5%) 72.5%:
# at these sizes the suite guards against large breakage, the bench against small.
# This build: 3 of 40 claims (at the threshold), 38 of 40 found, 38 of 38 intervals covering;
# 90 searches, 3 at a time: 305 s and 264 s in two runs here, beside other suites.
N_NULL=${N_NULL:-40}
N_EFF=${N_EFF:-40}
MAX_CLAIMS=${MAX_CLAIMS:-3}
MIN_FOUND=${MIN_FOUND:-32}
JOBS=${JOBS:-3}
LIVE_BEFORE=$(live_snapshot)
# one EFFECT SEED: a search; prints "EFFECT SEED significant pc lo hi e1 e2 e3" (e: the
# report's effect_found, 1/0, of the three knobs), or "EFFECT SEED failed" for a search
# that exits non-zero or stores no result (counted apart: neither a claim nor a miss)
one() {
	local r=$T/r$2-$1 rc=0 res eff
	"$TOP/tests/mkroot.sh" "$r"
	echo "$2" >"$r/seed"
	"$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM effect $1 0.1" \
		--metric value --minimize --knobs vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure --seed "$2" \
		-o "$r/p.yaml" >"$r.out" 2>&1 || rc=$?
	res=$(sqlite3 "$r.db" "select result from runs order by id desc limit 1" 2>/dev/null |
		jq -r '[(if .significant then 1 else 0 end), .recommended["vm.page-cluster"], (.ci95_pct_lo // "nan"),
			(.ci95_pct_hi // "nan")] | @tsv' 2>/dev/null)
	eff=$("$VMTUNE" --root "$r" --db "$r.db" report --json 2>/dev/null | jq -r '[.knobs[] | if .effect_found then 1 else 0 end] | @tsv' 2>/dev/null)
	if [ "$rc" != 0 ] || [ -z "$res" ] || [ -z "$eff" ]; then
		echo "$1 $2 failed $rc"
		sed "s/^/# effect $1, seed $2: /" "$r.out" | tail -3
	else
		echo "$1 $2 $res $eff" | tr '\t' ' '
	fi
	rm -rf "$r" "$r.db"
}
export -f one
export T TOP SIM VMTUNE
N_STRONG=${N_STRONG:-10}
t0=$SECONDS
{
	for s in $(seq "$N_NULL"); do echo "0 $s"; done
	for s in $(seq "$N_EFF"); do echo "0.10 $s"; done
	for s in $(seq "$N_STRONG"); do echo "0.30 $s"; done
} | xargs -P "$JOBS" -n 2 bash -c 'one "$0" "$1"' >"$T/results"
echo "# $((N_NULL + N_EFF + N_STRONG)) searches, $JOBS at a time: $((SECONDS - t0)) s"
grep '^#' "$T/results"
failed=$(grep -c ' failed' "$T/results")
claims=$(awk '$1 == 0 && $3 == 1' "$T/results" | wc -l)
null_found=$(awk '$1 == 0 && $3 != "failed" { n += $7 + $8 + $9 } $1 == "0.10" && $3 != "failed" { n += $8 + $9 } END { print n + 0 }' "$T/results")
found=$(awk '$1 == "0.10" && $3 == 1 && $4 >= 5' "$T/results" | wc -l)
covered=$(awk '$1 == "0.10" && $3 == 1 && $4 >= 5 && $5 <= -10 && -10 <= $6' "$T/results" | wc -l)
pc_found=$(awk '$1 == "0.10" && $3 != "failed" { n += $7 } END { print n + 0 }' "$T/results")
strong=$(awk '$1 == "0.30" && $3 != "failed" { n += $7 } END { print n + 0 }' "$T/results")
echo "# null: $claims of $N_NULL searches claimed an improvement; 10% effect: $found of $N_EFF found, $covered covered"
echo "# sensitivity: page-cluster's effect found in $pc_found of $N_EFF effect searches; an effect found for a knob without one: $null_found of $((3 * N_NULL + 2 * N_EFF))"
check "every search ran to its end ($failed of $((N_NULL + N_EFF + N_STRONG)) failed)" test "$failed" = 0
check "no effect: at most $MAX_CLAIMS of $N_NULL searches claim one ($claims)" test "$claims" -le "$MAX_CLAIMS"
check "a true 10% effect: at least $MIN_FOUND of $N_EFF searches find it ($found)" test "$found" -ge "$MIN_FOUND"
check "its interval covers the true -10% ($covered of $found)" test "$covered" -ge "$((found - 1))"
check "the report's sensitivity says 'none found' for knobs without an effect in at least 90% of reports ($null_found of $((3 * N_NULL + 2 * N_EFF)) found one)" \
	test "$((null_found * 10))" -le "$((3 * N_NULL + 2 * N_EFF))"
# a 30% effect (the cost 7 instead of 10), which the band can resolve
echo "# sensitivity: a 30% effect of page-cluster found in $strong of $N_STRONG searches"
check "and finds a 30% effect of page-cluster in at least half of the searches ($strong of $N_STRONG)" \
	test "$((strong * 2))" -ge "$N_STRONG"
check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
