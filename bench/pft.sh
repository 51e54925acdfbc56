#!/usr/bin/env bash
# pft.sh - the page-fault test of seed 001 at 1 and 2 threads, next to this
# machine's page-zeroing bandwidth measured in the same run (memset of resident
# pages): how close faulting-in comes to the limit. Prints a table for RESULTS.md.
set -eu
cd "$(dirname "$0")/.."
make -s all
echo "| threads | fault/wsec | flt/cpu/s | fault GB/s | memset GB/s | fraction |"
echo "|---|---|---|---|---|---|"
for t in 1 2; do
	out=$(build/pft -b 1G -t $t -r 3)
	v() { sed -n "s/^$1=//p" <<<"$out"; }
	printf '| %s | %.0f | %.0f | %.2f | %.2f | %.0f%% |\n' "$t" "$(v fault_wsec)" "$(v flt_cpu_s)" "$(v fault_gb_s)" \
		"$(v zero_gb_s)" "$(awk -v f="$(v fraction_of_zeroing)" 'BEGIN { print 100 * f }')"
done
