"""The target sizes SRTSO found in a seed-002 study's SCTSOFS runs, beside the sizes selected.

Usage::

    python benchmarks/seed002_targets.py benchmarks/seed002/s002.toml STUDY [DATASET ...]
    python benchmarks/seed002_targets.py --runs SPEC STUDY [DATASET ...]

SCTSOFS's first phase draws from the run's generator before anything else, so SRTSO run alone
with the run's seed on the same problem (:func:`pymoo_fs.studies.runner.problem_of`) repeats
it exactly (``tests/algorithms/test_sctsofs.py::test_phase_one_is_srtso_with_the_same_draws``).
Prints, per dataset and SCTSOFS label, the mean (std) of ``T`` and of the selected subset size;
with ``--runs``, one row per run instead: ``T``, the size of the returned subset, its test
accuracy, and the size of the swarm's best subset after the initial swarm, after 10 and 20
moves and at the end (the study's trace), which shows where each run's size went. The ``T``
of each run is kept in ``STUDY/targets.json`` (SRTSO is replayed once per run).
"""

import json
from pathlib import Path

import sys

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs.algorithms import SRTSO
from pymoo_fs.studies.report import load_results
from pymoo_fs.studies.runner import problem_of
from pymoo_fs.studies.spec import load_study


def targets_of(spec, directory, dataset, runs, problem=None):
    """SRTSO's ``T`` of each run (replayed with the run's seed), cached in targets.json."""
    path = Path(directory) / "targets.json"
    cache = json.loads(path.read_text()) if path.exists() else {}
    out = []
    for r in runs:
        key = f"{dataset}/{r['algorithm']}/{r['run']}/{r['fold']}"
        if key not in cache:
            problem = problem or problem_of(spec, dataset)
            options = {k[6:]: v for k, v in r["config"]["params"].items()
                       if k.startswith("srtso_")}
            cache[key] = int(minimize(problem, SRTSO(**options),
                                      seed=r["seed"]).algorithm.target_size_)
            path.write_text(json.dumps(cache, indent=1))
        out.append(cache[key])
    return out


def main(spec_path, directory, datasets=(), per_run=False):
    results = load_results(directory)
    spec = load_study(spec_path, validate=False)
    if per_run:
        print("| dataset | method | run | T (SRTSO) | selected size | test accuracy % | best "
              "subset's size: initial swarm, 10 moves, 20 moves, end |")
        print("|---|---|---:|---:|---:|---:|---|")
    else:
        print("| dataset | method | runs | T (SRTSO) mean (std) | selected size mean (std) |")
        print("|---|---|---|---|---|")
    for dataset in datasets or results.datasets:
        for label in results.labels:
            runs = results.runs_of(dataset, label)
            if not label.startswith("SCTSOFS") or not runs:
                continue
            targets = targets_of(spec, directory, dataset, runs)
            sizes = [len(r["features"][0]) for r in runs]
            if per_run:
                for r, t, size in zip(runs, targets, sizes):
                    trace = r["trace"]["n_selected"]
                    points = [trace[i] for i in (0, 10, 20) if i < len(trace)] + [trace[-1]]
                    print(f"| {dataset} | {label} | {r['run']} | {t} | {size} | "
                          f"{100 * r['score_test'][0]:.1f} | "
                          f"{', '.join(str(v) for v in points)} |")
            else:
                print(f"| {dataset} | {label} | {len(runs)} | {np.mean(targets):.1f} "
                      f"({np.std(targets, ddof=1):.1f}) | {np.mean(sizes):.1f} "
                      f"({np.std(sizes, ddof=1):.1f}) |")


if __name__ == "__main__":
    args = sys.argv[1:]
    per_run = "--runs" in args
    args = [a for a in args if a != "--runs"]
    main(args[0], args[1], args[2:], per_run)
