#!/usr/bin/env bash
# test-recommend.sh - recommend and search --warm-start on simulated machines: fake
# --root trees with their own fingerprints (--machine) and a known objective whose
# optimum follows the machine (tests/search/fleet.sh: page-cluster and swappiness
# follow the swap device, vfs_cache_pressure the memory; minimum 10). Searches on three
# machines fill a store; recommend must trust a machine's own trials, transfer to a
# machine it has not seen, fall back to a shipped profile with no data, explain
# itself, and the warm start must find the optimum sooner. The live system must not change.
. "$(dirname "$0")/../lib.sh"

LIVE_BEFORE=$(live_snapshot)
F="exec:$TOP/tests/search/fleet.sh"
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure
machine() { # NAME GB KIND
	"$TOP/tests/mkroot.sh" "$T/$1" >/dev/null
	"$TOP/tests/search/mkmachine.sh" "$1" "$2" "$3" >"$T/$1/machine.json"
}
on() { # NAME vmtune-args...: as that machine
	local m=$1
	shift
	vt --machine "$T/$m/machine.json" --root "$T/$m" "$@"
}
# the true objective of a profile's settings on machine NAME (knobs it leaves out: the tree's)
f_of() {
	local e=$T/eval k v
	rm -rf "$e"
	mkdir -p "$e/proc/sys/vm"
	cp "$T/$2/machine.json" "$e/"
	for k in page-cluster swappiness vfs_cache_pressure; do
		v=$(sed -n "s/^  vm\.$k: //p" "$1")
		echo "${v:-$(cat "$T/$2/proc/sys/vm/$k")}" >"$e/proc/sys/vm/$k"
	done
	VMTUNE_ROOT=$e "$TOP/tests/search/fleet.sh" 0 | sed -n 's/^true=//p'
}
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

machine rot8 8 rotational
machine ssd16 16 ssd
machine zram4 4 zram
machine rot16 16 rotational

# --- no data: the shipped profile whose match fits ----------------------------------
touch "$T/empty.db"
expect 0 "recommend with an empty store" --db "$T/empty.db" --machine "$T/rot16/machine.json" --root "$T/rot16" \
	recommend --workload "$F" -o "$T/ship.yaml"
check "says there is no stored search" out_has '^no stored search of these workloads'
check "falls back to desktop-swap (the one profile whose match fits 16G)" out_has '^fallback: the shipped profile desktop-swap '
check "and says why" out_has '^why: match mem_max 16G; rot16 has 16G$'
check "the fallback profile is written" grep -q '^  vm.page-cluster: 2$' "$T/ship.yaml"
expect 0 "report loads it" report "$T/ship.yaml"
"$TOP/tests/search/mkmachine.sh" big 64 ssd >"$T/big.json"
expect 0 "a 64G machine" --db "$T/empty.db" --machine "$T/big.json" --root "$T/rot16" recommend --workload "$F" --json
check "gets server-conservative, as JSON" test "$(jq -r '.source + " " + (.profile | sub(".*/"; ""))' "$T/out")" = \
	"shipped-profile server-conservative.yaml"
check "with its settings" test "$(jq '.settings["vm.swappiness"]' "$T/out")" = 30
mkdir -p "$T/noprofiles"
expect 0 "no profile fits" --db "$T/empty.db" --machine "$T/big.json" --root "$T/rot16" recommend --workload "$F" \
	--profiles "$T/noprofiles"
check "then it says to keep the settings" out_has '^no shipped profile fits big either'

# --- bad input ------------------------------------------------------------------------
expect 2 "a store that does not exist" --db "$T/nope.db" recommend --workload "$F"
check "is named" err_has "nope.db: no such results store"
expect 0 "no workload and nothing stored" --db "$T/empty.db" --machine "$T/rot16/machine.json" --root "$T/rot16" recommend
check "the shipped profile, and how to ask for a workload" out_has '^no stored search \(name a workload with --workload'
check "names the fallback" out_has '^fallback: the shipped profile desktop-swap'

