#!/usr/bin/env bash
# test-peers.sh - the short version of bench/peers.sh, in every `make check`: two
# seeds at 5% noise on the hard simulated surface (`sim hard`: the original settings
# 46.6% above the optimum). The bench must run end to end with all four tools, give
# Optuna exactly the measurements vmtune's bo search used, and vmtune bo must end
# within 20% of the optimum on both seeds (the original settings are 46.6% away; the
# worst of 40 seeds in bench/RESULTS.md is 6.0%). The same on the rough surface
# (`sim rough`: no bowl; its optimum and original settings where sim.c says; bo
# alone, within 30%: the original settings are 66.6% away, the worst of 40 seeds is
# 20.4%). Then the short version of
# bench/sensitivity.sh on the same surface (two seeds at 5%): the reports must find
# page-cluster's 53% effect at least once and no effect of the two knobs without one.
# Two searches at 15% noise: every finalist must have been raced. The live system must
# not change.
. "$(dirname "$0")/../lib.sh"

LIVE_BEFORE=$(live_snapshot)
if ! /usr/bin/python3 -c 'import optuna' 2>/dev/null; then
	skip "the peers bench" "no python3-optuna"
	done_testing
	exit
fi
SEEDS=2 NOISES=0.05 JOBS=2 VMTUNE=$VMTUNE "$TOP/bench/peers.sh" >"$T/out" 2>"$T/err"
RC=$?
check "bench/peers.sh SEEDS=2 NOISES=0.05 runs (exit $RC)" test "$RC" = 0
sed 's/^/# /' "$T/out"
row() { grep "^| $1 |" "$T/out"; }
for tool in vmtune-bo vmtune-random optuna-tpe optuna-random; do
	check "$tool: a row of 2 seeds" eval 'row "$tool" | grep -qE "\| [0-9]+ of 2 \|"'
done
m=$(row vmtune-bo | awk -F'|' '{ gsub(/ /, "", $7); print $7 }')
check "Optuna got the measurements vmtune bo used ($m)" \
	test "$(row optuna-tpe | awk -F'|' '{ gsub(/ /, "", $7); print $7 }')" = "$m" -a -n "$m"
gaps=$(sed -n 's/^- vmtune-bo: //p' "$T/out" | head -1)
check "vmtune bo ends within 20% of the optimum on both seeds ($gaps%)" \
	awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); if (n != 2) exit 1; for (i = 1; i <= n; i++) if (a[i] + 0 > 20) exit 1 }'
check "no recommendation of vmtune in the failing region" eval 'row vmtune-bo | grep -qE "\| 0 \| [0-9.]+ \|$"'
# the rough surface: where its optimum and the original settings are, then a short run
check "sim rough: 10 at the optimum" test "$("$SIM" rough-true vm.page-cluster=4 vm.swappiness=140 \
	vm.vfs_cache_pressure=200 vm.watermark_scale_factor=80 vm.compaction_proactiveness=10)" = 10.000000
check "sim rough: 16.66 at the original settings" test "$("$SIM" rough-true)" = 16.657083
check "sim rough: it fails where the hard surface does" test "$("$SIM" rough-true vm.page-cluster=5 \
	vm.swappiness=180)" = failed
"$SIM" rough-true vm.page-cluster=4 vm.nosuch=1 >/dev/null 2>"$T/err"
RC=$?
check "sim rough-true: a setting it does not know is an error (exit $RC) that names it" \
	eval 'test "$RC" = 2 && grep -qx "sim rough-true: vm.nosuch=1: not KNOB=VALUE of the rough surface" "$T/err"'
SURFACE=rough SEEDS=2 NOISES=0.05 JOBS=2 TOOLS=vmtune-bo VMTUNE=$VMTUNE "$TOP/bench/peers.sh" >"$T/rough" 2>"$T/err"
RC=$?
check "SURFACE=rough bench/peers.sh SEEDS=2 NOISES=0.05 TOOLS=vmtune-bo runs (exit $RC)" test "$RC" = 0
sed 's/^/# /' "$T/rough"
gaps=$(sed -n 's/^- vmtune-bo: //p' "$T/rough" | head -1)
check "vmtune bo ends within 30% of the rough surface's optimum on both seeds ($gaps%)" \
	awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); if (n != 2) exit 1; for (i = 1; i <= n; i++) if (a[i] + 0 > 30) exit 1 }'
SEEDS=2 NOISES=0.05 JOBS=2 VMTUNE=$VMTUNE "$TOP/bench/sensitivity.sh" >"$T/sens" 2>"$T/err"
RC=$?
check "bench/sensitivity.sh SEEDS=2 NOISES=0.05 runs (exit $RC)" test "$RC" = 0
sed 's/^/# /' "$T/sens"
check "a row for each of the eight knobs" test "$(grep -cE '^\| (vm|thp)\.[a-z_.-]+ \| [0-9]+% \| [0-9]+ of 2 \|$' "$T/sens")" = 8
check "page-cluster's effect found in at least one report" grep -qE '^\| vm.page-cluster \| 5[0-9]% \| [12] of 2 \|$' "$T/sens"
for k in vm.dirty_ratio vm.dirty_expire_centisecs; do
	check "$k (no effect): found in neither report" grep -qE "^\| $k \| 0% \| 0 of 2 \|\$" "$T/sens"
done
# The finalists come out of the race: each was measured by it. (Ranking every point
# again after the race once let a point with one lucky run through; at 15% noise on
# this surface that was the case for seeds 1 and 3.)
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.watermark_scale_factor,vm.compaction_proactiveness,thp.enabled,vm.dirty_ratio,vm.dirty_expire_centisecs
for seed in 1 3; do
	r=$T/race-$seed
	"$TOP/tests/mkroot.sh" "$r"
	echo "$seed" >"$r/seed"
	"$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM hard 0.15" --metric value --minimize \
		--knobs "$KNOBS" --strategy bo --trials 40 --seed "$seed" -o "$r/p.yaml" >"$r.out" 2>&1
	# the race: the repeats after the first baseline that follows the last candidate
	race_start=$(sqlite3 "$r.db" "select min(seq) from trials where kind = 'baseline' and
		seq > (select max(seq) from trials where kind = 'candidate')")
	nfin=$(sqlite3 "$r.db" "select count(distinct settings) from trials where kind = 'confirm'")
	unraced=$(sqlite3 "$r.db" "select count(distinct settings) from trials where kind = 'confirm' and settings not in
		(select settings from trials where kind = 'repeat' and seq > $race_start)")
	check "seed $seed at 15% noise: a race, and $nfin finalists, each of them raced ($unraced not)" \
		test -n "$race_start" -a "${nfin:-0}" -ge 1 -a "$unraced" = 0
done
check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
