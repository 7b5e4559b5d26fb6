"""Feature-selection problems: objectives by hand, the mask boundary, hold-out scoring."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.evaluation import Evaluator, KNNEvaluator
from pymoo_fs.problems import (
    BiObjectiveFeatureSelection,
    WeightedFeatureSelection,
    as_masks,
    flip_masks,
)


class FixedEvaluator(Evaluator):
    """Scores each mask by a fixed table: lets objectives be checked by hand."""

    n_features = 4

    def __init__(self, table):
        self.table = table

    def score(self, masks):
        return np.array([self.table[tuple(m.astype(int))] for m in masks])

    def holdout_score(self, masks, X_test, y_test):
        return self.score(masks) / 2


TABLE = {(1, 0, 0, 0): 0.8, (1, 1, 0, 1): 0.95, (0, 0, 1, 1): 0.0, (1, 1, 0, 0): 0.7,
         (1, 0, 0, 1): 0.6}
MASKS = np.array([[1, 0, 0, 0], [1, 1, 0, 1], [0, 0, 1, 1]], dtype=bool)


def test_weighted_objective_by_hand():
    p = WeightedFeatureSelection(FixedEvaluator(TABLE), alpha=0.9)
    F = p.evaluate(MASKS)
    expected = [0.9 * 0.2 + 0.1 * 0.25, 0.9 * 0.05 + 0.1 * 0.75, 0.9 * 1.0 + 0.1 * 0.5]
    np.testing.assert_allclose(F[:, 0], expected, rtol=0, atol=1e-15)
    assert F.shape == (3, 1)


def test_bi_objective_by_hand():
    p = BiObjectiveFeatureSelection(FixedEvaluator(TABLE))
    F = p.evaluate(MASKS)
    np.testing.assert_allclose(F, [[0.2, 0.25], [0.05, 0.75], [1.0, 0.5]], atol=1e-15)


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


def test_empty_mask_is_refused_everywhere():
    data = load_dataset("sonar")
    bi = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5, X_test=data.X[:5],
                                               y_test=data.y[:5])
    w = WeightedFeatureSelection.from_data(data.X, data.y, cv=5, alpha=0.8)
    masks = np.zeros((2, data.n_features), dtype=bool)
    masks[0, 3] = True
    for call in (bi.evaluate, w.evaluate, bi.holdout_objectives):
        with pytest.raises(ValueError, match="mask 1 selects no feature"):
            call(masks)
    one = np.zeros(data.n_features, dtype=bool)
    one[7] = True
    with pytest.raises(ValueError, match="selects no feature"):
        bi.evaluate_flips(one, [3, 7])  # removing feature 7 would empty the mask


def test_objectives_match_evaluator_on_real_data(rng):
    split = holdout_split(load_dataset("sonar"), random_state=2)
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


@pytest.mark.parametrize("alpha", ["0.9", None, float("nan"), -0.1, True])
def test_alpha_must_be_a_number_in_the_unit_interval(alpha):
    with pytest.raises(ValueError, match=r"alpha must be a number in \[0, 1\]"):
        WeightedFeatureSelection(FixedEvaluator(TABLE), alpha=alpha)


@pytest.mark.parametrize("cls", [WeightedFeatureSelection, BiObjectiveFeatureSelection])
@pytest.mark.parametrize("X_test, y_test, match", [
    (np.zeros((5, 59)), np.zeros(5), "X_test must have 60 columns"),
    (np.zeros((0, 60)), np.zeros(0), "X_test holds no sample"),
    (np.zeros((5, 60)), np.zeros(4), r"y_test must have shape \(5,\)"),
])
def test_a_bad_test_set_is_refused_at_construction(cls, X_test, y_test, match):
    data = load_dataset("sonar")
    with pytest.raises(ValueError, match=match):
        cls.from_data(data.X, data.y, cv=5, X_test=X_test, y_test=y_test)
    ev = KNNEvaluator(data.X, data.y, cv=5)
    with pytest.raises(ValueError, match=match):
        cls(ev, X_test=X_test, y_test=y_test)


def test_evaluator_must_have_the_contract():
    class DuckTyped:  # has what the problem calls, but is no Evaluator
        n_features = 4

        def score(self, masks):
            return np.zeros(len(masks))

    for stand_in in (object(), DuckTyped()):
        with pytest.raises(TypeError, match=r"evaluator must be a pymoo_fs\.evaluation\."
                                            r"Evaluator \(subclass it"):
            BiObjectiveFeatureSelection(stand_in)


def test_the_contract_defaults_refuse_what_a_plain_evaluator_cannot_do():
    ev = FixedEvaluator(TABLE)
    assert (ev.n_evaluations, ev.n_cache_hits) == (0, 0)
    with pytest.raises(NotImplementedError, match="FixedEvaluator does not score hold-out"):
        ev.check_test_set(np.zeros((2, 4)), [0, 1])
    with pytest.raises(ValueError, match="FixedEvaluator holds no training data"):
        ev.training_data()
    with pytest.raises(ValueError, match="symmetric uncertainty needs the training data: "
                                         "FixedEvaluator holds no training data"):
        BiObjectiveFeatureSelection(ev).symmetric_uncertainty()
    # score_flips by default: score of the flipped masks, its arguments checked by name
    np.testing.assert_array_equal(ev.score_flips(np.array([1, 0, 0, 0], bool), [1, 3]),
                                  [0.7, 0.6])
    with pytest.raises(ValueError, match=r"features must be feature indices in \[0, 4\), got 7"):
        ev.score_flips(np.array([1, 0, 0, 0], bool), [1, 7])
    with pytest.raises(ValueError, match="features must be a 1-D array of feature indices"):
        ev.score_flips(np.array([1, 0, 0, 0], bool), [0.5])


def test_evaluate_flips_equals_evaluating_the_flipped_masks(rng):
    data = load_dataset("sonar")
    p = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    mask = rng.random(60) < 0.3
    features = np.array([0, 7, 31, 59])
    F = p.evaluate_flips(mask, features)
    flipped = np.repeat(mask[None, :], 4, axis=0)
    flipped[np.arange(4), features] ^= True
    np.testing.assert_array_equal(F, p.evaluate(flipped))
    with pytest.raises(ValueError, match=r"features must be feature indices in \[0, "):
        p.evaluate_flips(mask, [60])


def test_evaluation_reports_each_masks_score_beside_its_objectives():
    from pymoo.core.evaluator import Evaluator as PymooEvaluator
    from pymoo.core.population import Population

    data = load_dataset("sonar")
    problem = WeightedFeatureSelection.from_data(data.X[:, :10], data.y, cv=3, alpha=0.7)
    masks = np.eye(10, dtype=bool)[:4] | np.eye(10, dtype=bool)[5]
    pop = PymooEvaluator().eval(problem, Population.new("X", masks))
    scores = problem.evaluator.score(masks)
    np.testing.assert_array_equal(pop.get("score"), scores)
    np.testing.assert_allclose(pop.get("F")[:, 0], 0.7 * (1 - scores) + 0.3 * masks.sum(1) / 10)
    F, flip_scores = problem.evaluate_flips(masks[0], [1, 2, 9], return_scores=True)
    flipped = PymooEvaluator().eval(problem, Population.new("X", flip_masks(masks[0], [1, 2, 9])))
    np.testing.assert_array_equal(flip_scores, flipped.get("score"))
    np.testing.assert_array_equal(F, flipped.get("F"))
