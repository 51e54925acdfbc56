#!/usr/bin/env bash
# peers.sh - vmtune's search against the tools people would use instead, on a hard
# surface whose answer is known (`sim hard` of tests/search/sim.c: eight knobs, two of
# them irrelevant, an enum, an interaction, a log-scaled knob, a failing region; the
# optimum costs 10, the original settings 14.66). For each NOISE (default "0.05 0.15")
# and each of SEEDS seeds (default 40: twenty seeds' medians move by a point or two
# from one set of seeds to the next): vmtune search --strategy bo and --strategy
# random at --trials TRIALS (default 40) with everything else at its default, then
# Optuna's TPE and random samplers (bench/peers.py) given exactly the measurements the
# bo search used (its baselines, repeats and confirmation runs counted). Scored by the
# true cost of each tool's final recommendation (vmtune: the profile's settings, the
# original ones when nothing was significant; Optuna: the best trial): the gap to the
# optimum in percent, a recommendation in the failing region counted apart (and as
# the worst gap in the median). Prints markdown tables for bench/RESULTS.md. No root
# needed; JOBS (default 2) seeds run side by side. TOOLS picks some of vmtune-bo,
# vmtune-random, optuna-tpe, optuna-random (the Optuna ones need vmtune-bo's count);
# VMTUNE=BIN searches with another build of vmtune (an A/B of a change). SURFACE=rough
# runs it all on `sim rough` instead: the same knobs, optimum and failing region with
# no bowl (kinks, a cusp, a flat-walled well, a step; the original settings 16.66), to
# see what the search's quadratic trend does where the truth has none.
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SEEDS=${SEEDS:-40}
FIRST=${FIRST:-1}
TRIALS=${TRIALS:-40}
NOISES=${NOISES:-0.05 0.15}
JOBS=${JOBS:-2}
SURFACE=${SURFACE:-hard}
case $SURFACE in
hard | rough) ;;
*) echo "peers.sh: SURFACE is hard or rough, not '$SURFACE'" >&2; exit 2 ;;
esac
TOOLS=${TOOLS:-vmtune-bo vmtune-random optuna-tpe optuna-random}
VMTUNE=${VMTUNE:-$TOP/build/vmtune}
make -s all build/tests/sim
/usr/bin/python3 -c 'import optuna' 2>/dev/null || { echo "peers.sh: needs Debian's python3-optuna" >&2; exit 1; }
T=$(mktemp -d /tmp/vmtune-peers-XXXXXX)
trap 'rm -rf "$T"' EXIT
SIM=$TOP/build/tests/sim
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.watermark_scale_factor,vm.compaction_proactiveness,thp.enabled,vm.dirty_ratio,vm.dirty_expire_centisecs
tests/mkroot.sh "$T/tree"
build/vmtune --root "$T/tree" knobs --json >"$T/knobs.json"

gap() { # KNOB=VALUE... -> the true gap to the optimum in %, or "failed"
	"$SIM" "$SURFACE-true" "$@" | awk '$1 == "failed" { print; exit } { printf "%.2f\n", 10 * ($1 - 10) }'
}

# one seed at one noise: prints "NOISE SEED TOOL GAP MEASUREMENTS" per tool
one() { # NOISE SEED
	local noise=$1 seed=$2 st r rec n budget=0
	for st in bo random; do
		[[ " $TOOLS " == *" vmtune-$st "* ]] || continue
		r=$T/$st-$noise-$seed
		rm -rf "$r" "$r.db"
		"$TOP/tests/mkroot.sh" "$r"
		echo "$seed" >"$r/seed"
		"$VMTUNE" --root "$r" --db "$r.db" -q search --workload "exec:$SIM $SURFACE $noise" --metric value \
			--minimize --knobs "$KNOBS" --strategy "$st" --trials "$TRIALS" --seed "$seed" -o "$r/p.yaml" \
			>"$r.out" 2>&1 || true
		rec=$(sqlite3 "$r.db" "select result from runs order by id desc limit 1" |
			jq -r '.recommended | to_entries | map("\(.key)=\(.value)") | join(" ")')
		n=$(sqlite3 "$r.db" "select count(*) from trials")
		[ "$st" = bo ] && budget=$n
		# shellcheck disable=SC2086
		echo "$noise $seed vmtune-$st $(gap $rec) $n"
		rm -rf "$r" "$r.db" "$r.out"
	done
	for st in tpe random; do
		[[ " $TOOLS " == *" optuna-$st "* ]] || continue
		# shellcheck disable=SC2046
		rec=$(/usr/bin/python3 "$TOP/bench/peers.py" "$SIM" "$T/knobs.json" "$st" "$seed" "$noise" "$budget" \
			$(tr , ' ' <<<"$KNOBS"))
		# shellcheck disable=SC2086
		echo "$noise $seed optuna-$st $(gap $rec) $budget"
	done
}
export -f one gap
export T TOP SIM KNOBS TRIALS TOOLS VMTUNE SURFACE

