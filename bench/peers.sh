#!/usr/bin/env bash
# peers.sh - vmtune's search against the tools people would use instead, on a surface
# whose answer is known. SURFACE (default hard) is `sim hard` of tests/search/sim.c
# (eight knobs, two of them irrelevant, an enum, an interaction, a log-scaled knob, a
# failing region; the optimum costs 10, the original settings 14.66), `sim rough` (the
# same knobs, optimum and failing region with no bowl: kinks, a cusp, a flat-walled
# well, a step; the original settings 16.66), or one of the standard test functions of
# tests/search/testfn.c, which vmtune's search did not shape (`build/tests/testfn list`:
# branin, hartmann6, levy, rosenbrock, ackley, styblinski; their knobs from
# `testfn NAME-knobs`, their optimum 10 as well). For each NOISE (default "0.05 0.15")
# and each of SEEDS seeds from FIRST (defaults 40 and 1; seeds 1-40 are the ones the
# strategy was developed on, bench/RESULTS.md publishes the test functions on seeds
# from 1001): vmtune search --strategy bo and --strategy random at --trials TRIALS
# (default 40) with everything else at its default, then Optuna's TPE, CMA-ES, random
# and QMC samplers (bench/peers.py) given exactly the measurements the bo search used
# (its baselines, repeats, race and confirmation runs counted). Scored by the true cost
# of each tool's final recommendation (vmtune: the profile's settings, the original
# ones when nothing was significant; Optuna, PICK=remeasure, the default: the best of
# its five best trials re-measured three times each within the same budget, by the mean
# of their four measurements; PICK=best: its best single trial, as before 2026-12-07):
# the gap to the optimum in percent, a recommendation in the failing region counted
# apart (and as the worst gap in the median). Beside it, the gap of the best setting
# each tool measured at all, and for Optuna the gap of its best single trial. Prints
# markdown tables for bench/RESULTS.md. No root needed; JOBS (default 2) seeds run side
# by side. TOOLS picks some of vmtune-bo, vmtune-random, optuna-tpe, optuna-cmaes,
# optuna-random, optuna-qmc (the Optuna ones need vmtune-bo's count); VMTUNE=BIN
# searches with another build of vmtune (an A/B of a change).
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SEEDS=${SEEDS:-40}
FIRST=${FIRST:-1}
TRIALS=${TRIALS:-40}
NOISES=${NOISES:-0.05 0.15}
JOBS=${JOBS:-2}
SURFACE=${SURFACE:-hard}
PICK=${PICK:-remeasure}
TOOLS=${TOOLS:-vmtune-bo vmtune-random optuna-tpe optuna-cmaes optuna-random optuna-qmc}
VMTUNE=${VMTUNE:-$TOP/build/vmtune}
make -s all build/tests/sim build/tests/testfn
case $SURFACE in
hard | rough)
	SIM=$TOP/build/tests/sim
	KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure,vm.watermark_scale_factor,vm.compaction_proactiveness,thp.enabled,vm.dirty_ratio,vm.dirty_expire_centisecs
	;;
*)
	SIM=$TOP/build/tests/testfn
	KNOBS=$("$SIM" "$SURFACE-knobs" 2>/dev/null) || {
		echo "peers.sh: SURFACE is hard, rough or one of $("$SIM" list | tr '\n' ' ')not '$SURFACE'" >&2
		exit 2
	}
	;;
esac
case $PICK in
remeasure | best) ;;
*) echo "peers.sh: PICK is remeasure or best, not '$PICK'" >&2; exit 2 ;;
esac
/usr/bin/python3 -c 'import optuna' 2>/dev/null || { echo "peers.sh: needs Debian's python3-optuna" >&2; exit 1; }
T=$(mktemp -d /tmp/vmtune-peers-XXXXXX)
trap 'rm -rf "$T"' EXIT
tests/mkroot.sh "$T/tree"
build/vmtune --root "$T/tree" knobs --json >"$T/knobs.json"

gap() { # KNOB=VALUE... -> the true gap to the optimum in %, or "failed"
	"$SIM" "$SURFACE-true" "$@" | awk '$1 == "failed" { print; exit } { printf "%.2f\n", 10 * ($1 - 10) }'
}

# the gap of the best of the settings on stdin (one KNOB=VALUE... line each), or "failed"
best_gap() {
	local line
	while read -r line; do
		# shellcheck disable=SC2086
		"$SIM" "$SURFACE-true" $line
	done | awk '$1 != "failed" && (b == "" || $1 < b) { b = $1 } END { if (b == "") print "failed"; else printf "%.2f\n", 10 * (b - 10) }'
}

