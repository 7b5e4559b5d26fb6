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

The regression path's replay of scikit-learn's *ordered* neighbours
(:func:`~pymoo_fs.evaluation.knn.kernels.sklearn_replay.exact_regression_rows`, used by
:class:`pymoo_fs.evaluation.knn.regress_replay.RegressionReplay`) has a check of its own,
:func:`regression_settings`: its output compared with ``KNeighborsRegressor.kneighbors``,
index for index, on tie-heavy integer grids, both branches.
"""

import numpy as np

from pymoo_fs.evaluation.knn.layout import ColumnRanks, FoldLayout

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

    usable, chunk, threads = _sklearn_config()
    if not usable:
        return 0, chunk, threads
    key = (sklearn.__version__, chunk, threads)
    if key not in _STATE:
        _STATE[key] = _kd_replay_verified() and _self_check(chunk, threads)
    return int(_STATE[key]), chunk, threads


def _sklearn_config():
    """``(usable, chunk_size, n_threads)``: scikit-learn's ``pairwise_dist_chunk_size`` and
    OpenMP thread count now, and False where its brute force may not be replayed at all (an
    OpenBLAS configuration scikit-learn itself calls unstable, or helpers it lacks: then
    ``(False, 256, 1)``)."""
    import sklearn

    try:
        from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
        from sklearn.utils.fixes import _in_unstable_openblas_configuration

        threads = int(_openmp_effective_n_threads())
        chunk = int(sklearn.get_config().get("pairwise_dist_chunk_size", 256))
        if _in_unstable_openblas_configuration():
            return False, chunk, threads
    except Exception:  # pragma: no cover - a scikit-learn without these helpers
        return False, 256, 1
    return True, chunk, threads


def regression_settings():
    """``(exact, chunk_size, n_threads)`` for the regression replay's
    :class:`~pymoo_fs.evaluation.knn.kernels.structures.Folds`
    (:func:`~pymoo_fs.evaluation.knn.kernels.sklearn_replay.exact_regression_rows`).

    ``exact`` is 1 when the replay of scikit-learn's *ordered* neighbours (both branches, the
    sort of each row's heap included) gave ``KNeighborsRegressor.kneighbors``'s output, index
    for index, on every case of :data:`_REGRESSION_CASES` in this process (once per
    scikit-learn version, chunk size and thread count), else 0; ``chunk_size`` and
    ``n_threads`` as in :func:`settings`. Any exception during the check counts as a failure.

    Returns
    -------
    tuple of (int, int, int)
    """
    import sklearn

    usable, chunk, threads = _sklearn_config()
    if not usable:
        return 0, chunk, threads
    key = ("regression", sklearn.__version__, chunk, threads)
    if key not in _STATE:
        try:
            _STATE[key] = all(_check_regression_case(*case, chunk=chunk, threads=threads)
                              for case in _REGRESSION_CASES)
        except Exception:  # pragma: no cover - any failure disables the replay
            _STATE[key] = False
    return int(_STATE[key]), chunk, threads


def kd_tree_verified(check=True):
    """Whether the replay of scikit-learn's kd-tree and the tree path agree with
    ``KNeighborsClassifier`` in this process.

    The kd-tree branch does not depend on scikit-learn's thread count or chunk size, so this
    check is made once per process, and only when a mask small enough for the tree path is
    scored (it compiles the tree path's kernels): the kd-tree cases of the replay's
    self-check, and the tree path
    (:func:`pymoo_fs.evaluation.knn.kernels.tree.tree_predict_batch`) on tie-heavy data with
    1, 2, 3 and 6 features, k = 1, 3 and 5 (every row compared with
    ``KNeighborsClassifier.predict`` on its fold). Any failure keeps the tree path off.

    Parameters
    ----------
    check : bool, default True
        False: only report a check already made in this process (False if none was), and
        make none (about 0.45 s on first use: the cost model's probes do not pay it,
        :meth:`~pymoo_fs.evaluation.knn.paths.PathChooser.path_probes`).

    Returns
    -------
    bool
    """
    import sklearn

    key = ("tree", sklearn.__version__)
    if not check:
        return _STATE.get(key, False)
    if key not in _STATE:
        try:
            _STATE[key] = (_kd_replay_verified()
                           and all(_check_tree_case(*case) for case in _TREE_CASES))
        except Exception:  # pragma: no cover - any failure disables the tree path
            _STATE[key] = False
    return _STATE[key]


def _kd_replay_verified():
    """True when the replay's kd-tree branch predicts every row of :data:`_KD_CASES` as
    ``KNeighborsClassifier`` does (once per process and scikit-learn version)."""
    import sklearn

    key = ("kd", sklearn.__version__)
    if key not in _STATE:
        try:
            _STATE[key] = all(_check_case(*case, chunk=256, threads=1) for case in _KD_CASES)
        except Exception:  # pragma: no cover - any failure disables the replay
            _STATE[key] = False
    return _STATE[key]


def _self_check(chunk, threads):
    """True when the compiled replay predicts every row as ``KNeighborsClassifier`` does."""
    try:
        return all(_check_case(*case, chunk=chunk, threads=threads) for case in _CASES)
    except Exception:  # pragma: no cover - any failure disables the replay
        return False


#: (n_samples, n_features, n_test_rows, k, grid): a grid of 2 values makes many equal distances
#: (the brute-force branch: more than 15 selected columns)
_CASES = [(120, 20, 40, 5, 2), (700, 18, 10, 3, 3), (60, 17, 1, 1, 2), (90, 40, 30, 7, 0)]
#: the same for the kd-tree branch
_KD_CASES = [(300, 6, 30, 5, 2), (400, 2, 40, 3, 3), (250, 4, 25, 1, 1)]
#: (n_samples, n_features, grid, k, n_folds) for the tree path
_TREE_CASES = [(240, 7, 2, 5, 4), (180, 4, 3, 3, 3), (150, 3, 1, 1, 5), (200, 8, 0, 5, 4)]
#: (n_samples, n_features, n_cols, n_folds, k, grid, inverted) for the regression replay's
#: ordered neighbours: brute force (more than 15 columns: on Y with several chunks, hence
#: thread blocks to merge, a one-row fold, real values, "inverted" folds whose test part is
#: the larger, hence on X; k >= n_train // 2 with 3 columns, k > 15 for the introsort's
#: partitions), then the kd-tree (k = 40: introsort again); integer grids of ``grid + 1``
#: values make many equal distances between different targets
_REGRESSION_CASES = [(120, 20, 19, 3, 5, 2, False), (900, 18, 17, 3, 3, 3, False),
                     (60, 17, 16, 60, 1, 2, False), (90, 40, 39, 3, 7, 0, False),
                     (120, 20, 18, 3, 3, 2, True), (48, 3, 3, 4, 20, 2, False),
                     (300, 6, 5, 3, 5, 2, False), (400, 2, 2, 4, 3, 3, False),
                     (250, 4, 3, 5, 1, 1, False), (200, 3, 3, 3, 10, 4, False),
                     (600, 5, 4, 3, 40, 2, False)]


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
    ok = True
    # on a grid, also the same points as integers, replayed on exact integer distances
    for Xv, ints in [(X, False)] + ([(np.round(X * grid), True)] if grid else []):
        pred = np.full(n_test, -1, dtype=np.int64)
        unc = np.ones(n_test, dtype=bool)
        Xv = np.ascontiguousarray(Xv)
        exact_fold_rows(Xv, ColumnRanks(Xv).ensure(cols), cols, folds, pred, unc, ints)
        Xs = Xv[:, cols]
        ref = KNeighborsClassifier(n_neighbors=k).fit(Xs[train], y[train]).predict(Xs[test])
        settled = ~unc
        ok &= bool(settled.any() and np.array_equal(pred[settled], ref[settled]))
    return ok


def _check_tree_case(n, d, grid, k, n_folds):
    """True when the tree path predicts every row of masks of 1, 2, 3 and 6 features as
    ``KNeighborsClassifier`` does, with its search and with every row replayed directly
    (folds: samples dealt round-robin)."""
    from sklearn.neighbors import KNeighborsClassifier

    from pymoo_fs.evaluation.knn.kernels.structures import Folds
    from pymoo_fs.evaluation.knn.kernels.tree import tree_predict_batch

    rng = np.random.default_rng(n + d + k)
    X = rng.random((n, d))
    if grid:
        X = np.round(X * grid) / grid
    y = rng.integers(0, 3, n).astype(np.int64)
    fold_of = np.arange(n) % n_folds
    tests = [np.flatnonzero(fold_of == f) for f in range(n_folds)]
    trains = [np.flatnonzero(fold_of != f) for f in range(n_folds)]
    rows = np.concatenate(tests).astype(np.int64)
    cand = fold_of[None, :] != np.arange(n_folds)[:, None]
    bounds = np.cumsum([0] + [t.size for t in tests]).astype(np.int64)
    srow = np.argsort(rows, kind="stable").astype(np.int64)
    folds = Folds(cand=cand, row_q=rows, row_f=np.repeat(np.arange(n_folds), np.diff(bounds)),
                  bounds=bounds, train=np.concatenate(trains).astype(np.int64),
                  train_ptr=np.cumsum([0] + [t.size for t in trains]).astype(np.int64),
                  y=y, k=k, n_classes=3, exact=1, sk_chunk=256, sk_threads=1, srow=srow,
                  srow_ptr=np.searchsorted(rows[srow], np.arange(n + 1)).astype(np.int64),
                  all_rows=np.arange(rows.size, dtype=np.int64))
    cols = [np.sort(rng.choice(d, size, replace=False)) for size in (1, 2, 3, min(6, d))]
    ptr = np.cumsum([0] + [c.size for c in cols]).astype(np.int64)
    flat = np.concatenate(cols).astype(np.int64)
    ranks = ColumnRanks(X).ensure(flat)
    pred, _, _ = tree_predict_batch(X, ranks, flat, ptr, folds, 1,
                                    np.zeros(len(cols), dtype=bool))
    # every row replayed without the search (the cost model's choice where many rows tie)
    direct, _, _ = tree_predict_batch(X, ranks, flat, ptr, folds, 1,
                                      np.ones(len(cols), dtype=bool))
    for b, c in enumerate(cols):
        for f in range(n_folds):
            knn = KNeighborsClassifier(n_neighbors=k).fit(X[trains[f]][:, c], y[trains[f]])
            ref = knn.predict(X[tests[f]][:, c])
            if not (np.array_equal(pred[b, bounds[f]:bounds[f + 1]], ref)
                    and np.array_equal(direct[b, bounds[f]:bounds[f + 1]], ref)):
                return False
    return True


def _check_regression_case(n, d, n_cols, n_folds, k, grid, inverted, chunk, threads):
    """True when the replay's ordered neighbours of a random two thirds of every fold's rows
    equal ``KNeighborsRegressor(k).kneighbors`` (mapped to sample indices) on integer-grid
    data (and the same grid scaled to [0, 1]), and the other rows are left alone."""
    from sklearn.neighbors import KNeighborsRegressor

    from pymoo_fs.evaluation.knn.kernels.sklearn_replay import exact_regression_rows

    rng = np.random.default_rng(n + d + k)
    X = rng.random((n, d))
    if grid:
        X = np.round(X * grid)
    y = rng.random(n)
    fold_of = rng.permutation(n) % n_folds
    parts = [np.flatnonzero(fold_of == f) for f in range(n_folds)]
    rest = [np.flatnonzero(fold_of != f) for f in range(n_folds)]
    folds = [(p, r) if inverted else (r, p) for p, r in zip(parts, rest)]
    codes = np.unique(y, return_inverse=True)[1].reshape(-1).astype(np.int64)
    layout = FoldLayout(folds, codes, k, int(codes.max()) + 1, "accuracy")
    kf = layout.kernel_folds()._replace(exact=1, sk_chunk=chunk, sk_threads=threads)
    cols = np.sort(rng.choice(d, n_cols, replace=False)).astype(np.int64)
    open_rows = rng.random(layout.rows.size) < 2 / 3
    open_rows[0] = True
    ok = True
    for Xv in [X] + ([X / grid] if grid else []):
        Xv = np.ascontiguousarray(Xv)
        nbr = np.full((layout.rows.size, k), -1, dtype=np.int64)
        exact_regression_rows(Xv, ColumnRanks(Xv).ensure(cols), cols, kf, open_rows, nbr)
        Xs = Xv[:, cols]
        for f, (train, test) in enumerate(folds):
            lo, hi = layout.bounds[f], layout.bounds[f + 1]
            ind = KNeighborsRegressor(n_neighbors=k).fit(Xs[train], y[train]).kneighbors(
                Xs[test], return_distance=False)
            want = open_rows[lo:hi]
            ok &= bool(np.array_equal(nbr[lo:hi][want], train[ind][want])
                       and np.all(nbr[lo:hi][~want] == -1))
    return ok
