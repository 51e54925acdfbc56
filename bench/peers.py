#!/usr/bin/python3
"""peers.py - Optuna's samplers on the hard surface (`sim hard` of tests/search/sim.c, or
`sim rough` when SURFACE=rough is in the environment),
for bench/peers.sh: SAMPLER (tpe or random) gets BUDGET measurements, the same number a
vmtune search used (its baselines, repeats and confirmation runs counted), over the
knobs and search ranges `vmtune knobs --json` gives (log2 knobs on a log scale, enums
as categories). The original settings are its first trial, as they are vmtune's first
measurement. Each measurement is one `sim hard-at NOISE KNOB=VALUE...` (rough-at) with
the noise seeded by SEED, as vmtune's searches are; a run the surface fails is a failed trial.
Its recommendation is the best trial (Optuna's best_params); prints that setting as
KNOB=VALUE words on one line.

usage: peers.py SIM KNOBS_JSON SAMPLER SEED NOISE BUDGET KNOB...
"""
import json
import os
import subprocess
import sys
import tempfile

import optuna


def main():
    sim, knobs_json, sampler_name, seed, noise, budget = sys.argv[1:7]
    names = sys.argv[7:]
    seed, budget = int(seed), int(budget)
    with open(knobs_json) as f:
        cat = {k["name"]: k for k in json.load(f)}
    space = []
    for n in names:
        k = cat[n]
        lo, hi = k["search_range"]
        space.append((n, k["search_scale"], lo, hi, k.get("choices"), k["value"]))

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if sampler_name == "tpe":
        sampler = optuna.samplers.TPESampler(seed=seed)
    elif sampler_name == "random":
        sampler = optuna.samplers.RandomSampler(seed=seed)
    else:
        sys.exit("peers.py: SAMPLER is tpe or random")
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.enqueue_trial({n: v for n, _, _, _, _, v in space})

    with tempfile.TemporaryDirectory(prefix="vmtune-peers-") as root:
        with open(os.path.join(root, "seed"), "w") as f:
            f.write("%d\n" % seed)
        env = dict(os.environ, VMTUNE_ROOT=root)
        for _ in range(budget):
            t = study.ask()
            words = []
            for n, scale, lo, hi, choices, _ in space:
                if scale == "choice":
                    v = t.suggest_categorical(n, choices)
                else:
                    v = t.suggest_int(n, lo, hi, log=(scale == "log2"))
                words.append("%s=%s" % (n, v))
            at = os.environ.get("SURFACE", "hard") + "-at"
            r = subprocess.run([sim, at, noise] + words, env=env, capture_output=True, text=True)
            value = None
            for line in r.stdout.splitlines():
                if line.startswith("value="):
                    value = float(line[6:])
            if r.returncode != 0 or value is None:
                study.tell(t, state=optuna.trial.TrialState.FAIL)
            else:
                study.tell(t, value)
    best = study.best_params
    print(" ".join("%s=%s" % (n, best[n]) for n, *_ in space))


if __name__ == "__main__":
    main()
