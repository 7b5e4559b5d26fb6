"""KNNEvaluator: exact equality with scikit-learn, tie handling, counts and error paths."""

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.evaluation import KNNEvaluator


def sklearn_scores(X, y, masks, k, folds, scoring="accuracy"):
    out = []
    for m in masks:
        if not m.any():
            out.append(0.0)
            continue
        knn = KNeighborsClassifier(n_neighbors=k)
        out.append(cross_val_score(knn, X[:, m], y, cv=folds, scoring=scoring).mean())
    return np.array(out)


def random_masks(rng, n, d, densities=(0.03, 0.1, 0.5, 0.9)):
    p = rng.choice(densities, size=(n, 1))
    masks = rng.random((n, d)) < p
    masks[np.arange(n), rng.integers(0, d, n)] = True  # never empty
    return masks


@pytest.fixture(scope="module")
def musk1():
    split = holdout_split(load_dataset("musk1"), random_state=0)
    return split


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return data.X, data.classes[data.y]  # original string labels


@pytest.mark.parametrize("k, cv", [(5, 10), (1, 10), (5, 5), (1, 5)])
def test_scores_equal_sklearn_on_musk1(musk1, rng, k, cv):
    ev = KNNEvaluator(musk1.X_train, musk1.y_train, n_neighbors=k, cv=cv, random_state=3)
    masks = random_masks(rng, 12, ev.n_features)
    expected = sklearn_scores(ev.X, musk1.y_train, masks, k, ev.folds)
    np.testing.assert_array_equal(ev.score(masks), expected)


@pytest.mark.parametrize("k", [1, 5])
def test_leave_one_out_equals_sklearn(sonar, rng, k):
    X, y = sonar
    ev = KNNEvaluator(X, y, n_neighbors=k, cv="loo")
    assert len(ev.folds) == X.shape[0]
    masks = random_masks(rng, 3, ev.n_features)
    np.testing.assert_array_equal(ev.score(masks), sklearn_scores(ev.X, y, masks, k, ev.folds))


@pytest.mark.parametrize("cv", [5, "loo"])
def test_balanced_accuracy_equals_sklearn(sonar, rng, cv):
    X, y = sonar
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=cv, scoring="balanced_accuracy")
    masks = random_masks(rng, 4 if cv == "loo" else 10, ev.n_features)
    expected = sklearn_scores(ev.X, y, masks, 3, ev.folds, scoring="balanced_accuracy")
    np.testing.assert_array_equal(ev.score(masks), expected)


def test_discrete_data_with_ties_is_exact_through_the_fallback(sonar, rng):
    # Rounded features make many equal distances: the tie rules decide the votes, and
    # scikit-learn resolves them by its own (kd-tree or index) order.
    X, y = sonar
    Xd = np.round(X * 4) / 4
    ev = KNNEvaluator(Xd, y, n_neighbors=5, cv=5, random_state=1)
    masks = random_masks(rng, 15, ev.n_features, densities=(0.05, 0.1, 0.3))
    expected = sklearn_scores(ev.X, y, masks, 5, ev.folds)
    np.testing.assert_array_equal(ev.score(masks), expected)
    assert ev._settler.n_uncertified > 0, "the tie fallback was never exercised"


def test_shared_datasets_exact(shared_data_dir, rng):
    for name, cv in (("zoo", 3), ("wine", 10), ("vehicle", 10)):
        data = load_dataset(name, data_dir=shared_data_dir)
        split = holdout_split(data, random_state=0)
        ev = KNNEvaluator(split.X_train, split.y_train, n_neighbors=5, cv=cv)
        masks = random_masks(rng, 8, ev.n_features, densities=(0.2, 0.5))
        expected = sklearn_scores(ev.X, split.y_train, masks, 5, ev.folds)
        np.testing.assert_array_equal(ev.score(masks), expected, err_msg=name)


def test_holdout_score_equals_sklearn(musk1, rng):
    ev = KNNEvaluator(musk1.X_train, musk1.y_train, n_neighbors=5, cv=10)
    masks = random_masks(rng, 8, ev.n_features)
    expected = [
        KNeighborsClassifier(5).fit(ev.X[:, m], musk1.y_train).score(musk1.X_test[:, m],
                                                                     musk1.y_test)
        for m in masks
    ]
    np.testing.assert_array_equal(ev.holdout_score(masks, musk1.X_test, musk1.y_test), expected)
    assert ev.n_evaluations == 0


def test_hand_computed_tiny_problem():
    # 1-D points; folds {0,1,2} / {3,4,5}; 1-NN.
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    y = np.array([0, 0, 1, 1, 1, 0])
    folds = [(np.array([3, 4, 5]), np.array([0, 1, 2])), (np.array([0, 1, 2]), np.array([3, 4, 5]))]
    ev = KNNEvaluator(X, y, n_neighbors=1, cv=folds)
    # fold 1: 0,1,2 all nearest to 10 (label 1) -> correct only for sample 2: 1/3
    # fold 2: 3,4,5 all nearest to 2 (label 1) -> correct for 3 and 4: 2/3
    assert ev.score(np.array([True]))[0] == pytest.approx((1 / 3 + 2 / 3) / 2)
    # k = 3 on fold 2: neighbours {0, 1, 2} vote 0, 0, 1 -> predict 0: correct only for 5
    ev3 = KNNEvaluator(X, y, n_neighbors=3, cv=folds)
    # fold 1: neighbours {3, 4, 5} vote 1, 1, 0 -> predict 1: correct only for 2
    assert ev3.score(np.array([True]))[0] == pytest.approx((1 / 3 + 1 / 3) / 2)


