"""Seed 003's statements checked on a finished study (see benchmarks/seed003.toml).

Usage::

    pymoo-fs study benchmarks/seed003.toml --out STUDY
    python benchmarks/seed003_summary.py STUDY [STUDY ...]

Prints, per dataset and algorithm, the mean and standard deviation over the runs of the
hypervolume of the training and test fronts (reference point (1, 1)), the run time and the
evaluations, and whether the best and average fronts beat all features; then the table of
**checks**: every qualitative statement of seed 003 (spec §10.4) about a dataset we ship,
evaluated on seed 003's "best" and "average" fronts of the pooled runs (§7.4) and printed as
held / not held with what was measured. The statements and the rule that decides each are in
:data:`CHECKS` (one :class:`Check` per statement; a statement about a dataset or an algorithm
the study lacks prints "not run"). Several study directories may be given: each dataset is
read from the first that holds it.
"""

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pymoo_fs.analysis import average_front, best_front, hypervolume  # noqa: E402
from pymoo_fs.studies.report import load_results  # noqa: E402


def summary(directory):
    results = load_results(directory)
    lines = []
    for dataset in results.datasets:
        refs = [v for (d, _), v in results.references.items() if d == dataset]
        full_train = 1 - np.mean([r["score_train"] for r in refs])
        full_test = 1 - np.mean([r["score_test"] for r in refs])
        n_features = results.runs_of(dataset, results.labels[0])[0]["n_features"]
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
@dataclass(frozen=True)
class Check:
    """One statement of seed 003 (spec §10.4) and the rule that decides it.

    Attributes
    ----------
    dataset : str
        The dataset it is about, or ``"all"`` (every dataset of the study).
    statement : str
        The statement, as the spec gives it, and the rule that decides it.
    decide : callable
        ``decide(fronts) -> (held, measured)``: ``fronts`` maps an algorithm label to its
        runs' ``(train, test, full_train_error, full_test_error, n_features)`` (``train`` and
        ``test`` lists of per-run fronts, columns (error, feature rate)); ``held`` is True,
        False, or None when an algorithm it needs did not run; ``measured`` says what the
        rule saw.
    """

    dataset: str
    statement: str
    decide: Callable


def _need(fronts, *labels):
    missing = [label for label in labels if label not in fronts]
    return ", ".join(missing) + " not run" if missing else None


def _all_small_and_better(fronts):
    if (missing := _need(fronts, "ISRPSO")) is not None:
        return None, missing
    train, test, full_train, full_test, n = fronts["ISRPSO"]
    found = []
    for front, full in ((best_front(train), full_train), (best_front(test), full_test)):
        hits = front[(front[:, 1] < 0.1) & (front[:, 0] < full)]
        found.append(None if hits.size == 0 else hits[np.argmin(hits[:, 0])])
    text = " / ".join("none" if h is None else f"{round(h[1] * n)} features, error {h[0]:.4f}"
                      for h in found)
    return found[1] is not None, f"train / test: {text}"


def _all_three_sizes(fronts):
    if (missing := _need(fronts, "ISRPSO")) is not None:
        return None, missing
    train, test, full_train, full_test, _ = fronts["ISRPSO"]
    counts = [int(np.sum((A[:, 1] < 1.0) & (A[:, 0] < full)))
              for A, full in ((average_front(train), full_train),
                              (average_front(test), full_test))]
    return counts[1] >= 3, f"sizes better than all features, train / test: {counts[0]} / " \
                           f"{counts[1]}"


def _lowest_error_up_to(front, n_features, size):
    """Lowest error of a front among subsets of at most ``size`` features (inf if none)."""
    sizes = np.rint(front[:, 1] * n_features)
    errors = front[sizes <= size, 0]
    return float(errors.min()) if errors.size else float("inf")


def _musk1(fronts):
    if (missing := _need(fronts, "ISRPSO", "MOPSO")) is not None:
        return None, missing
    n = fronts["ISRPSO"][4]
    isr = _lowest_error_up_to(best_front(fronts["ISRPSO"][0]), n, 7)
    mopso = _lowest_error_up_to(best_front(fronts["MOPSO"][0]), n, 20)
    return isr <= mopso, f"training error: ISRPSO <= 7 features {isr:.4f}, MOPSO <= 20 " \
                         f"features {mopso:.4f}"


def _vehicle(fronts):
    others = ("NSGA-II", "SPEA2", "PAES")
    if (missing := _need(fronts, "ISRPSO", *others)) is not None:
        return None, missing
    isr = average_front(fronts["ISRPSO"][0])
    gaps = []
    for label in others:
        A = average_front(fronts[label][0])
        common = np.intersect1d(np.round(isr[:, 1], 9), np.round(A[:, 1], 9))
        gap = np.mean([A[np.isclose(A[:, 1], r), 0][0] - isr[np.isclose(isr[:, 1], r), 0][0]
                       for r in common]) if common.size else float("nan")
        gaps.append(gap)
    text = ", ".join(f"{label} {100 * g:+.1f} points ({label} minus ISRPSO)"
                     for label, g in zip(others, gaps))
    return bool(all(g > 0 for g in gaps)), f"mean training-error gap at the common sizes of " \
                                           f"the average fronts: {text}; paper: about 9"


