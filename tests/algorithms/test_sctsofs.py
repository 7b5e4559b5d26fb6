"""SCTSOFS: the size term in both forms, the binary variant, SRTSO as phase 1, the budget."""

import numpy as np
import pytest
from pymoo.optimize import minimize
from scipy.special import expit

from pymoo_fs.algorithms import SCTSOFS, make_algorithm, swarm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import WeightedFeatureSelection
from tests.algorithms.loops import (FixedDraws, TargetEvaluator, advance, assert_reproducible,
                                    replay)


def _target_problem(D=20):
    target = np.zeros(D, dtype=bool)
    target[::4] = True  # 5 features
    return WeightedFeatureSelection(TargetEvaluator(target), alpha=1.0)


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return WeightedFeatureSelection.from_data(data.X[:, :30], data.y, n_neighbors=1, cv=3,
                                              alpha=1.0)


# ------------------------------------------------------------------ the size term by hand
def test_size_term_signs_by_hand():
    sizes = np.array([2, 5, 8])  # below, at, above T = 5
    r3 = [[0.5], [0.5], [0.5]]
    literal = swarm.size_term(sizes, 5, 1.5, FixedDraws(r3), "literal", (3, 1))
    # 1.5 * 0.5 * s(3), s(0), s(-3)
    np.testing.assert_allclose(literal[:, 0], 0.75 * np.array([expit(3), 0.5, expit(-3)]))
    assert np.all(literal > 0)  # the literal term never pulls a subset down
    centred = swarm.size_term(sizes, 5, 1.5, FixedDraws(r3), "centred", (3, 1))
    np.testing.assert_allclose(centred[:, 0],
                               0.75 * np.array([2 * expit(3) - 1, 0.0, 2 * expit(-3) - 1]))
    assert centred[0, 0] > 0 and centred[1, 0] == 0 and centred[2, 0] < 0
    with pytest.raises(ValueError, match="form"):
        swarm.size_term(sizes, 5, 1.5, FixedDraws(r3), "signed", (3, 1))


def test_size_term_has_no_overflow_for_large_gaps():
    with np.errstate(all="raise"):
        term = swarm.size_term(np.array([1, 5000]), 2000, 1.0, FixedDraws([[1.0], [1.0]]),
                               "centred", (2, 1))
    np.testing.assert_allclose(term[:, 0], [1.0, -1.0])


@pytest.mark.parametrize("form", ["literal", "centred"])
def test_continuous_move_by_hand(form):
    problem = _target_problem()
    alg = advance(problem, SCTSOFS(pop_size=4, w=0.7, c1=1.4, c2=1.6, c3=2.0, vmax=0.5,
                                   size_term=form, target_size=3), 2, seed=3)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    r1, r2, r3 = (np.random.default_rng(k).random(X.shape) for k in range(3))
    alg.random_state = FixedDraws(r1, r2, r3)
    sizes = swarm.decode(X, 0.6).sum(axis=1)  # an empty particle counts its repaired feature
    s = expit(3 - sizes)[:, None]
    term = 2.0 * r3 * (s if form == "literal" else 2 * s - 1)
    V_e = np.clip(0.7 * V + 1.4 * r1 * (P - X) + 1.6 * r2 * (P[g] - X) + term, -0.5, 0.5)
    X_e = np.clip(X + V_e, 0.0, 1.0)
    X_new, V_new = alg._move()
    np.testing.assert_allclose(V_new, V_e)
    np.testing.assert_allclose(X_new, X_e)
    if form == "literal":
        assert np.all(term >= 0)
    else:  # the centred term pulls each subset towards 3 features, down when larger
        np.testing.assert_array_equal(np.sign(term), np.sign(3 - sizes)[:, None] * np.ones(20))


def test_binary_move_by_hand():
    problem = _target_problem()
    alg = advance(problem, SCTSOFS(pop_size=4, w=0.7, c1=1.4, c2=1.6, vmax=4.0, binary=True,
                                   size_term="centred", target_size=6), 2, seed=1)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    assert set(np.unique(X)) <= {0.0, 1.0}
    r1, r2, r3, r = (np.random.default_rng(k).random(X.shape) for k in range(4))
    alg.random_state = FixedDraws(r1, r2, r3, r)
    s = 2 * expit(6 - X.sum(axis=1))[:, None] - 1
    V_e = np.clip(0.7 * V + 1.4 * r1 * (P - X) + 1.6 * r2 * (P[g] - X) + 1.4 * r3 * s,
                  -4.0, 4.0)
    X_e = (r < expit(V_e)).astype(float)
    assert np.all(X_e.sum(axis=1) >= 1)  # no empty repair, so no further draw
    X_new, V_new = alg._move()
    np.testing.assert_allclose(V_new, V_e)
    np.testing.assert_array_equal(X_new, X_e)
    np.testing.assert_array_equal(alg._decode(X_new), X_e > 0.5)


def test_binary_swarm_keeps_bits_and_never_empty():
    problem = _target_problem(12)
    res = minimize(problem, SCTSOFS(pop_size=6, binary=True, target_size=1,
                                    size_term="centred"), ("n_gen", 8), seed=0)
    alg = res.algorithm
    assert set(np.unique(alg.X_)) <= {0.0, 1.0}
    assert np.all(res.pop.get("X").sum(axis=1) >= 1)
    np.testing.assert_array_equal(res.pop.get("X"), alg.X_ > 0.5)


def test_centred_term_shrinks_subsets_the_literal_term_does_not(sonar):
    sizes = {}
    for form in ("literal", "centred"):
        res = minimize(sonar, SCTSOFS(pop_size=10, size_term=form, target_size=3),
                       ("n_gen", 10), seed=0)
        sizes[form] = res.pop.get("X").sum(axis=1).mean()
    assert sizes["centred"] < 0.5 * sizes["literal"]


