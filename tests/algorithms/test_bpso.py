"""BPSO and UBPSO: the sigmoid rule, the move, the increasing inertia schedule, rho, errors."""

import math

import numpy as np
import pytest

from pymoo_fs.algorithms import BPSO, UBPSO, swarm
from pymoo_fs.problems import WeightedFeatureSelection
from tests.algorithms.loops import (FixedDraws, TargetEvaluator, advance, ask_and_tell,
                                    assert_reproducible, replay)


def _target_problem(D=20):
    target = np.zeros(D, dtype=bool)
    target[::5] = True
    return WeightedFeatureSelection(TargetEvaluator(target), alpha=0.9)


def test_sigmoid_rule_by_hand():
    V = np.array([[-10.0, 0.0, 10.0, 0.5]])
    draws = FixedDraws([[0.01, 0.49, 0.99, 0.62]])
    # p = sigmoid(v) = [4.5e-5, 0.5, 0.99995, 0.6225]
    np.testing.assert_array_equal(swarm.sigmoid_bits(V, draws), [[0.0, 1.0, 1.0, 1.0]])
    draws = FixedDraws([[0.05, 0.49, 0.95, 0.62]])
    np.testing.assert_array_equal(swarm.sigmoid_bits(V, draws, 0.1, 0.9),
                                  [[1.0, 1.0, 0.0, 1.0]])  # p clipped to [0.1, 0.9]


def test_bpso_move_is_velocity_clamp_then_sigmoid():
    problem = _target_problem()
    alg = advance(problem, BPSO(pop_size=5, w=0.8, c1=1.5, c2=2.5, vmax=1.0), 1, seed=3)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    rs = replay(alg)
    pop = alg.ask()
    r1, r2 = rs.random(X.shape), rs.random(X.shape)
    V_e = np.clip(0.8 * V + 1.5 * r1 * (P - X) + 2.5 * r2 * (P[g] - X), -1.0, 1.0)
    X_e = (rs.random(X.shape) < 1 / (1 + np.exp(-V_e))).astype(float)
    _, X_new, V_new = alg._pending
    np.testing.assert_allclose(V_new, V_e)
    np.testing.assert_array_equal(X_new, X_e)
    np.testing.assert_array_equal(pop.get("X"), X_e > 0.5)


def test_bpso_initial_swarm_and_bounds():
    problem = _target_problem(40)
    seen = []
    ask_and_tell(problem, BPSO(pop_size=8, vmax=2.0), ("n_gen", 6), 1,
                 after_tell=lambda alg, pop: seen.append((alg.X_.copy(), alg.V_.copy())))
    X0, V0 = seen[0]
    assert set(np.unique(X0)) == {0.0, 1.0} and 0.3 < X0.mean() < 0.7
    assert np.all(np.abs(V0) <= 2.0) and V0.min() < -1.5 and V0.max() > 1.5
    for X, V in seen:
        assert np.all(np.abs(V) <= 2.0) and np.all(X.sum(axis=1) >= 1)


def test_empty_bit_strings_are_repaired_in_the_position():
    problem = _target_problem(8)
    alg = advance(problem, BPSO(pop_size=6, w=1.0, vmax=20.0), 1, seed=0)
    alg.V_ = np.full_like(alg.V_, -20.0)  # every bit's probability is ~0: all would be empty
    alg.pbest_X_ = np.zeros_like(alg.pbest_X_)
    pop = alg.ask()
    _, X, _ = alg._pending
    np.testing.assert_array_equal(X.sum(axis=1), np.ones(6))  # one random bit each
    np.testing.assert_array_equal(pop.get("X"), X > 0.5)
    assert len(set(np.argmax(X, axis=1).tolist())) > 1


def test_ubpso_inertia_rises_linearly_from_w_min():
    seen = []
    ask_and_tell(_target_problem(), UBPSO(pop_size=4), ("n_gen", 6), 0,
                 after_tell=lambda alg, pop: seen.append(alg.w_))
    # generation 1 is the initial swarm; move m uses t / T = (m - 1) / 5
    np.testing.assert_allclose(seen, [0.4, 0.4, 0.52, 0.64, 0.76, 0.88])
    seen.clear()
    ask_and_tell(_target_problem(), UBPSO(pop_size=4, w_min=0.2, w_max=0.6), ("n_eval", 20), 0,
                 after_tell=lambda alg, pop: seen.append(alg.w_))
    np.testing.assert_allclose(seen, [0.2, 0.2, 0.3, 0.4, 0.5])  # by evaluations spent


def test_ubpso_uses_the_scheduled_inertia_in_the_velocity_update():
    problem = _target_problem()
    alg = advance(problem, UBPSO(pop_size=5), 3, seed=2, n_gen=5)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    rs = replay(alg)
    alg.ask()
    r1, r2 = rs.random(X.shape), rs.random(X.shape)
    w = 0.4 + 0.6 * 2 / 4  # third move of four: t / T = 2 / 4
    V_e = np.clip(w * V + 2.0 * r1 * (P - X) + 2.0 * r2 * (P[g] - X), -alg.vmax, alg.vmax)
    np.testing.assert_allclose(alg._pending[2], V_e)
    assert alg.w_ == pytest.approx(w)


def test_ubpso_rho_bounds_the_selection_probability():
    alg = UBPSO()
    assert alg.vmax == pytest.approx(math.log(9.0))
    assert 1 / (1 + math.exp(-alg.vmax)) == pytest.approx(0.9)
    assert alg._probability_bounds() == (0.0, 1.0)
    alg = UBPSO(rho=0.8, rho_mode="clip")
    assert alg.vmax == 6.0 and alg._probability_bounds() == pytest.approx((0.2, 0.8))
    assert UBPSO(rho_mode="clip", vmax=3.0).vmax == 3.0


def test_same_seed_same_run():
    problem = _target_problem()
    for cls in (BPSO, UBPSO):
        a = assert_reproducible(problem, lambda: cls(pop_size=6), ("n_gen", 6), (4, 5))
        assert a.algorithm.evaluator.n_eval == 36


@pytest.mark.parametrize("cls,kwargs,name", [
    (BPSO, dict(w=-1.0), "w"),
    (BPSO, dict(c1="2"), "c1"),
    (BPSO, dict(vmax=0.0), "vmax"),
    (BPSO, dict(pbest_rule="x"), "pbest_rule"),
    (UBPSO, dict(rho=0.5), "rho"),
    (UBPSO, dict(rho=1.0), "rho"),
    (UBPSO, dict(rho_mode="sigmoid"), "rho_mode"),
    (UBPSO, dict(vmax=2.0), "vmax"),
    (UBPSO, dict(w_min=0.9, w_max=0.4), "w_min"),
    (UBPSO, dict(w_max=-1.0), "w_max"),
])
def test_invalid_parameter_raises_naming_it(cls, kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        cls(**kwargs)
