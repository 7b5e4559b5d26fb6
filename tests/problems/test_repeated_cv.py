"""FIT-A with Weka's repeated inner cross-validation: the rule, flips, counters, the study."""

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import FSIPSO
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import Evaluator, KNNEvaluator
from pymoo_fs.problems import (
    RepeatedCrossValidation,
    RepeatedCVFeatureSelection,
    WeightedFeatureSelection,
    flip_masks,
)
from pymoo_fs.problems.repeated_cv import repetition_seeds


class Constant(Evaluator):
    """A stand-in evaluator whose every mask scores ``value``; counts its masks."""

    def __init__(self, value, n_features=4):
        self.value, self.n_features, self.n_samples = value, n_features, 10
        self.n_evaluations = 0

    def check_masks(self, masks):
        return np.atleast_2d(np.asarray(masks, dtype=bool))

    def score(self, masks):
        self.n_evaluations += len(masks)
        return np.full(len(masks), self.value)

    def score_flips(self, mask, features):
        return self.score(np.zeros((len(features), self.n_features)))


def test_rule_by_hand_with_constant_repetitions():
    # errors 0.2, 0.2: no spread after two repetitions -> stop
    rcv = RepeatedCrossValidation([Constant(0.8), Constant(0.8), Constant(0.5)])
    np.testing.assert_allclose(rcv.score(np.ones((2, 4))), [0.8, 0.8])
    assert rcv.last_repetitions_.tolist() == [2, 2]
    # errors 0.2, 0.21: std 0.005, mean 0.205 -> 2.4 % > 1 %: a third; then 0.2, 0.21, 0.205
    # has std 0.0041 / 0.205 = 2.0 % -> a fourth (0.205): 1.7 % -> a fifth (0.205): 1.6 %
    accs = [0.8, 0.79, 0.795, 0.795, 0.795]
    rcv = RepeatedCrossValidation([Constant(a) for a in accs])
    np.testing.assert_allclose(rcv.score(np.ones((1, 4))), [np.mean(accs)])
    assert rcv.last_repetitions_.tolist() == [5]
    # a threshold of 3 %: two suffice (2.4 %)
    rcv = RepeatedCrossValidation([Constant(a) for a in accs], threshold=0.03)
    np.testing.assert_allclose(rcv.score(np.ones((1, 4))), [0.795])
    assert [ev.n_evaluations for ev in rcv.evaluators] == [1, 1, 0, 0, 0]
    # one repetition when allowed and the threshold is never reached
    rcv = RepeatedCrossValidation([Constant(0.6), Constant(0.9)], min_repetitions=1,
                                  threshold=10.0)
    np.testing.assert_allclose(rcv.score(np.ones((1, 4))), [0.6])


def test_rule_applies_to_fit_a_errors_with_alpha():
    # accuracies 0.9 and 0.88, 2 of 4 features: with alpha = 1 errors 0.1, 0.12 (9.1 %);
    # with alpha = 0.5 errors 0.3, 0.31 (1.6 %); with a 2 % threshold only alpha = 1 repeats
    masks = np.array([[1, 1, 0, 0]], dtype=bool)
    for alpha, reps in ((1.0, 3), (0.5, 2)):
        rcv = RepeatedCrossValidation([Constant(0.9), Constant(0.88), Constant(0.89)],
                                      alpha=alpha, threshold=0.02)
        rcv.score(masks)
        assert rcv.last_repetitions_.tolist() == [reps]


def test_zero_error_stops_after_the_minimum():
    rcv = RepeatedCrossValidation([Constant(1.0)] * 4)
    rcv.score(np.ones((3, 4)))
    assert rcv.last_repetitions_.tolist() == [2, 2, 2]


@pytest.fixture(scope="module")
def knn_problem():
    data = load_dataset("sonar")
    return RepeatedCVFeatureSelection.from_data(data.X[:, :12], data.y, cv=5, repetitions=4,
                                                random_state=3, X_test=data.X[:40, :12],
                                                y_test=data.y[:40])


