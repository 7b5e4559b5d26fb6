"""Seed 001 (AMSO, GECCO 2019) reproduced: the S001 protocol on srbct, leukemia1 and dlbcl.

Four steps, each resumable:

1. the studies (``pymoo-fs study``) of ``benchmarks/seed001/<dataset>.toml``: AMSO and PSO on
   FIT-B, 10 outer folds x ``runs``, stored under ``--out``;
2. the deterministic filters (LFS, CFS, FCBF) on the same outer folds (same seed, same
   scaling), with 1-NN test accuracy, cached in ``<out>/<dataset>/filters.json``;
3. with ``--extras``, the study ``srbct-extras.toml`` (AMSO with the paper's inertia schedule,
   VLPSO) on the same folds;
4. ``benchmarks/seed001.md``: per dataset, every method beside the paper's Tables 3-6.

Run: ``python benchmarks/seed001.py --out /tmp/seed001 [--jobs 2] [--extras]`` (the studies
take the longest; a stopped run resumes). ``--report-only`` writes the Markdown from what is
stored.
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
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.analysis.statistics import rank_sum
from pymoo_fs.filters import CFS, FCBF, LFS
from pymoo_fs.studies import load_study
from pymoo_fs.studies.protocols import load_dataset_cached, outer_splits, prepare_split
from pymoo_fs.studies.report import load_results

HERE = Path(__file__).resolve().parent
DATASETS = ("srbct", "leukemia1", "dlbcl")
FILTERS = {"LFS": LFS, "CFS": CFS, "FCBF": FCBF}
#: the paper's rows (Tables 3-4: time in minutes; Tables 5-6: time in seconds), §10.2
PAPER = {
    "srbct": {"Full": ("-", 2308.0, 87.08, None), "PSO": ("8.2 min", 1119.4, 92.50, (89.51, 1.56)),
              "CSO": ("19.9 min", 85.4, 100.00, (93.29, 3.52)),
              "AMSO": ("2.0 min (121.2 s)", 63.7, 100.00, (99.75, 0.39)),
              "LFS": ("25.0 s", 7.1, 91.67, None), "CFS": ("243.3 s", 112.3, 99.17, None),
              "FCBF": ("1.4 s", 69.0, 98.75, None)},
    "leukemia1": {"Full": ("-", 5327.0, 79.72, None),
                  "PSO": ("41.2 min", 2615.5, 87.36, (80.60, 2.55)),
                  "CSO": ("251.8 min", 170.1, 96.81, (88.45, 3.90)),
                  "AMSO": ("7.6 min (454.7 s)", 51.5, 97.64, (93.50, 1.84)),
                  "LFS": ("51.9 s", 5.4, 85.14, None), "CFS": ("778.4 s", 79.4, 92.08, None),
                  "FCBF": ("1.4 s", 48.5, 89.86, None)},
    "dlbcl": {"Full": ("-", 5469.0, 83.00, None), "PSO": ("47.6 min", 2681.0, 86.33, (83.67, 1.52)),
              "CSO": ("394.8 min", 30.1, 100.00, (94.30, 4.05)),
              "AMSO": ("8.8 min (527.6 s)", 50.6, 99.17, (93.70, 2.59)),
              "LFS": ("56.3 s", 5.9, 83.33, None), "CFS": ("778.4 s", 86.3, 93.00, None),
              "FCBF": ("1.6 s", 66.1, 94.83, None)},
}


def run_studies(out, jobs, names=DATASETS):
    """Run (or resume) studies with the command line."""
    for name in names:
        spec = HERE / "seed001" / f"{name}.toml"
        command = ["pymoo-fs", "study", str(spec), "--out", str(Path(out) / name), "--jobs",
                   str(jobs)]
        print("$", " ".join(command), flush=True)
        subprocess.run(command, check=True)


def run_filters(out):
    """LFS, CFS and FCBF on every outer fold of each study (cached in filters.json)."""
    for name in DATASETS:
        path = Path(out) / name / "filters.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        done = json.loads(path.read_text()) if path.exists() else {}
        spec = load_study(HERE / "seed001" / f"{name}.toml", validate=False)
        data = load_dataset_cached(name, spec.data_dir)
        splits = outer_splits(data.y, spec.protocol, spec.seed, data.name)
        for fold, (train, test) in enumerate(splits):
            X_train, y_train, X_test, y_test = prepare_split(data.X, data.y, train, test,
                                                             spec.protocol)
            for label, factory in FILTERS.items():
                key = f"{label}/{fold}"
                if key in done:
                    continue
                start = time.perf_counter()
                support = factory().fit(X_train, y_train).get_support()
                seconds = time.perf_counter() - start
                knn = KNeighborsClassifier(1, algorithm="brute").fit(X_train[:, support],
                                                                      y_train)
                accuracy = float(np.mean(knn.predict(X_test[:, support]) == y_test))
                done[key] = {"size": int(support.sum()), "accuracy": accuracy,
                             "seconds": seconds, "features": np.flatnonzero(support).tolist()}
                print(f"{name} fold {fold} {label}: {support.sum()} features, test accuracy "
                      f"{accuracy:.4f}, {seconds:.1f} s", flush=True)
                path.write_text(json.dumps(done, indent=1))


def _rows(out, name):
    """Per method: per-(run, fold) test accuracies, sizes and seconds."""
    rows = _study_rows(Path(out) / name, name)
    extras = Path(out) / f"{name}-extras"
    if (extras / "study.json").exists():
        rows.update({k: v for k, v in _study_rows(extras, name).items() if k != "Full"})
    path = Path(out) / name / "filters.json"
    if path.exists():
        done = json.loads(path.read_text())
        for label in FILTERS:
            items = {int(k.split("/")[1]): v for k, v in done.items()
                     if k.startswith(label + "/")}
            if items:
                rows[label] = {"acc": {(0, f): v["accuracy"] for f, v in items.items()},
                               "size": [v["size"] for v in items.values()],
                               "seconds": [v["seconds"] for v in items.values()], "runs": 1}
    return rows


def _study_rows(directory, name):
    results = load_results(directory)
    rows = {}
    folds = sorted({f for (d, f) in results.references if d == name})
    rows["Full"] = {"acc": {(0, f): results.references[(name, f)]["score_test"] for f in folds},
                    "size": [results.references[(name, folds[0])]["n_features"]],
                    "seconds": [], "runs": 1}
    for label in results.labels:
        runs = results.runs_of(name, label)
        if runs:
            rows[label] = {"acc": {(r["run"], r["fold"]): r["score_test"][0] for r in runs},
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


def write_report(out, command):
    lines = ["# Seed 001 reproduced: AMSO vs PSO and the filters (S001 protocol)", "",
             f"Written by `{command}` on {time.strftime('%Y-%m-%d')}.", "",
             f"- Machine: {platform.machine()}, {os.cpu_count()} cores shared with other "
             f"engineers' jobs (load average now {os.getloadavg()[0]:.1f}); Python "
             f"{platform.python_version()}.",
             "- Protocol S001 (`pymoo_fs.studies.spec.PRESETS['S001']`): outer stratified "
             "10-fold CV; min-max scaling fitted on each training fold; FIT-B (mu = 0.8, "
             "1-NN balanced accuracy pooled over 10 contiguous stratified blocks + the "
             "distance term) on the training fold; SU ranking recomputed on each training "
             "fold; test accuracy of 1-NN (Euclidean) trained on the training fold.",
             "- AMSO: the paper's settings (swarm D/20 capped at 300 (30 if <= 100), 13 "
             "subswarms, beta 7, c 1.49445, theta 0.6, local search of 100 tries on the code's "
             "schedule) with w = 0.9 throughout, as the authors' code runs it (its integer "
             "division; the paper's Table 2 says 0.9 -> 0.4, the row AMSO-w-linear, srbct "
             "only, `srbct-extras.toml`). PSO: seed 001's baseline (swarm D/20, w 0.9, c "
             "1.49445, vmax 0.6, better-or-fewer personal bests). VLPSO: 12 divisions, FIT-B "
             "(srbct only, `srbct-extras.toml`). 100 "
             "iterations (`n_gen = 101`). CSO (Gu et al.'s code in the paper) is not "
             "implemented here: its row shows the paper only.",
             "- Accuracy: per run, the mean test accuracy over the 10 folds (%); Best and "
             "Mean ± Std over runs, as the paper's Tables 3-4. Size: mean selected features "
             "over runs and folds. Time: mean wall-clock seconds of one run on one fold (the "
             "paper's unit in Tables 5-6), cache emptied before each run.",
             "- S: Wilcoxon rank-sum test (alpha 0.05) of AMSO against the row on the per-fold "
             "test accuracies (runs x folds; the deterministic rows give one value per fold): "
             "`+` AMSO significantly better, `=` no significant difference, `-` worse. The "
             "paper's S column is its AMSO-vs-row sign.", ""]
    for name in DATASETS:
        if not (Path(out) / name / "study.json").exists():
            continue
        rows = _rows(out, name)
        amso = list(rows.get("AMSO", {}).get("acc", {}).values())
        lines += [f"## {name}", "",
                  "| method | runs x folds | time per run | size | best % | mean ± std % | S "
                  "| paper: time | paper: size | paper: best | paper: mean ± std |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for label in ("Full", "PSO", "CSO", "VLPSO", "AMSO", "AMSO-w-linear", "LFS", "CFS",
                      "FCBF"):
            paper = PAPER[name].get(label)
            row = rows.get(label)
            if row is None and paper is None:
                continue
            if row is None:
                cells = ["not run", "", "", "", "", ""]
            else:
                per_run = _per_run(row["acc"])
                n_folds = len({f for _, f in row["acc"]})
                spread = f"{per_run.mean():.2f} ± {per_run.std(ddof=1):.2f}" \
                    if per_run.size > 1 else f"{per_run.mean():.2f}"
                seconds = f"{np.mean(row['seconds']):.1f} s" if row["seconds"] else "-"
                sign = "" if label == "AMSO" or not amso else rank_sum(
                    amso, list(row["acc"].values()), better="higher").sign
                cells = [f"{row['runs']} x {n_folds}", seconds, f"{np.mean(row['size']):.1f}",
                         f"{per_run.max():.2f}", spread, sign]
            if paper is None:
                paper_cells = ["-", "-", "-", "-"]
            else:
                spread = "-" if paper[3] is None else f"{paper[3][0]:.2f} ± {paper[3][1]:.2f}"
                paper_cells = [paper[0], f"{paper[1]:.1f}", f"{paper[2]:.2f}", spread]
            lines.append("| " + " | ".join([label] + cells + paper_cells) + " |")
        if "AMSO" in rows and "PSO" in rows:
            ratio = np.mean(rows["AMSO"]["size"]) / np.mean(rows["PSO"]["size"])
            lines += ["", f"AMSO selects {100 * ratio:.1f} % of the features PSO selects "
                          f"(paper: {100 * PAPER[name]['AMSO'][1] / PAPER[name]['PSO'][1]:.1f} "
                          f"%)."]
        lines.append("")
    (HERE / "seed001.md").write_text("\n".join(lines))
    print(f"wrote {HERE / 'seed001.md'}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/seed001", help="directory of the studies")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--skip-filters", action="store_true")
    parser.add_argument("--extras", action="store_true",
                        help="also run srbct-extras.toml (AMSO-w-linear, VLPSO)")
    args = parser.parse_args(argv)
    if not args.report_only:
        run_studies(args.out, args.jobs)
        if not args.skip_filters:
            run_filters(args.out)
        if args.extras:
            run_studies(args.out, args.jobs, ("srbct-extras",))
    write_report(args.out, "python benchmarks/seed001.py " + " ".join(argv or sys.argv[1:]))


if __name__ == "__main__":
    main()
