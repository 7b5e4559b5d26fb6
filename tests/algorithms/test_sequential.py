"""SFS and SBS: Weka's greedy stepwise rules, one flip batch per step, budgets, errors."""

import numpy as np
import pytest
from pymoo.core.problem import Problem
from pymoo.optimize import minimize

from pymoo_fs.algorithms import SBS, SFS, SequentialSelection, make_algorithm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import WeightedFeatureSelection, flip_masks
from tests.algorithms.loops import TargetEvaluator, ask_and_tell


class ConstantEvaluator(TargetEvaluator):
    """Every subset scores the same: only the tie rules decide."""

    def score(self, masks):
        masks = np.atleast_2d(masks)
        self.n_evaluations += masks.shape[0]
        return np.full(masks.shape[0], 0.5)


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return WeightedFeatureSelection.from_data(data.X[:, :14], data.y, cv=3)


def _greedy(problem, forward, fitness):
    """Weka's GreedyStepwise written out plainly on problem.evaluate (fitness: lower better)."""
    D = problem.n_var
    current = np.zeros(D, dtype=bool) if forward else np.ones(D, dtype=bool)
    merit = np.inf if forward else fitness(current[None, :])[0]
    path = [current.copy()]
    while True:
        features = np.flatnonzero(~current if forward else current)
        if not forward and features.size <= 1:
            return current, path
        if features.size == 0:
            return current, path
        best, best_fit = None, merit
        for f in features:  # feature order, as Weka scans
            fit = fitness(flip_masks(current, [f]))[0]
            if (fit < best_fit) if forward else (fit <= best_fit):
                best, best_fit = f, fit
        if best is None:
            return current, path
        current[best] = forward
        merit = best_fit
        path.append(current.copy())


def _accuracy(problem):
    return lambda masks: 1.0 - problem.evaluator.score(masks)


@pytest.mark.parametrize("cls,forward", [(SFS, True), (SBS, False)])
def test_search_equals_weka_greedy_stepwise_written_out(sonar, cls, forward):
    expected, path = _greedy(sonar, forward, _accuracy(sonar))
    seen = []
    res = ask_and_tell(sonar, cls(), None, 0,
                       after_tell=lambda alg, pop: seen.append(alg.current_.copy()))
    np.testing.assert_array_equal(res.X, expected)
    assert res.algorithm.exhausted_
    kept = path[1:] if forward else path
    np.testing.assert_array_equal(np.unique(seen, axis=0), np.unique(kept, axis=0))
    np.testing.assert_allclose(res.F, sonar.evaluate(expected[None, :])[0])


@pytest.mark.parametrize("cls,forward", [(SFS, True), (SBS, False)])
def test_objective_merit_follows_the_problems_objective(sonar, cls, forward):
    expected, _ = _greedy(sonar, forward, lambda m: sonar.evaluate(m)[:, 0])
    res = minimize(sonar, cls(fitness="objective"))
    np.testing.assert_array_equal(res.X, expected)


def test_tie_rules_forward_first_backward_last():
    problem = WeightedFeatureSelection(ConstantEvaluator(np.zeros(5, dtype=bool)), alpha=1.0)
    res = minimize(problem, SFS())
    # first step: all equal, the first feature; then no strict improvement: stop
    np.testing.assert_array_equal(res.X, [True, False, False, False, False])
    assert res.algorithm.evaluator.n_eval == 5 + 4
    res = minimize(problem, SBS())
    # equal merits are accepted, the last feature goes first, down to one feature
    np.testing.assert_array_equal(res.X, [True, False, False, False, False])
    assert res.algorithm.evaluator.n_eval == 1 + 5 + 4 + 3 + 2
    assert res.algorithm.n_gen - 1 == 5


def test_each_step_is_one_flip_batch_counted_in_n_eval(sonar):
    calls = []
    original = sonar.evaluator.score_flips

    def spy(base, features):
        calls.append(len(features))
        return original(base, features)

    sonar.evaluator.score_flips = spy
    try:
        res = minimize(sonar, SFS())
    finally:
        del sonar.evaluator.score_flips
    steps = res.algorithm.n_gen - 1
    assert len(calls) == steps
    assert calls == [14 - k for k in range(steps)]
    assert res.algorithm.evaluator.n_eval == sum(calls)


def test_terminations_cut_the_search(sonar):
    res = minimize(sonar, SBS(), ("n_gen", 3))
    assert res.X.sum() == 12 and not res.algorithm.exhausted_  # two removals
    res = minimize(sonar, SFS(), ("n_eval", 20))
    assert res.algorithm.evaluator.n_eval == 20  # 14, then 6 of the 13 additions
    assert res.X.sum() == 2


def test_deterministic_whatever_the_seed(sonar):
    a, b = minimize(sonar, SBS(), seed=1), minimize(sonar, SBS(), seed=2)
    np.testing.assert_array_equal(a.X, b.X)


def test_registry_ignores_pop_size():
    assert isinstance(make_algorithm("SFS", pop_size=50), SFS)
    assert make_algorithm("sbs", fitness="objective").fitness == "objective"


def test_errors():
    with pytest.raises(ValueError, match="^direction "):
        SequentialSelection("sideways")
    with pytest.raises(ValueError, match="^fitness "):
        SFS(fitness="auc")
    with pytest.raises(TypeError, match="unexpected keyword argument 'pop_size'"):
        SFS(pop_size=10)

    class Plain(Problem):
        def __init__(self):
            super().__init__(n_var=4, n_obj=1, xl=0, xu=1, vtype=bool)

        def _evaluate(self, x, out, *args, **kwargs):
            out["F"] = x.sum(axis=1, keepdims=True).astype(float)

    with pytest.raises(ValueError, match="fitness='accuracy' needs a FeatureSelectionProblem"):
        minimize(Plain(), SFS())
    res = minimize(Plain(), SBS(fitness="objective"))
    assert res.X.sum() == 1