echo '{"hostname": "x"}' >"$T/bad.json"
expect 2 "--machine with a file that is not a fingerprint" --machine "$T/bad.json" machine
check "names the file" err_has "bad.json: not a machine fingerprint"
expect 2 "a live search refuses --machine" --machine "$T/rot8/machine.json" search --workload mtest01 --dry-run
check "and says why" err_has 'describes another machine'

# --- the fleet: one search on each of three machines ----------------------------------------
seed=0
for m in rot8 ssd16 zram4; do
	seed=$((seed + 1))
	on $m search --workload "$F" --metric value --knobs $KNOBS --trials 20 --seed $seed --db "$T/pool.db" \
		-o "$T/$m.yaml" --confirm-rounds 2 --finalists 1 -q
	check "search on $m (exit $RC)" test "$RC" = 0
done
check "the store holds each machine's fingerprint" \
	test "$(sqlite3 "$T/pool.db" 'select group_concat(json_extract(machine, "$.hostname")) from runs')" = rot8,ssd16,zram4
check "and the scores of the trials" \
	test "$(sqlite3 "$T/pool.db" "select count(*) from trials where kind='candidate' and score is null")" = 0

# --- this machine: its own trials ------------------------------------------------------------
on rot8 recommend --workload "$F" --db "$T/pool.db" -o "$T/rec8.yaml"
check "recommend for a machine in the store (exit $RC)" test "$RC" = 0
check "names the data" out_has '^data: [0-9]+ trials \([0-9]+ distinct settings\) of exec:.*, 3 runs on 3 machines:'
check "marks this machine" out_has '^  rot8 +this machine +[0-9]+ trials in 1 run'
check "gives the others' similarity" out_has '^  ssd16 +similarity 0\.[0-9]+ +[0-9]+ trials'
check "the basis is this machine's own trials" out_has '^basis: [0-9]+ trials from this machine and [0-9]+ from 2 other machines$'
check "a prediction with its interval" out_has '^predicted change of the cost: -[0-9.]+% \(95% interval -[0-9.]+% \.\. -[0-9.]+%\)'
f=$(f_of "$T/rec8.yaml" rot8)
echo "# rot8: recommended f = $f (optimum 10)"
check "within 2% of rot8's optimum (f = $f)" below "$f" 10.2
expect 0 "report loads the recommendation" report "$T/rec8.yaml"
check "the profile says it is a prediction" grep -q 'not measured here' "$T/rec8.yaml"

# --- a machine the store has not seen -------------------------------------------------------
on rot16 recommend --workload "$F" --db "$T/pool.db" --explain -o "$T/rec16.yaml"
check "recommend for an unseen machine (exit $RC)" test "$RC" = 0
check "transfers, naming the most similar machine" out_has '^basis: transferred from 3 other machines, the most similar rot8 \(0\.[0-9]+|1\.00\)'
pc=$(awk '/^  vm\.page-cluster / { print $2 }' "$T/out")
check "page-cluster follows the rotational swap device (5, got $pc)" test "$pc" = 5
f16=$(f_of "$T/rec16.yaml" rot16)
fship=$(f_of "$T/ship.yaml" rot16)
echo "# rot16: recommended f = $f16, shipped profile f = $fship (optimum 10)"
check "closer to the optimum than the shipped profile ($f16 < $fship)" below "$f16" "$fship"
check "--explain: each knob's predicted effect" test "$(grep -c 'predicted change by value' "$T/out")" = 3
check "--explain: the trials that drove it" out_has '^    rot8 +run [0-9a-f]{8}  vm\.page-cluster=[0-9]+ .* measured [-+][0-9.]+% \([0-9]+ measurements?\)'
check "--explain: the features' relevance" out_has '^  machine: memory [0-9.e+]+, swap device [0-9.e+]+, cpus'
cp "$T/out" "$T/out.rot16"

# an enum knob: --explain shows every choice
on rot8 search --workload "$F" --metric value --knobs vm.page-cluster,thp.enabled --trials 8 --db "$T/enum.db" \
	-o "$T/enum.yaml" --confirm-rounds 2 --finalists 1 -q
