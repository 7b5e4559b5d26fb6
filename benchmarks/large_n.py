"""Large n: pymoo-fs against scikit-learn on the same folds, the tree path chosen or not.

Usage::

    PYMOO_FS_DATA=/work/shared/datasets python benchmarks/large_n.py            # ~5-8 min
    PYMOO_FS_DATA=/work/shared/datasets python benchmarks/large_n.py --quick
    python benchmarks/large_n.py --quick --datasets wine                          # smoke test
    python benchmarks/large_n.py --output benchmarks/large_n.md                   # also write

Measures, in one run, the ratios of issue 22's first two targets (item 1, small subsets by
tree) on gas6, splice, isolet and mfeat (``--datasets`` takes any shared dataset). Each
dataset is split 70/30 (stratified, seed 0) and min-max scaled on the training part
(:func:`pymoo_fs.datasets.holdout_split`); everything runs on the training part with KNN-5 and
the evaluator's 10 stratified folds (``random_state=0``), which scikit-learn gets as its
``cv``. Both sides run on one thread: scikit-learn's OpenMP and BLAS held to one
(threadpoolctl), the evaluator with ``n_threads=1``.

Cases:

* **SFS, 3 steps**: forward sequential selection of 3 features. scikit-learn:
  ``SequentialFeatureSelector(KNeighborsClassifier(5), n_features_to_select=3, cv=folds)``
  ``.fit`` (every candidate of a step is one ``cross_val_score``). pymoo-fs: three calls of
  ``score_flips(base, unselected)`` from the empty mask, the first best candidate added after
  each (the rule ``SequentialFeatureSelector`` applies: Python's ``max`` keeps the first of
  equal scores, as ``np.argmax`` does).
* **30 masks, 10 %**: a batch of 30 random masks of ``round(D / 10)`` features (seed 0).
  scikit-learn: ``cross_val_score(KNeighborsClassifier(5), X[:, m], y, cv=folds).mean()``
  per mask. pymoo-fs: one ``score`` call on the batch.

pymoo-fs runs twice per case: with the path each mask takes chosen by the cost model
(:class:`pymoo_fs.evaluation.knn.paths.PathChooser`, the default) and with the Gram path
forced for every mask (``evaluator._paths.force = "gram"``, the behaviour before the tree
path). Each pymoo-fs timing is the median of ``--repeats`` runs on fresh evaluators (cache
off), after an untimed warm-up run of the same case (kernels compiled or loaded from numba's
disk cache first); scikit-learn runs once per case.

**Every score is checked.** SFS's own scores are recorded while it runs (its module's
``cross_val_score`` wrapped: the wrapper only keeps the mean it returns) and compared, step
by step and candidate by candidate, with ``score_flips``'s; the selected features must match.
The masks' scores are compared one by one. Any difference is printed and makes the exit
status 1. The ``tree`` column counts the masks the cost model sent to the tree path (per
timed run).
"""

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from threadpoolctl import threadpool_limits

from _results import cpu_name

import pymoo_fs
from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.evaluation import KNNEvaluator

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "datasets"
DATASETS = ("gas6", "splice", "isolet", "mfeat")
K = 5
CV = 10
SFS_STEPS = 3


def load_split(name, data_dir):
    """The 70 % training part of a shared dataset (min-max scaled), ``(X, y)``."""
    split = holdout_split(load_dataset(name, data_dir=data_dir), test_size=0.3, random_state=0)
    return split.X_train, split.y_train


def evaluator(X, y, force):
    """A fresh one-thread evaluator, cache off; ``force`` None (cost model) or "gram"."""
    ev = KNNEvaluator(X, y, n_neighbors=K, cv=CV, random_state=0, cache_size=0, n_threads=1)
    ev._paths.force = force
    return ev


