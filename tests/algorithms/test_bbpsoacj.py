"""BBPSO-ACJ: the bare-bones move, the logistic map and the chaotic jump by hand, the
stagnation counter, the triggers, the size-reducing global-best rule, errors."""

import numpy as np
import pytest
from pymoo.core.population import Population
from pymoo.optimize import minimize

from pymoo_fs.algorithms import BBPSOACJ, make_algorithm, swarm
from pymoo_fs.algorithms.soo.bbpsoacj import bare_bones_move, chaotic_jump, logistic_sequence
from pymoo_fs.problems import FitEFeatureSelection
from tests.algorithms.loops import TargetEvaluator, advance, assert_reproducible, replay


def _target_problem(D=20):
    target = np.zeros(D, dtype=bool)
    target[::4] = True
    return FitEFeatureSelection(TargetEvaluator(target))


def test_bare_bones_move_by_hand():
    P = np.array([[0.2, 0.6, 0.9], [0.0, 1.0, 0.5]])
    g = np.array([0.6, 0.6, 0.1])
    N = np.array([[1.0, 5.0, -0.5], [0.5, -1.0, 2.0]])
    # mean (p + g) / 2, sd |p - g|: row 0: 0.4 + 0.4, 0.6 + 0, 0.5 - 0.4 ;
    # row 1: 0.3 + 0.3, 0.8 - 0.4, 0.3 + 0.8
    np.testing.assert_allclose(bare_bones_move(P, g, N), [[0.8, 0.6, 0.1], [0.6, 0.4, 1.1]])
    keep = np.array([[True, False, False], [False, False, True]])
    np.testing.assert_allclose(bare_bones_move(P, g, N, keep),
                               [[0.2, 0.6, 0.1], [0.6, 0.4, 0.5]])


def test_logistic_map_by_hand():
    values, last = logistic_sequence(0.13, 3)
    z1 = 4 * 0.13 * 0.87  # 0.4524
    z2 = 4 * z1 * (1 - z1)
    z3 = 4 * z2 * (1 - z2)
    np.testing.assert_allclose(values, [z1, z2, z3], rtol=0, atol=1e-15)
    assert last == values[-1]
    empty, same = logistic_sequence(0.3, 0)
    assert empty.size == 0 and same == 0.3


def test_chaotic_jump_scales_each_pbest_coordinate_by_the_next_value():
    P = np.array([[0.5, 0.2], [0.8, 0.0]])
    X, z = chaotic_jump(P, 0.13, 0.5)
    values, last = logistic_sequence(0.13, 4)
    np.testing.assert_allclose(X, P * (1 + 0.5 * (2 * values.reshape(2, 2) - 1)))
    assert z == last
    X2, _ = chaotic_jump(P, z, 1.0)  # the sequence continues where it stopped
    np.testing.assert_allclose(X2, P * 2 * logistic_sequence(last, 4)[0].reshape(2, 2))


def test_the_move_jumps_stagnated_particles_and_moves_the_others():
    problem = _target_problem(12)
    alg = advance(problem, BBPSOACJ(pop_size=5, stagnation_limit=2, eta=0.8), 2, seed=3)
    alg.stagnation_ = np.array([3, 0, 2, 5, 1])  # particles 0 and 3 exceed S = 2
    P, g, z = alg.pbest_X_.copy(), alg.pbest_X_[alg.gbest_].copy(), alg.z_
    rs = replay(alg)
    alg.ask()
    X_e = bare_bones_move(P, g, rs.standard_normal(P.shape))
    jump = np.array([True, False, False, True, False])
    X_e[jump], z_e = chaotic_jump(P[jump], z, 0.8)
    X_e = np.clip(X_e, 0.0, 1.0)
    _, X_new, V_new = alg._pending
    assert V_new is None
    np.testing.assert_allclose(X_new, X_e)
    np.testing.assert_array_equal(alg._pending_jump[0], jump)
    assert alg._pending_jump[1] == z_e


def test_probability_trigger_and_pbest_reset_out_of_range():
    problem = _target_problem(12)
    alg = advance(problem, BBPSOACJ(pop_size=4, trigger="prob", bounds="pbest",
                                    variant="exploiting"), 2, seed=5)
    alg.stagnation_ = np.array([0, 4, 10, 40])
    P, g, z = alg.pbest_X_.copy(), alg.pbest_X_[alg.gbest_].copy(), alg.z_
    rs = replay(alg)
    alg.ask()
    jump = rs.random(4) < 1 - np.exp(-alg.stagnation_ / 5)
    assert not jump[0]  # s = 0 never jumps
    X_e = bare_bones_move(P, g, rs.standard_normal(P.shape), rs.random(P.shape) < 0.5)
    if jump.any():
        X_e[jump], _ = chaotic_jump(P[jump], z, 1.0)
    X_e = np.where((X_e < 0) | (X_e > 1), P, X_e)
    np.testing.assert_allclose(alg._pending[1], X_e)
    np.testing.assert_array_equal(alg._pending_jump[0], jump)


