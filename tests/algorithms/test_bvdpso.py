"""BVDPSO: the bi-velocity operators by hand, the move, the inertia schedule, errors."""

import numpy as np
import pytest
from pymoo.optimize import minimize
from pymoo.termination.max_eval import MaximumFunctionCallTermination

from pymoo_fs.algorithms import BVDPSO, make_algorithm
from pymoo_fs.algorithms.soo.bvdpso import bv_difference, bv_position, bv_velocity
from pymoo_fs.problems import FitEFeatureSelection
from tests.algorithms.loops import (TargetEvaluator, advance, ask_and_tell, assert_reproducible,
                                    replay)


def _target_problem(D=20):
    target = np.zeros(D, dtype=bool)
    target[::4] = True
    return FitEFeatureSelection(TargetEvaluator(target))


def test_position_minus_position_by_hand():
    Y = np.array([[1, 0, 1, 0]], dtype=bool)
    X = np.array([[0, 1, 1, 0]], dtype=bool)
    V = bv_difference(Y, X)
    # bit 0: 0 -> 1 (v1); bit 1: 1 -> 0 (v0); bits 2, 3 agree: (0, 0)
    np.testing.assert_array_equal(V[0, 0], [0, 1, 0, 0])  # towards 0
    np.testing.assert_array_equal(V[0, 1], [1, 0, 0, 0])  # towards 1
    np.testing.assert_array_equal(bv_difference(X, X), np.zeros((1, 2, 4)))


def test_velocity_update_by_hand():
    V = np.array([[[0.5, 0.9, 0.0, 0.3], [0.2, 0.1, 0.6, 0.0]]])
    X = np.array([[0, 1, 0, 1]], dtype=bool)
    P = np.array([[1, 0, 0, 1]], dtype=bool)  # bit 0 -> 1, bit 1 -> 0
    G = np.array([0, 0, 1, 0], dtype=bool)  # bit 1 -> 0, bit 2 -> 1, bit 3 -> 0
    r1 = np.array([[0.3, 0.1, 0.9, 0.9]])
    r2 = np.array([[0.9, 0.2, 0.1, 0.7]])
    out = bv_velocity(V, X, P, G, 0.5, 2.0, 2.0, r1, r2)
    # towards 0: bit 0: max(0.25, 0, 0) ; bit 1: max(0.45, min(1, 0.2), min(1, 0.4)) = 0.45
    #            bit 2: max(0, 0, 0) ; bit 3: max(0.15, 0, min(1, 1.4)) = 1
    # towards 1: bit 0: max(0.1, min(1, 0.6), 0) = 0.6 ; bit 1: max(0.05, 0, 0)
    #            bit 2: max(0.3, 0, min(1, 0.2)) = 0.3 ; bit 3: 0
    np.testing.assert_allclose(out[0, 0], [0.25, 0.45, 0.0, 1.0])
    np.testing.assert_allclose(out[0, 1], [0.6, 0.05, 0.3, 0.0])


def test_position_rule_by_hand_at_the_threshold():
    X = np.array([[0, 1, 0, 1, 1, 0]], dtype=bool)
    V = np.array([[[0.9, 0.9, 0.2, 0.7, 0.5, 0.5],     # towards 0
                   [0.8, 0.6, 0.9, 0.1, 0.5, 0.51]]])  # towards 1
    coin = np.array([[0, 1, 1, 1, 0, 0]], dtype=bool)
    # both > 0.5: coins 0, 1; only v1: 1; only v0: 0; exactly 0.5 is not above: keep; v1 only: 1
    np.testing.assert_array_equal(bv_position(X, V, 0.5, coin).astype(int),
                                  [[0, 1, 1, 0, 1, 1]])
    alpha = np.array([[0.95, 0.95, 0.95, 0.95, 0.4, 0.4]])  # per-dimension thresholds
    np.testing.assert_array_equal(bv_position(X, V, alpha, coin).astype(int),
                                  [[0, 1, 0, 1, 0, 0]])


def test_the_move_is_velocity_then_threshold_with_the_scheduled_inertia():
    problem = _target_problem(24)
    alg = advance(problem, BVDPSO(pop_size=5), 3, seed=2, n_gen=5)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    rs = replay(alg)
    pop = alg.ask()
    w = 0.9 - 0.5 * 2 / 4  # third move of four: t / T = 2 / 4
    r1, r2 = rs.random(X.shape), rs.random(X.shape)
    V_e = bv_velocity(V, X, P, P[g], w, 2.0, 2.0, r1, r2)
    X_e = bv_position(X, V_e, 0.5, rs.random(X.shape) < 0.5)
    _, X_new, V_new = alg._pending
    assert alg.w_ == pytest.approx(w)
    np.testing.assert_allclose(V_new, V_e)
    assert X_e.any(axis=1).all()  # no empty repair in this move
    np.testing.assert_array_equal(X_new, X_e)
    np.testing.assert_array_equal(pop.get("X"), X_e)


