#!/usr/bin/env bash
# ablation.sh - what the walk back to the smallest change does, on a simulated
# workload whose answer is known (`sim sparse` of tests/search/sim.c: ten knobs, of
# which only vm.page-cluster and vm.swappiness matter; NOISE log-normal noise per
# measurement). For SEEDS seeds (default 40, from FIRST) one search of the ten knobs
# at the default budget each; per search: whether it claimed a gain, the knobs the
# confirmed setting changed and the knobs the profile keeps, the true gain of the
# recommendation (the surface without noise) against the confirmed setting's, and the
# runs the walk cost. Prints a row per seed and a summary in markdown for
# bench/RESULTS.md: how often both true knobs are kept, how often any knob that does
# nothing is kept, the share of the confirmed setting's true gain the recommendation
# keeps, the runs. ABLATE=N passes --ablate-rounds N. No root needed.
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SEEDS=${SEEDS:-40}
FIRST=${FIRST:-1}
NOISE=${NOISE:-0.05}
ABLATE=${ABLATE:-20}
VMTUNE=${VMTUNE:-$TOP/build/vmtune} # a copy keeps a rebuild during the bench out of its results
make -s all build/tests/sim
T=$(mktemp -d /tmp/vmtune-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.dirty_ratio,vm.dirty_background_ratio
KNOBS=$KNOBS,vm.dirty_expire_centisecs,vm.dirty_writeback_centisecs,vm.watermark_scale_factor
KNOBS=$KNOBS,vm.watermark_boost_factor,vm.compaction_proactiveness

# the surface's true cost at page-cluster PC and swappiness SW
truth() { awk -v pc="$1" -v sw="$2" 'BEGIN { printf "%.6f", 10 * exp(-0.2 * pc / 6) * exp(-0.12 * (sw - 10) / 190) }'; }

one() { # SEED -> a tab-separated row
	local r=$T/r$1 res conf kept pc sw cpc csw
	"$TOP/tests/mkroot.sh" "$r"
	echo "$1" >"$r/seed"
	if ! "$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$TOP/build/tests/sim sparse $NOISE" \
		--metric value --minimize --knobs "$KNOBS" --seed "$1" --ablate-rounds "$ABLATE" -o "$r/p.yaml" \
		>"$r/out" 2>&1; then
		printf '%s\tcrashed\n' "$1"
		return
	fi
	res=$(sqlite3 "$r.db" "select result from runs order by id desc limit 1")
	if [ "$(jq -r .significant <<<"$res")" != true ]; then
		printf '%s\tno claim\n' "$1"
		return
	fi
	# the confirmed setting's changes, and what the profile keeps of them
	conf=$(jq -r '[(.ablation.knobs // {}) | keys[]] | join(",")' <<<"$res")
	pc=$(jq -r '.recommended["vm.page-cluster"]' <<<"$res")
	sw=$(jq -r '.recommended["vm.swappiness"]' <<<"$res")
	cpc=$(jq -r '.ablation.knobs["vm.page-cluster"].confirmed // .recommended["vm.page-cluster"]' <<<"$res")
	csw=$(jq -r '.ablation.knobs["vm.swappiness"].confirmed // .recommended["vm.swappiness"]' <<<"$res")
	kept=$("$VMTUNE" --root "$r" --db "$r.db" report --json |
		jq -r '[.knobs[] | select(.original != .recommended) | .knob] | join(",")')
	printf '%s\tclaim\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "${conf:-none}" "${kept:-none}" "$(truth 3 60)" \
		"$(truth "$cpc" "$csw")" "$(truth "$pc" "$sw")" \
		"$(sqlite3 "$r.db" "select count(*) from trials where kind = 'ablate'")"
	rm -rf "$r" "$r.db"
}

echo "| seed | outcome | confirmed setting changed | profile keeps | gain kept | walk runs |"
echo "|---|---|---|---|---|---|"
claims=0 both=0 false_kept=0 crashed=0 kept_sum=0 runs_sum=0 n=0
for s in $(seq "$FIRST" $((FIRST + SEEDS - 1))); do
	row=$(one "$s")
	IFS=$'\t' read -r seed outcome conf kept t0 tc tr runs <<<"$row"
	if [ "$outcome" != claim ]; then
		echo "| $seed | $outcome | | | | |"
		[ "$outcome" = crashed ] && crashed=$((crashed + 1))
		continue
	fi
	claims=$((claims + 1))
	share=$(awk -v a="$t0" -v c="$tc" -v r="$tr" 'BEGIN { printf "%.0f", 100 * log(a / r) / log(a / c) }')
	echo "| $seed | claim | $conf | $kept | $share% | $runs |"
	case ",$kept," in *,vm.page-cluster,*) case ",$kept," in *,vm.swappiness,*) both=$((both + 1)) ;; esac ;; esac
	extra=$(tr , '\n' <<<"$kept" | grep -cvE '^(vm\.page-cluster|vm\.swappiness|none)$' || true)
	[ "$extra" -gt 0 ] && false_kept=$((false_kept + 1))
	kept_sum=$((kept_sum + share))
	runs_sum=$((runs_sum + runs))
	n=$((n + 1))
done
echo
echo "seeds $FIRST..$((FIRST + SEEDS - 1)), noise $NOISE, --ablate-rounds $ABLATE: $claims claims, $crashed crashed;" \
	"both true knobs kept in $both; a knob that does nothing kept in $false_kept;" \
	"true gain kept $([ "$n" -gt 0 ] && echo $((kept_sum / n)) || echo -)% on average; walk runs $([ "$n" -gt 0 ] && echo $((runs_sum / n)) || echo -) on average"
[ "$crashed" = 0 ]
