#!/usr/bin/env bash
# spending.sh - why the confirmation spends its alpha as it does: the design's
# false-positive rate, power and mean number of pairs under several spending
# functions (bench/spending.c, on the paired t tests vmtune's seqtest.c runs), on
# simulated paired differences whose answer is known. PATHS per cell (default
# 100000). Prints a markdown table for bench/RESULTS.md. No root needed. The unit
# test test_seqtest runs the short version (O'Brien-Fleming against gamma = -4 at 0.6
# and 4 sd, 20000 paths).
set -eu
cd "$(dirname "$0")/.."
T=$(mktemp -d /tmp/vmtune-spending-XXXXXX)
trap 'rm -rf "$T"' EXIT
cc -O2 -std=gnu11 -Ituner bench/spending.c tuner/seqtest.c -lgsl -lgslcblas -lm -o "$T/spending"
start=$(date +%s)
"$T/spending" "${PATHS:-100000}"
echo
echo "spending.sh: $(($(date +%s) - start)) s"
