"""Alternative [A] readings of a seed-004 baseline beside the paper's reading (issue 25, item 2).

Usage::

    pymoo-fs study benchmarks/seed004/yale.toml --out STUDY/yale
    pymoo-fs study benchmarks/seed004/alternatives/hfscp-yale.toml --out ALT/yale
    python benchmarks/seed004_alternatives.py yale STUDY/yale ALT/yale [--reference CEPSO-FL]

The studies share the S004 protocol, seed and folds (a run's seed depends on the study seed,
dataset, label, run and fold), so every label's fold ``i`` is paired with the reference's fold
``i``. Prints, per label of every directory: folds, mean (std) test accuracy of 5-NN, mean
(std) number of features, and the Wilcoxon signed-rank signs of the reference against it
(paired by fold; ``+``: the reference significantly better, i.e. higher accuracy or fewer
features) with Vargha-Delaney A12, as the report of a study prints them.
"""

import argparse

import numpy as np

from _results import markdown_table

from pymoo_fs.analysis.statistics import signed_rank
from pymoo_fs.studies.report import load_results


def by_fold(results, dataset, label):
    """{fold: (test accuracy, number of features)} of a label's first run per fold."""
    out = {}
    for r in results.runs_of(dataset, label):
        if r["run"] == 0:
            out[r["fold"]] = (float(np.ravel(r["score_test"])[0]), len(r["features"][0]))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("directories", nargs="+")
    parser.add_argument("--reference", default="CEPSO-FL")
    args = parser.parse_args(argv)
    cells = {}
    for directory in args.directories:
        results = load_results(directory)
        for label in results.labels:
            cells.setdefault(label, by_fold(results, args.dataset, label))
    ref = cells[args.reference]
    rows = []
    for label, folds in cells.items():
        common = sorted(set(ref) & set(folds))
        acc = np.array([folds[f][0] for f in common])
        size = np.array([folds[f][1] for f in common], dtype=float)
        row = [label, str(len(common)), f"{acc.mean():.3f} ({acc.std(ddof=1):.3f})",
               f"{size.mean():.1f} ({size.std(ddof=1):.1f})"]
        if label == args.reference or len(common) < 2:
            row += ["", ""]
        else:
            ref_acc = np.array([ref[f][0] for f in common])
            ref_size = np.array([ref[f][1] for f in common], dtype=float)
            row += [signed_rank(ref_acc, acc, better="higher").label(),
                    signed_rank(ref_size, size, better="lower").label()]
        rows.append(row)
    print(markdown_table(["label", "folds", "test accuracy", "#features",
                          f"{args.reference} vs label, accuracy",
                          f"{args.reference} vs label, #features"], rows))


if __name__ == "__main__":
    main()
