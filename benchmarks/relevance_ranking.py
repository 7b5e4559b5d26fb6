"""Which relevance measure should rank the features? Evidence for issue 23, item 1.

The ranking swarms (CEPSO-FL, VLPSO, AMSO, HFS-C-P) order the features by relevance with the
class before they search. The measure behind that order is a switch
(``discretization`` = ``"mdl"``, ``"equal_width"``, ``"equal_frequency"``, ``"mutual_info"``;
:func:`pymoo_fs.relevance.relevance_measure`). This script measures each option two ways:

``synthetic``
    scikit-learn ``make_classification`` data of the kind of seed 004's 500 x 500 two-class
    table row (Madelon-like: 5 informative features, 15 linear combinations of them, the rest
    noise, 16 clusters per class, features shuffled), several seeds and shapes. Ranking
    quality: of the 20 relevant features (informative and combinations), how many rank in
    the top 20 and the top 50; the rank by which all 5 informative ones are in; how many
    features get a relevance above 0.
``datasets``
    the S004 datasets we ship (no ground truth): over the 10 outer folds of the S004
    protocol (min-max fitted on the training part), the relevance is computed on the training
    part and the 5-NN test accuracy of the top-k ranked features (k = 10, 50, 100) is
    measured on the held-out fold, with the number of features of relevance above 0.

Usage::

    export PYMOO_FS_DATA=/work/shared/datasets
    python benchmarks/relevance_ranking.py synthetic > synthetic.md
    python benchmarks/relevance_ranking.py topk         # what the top 20 are worth (5-NN)
    python benchmarks/relevance_ranking.py datasets yale warpar10p lymphoma > datasets.md
    python benchmarks/relevance_ranking.py write-data DIR   # the synthetic sets as csv.gz

The end-to-end effect (CEPSO-FL and VLPSO runs with each option) is measured with studies
(``benchmarks/seed004/relevance/*.toml``, see benchmarks/seed004.md).
"""

import sys
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.neighbors import KNeighborsClassifier

from _results import markdown_table

from pymoo_fs.datasets import load_dataset
from pymoo_fs.relevance import RELEVANCE_MEASURES, relevance_measure
from pymoo_fs.studies.protocols import outer_splits, prepare_split
from pymoo_fs.studies.spec import PRESETS

#: (label, n_samples, n_features) of the synthetic shapes; 500 x 500 is the issue's dataset
SHAPES = (("500x500", 500, 500), ("100x2000", 100, 2000))
SEEDS = (0, 1, 2, 3, 4)
TOP_K = (10, 50, 100)


def synthetic(seed, n_samples=500, n_features=500):
    """A Madelon-like set: 5 informative, 15 combinations, noise; columns shuffled.

    Returns
    -------
    X : ndarray of float64, shape (n_samples, n_features)
    y : ndarray of int64, shape (n_samples,)
    informative, relevant : ndarray of int64
        Column indices of the 5 informative features and of all 20 relevant ones.
    """
    X, y = make_classification(n_samples=n_samples, n_features=n_features, n_informative=5,
                               n_redundant=15, n_repeated=0, n_classes=2,
                               n_clusters_per_class=16, flip_y=0.01, class_sep=1.0,
                               shuffle=False, random_state=seed)
    perm = np.random.default_rng(seed).permutation(n_features)
    X = X[:, perm]
    where = np.argsort(perm)  # where[c] = new column of original column c
    return X, y.astype(np.int64), np.sort(where[:5]), np.sort(where[:20])


def ranking_quality(X, y, informative, relevant):
    """Rows of ranking-quality numbers per option on one dataset."""
    out = {}
    for option in RELEVANCE_MEASURES:
        measure = relevance_measure(X, y, option)
        order = measure.ranking()
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        out[option] = (int(np.isin(order[:20], relevant).sum()),
                       int(np.isin(order[:50], relevant).sum()),
                       int(rank[informative].max()) + 1,
                       int((measure.relevance > 0).sum()))
    return out


def synthetic_table():
    header = ["shape", "seed", "measure", "relevant in top 20 (of 20)", "relevant in top 50",
              "rank covering the 5 informative", "features with relevance > 0"]
    rows, totals = [], {}
    for label, n, D in SHAPES:
        for seed in SEEDS:
            X, y, informative, relevant = synthetic(seed, n, D)
            for option, values in ranking_quality(X, y, informative, relevant).items():
                rows.append([label, str(seed), option] + [str(v) for v in values])
                totals.setdefault((label, option), []).append(values)
    mean_rows = [[label, "mean", option] + [f"{v:.1f}" for v in np.mean(values, axis=0)]
                 for (label, option), values in totals.items()]
    return markdown_table(header, mean_rows + rows)