def test_uniform_alpha_draws_one_threshold_per_dimension():
    problem = _target_problem(16)
    alg = advance(problem, BVDPSO(pop_size=4, alpha_mode="uniform"), 2, seed=1, n_gen=6)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    rs = replay(alg)
    alg.ask()
    r1, r2 = rs.random(X.shape), rs.random(X.shape)
    V_e = bv_velocity(V, X, P, P[g], alg.w_, 2.0, 2.0, r1, r2)
    alpha = rs.random(X.shape)
    X_e = bv_position(X, V_e, alpha, rs.random(X.shape) < 0.5)
    np.testing.assert_array_equal(alg._pending[1], X_e)


def test_inertia_falls_linearly_and_velocities_stay_in_the_unit_interval():
    seen = []
    ask_and_tell(_target_problem(30), BVDPSO(pop_size=6), ("n_gen", 6), 0,
                 before_tell=lambda alg: seen.append(alg.w_),
                 after_tell=lambda alg, pop: seen.append(alg.V_.copy()))
    w = [x for x in seen if isinstance(x, float)]
    np.testing.assert_allclose(w, [0.9, 0.9, 0.8, 0.7, 0.6, 0.5])  # init, then moves 1-5
    velocities = [x for x in seen if not isinstance(x, float)]
    V0 = velocities[0]
    assert V0.shape == (6, 2, 30) and 0.3 < V0.mean() < 0.7  # U[0, 1] at first
    for V in velocities:
        assert V.min() >= 0.0 and V.max() <= 1.0


def test_constant_inertia_and_the_empty_repair():
    problem = _target_problem(8)
    alg = advance(problem, BVDPSO(pop_size=6, w_max=0.7, w_min=0.7), 1, seed=0)
    alg.X_ = np.zeros_like(alg.X_)
    alg.pbest_X_ = np.zeros_like(alg.pbest_X_)
    alg.V_ = np.zeros_like(alg.V_)  # nothing pushes a bit up: every particle would be empty
    pop = alg.ask()
    assert alg.w_ == 0.7
    _, X, _ = alg._pending
    np.testing.assert_array_equal(X.sum(axis=1), np.ones(6))  # one random bit each
    np.testing.assert_array_equal(pop.get("X"), X)


def test_same_seed_same_run_and_the_default_budget():
    problem = _target_problem(20)
    res = assert_reproducible(problem, lambda: BVDPSO(pop_size=6), ("n_gen", 6), (3, 4))
    assert res.algorithm.evaluator.n_eval == 36
    assert problem.evaluator.n_evaluations == 3 * 36  # the three runs, nothing uncounted
    alg = BVDPSO(pop_size=4)
    alg.setup(problem, seed=0)
    assert isinstance(alg.termination, MaximumFunctionCallTermination)
    assert alg.termination.n_max_evals == 5000


def test_result_is_the_lexicographic_best_personal_best():
    problem = _target_problem(20)
    res = minimize(problem, BVDPSO(pop_size=8), ("n_gen", 10), seed=4)
    alg = res.algorithm
    F, n = alg.pbest_F_[:, 0], alg.pbest_pop_.get("X").sum(axis=1)
    best = np.lexsort((n, F))[0]
    assert res.F[0] == F[best] and res.X.sum() == n[best]


def test_registered_by_name():
    alg = make_algorithm("BVDPSO", pop_size=5, alpha_mode="uniform")
    assert isinstance(alg, BVDPSO) and alg.pop_size == 5 and alg.alpha_mode == "uniform"


@pytest.mark.parametrize("kwargs, match", [
    (dict(w_max=-0.1), "w_max"), (dict(w_min="0.4"), "w_min"),
    (dict(w_max=0.3, w_min=0.4), "w_min must not exceed w_max"), (dict(c1=-2.0), "c1"),
    (dict(c2=(1.0, 2.0)), "c2"), (dict(alpha=1.5), "alpha"), (dict(alpha_mode="random"),
                                                               "alpha_mode"),
    (dict(pbest_rule="dominates"), "pbest_rule"), (dict(fitness="error"), "fitness"),
    (dict(pop_size=0), "pop_size"),
])
def test_invalid_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BVDPSO(**kwargs)


def test_unknown_keyword_is_refused():
    with pytest.raises(TypeError, match="BVDPSO"):
        BVDPSO(vmax=6.0)