def test_scores_equal_the_rule_applied_to_each_repetitions_scores(knn_problem):
    rng = np.random.default_rng(0)
    masks = rng.random((25, 12)) < 0.4
    masks[~masks.any(axis=1), 0] = True
    F = knn_problem.evaluate(masks)
    per = np.array([ev.score(masks) for ev in knn_problem.evaluators])  # (4, 25)
    ratio = masks.sum(axis=1) / 12
    expected, reps = [], []
    for j in range(25):
        for r in range(2, 5):
            e = 0.9 * (1 - per[:r, j]) + 0.1 * ratio[j]
            if r == 4 or not e.std() / e.mean() > 0.01:
                break
        expected.append(per[:r, j].mean())
        reps.append(r)
    np.testing.assert_allclose(F[:, 0], 0.9 * (1 - np.array(expected)) + 0.1 * ratio)
    assert knn_problem.evaluator.last_repetitions_.tolist() == reps
    assert len(set(reps)) > 1  # the rule did stop early for some and repeat for others


def test_flips_equal_plain_scores(knn_problem):
    mask = np.zeros(12, dtype=bool)
    mask[[1, 4, 7]] = True
    features = np.array([0, 1, 5, 7, 11])
    flips = knn_problem.evaluate_flips(mask, features)
    np.testing.assert_allclose(flips, knn_problem.evaluate(flip_masks(mask, features)))


def test_first_repetition_has_the_simple_forms_folds(knn_problem):
    data = load_dataset("sonar")
    simple = WeightedFeatureSelection.from_data(data.X[:, :12], data.y, cv=5, random_state=3)
    for (a, b), (c, d) in zip(simple.evaluator.folds, knn_problem.evaluators[0].folds):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    seeds = repetition_seeds(3, 4)
    assert seeds[0] == 3 and len(set(seeds)) == 4
    folds = [ev.folds[0][1] for ev in knn_problem.evaluators]
    assert not np.array_equal(folds[0], folds[1])


def test_counters_sum_over_repetitions_and_an_algorithm_runs(knn_problem):
    rcv = knn_problem.evaluator
    rcv.clear_cache()
    before = rcv.n_evaluations
    res = minimize(knn_problem, FSIPSO(pop_size=5), ("n_gen", 3), seed=0)
    computed = rcv.n_evaluations - before
    n_eval = res.algorithm.evaluator.n_eval
    assert n_eval == 12 + 15
    assert 2 * n_eval - rcv.n_cache_hits <= computed <= 4 * n_eval
    assert rcv.n_cache_hits == sum(ev.n_cache_hits for ev in rcv.evaluators)
    test = knn_problem.holdout_objectives(res.X[None, :])
    assert test.shape == (1, 1)


def test_errors():
    a, b = Constant(0.5), Constant(0.5, n_features=5)
    with pytest.raises(ValueError, match="same training data"):
        RepeatedCrossValidation([a, b])
    with pytest.raises(ValueError, match="^min_repetitions "):
        RepeatedCrossValidation([a, a], min_repetitions=3)
    with pytest.raises(ValueError, match="^threshold "):
        RepeatedCrossValidation([a, a], threshold=-0.1)
    with pytest.raises(ValueError, match="^alpha "):
        RepeatedCrossValidation([a, a], alpha=1.5)
    with pytest.raises(ValueError, match="at least one evaluator"):
        RepeatedCrossValidation([])
    data = load_dataset("sonar")
    with pytest.raises(ValueError, match="^repetitions "):
        RepeatedCVFeatureSelection.from_data(data.X, data.y, repetitions=0)
    with pytest.raises(TypeError, match="folds"):
        RepeatedCVFeatureSelection.from_data(data.X, data.y, folds=5)
    evs = [KNNEvaluator(data.X[:, :5], data.y, cv=3, random_state=s) for s in (0, 1)]
    problem = RepeatedCVFeatureSelection(evs)
    with pytest.raises(ValueError, match="selects no feature"):
        problem.evaluate(np.zeros((1, 5), dtype=bool))
