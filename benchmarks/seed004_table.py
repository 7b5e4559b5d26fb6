"""Seed 004's Tables 3-5 from study directories, with the paper's numbers beside ours.

Usage::

    pymoo-fs study benchmarks/seed004/yale.toml --out STUDY/yale --jobs 1
    python benchmarks/seed004_table.py STUDY/yale [STUDY/warpar10p ...] > table.md

For each dataset and algorithm: mean (std) test accuracy of 5-NN over the outer folds, mean
(std) number of selected features, the Wilcoxon signed-rank signs against CEPSO-FL (paired by
fold; ``+`` = CEPSO-FL significantly better: higher accuracy, fewer features; from
:func:`pymoo_fs.studies.report.summary_tables`), mean seconds per run, the number of runs
(folds) behind each cell; and the paper's Table 3 (test accuracy), Table 4 (features) and
Table 5 (minutes, as printed) (spec §10.5), for all seven methods of the paper: BPSO,
BVDPSO, CSO, BBPSO-ACJ, VLPSO, HFS-C-P and CEPSO-FL. A second table counts, per method, how
many of the paper's signs ours reproduce (accuracy and size).

A dataset named ``make_classification_500x500_*`` (benchmarks/relevance_ranking.py's
reproduction of the 500 x 500 two-class dataset of the paper's Table 1, Madelon) is printed
beside the paper's Madelon row.
"""

import sys

import numpy as np

from _results import markdown_table

from pymoo_fs.studies.report import load_results, summary_tables

