"""The KNN regression path against scikit-learn, measured in one run: speed ratios and exact
scores, and forward selection against ``SequentialFeatureSelector``.

Usage::

    python benchmarks/regression.py               # print the report
    python benchmarks/regression.py --repeats 5   # median of 5 timings per case

Datasets: ``diabetes`` (scikit-learn's, 442 x 10), ``concrete`` (bundled, 1,030 x 8) and a
synthetic set (``make_relevant_regression``, 300 x 60, 6 relevant features). Each is split
70/30 (shuffled, seed 0) and min-max scaled on the training part, as the regression protocol
does; everything runs on the training part with KNN-5, 10-fold ``KFold`` (shuffled, seed 0)
and ``scoring="neg_mean_squared_error"``.

Cases, each timed as evaluations per second for the scikit-learn loop
(``cross_val_score(KNeighborsRegressor(5), X[:, m], y, cv=ev.folds,
scoring="neg_mean_squared_error").mean()`` per mask) and for
:class:`~pymoo_fs.evaluation.KNNEvaluator` (cache off):

a. 30 random masks with ~50 % of the features, scored as one batch;
b. all single-feature flips of one ~50 % mask (``score_flips``);
c. forward selection of 5 features: scikit-learn's ``SequentialFeatureSelector(
   KNeighborsRegressor(5), n_features_to_select=5, cv=folds,
   scoring="neg_mean_squared_error")`` against the same greedy search by ``score_flips``
   (each step adds the feature of the best flipped score, the first of equal ones, as
   scikit-learn's ``max`` does): both select the same features when the scores are equal.

The ``cls`` rows time the classification path on the same shapes and folds (the same masks,
``y`` split at its median, ``KNeighborsClassifier(5)`` and accuracy): the issue's target is a
regression lead of the same order as the classification path's; the last figure of those rows
is the regression lead over the classification lead.

Every score the scikit-learn loop computed is compared with the evaluator's for equality
(``exact`` column), and the two forward selections' subsets are compared. ``fallback`` is the
fraction of (mask, fold) pairs the certification left to scikit-learn itself (ties between
different targets). BLAS runs on one thread for both sides (threadpoolctl).

The machine this was written on was shared with other jobs: numbers printed by a run there are
"measured under shared load" and not final; run it on an idle machine for the record.
"""

import argparse
import platform
import sys
import time

import numpy as np
import sklearn
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.model_selection import KFold, cross_val_score, train_test_split
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.preprocessing import MinMaxScaler
from threadpoolctl import threadpool_limits

from pymoo_fs.datasets import load_dataset, make_relevant_regression
from pymoo_fs.evaluation import KNNEvaluator

SCORING = "neg_mean_squared_error"
K = 5


def _data():
    out = {}
    for name in ("diabetes", "concrete"):
        d = load_dataset(name)
        out[name] = (d.X, d.y)
    syn = make_relevant_regression(n_samples=300, n_features=60, n_relevant=6, random_state=0)
    out["synthetic"] = (syn.X, syn.y)
    for name, (X, y) in out.items():
        tr, _ = train_test_split(np.arange(y.size), test_size=0.3, random_state=0)
        Xt = MinMaxScaler().fit_transform(X[tr])
        out[name] = (np.ascontiguousarray(Xt), y[tr])
    return out


def _median_time(fn, repeats):
    times = []
    result = None
    for _ in range(repeats):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times)), result


def _sk_scores(X, y, masks, folds):
    return np.array([cross_val_score(KNeighborsRegressor(n_neighbors=K), X[:, m], y, cv=folds,
                                     scoring=SCORING).mean() for m in masks])


def _sk_class_scores(X, y, masks, folds):
    return np.array([cross_val_score(KNeighborsClassifier(n_neighbors=K), X[:, m], y, cv=folds,
                                     scoring="accuracy").mean() for m in masks])