def dataset_table(names):
    protocol = PRESETS["S004"]
    header = ["dataset", "measure"] + [f"5-NN test acc, top {k}" for k in TOP_K] + \
        ["features with relevance > 0", "folds"]
    rows = []
    for name in names:
        data = load_dataset(name)
        splits = outer_splits(data.y, protocol, 4, name)
        results = {o: [] for o in RELEVANCE_MEASURES}
        for train, test in splits:
            X_tr, y_tr, X_te, y_te = prepare_split(data.X, data.y, train, test, protocol)
            for option in RELEVANCE_MEASURES:
                measure = relevance_measure(X_tr, y_tr, option)
                order = measure.ranking()
                accs = []
                for k in TOP_K:
                    cols = order[:k]
                    knn = KNeighborsClassifier(5).fit(X_tr[:, cols], y_tr)
                    accs.append(knn.score(X_te[:, cols], y_te))
                results[option].append(accs + [int((measure.relevance > 0).sum())])
        for option, values in results.items():
            v = np.asarray(values, dtype=float)
            rows.append([name, option] + [f"{m:.3f}" for m in v[:, :-1].mean(axis=0)]
                        + [f"{v[:, -1].mean():.0f}", str(len(values))])
    return markdown_table(header, rows)


def topk_table(k=20, folds=10):
    """5-NN test accuracy of the top ``k`` features by each choice, on the 500 x 500 sets.

    Over ``folds`` stratified folds (shuffled, seed 4) of each seed's set, min-max fitted on
    the training part: the top ``k`` by SU with MDL and with equal-width bins (computed on the
    training part), the ``k`` of largest training variance, the 20 relevant features (the
    truth) and all features; mean (std) over seeds x folds, and how many of the chosen are
    relevant.
    """
    from sklearn.model_selection import StratifiedKFold

    results = {}
    for seed in SEEDS:
        X, y, _, relevant = synthetic(seed)
        splitter = StratifiedKFold(folds, shuffle=True, random_state=4)
        for train, test in splitter.split(X, y):
            lo, hi = X[train].min(axis=0), X[train].max(axis=0)
            span = np.where(hi > lo, hi - lo, 1.0)
            X_tr, X_te = (X[train] - lo) / span, (X[test] - lo) / span
            choices = {"SU, MDL bins": relevance_measure(X_tr, y[train], "mdl").ranking()[:k],
                       "SU, equal-width bins":
                           relevance_measure(X_tr, y[train], "equal_width").ranking()[:k],
                       "largest variance": np.argsort(-X_tr.var(axis=0), kind="stable")[:k],
                       "the 20 relevant (truth)": relevant,
                       "all features": np.arange(X.shape[1])}
            for name, cols in choices.items():
                knn = KNeighborsClassifier(5).fit(X_tr[:, cols], y[train])
                hits = len(np.intersect1d(cols, relevant))
                results.setdefault(name, []).append((knn.score(X_te[:, cols], y[test]), hits))
    rows = []
    for name, values in results.items():
        v = np.asarray(values, dtype=float)
        rows.append([name, f"{v[:, 0].mean():.3f} ({v[:, 0].std():.3f})",
                     f"{v[:, 1].mean():.1f}", str(len(values))])
    return markdown_table(["features", "5-NN test accuracy", "relevant among them",
                           "seeds x folds"], rows)


def write_data(directory):
    """The synthetic sets as ``make_classification_<shape>_s<seed>.csv.gz`` files."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for label, n, D in SHAPES:
        for seed in SEEDS:
            X, y, _, _ = synthetic(seed, n, D)
            header = ",".join([f"f{i}" for i in range(D)] + ["class"])
            path = directory / f"make_classification_{label}_s{seed}.csv.gz"
            np.savetxt(path, np.column_stack([X, y]), delimiter=",", header=header,
                       comments="", fmt="%.10g")
            print(path)


def main(argv):
    if not argv or argv[0] not in ("synthetic", "topk", "datasets", "write-data"):
        raise SystemExit(__doc__)
    if argv[0] == "synthetic":
        print(synthetic_table())
    elif argv[0] == "topk":
        print(topk_table())
    elif argv[0] == "datasets":
        print(dataset_table(argv[1:]))
    else:
        write_data(argv[1])


if __name__ == "__main__":
    main(sys.argv[1:])
