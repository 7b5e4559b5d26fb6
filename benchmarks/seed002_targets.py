"""The target sizes SRTSO found in a seed-002 study's SCTSOFS runs, beside the sizes selected.

Usage::

    python benchmarks/seed002_targets.py benchmarks/seed002/s002.toml STUDY [DATASET ...]

SCTSOFS's first phase draws from the run's generator before anything else, so SRTSO run alone
with the run's seed on the same problem (:func:`pymoo_fs.studies.runner.problem_of`) repeats
it exactly (``tests/algorithms/test_sctsofs.py::test_phase_one_is_srtso_with_the_same_draws``).
Prints, per dataset and SCTSOFS label, the mean (std) of ``T`` and of the selected subset size.
"""

import sys

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs.algorithms import SRTSO
from pymoo_fs.studies.report import load_results
from pymoo_fs.studies.runner import problem_of
from pymoo_fs.studies.spec import load_study


def main(spec_path, directory, datasets=()):
    results = load_results(directory)
    spec = load_study(spec_path, validate=False)
    print("| dataset | method | runs | T (SRTSO) mean (std) | selected size mean (std) |")
    print("|---|---|---|---|---|")
    for dataset in datasets or results.datasets:
        problem = None
        for label in results.labels:
            runs = results.runs_of(dataset, label)
            if not label.startswith("SCTSOFS") or not runs:
                continue
            problem = problem or problem_of(spec, dataset)
            options = {k: v for k, v in runs[0]["config"]["params"].items()
                       if k.startswith("srtso_")}
            targets = [minimize(problem, SRTSO(**{k[6:]: v for k, v in options.items()}),
                                seed=r["seed"]).algorithm.target_size_ for r in runs]
            sizes = [len(r["features"][0]) for r in runs]
            print(f"| {dataset} | {label} | {len(runs)} | {np.mean(targets):.1f} "
                  f"({np.std(targets, ddof=1):.1f}) | {np.mean(sizes):.1f} "
                  f"({np.std(sizes, ddof=1):.1f}) |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
