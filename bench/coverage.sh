#!/usr/bin/env bash
# coverage.sh - the coverage of run's intervals on simulated runs whose answer is known
# (bench/coverage.c): at a fixed number of runs, and under --precision's stopping rule.
# SEQS samples per cell (default 20000). Prints markdown tables for bench/RESULTS.md.
set -eu
cd "$(dirname "$0")/.."
make -s all
T=$(mktemp -d /tmp/vmtune-coverage-XXXXXX)
trap 'rm -rf "$T"' EXIT
cc -O2 -std=gnu11 -Ituner bench/coverage.c tuner/stats.c -lgsl -lgslcblas -lm -o "$T/coverage"
"$T/coverage" "${SEQS:-20000}"
