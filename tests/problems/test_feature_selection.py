"""Feature-selection problems: objectives by hand, the mask boundary, hold-out scoring."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import load_dataset, train_test_split
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection, as_masks


class FixedEvaluator:
    """Scores each mask by a fixed table: lets objectives be checked by hand."""

    n_features = 4

    def __init__(self, table):
        self.table = table

    def score(self, masks):
        return np.array([self.table[tuple(m.astype(int))] for m in masks])

    def holdout_score(self, masks, X_test, y_test):
        return self.score(masks) / 2


TABLE = {(1, 0, 0, 0): 0.8, (1, 1, 0, 1): 0.95, (0, 0, 0, 0): 0.0}
MASKS = np.array([[1, 0, 0, 0], [1, 1, 0, 1], [0, 0, 0, 0]], dtype=bool)


def test_weighted_objective_by_hand():
    p = WeightedFeatureSelection(FixedEvaluator(TABLE), alpha=0.9)
    F = p.evaluate(MASKS)
    expected = [0.9 * 0.2 + 0.1 * 0.25, 0.9 * 0.05 + 0.1 * 0.75, 0.9 * 1.0 + 0.0]
    np.testing.assert_allclose(F[:, 0], expected, rtol=0, atol=1e-15)
    assert F.shape == (3, 1)


def test_bi_objective_by_hand():
    p = BiObjectiveFeatureSelection(FixedEvaluator(TABLE))
    F = p.evaluate(MASKS)
    np.testing.assert_allclose(F, [[0.2, 0.25], [0.05, 0.75], [1.0, 0.0]], atol=1e-15)


def test_problem_declares_boolean_variables():
    p = BiObjectiveFeatureSelection(FixedEvaluator(TABLE))
    assert p.n_var == 4 and p.n_obj == 2 and p.vtype is bool
    np.testing.assert_array_equal(p.xl, 0)
    np.testing.assert_array_equal(p.xu, 1)


def test_continuous_positions_are_rejected():
    p = BiObjectiveFeatureSelection(FixedEvaluator(TABLE))
    with pytest.raises(ValueError, match="decode continuous positions"):
        p.evaluate(np.full((1, 4), 0.7))
    with pytest.raises(ValueError, match="shape"):
        as_masks(np.ones((1, 3), dtype=bool), 4)


def test_real_empty_mask_is_worst():
    data = load_dataset("sonar")
    bi = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    w = WeightedFeatureSelection.from_data(data.X, data.y, cv=5, alpha=0.8)
    empty = np.zeros((1, data.n_features), dtype=bool)
    np.testing.assert_array_equal(bi.evaluate(empty), [[1.0, 0.0]])
    assert w.evaluate(empty)[0, 0] == pytest.approx(0.8)


def test_objectives_match_evaluator_on_real_data(rng):
    split = train_test_split(load_dataset("sonar"), random_state=2)
    ev = KNNEvaluator(split.X_train, split.y_train, cv=5)
    p = BiObjectiveFeatureSelection(ev, X_test=split.X_test, y_test=split.y_test)
    masks = rng.random((6, ev.n_features)) < 0.3
    F = p.evaluate(masks)
    np.testing.assert_array_equal(F[:, 0], 1.0 - ev.score(masks))
    np.testing.assert_array_equal(F[:, 1], masks.sum(axis=1) / 60)
    Ft = p.holdout_objectives(masks)
    expected = [
        1 - KNeighborsClassifier(5).fit(ev.X[:, m], ev.y).score(split.X_test[:, m],
                                                                 split.y_test)
        for m in masks
    ]
    np.testing.assert_array_equal(Ft[:, 0], expected)
    np.testing.assert_array_equal(Ft[:, 1], F[:, 1])


def test_holdout_needs_a_test_set():
    p = BiObjectiveFeatureSelection(FixedEvaluator(TABLE))
    with pytest.raises(ValueError, match="no hold-out test set"):
        p.holdout_objectives(MASKS)
    np.testing.assert_allclose(p.holdout_objectives(MASKS, X_test=0, y_test=0)[:, 0],
                               [0.6, 0.525, 1.0])


def test_invalid_arguments():
    with pytest.raises(ValueError, match="alpha"):
        WeightedFeatureSelection(FixedEvaluator(TABLE), alpha=1.5)
    with pytest.raises(ValueError, match="together"):
        BiObjectiveFeatureSelection(FixedEvaluator(TABLE), X_test=np.zeros((2, 4)))