# ----------------------------------------------------------------- the two sides of each case
def sklearn_sfs(X, y, folds):
    """``SequentialFeatureSelector.fit`` (3 forward steps); returns (seconds, selected
    features in order, per step the candidates' mean scores)."""
    from sklearn.feature_selection import _sequential

    recorded = []
    original = _sequential.cross_val_score

    def recording(*args, **kwargs):
        scores = original(*args, **kwargs)
        recorded.append(scores.mean())
        return scores

    _sequential.cross_val_score = recording
    try:
        sfs = SequentialFeatureSelector(KNeighborsClassifier(K), n_features_to_select=SFS_STEPS,
                                        direction="forward", cv=folds, scoring="accuracy")
        t0 = time.perf_counter()
        sfs.fit(X, y)
        seconds = time.perf_counter() - t0
    finally:
        _sequential.cross_val_score = original
    D = X.shape[1]
    steps, selected, pos = [], [], 0
    for s in range(SFS_STEPS):
        candidates = np.setdiff1d(np.arange(D), selected)
        scores = np.array(recorded[pos:pos + candidates.size])
        pos += candidates.size
        steps.append(scores)
        selected.append(int(candidates[np.argmax(scores)]))
    if pos != len(recorded) or set(selected) != set(np.flatnonzero(sfs.support_).tolist()):
        raise RuntimeError("could not follow SequentialFeatureSelector's calls (a scikit-learn "
                           "whose SFS works differently)")
    return seconds, selected, steps


def ours_sfs(X, y, force):
    """The same 3 steps by ``score_flips``; returns (seconds, selected, per step the
    candidates' scores, masks by tree)."""
    t0 = time.perf_counter()
    ev = evaluator(X, y, force)
    base = np.zeros(X.shape[1], dtype=bool)
    selected, steps = [], []
    for _ in range(SFS_STEPS):
        candidates = np.flatnonzero(~base)
        scores = ev.score_flips(base, candidates)
        pick = int(candidates[np.argmax(scores)])
        base[pick] = True
        selected.append(pick)
        steps.append(scores)
    return time.perf_counter() - t0, selected, steps, ev._paths.n_tree


def random_masks(D, count, seed=0):
    """``count`` distinct random masks of ``max(1, round(D / 10))`` features."""
    rng = np.random.default_rng(seed)
    size = max(1, round(D / 10))
    masks = np.zeros((count, D), dtype=bool)
    for i in range(count):
        masks[i, rng.choice(D, size, replace=False)] = True
    return masks


def sklearn_masks(X, y, folds, masks):
    t0 = time.perf_counter()
    scores = np.array([cross_val_score(KNeighborsClassifier(K), X[:, m], y, cv=folds).mean()
                       for m in masks])
    return time.perf_counter() - t0, scores


def ours_masks(X, y, masks, force):
    t0 = time.perf_counter()
    ev = evaluator(X, y, force)
    scores = ev.score(masks)
    return time.perf_counter() - t0, scores, ev._paths.n_tree


# ----------------------------------------------------------------- one dataset
def timed(run, repeats):
    """Untimed warm-up, then the median seconds of ``repeats`` runs and the last result."""
    run()
    times, last = [], None
    for _ in range(repeats):
        last = run()
        times.append(last[0])
    return float(np.median(times)), last


def bench_dataset(name, data_dir, n_masks, repeats, problems):
    X, y = load_split(name, data_dir)
    folds = evaluator(X, y, None).folds
    n, D = X.shape
    rows = []

    # SFS, 3 steps
    sk_s, sk_sel, sk_steps = sklearn_sfs(X, y, folds)
    row = {"dataset": name, "n": n, "d": D, "case": f"SFS, {SFS_STEPS} steps",
           "size": "1-3", "sk": sk_s}
    for label, force in (("auto", None), ("gram", "gram")):
        sec, (_, sel, steps, n_tree) = timed(lambda f=force: ours_sfs(X, y, f), repeats)
        row[label], row[label + "_tree"] = sec, n_tree
        if sel != sk_sel:
            problems.append(f"{name} SFS ({label}): selected {sel}, scikit-learn {sk_sel}")
        for s, (a, b) in enumerate(zip(steps, sk_steps)):
            bad = np.flatnonzero(a != b)
            if bad.size:
                problems.append(f"{name} SFS step {s + 1} ({label}): {bad.size} of {a.size} "
                                f"scores differ, e.g. {a[bad[0]]!r} vs {b[bad[0]]!r}")
    rows.append(row)
    print(_line(row), flush=True)

    # a batch of random masks at 10 %
    masks = random_masks(D, n_masks)
    sk_s, sk_scores = sklearn_masks(X, y, folds, masks)
    row = {"dataset": name, "n": n, "d": D, "case": f"{n_masks} masks, 10 %",
           "size": str(int(masks[0].sum())), "sk": sk_s}
    for label, force in (("auto", None), ("gram", "gram")):
        sec, (_, scores, n_tree) = timed(lambda f=force: ours_masks(X, y, masks, f), repeats)
        row[label], row[label + "_tree"] = sec, n_tree
        bad = np.flatnonzero(scores != sk_scores)
        if bad.size:
            problems.append(f"{name} masks ({label}): {bad.size} of {masks.shape[0]} scores "
                            f"differ, e.g. {scores[bad[0]]!r} vs {sk_scores[bad[0]]!r}")
    rows.append(row)
    print(_line(row), flush=True)
    return rows


