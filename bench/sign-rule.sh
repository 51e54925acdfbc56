#!/usr/bin/env bash
# sign-rule.sh - the confirmation's false-positive rate with its sign rule for
# differences with no variance (seqtest.h): the whole design (paired t at the
# boundaries of what the sign rule leaves, the sign rule where the t-test has no
# interval) on null sequences whose answer is known, continuous, coin-flip and
# rounded, for one and two finalists. PATHS per cell (default 200000). Prints a
# markdown table for bench/RESULTS.md. No root needed. The unit test test_seqtest
# runs the short version (20000 paths, and the sign rule alone on 2^21).
set -eu
cd "$(dirname "$0")/.."
T=$(mktemp -d /tmp/vmtune-sign-rule-XXXXXX)
trap 'rm -rf "$T"' EXIT
cc -O2 -std=gnu11 -Ituner bench/sign-rule.c tuner/seqtest.c -lgsl -lgslcblas -lm -o "$T/sign-rule"
start=$(date +%s)
"$T/sign-rule" "${PATHS:-200000}"
echo
echo "sign-rule.sh: $(($(date +%s) - start)) s"
