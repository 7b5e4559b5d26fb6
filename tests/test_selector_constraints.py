"""SwarmFeatureSelector(max_features=...): the front and the chosen subset respect the bound."""

import numpy as np
import pytest

from pymoo_fs.datasets import load_dataset
from pymoo_fs.selector import SwarmFeatureSelector


@pytest.fixture(scope="module")
def sonar20():
    d = load_dataset("sonar")
    return d.X[:, :20], d.y


@pytest.mark.parametrize("algorithm, objective", [("NSGA-II", "pareto"), (None, "pareto"),
                                                  ("PSO", "weighted")])
def test_front_and_support_hold_at_most_max_features(sonar20, algorithm, objective):
    X, y = sonar20
    s = SwarmFeatureSelector(algorithm=algorithm, objective=objective, n_gen=10, pop_size=10,
                             max_features=3, random_state=0, cv=3).fit(X, y)
    assert np.all(s.pareto_front_["n_features"] <= 3)
    assert np.all(s.pareto_masks_.sum(axis=1) <= 3)
    assert 1 <= s.support_.sum() <= 3
    assert s.transform(X).shape[1] == s.support_.sum()


def test_the_bound_changes_nothing_when_it_does_not_bind(sonar20):
    X, y = sonar20
    kw = dict(algorithm="NSGA-II", n_gen=3, pop_size=8, random_state=0, cv=3)
    free = SwarmFeatureSelector(**kw).fit(X, y)
    bound = SwarmFeatureSelector(max_features=20, **kw).fit(X, y)
    np.testing.assert_array_equal(free.pareto_masks_, bound.pareto_masks_)


@pytest.mark.parametrize("value, error", [(0, ValueError), (21, ValueError), (2.5, ValueError),
                                          (True, ValueError)])
def test_bad_max_features_is_refused_by_name(sonar20, value, error):
    X, y = sonar20
    with pytest.raises(error, match="max_features"):
        SwarmFeatureSelector(max_features=value, n_gen=2, pop_size=4).fit(X, y)
