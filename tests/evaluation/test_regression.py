"""The KNN evaluator's regression path: scores equal to scikit-learn's cross_val_score with
KNeighborsRegressor on the same folds, for random masks, flips, tied data and the kd-tree
sizes (every mask of diabetes has at most 10 features: scikit-learn searches by kd-tree)."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, make_regression
from sklearn.model_selection import KFold, cross_val_score
from sklearn.neighbors import KNeighborsRegressor

from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.evaluation.base import regression_unit_scores

SCORINGS = ("neg_mean_squared_error", "neg_mean_absolute_error", "r2")


def _sklearn(X, y, masks, k, folds, scoring):
    return np.array([cross_val_score(KNeighborsRegressor(n_neighbors=k), X[:, m], y, cv=folds,
                                     scoring=scoring).mean() for m in masks])


def _masks(rng, n, D, p=0.5):
    masks = rng.random((n, D)) < p
    masks[~masks.any(axis=1), 0] = True
    return masks


def _flipped(mask):
    D = mask.size
    flipped = np.repeat(mask[None, :], D, axis=0)
    flipped[np.arange(D), np.arange(D)] ^= True
    return flipped


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


@pytest.mark.parametrize("scoring", SCORINGS)
@pytest.mark.parametrize("k", [1, 5, 10])
def test_diabetes_random_masks_and_flips_equal_sklearn(diabetes, scoring, k):
    X, y = diabetes
    rng = np.random.default_rng(k)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, scoring=scoring, random_state=1)
    assert ev.target_type == "regression"
    masks = _masks(rng, 8, X.shape[1])
    np.testing.assert_array_equal(ev.score(masks), _sklearn(X, y, masks, k, ev.folds, scoring))
    base = masks[0]
    flipped = _flipped(base)
    keep = flipped.any(axis=1)
    flips = ev.score_flips(base)
    np.testing.assert_array_equal(flips[keep], _sklearn(X, y, flipped[keep], k, ev.folds,
                                                        scoring))


def test_folds_are_kfold_not_stratified(diabetes):
    X, y = diabetes
    ev = KNNEvaluator(X, y, cv=4, scoring="r2", random_state=3)
    ref = list(KFold(4, shuffle=True, random_state=3).split(X))
    for (a, b), (c, d) in zip(ev.folds, ref, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


@pytest.mark.parametrize("scoring", SCORINGS)
def test_synthetic_more_features_than_the_tree_and_continuous_targets(scoring):
    X, y = make_regression(90, 30, n_informative=5, noise=5.0, random_state=0)
    rng = np.random.default_rng(0)
    ev = KNNEvaluator(X, y, n_neighbors=7, cv=5, scoring=scoring)
    masks = _masks(rng, 6, 30, 0.6)  # brute force in scikit-learn (more than 15 features)
    masks[0] = False
    masks[0, :3] = True  # and the kd-tree
    np.testing.assert_array_equal(ev.score(masks), _sklearn(X, y, masks, 7, ev.folds, scoring))
    flips = ev.score_flips(masks[1], [0, 5, 29])
    np.testing.assert_array_equal(flips, _sklearn(X, y, _flipped(masks[1])[[0, 5, 29]], 7,
                                                  ev.folds, scoring))
    # k > 8: numpy's mean of the k targets is a pairwise sum, whose order the path keeps
    ev9 = KNNEvaluator(X, y, n_neighbors=9, cv=3, scoring=scoring)
    np.testing.assert_array_equal(ev9.score(masks[1:3]),
                                  _sklearn(X, y, masks[1:3], 9, ev9.folds, scoring))


class _NoReplay:
    """A replay that always declines (as where its self-check fails)."""

    def neighbours_batch(self, masks, open_rows, nbr):
        return False


@pytest.mark.parametrize("integer_targets", [False, True])
def test_tied_integer_features(integer_targets):
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(80, 8)).astype(float)
    y = rng.integers(0, 20, size=80).astype(float) if integer_targets else rng.normal(size=80)
    masks = _masks(rng, 6, 8)
    for k in (1, 4):
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=4, scoring="neg_mean_squared_error")
        np.testing.assert_array_equal(ev.score(masks),
                                      _sklearn(X, y, masks, k, ev.folds,
                                               "neg_mean_squared_error"))
        assert ev._regression.n_uncertified > 0  # the ties are there, settled exactly
        # by the compiled replay of scikit-learn's ordered neighbours
        assert ev._regression.n_replayed_rows == ev._regression.n_uncertified
        assert ev._regression.n_sklearn_folds == 0
        # and by scikit-learn itself where the replay is off: its kd-tree queried directly,
        # after three folds checked against the estimator itself
        ref = KNNEvaluator(X, y, n_neighbors=k, cv=4, scoring="neg_mean_squared_error")
        ref._regression._replay = _NoReplay()
        np.testing.assert_array_equal(ref.score(masks), ev.score(masks))
        assert ref._regression.n_sklearn_folds > 0 and ref._regression._direct_tree is True
        flipped = _flipped(masks[0])
        keep = flipped.any(axis=1)
        np.testing.assert_array_equal(ev.score_flips(masks[0])[keep],
                                      _sklearn(X, y, flipped[keep], k, ev.folds,
                                               "neg_mean_squared_error"))


def test_cache_counters_and_empty_mask(diabetes):
    X, y = diabetes
    ev = KNNEvaluator(X, y, cv=3, scoring="neg_mean_squared_error")
    m = np.zeros((3, 10), dtype=bool)
    m[0, :3] = True
    m[1, :3] = True
    s = ev.score(m)
    assert ev.n_evaluations == 1 and ev.n_cache_hits == 2
    assert s[0] == s[1]
    # the empty mask scores the constant prediction: error 1, unit score 0
    assert s[2] == -np.var(y)
    assert ev.unit_scores(s)[2] == 0.0
    assert ev.score(m[:1])[0] == s[0] and ev.n_cache_hits == 3


def test_holdout_and_unit_scores(diabetes):
    X, y = diabetes
    ev = KNNEvaluator(X[:300], y[:300], cv=3, scoring="neg_mean_squared_error")
    mask = np.zeros(10, dtype=bool)
    mask[[2, 8]] = True
    pred = KNeighborsRegressor().fit(X[:300][:, mask], y[:300]).predict(X[300:][:, mask])
    mse = np.mean((y[300:] - pred) ** 2)
    h = ev.holdout_score(mask, X[300:], y[300:])
    assert h[0] == pytest.approx(-mse, rel=1e-12)
    unit = ev.unit_scores(h)
    assert unit[0] == pytest.approx(1 - mse / np.var(y[:300]))
    # worse than the mean: error clipped to 1
    assert regression_unit_scores([-10 * np.var(y)], "neg_mean_squared_error", y)[0] == 0.0
    assert regression_unit_scores([-0.5], "r2", y)[0] == 0.0
    assert regression_unit_scores([0.25], "r2", y)[0] == 0.25


def test_bad_regression_inputs():
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(ValueError, match="2 different target values"):
        KNNEvaluator(X, np.ones(20), cv=3, scoring="r2")
    with pytest.raises(ValueError, match="NaN or infinite"):
        KNNEvaluator(X, np.r_[np.nan, np.arange(19.0)], cv=3, scoring="r2")
    with pytest.raises(ValueError, match="real numbers"):
        KNNEvaluator(X, np.array(["a"] * 20), cv=3, scoring="r2")
    with pytest.raises(ValueError, match="scoring"):
        KNNEvaluator(X, np.arange(20.0), cv=3, scoring="neg_root_mean_squared_error")
    with pytest.raises(ValueError, match="r2"):
        KNNEvaluator(X, np.arange(20.0), cv="loo", scoring="r2")
    loo = KNNEvaluator(X, np.arange(20.0), cv="loo", scoring="neg_mean_squared_error")
    assert np.isfinite(loo.score(np.ones(3, bool))).all()
    ev = KNNEvaluator(X, np.arange(20.0), cv=3, scoring="r2")
    with pytest.raises(ValueError, match="y_test"):
        ev.holdout_score(np.ones(3, bool), X[:2], np.array(["a", "b"]))


def test_estimator_evaluator_takes_any_regressor(diabetes):
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor

    from pymoo_fs.evaluation import EstimatorEvaluator

    X, y = diabetes
    rng = np.random.default_rng(2)
    masks = _masks(rng, 4, 10)
    for est, scoring in ((Ridge(alpha=0.1), None), (DecisionTreeRegressor(random_state=0),
                                                     "neg_mean_absolute_error")):
        ev = EstimatorEvaluator(X, y, est, cv=4, scoring=scoring)
        assert ev.target_type == "regression"
        assert ev.scoring == (scoring or "neg_mean_squared_error")
        ref = [cross_val_score(est, X[:, m], y, cv=KFold(4, shuffle=True, random_state=0),
                               scoring=ev.scoring).mean() for m in masks]
        np.testing.assert_array_equal(ev.score(masks), ref)
        assert ev.n_evaluations == 4
        ev.score(masks)
        assert ev.n_cache_hits == 4
        h = ev.holdout_score(masks[:1], X[:50], y[:50])
        assert np.isfinite(h).all()


def test_make_evaluator_routes_regression(diabetes):
    from sklearn.linear_model import Ridge

    from pymoo_fs.evaluation import EstimatorEvaluator, make_evaluator

    X, y = diabetes
    ev = make_evaluator(X, y, KNeighborsRegressor(3), cv=3)
    assert isinstance(ev, KNNEvaluator) and ev.scoring == "neg_mean_squared_error"
    assert ev.n_neighbors == 3 and ev.target_type == "regression"
    ev = make_evaluator(X, y, scoring="r2", cv=3)
    assert isinstance(ev, KNNEvaluator) and ev.target_type == "regression"
    ev = make_evaluator(X, y + 0.5, cv=3)  # a continuous target, nothing else said
    assert ev.target_type == "regression" and ev.scoring == "neg_mean_squared_error"
    assert make_evaluator(X, (y > 150).astype(float), cv=3).target_type == "classification"
    ev = make_evaluator(X, y, KNeighborsRegressor(3, weights="distance"), cv=3)
    assert isinstance(ev, EstimatorEvaluator) and ev.target_type == "regression"
    ev = make_evaluator(X, y, Ridge(), cv=3, scoring="r2")
    assert isinstance(ev, EstimatorEvaluator)
    m = np.zeros(10, dtype=bool)
    m[:4] = True
    dist = make_evaluator(X, y, KNeighborsRegressor(3, weights="distance"), cv=3)
    assert dist.score(m)[0] == cross_val_score(KNeighborsRegressor(3, weights="distance"),
                                               X[:, m], y, cv=dist.folds,
                                               scoring="neg_mean_squared_error").mean()


@pytest.mark.parametrize("integer_features", [False, True])
def test_flips_by_column_updates_equal_sklearn(monkeypatch, diabetes, integer_features):
    """The one-column update path (taken from 48 selected features on) forced on small
    data, continuous and tied."""
    from pymoo_fs.evaluation.knn import regression

    monkeypatch.setattr(regression, "_FLIP_FROM", 1)
    X, y = diabetes
    if integer_features:
        X = np.round(X * 20)  # few distinct values per column: many exact ties
    rng = np.random.default_rng(9)
    for k, scoring in ((5, "neg_mean_squared_error"), (3, "r2")):
        ev = KNNEvaluator(X, y + 0.25 * rng.random(y.size), n_neighbors=k, cv=4,
                          scoring=scoring, backend="numpy")  # the numpy path's updates
        base = _masks(rng, 1, 10, 0.6)[0]
        flipped = _flipped(base)
        keep = flipped.any(axis=1)
        np.testing.assert_array_equal(ev.score_flips(base)[keep],
                                      _sklearn(X, ev.y, flipped[keep], k, ev.folds, scoring))
    empty = np.zeros(10, dtype=bool)
    np.testing.assert_array_equal(ev.score_flips(empty, [0, 3]),
                                  _sklearn(X, ev.y, _flipped(empty)[[0, 3]], 3, ev.folds, "r2"))


def test_flips_of_a_large_base_take_the_update_path():
    X, y = make_regression(70, 60, n_informative=6, noise=1.0, random_state=4)
    ev = KNNEvaluator(X, y, n_neighbors=4, cv=3, scoring="neg_mean_absolute_error",
                      backend="numpy")  # the numpy path's updates
    base = np.ones(60, dtype=bool)
    base[:5] = False
    flips = ev.score_flips(base, [0, 1, 10, 59])
    flipped = _flipped(base)[[0, 1, 10, 59]]
    np.testing.assert_array_equal(flips, _sklearn(X, y, flipped, 4, ev.folds,
                                                  "neg_mean_absolute_error"))


def test_data_full_of_ties_goes_to_sklearn_directly(monkeypatch):
    from pymoo_fs.evaluation.knn import regression

    monkeypatch.setattr(regression, "_TIE_PAIRS", 8)
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2, size=(60, 6)).astype(float)
    y = rng.normal(size=60)
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=4, scoring="neg_mean_squared_error")
    ev._regression._replay = _NoReplay()  # scikit-learn settles the ties
    masks = _masks(rng, 6, 6)
    np.testing.assert_array_equal(ev.score(masks[:2]), _sklearn(X, y, masks[:2], 3, ev.folds,
                                                                "neg_mean_squared_error"))
    assert ev._regression.n_folds_seen == 8  # two masks tested (one batch) ...
    assert ev._regression.n_sklearn_folds > 0.8 * 8
    np.testing.assert_array_equal(ev.score(masks[2:]), _sklearn(X, y, masks[2:], 3, ev.folds,
                                                                "neg_mean_squared_error"))
    assert ev._regression.n_folds_seen == 8  # ... then scikit-learn directly
    flipped = _flipped(masks[0])
    keep = flipped.any(axis=1)
    np.testing.assert_array_equal(ev.score_flips(masks[0])[keep],
                                  _sklearn(X, y, flipped[keep], 3, ev.folds,
                                           "neg_mean_squared_error"))


def test_a_fold_whose_training_part_holds_exactly_k_samples():
    rng = np.random.default_rng(3)
    X = rng.random((12, 3))
    y = rng.normal(size=12)
    folds = [(np.arange(3), np.arange(3, 12)), (np.arange(2, 12), np.arange(2))]
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=folds, scoring="neg_mean_absolute_error")
    masks = np.array([[True, False, True], [True, True, True]])
    np.testing.assert_array_equal(ev.score(masks), _sklearn(X, y, masks, 3, folds,
                                                            "neg_mean_absolute_error"))


@pytest.mark.parametrize("scoring", SCORINGS)
def test_compiled_path_equals_the_numpy_statement_and_sklearn(diabetes, scoring):
    """The compiled kernels (the default) against the numpy path (``backend="numpy"``) and
    scikit-learn, batches of one and of many masks, k on both sides of numpy's pairwise
    sum (8)."""
    X, y = diabetes
    rng = np.random.default_rng(21)
    masks = _masks(rng, 12, X.shape[1], 0.4)
    for k in (3, 9):
        fast = KNNEvaluator(X, y, n_neighbors=k, cv=5, scoring=scoring, cache_size=0)
        ref = KNNEvaluator(X, y, n_neighbors=k, cv=5, scoring=scoring, backend="numpy",
                           cache_size=0)
        assert fast._regression._data is not None and ref._regression._data is None
        expected = _sklearn(X, y, masks, k, fast.folds, scoring)
        np.testing.assert_array_equal(fast.score(masks), expected)
        np.testing.assert_array_equal(fast.score(masks[3:4]), expected[3:4])
        np.testing.assert_array_equal(ref.score(masks), expected)
        # continuous targets and features: nearly every row is certified in the kernel
        assert fast._regression.n_sklearn_folds < 0.5 * fast._regression.n_folds_seen


def test_compiled_path_scores_do_not_depend_on_the_threads(diabetes):
    X, y = diabetes
    rng = np.random.default_rng(4)
    masks = _masks(rng, 7, X.shape[1])
    out = [KNNEvaluator(X, y, cv=4, scoring="r2", n_threads=t).score(masks) for t in (1, 2)]
    np.testing.assert_array_equal(out[0], out[1])


def test_batched_fold_metrics_equal_sklearn_and_a_failed_check_falls_back(monkeypatch,
                                                                         diabetes):
    from pymoo_fs.evaluation.knn import regression

    X, y = diabetes
    ev = KNNEvaluator(X, y, cv=3, scoring="neg_mean_absolute_error")
    assert ev._regression._batch_metric is regression._mae_batch
    # a batched metric that differs from scikit-learn's is not used
    monkeypatch.setitem(regression._BATCH, "neg_mean_absolute_error",
                        lambda t, P: regression._mae_batch(t, P) * (1 + 1e-15))
    ev2 = KNNEvaluator(X, y, cv=3, scoring="neg_mean_absolute_error")
    assert ev2._regression._batch_metric is None
    masks = _masks(np.random.default_rng(2), 5, X.shape[1])
    np.testing.assert_array_equal(ev2.score(masks), ev.score(masks))


def test_ties_replayed_on_concrete_equal_sklearn():
    """UCI concrete's duplicated mixtures: most folds hold tied rows, which the replay of
    scikit-learn's ordered neighbours settles without scikit-learn."""
    from sklearn.preprocessing import minmax_scale

    from pymoo_fs.datasets import load_dataset

    data = load_dataset("concrete")
    X = minmax_scale(data.X)[:400]
    y = data.y[:400]
    rng = np.random.default_rng(8)
    masks = _masks(rng, 6, X.shape[1])
    for k, scoring in ((5, "neg_mean_squared_error"), (2, "r2")):
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, scoring=scoring)
        np.testing.assert_array_equal(ev.score(masks), _sklearn(X, y, masks, k, ev.folds,
                                                                scoring))
        assert ev._regression.n_replayed_rows > 0
        assert ev._regression.n_sklearn_folds == 0


