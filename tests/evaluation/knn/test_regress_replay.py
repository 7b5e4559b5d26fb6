"""The replay of scikit-learn's *ordered* neighbours for the regression path: its sort
(``simultaneous_sort``), the ordered neighbours of both branches on tie-heavy data, the
predictions they give, and the self-check that guards them."""

import math

import numpy as np
import pytest
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsRegressor
from threadpoolctl import threadpool_limits

from pymoo_fs.datasets import load_dataset, make_relevant_regression
from pymoo_fs.evaluation.knn import selfcheck
from pymoo_fs.evaluation.knn.kernels import sklearn_replay
from pymoo_fs.evaluation.knn.regress_replay import RegressionReplay


def min_max(X):
    X = np.asarray(X, dtype=float)
    span = X.max(axis=0) - X.min(axis=0)
    return np.ascontiguousarray((X - X.min(axis=0)) / np.where(span > 0, span, 1.0))


def kfold(n, n_splits=5, seed=0):
    return [(tr.astype(np.int64), te.astype(np.int64))
            for tr, te in KFold(n_splits, shuffle=True, random_state=seed).split(np.zeros(n))]


def sklearn_neighbours(X, y, folds, mask, k):
    """Per fold: scikit-learn's neighbours (sample indices, its order) and predictions."""
    Xs = X[:, mask]
    out = []
    for train, test in folds:
        knn = KNeighborsRegressor(n_neighbors=k).fit(Xs[train], y[train])
        out.append((train[knn.kneighbors(Xs[test], return_distance=False)],
                    knn.predict(Xs[test])))
    return out


def assert_replay_equals_sklearn(X, y, folds, masks, k):
    replay = RegressionReplay(X, y, folds, k)
    R = replay.rows.size
    for mask in masks:
        nbr = np.full((R, k), -1, dtype=np.int64)
        assert replay.neighbours(mask, np.ones(R, dtype=bool), nbr)
        for f, (ind, pred) in enumerate(sklearn_neighbours(X, y, folds, mask, k)):
            lo, hi = replay.bounds[f], replay.bounds[f + 1]
            np.testing.assert_array_equal(nbr[lo:hi], ind)
            # the prediction as KNeighborsRegressor.predict forms it: (n_test, k, 1) targets
            np.testing.assert_array_equal(np.mean(y.reshape(-1, 1)[nbr[lo:hi]], axis=1).ravel(),
                                          pred)


def masks_of(rng, n_features, sizes):
    masks = np.zeros((len(sizes), n_features), dtype=bool)
    for b, size in enumerate(sizes):
        masks[b, rng.choice(n_features, size, replace=False)] = True
    return masks


def antiqsort(n):
    """Values that drive scikit-learn's introsort (2-way partitions) to its depth limit
    (McIlroy's adversary for quicksort, run on a Python transcription of introsort_2way)."""
    gas, val, state = n, [n] * n, {"solid": 0, "cand": 0}

    def freeze(x):
        val[x] = state["solid"]
        state["solid"] += 1

    def cmp(x, y):
        if val[x] == gas and val[y] == gas:
            freeze(x if x == state["cand"] else y)
        if val[x] == gas:
            state["cand"] = x
        elif val[y] == gas:
            state["cand"] = y
        return val[x] - val[y]

    class Key:
        def __init__(self, i):
            self.i = i

        def __lt__(self, other):
            return cmp(self.i, other.i) < 0

        def __gt__(self, other):
            return cmp(self.i, other.i) > 0

    def intro(v, s, m, maxd):
        while m > 15:
            if maxd <= 0:
                v[s:s + m] = sorted(v[s:s + m])
                return True
            maxd -= 1
            p = m // 2
            if v[s] > v[s + m - 1]:
                v[s], v[s + m - 1] = v[s + m - 1], v[s]
            if v[s + m - 1] > v[s + p]:
                v[s + m - 1], v[s + p] = v[s + p], v[s + m - 1]
                if v[s] > v[s + m - 1]:
                    v[s], v[s + m - 1] = v[s + m - 1], v[s]
            piv, i, j = v[s + m - 1], 1, m - 2
            while True:
                while i <= j and v[s + i] < piv:
                    i += 1
                while i <= j and v[s + j] > piv:
                    j -= 1
                if i >= j:
                    break
                v[s + i], v[s + j] = v[s + j], v[s + i]
                i, j = i + 1, j - 1
            v[s + i], v[s + m - 1] = v[s + m - 1], v[s + i]
            if intro(v, s, i, maxd):
                return True
            s, m = s + i + 1, m - i - 1
        return False

    assert intro([Key(i) for i in range(n)], 0, n, 2 * int(math.log2(n)))
    for x in range(n):
        if val[x] == gas:
            freeze(x)
    return np.array(val, dtype=float)