#: dataset -> paper method -> (test accuracy (sign), features (sign), minutes): S004 Tables
#: 3-5 as spec §10.5 prints them; signs are CEPSO-FL against the method
PAPER = {
    "madelon": {
        "BPSO": ("0.690(+)", "309.5(+)", "64.4"),
        "BVDPSO": ("0.694(+)", "321.8(+)", "64.5"),
        "CSO": ("0.720(+)", "157.9(+)", "62.9"),
        "BBPSO-ACJ": ("0.706(+)", "197.8(+)", "50.9"),
        "VLPSO": ("0.720(+)", "87.8(+)", "26.6"),
        "HFS-C-P": ("0.748(=)", "83.8(+)", "53.5"),
        "CEPSO-FL": ("0.780", "8.3", "52.2"),
    },
    "isolet": {
        "BPSO": ("0.878(-)", "377.2(+)", "78.7"),
        "BVDPSO": ("0.882(-)", "385.8(+)", "79.9"),
        "CSO": ("0.874(-)", "356.7(+)", "145.9"),
        "BBPSO-ACJ": ("0.890(-)", "273.0(+)", "65.6"),
        "VLPSO": ("0.878(-)", "187.5(+)", "40.1"),
        "HFS-C-P": ("0.828(=)", "238.2(+)", "148.1"),
        "CEPSO-FL": ("0.834", "78.3", "72.7"),
    },
    "coil20": {
        "BPSO": ("0.906(=)", "620.3(+)", "136.8"),
        "BVDPSO": ("0.914(=)", "595.5(+)", "127.9"),
        "CSO": ("0.910(=)", "260.8(+)", "143.0"),
        "BBPSO-ACJ": ("0.922(-)", "288.1(+)", "112.1"),
        "VLPSO": ("0.890(=)", "287.8(+)", "51.9"),
        "HFS-C-P": ("0.898(=)", "394.4(+)", "178.2"),
        "CEPSO-FL": ("0.892", "78.7", "112.6"),
    },
    "yale": {
        "BPSO": ("0.535(=)", "626.5(+)", "15.2"),
        "BVDPSO": ("0.541(=)", "602.9(+)", "14.7"),
        "CSO": ("0.535(=)", "412.5(+)", "16.2"),
        "BBPSO-ACJ": ("0.541(=)", "376.7(+)", "12.1"),
        "VLPSO": ("0.518(=)", "330.4(+)", "7.2"),
        "HFS-C-P": ("0.547(=)", "625.4(+)", "23.6"),
        "CEPSO-FL": ("0.582", "90.2", "13.2"),
    },
    "orl": {
        "BPSO": ("0.903(=)", "629.4(+)", "83.8"),
        "BVDPSO": ("0.883(=)", "649.9(+)", "87.3"),
        "CSO": ("0.900(=)", "713.2(+)", "102.5"),
        "BBPSO-ACJ": ("0.898(=)", "505.5(+)", "73.4"),
        "VLPSO": ("0.873(=)", "390.0(+)", "47.8"),
        "HFS-C-P": ("0.903(=)", "874.2(+)", "195.8"),
        "CEPSO-FL": ("0.878", "100.6", "80.0"),
    },
    "warpar10p": {
        "BPSO": ("0.531(+)", "1485.2(+)", "39.0"),
        "BVDPSO": ("0.538(+)", "1431.4(+)", "57.7"),
        "CSO": ("0.600(=)", "442.1(+)", "29.8"),
        "BBPSO-ACJ": ("0.600(=)", "126.1(+)", "27.6"),
        "VLPSO": ("0.569(=)", "478.8(+)", "10.4"),
        "HFS-C-P": ("0.654(=)", "565.9(+)", "23.3"),
        "CEPSO-FL": ("0.669", "19.5", "15.8"),
    },
    "lung": {
        "BPSO": ("0.914(=)", "2048.7(+)", "210.3"),
        "BVDPSO": ("0.919(=)", "1829.0(+)", "183.2"),
        "CSO": ("0.910(=)", "1401.4(+)", "160.6"),
        "BBPSO-ACJ": ("0.919(=)", "1086.1(+)", "104.9"),
        "VLPSO": ("0.895(=)", "743.1(=)", "51.2"),
        "HFS-C-P": ("0.867(+)", "19.1(-)", "50.1"),
        "CEPSO-FL": ("0.910", "373.8", "61.7"),
    },
    "lymphoma": {
        "BPSO": ("0.810(=)", "2356.7(+)", "65.0"),
        "BVDPSO": ("0.810(=)", "2219.4(+)", "62.6"),
        "CSO": ("0.800(=)", "1402.8(+)", "50.4"),
        "BBPSO-ACJ": ("0.830(=)", "1382.1(+)", "36.8"),
        "VLPSO": ("0.820(=)", "1135.5(+)", "13.9"),
        "HFS-C-P": ("0.810(=)", "508.9(+)", "33.3"),
        "CEPSO-FL": ("0.790", "187.5", "16.2"),
    },
    "glioma": {
        "BPSO": ("0.760(=)", "2611.1(+)", "20.1"),
        "BVDPSO": ("0.800(=)", "2402.5(+)", "20.5"),
        "CSO": ("0.740(=)", "1566.6(+)", "15.4"),
        "BBPSO-ACJ": ("0.800(=)", "1932.5(+)", "11.2"),
        "VLPSO": ("0.740(=)", "389.1(+)", "6.1"),
        "HFS-C-P": ("0.700(=)", "9.5(-)", "4.0"),
        "CEPSO-FL": ("0.740", "86.1", "4.2"),
    },
    "brain_tumor1": {
        "BPSO": ("0.856(=)", "3547.0(+)", "84.6"),
        "BVDPSO": ("0.822(=)", "3403.1(+)", "96.4"),
        "CSO": ("0.844(=)", "3009.3(+)", "66.8"),
        "BBPSO-ACJ": ("0.844(=)", "1348.6(+)", "51.9"),
        "VLPSO": ("0.856(=)", "1375.8(+)", "28.6"),
        "HFS-C-P": ("0.867(=)", "1452.8(+)", "66.8"),
        "CEPSO-FL": ("0.822", "191.2", "19.4"),
    },
    "prostate_ge": {
        "BPSO": ("0.773(=)", "3667.2(+)", "113.4"),
        "BVDPSO": ("0.782(=)", "3392.2(+)", "113.5"),
        "CSO": ("0.755(+)", "2186.7(+)", "88.5"),
        "BBPSO-ACJ": ("0.736(+)", "1043.9(+)", "64.9"),
        "VLPSO": ("0.764(=)", "1474.4(+)", "37.8"),
        "HFS-C-P": ("0.818(=)", "12.1(-)", "21.7"),
        "CEPSO-FL": ("0.809", "63.0", "24.1"),
    },
    "leukemia2": {
        "BPSO": ("0.750(=)", "4399.9(+)", "70.9"),
        "BVDPSO": ("0.750(=)", "4234.6(+)", "68.1"),
        "CSO": ("0.750(=)", "3219.4(+)", "44.7"),
        "BBPSO-ACJ": ("0.738(=)", "2523.4(+)", "38.8"),
        "VLPSO": ("0.738(=)", "2150.6(+)", "28.5"),
        "HFS-C-P": ("0.763(=)", "607.0(+)", "28.9"),
        "CEPSO-FL": ("0.775", "221.7", "16.1"),
    },
}

