#!/usr/bin/env bash
# fuzz.sh [SECONDS [TARGET...]] - the fuzzing campaign: every libFuzzer target (tests/fuzz; or the ones named) for
# SECONDS (default 600) each, two at a time, then the inputs that reached new
# coverage are merged into the kept corpus (tests/fuzz/corpus/NAME, minimized by
# libFuzzer's -merge). Prints the TAP lines of tests/fuzz/run: record them in
# tests/README.md. A crash stops nothing: it fails its line and keeps its input in
# build-fuzz/artifacts/.
cd "$(dirname "$0")/.." || exit 4
secs=${1:-600}
make -s fuzz-build || exit 1
keep=$(mktemp -d /tmp/vmtune-fuzz-keep-XXXXXX)
shift
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
	targets=(build-fuzz/fuzz/fuzz_*)
	targets=("${targets[@]##*/}")
fi
rc=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
	pids=()
	for t in "${targets[@]:i:2}"; do
		FUZZ_KEEP=$keep tests/fuzz/run "$secs" "$t" >"$keep/$t.tap" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
done
for t in "${targets[@]}"; do
	grep -v '^1\.\.' "$keep/$t.tap"
	name=${t#fuzz_}
	mkdir -p tests/fuzz/corpus/"$name"
	build-fuzz/fuzz/"$t" -merge=1 tests/fuzz/corpus/"$name" "$keep/$name" >"$keep/$name.merge" 2>&1 || rc=1
	echo "# $t: kept corpus now $(ls tests/fuzz/corpus/"$name" | wc -l) inputs"
done
rm -rf "$keep"
exit $rc
