"""Per-fold time of the regression replay's ordered neighbours for a fold's open rows
(:class:`pymoo_fs.evaluation.knn.regress_replay.RegressionReplay`) against
``RegressionRows._sklearn_fold`` (scikit-learn's predictions of the whole fold), on concrete
masks; also checks that the fold's predictions built from the certified rows and the replayed
open rows equal scikit-learn's, bit for bit.

    python benchmarks/regress_replay_timing.py [n_masks] [k] [cv]
"""

import sys
import time

import numpy as np

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.evaluation.knn.regress_replay import RegressionReplay
from pymoo_fs.evaluation.knn.regression import _Bound


def best_of(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main(n_masks=30, k=5, cv=5):
    data = load_dataset("concrete")
    X = data.X.astype(float)
    X = (X - X.min(0)) / (X.max(0) - X.min(0))
    y = np.asarray(data.y, dtype=float)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=cv, scoring="neg_mean_squared_error",
                      cache_size=0)
    rr = ev._regression
    replay = RegressionReplay(ev.X, ev.y, ev.folds, k)
    rng = np.random.default_rng(0)
    R = rr.rows.size
    nbr = np.empty((R, k), dtype=np.int64)
    # warm-up: compile / load the kernels, run the self-check, take the direct-tree checks
    m0 = np.ones(X.shape[1], dtype=bool)
    assert replay.neighbours(m0, np.ones(R, dtype=bool), nbr)
    for train, test in ev.folds:
        rr._sklearn_fold(m0, train, test)
    t_rep, t_sk, n_open, n_rows, n_folds = [], [], 0, 0, 0
    for _ in range(n_masks):
        mask = rng.random(X.shape[1]) < 0.5
        if not mask.any():
            mask[rng.integers(X.shape[1])] = True
        D, norms = rr._distances(mask)
        Dm = np.where(rr._cand_rows, D, np.inf)
        nb, ok = rr._certified_neighbours(Dm, _Bound(int(mask.sum()), norms, rr.rows))
        for f, (train, test) in enumerate(ev.folds):
            lo, hi = rr.bounds[f], rr.bounds[f + 1]
            if ok[lo:hi].all():
                continue
            open_rows = np.zeros(R, dtype=bool)
            open_rows[lo:hi] = ~ok[lo:hi]
            t_rep.append(best_of(lambda: replay.neighbours(mask, open_rows, nbr)))
            t_sk.append(best_of(lambda: rr._sklearn_fold(mask, train, test)))
            fold_nbr = nb[lo:hi, :k].copy()
            fold_nbr[open_rows[lo:hi]] = nbr[lo:hi][open_rows[lo:hi]]
            pred = np.mean(rr._y_col[fold_nbr], axis=1).ravel()
            assert np.array_equal(pred, rr._sklearn_fold(mask, train, test)), (mask, f)
            n_open += int(open_rows.sum())
            n_rows += hi - lo
            n_folds += 1
    t_rep, t_sk = np.array(t_rep) * 1e3, np.array(t_sk) * 1e3
    print(f"concrete, k={k}, cv={cv}: {n_folds} (mask, fold) pairs with open rows of "
          f"{n_masks * cv}; open rows {n_open} of {n_rows} in those folds")
    print(f"replay of the open rows   per fold: median {np.median(t_rep):.3f} ms, "
          f"mean {t_rep.mean():.3f} ms, max {t_rep.max():.3f} ms")
    print(f"RegressionRows._sklearn_fold per fold: median {np.median(t_sk):.3f} ms, "
          f"mean {t_sk.mean():.3f} ms, max {t_sk.max():.3f} ms")
    print(f"ratio of medians: {np.median(t_sk) / np.median(t_rep):.1f}x; predictions equal "
          f"scikit-learn's in every fold")


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