on rot8 recommend --workload "$F" --db "$T/enum.db" --explain
check "--explain: every choice of an enum knob" \
	test "$(grep -A1 '^thp\.enabled = ' "$T/out" | grep -oE '(always|madvise|never):' | sort | tr -d '\n')" = "always:madvise:never:"

on rot16 recommend --workload "$F" --db "$T/pool.db" --json
check "--json" test "$(jq -r '.source' "$T/out")" = model
check "--json: similarities in [0, 1], none of them this machine" \
	test "$(jq '[.machines[] | select(.similarity >= 0 and .similarity <= 1 and (.this_machine | not))] | length' "$T/out")" = 3
check "--json: settings and interval" test "$(jq '.settings["vm.page-cluster"] == 5 and .predicted_ci95_pct_lo <= .predicted_change_pct' "$T/out")" = true

# --html: the machines pooled and each knob's model, rendered by Chromium
on rot16 recommend --workload "$F" --db "$T/pool.db" --json --html "$T/rec16.html"
check "--html with --json (exit $RC): the JSON on stdout" test "$RC $(jq -r .source "$T/out")" = "0 model"
check "Chromium renders the page" render "$T/rec16.html"
python3 "$TOP/tests/report-check.py" recommend "$T/dom.html" "$T/out" >"$T/check" 2>&1
RC=$?
sed 's/^/# /' "$T/check"
check "a bar per pooled machine, a chart per knob with every pooled point (as the JSON says)" test "$RC" = 0
check "three knob charts of the other machines' points, and the three machines" \
	test "$(grep -cE '^chart-knob-[123]: other machines: [1-9][0-9]* drawn' "$T/check") $(grep -c '^chart-machines: machines: 3 drawn' "$T/check")" = "3 1"
check "the page asks nothing of the network" report_offline
check "the page gives the prediction and the basis" \
	grep -qE '<th>basis</th><td>transferred from 3 other machines.*<th>predicted change</th><td>-[0-9.]+% of the cost \(95% interval ' \
	<(tr -d '\n' <"$T/rec16.html")
on rot16 recommend --workload "$F" --db "$T/empty.db" --html "$T/none.html"
check "with nothing stored: the shipped profile (exit $RC), a warning and no page" \
	sh -c "test $RC = 0 && grep -q 'no page written: .*no model to draw' '$T/err' && test ! -e '$T/none.html' -a ! -e '$T/none.html.tmp'"

machine bare6 6 none
on bare6 recommend --workload "$F" --db "$T/pool.db" -o "$T/rec-bare6.yaml"
cp "$T/out" "$T/out.bare6"
cp "$T/err" "$T/err.bare6"
on bare6 recommend --workload "$F" --db "$T/pool.db" --html "$T/bare6.html"
check "--html of a guess the model is unsure of: the page says it is not the recommendation (exit $RC)" \
	grep -q '<th>status</th><td>not recommended: no stored machine has swap of this kind' "$T/bare6.html"
cp "$T/out.bare6" "$T/out"
cp "$T/err.bare6" "$T/err"
check "a machine whose kind of swap no pooled machine has: the model's guess is shown (exit $RC)" \
	out_has "^the model's guess \(not the recommendation, see below\):$"
check "with an interval that does not rule out a loss" \
	out_has '^predicted change of the cost: [-+][0-9.]+% \(95% interval -[0-9.]+% \.\. \+[0-9.]+%\)'
check "it says why the guess is not the recommendation" \
	out_has '^not recommended: no stored machine has swap of this kind \(none\), and the model is not sure'
check "and falls back to the shipped profile" out_has '^fallback: the shipped profile desktop-swap '
check "--out writes the shipped profile" grep -q 'the shipped profile desktop-swap, chosen by its match' "$T/rec-bare6.yaml"
on bare6 recommend --workload "$F" --db "$T/pool.db" --json
check "--json: the shipped profile, the model's guess beside it" \
	test "$(jq '.source == "shipped-profile" and .model_guess.swap_kind_seen == false and
		.model_guess.predicted_ci95_pct_hi >= 0 and (.model_guess.settings | has("vm.page-cluster"))' "$T/out")" = true