def test_stagnation_counts_failures_and_resets_on_improvement_or_jump():
    problem = _target_problem(16)
    alg = advance(problem, BBPSOACJ(pop_size=6, stagnation_limit=1), 1, seed=0)
    assert alg.stagnation_.tolist() == [0] * 6 and alg.z_ == 0.13
    jumps = 0
    for _ in range(8):
        before = alg.stagnation_.copy()
        old_X, old_F = alg.pbest_X_.copy(), alg.pbest_F_[:, 0].copy()
        pop = alg.ask()
        alg.evaluator.eval(problem, pop)
        alg.tell(infills=pop)
        replaced = (alg.pbest_X_ != old_X).any(axis=1) | (alg.pbest_F_[:, 0] != old_F)
        np.testing.assert_array_equal(alg.jumped_, before > 1)  # s > S = 1
        expected = np.where(alg.jumped_, 0, before) + 1
        expected[replaced] = 0
        np.testing.assert_array_equal(alg.stagnation_, expected)
        jumps += alg.jumped_.sum()
    assert jumps > 0 and alg.n_jumps_ == jumps and alg.z_ != 0.13


def test_epsilon_gbest_rule_prefers_a_near_smaller_subset():
    problem = _target_problem(6)
    alg = advance(problem, BBPSOACJ(pop_size=4, epsilon=0.1), 1, seed=0)
    masks = np.array([[1, 1, 1, 1, 0, 0], [1, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0],
                      [1, 1, 1, 0, 0, 0]], dtype=bool)
    F = np.array([[0.20], [0.28], [0.35], [0.25]])
    alg.pbest_pop_ = Population.new("X", masks, "F", F)
    alg.gbest_ = 1
    alg._update_gbest()  # usual rule: 0 (F 0.20); then within 0.1 and fewer: 1 and 3 -> 1
    assert alg.gbest_ == 1
    alg.epsilon = 0.2
    alg.gbest_ = 0
    alg._update_gbest()  # 1, 2, 3 are within 0.2 of 0.20: the fewest features is 2
    assert alg.gbest_ == 2
    alg.epsilon = 0.0
    alg.gbest_ = 1
    alg._update_gbest()  # seed 004's rule only
    assert alg.gbest_ == 0


def test_positions_stay_in_bounds_and_masks_decode_by_threshold():
    problem = _target_problem(24)
    res = minimize(problem, BBPSOACJ(pop_size=6, stagnation_limit=1, threshold=0.6),
                   ("n_gen", 10), seed=2)
    alg = res.algorithm
    assert alg.X_.min() >= 0.0 and alg.X_.max() <= 1.0 and alg.n_jumps_ > 0
    np.testing.assert_array_equal(res.pop.get("X"), swarm.decode(alg.X_, 0.6))


def test_same_seed_same_run_and_honest_counts():
    problem = _target_problem(20)
    res = assert_reproducible(problem, lambda: BBPSOACJ(pop_size=6, stagnation_limit=1),
                              ("n_gen", 8), (1, 2))
    assert res.algorithm.evaluator.n_eval == 48
    assert res.algorithm.termination is not None
    alg = BBPSOACJ(pop_size=4)
    alg.setup(problem, seed=0)
    assert alg.termination.n_max_evals == 5000


def test_registered_by_name_and_alias():
    assert isinstance(make_algorithm("BBPSO-ACJ", pop_size=5), BBPSOACJ)
    assert make_algorithm("bbpsoacj", pop_size=5, epsilon=0.01).epsilon == 0.01


@pytest.mark.parametrize("kwargs, match", [
    (dict(threshold=1.2), "threshold"), (dict(z0=0.0), "z0"), (dict(z0=1.0), "z0"),
    (dict(z0=0.5), "z0"), (dict(z0=0.75), "z0"), (dict(eta=-1.0), "eta"),
    (dict(trigger="always"), "trigger"), (dict(stagnation_limit=0), "stagnation_limit"),
    (dict(variant="fips"), "variant"), (dict(bounds="wrap"), "bounds"),
    (dict(epsilon=-0.01), "epsilon"), (dict(pbest_rule="dominates"), "pbest_rule"),
    (dict(pop_size=-2), "pop_size"),
])
def test_invalid_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BBPSOACJ(**kwargs)


def test_unknown_keyword_is_refused():
    with pytest.raises(TypeError, match="BBPSOACJ"):
        BBPSOACJ(w=0.7)