def _libras(fronts):
    if (missing := _need(fronts, "ISRPSO", "CMDPSOFS")) is not None:
        return None, missing
    n = fronts["ISRPSO"][4]
    isr, cmd = best_front(fronts["ISRPSO"][0]), best_front(fronts["CMDPSOFS"][0])
    ratios = []
    for error, rate in isr:
        reach = cmd[cmd[:, 0] <= error, 1]
        ratios.append(reach.min() / rate if reach.size else float("inf"))
    ratios = np.asarray(ratios)
    median = float(np.median(ratios))
    return median >= 2.0, (f"CMDPSOFS's smallest subset as accurate as each of ISRPSO's "
                           f"{len(isr)} best-front subsets (training), in multiples of its size: "
                           f"min {ratios.min():.1f}, median {median:.1f}, max "
                           f"{ratios.max():.1f} ('inf': never as accurate); n = {n}")


def _isolet(fronts):
    if (missing := _need(fronts, "ISRPSO", "CMDPSOFS", "NSGA-II")) is not None:
        return None, missing
    n = fronts["ISRPSO"][4]
    lowest = {}
    for label in ("ISRPSO", "CMDPSOFS", "NSGA-II"):
        B = best_front(fronts[label][1])
        i = int(np.argmin(B[:, 0]))
        lowest[label] = (B[i, 0], round(B[i, 1] * n))
    held = lowest["ISRPSO"][0] < min(lowest["CMDPSOFS"][0], lowest["NSGA-II"][0])
    text = ", ".join(f"{k} {100 * e:.2f} % with {s} features" for k, (e, s) in lowest.items())
    return held, f"lowest test error: {text}; paper: 0.88 % (74 features), 1.3 %, 1.2 % (> 220)"


#: Seed 003's statements about the datasets we ship (spec §10.4), in its order
CHECKS = (
    Check("all", "ISRPSO-Best holds a subset with < 10 % of the features and a lower error "
                 "than all features (held: on the test front)", _all_small_and_better),
    Check("all", "ISRPSO-Ave holds >= 3 subset sizes with fewer features and lower error than "
                 "all features (held: on the test front)", _all_three_sizes),
    Check("musk1", "train: ISRPSO with about 7 features matches MOPSO with 20 (held: the "
                   "best front's lowest error with <= 7 features is no higher than MOPSO's "
                   "with <= 20)", _musk1),
    Check("vehicle", "train: ISRPSO about 9 % better than NSGA-II, SPEA2 and PAES at the same "
                     "number of features (held: lower average-front error, averaged over the "
                     "common sizes, against each of the three)", _vehicle),
    Check("libras", "train: CMDPSOFS needs 2-8 times more features for the same accuracy "
                    "(held: median multiple >= 2 over ISRPSO's best front)", _libras),
    Check("isolet", "test: ISRPSO's lowest error (0.88 %) is below CMDPSOFS's (1.3 %) and "
                    "NSGA-II's (1.2 %, > 220 features) (held: lower than both)", _isolet),
)


def _fronts(results, dataset):
    refs = [v for (d, _), v in results.references.items() if d == dataset]
    full_train = 1 - np.mean([r["score_train"] for r in refs])
    full_test = 1 - np.mean([r["score_test"] for r in refs])
    fronts = {}
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        if runs:
            fronts[label] = ([np.asarray(r["F_train"]) for r in runs],
                             [np.asarray(r["F_test"]) for r in runs], full_train, full_test,
                             runs[0]["n_features"])
    return fronts


def checks(directories, datasets=("vehicle", "german", "sonar", "libras", "musk1", "isolet")):
    """The Markdown table of :data:`CHECKS` on the datasets the studies hold.

    Parameters
    ----------
    directories : sequence of path
        Study directories; each dataset is read from the first that holds it.
    datasets : sequence of str
        The datasets of the statements "all" (seed 003's that we ship).

    Returns
    -------
    table : str
        One row per (statement, dataset): held / not held / not run, and the measurement.
    """
    studies = [load_results(d) for d in directories]
    where = {}
    for results in studies:
        for dataset in results.datasets:
            where.setdefault(dataset, results)
    lines = ["| dataset | statement (seed 003, spec §10.4) | runs | held | measured |",
             "|---|---|---:|---|---|"]
    for check in CHECKS:
        names = datasets if check.dataset == "all" else (check.dataset,)
        for dataset in names:
            if dataset not in where:
                lines.append(f"| {dataset} | {check.statement} | 0 | not run | dataset not in "
                             f"the studies |")
                continue
            fronts = _fronts(where[dataset], dataset)
            held, measured = check.decide(fronts)
            runs = len(fronts.get("ISRPSO", ([],))[0])
            verdict = {True: "held", False: "**not held**", None: "not run"}[held]
            lines.append(f"| {dataset} | {check.statement} | {runs} | {verdict} | {measured} |")
    return "\n".join(lines)


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