def test_vote_tie_goes_to_smallest_label():
    # 2-NN with one neighbour of each class: the smaller label wins, as in scikit-learn.
    X = np.array([[0.0], [1.0], [-1.0], [5.0], [6.0], [4.0]])
    y = np.array(["b", "a", "b", "a", "b", "a"])
    folds = [(np.array([1, 2, 3, 4, 5]), np.array([0]))]
    ev = KNNEvaluator(X, y, n_neighbors=2, cv=folds)
    knn = KNeighborsClassifier(2).fit(X[1:], y[1:])
    assert knn.predict(X[:1])[0] == "a"
    assert ev.score(np.array([True]))[0] == 0.0  # predicts "a", truth "b"


def test_empty_mask_scores_zero_and_is_not_counted(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    masks = np.zeros((3, ev.n_features), dtype=bool)
    masks[1, :5] = True
    scores = ev.score(masks)
    assert scores[0] == 0.0 and scores[2] == 0.0 and scores[1] > 0.0
    assert ev.n_evaluations == 1
    assert ev.holdout_score(masks[0], X, y)[0] == 0.0


def test_single_mask_and_integer_masks(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    mask = np.zeros(ev.n_features, dtype=bool)
    mask[[3, 10, 20]] = True
    one = ev.score(mask)
    assert one.shape == (1,)
    np.testing.assert_array_equal(ev.score(mask.astype(int)[None, :]), one)
    assert ev.n_evaluations == 1 and ev.n_cache_hits == 1


def test_folds_are_stratified_kfold_and_fixed(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=7, random_state=11)
    expected = list(StratifiedKFold(7, shuffle=True, random_state=11).split(X, y))
    assert len(ev.folds) == 7
    for (tr, te), (tr2, te2) in zip(ev.folds, expected):
        np.testing.assert_array_equal(tr, tr2)
        np.testing.assert_array_equal(te, te2)
    other = KNNEvaluator(X, y, cv=7, random_state=12)
    assert not np.array_equal(ev.folds[0][1], other.folds[0][1])


def test_explicit_folds_used_as_given(sonar, rng):
    X, y = sonar
    idx = rng.permutation(X.shape[0])
    folds = [(idx[:150], idx[150:]), (idx[50:], idx[:50])]
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=folds)
    masks = random_masks(rng, 5, ev.n_features)
    np.testing.assert_array_equal(ev.score(masks), sklearn_scores(ev.X, y, masks, 3, folds))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_neighbors=0), "n_neighbors"),
        (dict(n_neighbors=2.5), "n_neighbors"),
        (dict(n_neighbors=200), "n_neighbors=200 exceeds"),
        (dict(cv=1), "cv must be"),
        (dict(cv="kfold"), "cv must be"),
        (dict(cv=200), "cv=200: n_splits=200 cannot be greater than the number of members"),
        (dict(cv=[(np.arange(10), np.arange(5, 15))]), "overlap"),
        (dict(cv=[(np.arange(10), np.array([500]))]), "out of range"),
        (dict(scoring="f1"), "scoring"),
    ],
)
def test_invalid_parameters_raise(sonar, kwargs, match):
    X, y = sonar
    with pytest.raises(ValueError, match=match):
        KNNEvaluator(X, y, **kwargs)


def test_invalid_data_raise():
    X = np.random.default_rng(0).random((20, 3))
    y = np.repeat([0, 1], 10)
    with pytest.raises(ValueError, match="2-D"):
        KNNEvaluator(X[:, 0], y, cv=2)
    with pytest.raises(ValueError, match="shape"):
        KNNEvaluator(X, y[:-1], cv=2)
    with pytest.raises(ValueError, match="at least 2 classes"):
        KNNEvaluator(X, np.zeros(20), cv=2)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="1 NaN or infinite values"):
        KNNEvaluator(bad, y, cv=2)
    with pytest.raises(ValueError, match="numeric"):
        KNNEvaluator(X.astype(str), y, cv=2)


def test_invalid_masks_raise(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    with pytest.raises(ValueError, match="shape"):
        ev.score(np.ones((2, 5), dtype=bool))
    with pytest.raises(ValueError, match="boolean"):
        ev.score(np.full((1, ev.n_features), 0.7))
    with pytest.raises(ValueError, match="X_test"):
        ev.holdout_score(np.ones(ev.n_features, dtype=bool), X[:, :5], y)
    with pytest.raises(ValueError, match="y_test"):
        ev.holdout_score(np.ones(ev.n_features, dtype=bool), X, y[:-1])
