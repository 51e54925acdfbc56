#!/bin/sh
# fleet.sh [NOISE] - a known objective whose optimum depends on the machine, for
# testing and benchmarking recommend and --warm-start on simulated machines: each
# is a --root tree ($VMTUNE_ROOT, which vmtune passes to workloads) holding its
# fingerprint in machine.json (as `vmtune machine --json` prints it; vmtune
# --machine records it). The best page-cluster follows the swap device (rotational 5, flash
# 3, zram 0, none 2), the best swappiness too (rotational 30, flash 100, zram 160,
# none 60), the best vfs_cache_pressure falls with memory (200 at 1G, 50 at 32G).
# The minimum is 10; multiplied by (1 + NOISE * N(0,1)) (NOISE default 0.01).
# Prints value=... and true=...
R=${VMTUNE_ROOT:?fleet.sh scores a --root tree}
M=$R/machine.json
NOISE=${1:-0.01}
vm=$R/proc/sys/vm
kind=$(jq -r '[.swap_devices[]] | sort_by(-.size_kb) | (.[0].kind // "none")' "$M")
mem=$(jq -r '.mem_total_kb' "$M")
# seeded, so a test or a bench is repeatable: ROOT/run/seed (default 1) and a counter
# of draws in ROOT/run/draws (run/ is outside what the tests compare) give each
# measurement its own seed (mawk clamps large ones)
mkdir -p "$R/run"
n=$(cat "$R/run/draws" 2>/dev/null || echo 0)
echo $((n + 1)) >"$R/run/draws"
base=$(cat "$R/run/seed" 2>/dev/null || echo 1)
seed=$(((base * 7919 + n * 131) % 65521 + 1))
awk -v pc="$(cat "$vm/page-cluster")" -v sw="$(cat "$vm/swappiness")" -v vfs="$(cat "$vm/vfs_cache_pressure")" \
	-v kind="$kind" -v mem="$mem" -v seed="$seed" -v noise="$NOISE" 'BEGIN {
	srand(seed)
	if (kind == "zram") { pc0 = 0; sw0 = 160 }
	else if (kind ~ /rotational/) { pc0 = 5; sw0 = 30 }
	else if (kind == "none") { pc0 = 2; sw0 = 60 }
	else { pc0 = 3; sw0 = 100 }
	gb = mem / 1048576; if (gb < 1) gb = 1; if (gb > 32) gb = 32
	vfs0 = 200 - 30 * log(gb) / log(2)
	a = pc - pc0; b = (sw - sw0) / 50; c = (vfs - vfs0) / 150
	f = 10 * (1 + 0.04 * a * a + 0.1 * b * b + 0.05 * c * c)
	u1 = rand(); u2 = rand()
	z = sqrt(-2 * log(u1 + 1e-12)) * cos(6.283185307 * u2)
	printf "value=%.6f\ntrue=%.6f\n", f * (1 + noise * z), f
}'
