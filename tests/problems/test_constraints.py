"""Constrained feature selection: a maximum number of features and a budget on feature costs."""

import numpy as np
import pytest
from pymoo.core.evaluator import Evaluator
from pymoo.core.population import Population
from pymoo.optimize import minimize

from pymoo_fs.algorithms import make_algorithm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import (BiObjectiveFeatureSelection, FitBFeatureSelection,
                               FitEFeatureSelection, WeightedFeatureSelection)


@pytest.fixture(scope="module")
def sonar():
    d = load_dataset("sonar")
    return d.X[:, :10], d.y


def _masks(*rows, D=10):
    m = np.zeros((len(rows), D), dtype=bool)
    for i, r in enumerate(rows):
        m[i, list(r)] = True
    return m


def test_hand_computed_constraint_values(sonar):
    costs = np.arange(1.0, 11.0)  # feature d costs d + 1
    p = WeightedFeatureSelection.from_data(*sonar, cv=3, max_features=3, feature_costs=costs,
                                           cost_budget=6.0)
    assert p.n_ieq_constr == 2
    masks = _masks([0, 1], [0, 1, 2, 3], [9])
    G = p.constraint_values(masks)
    np.testing.assert_array_equal(G, [[2 - 3, 3 - 6], [4 - 3, 10 - 6], [1 - 3, 10 - 6]])
    pop = Population.new("X", masks)
    Evaluator().eval(p, pop)
    np.testing.assert_array_equal(pop.get("G"), G)
    np.testing.assert_array_equal(pop.get("CV")[:, 0], [0.0, 1.0 + 4.0, 4.0])  # pymoo's CV
    np.testing.assert_array_equal(pop.get("FEAS")[:, 0], [True, False, False])
    # the objectives are those of the unconstrained problem
    free = WeightedFeatureSelection.from_data(*sonar, cv=3)
    np.testing.assert_array_equal(pop.get("F"), free.evaluate(masks))


@pytest.mark.parametrize("cls", [WeightedFeatureSelection, BiObjectiveFeatureSelection,
                                 FitEFeatureSelection, FitBFeatureSelection])
def test_every_problem_takes_the_constraints(cls, sonar):
    p = cls.from_data(*sonar, max_features=2) if cls is not FitBFeatureSelection else \
        cls.from_data(*sonar, max_features=2)
    out = p.evaluate(_masks([0], [0, 1, 2]), return_values_of=["G"])
    np.testing.assert_array_equal(out[:, 0], [-1.0, 1.0])
    q = cls.from_data(*sonar).constrain(max_features=2)
    assert q.n_ieq_constr == 1


def test_only_a_budget(sonar):
    p = BiObjectiveFeatureSelection.from_data(*sonar, cv=3, feature_costs=np.full(10, 0.5),
                                              cost_budget=1.0)
    assert p.n_ieq_constr == 1 and p.max_features is None
    np.testing.assert_array_equal(p.constraint_values(_masks([0, 1], [0, 1, 2]))[:, 0],
                                  [0.0, 0.5])


@pytest.mark.parametrize("kwargs, match", [
    (dict(max_features=0), "max_features"),
    (dict(max_features=11), "max_features"),
    (dict(max_features=2.5), "max_features"),
    (dict(max_features=True), "max_features"),
    (dict(feature_costs=np.ones(10)), "together"),
    (dict(cost_budget=3.0), "together"),
    (dict(feature_costs=np.ones(9), cost_budget=3.0), "one cost per feature"),
    (dict(feature_costs=-np.ones(10), cost_budget=3.0), "non-negative"),
    (dict(feature_costs=np.full(10, np.nan), cost_budget=3.0), "finite"),
    (dict(feature_costs=np.ones(10), cost_budget=0), "cost_budget"),
    (dict(feature_costs=np.ones(10), cost_budget="3"), "cost_budget"),
    (dict(feature_costs=np.ones(10), cost_budget=np.inf), "cost_budget"),
])
def test_bad_constraints_are_refused_by_name(kwargs, match, sonar):
    with pytest.raises((ValueError, TypeError), match=match):
        WeightedFeatureSelection.from_data(*sonar, cv=3, **kwargs)


def test_neighbourhood_evaluations_carry_the_constraints(sonar):
    # SFS scores flips through the incremental path: its individuals carry G too
    p = WeightedFeatureSelection.from_data(*sonar, cv=3, max_features=2)
    res = minimize(p, make_algorithm("SFS", fitness="objective"), seed=1)
    assert res.X.sum() <= 2 and res.G[0] <= 0
    free = minimize(WeightedFeatureSelection.from_data(*sonar, cv=3),
                    make_algorithm("SFS", fitness="objective"), seed=1)
    if free.X.sum() <= 2:  # the constraint was not binding: the same search
        np.testing.assert_array_equal(free.X, res.X)
    else:
        assert free.X.sum() > res.X.sum()


def test_bounded_subsets_on_a_bundled_dataset():
    d = load_dataset("sonar")
    p = BiObjectiveFeatureSelection.from_data(d.X, d.y, cv=3, max_features=5)
    for name in ("NSGA-II", "CMDPSOFS", "MOPSO", "PAES"):
        kw = {} if name == "PAES" else {"pop_size": 10}
        res = minimize(p, make_algorithm(name, **kw), ("n_eval", 200), seed=2)
        if name in ("NSGA-II", "PAES"):  # these reach 5 of 60 features within the budget
            assert res.X is not None, name
        if res.X is not None:  # the swarms approach it (CV falls) more slowly: none, or
            X = np.atleast_2d(res.X)  # only feasible subsets
            assert np.all(X.sum(axis=1) <= 5), name
