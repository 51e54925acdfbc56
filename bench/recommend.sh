#!/usr/bin/env bash
# recommend.sh - recommend and search --warm-start on simulated machines. Each machine
# is a fake --root tree with its own fingerprint (--machine) and a known objective
# whose optimum depends on the machine (tests/search/fleet.sh: page-cluster and
# swappiness follow the swap device, vfs_cache_pressure the memory; minimum 10, 1%
# noise). A bo search of TRAIN_TRIALS trials (default 25) on each of the six training
# machines fills a pooled store; then, for five machines the pool has never seen (the
# last without swap, a kind no pooled machine has):
#   1. the true objective of what `recommend` proposes from the pool, against that of
#      the shipped profile recommend falls back to with an empty store, and the model's
#      predicted change against the true one (for the guess it shows when it is not
#      sure of a transfer and answers with the shipped profile instead);
#   2. trials until a setting within 2% of the optimum (f <= 10.2), cold bo against
#      --warm-start from the pool, SEEDS seeds each (default 5), budget BUDGET
#      (default 40; never getting there counts as BUDGET+1).
# Prints markdown tables for bench/RESULTS.md. No root needed.
set -eu
cd "$(dirname "$0")/.."
SEEDS=${SEEDS:-5}
BUDGET=${BUDGET:-40}
TRAIN_TRIALS=${TRAIN_TRIALS:-25}
make -s all
T=$(mktemp -d /tmp/vmtune-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
TOP=$PWD
V=$TOP/build/vmtune
F="exec:$TOP/tests/search/fleet.sh"
KNOBS=vm.page-cluster,vm.swappiness,vm.vfs_cache_pressure

machine() { # NAME GB KIND: a tree with its fingerprint
	tests/mkroot.sh "$T/$1" >/dev/null
	tests/search/mkmachine.sh "$1" "$2" "$3" >"$T/$1/machine.json"
}
# true objective of settings "pc sw vfs" on machine NAME
truef() {
	local e=$T/eval
	rm -rf "$e"
	mkdir -p "$e/proc/sys/vm"
	cp "$T/$1/machine.json" "$e/"
	echo "$2" >"$e/proc/sys/vm/page-cluster"
	echo "$3" >"$e/proc/sys/vm/swappiness"
	echo "$4" >"$e/proc/sys/vm/vfs_cache_pressure"
	VMTUNE_ROOT=$e tests/search/fleet.sh 0 | sed -n 's/^true=//p'
}
# the settings of a profile, or the tree's value for a knob it leaves out
prof() { # PROFILE NAME KNOB FILE
	local v
	v=$(sed -n "s/^  $3: //p" "$1")
	echo "${v:-$(cat "$T/$2/proc/sys/vm/$4")}"
}
prof_f() { truef "$2" "$(prof "$1" "$2" vm.page-cluster page-cluster)" "$(prof "$1" "$2" vm.swappiness swappiness)" \
	"$(prof "$1" "$2" vm.vfs_cache_pressure vfs_cache_pressure)"; }
search() { # NAME DB SEED [ARGS]
	local m=$1 db=$2 seed=$3
	shift 3
	"$V" -q --machine "$T/$m/machine.json" --root "$T/$m" search --workload "$F" --metric value --knobs $KNOBS \
		--seed "$seed" --db "$db" -o "$T/p.yaml" --confirm-rounds 2 --finalists 1 "$@" >/dev/null
}
# trials of the last run in DB until the first setting within 2% of the optimum
trials_to_2pct() { # NAME DB
	local n=0 s
	while read -r s; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		if awk -v f="$(truef "$1" $s)" 'BEGIN { exit !(f <= 10.2) }'; then
			echo $n
			return
		fi
	done < <(sqlite3 "$2" "select settings from trials where run_id=(select max(id) from runs)
			and kind in ('baseline','candidate') order by seq" | awk '!seen[$0]++' |
		jq -r '[."vm.page-cluster", ."vm.swappiness", ."vm.vfs_cache_pressure"] | @tsv')
	echo $((BUDGET + 1))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

TRAIN="rot8:8:rotational rot2:2:file-on-rotational ssd16:16:ssd nvme32:32:nvme zram4:4:zram zram16:16:zram"
# the last has no swap, a kind the pool has never seen: where transfer has least to go on
UNSEEN="rot16:16:rotational ssd4:4:file-on-ssd nvme2:2:nvme zram8:8:zram bare6:6:none"
for m in $TRAIN $UNSEEN; do
	IFS=: read -r name gb kind <<<"$m"
	machine "$name" "$gb" "$kind"
done
seed=0
for m in $TRAIN; do
	seed=$((seed + 1))
	search "${m%%:*}" "$T/pool.db" $seed --trials "$TRAIN_TRIALS"
done
echo "pool: $(sqlite3 "$T/pool.db" 'select count(*) from trials') trials from $(sqlite3 "$T/pool.db" 'select count(*) from runs') runs on 6 machines"
echo
echo "| unseen machine | shipped profile | its f (gap) | recommend's answer | its f (gap) | the model's setting: predicted change (95% interval) | its true change |"
echo "|---|---|---|---|---|---|---|"
: >"$T/gaps"
for m in $UNSEEN; do
	name=${m%%:*}
	touch "$T/empty.db"
	"$V" --machine "$T/$name/machine.json" --root "$T/$name" recommend --workload "$F" --db "$T/empty.db" \
		-o "$T/ship.yaml" >"$T/ship.txt"
	ship=$(sed -n 's/^fallback: the shipped profile \([^ ]*\).*/\1/p' "$T/ship.txt")
	fs=$(prof_f "$T/ship.yaml" "$name")
	"$V" --machine "$T/$name/machine.json" --root "$T/$name" recommend --workload "$F" --db "$T/pool.db" \
		-o "$T/rec.yaml" --json >"$T/rec.json"
	# the model's setting: the answer, or (when recommend was not sure of a transfer and
	# answered with the shipped profile) the guess it showed beside it
	jq 'if .model_guess then .model_guess else . end' "$T/rec.json" >"$T/model.json"
	pred=$(jq -r '"\(.predicted_change_pct) \(.predicted_ci95_pct_lo) \(.predicted_ci95_pct_hi)"' "$T/model.json")
	gs=$(jq -r '.settings | "\(."vm.page-cluster") \(."vm.swappiness") \(."vm.vfs_cache_pressure")"' "$T/model.json")
	# shellcheck disable=SC2086
	fg=$(truef "$name" $gs)
	fr=$(prof_f "$T/rec.yaml" "$name")
	f0=$(truef "$name" "$(cat "$T/$name/proc/sys/vm/page-cluster")" "$(cat "$T/$name/proc/sys/vm/swappiness")" \
		"$(cat "$T/$name/proc/sys/vm/vfs_cache_pressure")")
	set -- $gs
	if [ "$(jq -r .source "$T/rec.json")" = model ]; then
		rs="the model's: pc $1, sw $2, vfs $3"
	else
		rs="$(jq -r '.profile | sub(".*/"; "") | sub(".yaml$"; "")' "$T/rec.json") (the model's pc $1, sw $2, vfs $3 unsure)"
	fi
	echo "$fs $fr $pred $f0 $fg" >>"$T/gaps"
	awk -v m="$m" -v ship="$ship" -v fs="$fs" -v fr="$fr" -v rs="$rs" -v pred="$pred" -v f0="$f0" -v fg="$fg" \
		'BEGIN { split(pred, p, " ")
		printf "| %s | %s | %.3f (%+.1f%%) | %s | %.3f (%+.1f%%) | %+.1f%% (%+.1f%% .. %+.1f%%) | %+.1f%% |\n",
			m, ship, fs, 100 * (fs / 10 - 1), rs, fr, 100 * (fr / 10 - 1), p[1], p[2], p[3], 100 * (fg / f0 - 1) }'
done
awk '$2 < $1 { c++ } $2 == $1 { same++ } $2 > $1 { worse++ }
	{ t = 100 * ($7 / $6 - 1); if (t >= $4 && t <= $5) in95++ }
	END { printf "\nrecommend closer to the optimum than the shipped profile on %d of %d unseen machines, ", c, NR
	      printf "the same on %d, farther on %d;\n", same, worse
	      printf "the true change of the model'"'"'s setting inside its predicted 95%% interval on %d of %d\n", in95, NR }' "$T/gaps"

echo
echo "| unseen machine | cold bo: trials to 2% (per seed) | warm start: trials to 2% (per seed) |"
echo "|---|---|---|"
: >"$T/cold"
: >"$T/warm"
for m in $UNSEEN; do
	name=${m%%:*}
	c="" w=""
	for seed in $(seq "$SEEDS"); do
		rm -f "$T/cold.db"
		search "$name" "$T/cold.db" "$seed" --trials "$BUDGET"
		n=$(trials_to_2pct "$name" "$T/cold.db")
		echo "$n" >>"$T/cold"
		c="$c $n"
		cp "$T/pool.db" "$T/warm.db"
		search "$name" "$T/warm.db" "$seed" --trials "$BUDGET" --warm-start
		n=$(trials_to_2pct "$name" "$T/warm.db")
		echo "$n" >>"$T/warm"
		w="$w $n"
	done
	echo "| $m |$c |$w |"
done
mc=$(median <"$T/cold")
mw=$(median <"$T/warm")
echo
echo "median trials to 2% of the optimum: cold bo $mc, warm start $mw (ratio $(awk -v a="$mw" -v b="$mc" 'BEGIN { printf "%.2f", a / b }'))"
