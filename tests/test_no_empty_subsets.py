"""No empty feature subset in any result: fronts, archives, res.X, fronts.csv.

Before the rule, on the 13-feature wine dataset every algorithm's front held the empty mask as
(error 1.0, 0 features); measured on the previous revision with exactly this comparison, 5 of
6 fronts held it.
"""

import csv

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import algorithm_names, make_algorithm
from pymoo_fs.algorithms.registry import n_objectives
from pymoo_fs.comparison import compare
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection


def test_no_front_of_the_comparison_holds_an_empty_mask(shared_data_dir, tmp_path):
    c = compare(str(shared_data_dir / "wine.csv.gz"), runs=2, generations=20, pop_size=20, cv=5,
                out=tmp_path)
    for r in c.results.records:
        assert all(r["features"]), f"{r['algorithm']} run {r['run']} holds an empty mask"
        F = np.array(r["F_train"])
        assert np.all(F[:, 1] > 0) and np.all(F[:, 0] < 1.0)
    with open(c.paths["fronts"]) as fh:
        rows = list(csv.DictReader(fh))
    assert rows and all(int(row["n_selected"]) >= 1 for row in rows)


@pytest.mark.parametrize("name", algorithm_names())
def test_no_algorithm_returns_an_empty_mask_on_a_tiny_problem(name):
    # 3 features: random bit strings and thresholded positions are often empty here
    data = load_dataset("sonar")
    X = data.X[:, [10, 20, 30]]
    cls = WeightedFeatureSelection if n_objectives(name) == 1 else BiObjectiveFeatureSelection
    problem = cls.from_data(X, data.y, cv=3)
    seen = []
    res = minimize(problem, make_algorithm(name, pop_size=12), ("n_gen", 8), seed=0,
                   callback=lambda alg: seen.append(alg.pop.get("X")))
    assert np.atleast_2d(res.X).any(axis=1).all()
    assert all(masks.any(axis=1).all() for masks in seen)
