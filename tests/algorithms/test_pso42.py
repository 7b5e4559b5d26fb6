"""PSO(4-2): the mixed initialisation, the fully connected neighbourhood with rule 2."""

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import PSO42, make_algorithm
from pymoo_fs.algorithms.soo.pso42 import mixed_initialisation
from pymoo_fs.problems import WeightedFeatureSelection
from tests.algorithms.loops import TargetEvaluator, assert_reproducible, replay


def _target_problem(D=30, alpha=0.9):
    target = np.zeros(D, dtype=bool)
    target[:3] = True
    return WeightedFeatureSelection(TargetEvaluator(target), alpha=alpha)


def test_mixed_initialisation_replays_its_draws():
    n, D, theta = 7, 12, 0.6
    X = mixed_initialisation(n, D, theta, np.random.default_rng(3))
    rs = np.random.default_rng(3)  # the documented order of the draws
    small = rs.random((5, D)) < 0.1
    large = []
    for _ in range(2):
        k = rs.integers(D // 2, D + 1)
        row = np.zeros(D, dtype=bool)
        row[rs.permutation(D)[:k]] = True
        large.append(row)
    selected = np.vstack([small, large])
    u = rs.random((n, D))
    expected = np.where(selected, theta + u * (1 - theta), u * (1 - theta))
    np.testing.assert_array_equal(X, expected)
    np.testing.assert_array_equal(X > theta, selected)


def test_mixed_initialisation_sizes_and_ranges():
    n, D, theta = 300, 60, 0.6
    X = mixed_initialisation(n, D, theta, np.random.default_rng(0))
    sizes = (X > theta).sum(axis=1)
    small, large = sizes[:200], sizes[200:]
    assert abs(small.mean() - 6.0) < 0.5  # 10 % of 60
    assert large.min() >= 30 and large.max() <= 60 and abs(large.mean() - 45) < 2.5
    assert np.all(X[X > theta] <= 1.0) and np.all(X[X <= theta] <= 1 - theta)
    # a threshold below 0.5: unselected coordinates stay below it
    X = mixed_initialisation(6, 20, 0.3, np.random.default_rng(0))
    assert np.all(X[X <= 0.3] <= 0.3) and (X > 0.3).sum() > 0


def test_initial_swarm_and_velocities():
    res = minimize(_target_problem(), PSO42(pop_size=9, vmax=4.0), ("n_gen", 1), seed=2)
    alg = res.algorithm
    sizes = res.pop.get("X").sum(axis=1)
    assert np.all(sizes[6:] >= 15)  # the last third is large
    assert np.all(np.abs(alg.V_) <= 4.0) and alg.V_.max() > 3.0 and alg.V_.min() < -3.0


def test_gbest_is_the_swarm_best_with_ties_to_fewer_features():
    """Fully connected neighbourhood and rule 2: every particle follows the same gbest, the
    best personal best by accuracy, ties going to the smaller subset."""
    problem = _target_problem(D=6)
    alg = PSO42(pop_size=4)
    alg.setup(problem, termination=("n_gen", 5), seed=0)
    pop = alg.ask()
    pop.set("X", np.array([[1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 1, 0], [1, 0, 0, 0, 0, 0],
                           [0, 0, 0, 1, 1, 0]], dtype=bool))
    pop.set("F", np.array([[0.1], [0.2], [0.3], [0.4]]))
    pop.set("score", np.array([0.8, 0.9, 0.9, 0.5]))  # fitness: accuracy alone
    alg.tell(infills=pop)
    assert alg.gbest_ == 2  # 0.9 twice: particle 2 has one feature, particle 1 four
    pop = alg.ask()
    pop.set("X", np.array([[1, 0, 0, 0, 0, 1], [1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0],
                           [1, 0, 0, 0, 0, 0]], dtype=bool))
    pop.set("F", np.full((4, 1), 0.5))
    pop.set("score", np.array([0.7, 0.9, 0.9, 0.95]))
    alg.tell(infills=pop)
    # particle 1: equal accuracy, fewer features -> replaced; particle 2: equal, more -> kept;
    # particle 3: better -> replaced and the new gbest
    np.testing.assert_array_equal(alg.pbest_pop_.get("X").sum(axis=1), [2, 2, 1, 1])
    assert alg.gbest_ == 3
    V_before, X_before, pbest = alg.V_.copy(), alg.X_.copy(), alg.pbest_X_.copy()
    rs = replay(alg)
    alg.ask()
    _, _, V = alg._pending
    r1, r2 = rs.random(X_before.shape), rs.random(X_before.shape)
    expected = (0.7298 * V_before + 1.49618 * r1 * (pbest - X_before)
                + 1.49618 * r2 * (pbest[3] - X_before))
    np.testing.assert_allclose(V, np.clip(expected, -4.0, 4.0))


def test_registered_as_pso_4_2_with_the_seed_000_defaults():
    alg = make_algorithm("PSO(4-2)")
    assert isinstance(alg, PSO42)
    assert (alg.fitness, alg.pbest_rule, alg.vmax, alg.initial_velocity, alg.threshold) == (
        "accuracy", "better_or_fewer", 4.0, "uniform", 0.6)
    assert isinstance(make_algorithm("pso42"), PSO42)


def test_same_seed_same_run():
    a = assert_reproducible(_target_problem(), lambda: PSO42(pop_size=6), ("n_gen", 6))
    assert a.algorithm.evaluator.n_eval == 36


@pytest.mark.parametrize("kwargs,name", [
    (dict(vmax=-1.0), "vmax"),
    (dict(initial_velocity="random"), "initial_velocity"),
    (dict(fitness="auc"), "fitness"),
    (dict(pbest_rule="fewer"), "pbest_rule"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        PSO42(**kwargs)
