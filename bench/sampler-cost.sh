#!/usr/bin/env bash
# sampler-cost.sh - what watching a run costs: the sampler's own CPU time (the
# thread's CPU clock) over a 60 s run, as a share of one core, and vmtune's
# resident memory while it samples (VmRSS of the vmtune process, read while the
# workload sleeps), against the same vmtune idle. Prints lines for bench/RESULTS.md.
set -eu
cd "$(dirname "$0")/.."
make -s all
D=${DURATION:-60}
T=$(mktemp -d /tmp/vmtune-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
build/vmtune run --json --workload "exec:sleep $D" >"$T/out" 2>/dev/null &
pid=$!
sleep $((D / 2))
rss=$(awk '/^VmRSS/ { print $2 }' /proc/$pid/status)
hwm_mid=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status)
wait $pid
cpu=$(jq '.workloads[0].per_run[0].results["sys.sampler_cpu_s"]' "$T/out")
samples=$(jq '.workloads[0].per_run[0].results["sys.samples"]' "$T/out")
el=$(jq '.workloads[0].per_run[0].elapsed_s' "$T/out")
echo "| run of ${D}s | $samples samples | sampler CPU $(awk -v c="$cpu" 'BEGIN { printf "%.4f", c }') s | $(awk -v c="$cpu" -v e="$el" 'BEGIN { printf "%.3f%%", 100 * c / e }') of one core | vmtune RSS ${rss} kB (peak ${hwm_mid} kB) |"
