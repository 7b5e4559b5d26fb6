"""Seed 001 (AMSO, GECCO 2019) reproduced: the S001 protocol on every S001 dataset we ship.

Steps, each resumable:

1. the studies (``pymoo-fs study``) of ``benchmarks/seed001/<dataset>.toml``: AMSO, PSO and
   CSO on FIT-B, 10 outer folds x ``runs`` (10), stored under
   ``--out/<dataset>``; with ``--cso``, ``<dataset>-cso.toml`` (CSO
   beside AMSO's run 0, the same runs as run 0 of ``<dataset>.toml``) for srbct, leukemia1
   and dlbcl, into the same directory;
2. the deterministic filters (LFS, CFS, FCBF, or those named by ``--filters``) on the same
   outer folds (same seed, same scaling), with 1-NN test accuracy, cached in
   ``<out>/<dataset>/filters.json``;
3. with ``--extras``, the study ``srbct-extras.toml`` (AMSO with the paper's inertia schedule,
   VLPSO) on the same folds;
4. the generated block of ``benchmarks/seed001.md`` (between its ``<!-- generated -->``
   markers; the rest of the file is written by hand and kept): per dataset of ``--datasets``
   (in the order of :data:`DATASETS`), every method
   beside the paper's Tables 3-6, test accuracy both as stored (plain 1-NN accuracy) and
   balanced (each run's subsets re-scored by 1-NN on its fold, cached in
   ``<out>/<dataset>/balanced.json``), the rank-sum sign of AMSO against each row with
   Vargha-Delaney A12 and the values on each side, and the paper's sign.

Run: ``python benchmarks/seed001.py --out /tmp/seed001 [--jobs 1] [--datasets a,b]
[--cso] [--extras] [--filters CFS,FCBF]`` (the studies take the longest; a stopped run
resumes). ``--report-only`` writes the Markdown from what is stored.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import balanced_accuracy_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.analysis.statistics import rank_sum
from pymoo_fs.filters import CFS, FCBF, LFS
from pymoo_fs.studies import load_study
from pymoo_fs.studies.protocols import load_dataset_cached, outer_splits, prepare_split
from pymoo_fs.studies.report import load_results

HERE = Path(__file__).resolve().parent
MD = HERE / "seed001.md"
BEGIN, END = "<!-- generated: begin -->", "<!-- generated: end -->"
#: Table 1's order (ascending #features), the ten less 11_Tumors and Lung_Cancer (not shipped)
DATASETS = ("srbct", "leukemia1", "dlbcl", "9_tumors", "brain_tumor1", "brain_tumor2",
            "prostate_tumor", "leukemia2")
#: the datasets whose main study (AMSO and PSO, 5 runs) ran on 2026-11-24 without CSO
WITH_CSO_SPEC = ("srbct", "leukemia1", "dlbcl")
FILTERS = {"LFS": LFS, "CFS": CFS, "FCBF": FCBF}
ROWS = ("Full", "PSO", "CSO", "VLPSO", "AMSO", "AMSO-w-linear", "LFS", "CFS", "FCBF")
#: the paper's rows (Tables 3-4: time in minutes; Tables 5-6: time in seconds; the last item
#: is the paper's sign of AMSO against the row), spec §10.2
PAPER = {
    "srbct": {"Full": ("-", 2308.0, 87.08, None, "+"),
              "PSO": ("8.2 min", 1119.4, 92.50, (89.51, 1.56), "+"),
              "CSO": ("19.9 min", 85.4, 100.00, (93.29, 3.52), "+"),
              "AMSO": ("2.0 min (121.2 s)", 63.7, 100.00, (99.75, 0.39), ""),
              "LFS": ("25.0 s", 7.1, 91.67, None, "+"), "CFS": ("243.3 s", 112.3, 99.17, None, "+"),
              "FCBF": ("1.4 s", 69.0, 98.75, None, "+")},
    "leukemia1": {"Full": ("-", 5327.0, 79.72, None, "+"),
                  "PSO": ("41.2 min", 2615.5, 87.36, (80.60, 2.55), "+"),
                  "CSO": ("251.8 min", 170.1, 96.81, (88.45, 3.90), "+"),
                  "AMSO": ("7.6 min (454.7 s)", 51.5, 97.64, (93.50, 1.84), ""),
                  "LFS": ("51.9 s", 5.4, 85.14, None, "+"),
                  "CFS": ("778.4 s", 79.4, 92.08, None, "+"),
                  "FCBF": ("1.4 s", 48.5, 89.86, None, "+")},
    "dlbcl": {"Full": ("-", 5469.0, 83.00, None, "+"),
              "PSO": ("47.6 min", 2681.0, 86.33, (83.67, 1.52), "+"),
              "CSO": ("394.8 min", 30.1, 100.00, (94.30, 4.05), "="),
              "AMSO": ("8.8 min (527.6 s)", 50.6, 99.17, (93.70, 2.59), ""),
              "LFS": ("56.3 s", 5.9, 83.33, None, "+"), "CFS": ("778.4 s", 86.3, 93.00, None, "="),
              "FCBF": ("1.6 s", 66.1, 94.83, None, "-")},
    "9_tumors": {"Full": ("-", 5726.0, 36.67, None, "+"),
                 "PSO": ("39.2 min", 2811.9, 45.00, (42.72, 1.42), "+"),
                 "CSO": ("373.4 min", 220.3, 68.33, (59.50, 3.72), "-"),
                 "AMSO": ("6.2 min (370.6 s)", 52.2, 60.00, (55.33, 3.46), ""),
                 "LFS": ("52.9 s", 9.7, 26.67, None, "+"),
                 "CFS": ("341.2 s", 44.0, 56.67, None, "-"),
                 "FCBF": ("1.7 s", 33.7, 55.00, None, "=")},
    "brain_tumor1": {"Full": ("-", 5920.0, 72.08, None, "+"),
                     "PSO": ("66.6 min", 2917.2, 77.08, (73.73, 2.21), "+"),
                     "CSO": ("462.1 min", 207.6, 86.67, (79.93, 3.09), "-"),
                     "AMSO": ("12.8 min (766.5 s)", 93.5, 85.00, (78.00, 3.24), ""),
                     "LFS": ("77.9 s", 12.2, 63.33, None, "+"),
                     "CFS": ("2973.0 s", 151.9, 76.67, None, "="),
                     "FCBF": ("2.8 s", 104.6, 73.75, None, "+")},
    "brain_tumor2": {"Full": ("-", 10367.0, 62.50, None, "+"),
                     "PSO": ("80.5 min", 5117.2, 67.08, (61.99, 2.91), "+"),
                     "CSO": ("950.8 min", 90.43, 90.83, (80.44, 6.28), "-"),
                     "AMSO": ("12.2 min (734.9 s)", 62.1, 84.17, (74.62, 3.87), ""),
                     "LFS": ("113.9 s", 9.1, 77.50, None, "-"),
                     "CFS": ("3182.2 s", 101.1, 77.50, None, "-"),
                     "FCBF": ("2.7 s", 66.2, 77.50, None, "-")},
    "prostate_tumor": {"Full": ("-", 10509.0, 85.33, None, "+"),
                       "PSO": ("160.6 min", 5193.7, 88.33, (86.00, 1.49), "+"),
                       "CSO": ("2369.9 min", 357.2, 95.17, (88.99, 2.68), "+"),
                       "AMSO": ("24.3 min (1457.3 s)", 49.9, 95.17, (92.61, 1.38), ""),
                       "LFS": ("158.2 s", 5.9, 90.17, None, "+"),
                       "CFS": ("2537.4 s", 80.4, 92.17, None, "="),
                       "FCBF": ("3.4 s", 66.1, 92.17, None, "=")},
    "leukemia2": {"Full": ("-", 11225.0, 89.44, None, "+"),
                  "PSO": ("120.6 min", 5535.7, 92.22, (89.83, 1.00), "+"),
                  "CSO": ("1845.2 min", 88.6, 98.33, (91.72, 3.16), "+"),
                  "AMSO": ("17.5 min (1048.6 s)", 57.2, 96.67, (94.85, 0.99), ""),
                  "LFS": ("143.4 s", 4.7, 89.44, None, "+"),
                  "CFS": ("5653.0 s", 129.5, 94.44, None, "+"),
                  "FCBF": ("4.1 s", 77.5, 95.56, None, "-")},
}


def run_studies(out, jobs, names=DATASETS, suffix=""):
    """Run (or resume) the studies ``<name><suffix>.toml`` into ``<out>/<name>``."""
    for name in names:
        spec = HERE / "seed001" / f"{name}{suffix}.toml"
        if not spec.exists():
            continue
        directory = Path(out) / (name if suffix in ("", "-cso") else f"{name}{suffix}")
        command = ["pymoo-fs", "study", str(spec), "--out", str(directory), "--jobs", str(jobs)]
        print("$", " ".join(command), flush=True)
        subprocess.run(command, check=True)


def _splits(name):
    """The study spec of a dataset, its data and its outer splits."""
    spec = load_study(HERE / "seed001" / f"{name}.toml", validate=False)
    data = load_dataset_cached(name, spec.data_dir)
    return spec, data, outer_splits(data.y, spec.protocol, spec.seed, data.name)


def _test_scores(X_train, y_train, X_test, y_test, features):
    """Plain and balanced test accuracy of 1-NN (Euclidean) on ``features``."""
    knn = KNeighborsClassifier(1, algorithm="brute").fit(X_train[:, features], y_train)
    predicted = knn.predict(X_test[:, features])
    return float(np.mean(predicted == y_test)), float(balanced_accuracy_score(y_test, predicted))


def run_filters(out, names=DATASETS, filters=tuple(FILTERS)):
    """The filters on every outer fold of each study (cached in filters.json)."""
    for name in names:
        path = Path(out) / name / "filters.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        done = json.loads(path.read_text()) if path.exists() else {}
        spec, data, splits = _splits(name)
        for fold, (train, test) in enumerate(splits):
            X_train, y_train, X_test, y_test = prepare_split(data.X, data.y, train, test,
                                                             spec.protocol)
            for label in filters:
                key = f"{label}/{fold}"
                if key in done:
                    continue
                start = time.perf_counter()
                support = FILTERS[label]().fit(X_train, y_train).get_support()
                seconds = time.perf_counter() - start
                features = np.flatnonzero(support)
                accuracy, balanced = _test_scores(X_train, y_train, X_test, y_test, features)
                done[key] = {"size": int(support.sum()), "accuracy": accuracy,
                             "balanced": balanced, "seconds": seconds,
                             "features": features.tolist()}
                print(f"{name} fold {fold} {label}: {support.sum()} features, test accuracy "
                      f"{accuracy:.4f}, {seconds:.1f} s", flush=True)
                path.write_text(json.dumps(done, indent=1))


def balanced_scores(out, name, records):
    """Balanced test accuracy of each stored run, keyed ``label/run/fold``.

    Each run's subset is re-scored by 1-NN trained on its fold's training part; the plain
    accuracy of the same predictions must equal the stored ``score_test`` (checked), so the
    balanced one is of the same predictions. Cached in ``<out>/<name>/balanced.json``.
    """
    path = Path(out) / name / "balanced.json"
    done = json.loads(path.read_text()) if path.exists() else {}
    missing = [r for r in records if f"{r['algorithm']}/{r['run']}/{r['fold']}" not in done]
    if missing:
        spec, data, splits = _splits(name)
        parts = {}
        for r in missing:
            fold = r["fold"]
            if fold not in parts:
                parts[fold] = prepare_split(data.X, data.y, *splits[fold], spec.protocol)
            accuracy, balanced = _test_scores(*parts[fold], np.asarray(r["features"][0]))
            if abs(accuracy - r["score_test"][0]) > 1e-9:
                raise RuntimeError(f"{name} {r['algorithm']} run {r['run']} fold {fold}: "
                                   f"re-scored accuracy {accuracy} != stored "
                                   f"{r['score_test'][0]}")
            done[f"{r['algorithm']}/{r['run']}/{fold}"] = balanced
        path.write_text(json.dumps(done, indent=1))
    return done


def _rows(out, name):
    """Per method: per-(run, fold) test accuracies (plain, balanced), sizes and seconds."""
    rows = {}
    for directory in (Path(out) / name, Path(out) / f"{name}-extras"):
        if (directory / "study.json").exists():
            found = _study_rows(out, directory, name)
            rows.update({k: v for k, v in found.items() if k not in rows})
    path = Path(out) / name / "filters.json"
    if path.exists():
        done = json.loads(path.read_text())
        spec, data, splits = None, None, None
        for label in FILTERS:
            items = {int(k.split("/")[1]): v for k, v in done.items()
                     if k.startswith(label + "/")}
            for fold, v in items.items():  # cached before the balanced score was kept
                if "balanced" not in v:
                    if spec is None:
                        spec, data, splits = _splits(name)
                    part = prepare_split(data.X, data.y, *splits[fold], spec.protocol)
                    v["balanced"] = _test_scores(*part, np.asarray(v["features"]))[1]
            if items:
                rows[label] = {"acc": {(0, f): v["accuracy"] for f, v in items.items()},
                               "bal": {(0, f): v["balanced"] for f, v in items.items()},
                               "size": [v["size"] for v in items.values()],
                               "seconds": [v["seconds"] for v in items.values()], "runs": 1}
        path.write_text(json.dumps(done, indent=1))
    return rows


def _study_rows(out, directory, name):
    results = load_results(directory)
    rows = {}
    folds = sorted({f for (d, f) in results.references if d == name})
    if folds:
        spec, data, splits = _splits(name)
        full = np.arange(data.X.shape[1])
        bal = {}
        for f in folds:
            part = prepare_split(data.X, data.y, *splits[f], spec.protocol)
            accuracy, bal[(0, f)] = _test_scores(*part, full)
            assert abs(accuracy - results.references[(name, f)]["score_test"]) < 1e-9
        rows["Full"] = {"acc": {(0, f): results.references[(name, f)]["score_test"]
                                for f in folds}, "bal": bal,
                        "size": [results.references[(name, folds[0])]["n_features"]],
                        "seconds": [], "runs": 1}
    records = [r for label in results.labels for r in results.runs_of(name, label)]
    balanced = balanced_scores(out, name, records) if records else {}
    for label in results.labels:
        runs = results.runs_of(name, label)
        if runs:
            rows[label] = {"acc": {(r["run"], r["fold"]): r["score_test"][0] for r in runs},
                           "bal": {(r["run"], r["fold"]): balanced[f"{label}/{r['run']}/"
                                                                   f"{r['fold']}"]
                                   for r in runs},
                           "size": [len(r["features"][0]) for r in runs],
                           "seconds": [r["seconds"] for r in runs],
                           "runs": len({r["run"] for r in runs}),
                           "n_eval": [r["n_eval"] for r in runs]}
    return rows


def _per_run(acc):
    """Mean test accuracy of each run over its folds (the paper's unit), in %."""
    runs = sorted({r for r, _ in acc})
    return np.array([100 * np.mean([v for (r, _), v in acc.items() if r == run])
                     for run in runs])


def _cells(rows, label, key, reference):
    """Runs x folds, best, mean ± std (%) and the sign of AMSO against the row on ``key``."""
    row = rows[label]
    per_run = _per_run(row[key])
    spread = (f"{per_run.mean():.2f} ± {per_run.std(ddof=1):.2f}" if per_run.size > 1
              else f"{per_run.mean():.2f}")
    sign = ""
    if label != "AMSO" and reference is not None:
        test = rank_sum(list(reference[key].values()), list(row[key].values()),
                        better="higher")
        sign = test.label()
    return per_run, spread, sign


def dataset_table(out, name):
    """The Markdown section of one dataset and its line of the summary, or None when nothing
    is stored.

    The summary is ``{"runs": AMSO's runs x folds, "amso": its mean ± std % (or "not run"),
    "signs": {row label: (our sign, the paper's sign)}}`` over the rows with both signs
    (plain accuracy).
    """
    rows = _rows(out, name)
    if not rows:
        return None
    amso = rows.get("AMSO")
    summary = {"runs": "-", "amso": "not run", "signs": {}}
    lines = [f"### {name}", "",
             "| method | runs x folds | time per run | size | best % | mean ± std % | S "
             "| balanced: best % | balanced: mean ± std % | balanced: S | paper: time "
             "| paper: size | paper: best | paper: mean ± std | paper: S |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    agree = {"acc": [], "bal": []}
    for label in ROWS:
        paper = PAPER[name].get(label)
        row = rows.get(label)
        if row is None and paper is None:
            continue
        if row is None:
            cells = ["not run"] + [""] * 8
        else:
            n_folds = len({f for _, f in row["acc"]})
            per_run, spread, sign = _cells(rows, label, "acc", amso)
            per_bal, spread_bal, sign_bal = _cells(rows, label, "bal", amso)
            seconds = f"{np.mean(row['seconds']):.1f} s" if row["seconds"] else "-"
            cells = [f"{row['runs']} x {n_folds}", seconds, f"{np.mean(row['size']):.1f}",
                     f"{per_run.max():.2f}", spread, sign, f"{per_bal.max():.2f}",
                     spread_bal, sign_bal]
            if paper is not None and paper[4] and sign:
                agree["acc"].append(sign[0] == paper[4])
                agree["bal"].append(sign_bal[0] == paper[4])
                summary["signs"][label] = (sign[0], paper[4])
            if label == "AMSO":
                summary["runs"], summary["amso"] = cells[0], spread
        if paper is None:
            paper_cells = ["-"] * 5
        else:
            spread = "-" if paper[3] is None else f"{paper[3][0]:.2f} ± {paper[3][1]:.2f}"
            paper_cells = [paper[0], f"{paper[1]:.1f}", f"{paper[2]:.2f}", spread, paper[4]]
        lines.append("| " + " | ".join([label] + cells + paper_cells) + " |")
    lines.append("")
    if "AMSO" in rows and "PSO" in rows:
        ratio = np.mean(rows["AMSO"]["size"]) / np.mean(rows["PSO"]["size"])
        lines.append(f"AMSO selects {100 * ratio:.1f} % of the features PSO selects "
                     f"(paper: {100 * PAPER[name]['AMSO'][1] / PAPER[name]['PSO'][1]:.1f} %). ")
    if agree["acc"]:
        lines.append(f"Signs as the paper's: {sum(agree['acc'])} of {len(agree['acc'])} on "
                     f"plain accuracy, {sum(agree['bal'])} of {len(agree['bal'])} on balanced "
                     "accuracy.")
    lines.append("")
    return "\n".join(lines), summary


def summary_table(summaries):
    """Markdown lines: per dataset, AMSO's runs and mean beside the paper's, and each sign of
    AMSO against a row, ours then the paper's (plain accuracy; "n/a": the row is not stored
    or the paper gives no sign)."""
    groups = (("Full", "PSO", "CSO"), ("LFS", "CFS", "FCBF"))
    lines = ["| dataset | AMSO runs x folds | AMSO mean ± std % | paper | "
             "vs Full, PSO, CSO: ours / paper | vs LFS, CFS, FCBF: ours / paper | "
             "signs as the paper's |", "|---|---|---|---|---|---|---|"]
    total = agree = 0
    for name, summary in summaries:
        signs = summary["signs"]
        cells = []
        for group in groups:
            cells.append(", ".join(f"{signs[label][0]} / {signs[label][1]}" if label in signs
                                   else "n/a" for label in group))
        same = sum(ours == paper for ours, paper in signs.values())
        total, agree = total + len(signs), agree + same
        paper = PAPER[name]["AMSO"][3]
        lines.append(f"| {name} | {summary['runs']} | {summary['amso']} | "
                     f"{paper[0]:.2f} ± {paper[1]:.2f} | {cells[0]} | {cells[1]} | "
                     f"{same} of {len(signs)} |")
    lines += ["", f"Over these datasets: {agree} of {total} signs as the paper's (plain "
              "accuracy; each dataset's table gives A12, the values on each side and the "
              "balanced accuracy).", ""]
    return lines


def write_report(out, command, names=DATASETS):
    """Replace the generated block of seed001.md by the tables of what ``out`` holds."""
    lines = [BEGIN, "", f"Tables written by `{command}` on {time.strftime('%Y-%m-%d')} "
             f"({platform.machine()}, {os.cpu_count()} cores shared with other engineers' jobs, "
             f"load average now {os.getloadavg()[0]:.1f}; Python {platform.python_version()}).",
             "", "Columns: runs x folds (each run is one search per outer fold); time per "
             "run = mean wall-clock seconds of one search on one fold (measured under load, "
             "see the notes); size = mean selected features over runs and folds; best % and "
             "mean ± std % over runs of each run's mean test accuracy over the folds (the "
             "paper's unit); the same for the balanced test accuracy (mean over classes of the "
             "recall, the same 1-NN predictions); S = Wilcoxon rank-sum of AMSO against the "
             "row on the per-fold test accuracies (runs x folds; deterministic rows one value "
             "per fold), `+` AMSO significantly better at 0.05, `=` no significant "
             "difference, `-` worse, followed by Vargha-Delaney A12 (the probability that an "
             "AMSO value beats the row's, ties half) and the values on each side (AMSO/row); "
             "paper: Tables 3-6 of seed 001 and its sign of AMSO against the row.", ""]
    sections, summaries = [], []
    for name in names:
        table = dataset_table(out, name)
        if table is not None:
            sections.append(table[0])
            summaries.append((name, table[1]))
    if summaries:
        lines += ["### Summary over the datasets", ""] + summary_table(summaries)
    lines += sections
    lines.append(END)
    block = "\n".join(lines)
    text = MD.read_text() if MD.exists() else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    MD.write_text(text)
    print(f"wrote {MD}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/seed001", help="directory of the studies")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--datasets", default=",".join(DATASETS),
                        help="comma-separated datasets to run and to report (default: all "
                             "shipped)")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--filters", default=",".join(FILTERS),
                        help="comma-separated filters to run (empty: none)")
    parser.add_argument("--cso", action="store_true",
                        help="also run <dataset>-cso.toml (CSO beside AMSO's run 0)")
    parser.add_argument("--extras", action="store_true",
                        help="also run srbct-extras.toml (AMSO-w-linear, VLPSO)")
    args = parser.parse_args(argv)
    names = [n for n in args.datasets.split(",") if n]
    unknown = sorted(set(names) - set(DATASETS))
    if unknown:
        parser.error(f"unknown datasets {unknown}; choose from {list(DATASETS)}")
    if not names:  # an empty report would replace every table of seed001.md
        parser.error(f"--datasets names no dataset; choose from {list(DATASETS)}")
    names = [n for n in DATASETS if n in names]
    if not args.report_only:
        run_studies(args.out, args.jobs, names)
        if args.cso:
            run_studies(args.out, args.jobs, names, "-cso")
        filters = [f for f in args.filters.split(",") if f]
        if filters:
            run_filters(args.out, names, filters)
        if args.extras:
            run_studies(args.out, args.jobs, ("srbct",), "-extras")
    write_report(args.out, "python benchmarks/seed001.py "
                 + " ".join(argv if argv is not None else sys.argv[1:]), names)


if __name__ == "__main__":
    main()
