"""SBPSO: stickiness-driven flip probabilities, the stickiness update, the move, errors."""

import numpy as np
import pytest

from pymoo_fs.algorithms import SBPSO
from pymoo_fs.algorithms.soo.sbpso import flip_probability, sticky_flip
from pymoo_fs.problems import WeightedFeatureSelection
from tests.algorithms.loops import (FixedDraws, TargetEvaluator, advance, ask_and_tell,
                                    assert_reproducible, replay)


def _target_problem(D=20):
    target = np.zeros(D, dtype=bool)
    target[::3] = True
    return WeightedFeatureSelection(TargetEvaluator(target), alpha=0.9)


def test_flip_probability_by_hand():
    X = np.array([[1.0, 1.0, 0.0, 0.0],
                  [0.0, 1.0, 1.0, 0.0]])
    P = np.array([[1.0, 0.0, 0.0, 1.0],
                  [0.0, 1.0, 1.0, 0.0]])
    G = np.array([1.0, 0.0, 1.0, 1.0])
    stk = np.array([[1.0, 0.2, 0.0, 0.6],
                    [0.5, 1.0, 1.0, 0.0]])
    p = flip_probability(X, P, G, stk, 0.25, 0.25, 0.5)
    # i_m (1 - stk) + i_p |P - X| + i_g |G - X|
    np.testing.assert_allclose(p, [[0.0, 0.2 + 0.25 + 0.5, 0.25 + 0.5, 0.1 + 0.25 + 0.5],
                                   [0.125 + 0.5, 0.5, 0.0, 0.25 + 0.5]])


def test_sticky_flip_resets_or_wears_off_the_stickiness():
    X = np.array([[1.0, 0.0, 1.0, 0.0]])
    P = np.array([[1.0, 1.0, 1.0, 0.0]])
    G = np.array([1.0, 1.0, 0.0, 0.0])
    stk = np.array([[1.0, 0.5, 0.3, 0.01]])
    # p = [0, 0.125 + 0.25 + 0.5, 0.175 + 0.5, 0.2475]
    draws = FixedDraws([[0.0, 0.8, 0.7, 0.3]])
    X_new, stk_new = sticky_flip(X, P, G, stk, (0.25, 0.25, 0.5), 0.02, draws)
    # bit 0: p = 0 never flips (r = 0 is not < 0); bit 1 flips (0.8 < 0.875);
    # bit 2 stays (0.7 >= 0.675); bit 3 stays, stickiness 0.01 < 1/L stays as it is
    np.testing.assert_array_equal(X_new, [[1.0, 1.0, 1.0, 0.0]])
    np.testing.assert_allclose(stk_new, [[0.98, 1.0, 0.28, 0.01]])


def test_first_move_leaves_the_gbest_particle_in_place():
    """Stickiness 1 and x = pbest = gbest: every flip probability of the gbest particle is 0."""
    problem = _target_problem()
    seen = []
    ask_and_tell(problem, SBPSO(pop_size=6), ("n_gen", 3), 7,
                 after_tell=lambda alg, pop: seen.append((alg.X_.copy(), alg.V_.copy(),
                                                          alg.gbest_)))
    (X0, stk0, g), (X1, stk1, _) = seen[0], seen[1]
    np.testing.assert_array_equal(stk0, 1.0)
    np.testing.assert_array_equal(X1[g], X0[g])
    np.testing.assert_allclose(stk1[g], 1.0 - 1.0 / 50)
    others = np.arange(6) != g
    flipped = X1[others] != X0[others]
    assert flipped.any()
    np.testing.assert_array_equal(stk1[others][flipped], 1.0)
    np.testing.assert_allclose(stk1[others][~flipped], 0.98)


def test_move_replays_its_draws():
    problem = _target_problem()
    alg = advance(problem, SBPSO(pop_size=5, i_m=0.3, i_p=0.2, i_g=0.4, stickiness_steps=10),
                  3, seed=1)
    X, stk, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    rs = replay(alg)
    pop = alg.ask()
    p = 0.3 * (1 - stk) + 0.2 * np.abs(P - X) + 0.4 * np.abs(P[g] - X)
    flip = rs.random(X.shape) < p
    _, X_new, stk_new = alg._pending
    np.testing.assert_array_equal(X_new, np.where(flip, 1 - X, X))
    np.testing.assert_allclose(stk_new, np.where(flip, 1.0, np.where(stk >= 0.1, stk - 0.1,
                                                                      stk)))
    np.testing.assert_array_equal(pop.get("X"), X_new > 0.5)


def test_stickiness_stays_in_unit_interval_and_runs_reproduce():
    problem = _target_problem(30)
    a = assert_reproducible(problem, lambda: SBPSO(pop_size=8, stickiness_steps=3),
                            ("n_gen", 15), (2, 3))
    stk = a.algorithm.V_
    assert np.all((stk >= 0) & (stk <= 1)) and stk.min() < 0.34
    assert a.algorithm.evaluator.n_eval == 8 * 15


@pytest.mark.parametrize("kwargs,name", [
    (dict(i_m=-0.1), "i_m"),
    (dict(i_p=1.5), "i_p"),
    (dict(i_g="0.5"), "i_g"),
    (dict(stickiness_steps=0), "stickiness_steps"),
    (dict(pbest_rule="dominates"), "pbest_rule"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        SBPSO(**kwargs)
