"""Strange inputs to the evaluators: refused with a clear message, or computed exactly.

From the bad-input corpus of the foundation issue: huge finite values (a segmentation fault in
the kernels before), labels mixing types, and classes smaller than the folds (which
scikit-learn accepts with a warning).
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import EstimatorEvaluator, KNNEvaluator


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return data.X, data.y


def _sklearn(X, y, masks, folds, k=5, scoring="accuracy"):
    return np.array([cross_val_score(KNeighborsClassifier(k), X[:, m], y, cv=folds,
                                     scoring=scoring).mean() for m in masks])


def _masks(D, n=4, seed=0):
    rng = np.random.default_rng(seed)
    m = rng.random((n, D)) < 0.5
    m[:, 0] = True
    return m


# ------------------------------------------------------------------ huge values
@pytest.mark.parametrize("scale", [1e154, 1e160, 1e300])
def test_values_whose_squares_overflow_are_refused(sonar, scale):
    X, y = sonar
    with pytest.raises(ValueError, match="would overflow float64.*rescale"):
        KNNEvaluator(X * scale, y)
    with pytest.raises(ValueError, match="X holds values as large as"):
        EstimatorEvaluator(X * scale, y, KNeighborsClassifier())


def test_huge_values_no_longer_crash_the_process():
    code = ("import numpy as np\n"
            "from pymoo_fs.datasets import load_dataset\n"
            "from pymoo_fs.evaluation import KNNEvaluator\n"
            "d = load_dataset('sonar')\n"
            "try:\n"
            "    KNNEvaluator(d.X * 1e154, d.y).score(np.ones((2, 60), bool))\n"
            "except ValueError as e:\n"
            "    print('refused:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert "refused: X holds values" in out.stdout


def test_large_values_below_the_limit_are_scored_exactly(sonar):
    X, y = sonar
    X = X * 1e140
    ev = KNNEvaluator(X, y, cv=5)
    masks = _masks(60)
    np.testing.assert_array_equal(ev.score(masks), _sklearn(X, y, masks, ev.folds))


def test_float32_refuses_values_too_large_for_its_products(sonar):
    X, y = sonar
    with pytest.raises(ValueError, match="precision='float32' cannot hold"):
        KNNEvaluator(X * 1e20, y, precision="float32")
    ev = KNNEvaluator(X * 1e15, y, cv=5, precision="float32")
    masks = _masks(60, seed=1)
    np.testing.assert_array_equal(ev.score(masks), _sklearn(X * 1e15, y, masks, ev.folds))


def test_held_out_values_are_checked_like_training_values(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    with pytest.raises(ValueError, match="X_test holds values as large as"):
        ev.holdout_score(_masks(60), X[:5] * 1e200, y[:5])


# ------------------------------------------------------------------ labels
@pytest.mark.parametrize("labels, match", [
    (lambda y: np.array(["a" if v else 1 for v in y], dtype=object), "mixes label types"),
    (lambda y: np.array([None if i == 3 else v for i, v in enumerate(y)], dtype=object),
     "holds None"),
    (lambda y: np.where(np.arange(y.size) == 5, np.nan, y.astype(float)), "holds NaN"),
    (lambda y: y[:-1], r"y must have shape \(208,\)"),
    (lambda y: np.zeros_like(y), "at least 2 classes"),
])
def test_bad_labels_are_refused_by_name(sonar, labels, match):
    X, y = sonar
    for make in (lambda yy: KNNEvaluator(X, yy), lambda yy: EstimatorEvaluator(
            X, yy, KNeighborsClassifier())):
        with pytest.raises(ValueError, match=match):
            make(labels(y))


def test_object_labels_of_one_kind_are_fine(sonar):
    X, y = sonar
    as_objects = np.array(["mine" if v else "rock" for v in y], dtype=object)
    ev = KNNEvaluator(X, as_objects, cv=5)
    assert list(ev.classes) == ["mine", "rock"]


@pytest.mark.parametrize("X_test, y_test, match", [
    (np.zeros((3, 59)), np.zeros(3), "X_test must have 60 columns"),
    (np.zeros((0, 60)), np.zeros(0), "X_test holds no sample"),
    (np.full((2, 60), np.nan), np.zeros(2), "X_test contains 120 NaN"),
    (np.zeros((3, 60)), np.zeros(4), r"y_test must have shape \(3,\)"),
    (np.zeros((2, 60)), np.array(["R", "M"]), "y_test labels"),
])
def test_bad_test_sets_are_refused(sonar, X_test, y_test, match):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    with pytest.raises(ValueError, match=match):
        ev.holdout_score(_masks(60), X_test, y_test)


# ------------------------------------------------------------------ small classes
def _with_small_class(sonar, size):
    """Sonar with ``size`` samples relabelled to a third class."""
    X, y = sonar
    y = y.copy()
    y[np.flatnonzero(y == 0)[:size]] = 2
    return X, y


@pytest.mark.parametrize("cv", [5, 10])
@pytest.mark.parametrize("scoring", ["accuracy", "balanced_accuracy"])
def test_a_class_smaller_than_the_folds_warns_and_equals_scikit_learn(sonar, cv, scoring):
    X, y = _with_small_class(sonar, 2)
    with pytest.warns(UserWarning, match="least populated class in y has only 2 members"):
        ev = KNNEvaluator(X, y, cv=cv, scoring=scoring)
    masks = _masks(60, n=5, seed=cv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn's, on folds without a class
        expected = _sklearn(X, y, masks, ev.folds, scoring=scoring)
    np.testing.assert_array_equal(ev.score(masks), expected)


def test_every_class_smaller_than_the_folds_is_refused(sonar):
    X, y = sonar
    with pytest.raises(ValueError, match="cannot be greater than the number of members"):
        KNNEvaluator(X[:12], np.arange(12) % 2, cv=10)


def test_real_dataset_with_a_four_member_class(shared_data_dir):
    data = load_dataset("zoo", data_dir=shared_data_dir)  # 7 classes, the smallest has 4
    assert np.bincount(data.y).min() < 5
    for cv in (5, 10):
        with pytest.warns(UserWarning, match="least populated class"):
            ev = KNNEvaluator(data.X, data.y, n_neighbors=3, cv=cv)
        masks = _masks(data.n_features, n=6, seed=cv)
        np.testing.assert_array_equal(ev.score(masks),
                                      _sklearn(data.X, data.y, masks, ev.folds, k=3))


def test_a_read_only_array_is_copied_and_scored_like_a_writable_one(sonar):
    # joblib hands GridSearchCV(n_jobs=...) workers read-only memmaps; numba would compile a
    # read-only specialisation of every kernel for them (36 s), so the evaluator copies
    X, y = sonar
    frozen = X.copy()
    frozen.flags.writeable = False
    ev = KNNEvaluator(frozen, y, cv=5, random_state=0)
    assert ev.X.flags.writeable and not frozen.flags.writeable
    masks = np.random.default_rng(0).random((4, X.shape[1])) < 0.5
    np.testing.assert_array_equal(ev.score(masks),
                                  KNNEvaluator(X, y, cv=5, random_state=0).score(masks))
