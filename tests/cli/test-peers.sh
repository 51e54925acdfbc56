#!/usr/bin/env bash
# test-peers.sh - the short version of bench/peers.sh, in every `make check`: two
# seeds at 5% noise on the hard simulated surface (`sim hard`: the original settings
# 46.6% above the optimum). The bench must run end to end with all six tools, give
# Optuna exactly the measurements vmtune's bo search used (as peers.py counts the runs
# it made), and vmtune bo must end within 20% of the optimum on both seeds (the
# original settings are 46.6% away; the worst of 40 seeds in bench/RESULTS.md is 6.0%).
# The same on the rough surface (`sim rough`: no bowl; its optimum and original
# settings where sim.c says; bo alone, within 30%: the original settings are 66.6%
# away, the worst of 40 seeds is 20.4%). Then the short version of
# bench/sensitivity.sh on the same surface (two seeds at 5%): the reports must find
# page-cluster's 53% effect at least once and no effect of the two knobs without one.
# Two searches at 15% noise: every finalist must have been raced. Then the standard
# test functions of tests/search/testfn.c: each surface's self-check on its knob grid,
# its optimum, original settings, failing region, enum and do-nothing knobs, its noise,
# and one short search each (vmtune bo and TPE, seed 1). The live system must not
# change.
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
# (the bench prints the budget it hands Optuna in Optuna's rows: comparing the rows
# would compare a number with itself. What Optuna really spends is counted here, by a
# wrapper around the surface that logs each measurement peers.py asks of it.)
check "vmtune bo's count of measurements includes its baselines, race and confirmation (${m:-none}, over 40)" \
	test "${m%.*}" -gt 40 2>/dev/null
cat >"$T/sim-count" <<SH
#!/bin/sh
echo "\$*" >>"$T/sim-calls"
exec "$SIM" "\$@"
SH
chmod +x "$T/sim-count"
: >"$T/sim-calls"
"$TOP/tests/mkroot.sh" "$T/ptree" >/dev/null
"$VMTUNE" --root "$T/ptree" knobs --json >"$T/knobs.json"
K=(vm.page-cluster vm.swappiness vm.vfs_cache_pressure vm.watermark_scale_factor vm.compaction_proactiveness thp.enabled
	vm.dirty_ratio vm.dirty_expire_centisecs)
# peers.py prints its recommendation, the best setting it saw, the lowest true value it
# visited, and the measurements it counts it made
/usr/bin/python3 "$TOP/bench/peers.py" "$T/sim-count" "$T/knobs.json" tpe 1 0.05 "${m%.*}" "${K[@]}" >"$T/tpe" 2>"$T/err"
rec=$(sed -n 1p "$T/tpe")
# (after its search, peers.py asks the surface's noiseless value of each setting it
# visited, for the "best visited" column: those calls are sim hard-true, not measurements)
n_at=$(grep -c '^hard-at 0.05 ' "$T/sim-calls")
n_other=$(grep -vc -e '^hard-at 0.05 ' -e '^hard-true ' "$T/sim-calls")
check "Optuna's TPE, given vmtune bo's $m, measures exactly that many times ($n_at; $n_other other calls)" \
	test "$n_at" = "${m%.*}" -a "$n_other" = 0
check "and counts its own measurements as the surface saw them ($(sed -n 4p "$T/tpe"))" test "$(sed -n 4p "$T/tpe")" = "$n_at"
check "its first measurement is the original settings, as vmtune's is" \
	test "$(head -1 "$T/sim-calls")" = "hard-at 0.05 $(jq -r --arg k "${K[*]}" '($k | split(" ")) as $ks |
		[$ks[] as $n | .[] | select(.name == $n) | "\(.name)=\(.value)"] | join(" ")' "$T/knobs.json")"
