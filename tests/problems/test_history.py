"""Issue 24, defect 3: ``save_history=True`` does not copy the evaluator into each entry.

pymoo deep-copies the algorithm after every generation of a run with ``save_history=True``;
the algorithm holds the problem, and the problem its evaluator (training data, cache, kept Gram
matrices). A problem deep-copies to itself, so every history entry shares it.
"""

import copy

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs.algorithms import make_algorithm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection


def _sonar_problem(cls=BiObjectiveFeatureSelection):
    data = load_dataset("sonar")
    return cls.from_data(data.X[:, :20], data.y, cv=3)


def test_a_deep_copy_of_a_problem_is_the_problem():
    problem = _sonar_problem()
    assert copy.deepcopy(problem) is problem
    holder = copy.deepcopy({"problem": problem, "array": np.zeros(3)})
    assert holder["problem"] is problem and holder["problem"].evaluator is problem.evaluator


def test_history_entries_share_the_problem_and_give_the_same_result():
    problem = _sonar_problem()
    res = minimize(problem, make_algorithm("ISRPSO", pop_size=8), ("n_gen", 6), seed=1,
                   save_history=True)
    assert len(res.history) == 6
    assert all(entry.problem is problem for entry in res.history)
    assert all(entry.problem.evaluator is problem.evaluator for entry in res.history)
    # each entry still holds its own state of the search
    assert res.history[0].evaluator.n_eval < res.history[-1].evaluator.n_eval
    plain = minimize(_sonar_problem(), make_algorithm("ISRPSO", pop_size=8), ("n_gen", 6),
                     seed=1)
    np.testing.assert_array_equal(res.F, plain.F)
    np.testing.assert_array_equal(res.X, plain.X)


def test_single_objective_history_shares_the_problem_too():
    problem = _sonar_problem(WeightedFeatureSelection)
    res = minimize(problem, make_algorithm("PSO", pop_size=6), ("n_gen", 4), seed=2,
                   save_history=True)
    assert all(entry.problem is problem for entry in res.history)
