#!/usr/bin/env bash
# settle.sh - where the run-to-run noise of the README's main measurement comes from,
# and what settling before each run does to it. CALLS calls of
#   vmtune run --workload "mtest01 -p 80 -w" --runs RUNS --memory-limit 256M --swap 512M
# for each condition, interleaved in one session (so both see the same machine):
#   before: --settle none --warmup 0 (what the README's command did)
#   after:  the defaults (--settle all --warmup 1)
# Every counted run is kept with the machine's state before it (dirty, writeback,
# page cache, free memory, memory the guest handed back to its host during the run)
# and what the run did (user, system, faults, swap-out, PSI). Prints markdown for
# bench/RESULTS.md: the per-call CV each way, and what the slow runs have in common.
# Root only. Leaves every knob and swap area as found (vmtune restores them).
set -eu
cd "$(dirname "$0")/.."
CALLS=${CALLS:-8}
RUNS=${RUNS:-5}
SPEC=${SPEC:-mtest01 -p 80 -w}
VMTUNE=build/vmtune
[ "$(id -u)" = 0 ] || { echo "settle.sh: run as root" >&2; exit 3; }
make -s all
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for c in $(seq 1 "$CALLS"); do
	order="before after"
	[ $((c % 2)) = 0 ] && order="after before"
	for cond in $order; do
		if [ "$cond" = before ]; then extra="--settle none --warmup 0"; else extra=""; fi
		# shellcheck disable=SC2086
		$VMTUNE -q run --json --runs "$RUNS" $extra --workload "$SPEC" --memory-limit 256M --swap 512M \
			>"$T/$cond-$c.json"
	done
done
python3 - "$T" "$CALLS" <<'PY'
import json, math, statistics as st, sys, glob, os
d, calls = sys.argv[1], int(sys.argv[2])
rows = {"before": [], "after": []}
cvs = {"before": [], "after": []}
warm = []
for cond in rows:
    for c in range(1, calls + 1):
        w = json.load(open(f"{d}/{cond}-{c}.json"))["workloads"][0]
        el = [r["elapsed_s"] for r in w["per_run"] if r["outcome"] == "ok"]
        if len(el) >= 2:
            cvs[cond].append(st.stdev(el) / st.mean(el))
        if cond == "after":
            warm += w.get("warmup_elapsed_s", [])
        for i, r in enumerate(w["per_run"]):
            if r["outcome"] != "ok":
                continue
            b = r.get("before", {})
            rows[cond].append(dict(call=c, run=i + 1, elapsed=r["elapsed_s"], sys=r["system_s"], user=r["user_s"],
                                   maj=r["major_faults"], cached=b.get("cached_kb"), free=b.get("free_kb"),
                                   dirty=b.get("dirty_kb"), settle=b.get("settle_s"),
                                   host=r.get("host_reported_during_kib"), ccpu=b.get("canary_cpu_ms"),
                                   cmem=b.get("canary_mem_ms"),
                                   psi=r["results"].get("sys.psi_some_ms"), so=r["results"].get("sys.so_pages")))
def cv(x): return st.stdev(x) / st.mean(x)
print("| condition | calls | runs | per-call CV, median (max) | all runs: CV | median s | min .. max s |")
print("|---|---|---|---|---|---|---|")
for cond in ("before", "after"):
    el = [r["elapsed"] for r in rows[cond]]
    print(f"| {cond} | {calls} | {len(el)} | {100*st.median(cvs[cond]):.1f}% ({100*max(cvs[cond]):.1f}%) | "
          f"{100*cv(el):.1f}% | {st.median(el):.3f} | {min(el):.3f} .. {max(el):.3f} |")
settle = {}
for c in range(1, calls + 1):
    w = json.load(open(f"{d}/after-{c}.json"))["workloads"][0]["settle"]
    for k, v in w.items():
        if isinstance(v, (int, float)) and v is not None: settle.setdefault(k, []).append(v)
print("\nsettling (after), mean per run over the calls: " + ", ".join(f"{k} {st.mean(v):.3f}" + ("" if k.startswith("not_") else " s") for k, v in settle.items()))
if warm:
    print(f"\nwarm-up runs (after): median {st.median(warm):.3f} s, min .. max {min(warm):.3f} .. {max(warm):.3f} s")
allr = rows["before"] + rows["after"]
med = st.median(r["elapsed"] for r in allr)
slow = [r for r in allr if r["elapsed"] > 1.1 * med]
fast = [r for r in allr if r["elapsed"] <= 1.1 * med]
print(f"\nslow runs (over 1.1x the median {med:.3f} s): {len(slow)} of {len(allr)} "
      f"(before: {sum(1 for r in rows['before'] if r['elapsed'] > 1.1*med)}, after: {sum(1 for r in rows['after'] if r['elapsed'] > 1.1*med)})")
def rank(x):
    o = sorted(range(len(x)), key=lambda i: x[i]); r = [0]*len(x)
    for k, i in enumerate(o): r[i] = k
    return r
def spearman(a, b):
    ok = [(x, y) for x, y in zip(a, b) if x is not None and y is not None and not (isinstance(x, float) and math.isnan(x))]
    if len(ok) < 5 or len(set(x for x, _ in ok)) < 2: return float("nan")
    ra, rb = rank([x for x, _ in ok]), rank([y for _, y in ok])
    return st.correlation(ra, rb)
print("\nthe runs in the order they ran (s; * over 1.1x the median):")
for cond in ("before", "after"):
    for c in range(1, calls + 1):
        print(f"    {cond:6} call {c:2}: " + " ".join(f"{r['elapsed']:.2f}{'*' if r['elapsed'] > 1.1*med else ' '}" for r in rows[cond] if r["call"] == c))
print("\n| figure | slow runs, mean | other runs, mean | Spearman rho with elapsed |")
print("|---|---|---|---|")
for k, label in (("sys", "system time s"), ("user", "user time s"), ("maj", "major faults"), ("so", "pages swapped out"),
                 ("psi", "memory PSI some ms"), ("host", "KiB handed to the host during the run"),
                 ("cached", "page cache before, KiB"), ("free", "free before, KiB"), ("dirty", "dirty before, KiB"),
                 ("ccpu", "CPU canary before, ms"), ("cmem", "16 MiB fault-in canary before, ms"),
                 ("run", "run number in its call")):
    def m(rs):
        v = [r[k] for r in rs if r[k] is not None]
        return st.mean(v) if v else float("nan")
    rho = spearman([r[k] for r in allr], [r["elapsed"] for r in allr])
    print(f"| {label} | {m(slow):.4g} | {m(fast):.4g} | {rho:+.2f} |")
PY
