#!/bin/sh
# quadratic.sh ROOT [NOISE] - a known objective over the knob files of a --root tree,
# for testing and benchmarking the search: a bowl in page-cluster, swappiness,
# vfs_cache_pressure and dirty_ratio with an interaction between the first two,
# minimum 10 at page-cluster 4, swappiness 120, vfs_cache_pressure 200, dirty_ratio 15;
# multiplied by (1 + NOISE * N(0,1)) (NOISE default 0.01), the noise seeded. Prints value=...
R=$1
NOISE=${2:-0.01}
vm=$R/proc/sys/vm
# seeded, so a test or a bench is repeatable: ROOT/run/seed (default 1) and a counter
# of draws in ROOT/run/draws (run/ is outside what the tests compare) give each
# measurement its own seed (mawk clamps large ones)
mkdir -p "$R/run"
n=$(cat "$R/run/draws" 2>/dev/null || echo 0)
echo $((n + 1)) >"$R/run/draws"
base=$(cat "$R/run/seed" 2>/dev/null || echo 1)
seed=$(((base * 7919 + n * 131) % 65521 + 1))
awk -v pc="$(cat "$vm/page-cluster")" -v sw="$(cat "$vm/swappiness")" -v vfs="$(cat "$vm/vfs_cache_pressure")" \
	-v dr="$(cat "$vm/dirty_ratio")" -v seed="$seed" -v noise="$NOISE" 'BEGIN {
	srand(seed)
	a = pc - 4; b = (sw - 120) / 40; c = (vfs - 200) / 150; d = (dr - 15) / 10
	f = 10 + 0.5 * a * a + b * b + 0.3 * a * b + c * c + d * d
	u1 = rand(); u2 = rand()
	z = sqrt(-2 * log(u1 + 1e-12)) * cos(6.283185307 * u2)
	printf "value=%.6f\ntrue=%.6f\n", f * (1 + noise * z), f
}'
