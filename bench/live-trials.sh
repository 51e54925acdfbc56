#!/usr/bin/env bash
# live-trials.sh - does one build's live page-cluster search take more trials than
# another's to reach its decision? Root only: it searches the live kernel.
#
# OLD (default 8c8dd6a, the last build without the trend in bo's model) is built in a
# worktree of its own under /var/tmp; NEW is this tree (built with `make`). PAIRS pairs
# of searches of vm.page-cluster against `swapbench -s SIZE -a ACCESS -P 2` in a MEM
# cgroup with SWAP of swap, `--trials TRIALS`, each run to its own end (LIMIT, default
# 75m, is a safety net: a search it stops is reported as stopped, its count a lower
# bound; at 31 s a run, a random swap-in search that confirms two finalists for all 25
# rounds takes about an hour). The order alternates from pair to pair (FIRST, default
# old, then the other first), so slow drift of the machine falls on both builds alike.
# Nothing else should run meanwhile: the searches wait for a quiet machine. KEEP=DIR
# keeps each search's output and `report --json` there (N-BUILD.out, N-BUILD.json).
#
# Prints a markdown row per search as it ends (build, trial rows, measurements,
# decision, finalists, drift, minutes), then the median trial rows of each build. The
# machine is as it was afterwards (checked after every search).
set -eu
cd "$(dirname "$0")/.."
OLD=${OLD:-8c8dd6a}
PAIRS=${PAIRS:-2}
FIRST=${FIRST:-old}
SIZE=${SIZE:-600M}
ACCESS=${ACCESS:-rand}
MEM=${MEM:-256M}
SWAP=${SWAP:-1G}
TRIALS=${TRIALS:-10}
LIMIT=${LIMIT:-75m}
KEEP=${KEEP:-}
[ "$(id -u)" = 0 ] || { echo "live-trials.sh: run as root (it searches the live kernel)" >&2; exit 3; }
case $FIRST in old | new) ;; *) echo "live-trials.sh: FIRST is old or new, not '$FIRST'" >&2; exit 2 ;; esac
. tests/lib.sh
make -s all
W=/var/tmp/vmtune-live-trials-$(git rev-parse --short "$OLD")
if [ ! -x "$W/build/vmtune" ]; then
	rm -rf "$W"
	git worktree prune
	git worktree add -q --detach "$W" "$OLD"
	make -s -C "$W" all >/dev/null
fi
declare -A bin=([old]=$W/build/vmtune [new]=$PWD/build/vmtune)
D=$(mktemp -d /var/tmp/vmtune-live-trials-XXXXXX)
# whatever an interrupted search left is put back from its journal
trap 'for st in "$D"/*/; do [ -d "$st" ] && "${bin[new]}" --state-dir "$st" restore >/dev/null 2>&1; done; rm -rf "$T" "$D"' EXIT
before=$(live_snapshot)

wl="swapbench -s $SIZE -a $ACCESS -P 2"
echo "live-trials.sh: old $(git -C "$W" rev-parse --short HEAD), new $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes'); $wl, $MEM cgroup, $SWAP swap, --trials $TRIALS, PAIRS=$PAIRS FIRST=$FIRST"
echo
echo "| search | build | trial rows | measurements | decision | finalists (change, 95% CI, rounds) | drift (baselines, p) | minutes |"
echo "|---|---|---|---|---|---|---|---|"
declare -A rows=([old]="" [new]="")
n=0
for p in $(seq 1 "$PAIRS"); do
	if [ $(((p - 1) % 2)) = 0 ]; then a=$FIRST; else a=$([ "$FIRST" = old ] && echo new || echo old); fi
	b=$([ "$a" = old ] && echo new || echo old)
	for build in $a $b; do
		n=$((n + 1))
		st=$D/$n-$build
		mkdir -p "$st"
		t0=$SECONDS
		rc=0
		timeout -s TERM "$LIMIT" "${bin[$build]}" --state-dir "$st" search --workload "$wl" \
			--knobs vm.page-cluster --memory-limit "$MEM" --swap "$SWAP" --trials "$TRIALS" \
			-o "$st/p.yaml" >"$st/out" 2>&1 || rc=$?
		min=$(awk -v s=$((SECONDS - t0)) 'BEGIN { printf "%.1f", s / 60 }')
		"${bin[$build]}" --state-dir "$st" restore >/dev/null 2>&1 || true
		after=$(live_snapshot)
		[ "$before" = "$after" ] || {
			echo "live-trials.sh: after search $n ($build) the machine is not as it was:" >&2
			diff <(echo "$before") <(echo "$after") >&2
			exit 1
		}
		tr=$("${bin[$build]}" --state-dir "$st" runs --json | jq '.[-1].trials')
		if [ "$rc" = 124 ]; then
			dec="stopped by LIMIT ($LIMIT), undecided"
			tr=">=$tr"
		elif [ "$rc" != 0 ]; then
			echo "live-trials.sh: search $n ($build) failed (exit $rc):" >&2
			tail -20 "$st/out" >&2
			exit 1
		fi
		rows[$build]+=" ${tr#>=}"
		"${bin[$build]}" --state-dir "$st" report --json >"$st/report.json"
		[ -z "$KEEP" ] || { mkdir -p "$KEEP" && cp "$st/out" "$KEEP/$n-$build.out" && cp "$st/report.json" "$KEEP/$n-$build.json"; }
		# the finalists' lines of the search's own summary, "finalist SETTING: cost C (interval
		# LO .. HI, R paired rounds), DECISION", shortened to "SETTING: C (LO .. HI), R rounds"
		fin=$(sed -nE 's/^finalist (.*): cost ([^ ]+) \(interval ([^,]+), ([0-9]+) paired rounds\).*/\1: \2 (\3), \4 rounds/p' "$st/out" |
			paste -sd ';' | sed 's/;/; /g; s/|/\\|/g')
		jq -r --arg n "$n" --arg b "$build" --arg tr "$tr" --arg m "$min" --arg dec "${dec:-}" --arg fin "$fin" '
			(.drift // [] | .[0] // {}) as $d |
			"| \($n) | \($b) | \($tr) | \(.measurements) | " +
			(if $dec != "" then $dec
			 elif .significant then "page-cluster \(.knobs[0].recommended), \(.change_pct * 10 | round / 10)% (CI \(.ci95_pct_lo * 10 | round / 10)% .. \(.ci95_pct_hi * 10 | round / 10)%)"
			 else "kept the original (page-cluster \(.knobs[0].original))" end) +
			" | \($fin) | " +
			(if $d.found == null then "not fitted" else "\(if $d.found then "yes" else "no" end) (\($d.baselines), \($d.p * 1000 | round / 1000))" end) +
			" | \($m) |"' "$st/report.json"
		dec=
	done
done
echo
for build in old new; do
	# a search stopped by LIMIT counts with its rows so far, a lower bound
	med=$(tr ' ' '\n' <<<"${rows[$build]}" | grep . | sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
	echo "- $build: trial rows${rows[$build]}, median $med"
done