# ------------------------------------------------------------------ SRTSO as phase 1, budget
def test_srtso_evaluations_count_in_n_eval(sonar):
    res = minimize(sonar, SCTSOFS(pop_size=5, srtso_sizes=6, srtso_subsets=3), ("n_gen", 4),
                   seed=2)
    alg = res.algorithm
    srtso = alg.srtso_
    assert alg.n_eval_srtso_ == sum(e["evaluated"] for e in srtso.log_)
    assert alg.n_eval_srtso_ == 18 * srtso.iteration_
    assert alg.evaluator.n_eval == alg.n_eval_srtso_ + 5 * 4
    assert alg.target_size_ == srtso.best_size_
    assert alg.n_gen - 1 == 4  # SRTSO takes no generation of its own


def test_paper_budget_is_reported_not_equalised(sonar):
    alg = minimize(sonar, SCTSOFS(), ("n_gen", 31), seed=0).algorithm
    assert alg.n_eval_srtso_ <= 600
    assert alg.evaluator.n_eval == alg.n_eval_srtso_ + 10 * 31  # <= 910, not PSO's 1530


@pytest.mark.parametrize("budget", [100, 333])
def test_an_evaluation_budget_bounds_srtso_and_the_swarm(sonar, budget):
    alg = minimize(sonar, SCTSOFS(pop_size=10), ("n_eval", budget), seed=1).algorithm
    # SRTSO is cut so that the initial swarm of 10 still fits: 90 (of its first 300), or
    # 300 + 23 (its second iteration cut)
    assert alg.srtso_.truncated_
    assert [e["evaluated"] for e in alg.srtso_.log_] == ([90] if budget == 100 else [300, 23])
    assert alg.n_eval_srtso_ == budget - 10
    assert alg.evaluator.n_eval == budget


def test_a_budget_without_room_for_srtso_is_refused(sonar):
    with pytest.raises(ValueError, match="leaves SRTSO no evaluation"):
        minimize(sonar, SCTSOFS(pop_size=10), ("n_eval", 10), seed=1)
    res = minimize(sonar, SCTSOFS(pop_size=10, target_size=4), ("n_eval", 10), seed=1)
    assert res.algorithm.evaluator.n_eval == 10 and res.algorithm.srtso_ is None


def test_given_target_size_skips_srtso(sonar):
    alg = minimize(sonar, SCTSOFS(pop_size=5, target_size=7), ("n_gen", 3), seed=0).algorithm
    assert alg.target_size_ == 7 and alg.n_eval_srtso_ == 0 and alg.evaluator.n_eval == 15


def test_same_seed_same_result(sonar):
    a = assert_reproducible(sonar, lambda: SCTSOFS(pop_size=5, srtso_sizes=5, srtso_subsets=2),
                            ("n_gen", 4))
    b = minimize(sonar, SCTSOFS(pop_size=5, srtso_sizes=5, srtso_subsets=2), ("n_gen", 4),
                 seed=1).algorithm
    assert a.algorithm.target_size_ == b.target_size_
    assert [e["sizes"].tolist() for e in a.algorithm.srtso_.log_] == \
        [e["sizes"].tolist() for e in b.srtso_.log_]


def test_first_move_draws_r1_r2_r3_in_order():
    problem = _target_problem()
    alg = advance(problem, SCTSOFS(pop_size=3, target_size=4), 1, seed=5)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    rs = replay(alg)
    alg.ask()
    r1, r2, r3 = (rs.random(X.shape) for _ in range(3))
    s = expit(4 - swarm.decode(X, 0.6).sum(axis=1))[:, None]
    V_e = np.clip(0.7298 * V + 1.49618 * (r1 * (P - X) + r2 * (P[g] - X) + r3 * s), -6, 6)
    np.testing.assert_allclose(alg._pending[2], V_e)


def test_registered_by_name_with_its_paper_defaults():
    alg = make_algorithm("sctsofs", pop_size=10, size_term="centred")
    assert isinstance(alg, SCTSOFS)
    assert (alg.w, alg.c1, alg.c2, alg.c3, alg.vmax) == (0.7298, 1.49618, 1.49618, 1.49618, 6.0)
    assert alg.size_term == "centred" and alg.binary is False
    assert alg.srtso_options == dict(max_iterations=2, n_sizes=30, n_subsets=10,
                                     range_ratio=0.3, tolerance=0.01)


@pytest.mark.parametrize("kwargs, match", [
    (dict(size_term="both"), "size_term"), (dict(c3=-1.0), "c3"), (dict(target_size=0),
                                                                   "target_size"),
    (dict(srtso_sizes=0), "^srtso_sizes must"), (dict(srtso_range=2.0), "^srtso_range must"),
    (dict(vmax=0.0), "vmax")])
def test_invalid_parameters_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SCTSOFS(**kwargs)


def test_target_size_above_the_number_of_features_is_refused():
    with pytest.raises(ValueError, match="target_size must be at most the number of features"):
        minimize(_target_problem(20), SCTSOFS(target_size=21), ("n_gen", 2), seed=0)


def test_phase_one_is_srtso_with_the_same_draws(sonar):
    from pymoo_fs.algorithms import SRTSO

    for seed in (0, 1):
        a = minimize(sonar, SCTSOFS(pop_size=4, srtso_sizes=8, srtso_subsets=3), ("n_gen", 2),
                     seed=seed).algorithm
        b = minimize(sonar, SRTSO(n_sizes=8, n_subsets=3), seed=seed).algorithm
        assert a.target_size_ == b.target_size_
        assert a.srtso_.best_fitness_ == b.search_.best_fitness_