def _forward(ev, n_select):
    mask = np.zeros(ev.n_features, dtype=bool)
    for _ in range(n_select):
        cand = np.flatnonzero(~mask)
        scores = ev.score_flips(mask, cand)
        mask[cand[int(np.argmax(scores))]] = True
    return mask


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sample", type=int, default=8,
                        help="masks the scikit-learn loop scores per case (default 8)")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"# KNN regression path vs scikit-learn {sklearn.__version__} "
          f"(numpy {np.__version__}, Python {platform.python_version()}); "
          f"KNN-{K}, 10-fold KFold, {SCORING}; one BLAS thread")
    print("# numbers measured under shared load unless the machine was idle\n")
    print(f"{'data':10} {'case':12} {'ours/s':>9} {'sklearn/s':>10} {'ratio':>8} "
          f"{'exact':>6} {'fallback':>9}")
    with threadpool_limits(limits=1, user_api="blas"):
        for name, (X, y) in _data().items():
            folds = list(KFold(10, shuffle=True, random_state=0).split(X))
            ev = KNNEvaluator(X, y, n_neighbors=K, cv=folds, scoring=SCORING, cache_size=0)
            D = X.shape[1]
            masks = rng.random((30, D)) < 0.5
            masks[~masks.any(axis=1), 0] = True
            ev.score(masks[:2])  # warm-up (imports)
            base = masks[0]
            flipped = np.repeat(base[None, :], D, axis=0)
            flipped[np.arange(D), np.arange(D)] ^= True
            keep = np.flatnonzero(flipped.any(axis=1))
            ratios = {}
            for case, run, rows in (
                    ("a: batch", lambda: ev.score(masks), masks),
                    ("b: flips", lambda: ev.score_flips(base, keep), flipped[keep])):
                n_sk_before = ev._regression.n_sklearn_folds
                t_ours, ours = _median_time(run, args.repeats)
                n_pairs = rows.shape[0] * len(folds) * args.repeats
                fallback = (ev._regression.n_sklearn_folds - n_sk_before) / n_pairs
                sample = np.arange(min(args.sample, rows.shape[0]))
                t_sk, ref = _median_time(lambda: _sk_scores(X, y, rows[sample], folds), 1)
                exact = bool(np.array_equal(ours[sample], ref))
                r_ours, r_sk = rows.shape[0] / t_ours, sample.size / t_sk
                ratios[case] = r_ours / r_sk
                print(f"{name:10} {case:12} {r_ours:9.1f} {r_sk:10.2f} {r_ours / r_sk:7.1f}x "
                      f"{str(exact):>6} {fallback:9.3f}")
            # the classification path on the same shapes: y split at its median, same folds
            yc = (y > np.median(y)).astype(int)
            evc = KNNEvaluator(X, yc, n_neighbors=K, cv=folds, cache_size=0)
            evc.score(masks[:2])
            for case, run, rows, ratio_reg in (
                    ("a: batch", lambda: evc.score(masks), masks, ratios["a: batch"]),
                    ("b: flips", lambda: evc.score_flips(base, keep), flipped[keep],
                     ratios["b: flips"])):
                t_ours, ours = _median_time(run, args.repeats)
                sample = np.arange(min(args.sample, rows.shape[0]))
                t_sk, ref = _median_time(lambda: _sk_class_scores(X, yc, rows[sample], folds),
                                         1)
                exact = bool(np.array_equal(ours[sample], ref))
                r_ours, r_sk = rows.shape[0] / t_ours, sample.size / t_sk
                print(f"{name:10} {case + ' cls':12} {r_ours:9.1f} {r_sk:10.2f} "
                      f"{r_ours / r_sk:7.1f}x {str(exact):>6} {'':>9}   (classification, "
                      f"y > median; regression/classification lead "
                      f"{ratio_reg / (r_ours / r_sk):.2f})")
            n_sel = min(5, D - 1)
            t_ours, ours = _median_time(lambda: _forward(ev, n_sel), 1)
            sfs = SequentialFeatureSelector(KNeighborsRegressor(n_neighbors=K),
                                            n_features_to_select=n_sel, cv=folds,
                                            scoring=SCORING)
            t_sk, fitted = _median_time(lambda: sfs.fit(X, y), 1)
            same = bool(np.array_equal(ours, fitted.get_support()))
            print(f"{name:10} {'c: SFS-' + str(n_sel):12} {1 / t_ours:9.2f} {1 / t_sk:10.3f} "
                  f"{t_sk / t_ours:7.1f}x {str(same):>6} {'':>9}   (selections per second; "
                  f"ours {np.flatnonzero(ours).tolist()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