def test_simultaneous_sort_moves_entries_as_scikit_learn(rng):
    # scikit-learn's sort is not stable: among equal values it leaves an order of its own,
    # which decides the regression's sum order. Every branch: insertion sort (<= 15), the
    # partitions, and the heapsort past the depth limit (antiqsort's inputs).
    sort_ref = pytest.importorskip("sklearn.utils._sorting")._py_simultaneous_sort
    cases = []
    for trial in range(600):
        n = int(rng.integers(0, 300)) if trial % 2 else int(rng.integers(0, 40))
        grid = int(rng.integers(1, 6))
        v = np.round(rng.random(n) * grid) if trial % 3 else rng.random(n)
        cases.append(np.sort(v)[::-1].copy() if trial % 5 == 0 else v)
    cases += [antiqsort(n) for n in (40, 64, 200)] + [np.zeros(100), np.ones(16)]
    for v in cases:
        n = v.size
        idx = rng.permutation(n).astype(np.intp)
        v1, i1, v2, i2 = v.copy(), idx.copy(), v.copy(), idx.astype(np.int64)
        if n:
            sort_ref(v1, i1, n, use_three_way_partition=False)
        sklearn_replay.simultaneous_sort(v2, i2, n)
        np.testing.assert_array_equal(v2, v1)
        np.testing.assert_array_equal(i2, i1)


