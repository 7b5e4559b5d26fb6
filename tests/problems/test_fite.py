"""FIT-E: leave-one-out 5-NN accuracy, fewer features winning ties, and the swarms' ordering."""

import numpy as np
import pytest
from pymoo.optimize import minimize
from sklearn.model_selection import LeaveOneOut, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.algorithms import BPSO, CEPSOFL, CSO, swarm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import Evaluator
from pymoo_fs.problems import FitEFeatureSelection, WeightedFeatureSelection


class CoarseEvaluator(Evaluator):
    """Score 1.0 when feature 0 is selected, 0.5 otherwise: most masks tie on accuracy."""

    def __init__(self, D):
        self.n_features = D
        self.n_evaluations = 0

    def score(self, masks):
        masks = np.atleast_2d(masks)
        self.n_evaluations += masks.shape[0]
        return np.where(masks[:, 0], 1.0, 0.5)


@pytest.fixture(scope="module")
def small():
    data = load_dataset("sonar")
    return data.X[::2, :12], data.y[::2]


def test_objective_is_one_minus_the_loocv_5nn_accuracy(small):
    X, y = small
    problem = FitEFeatureSelection.from_data(X, y)
    masks = np.zeros((3, 12), dtype=bool)
    masks[0, :4] = masks[1, ::2] = masks[2, [3]] = True
    F = problem.evaluate(masks)
    for mask, f in zip(masks, F[:, 0]):
        acc = cross_val_score(KNeighborsClassifier(5), X[:, mask], y, cv=LeaveOneOut()).mean()
        assert f == pytest.approx(1.0 - acc, abs=1e-12)


def test_equal_accuracy_fewer_features_wins():
    problem = FitEFeatureSelection(CoarseEvaluator(6))
    masks = np.array([[1, 1, 1, 0, 0, 0], [1, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 0]], dtype=bool)
    F = problem.evaluate(masks)
    n = masks.sum(axis=1)
    assert F[0, 0] == F[1, 0] == 0.0 and F[2, 0] == 0.5
    assert problem.better(F[1], F[0], n[1], n[0]).tolist() == [True]   # tie, fewer
    assert problem.better(F[0], F[1], n[0], n[1]).tolist() == [False]  # tie, more
    assert problem.better(F[0], F[0], 3, 3).tolist() == [False]        # equal
    assert problem.better(F[0], F[2], n[0], n[2]).tolist() == [True]   # accuracy first
    assert problem.better(F[2], F[0], n[2], n[0]).tolist() == [False]  # not a weighted sum
    weighted = WeightedFeatureSelection(CoarseEvaluator(6), alpha=1.0)
    assert weighted.better(F[1], F[0], n[1], n[0]).tolist() == [False]  # no tie-break there


def test_empty_mask_refused_or_zero():
    empty = np.zeros((1, 6), dtype=bool)
    with pytest.raises(ValueError, match="selects no feature"):
        FitEFeatureSelection(CoarseEvaluator(6)).evaluate(empty)
    zero = FitEFeatureSelection(CoarseEvaluator(6), empty_mask="zero")
    masks = np.vstack([empty, np.eye(6, dtype=bool)[:1]])
    np.testing.assert_array_equal(zero.evaluate(masks)[:, 0], [1.0, 0.0])
    with pytest.raises(ValueError, match="empty_mask"):
        FitEFeatureSelection(CoarseEvaluator(6), empty_mask="one")
    with pytest.raises(TypeError, match="neighbours"):
        FitEFeatureSelection.from_data(np.eye(4), [0, 0, 1, 1], neighbours=3)


def test_order_key_is_the_lexicographic_rank():
    F, n = np.array([0.3, 0.1, 0.3, 0.1, 0.3]), np.array([5, 9, 2, 9, 5])
    np.testing.assert_array_equal(swarm.order_key(F, n, True), [2, 0, 1, 0, 2])
    np.testing.assert_array_equal(swarm.order_key(F, n, False), F)


def _run_recording(problem, algorithm, n_gen, seed):
    seen = []
    res = minimize(problem, algorithm, ("n_gen", n_gen), seed=seed,
                   callback=lambda alg: seen.append((alg.pop.get("F")[:, 0],
                                                     alg.pop.get("X").sum(axis=1))))
    F = np.concatenate([s[0] for s in seen])
    n = np.concatenate([s[1] for s in seen])
    return res, F, n


@pytest.mark.parametrize("make", [lambda: BPSO(pop_size=8, pbest_rule="better"),
                                  lambda: CSO(pop_size=8, pbest_rule="better",
                                              prefer_fewer=False),
                                  lambda: CEPSOFL(pop_size=8, pbest_rule="better",
                                                  ranking="index")],
                         ids=["BPSO", "CSO", "CEPSO-FL"])
def test_swarms_under_fite_return_the_lexicographic_best(make):
    D = 30
    res, F, n = _run_recording(FitEFeatureSelection(CoarseEvaluator(D)), make(), 15, seed=1)
    assert res.algorithm.single_rule() == "better_or_fewer"
    best = np.lexsort((n, F))[0]
    assert res.F[0] == F[best] == 0.0 and res.X.sum() == n[best]
    # the same algorithm on accuracy alone with "better" keeps the first perfect mask it met
    res_w, F_w, n_w = _run_recording(WeightedFeatureSelection(CoarseEvaluator(D), alpha=1.0),
                                     make(), 15, seed=1)
    assert res_w.algorithm.single_rule() == "better"
    assert res_w.F[0] == 0.0 and res_w.X.sum() > res.X.sum()