check "a known kind is not" sh -c "! grep -q 'no stored machine has swap' '$T/out.rot16'"

on rot16 recommend --workload "$F" --db "$T/pool.db" --knobs vm.page-cluster
check "--knobs limits the recommendation (exit $RC)" test "$(grep -c '(original' "$T/out")" = 1
check "to the knob asked for" out_has '^  vm\.page-cluster +5 '
expect 2 "--knobs naming only a knob no stored search varied" --machine "$T/rot16/machine.json" --root "$T/rot16" \
	recommend --workload "$F" --db "$T/pool.db" --knobs vm.dirty_ratio
check "says which knobs were varied" err_has 'none of them was varied by the stored searches \(they varied vm\.page-cluster,vm\.swappiness,vm\.vfs_cache_pressure\)'
on rot16 recommend --workload "$F" --db "$T/pool.db" --objective interactive
check "another objective has no data: the fallback" out_has '^no stored search'

# --- a mix: the same set of workloads, as a mix file names them ------------------------------------
cat >"$T/pair.yaml" <<YAML
vmtune-mix: 1
name: fleet-pair
objective: throughput
workloads:
  - run: $F 0.01
  - run: $F 0.02
    weight: 2
YAML
on rot8 search --mix "$T/pair.yaml" --metric value --knobs $KNOBS --trials 15 --db "$T/mix.db" -o "$T/mixp.yaml" \
	--confirm-rounds 2 --finalists 1 -q
check "a mix search on rot8 (exit $RC)" test "$RC" = 0
on rot16 recommend --mix "$T/pair.yaml" --db "$T/mix.db" --knobs vm.page-cluster
check "recommend --mix pools the mix's runs (exit $RC)" out_has "^data: [0-9]+ trials .* of $F 0\.01 and the rest of the mix, 1 run on 1 machine"
check "and recommends from them" test "$(awk '/^  vm\.page-cluster / { print $2 }' "$T/out")" = 5
on rot16 recommend --workload "$F 0.01" --db "$T/mix.db"
check "one workload of the mix alone is not the mix" out_has '^no stored search of these workloads'

on rot16 recommend --db "$T/mix.db"
check "no --workload: the one set the store holds (exit $RC)" out_has '^workload: exec:.*fleet\.sh 0\.01 and the rest of its mix \(the only one with stored searches\)'
expect 2 "no --workload with two sets stored" --machine "$T/rot16/machine.json" --root "$T/rot16" --db "$T/pool.db" \
	--db "$T/mix.db" recommend
check "lists them to choose from" \
	err_has "^  --workload \"exec:[^\"]*fleet\.sh 0\.01\" --workload \"exec:[^\"]*fleet\.sh 0\.02\"  \(objective throughput, 1 run\)"

# --- a built-in workload: its options in any order are the same workload ---------------------
on rot8 search --workload "pft -b 4M -t 1 -r 2" --knobs vm.page-cluster --trials 4 --db "$T/pft.db" -q
check "a search of a built-in workload on rot8 (exit $RC)" test "$RC" = 0
on rot8 recommend --workload "pft -r2 -t 1 -b 4M" --db "$T/pft.db"
check "recommend with the options reordered finds it (exit $RC)" out_has '^data: [0-9]+ trials .* of pft -r2 -t 1 -b 4M, 1 run on 1 machine'
on rot8 recommend --workload "pft -r 2 -t 1 -b 8M" --db "$T/pft.db"
check "another value is another workload" out_has '^no stored search of these workloads'

# --- a box is known by its machine id: not by its hostname ----------------------------------
jq -c '.machine_id = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"' "$T/rot8/machine.json" >"$T/rot8a.json"
jq -c '.machine_id = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"' "$T/rot8/machine.json" >"$T/rot8b.json"
jq -c '.hostname = "rot8-renamed"' "$T/rot8a.json" >"$T/rot8a-renamed.json"
vt --machine "$T/rot8a.json" --root "$T/rot8" search --workload "$F" --metric value --knobs $KNOBS --trials 6 \
	--db "$T/ids.db" -q
