"""Seed 003's statements checked on a finished study (see benchmarks/seed003.toml).

Usage::

    pymoo-fs study benchmarks/seed003.toml --out STUDY
    python benchmarks/seed003_summary.py STUDY [STUDY ...]

Prints, per dataset and algorithm, the mean and standard deviation over the runs of the
hypervolume of the training and test fronts (reference point (1, 1)), the run time and the
evaluations, and whether the best and average fronts beat all features; then the table of
**checks**: every qualitative statement of seed 003 (spec §10.4) about a dataset we ship,
evaluated on seed 003's "best" and "average" fronts of the pooled runs (§7.4) and printed as
held / not held with what was measured. The statements and the rules are the library's
(:mod:`pymoo_fs.studies.report.checks`; ``pymoo-fs report`` prints the same table for an S003
study); this script adds the per-algorithm table and reads several study directories at once:
each dataset is read from the first that holds it. A dataset without runs yet is skipped in
the first table (a study still running can be summarised).
"""

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pymoo_fs.analysis import average_front, best_front, hypervolume  # noqa: E402
from pymoo_fs.studies.report import (CHECK_DATASETS, checks_markdown, load_results,  # noqa: E402
                                     statement_checks)


def summary(directory):
    results = load_results(directory)
    lines = []
    for dataset in results.datasets:
        if not any(results.runs_of(dataset, label) for label in results.labels):
            continue
        refs = [v for (d, _), v in results.references.items() if d == dataset]
        full_train = 1 - np.mean([r["score_train"] for r in refs])
        full_test = 1 - np.mean([r["score_test"] for r in refs])
        n_features = refs[0]["n_features"]
        lines += [f"{dataset} ({n_features} features): all features: training error "
                  f"{full_train:.4f}, test error {full_test:.4f}", "",
                  "| algorithm | runs | HV train | HV test | seconds | evaluations | "
                  "best front < 10 % features, error < all (train / test) | "
                  "average-front sizes better than all (train / test) |",
                  "|---|---:|---:|---:|---:|---:|---|---|"]
        for label in results.labels:
            runs = results.runs_of(dataset, label)
            if not runs:
                continue
            train = [np.asarray(r["F_train"]) for r in runs]
            test = [np.asarray(r["F_test"]) for r in runs]
            hv_train = [hypervolume(F) for F in train]
            hv_test = [hypervolume(F) for F in test]
            cells = [label, str(len(runs)), _ms(hv_train), _ms(hv_test),
                     _ms([r["seconds"] for r in runs], 1),
                     f"{np.mean([r['n_eval'] for r in runs]):,.0f}",
                     f"{_small_and_better(best_front(train), full_train, n_features)} / "
                     f"{_small_and_better(best_front(test), full_test, n_features)}",
                     f"{_better_sizes(average_front(train), full_train)} / "
                     f"{_better_sizes(average_front(test), full_test)}"]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def _ms(values, digits=4):
    v = np.asarray(values, dtype=float)
    return f"{v.mean():.{digits}f} ± {v.std(ddof=1) if v.size > 1 else 0.0:.{digits}f}"


def _small_and_better(front, full_error, n_features):
    """The smallest subset of ``front`` with < 10 % of the features and a lower error."""
    hits = front[(front[:, 1] < 0.1) & (front[:, 0] < full_error)]
    if hits.size == 0:
        return "none"
    best = hits[np.argmin(hits[:, 0])]
    return f"yes ({round(best[1] * n_features)} features, error {best[0]:.4f})"


def _better_sizes(front, full_error):
    """How many subset sizes of an average front have fewer features and a lower error."""
    return str(int(np.sum((front[:, 1] < 1.0) & (front[:, 0] < full_error))))


# ------------------------------------------------------------------------------- checks
def checks(directories, datasets=CHECK_DATASETS):
    """The Markdown table of the library's checks (:data:`pymoo_fs.studies.report.CHECKS`).

    Parameters
    ----------
    directories : sequence of path
        Study directories; each dataset is read from the first that holds it.
    datasets : sequence of str
        The datasets of the statements about "all" (those of Nguyen et al. 2016 we ship).

    Returns
    -------
    table : str
        One row per (statement, dataset): held / not held / not run, and the measurement.
    """
    studies = [load_results(d) for d in directories]
    return "\n".join(checks_markdown(statement_checks(studies, datasets))[2:])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("studies", nargs="+", help="study directories made by 'pymoo-fs study'")
    args = parser.parse_args(argv)
    for directory in args.studies:
        print(summary(directory))
    print("Checks of seed 003's statements:\n")
    print(checks(args.studies))


if __name__ == "__main__":
    main()
