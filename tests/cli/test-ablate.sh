#!/usr/bin/env bash
# test-ablate.sh - the smallest change that keeps the gain, the guards and
# verify --measure, on simulated workloads whose answers are known (tests/search/sim.c):
# `sim sparse` has ten knobs of which only vm.page-cluster and vm.swappiness matter
# (both best at the top of their range), 5% log-normal noise, seeded so each search
# is repeatable. bench/ablation.sh is the long version (40 seeds, RESULTS.md).
# - the walk back: over SEEDS searches (default 6) of the ten knobs, the profile
#   changes exactly the two that matter in at least SEEDS - 2, changes a knob that
#   does nothing in at most 1, keeps at least 80% of the confirmed setting's true gain
#   (the surface without noise) in at least SEEDS - 2, and every changed knob carries
#   its measured share;
# - a guard the best setting breaks: with `sim sparse 0.05 20` each run touches
#   20 MB x page-cluster/6, so any page-cluster above the original's 3 is a larger
#   footprint; the default footprint<=+10% keeps it out of the recommendation, and
#   --guard none lets it in;
# - verify --measure: "holds" for a real gain, "smaller" for a claim larger than the
#   truth, "gone" for a profile whose gain was never there, each stored and shown
#   by report;
# - Ctrl-C during the walk back restores the tree.
# The live system must not change.
. "$(dirname "$0")/../lib.sh"