def test_path_times_choose_the_cheaper_path_and_probe_the_other():
    from pymoo_fs.evaluation.knn.regression import _PathTimes

    paths = _PathTimes()
    small, large = np.array([3, 8]), np.array([3, 16])
    assert not paths.use_tree(small)  # the Gram path first
    paths.record(False, small, 9.0)  # its first batch loads kernels: not counted
    assert paths.seconds["gram"] is None and not paths.use_tree(small)
    paths.record(False, small, 2.0)
    assert paths.use_tree(small)  # then the tree path, once measured
    paths.record(True, small, 9.0)
    assert paths.seconds["tree"] is None and paths.use_tree(small)
    paths.record(True, small, 1.0)
    assert paths.seconds == {"gram": 2.0, "tree": 1.0}
    choices = []
    for _ in range(2 * paths.PROBE_EVERY):
        tree = paths.use_tree(small)
        choices.append(tree)
        paths.record(tree, small, 1.0 if tree else 2.0)
    assert choices.count(False) == 2  # the costlier path measured every PROBE_EVERY batches
    assert not paths.use_tree(large)  # scikit-learn's brute force sizes: never the tree path
    n = paths.n_batches
    paths.record(False, large, 5.0)
    assert paths.n_batches == n and paths.seconds["gram"] == 2.0


