#!/usr/bin/python3
"""peers.py - Optuna's samplers on a surface whose answer is known, for bench/peers.sh:
`sim hard` or `sim rough` of tests/search/sim.c, or a test function of
tests/search/testfn.c (SURFACE in the environment names it; hard by default). SAMPLER
(tpe, cmaes, random or qmc: every sampler of Debian's Optuna 3.1 that fits a
single-objective search) gets BUDGET measurements, the same number a vmtune search used
(its baselines, repeats, race and confirmation runs counted), over the knobs and search
ranges `vmtune knobs --json` gives (log2 knobs on a log scale, enums as categories).
The original settings are its first trial, as they are vmtune's first measurement.
Each measurement is one `SIM SURFACE-at NOISE KNOB=VALUE...` with the noise seeded by
SEED, as vmtune's searches are; a run the surface fails is a failed trial.

Its recommendation (PICK in the environment):
- remeasure (the default): the sampler gets BUDGET - 15 trials; then the five best
  trials by their measured value (distinct settings) are measured three times more
  each, and the recommendation is the one of the lowest mean of its four measurements;
  the 15 count in the budget as vmtune's race and confirmation runs do;
- best: the sampler gets all BUDGET trials and the recommendation is its best trial
  (Optuna's best_params: the luckiest single measurement), as bench/peers.sh scored
  before 2026-12-07.

Prints four lines: the recommendation as KNOB=VALUE words; the best trial of the
search (before any remeasuring) as KNOB=VALUE words; the lowest true cost of any
setting the search measured (from SIM SURFACE-true); the number of measurements it
made (runs of SIM SURFACE-at, failed ones counted).

usage: peers.py SIM KNOBS_JSON SAMPLER SEED NOISE BUDGET KNOB...
"""
import json
import os
import subprocess
import sys
import tempfile
import warnings

import optuna

FINALISTS, REPEATS = 5, 3


def main():
    sim, knobs_json, sampler_name, seed, noise, budget = sys.argv[1:7]
    names = sys.argv[7:]
    seed, budget = int(seed), int(budget)
    surface = os.environ.get("SURFACE", "hard")
    pick = os.environ.get("PICK", "remeasure")
    if pick not in ("remeasure", "best"):
        sys.exit("peers.py: PICK is remeasure or best")
    with open(knobs_json) as f:
        cat = {k["name"]: k for k in json.load(f)}
    space = []
    for n in names:
        k = cat[n]
        lo, hi = k["search_range"]
        space.append((n, k["search_scale"], lo, hi, k.get("choices"), k["value"]))

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.simplefilter("ignore")  # CMA-ES and QMC sample the enums independently, and say so
    if sampler_name == "tpe":
        sampler = optuna.samplers.TPESampler(seed=seed)
    elif sampler_name == "cmaes":
        sampler = optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    elif sampler_name == "random":
        sampler = optuna.samplers.RandomSampler(seed=seed)
    elif sampler_name == "qmc":
        sampler = optuna.samplers.QMCSampler(seed=seed, scramble=True, warn_independent_sampling=False)
    else:
        sys.exit("peers.py: SAMPLER is tpe, cmaes, random or qmc")
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.enqueue_trial({n: v for n, _, _, _, _, v in space})
    search = budget - FINALISTS * REPEATS if pick == "remeasure" else budget

    with tempfile.TemporaryDirectory(prefix="vmtune-peers-") as root:
        with open(os.path.join(root, "seed"), "w") as f:
            f.write("%d\n" % seed)
        env = dict(os.environ, VMTUNE_ROOT=root)
        made = [0]

        def measure(words):
            made[0] += 1
            r = subprocess.run([sim, surface + "-at", noise] + words, env=env, capture_output=True, text=True)
            for line in r.stdout.splitlines():
                if line.startswith("value="):
                    return float(line[6:]) if r.returncode == 0 else None
            return None

        def words_of(params):
            return ["%s=%s" % (n, params[n]) for n, *_ in space]

        for _ in range(search):
            t = study.ask()
            for n, scale, lo, hi, choices, _ in space:
                if scale == "choice":
                    t.suggest_categorical(n, choices)
                else:
                    t.suggest_int(n, lo, hi, log=(scale == "log2"))
            value = measure(words_of(t.params))
            if value is None:
                study.tell(t, state=optuna.trial.TrialState.FAIL)
            else:
                study.tell(t, value)
        done = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
        best = study.best_params
        rec = best
        if pick == "remeasure":
            runs = {}
            for t in sorted(done, key=lambda t: t.value):
                key = tuple(words_of(t.params))
                runs.setdefault(key, []).append(t.value)
            finalists = sorted(runs, key=lambda k: min(runs[k]))[:FINALISTS]
            spare = FINALISTS * REPEATS
            for i in range(REPEATS):
                for k in finalists:
                    if spare > 0:
                        runs[k].append(measure(list(k)))
                        spare -= 1
            rec_words = min(finalists, key=lambda k: sum(runs[k]) / len(runs[k]))
            rec = dict(w.split("=", 1) for w in rec_words)
        lowest = None
        for key in {tuple(words_of(t.params)) for t in done}:
            v = subprocess.run([sim, surface + "-true"] + list(key), capture_output=True, text=True).stdout.strip()
            if v != "failed" and (lowest is None or float(v) < lowest):
                lowest = float(v)
    print(" ".join(words_of(rec)))
    print(" ".join(words_of(best)))
    print("%.6f" % lowest if lowest is not None else "failed")
    print(made[0])


if __name__ == "__main__":
    main()
