"""Seed 000's Tables II and III from study directories, with the paper's numbers beside ours.

Usage::

    pymoo-fs study benchmarks/seed000/s000.toml --out STUDY --jobs 2
    pymoo-fs study benchmarks/seed000/s000_large.toml --out STUDY_LARGE
    python benchmarks/seed000_table.py STUDY [STUDY_LARGE ...] > table.md

For each dataset and algorithm: #features mean (std), best and mean (std) test accuracy in %,
the Wilcoxon rank-sum signs against the study's reference (from the study report's table,
:func:`pymoo_fs.studies.report.summary_tables`), mean seconds per run; and the same figures
from seed 000's Tables II and III (spec §10.1; "?" where the seed's OCR is uncertain).
"""

import sys

import numpy as np

from _results import markdown_table

from pymoo_fs.studies.report import load_results, summary_tables

#: dataset name here -> name in the paper
PAPER_NAMES = {"urban_land_cover": "Urban", "musk1": "Musk1", "lsvt": "LSVT",
               "isolet": "Isolet5", "mfeat": "Mfeat"}

#: paper: (#F mean (std), T_f, BestA, MeanA (std), T_a); spec §10.1
PAPER = {
    "Urban": {
        "FSIPSO": ("14.8 (2.8)", "", "84.31", "81.88 (1.48)", ""),
        "SFS": ("9.0", "-", "80.88", "80.88", "+"),
        "SBS": ("113.0", "+", "78.92", "78.92", "+"),
        "PSO(C)": ("49.5 (5.9)", "+", "84.80", "81.62 (1.22)", "="),
        "PSO(4-2)": ("63.1 (28.7)", "+", "84.31", "81.03 (1.53)", "+"),
        "CSO(C)": ("47.9 (5.0)", "+", "84.31", "81.75 (1.35)", "="),
        "CSO(A)": ("66.1 (7.2)", "+", "83.82", "81.65 (1.15)", "="),
        "UBPSO": ("51.0 (5.7)", "+", "84.80", "81.49 (1.66)", "="),
        "SBPSO": ("47.5 (4.2)", "+", "85.78", "82.04 (1.70)", "="),
    },
    "Musk1": {
        "FSIPSO": ("16.9 (2.4)", "", "86.11", "82.85 (2.51)", ""),
        "SFS": ("10.0", "-", "79.86", "79.86", "+"),
        "SBS": ("122.0", "+", "80.56", "80.56", "+"),
        "PSO(C)": ("63.3 (7.7)", "+", "89.58?", "84.21 (2.05)", "="),
        "PSO(4-2)": ("67.6 (24.8)", "+", "91.67", "84.86 (3.42)", "= or -"),
        "CSO(C)": ("65.1 (5.9)?", "+", "91.67", "87.66 (3.25)?", "-"),
        "CSO(A)": ("78.2 (6.1)", "+", "92.36?", "88.20 (2.18)", "-"),
        "UBPSO": ("64.2 (5.9)", "+", "93.06", "87.89 (2.43)", "-"),
        "SBPSO": ("67.4 (6.2)", "+", "92.36", "87.57 (2.12)", "-"),
    },
    "LSVT": {
        "FSIPSO": ("15.4 (6.2)", "", "94.87", "87.69 (3.65)", ""),
        "SFS": ("4.0", "-", "76.92", "76.92", "+"),
        "SBS": ("55.0", "+", "84.61", "84.61", "+"),
        "PSO(C)": ("106.1 (7.9)", "+", "89.74", "83.93 (3.01)", "+"),
        "PSO(4-2)": ("100.5 (57.9)", "+", "92.31", "84.53 (4.01)", "+"),
        "CSO(C)": ("113.2 (8.6)", "+", "92.31", "86.41 (3.10)", "="),
        "CSO(A)": ("152.9 (7.1)", "+", "89.74", "84.79 (3.86)", "+"),
        "UBPSO": ("142.1 (8.5)", "+", "89.74", "83.42 (3.01)", "+"),
        "SBPSO": ("135.5 (9.2?)", "+", "92.31", "84.36 (3.18)", "+"),
    },
    "Isolet5": {
        "FSIPSO": ("101.8 (11.3)", "", "89.96", "88.13 (0.82)", ""),
        "SFS": ("35.0", "-", "85.68", "85.68", "+"),
        "SBS": ("N/A (> 4 days)", "", "", "", ""),
    },
    "Mfeat": {
        "FSIPSO": ("47.4 (5.3)", "", "98.50", "98.03 (0.30)", ""),
        "SFS": ("11.0", "-", "97.67", "97.67", "+"),
        "SBS": ("N/A (> 4 days)", "", "", "", ""),
    },
}

HEADER = ["dataset", "method", "#F ours", "#F paper", "T_f ours", "T_f paper", "BestA ours",
          "BestA paper", "MeanA (std) ours", "MeanA (std) paper", "T_a ours", "T_a paper",
          "seconds/run"]


def _mean_std(values, digits):
    v = np.asarray(values, dtype=float)
    if v.size == 1 or np.all(v == v[0]):
        return f"{v.mean():.{digits}f}"
    return f"{v.mean():.{digits}f} ({v.std(ddof=1):.{digits}f})"


def rows_of(directory):
    """Markdown rows (lists of str) of one study directory."""
    results = load_results(directory)
    tables = summary_tables(results)
    rows = []
    order = list(PAPER_NAMES)
    for dataset in sorted(results.datasets, key=lambda d: order.index(d) if d in order else 99):
        paper = PAPER.get(PAPER_NAMES.get(dataset, dataset), {})
        header, table = tables[dataset]
        # the paper's signs compare FSIPSO with each method: show ours only against FSIPSO
        ours = results.spec["reference"] == "FSIPSO"
        signs = {row[0].replace(" (reference)", ""): (row[2] if ours else "",
                                                      row[5] if ours else "", row[8])
                 for row in table[1:]}
        for label in results.labels:
            runs = results.runs_of(dataset, label)
            if not runs:
                continue
            sizes = [len(r["features"][0]) for r in runs]
            tests = [100 * r["score_test"][0] for r in runs]
            t_f, t_a, seconds = signs[label]
            p = paper.get(label, ("",) * 5)
            name = f"{label} ({len(runs)} runs)"
            rows.append([dataset, name, _mean_std(sizes, 1), p[0], t_f, p[1],
                         f"{max(tests):.2f}", p[2], _mean_std(tests, 2), p[3], t_a, p[4],
                         seconds])
    return rows


def main(directories):
    print(markdown_table(HEADER, [row for d in directories for row in rows_of(d)]))


if __name__ == "__main__":
    main(sys.argv[1:])
