#!/usr/bin/env bash
# confirm.sh - what a search's "significant" is worth, on a simulated workload whose
# answer is known (`sim effect` of tests/search/sim.c: 10% cheaper with vm.page-cluster >= 5,
# or no effect at all, and NOISE log-normal noise per measurement), searching three
# knobs (two of no effect) at the default budget. For SEARCHES seeds (default 200)
# each: under the null, how often a search claims an improvement (the promise: at most
# 5%); with the true 10% effect, how often it finds and confirms page-cluster >= 5
# (the goal: at least 80%), and how often the reported interval covers the true
# change (-10%). OLD=REV also runs the vmtune of git revision REV on the same seeds,
# in the same run (default: the revision before the paired sequential confirmation;
# OLD= skips it). A search that fails (exits non-zero, or stores no result) is no
# claim and no miss: it is counted in a column of its own, its end printed on stderr,
# and the bench then exits 1. Prints a markdown table for bench/RESULTS.md. No root needed.
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SEARCHES=${SEARCHES:-200}
FIRST=${FIRST:-1} # the first seed: two halves can run side by side (FIRST=101 SEARCHES=100)
NOISE=${NOISE:-0.1}
OLD=${OLD-a461864}
make -s all build/tests/sim
T=$(mktemp -d /tmp/vmtune-bench-XXXXXX)
trap '[ ! -d "$T/old" ] || git -C "$TOP" worktree remove --force "$T/old" >/dev/null 2>&1; rm -rf "$T"' EXIT
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure

# VMTUNE=BIN: the vmtune under test (default build/vmtune; a copy keeps a rebuild
# during the bench out of its results)
declare -A bins=([new]=${VMTUNE:-$TOP/build/vmtune})
if [ -n "$OLD" ]; then
	git -C "$TOP" worktree add --detach "$T/old" "$OLD" >/dev/null 2>&1
	make -s -C "$T/old" all >/dev/null
	bins[old]=$T/old/build/vmtune
fi

# one search: prints "claimed pc change lo hi measurements" from the run's stored
# result, or "failed - nan nan nan measurements" when the search failed (a crash, an
# error exit, no stored result), with its exit status and the end of its output on stderr
one() { # BIN EFFECT SEED
	local r=$T/r-$BASHPID-$3 db rc=0 res
	db=$r.db
	"$TOP/tests/mkroot.sh" "$r"
	echo "$3" >"$r/seed"
	"$1" --root "$r" --db "$db" -q search --workload "exec:$TOP/build/tests/sim effect $2 $NOISE" --metric value \
		--minimize --knobs "$KNOBS" --seed "$3" -o "$r/p.yaml" >"$r/out" 2>&1 || rc=$?
	res=$(sqlite3 "$db" "select result from runs order by id desc limit 1" 2>/dev/null |
		jq -r '[(if .significant then 1 else 0 end), .recommended["vm.page-cluster"], (.change_pct // "nan"),
			(.ci95_pct_lo // "nan"), (.ci95_pct_hi // "nan")] | @tsv' 2>/dev/null) || res=
	if [ "$rc" != 0 ] || [ -z "$res" ]; then
		{
			echo "confirm.sh: the search of effect $2, seed $3 by $1 failed: exit $rc${res:-, no stored result}"
			tail -5 "$r/out" | sed 's/^/confirm.sh:   /'
		} >&2
		res=$(printf 'failed\t-\tnan\tnan\tnan')
	fi
	printf '%s\t%s\n' "$res" "$(sqlite3 "$db" "select count(*) from measurements" 2>/dev/null || echo 0)"
	rm -rf "$r" "$db"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pct() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.1f%%", n ? 100 * a / n : 0 }'; }

# each version's searches in a process of their own (the machine has two cores)
row() { # VERSION
	local v=$1 nullc=0 found=0 wrong=0 claims=0 cover=0 nullf=0 efff=0 s sig pc ch lo hi m t
	: >"$T/m-null-$v" && : >"$T/m-eff-$v"
	for s in $(seq "$FIRST" $((FIRST + SEARCHES - 1))); do
		read -r sig pc ch lo hi m < <(one "${bins[$v]}" 0 "$s")
		if [ "$sig" = failed ]; then nullf=$((nullf + 1)); else echo "$m" >>"$T/m-null-$v"; fi
		if [ "$sig" = 1 ]; then
			nullc=$((nullc + 1)) claims=$((claims + 1))
			awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= 0 && 0 <= hi) }' && cover=$((cover + 1))
		fi
		read -r sig pc ch lo hi m < <(one "${bins[$v]}" 0.10 "$s")
		if [ "$sig" = failed ]; then efff=$((efff + 1)); else echo "$m" >>"$T/m-eff-$v"; fi
		if [ "$sig" = 1 ]; then
			claims=$((claims + 1))
			if [ "$pc" -ge 5 ]; then t=-10 found=$((found + 1)); else t=0 wrong=$((wrong + 1)); fi
			awk -v lo="$lo" -v hi="$hi" -v t=$t 'BEGIN { exit !(lo <= t && t <= hi) }' && cover=$((cover + 1))
		fi
	done
	printf '| %s | %d | %d, %d | %d (%s) | %d (%s) | %d | %d of %d | %s, %s |\n' "$v" "$SEARCHES" "$nullf" "$efff" \
		"$nullc" "$(pct $nullc "$SEARCHES")" "$found" "$(pct $found "$SEARCHES")" "$wrong" "$cover" "$claims" \
		"$(median <"$T/m-null-$v")" "$(median <"$T/m-eff-$v")"
	echo $((nullf + efff)) >"$T/failed-$v"
}
start=$(date +%s)
for v in new old; do
	[ -n "${bins[$v]:-}" ] && row $v >"$T/row-$v" &
done
wait
echo "| vmtune | searches each | FAILED searches (null, effect) | null: claimed improvements | 10% effect: found (pc >= 5, significant) | 10% effect: a claim for pc < 5 | intervals covering the true change (of claims) | median measurements (null, effect) |"
echo "|---|---|---|---|---|---|---|---|"
cat "$T/row-new"
[ -z "${bins[old]:-}" ] || cat "$T/row-old"
echo
echo "($(($(date +%s) - start)) s; noise $NOISE; knobs $KNOBS; default budget: 30 trials, --race-rounds 2, --confirm-rounds 5, --confirm-max-rounds 25, --min-effect 5%; old: its defaults)"
nfailed=$(cat "$T"/failed-* | awk '{ n += $1 } END { print n + 0 }')
if [ "$nfailed" != 0 ]; then
	echo "confirm.sh: $nfailed search(es) failed (exit status or no stored result; see above): the rates above do not hold" >&2
	exit 1
fi