check "a search on a box with a machine id (exit $RC)" test "$RC" = 0
vt --machine "$T/rot8a.json" --root "$T/rot8" recommend --workload "$F" --db "$T/ids.db"
check "recommend on that box: its own trials" out_has '^basis: [0-9]+ trials from this machine and 0 from 0 other machines$'
vt --machine "$T/rot8a-renamed.json" --root "$T/rot8" recommend --workload "$F" --db "$T/ids.db"
check "renamed, it is still that box" out_has '^basis: [0-9]+ trials from this machine and 0 from 0 other machines$'
vt --machine "$T/rot8b.json" --root "$T/rot8" recommend --workload "$F" --db "$T/ids.db"
check "a clone with the same hostname and another id is another box" \
	out_has '^basis: transferred from 1 other machine, the most similar rot8 \(1\.00\)$'

# --- pooling across stores ------------------------------------------------------------------
"$VMTUNE" db merge "$T/copy.db" "$T/pool.db" >/dev/null 2>&1
on rot16 recommend --workload "$F" --db "$T/pool.db" --db "$T/copy.db" --json
check "the same runs in two stores count once" test "$(jq '.trials' "$T/out")" = \
	"$(sqlite3 "$T/pool.db" "select count(*) from trials where score is not null")"

# --- warm start -----------------------------------------------------------------------------
cp "$T/pool.db" "$T/warm.db"
on rot16 search --workload "$F" --metric value --knobs $KNOBS --trials 8 --db "$T/warm.db" --warm-start --dry-run
check "a dry run with --warm-start says what it would start from (exit $RC)" \
	out_has '^--warm-start: [0-9]+ pooled trials from 3 runs on 3 machines; first candidate vm\.page-cluster=5'
check "and adds no run" test "$(sqlite3 "$T/warm.db" 'select count(*) from runs')" = 3
before=$(sqlite3 "$T/warm.db" 'select count(*) from trials')
SUM=$(tree_sum "$T/rot16")
on rot16 search --workload "$F" --metric value --knobs $KNOBS --trials 8 --seed 1 --db "$T/warm.db" \
	-o "$T/warm.yaml" --confirm-rounds 2 --finalists 1 --warm-start
check "search --warm-start (exit $RC)" test "$RC" = 0
check "says what it pooled and tries the recommendation first" \
	err_has "^vmtune: --warm-start: [0-9]+ pooled trials from 3 runs on 3 machines; first candidate vm\.page-cluster=5"
first=$(sqlite3 "$T/warm.db" "select settings from trials where run_id=4 and kind='candidate' order by seq limit 1")
check "the first candidate is recommend's ($first)" test "$(jq '."vm.page-cluster"' <<<"$first")" = 5
fw=$(f_of "$T/warm.yaml" rot16)
echo "# warm start, 8 trials: f = $fw"
check "8 warm trials reach 2% of the optimum (f = $fw)" below "$fw" 10.2
check "the pooled runs are untouched" test "$(sqlite3 "$T/warm.db" 'select count(*) from trials where run_id < 4')" = "$before"
check "the tree is as it was" test "$(tree_sum "$T/rot16")" = "$SUM"
on rot16 search --workload "$F" --metric value --knobs $KNOBS --trials 4 --db "$T/empty.db" -o "$T/cold.yaml" \
	--confirm-rounds 2 --finalists 1 --warm-start
check "--warm-start with nothing stored starts cold (exit $RC)" err_has 'warm-start: 0 stored trials of these workloads; starting cold'
expect 2 "--warm-start with --strategy grid" --root "$T/rot16" search --workload "$F" --metric value --knobs $KNOBS \
	--strategy grid --db "$T/empty.db" --warm-start --dry-run
check "says it has no surrogate to seed" err_has 'warm-start seeds the surrogate of --strategy bo; grid has none'

check "the live system did not change" test "$(live_snapshot)" = "$LIVE_BEFORE"
done_testing