@pytest.mark.parametrize("scoring", SCORINGS)
def test_tree_path_equals_sklearn(monkeypatch, scoring):
    from sklearn.preprocessing import minmax_scale

    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.evaluation.knn.regression import _PathTimes

    data = load_dataset("concrete")
    X, y = minmax_scale(data.X)[:300], data.y[:300]
    monkeypatch.setattr(_PathTimes, "use_tree", lambda self, sizes: sizes.max() <= 15)
    rng = np.random.default_rng(13)
    masks = _masks(rng, 5, X.shape[1])
    ev = KNNEvaluator(X, y, n_neighbors=4, cv=5, scoring=scoring)
    np.testing.assert_array_equal(ev.score(masks), _sklearn(X, y, masks, 4, ev.folds, scoring))
    flipped = _flipped(masks[0])
    keep = flipped.any(axis=1)
    np.testing.assert_array_equal(ev.score_flips(masks[0])[keep],
                                  _sklearn(X, y, flipped[keep], 4, ev.folds, scoring))
    assert ev._regression.n_tree_masks == 5 + keep.sum()
    assert ev._regression.n_uncertified == 0


@pytest.mark.parametrize("tied", [False, True])
def test_flips_from_the_base_gram_matrix_equal_sklearn(monkeypatch, tied):
    """The flips' one-column updates of the base mask's Gram matrix (the tree path off),
    additions and removals, continuous and tied data (open rows replayed), k on both sides
    of numpy's pairwise sum."""
    from pymoo_fs.evaluation.knn.regression import _PathTimes

    monkeypatch.setattr(_PathTimes, "use_tree", lambda self, sizes: False)
    X, y = make_regression(120, 24, n_informative=6, noise=3.0, random_state=2)
    if tied:
        X = np.round(X)  # few distinct values per column: many exact ties
    rng = np.random.default_rng(17)
    for k, scoring in ((3, "neg_mean_squared_error"), (9, "neg_mean_absolute_error")):
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=4, scoring=scoring)
        for p in (0.2, 0.7):  # kd-tree and brute-force sizes in scikit-learn
            base = _masks(rng, 1, 24, p)[0]
            flipped = _flipped(base)
            keep = flipped.any(axis=1)
            np.testing.assert_array_equal(ev.score_flips(base)[keep],
                                          _sklearn(X, y, flipped[keep], k, ev.folds, scoring))
        assert ev._regression.n_tree_masks == 0
        if tied:
            assert ev._regression.n_replayed_rows > 0


def test_targets_whose_squared_errors_overflow_are_refused():
    rng = np.random.default_rng(1)
    X = rng.random((40, 4))
    with pytest.raises(ValueError, match="too large"):
        KNNEvaluator(X, rng.random(40) * 1e300, cv=3, scoring="neg_mean_squared_error")
    # large but computable targets are taken, and score as scikit-learn does
    y = rng.random(40) * 1e150
    ev = KNNEvaluator(X, y, cv=3, scoring="r2")
    m = np.array([[True, False, True, True]])
    np.testing.assert_array_equal(ev.score(m), _sklearn(X, y, m, 5, ev.folds, "r2"))
    assert np.isfinite(ev.unit_scores(ev.score(m))).all()