check "and it recommends a setting of every knob ($rec)" test "$(wc -w <<<"$rec")" = 8
gaps=$(sed -n 's/^- vmtune-bo: //p' "$T/out" | head -1)
check "vmtune bo ends within 20% of the optimum on both seeds ($gaps%)" \
	awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); if (n != 2) exit 1; for (i = 1; i <= n; i++) if (a[i] + 0 > 20) exit 1 }'
check "no recommendation of vmtune in the failing region" eval 'row vmtune-bo | awk -F"|" "{ exit \$6 + 0 != 0 }"'
check "the CMA-ES and QMC samplers ran too" eval 'row optuna-cmaes | grep -q " of 2 |" && row optuna-qmc | grep -q " of 2 |"'
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
	# the finalists: the settings of the confirmation before the walk back (whose own
	# confirmation, of the smallest change, comes after its steps)
	walk=$(sqlite3 "$r.db" "select coalesce(min(seq), 1000000000) from trials where kind = 'ablate'")
	nfin=$(sqlite3 "$r.db" "select count(distinct settings) from trials where kind = 'confirm' and seq < $walk")
	unraced=$(sqlite3 "$r.db" "select count(distinct settings) from trials where kind = 'confirm' and seq < $walk
		and settings not in (select settings from trials where kind = 'repeat' and seq > $race_start)")
	check "seed $seed at 15% noise: a race, and $nfin finalists, each of them raced ($unraced not)" \
		test -n "$race_start" -a "${nfin:-0}" -ge 1 -a "$unraced" = 0
done
# The standard test functions (tests/search/testfn.c): each surface checks itself on
# its knob grid (the optimum costs 10, no step from it or other enum level and none of
# 20000 random settings costs less, the knobs that do nothing change nothing), then its
# known values, then one short search each.
TESTFN=${TESTFN:-$(dirname "$VMTUNE")/tests/testfn}
"$TOP/tests/mkroot.sh" "$T/tree"
check "testfn lists the seven surfaces" test "$("$TESTFN" list | tr '\n' ' ')" = \
	"branin hartmann6 levy rosenbrock ackley ackley_off styblinski "
while read -r s orig; do
	"$TESTFN" "$s-check" 20000 >"$T/out" 2>"$T/err"
	RC=$?
	check "testfn $s-check: $(tail -1 "$T/out")" eval 'test "$RC" = 0 && grep -q ": ok$" "$T/out"'
	# shellcheck disable=SC2046
	check "testfn $s: 10 at the optimum" test "$("$TESTFN" "$s-true" $("$TESTFN" "$s-optimum"))" = 10.000000
	check "testfn $s: $orig at the original settings" test "$("$TESTFN" "$s-true")" = "$orig"
	knobs=$("$TESTFN" "$s-knobs")
	check "testfn $s: its knobs ($knobs) are knobs of the catalogue with search ranges" eval \
		'"$VMTUNE" --root "$T/tree" knobs --json | jq -e --arg k "$knobs" \
			"[.[] | select(.search_range != null) | .name] as \$c | \$k | split(\",\") |
			all(. as \$n | \$c | index(\$n) != null)" >/dev/null'
done <<'SURFACES'
branin 24.018801
hartmann6 19.889417
levy 32.737188
rosenbrock 27.999496
ackley 21.186164
ackley_off 20.802035
styblinski 27.890923
SURFACES
check "testfn branin: the third of its minima, (9.42, 2.475), is in the failing region" \
	test "$("$TESTFN" branin-true vm.swappiness=199 vm.watermark_scale_factor=15 thp.enabled=always)" = failed
c=$("$TESTFN" branin-true vm.swappiness=34 vm.watermark_scale_factor=244 thp.enabled=always)
check "testfn branin: the second, (-pi, 12.275), off the knob grid, costs a little more than 10 ($c)" \
	awk -v c="$c" 'BEGIN { exit !(c > 10 && c < 10.1) }'
check "testfn hartmann6: it fails next to the optimum (page-cluster 2, swappiness 20)" \
	test "$("$TESTFN" hartmann6-true vm.page-cluster=2 vm.swappiness=20)" = failed
check "testfn levy: thp.enabled=always costs 10% more at the optimum" \
	test "$("$TESTFN" levy-true vm.swappiness=114 vm.vfs_cache_pressure=298 vm.watermark_boost_factor=8250 \
		vm.watermark_scale_factor=86 thp.enabled=always)" = 11.000000
check "testfn rosenbrock: a do-nothing knob changes nothing" test \
	"$("$TESTFN" rosenbrock-true vm.swappiness=90 vm.dirty_ratio=5)" = "$("$TESTFN" rosenbrock-true vm.swappiness=90)"
"$TESTFN" ackley-true vm.page-cluster=4 >/dev/null 2>"$T/err"
RC=$?
check "testfn ackley-true: a knob it does not have is an error (exit $RC) that names it" \
	eval 'test "$RC" = 2 && grep -qx "testfn ackley-true: vm.page-cluster=4: not KNOB=VALUE of the ackley surface" "$T/err"'
# the noise: seeded, one draw per measurement, multiplicative around the true cost
mkdir -p "$T/n1" "$T/n2"
echo 7 >"$T/n1/seed"
echo 7 >"$T/n2/seed"
a=$(VMTUNE_ROOT=$T/n1 "$TESTFN" styblinski-at 0.05 vm.page-cluster=2)
b=$(VMTUNE_ROOT=$T/n2 "$TESTFN" styblinski-at 0.05 vm.page-cluster=2)
c=$(VMTUNE_ROOT=$T/n1 "$TESTFN" styblinski-at 0.05 vm.page-cluster=2)
check "testfn styblinski-at: the same seed and draw measure the same, the next draw not" \
	eval 'test "$a" = "$b" -a "$a" != "$c" && grep -qx "true=$("$TESTFN" styblinski-true vm.page-cluster=2)" <<<"$a"'
"$TOP/tests/mkroot.sh" "$T/m"
check "testfn hartmann6 NOISE reads the tree's knob files: the original settings there" \
	eval 'VMTUNE_ROOT=$T/m "$TESTFN" hartmann6 0.05 | grep -qx "true=19.889417"'
# one short search each: vmtune bo on seed 1 (a development seed) at 5% noise, within
# LIMIT% of the optimum: a little above the worst of seeds 1001-1020 at 5% in
# bench/RESULTS.md, below the original settings' gap (99% to 227%); TPE beside it on
# branin, so that the bench's Optuna side runs on these surfaces too (bench/peers.sh runs
# every tool on every surface)
while read -r s lim tools; do
	SURFACE=$s SEEDS=1 NOISES=0.05 JOBS=2 TOOLS="$tools" VMTUNE=$VMTUNE "$TOP/bench/peers.sh" >"$T/$s" 2>"$T/err"
	RC=$?
	check "SURFACE=$s bench/peers.sh SEEDS=1 TOOLS='$tools' runs (exit $RC)" test "$RC" = 0
	sed 's/^/# /' "$T/$s"
	g=$(sed -n 's/^- vmtune-bo: //p' "$T/$s" | head -1)
	check "$s: vmtune bo ends within $lim% of the optimum on seed 1 (${g% }%)" \
		awk -v g="$g" -v l="$lim" 'BEGIN { exit !(g ~ /^[0-9.]+ *$/ && g + 0 <= l + 0) }'
	if [[ " $tools " == *" optuna-tpe "* ]]; then
		g=$(sed -n 's/^- optuna-tpe: //p' "$T/$s" | head -1)
		check "$s: TPE's recommendation does not fail (${g% }%)" awk -v g="$g" 'BEGIN { exit !(g ~ /^[0-9.]+ *$/) }'
	fi
done <<'LIMITS'
branin 20 vmtune-bo optuna-tpe
hartmann6 80 vmtune-bo
levy 15 vmtune-bo
rosenbrock 10 vmtune-bo
ackley 105 vmtune-bo
styblinski 60 vmtune-bo
LIMITS
check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