def _line(r):
    return (f"{r['dataset']:8s} {r['case']:16s} scikit-learn {r['sk']:8.2f} s | cost model "
            f"{r['auto']:7.3f} s ({r['sk'] / r['auto']:6.1f}x, {r['auto_tree']} by tree) | "
            f"Gram forced {r['gram']:7.3f} s ({r['sk'] / r['gram']:6.1f}x)")


def markdown(rows, problems, argv, seconds, repeats):
    import numba

    cpu = cpu_name()
    lines = [
        "# Large n: small subsets by tree (issue 22, item 1)",
        "",
        f"Written by `python benchmarks/large_n.py {' '.join(argv)}` on "
        f"{datetime.date.today().isoformat()}; whole run {seconds:.0f} s.",
        "",
        f"- Machine: {cpu}, {os.cpu_count()} cores; Python {platform.python_version()}; "
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, numba "
        f"{numba.__version__}, pymoo-fs {pymoo_fs.__version__}.",
        f"- KNN-{K}, the evaluator's {CV} stratified folds for both sides, 70 % training part "
        "(min-max scaled); one thread each. pymoo-fs: median of "
        f"{repeats} run(s) on fresh evaluators after a warm-up; scikit-learn: one run.",
        "- `cost model`: the default (tree or Gram path per mask); `Gram forced`: every mask "
        "by the Gram matrix; `tree`: masks the cost model sent to the tree path in one run.",
        "- Scores: " + ("every score of both pymoo-fs runs equals scikit-learn's."
                        if not problems else "**DIFFERENCES** (see the end)."),
        "",
        "| dataset (n_train x D) | case | \\|S\\| | scikit-learn s | cost model s | ratio "
        "| tree | Gram forced s | ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['dataset']} ({r['n']}x{r['d']}) | {r['case']} | {r['size']} | "
            f"{r['sk']:.2f} | {r['auto']:.3f} | {r['sk'] / r['auto']:.1f}x | "
            f"{r['auto_tree']} | {r['gram']:.3f} | {r['sk'] / r['gram']:.1f}x |")
    if problems:
        lines += ["", "Differences:", ""] + [f"- {p}" for p in problems]
    return "\n".join(lines) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS),
                        help="comma-separated shared dataset names (default: %(default)s)")
    parser.add_argument("--masks", type=int, default=30, help="masks of the batch case")
    parser.add_argument("--repeats", type=int, default=3,
                        help="timed pymoo-fs runs per case (median)")
    parser.add_argument("--quick", action="store_true",
                        help="10 masks and one timed pymoo-fs run per case")
    parser.add_argument("--output", type=Path, help="also write the Markdown report here")
    args = parser.parse_args(argv)
    n_masks, repeats = (10, 1) if args.quick else (args.masks, max(1, args.repeats))
    data_dir = Path(os.environ.get("PYMOO_FS_DATA", DEFAULT_DATA))
    start = time.perf_counter()
    rows, problems = [], []
    with threadpool_limits(1):
        for name in args.datasets.split(","):
            rows += bench_dataset(name.strip(), data_dir, n_masks, repeats, problems)
    report = markdown(rows, problems, argv, time.perf_counter() - start, repeats)
    print()
    print(report)
    if args.output is not None:
        args.output.write_text(report)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
