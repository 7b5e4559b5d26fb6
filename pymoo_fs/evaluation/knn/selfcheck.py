"""The self-check that guards the replay of scikit-learn: when and how the kernels may settle
uncertified rows by scikit-learn's own arithmetic.

:func:`pymoo_fs.evaluation.knn.kernels.sklearn_replay.exact_fold_rows` replays the
computation of ``KNeighborsClassifier.predict`` (brute force: ``ArgKmin`` with scipy's
``ddot`` and ``dgemm`` on scikit-learn's chunks; kd-tree: its reduced distances, and for ties
its build and traversal). That computation is scikit-learn's private implementation (the
replay states the releases it was written against and verified on), so :func:`settings`
switches the replay on only after a self-check against ``KNeighborsClassifier`` itself
succeeded in this process, on data built to exercise what matters (equal distances, several
chunks, several threads' merge, one-row folds, both the brute-force and the kd-tree branch).
Otherwise the evaluator falls back to scikit-learn for the uncertified rows' folds.
"""

import numpy as np

_STATE = {}


def settings():
    """``(exact, chunk_size, n_threads)`` for the kernels'
    :class:`~pymoo_fs.evaluation.knn.kernels.structures.Folds`.

    ``exact`` is 1 when the replay is verified in this process, else 0. ``chunk_size`` is
    scikit-learn's ``pairwise_dist_chunk_size``; ``n_threads`` its OpenMP thread count now
    (both decide how its brute force splits the work, which decides the order of equal
    distances).
    """
    import sklearn

    try:
        from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
        from sklearn.utils.fixes import _in_unstable_openblas_configuration

        threads = int(_openmp_effective_n_threads())
        chunk = int(sklearn.get_config().get("pairwise_dist_chunk_size", 256))
        if _in_unstable_openblas_configuration():
            return 0, chunk, threads
    except Exception:  # pragma: no cover - a scikit-learn without these helpers
        return 0, 256, 1
    key = (sklearn.__version__, chunk, threads)
    if key not in _STATE:
        _STATE[key] = _self_check(chunk, threads)
    return int(_STATE[key]), chunk, threads


def _self_check(chunk, threads):
    """True when the compiled replay predicts every row as ``KNeighborsClassifier`` does."""
    try:
        return all(_check_case(*case, chunk=chunk, threads=threads) for case in _CASES)
    except Exception:  # pragma: no cover - any failure disables the replay
        return False


#: (n_samples, n_features, n_test_rows, k, grid): a grid of 2 values makes many equal distances
_CASES = [(120, 20, 40, 5, 2), (700, 18, 10, 3, 3), (60, 17, 1, 1, 2), (300, 6, 30, 5, 2),
          (90, 40, 30, 7, 0)]


def _check_case(n, d, n_test, k, grid, chunk, threads):
    from sklearn.neighbors import KNeighborsClassifier

    from pymoo_fs.evaluation.knn.kernels.sklearn_replay import exact_fold_rows
    from pymoo_fs.evaluation.knn.kernels.structures import Folds

    rng = np.random.default_rng(n + d)
    X = rng.random((n, d))
    if grid:
        X = np.round(X * grid) / grid
    y = rng.integers(0, 3, n)
    test = np.sort(rng.choice(n, n_test, replace=False))
    train = np.setdiff1d(np.arange(n), test)
    cols = np.sort(rng.choice(d, d - 1, replace=False)).astype(np.int64)
    cand = np.zeros((1, n), dtype=bool)
    cand[0, train] = True
    folds = Folds(cand=cand, row_q=test.astype(np.int64),
                  row_f=np.zeros(n_test, np.int64),
                  bounds=np.array([0, n_test], np.int64), train=train.astype(np.int64),
                  train_ptr=np.array([0, train.size], np.int64), y=y.astype(np.int64),
                  k=k, n_classes=3, exact=1, sk_chunk=chunk, sk_threads=threads,
                  srow=np.arange(n_test, dtype=np.int64),
                  srow_ptr=np.zeros(n + 1, np.int64),
                  all_rows=np.arange(n_test, dtype=np.int64))
    pred = np.full(n_test, -1, dtype=np.int64)
    unc = np.ones(n_test, dtype=bool)
    exact_fold_rows(np.ascontiguousarray(X), cols, folds, pred, unc)
    Xs = X[:, cols]
    ref = KNeighborsClassifier(n_neighbors=k).fit(Xs[train], y[train]).predict(Xs[test])
    settled = ~unc
    return bool(settled.any() and np.array_equal(pred[settled], ref[settled]))