@pytest.mark.parametrize("name", ["concrete", "diabetes"])
@pytest.mark.parametrize("k", [1, 3, 5, 10])
def test_replay_orders_neighbours_as_scikit_learn_on_bundled_regression_data(rng, name, k):
    # kd-tree branch (at most 10 features): one- and two-feature masks are full of equal
    # distances between different targets (concrete's duplicated mixtures, diabetes' sex).
    data = load_dataset(name)
    X, y = min_max(data.X), np.asarray(data.y, dtype=float)
    d = X.shape[1]
    masks = masks_of(rng, d, [1, 1, 2, 3, d // 2, d])
    assert_replay_equals_sklearn(X, y, kfold(X.shape[0]), masks, k)


@pytest.mark.parametrize("openmp_threads", [1, 2])
@pytest.mark.parametrize("k", [1, 3, 5, 10])
def test_replay_orders_neighbours_as_scikit_learn_on_integer_grid(rng, k, openmp_threads):
    # Values 0, 1, 2: equal distances everywhere. Masks of more than 15 features take
    # scikit-learn's brute force (ArgKmin: its chunks and, with 2 threads, the merge of the
    # threads' heaps), smaller ones its kd-tree.
    X = np.round(rng.random((700, 40)) * 2)
    y = rng.random(700)
    masks = masks_of(rng, 40, [1, 3, 6, 15, 16, 25, 40])
    with threadpool_limits(openmp_threads, user_api="openmp"):
        assert_replay_equals_sklearn(X, y, kfold(700, 3), masks, k)


@pytest.mark.parametrize("k", [1, 3, 5, 10])
def test_replay_orders_neighbours_as_scikit_learn_on_float_data(rng, k):
    # make_relevant_regression: continuous features, on a 40-feature (brute force) and a
    # 6-value grid version (ties), both branches
    data = make_relevant_regression(n_samples=300, n_features=40, random_state=3)
    X, y = min_max(data.X), data.y
    masks = masks_of(rng, 40, [2, 5, 12, 20, 33])
    for data in (X, np.ascontiguousarray(np.round(X * 5) / 5)):
        assert_replay_equals_sklearn(data, np.asarray(y, dtype=float), kfold(300), masks, k)


@pytest.mark.parametrize("k", [5, 10, 20])
def test_replay_orders_neighbours_when_k_is_half_the_training_part(rng, k):
    # k >= n_train // 2 takes brute force even with few features (k = 20: the introsort's
    # partitions, not only the insertion sort); training indices not increasing too
    n = {5: 12, 10: 24, 20: 48}[k]
    X = np.round(rng.random((n, 3)) * 2)
    y = rng.random(n)
    folds = kfold(n, 4)
    folds = [(rng.permutation(train), test) for train, test in folds[:2]] + folds[2:]
    assert all(k >= train.size // 2 for train, _ in folds)
    masks = masks_of(rng, 3, [1, 2, 3])
    assert_replay_equals_sklearn(X, y, folds, masks, k)


def test_replay_writes_only_the_open_rows(rng):
    X = np.round(rng.random((200, 20)) * 2)
    y = rng.random(200)
    folds = kfold(200, 4)
    replay = RegressionReplay(X, y, folds, 5)
    for mask in masks_of(rng, 20, [3, 18]):
        open_rows = rng.random(200) < 0.3
        nbr = np.full((200, 5), -7, dtype=np.int64)
        assert replay.neighbours(mask, open_rows, nbr)
        assert np.all(nbr[~open_rows] == -7)
        for f, (ind, _) in enumerate(sklearn_neighbours(X, y, folds, mask, 5)):
            lo, hi = replay.bounds[f], replay.bounds[f + 1]
            want = open_rows[lo:hi]
            np.testing.assert_array_equal(nbr[lo:hi][want], ind[want])


def test_regression_replay_is_verified_and_on_in_this_environment():
    from sklearn.utils.fixes import _in_unstable_openblas_configuration

    if _in_unstable_openblas_configuration():
        pytest.skip("scikit-learn reports an unstable OpenBLAS configuration: replay off")
    assert selfcheck.regression_settings()[0] == 1


def test_failing_self_check_makes_the_replay_decline(monkeypatch, rng):
    X = np.round(rng.random((60, 4)) * 2)
    y = rng.random(60)
    replay = RegressionReplay(X, y, kfold(60, 3), 3)
    monkeypatch.setattr(selfcheck, "_STATE", {})
    monkeypatch.setattr(selfcheck, "_check_regression_case", lambda *a, **kw: False)
    nbr = np.full((60, 3), -1, dtype=np.int64)
    assert not replay.neighbours(np.ones(4, dtype=bool), np.ones(60, dtype=bool), nbr)
    assert np.all(nbr == -1)
    assert selfcheck.regression_settings()[0] == 0
    # an exception in the check counts as a failure too
    monkeypatch.setattr(selfcheck, "_STATE", {})

    def boom(*args, **kwargs):
        raise RuntimeError("a scikit-learn whose kneighbors changed")

    monkeypatch.setattr(selfcheck, "_check_regression_case", boom)
    assert not replay.neighbours(np.ones(4, dtype=bool), np.ones(60, dtype=bool), nbr)
    assert np.all(nbr == -1)


def test_replay_declines_empty_masks_and_too_few_training_samples(rng):
    X = rng.random((12, 3))
    y = rng.random(12)
    nbr = np.full((12, 3), -1, dtype=np.int64)
    replay = RegressionReplay(X, y, kfold(12, 3), 3)
    assert not replay.neighbours(np.zeros(3, dtype=bool), np.ones(12, dtype=bool), nbr)
    few = RegressionReplay(X, y, [(np.arange(2), np.arange(2, 12))], 3)
    assert not few.neighbours(np.ones(3, dtype=bool), np.ones(10, dtype=bool),
                              np.full((10, 3), -1, dtype=np.int64))
    assert np.all(nbr == -1)


def test_replay_rejects_wrong_arrays(rng):
    X = rng.random((12, 3))
    replay = RegressionReplay(X, rng.random(12), kfold(12, 3), 2)
    mask, rows = np.ones(3, dtype=bool), np.ones(12, dtype=bool)
    with pytest.raises(ValueError, match="nbr"):
        replay.neighbours(mask, rows, np.zeros((12, 2), dtype=np.int32))
    with pytest.raises(ValueError, match="nbr"):
        replay.neighbours(mask, rows, np.zeros((12, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="open_rows"):
        replay.neighbours(mask, rows[:5], np.zeros((12, 2), dtype=np.int64))


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_replay_equals_the_replay_of_each_mask(rng, threads):
    from pymoo_fs.evaluation.knn.parallel import ParallelContext

    X = np.round(rng.random((240, 20)) * 3)
    y = rng.random(240)
    folds = kfold(240, 4)
    replay = RegressionReplay(X, y, folds, 4)
    masks = masks_of(rng, 20, [2, 5, 18, 3, 16])  # both branches
    open_rows = rng.random((5, 240)) < 0.4
    open_rows[3] = False  # a mask with nothing open
    nbr = np.full((5, 240, 4), -3, dtype=np.int64)
    with ParallelContext(threads):
        assert replay.neighbours_batch(masks, open_rows, nbr)
    for b, mask in enumerate(masks):
        one = np.full((240, 4), -3, dtype=np.int64)
        assert replay.neighbours(mask, open_rows[b], one)
        np.testing.assert_array_equal(nbr[b], one)
    assert np.all(nbr[3] == -3)
    # the same declines and checks as one mask's
    assert not replay.neighbours_batch(np.zeros((1, 20), dtype=bool), open_rows[:1], nbr[:1])
    with pytest.raises(ValueError, match="nbr"):
        replay.neighbours_batch(masks, open_rows, nbr[:, :, :3].copy())
    with pytest.raises(ValueError, match="open_rows"):
        replay.neighbours_batch(masks, open_rows[:2], nbr)