t0=$SECONDS
for noise in $NOISES; do
	for s in $(seq "$FIRST" $((FIRST + SEEDS - 1))); do
		echo "$noise $s"
	done
done | xargs -P "$JOBS" -n 2 bash -c 'one "$0" "$1"' >"$T/all"

echo "peers.sh: SEEDS=$SEEDS FIRST=$FIRST TRIALS=$TRIALS, $((SECONDS - t0)) s"
for noise in $NOISES; do
	echo
	echo "noise $noise (log-normal sd per measurement), $SEEDS seeds from $FIRST, vmtune at --trials $TRIALS:"
	echo
	echo "| tool | median gap to the optimum | quartiles | within 3% | failing recommendations | median measurements |"
	echo "|---|---|---|---|---|---|"
	for tool in $TOOLS; do
		awk -v n="$noise" -v t="$tool" '$1 == n && $3 == t' "$T/all" | sort -k2n >"$T/rows"
		med_m=$(awk '{ print $5 }' "$T/rows" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
		awk '{ print ($4 == "failed" ? 1e9 : $4), ($4 == "failed") }' "$T/rows" | sort -g | awk -v t="$tool" -v mm="$med_m" '
			{ g[NR] = $1; f += $2; if ($1 <= 3) w++ }
			function fmt(v) { return v >= 1e9 ? "failed" : sprintf("%.1f%%", v) }
			function q(p) { return fmt(g[int(p * (NR - 1)) + 1]) }
			END {
				med = NR % 2 ? g[(NR + 1) / 2] : (g[NR / 2] + g[NR / 2 + 1]) / 2
				# quartiles of fewer than four seeds say nothing
				qs = NR >= 4 ? q(0.25) " .. " q(0.75) : "-"
				printf "| %s | %s | %s | %d of %d | %d | %s |\n", t, fmt(med), qs, w, NR, f, mm
			}'
	done
	# paired by seed: in how many seeds vmtune bo's recommendation is better than the
	# other tool's, and the two-sided sign test of that (ties left out)
	if [[ " $TOOLS " == *" vmtune-bo "* ]]; then
		echo
		for tool in $TOOLS; do
			[ "$tool" = vmtune-bo ] && continue
			awk -v n="$noise" -v t="$tool" '$1 == n && ($3 == "vmtune-bo" || $3 == t) {
					g = ($4 == "failed" ? 1e9 : $4) + 0
					if ($3 == t) o[$2] = g; else b[$2] = g
				}
				END {
					for (s in b) if (s in o) { if (b[s] < o[s]) w++; else if (b[s] > o[s]) l++ }
					m = w + l; k = w < l ? w : l; c = 1; p = 0
					for (i = 0; i <= k; i++) { p += c; c = c * (m - i) / (i + 1) }
					p = m ? 2 * p / 2 ^ m : 1
					if (p > 1) p = 1
					printf "- vmtune-bo better than %s in %d seeds, worse in %d (sign test p = %.2g)\n", t, w + 0, l + 0, p
				}' "$T/all"
		done
	fi
	echo
	echo "gaps (%) by seed:"
	for tool in $TOOLS; do
		echo "- $tool: $(awk -v n="$noise" -v t="$tool" '$1 == n && $3 == t { print $2, $4 }' "$T/all" | sort -n | awk '{ printf "%s ", $2 }')"
	done
done