N=${SEEDS:-6}
LIVE_BEFORE=$(live_snapshot)
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.dirty_ratio,vm.dirty_background_ratio
KNOBS=$KNOBS,vm.dirty_expire_centisecs,vm.dirty_writeback_centisecs,vm.watermark_scale_factor
KNOBS=$KNOBS,vm.watermark_boost_factor,vm.compaction_proactiveness
mk() { "$TOP/tests/mkroot.sh" "$1" && echo "$2" >"$1/seed"; }
# gain_kept DB: the last run's recommendation's true log gain (the surface without noise)
# as a percentage of its confirmed setting's
gain_kept() {
	sqlite3 "$1" "select result from runs order by id desc limit 1" | jq -r '
		def truth(pc; sw): 10 * ((-0.2 * pc / 6) | exp) * ((-0.12 * (sw - 10) / 190) | exp);
		(.ablation.knobs // {}) as $k
		| (.recommended["vm.page-cluster"]) as $pc | (.recommended["vm.swappiness"]) as $sw
		| ($k["vm.page-cluster"].confirmed // $pc | tonumber) as $cpc
		| ($k["vm.swappiness"].confirmed // $sw | tonumber) as $csw
		| (truth(3; 60) / truth($pc; $sw) | log) / (truth(3; 60) / truth($cpc; $csw) | log) * 100 | round'
}

# --- the walk back --------------------------------------------------------------------
exact=0 extra=0 unshared=0 claims=0 keeps=0 overrun=0
for s in $(seq "$N"); do
	r=$T/s$s
	mk "$r" "$s"
	"$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM sparse 0.05" --metric value --minimize \
		--knobs "$KNOBS" --seed "$s" -o "$r/p.yaml" >"$r.out" 2>&1
	changed=$("$VMTUNE" --root "$r" --db "$r.db" report --json |
		jq -r '[.knobs[] | select(.original != .recommended) | .knob] | sort | join(",")')
	[ "$(sqlite3 "$r.db" "select result from runs order by id desc limit 1" | jq -r .significant)" = true ] &&
		claims=$((claims + 1))
	[ "$changed" = vm.page-cluster,vm.swappiness ] && exact=$((exact + 1))
	tr , '\n' <<<"$changed" | grep -qvE '^(vm\.page-cluster|vm\.swappiness|)$' && extra=$((extra + 1))
	# every knob the profile sets has its share in the evidence
	set_n=$(python3 -c 'import sys, yaml; p = yaml.safe_load(open(sys.argv[1])); print(len(p["settings"] or {}))' "$r/p.yaml")
	share_n=$(python3 -c 'import sys, yaml; p = yaml.safe_load(open(sys.argv[1]))
k = (p.get("evidence") or {}).get("knobs") or {}
print(sum(1 for v in k.values() if v.get("measured") in ("step", "whole") and "share_pct" in v))' "$r/p.yaml")
	[ "$set_n" = "$share_n" ] || unshared=$((unshared + 1))
	# the gain kept: the recommendation's true log gain over the confirmed setting's
	kept=$(gain_kept "$r.db")
	# the steps the walk took, against the number its alpha was shared among
	sqlite3 "$r.db" "select result from runs order by id desc limit 1" |
		jq -e '(.ablation.steps | length) <= .ablation.steps_max' >/dev/null || overrun=$((overrun + 1))
	[ "${kept:-0}" -ge 80 ] && keeps=$((keeps + 1))
	echo "# seed $s: changed ${changed:-nothing}; $set_n setting(s), $share_n with a share; ${kept}% of the confirmed setting's true gain kept"
done
echo "$overrun" >"$T/overrun"
check "the recommendation keeps at least 80% of the confirmed setting's true gain in at least $((N - 2)) of $N ($keeps)" \
	test "$keeps" -ge $((N - 2))
check "every search claims the gain ($claims of $N)" test "$claims" = "$N"
check "the profile changes exactly the two knobs that matter in at least $((N - 2)) of $N ($exact)" \
	test "$exact" -ge $((N - 2))
check "a knob that does nothing stays in at most 1 of $N ($extra)" test "$extra" -le 1
check "every knob a profile sets has its measured share ($unshared without)" test "$unshared" = 0
r=$T/s1
vt --root "$r" --db "$r.db" report 1
check "report: the changed knobs with what putting each back costs" \
	out_has '^vm\.(page-cluster|swappiness) +[0-9]+ +[0-9]+ +\+[0-9.]+% \(\+?-?[0-9.]+ \.\. \+[0-9.]+%\)'
check "report: the knobs put back by the walk, with what putting them back cost" \
	out_has '^  vm\.[a-z_]+ +[0-9]+ -> [0-9]+: put back: '
check "report: a knob put back for costing under --min-effect, with the 80% interval that decided it" \
	out_has '^  vm\.[a-z_]+ +[0-9]+ -> [0-9]+: put back: costs less than the smallest change, [+-][0-9.]+% \(80% interval [+-]?[0-9.]+ \.\. [+-][0-9.]+%\)$'
check "report: the guards against the original" out_has '^  footprint .* limit footprint<=\+10%: kept$'
sqlite3 "$r.db" "select result from runs where id = 1" >"$T/res"
check "the result row keeps each step's knobs, outcome and interval" \
	jq -e '.ablation.steps | length > 0 and all(.[]; (.knobs | length) > 0 and (.outcome | type) == "string")' "$T/res"
check "and the step alpha: 5% over at most one step per group and the bulk step" \
	jq -e '(.ablation.step_alpha * .ablation.steps_max - 0.05 | fabs) < 1e-9' "$T/res"
check "no walk took more steps than its alpha was shared among ($(cat "$T/overrun") of $N)" test "$(cat "$T/overrun")" = 0

# --- the walk back inside a --time budget --------------------------------------------------
# each run a quarter of a second: 75 s hold about 250 runs. The trials must stop in time
# for the race, the confirmation and a fifth of the budget for the walk; the walk must
# have that fifth (from its first run to the end of the search), the search end inside
# its budget and one last round of runs, and the recommendation keep the gain; a knob
# the walk had no time to decide stays, said to be untested for the budget, and a knob
# that does nothing is never in on a measured share
b=$T/budget
mk "$b" 1
t0=$SECONDS
vt --root "$b" --db "$b.db" search --workload "exec:sleep 0.25; $SIM sparse 0.05" --metric value --minimize \
	--knobs "$KNOBS" --seed 1 --time 75s -o "$b/p.yaml"
took=$((SECONDS - t0))
check "the budgeted search exits 0 (in $took s)" test "$RC" = 0
check "its plan leaves the walk at least a fifth of the budget" \
	err_has 'and the walk back to the smallest change in the time left, at least 15s \(a fifth\)'
check "it kept to its budget ($took s, at most 80)" test "$took" -le 80
check "it walked back" err_has '^vmtune: walking back '
walk=$(sqlite3 "$b.db" "select cast(round((julianday(r.finished) - julianday(min(t.started))) * 86400) as int)
	from runs r join trials t on t.run_id = r.id where t.kind = 'ablate'")
check "the walk had its fifth of the budget: ${walk:-no} s from its first run to the end (at least 14)" \
	test "${walk:-0}" -ge 14
check "the gain is claimed" grep -q 'significant: true' "$b/p.yaml"
python3 -c 'import sys, yaml
p = yaml.safe_load(open(sys.argv[1])); s = p["settings"] or {}; k = (p.get("evidence") or {}).get("knobs") or {}
idle = [n for n in s if n not in ("vm.page-cluster", "vm.swappiness")]
print(len(s), sum(1 for n in idle if k.get(n, {}).get("measured") != "budget"),
      sum(1 for n in s if k.get(n, {}).get("measured") not in ("step", "whole", "budget")))' "$b/p.yaml" >"$T/bn"
read -r bset bidle bnone <"$T/bn"
echo "# the budgeted profile: $(sed -n '/^settings:/,/^[a-z]/p' "$b/p.yaml" | grep '^  ' | tr -s ' ' | tr '\n' ';')"
check "every knob it changes has its share or the budget's reason ($bnone of $bset without)" test "$bnone" = 0
check "no knob that does nothing is in on a measured share ($bidle)" test "$bidle" = 0
kept=$(gain_kept "$b.db")
check "it keeps at least 80% of the confirmed setting's true gain (${kept:-none}%)" test "${kept:-0}" -ge 80

# --- a guard the best setting breaks ---------------------------------------------------
g=$T/guard
mk "$g" 3
vt --root "$g" --db "$g.db" search --workload "exec:$SIM sparse 0.05 20" --metric value --minimize \
	--knobs vm.page-cluster,vm.swappiness --seed 3 -o "$g/p.yaml"
check "the guarded search exits 0" test "$RC" = 0
sqlite3 "$g.db" "select result from runs order by id desc limit 1" >"$T/gres"
check "a finalist was shown better and refused for its footprint" \
	jq -e '.guard_rejected | length > 0 and all(.[]; .guards.footprint.broken)' "$T/gres"
check "the output names the guard and by how much" out_has 'breaks a guard: footprint \+[0-9.]+% \(limit footprint<=\+10%\); not recommended'
check "nothing recommended raises page-cluster" test "$(jq -r '.recommended["vm.page-cluster"]' "$T/gres")" -le 3
decision_agrees "the guarded search" "$g/p.yaml"
vt --root "$g" --db "$g.db" search --workload "exec:$SIM sparse 0.05 20" --metric value --minimize \
	--knobs vm.page-cluster,vm.swappiness --seed 3 --guard none -o "$g/p2.yaml"
sqlite3 "$g.db" "select result from runs order by id desc limit 1" >"$T/gres2"
check "with --guard none the same search recommends a higher page-cluster" \
	test "$(jq -r '.recommended["vm.page-cluster"]' "$T/gres2")" -gt 3
expect 2 "a guard that is not one is refused" --root "$g" search --workload "exec:$SIM sparse 0.05" --guard 'rss<=5%' \
	--dry-run
check "and named" err_has "guard 'rss<=5%': unknown 'rss'"

# --- --check-workload: the recommendation on a workload it was not tuned for -----------------
# `sim effect E 0.05` costs 10, E lower where page-cluster >= 5, which the sparse
# search's recommendation always has: E -0.2 makes the check workload 25% worse (the
# recommendation must be refused, in every seed), E 0 leaves it alone (kept, said to
# be no worse or undecided; refused at most once in SEEDS: the check's own 5% is that
# of refusing a harmless one), E 0.2 makes it better too
kw=$T/check
refused=0 harmless=0 better=0
for s in $(seq "$N"); do
	for e in -0.2 0 0.2; do
		mk "$kw" "$s"
		KV=$(knob_values "$kw")
		vt --root "$kw" --db "$kw.db" search --workload "exec:$SIM sparse 0.05" --metric value --minimize \
			--knobs vm.page-cluster,vm.swappiness,vm.dirty_ratio --seed "$s" -o "$kw/p$e.yaml" \
			--check-workload "exec:$SIM effect $e 0.05" --check-metric value
		res=$(sqlite3 "$kw.db" "select result from runs order by id desc limit 1")
		v=$(jq -r '.check.verdict // "none"' <<<"$res")
		echo "# seed $s, check effect $e: $v"
		case $e in
		# refused: said so, nothing claimed, page-cluster kept at its original 3
		-0.2) [ "$v/$(jq -r '[.check.refused, .significant, .recommended["vm.page-cluster"]] | join("/")' <<<"$res")" = \
			worse/true/false/3 ] && refused=$((refused + 1)) ;;
		0) case $v in no-worse | undecided) harmless=$((harmless + 1)) ;; esac ;;
		0.2) [ "$v" = better ] && better=$((better + 1)) ;;
		esac
		if [ "$s" = 1 ]; then
			decision_agrees "--check-workload (effect $e)" "$kw/p$e.yaml"
			check "the tree is as before the check (effect $e)" test "$(knob_values "$kw")" = "$KV"
			cp "$T/out" "$T/check$e.out"
			cp "$T/err" "$T/check$e.err"
		fi
		rm -rf "$kw"
	done
done
check "a recommendation that makes the check workload 25% worse is refused in every seed ($refused of $N)" \
	test "$refused" = "$N"
check "one that leaves it alone is kept in at least $((N - 1)) of $N ($harmless)" test "$harmless" -ge $((N - 1))
check "one that makes it better too is said to in at least $((N - 1)) of $N ($better)" test "$better" -ge $((N - 1))
check "the refusal names the check workload, its change and interval" grep -qE \
	'^check on exec:.*sim effect -0.2 0.05: makes it worse: the recommendation is refused \(value \+[0-9.]+%, interval \+[0-9.]+% \.\. \+[0-9.]+% of the cost' \
	"$T/check-0.2.out"
check "the plan names the check" grep -q '^check: the recommendation on exec:.*sim effect -0.2 0.05\[value min\] against the original settings' "$T/check-0.2.err"
vt --root "$T/s1" --db "$kw.db" report 1
check "report of the refused run: its decision and its check" \
	out_has '^decision: what was shown better makes the check workload worse: keep the original settings$' &&
	out_has '^check on exec:.*effect -0.2 0.05: worse, \+[0-9.]+% of the cost .*: the recommendation was refused$'
check "report --json: the check and the refusal" \
	test "$("$VMTUNE" --root "$T/s1" --db "$kw.db" report --json 1 | jq -r '[.check.verdict, .refused] | join(" ")')" = "worse check"
check "the run keeps the check workload in its configuration (for --resume)" \
	test "$(sqlite3 "$kw.db" "select config from runs where id = 1" | jq -r '.check_workload.spec + " " + .check_workload.metric')" = \
	"exec:$SIM effect -0.2 0.05 value"
expect 2 "--check-metric without --check-workload is refused" --root "$T/s1" search --workload "exec:$SIM sparse 0.05" \
	--check-metric value --dry-run
check "and said" err_has 'check-metric and --check-maximize go with --check-workload'
expect 2 "a check workload that is not one is refused" --root "$T/s1" search --workload "exec:$SIM sparse 0.05" \
	--check-workload 'nosuch -x' --dry-run

# --- verify --measure ------------------------------------------------------------------
r=$T/s1
vt --root "$r" --db "$r.db" verify --measure "$r/p.yaml"
check "verify --measure: a real gain holds (exit 0)" test "$RC" = 0
check "and says so with today's interval" out_has 'the gain holds$' && out_has '^today: value -[0-9.]+% \(interval '
sed -E 's/change_pct: -?[0-9.]+, ci95_pct: \[[^]]*\]/change_pct: -60, ci95_pct: [-65, -55]/' "$r/p.yaml" >"$r/big.yaml"
vt --root "$r" --db "$r.db" verify --measure "$r/big.yaml"
check "a claim larger than the truth: smaller (exit 5)" test "$RC" = 5
check "and says so" out_has 'the gain is smaller than the profile claims$'
cat >"$r/never.yaml" <<EOF
vmtune: 1
name: never
settings:
  vm.dirty_ratio: 35
evidence:
  workload: exec:$SIM sparse 0.05
  trials: 10
  objective: {metric: value, direction: min, baseline: 8.05, best: 6.44, change_pct: -20, ci95_pct: [-25, -15], significant: true}
EOF
vt --root "$r" --db "$r.db" verify --measure "$r/never.yaml"
check "a gain that was never there: gone (exit 1)" test "$RC" = 1
check "and says so" out_has 'the gain is gone'
check "the tree is as before the re-checks" test "$(knob_values "$r" | jq -r '.["vm.dirty_ratio"]')" = 20
vt --root "$r" --db "$r.db" report 1
check "report shows the run's re-checks" out_has '^  [0-9T:Z-]+: the gain holds: -[0-9.]+%' &&
	out_has '^  [0-9T:Z-]+: the gain smaller: '
vt --root "$r" --db "$r.db" runs
check "runs lists them as re-checks" out_has ' re-check: holds ' && out_has ' re-check: gone '
expect 2 "verify --measure of a profile that changes nothing is refused" --root "$r" --db "$r.db" verify --measure \
	"$T/guard/p.yaml"

# signal_in_walk TREE SEED SIGNAL: a search of the ten knobs on a fresh TREE, sent SIGNAL
# half a second into its walk back; its exit status in RC, the tree's knobs before in KV
signal_in_walk() {
	local pid
	mk "$1" "$2"
	KV=$(knob_values "$1")
	"$VMTUNE" --root "$1" --db "$1.db" search --workload "exec:$SIM sparse 0.05" --metric value --minimize \
		--knobs "$KNOBS" --seed "$2" -o "$1/p.yaml" >"$T/out" 2>"$T/err" &
	pid=$!
	for _ in $(seq 600); do grep -q 'walking back' "$T/err" && break; sleep 0.1; done
	check "the walk back started (to send it SIG$3)" grep -q 'walking back' "$T/err"
	sleep 0.5
	kill -"$3" $pid
	wait $pid 2>/dev/null
	RC=$?
}

# --- Ctrl-C during the walk back ---------------------------------------------------------
c=$T/int
signal_in_walk "$c" 1 INT
check "Ctrl-C in the walk back exits 130" test "$RC" = 130
check "and every knob of the tree is as it was (sim's draw counter aside)" test "$(knob_values "$c")" = "$KV"
check "the run is stored as interrupted" test "$(sqlite3 "$c.db" "select status from runs")" = interrupted

# --- kill -9 during the walk back: restore, then --resume finishes the run ------------------
k=$T/kill
signal_in_walk "$k" 2 KILL
check "kill -9 ends it (exit $RC)" test "$RC" = 137
check "kill -9 in the walk back leaves the tree changed (what restore is for)" test "$(knob_values "$k" 2>/dev/null)" != "$KV"
vt --root "$k" --db "$k.db" restore
check "vmtune restore after it (exit 0)" test "$RC" = 0
check "and every knob of the tree is as it was" test "$(knob_values "$k")" = "$KV"
check "the run is left running in the store, to resume" test "$(sqlite3 "$k.db" "select status from runs")" = running
vt --root "$k" --db "$k.db" search --resume 1 -o "$k/p.yaml"
check "search --resume of the run killed in its walk back finishes it (exit 0)" test "$RC" = 0
check "the resumed run is done" test "$(sqlite3 "$k.db" "select status from runs")" = done
decision_agrees "the resumed search" "$k/p.yaml"
check "and the tree is as it was after it" test "$(knob_values "$k")" = "$KV"

check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
