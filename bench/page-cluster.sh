#!/usr/bin/env bash
# page-cluster.sh - how much vm.page-cluster matters for swap-in on this machine, for
# each swap backend: swapbench reads 600M back (seq and rand) from swap in a 256M
# cgroup under page-cluster 0, 3 and 6, RUNS runs each, all in one session so the
# ratios are comparable. BACKENDS: the --swap specs to measure (default a 1G swapfile,
# 1G of zram with lz4, and the swapfile with zswap in front). Prints a markdown
# table for bench/RESULTS.md. Root only.
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
BACKENDS=${BACKENDS:-"file:1G zram:1G:lz4 file:1G+zswap"}
VMTUNE=build/vmtune
[ "$(id -u)" = 0 ] || { echo "page-cluster.sh: run as root (it changes vm.page-cluster)" >&2; exit 3; }
make -s all
printf '| swap | order | page-cluster | elapsed s (mean, 95%% CI) | CV | major faults | vs page-cluster 3 |\n'
printf '|---|---|---|---|---|---|---|\n'
for backend in $BACKENDS; do
	for order in seq rand; do
		declare -A mean=() row=()
		for pc in 0 3 6; do
			json=$($VMTUNE -q run --json --runs "$RUNS" --set vm.page-cluster=$pc \
				--workload "swapbench -s 600M -a $order -P 1" --memory-limit 256M --swap "$backend")
			mean[$pc]=$(jq '.workloads[0].averages.elapsed_s' <<<"$json")
			row[$pc]=$(jq -r '.workloads[0] | "\(.averages.elapsed_s*100|round/100) (\(.elapsed_ci95[0]*100|round/100)..\(.elapsed_ci95[1]*100|round/100)) | \(.elapsed_cv*1000|round/10)% | \(.averages.major_faults|round)"' <<<"$json")
		done
		for pc in 0 3 6; do
			ratio=$(awk -v a="${mean[$pc]}" -v b="${mean[3]}" 'BEGIN { printf "%.2fx", a / b }')
			echo "| $backend | $order | $pc | ${row[$pc]} | $ratio |"
		done
	done
done
