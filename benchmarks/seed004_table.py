"""Seed 004's Tables 3-5 from study directories, with the paper's numbers beside ours.

Usage::

    pymoo-fs study benchmarks/seed004/yale.toml --out STUDY/yale --jobs 1
    pymoo-fs report STUDY/yale
    python benchmarks/seed004_table.py STUDY/yale [STUDY/warpar10p ...] > table.md

For each dataset and algorithm: mean (std) test accuracy of 5-NN over the outer folds, mean
(std) number of selected features, the Wilcoxon signed-rank signs against CEPSO-FL (paired by
fold; ``+`` = CEPSO-FL significantly better: higher accuracy, fewer features; from
:func:`pymoo_fs.studies.report.summary_tables`), mean seconds per run; and the paper's Table 3
(test accuracy), Table 4 (features) and Table 5 (minutes, as printed) (spec §10.5).
"""

import sys

import numpy as np

from _results import markdown_table

from pymoo_fs.studies.report import load_results, summary_tables

#: dataset -> algorithm -> (test accuracy and sign, features and sign, minutes); spec §10.5
PAPER = {
    "isolet": {"BPSO": ("0.878 (-)", "377.2 (+)", "78.7"), "CSO(C)": ("0.874 (-)", "356.7 (+)", "145.9"),
               "VLPSO": ("0.878 (-)", "187.5 (+)", "40.1"), "CEPSO-FL": ("0.834", "78.3", "72.7")},
    "coil20": {"BPSO": ("0.906 (=)", "620.3 (+)", "136.8"), "CSO(C)": ("0.910 (=)", "260.8 (+)", "143.0"),
               "VLPSO": ("0.890 (=)", "287.8 (+)", "51.9"), "CEPSO-FL": ("0.892", "78.7", "112.6")},
    "yale": {"BPSO": ("0.535 (=)", "626.5 (+)", "15.2"), "CSO(C)": ("0.535 (=)", "412.5 (+)", "16.2"),
             "VLPSO": ("0.518 (=)", "330.4 (+)", "7.2"), "CEPSO-FL": ("0.582", "90.2", "13.2")},
    "orl": {"BPSO": ("0.903 (=)", "629.4 (+)", "83.8"), "CSO(C)": ("0.900 (=)", "713.2 (+)", "102.5"),
            "VLPSO": ("0.873 (=)", "390.0 (+)", "47.8"), "CEPSO-FL": ("0.878", "100.6", "80.0")},
    "warpar10p": {"BPSO": ("0.531 (+)", "1485.2 (+)", "39.0"),
                  "CSO(C)": ("0.600 (=)", "442.1 (+)", "29.8"),
                  "VLPSO": ("0.569 (=)", "478.8 (+)", "10.4"),
                  "CEPSO-FL": ("0.669", "19.5", "15.8")},
    "lymphoma": {"BPSO": ("0.810 (=)", "2356.7 (+)", "65.0"),
                 "CSO(C)": ("0.800 (=)", "1402.8 (+)", "50.4"),
                 "VLPSO": ("0.820 (=)", "1135.5 (+)", "13.9"),
                 "CEPSO-FL": ("0.790", "187.5", "16.2")},
}

HEADER = ["dataset", "method", "test acc ours", "T_a", "test acc paper (sign)", "#F ours",
          "T_f", "#F paper (sign)", "evaluations", "s/run ours", "min paper (Tab. 5)"]


def _mean_std(values, digits):
    v = np.asarray(values, dtype=float)
    return f"{v.mean():.{digits}f} ({v.std(ddof=1):.{digits}f})" if v.size > 1 else \
        f"{v.mean():.{digits}f}"


def rows_of(directory):
    """Markdown rows (lists of str) of one study directory."""
    results = load_results(directory)
    tables = summary_tables(results)
    rows = []
    for dataset in results.datasets:
        header, table = tables[dataset]
        col = {name: header.index(name) for name in ("T_f", "T_a", "seconds")}
        signs = {row[0].replace(" (reference)", ""): row for row in table[1:]}
        for label in results.labels:
            runs = results.runs_of(dataset, label)
            if not runs:
                continue
            row = signs[label]
            paper = PAPER.get(dataset, {}).get(label, ("", "", ""))
            rows.append([
                dataset, f"{label} ({len(runs)} folds)",
                _mean_std([r["score_test"][0] for r in runs], 3), row[col["T_a"]], paper[0],
                _mean_std([len(r["features"][0]) for r in runs], 1), row[col["T_f"]], paper[1],
                f"{np.mean([r['n_eval'] for r in runs]):.0f}", row[col["seconds"]], paper[2]])
    return rows


def main(directories):
    print(markdown_table(HEADER, [row for d in directories for row in rows_of(d)]))


if __name__ == "__main__":
    main(sys.argv[1:])
