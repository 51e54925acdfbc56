#!/bin/sh
# effect.sh EFFECT NOISE - a simulated workload whose answer is known, for checking
# what a search's claims are worth: the cost is 10, EFFECT lower (0.10: 10%) when
# vm.page-cluster >= 5 on the --root tree it scores ($VMTUNE_ROOT), nothing else
# matters, and each measurement is multiplied by exp(NOISE * N(0,1)). The noise is
# seeded: $VMTUNE_ROOT/seed and a counter in $VMTUNE_ROOT/draws make every search
# repeatable. Prints value=... and true=...
R=${VMTUNE_ROOT:?effect.sh scores a --root tree}
n=$(cat "$R/draws" 2>/dev/null || echo 0)
echo $((n + 1)) >"$R/draws"
exec /usr/bin/python3 -c '
import random, sys
effect, noise, seed, n, pc = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
f = 10 * (1 - effect if pc >= 5 else 1)
z = random.Random("%s-%s" % (seed, n)).gauss(0, 1)
import math
print("value=%.6f" % (f * math.exp(noise * z)))
print("true=%.6f" % f)
' "${1:-0}" "${2:-0.1}" "$(cat "$R/seed" 2>/dev/null || echo 1)" "$n" "$(cat "$R/proc/sys/vm/page-cluster")"