# one seed at one noise: prints "NOISE SEED TOOL GAP MEASUREMENTS VISITED LUCKY" per tool
# (VISITED: the gap of the best setting it measured; LUCKY: of Optuna's best single trial)
one() { # NOISE SEED
	local noise=$1 seed=$2 st r rec n budget=0 visited out
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
		visited=$(sqlite3 "$r.db" "select distinct settings from trials where failed = 0" |
			jq -r 'to_entries | map("\(.key)=\(.value)") | join(" ")' | best_gap)
		# shellcheck disable=SC2086
		echo "$noise $seed vmtune-$st $(gap $rec) $n $visited -"
		rm -rf "$r" "$r.db" "$r.out"
	done
	for st in tpe cmaes random qmc; do
		[[ " $TOOLS " == *" optuna-$st "* ]] || continue
		# shellcheck disable=SC2046
		out=$(SURFACE=$SURFACE PICK=$PICK /usr/bin/python3 "$TOP/bench/peers.py" "$SIM" "$T/knobs.json" "$st" \
			"$seed" "$noise" "$budget" $(tr , ' ' <<<"$KNOBS"))
		visited=$(sed -n 3p <<<"$out" | awk '$1 == "failed" { print; exit } { printf "%.2f\n", 10 * ($1 - 10) }')
		# shellcheck disable=SC2046
		echo "$noise $seed optuna-$st $(gap $(sed -n 1p <<<"$out")) $(sed -n 4p <<<"$out") $visited" \
			"$(gap $(sed -n 2p <<<"$out"))"
	done
}
export -f one gap best_gap
export T TOP SIM KNOBS TRIALS TOOLS VMTUNE SURFACE PICK

# the median of the numbers on stdin ("failed" the worst), "-" when there are none; SUFFIX after it
median() { # [SUFFIX]
	awk '$1 != "-" { print ($1 == "failed" ? 1e9 : $1) }' | sort -g | awk -v u="${1:-}" '{ v[NR] = $1 }
		END {
			if (!NR) { print "-"; exit }
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			if (m >= 1e9) print "failed"; else if (u == "") print m; else printf "%.1f%s\n", m, u
		}'
}

t0=$SECONDS
for noise in $NOISES; do
	for s in $(seq "$FIRST" $((FIRST + SEEDS - 1))); do
		echo "$noise $s"
	done
done | xargs -P "$JOBS" -n 2 bash -c 'one "$0" "$1"' >"$T/all"

echo "peers.sh: SURFACE=$SURFACE PICK=$PICK SEEDS=$SEEDS FIRST=$FIRST TRIALS=$TRIALS, $((SECONDS - t0)) s"
for noise in $NOISES; do
	echo
	echo "noise $noise (log-normal sd per measurement), $SEEDS seeds from $FIRST, vmtune at --trials $TRIALS:"
	echo
	echo "| tool | median gap to the optimum | quartiles | within 3% | failing recommendations | median measurements | best visited: median gap | best single trial: median gap |"
	echo "|---|---|---|---|---|---|---|---|"
	for tool in $TOOLS; do
		awk -v n="$noise" -v t="$tool" '$1 == n && $3 == t' "$T/all" | sort -k2n >"$T/rows"
		med_m=$(awk '{ print $5 }' "$T/rows" | median)
		med_v=$(awk '{ print $6 }' "$T/rows" | median %)
		med_l=$(awk '{ print $7 }' "$T/rows" | median %)
		awk '{ print ($4 == "failed" ? 1e9 : $4), ($4 == "failed") }' "$T/rows" | sort -g | awk -v t="$tool" -v mm="$med_m" \
			-v mv="$med_v" -v ml="$med_l" '
			{ g[NR] = $1; f += $2; if ($1 <= 3) w++ }
			function fmt(v) { return v >= 1e9 ? "failed" : sprintf("%.1f%%", v) }
			function q(p) { return fmt(g[int(p * (NR - 1)) + 1]) }
			END {
				med = NR % 2 ? g[(NR + 1) / 2] : (g[NR / 2] + g[NR / 2 + 1]) / 2
				# quartiles of fewer than four seeds say nothing
				qs = NR >= 4 ? q(0.25) " .. " q(0.75) : "-"
				printf "| %s | %s | %s | %d of %d | %d | %s | %s | %s |\n", t, fmt(med), qs, w, NR, f, mm, mv, ml
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