#: our labels -> the paper's column names
PAPER_NAME = {"CSO(C)": "CSO"}

HEADER = ["dataset", "method", "runs", "test acc ours", "T_a", "test acc paper (sign)",
          "#F ours", "T_f", "#F paper (sign)", "evaluations", "s/run ours",
          "min paper (Tab. 5)"]
AGREEMENT_HEADER = ["method", "accuracy signs agreeing", "size signs agreeing", "both",
                    "datasets"]


def paper_row(dataset):
    """The paper's rows of a dataset name (Madelon for the make_classification reproduction)."""
    if dataset.startswith("make_classification_500x500"):
        return PAPER["madelon"]
    return PAPER.get(dataset, {})


def _mean_std(values, digits):
    v = np.asarray(values, dtype=float)
    return f"{v.mean():.{digits}f} ({v.std(ddof=1):.{digits}f})" if v.size > 1 else \
        f"{v.mean():.{digits}f}"


def _sign(cell):
    """The sign in a paper cell such as ``0.690(+)``; None for the reference's cell."""
    return cell[cell.index("(") + 1] if "(" in cell else None


def rows_of(directory):
    """Markdown rows (lists of str) of one study directory, and its sign comparisons.

    Returns
    -------
    rows : list of list of str
    signs : list of (method, dataset, ours_acc, paper_acc, ours_size, paper_size)
    """
    results = load_results(directory)
    tables = summary_tables(results)
    rows, signs = [], []
    for dataset in results.datasets:
        header, table = tables[dataset]
        col = {name: header.index(name) for name in ("T_f", "T_a", "seconds")}
        ours = {row[0].replace(" (reference)", ""): row for row in table[1:]}
        for label in results.labels:
            runs = results.runs_of(dataset, label)
            if not runs:
                continue
            row = ours[label]
            method = PAPER_NAME.get(label, label)
            paper = paper_row(dataset).get(method, ("", "", ""))
            rows.append([
                dataset, label, str(len(runs)),
                _mean_std([r["score_test"][0] for r in runs], 3), row[col["T_a"]], paper[0],
                _mean_std([len(r["features"][0]) for r in runs], 1), row[col["T_f"]], paper[1],
                f"{np.mean([r['n_eval'] for r in runs]):.0f}", row[col["seconds"]], paper[2]])
            if _sign(paper[0]) is not None and row[col["T_a"]]:
                signs.append((method, dataset, row[col["T_a"]], _sign(paper[0]),
                              row[col["T_f"]], _sign(paper[1])))
    return rows, signs


def agreement_rows(signs):
    """Per method: how many of the paper's accuracy and size signs ours reproduce."""
    out = []
    methods = list(dict.fromkeys(s[0] for s in signs))
    for method in methods + ["all"]:
        mine = [s for s in signs if method in ("all", s[0])]
        acc = sum(s[2] == s[3] for s in mine)
        size = sum(s[4] == s[5] for s in mine)
        both = sum(s[2] == s[3] and s[4] == s[5] for s in mine)
        n = len(mine)
        datasets = ", ".join(dict.fromkeys(s[1] for s in mine)) if method != "all" else ""
        out.append([method, f"{acc} of {n}", f"{size} of {n}", f"{both} of {n}", datasets])
    return out


def main(directories):
    rows, signs = [], []
    for d in directories:
        r, s = rows_of(d)
        rows += r
        signs += s
    print(markdown_table(HEADER, rows))
    print()
    print(markdown_table(AGREEMENT_HEADER, agreement_rows(signs)))


if __name__ == "__main__":
    main(sys.argv[1:])
