"""CSO: pairing, the loser update, losers-only evaluation, the look-up archive, variants."""

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import CSO, make_algorithm, swarm
from pymoo_fs.algorithms.soo.cso import loser_update
from pymoo_fs.algorithms.soo.pso42 import mixed_initialisation
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import WeightedFeatureSelection
from tests.algorithms.loops import (FixedDraws, TargetEvaluator, advance, ask_and_tell,
                                    assert_reproducible, replay)


def _target_problem(D=16, alpha=0.9):
    target = np.zeros(D, dtype=bool)
    target[::4] = True
    return WeightedFeatureSelection(TargetEvaluator(target), alpha=alpha)


# ------------------------------------------------------------------ initialisation
def _initial_masks(initialization, D=200, pop_size=30, seed=3):
    algorithm = CSO(pop_size=pop_size, initialization=initialization)
    algorithm.setup(_target_problem(D=D), termination=("n_gen", 1), seed=seed)
    return algorithm.ask().get("X").astype(bool)


def test_uniform_initialisation_selects_about_half():
    sizes = _initial_masks("uniform").sum(axis=1)
    assert 80 < sizes.mean() < 120  # 200 features, each selected with probability 0.5


def test_small_initialisation_selects_about_a_tenth_for_every_particle():
    sizes = _initial_masks("small").sum(axis=1)
    assert sizes.max() < 45 and 10 < sizes.mean() < 30  # Binomial(200, 0.1): mean 20, std 4.2


def test_mixed_initialisation_starts_the_last_third_large():
    sizes = _initial_masks("mixed").sum(axis=1)
    assert sizes[:20].max() < 45
    assert sizes[20:].min() >= 100  # U{100, ..., 200} features


@pytest.mark.parametrize("initialization,n_large", [("small", 0), ("mixed", None)])
def test_small_and_mixed_positions_are_pso42s_draws(initialization, n_large):
    algorithm = CSO(pop_size=6, initialization=initialization, threshold=0.5)
    algorithm.setup(_target_problem(D=50), termination=("n_gen", 1), seed=0)
    algorithm.random_state = np.random.default_rng(7)
    X, V = algorithm._initial_swarm()
    expected = mixed_initialisation(6, 50, 0.5, np.random.default_rng(7), n_large=n_large)
    assert np.array_equal(X, expected)
    assert np.array_equal(V, np.zeros_like(X))


def test_small_initialisation_reproduces_with_the_same_seed():
    assert_reproducible(_target_problem(), lambda: CSO(pop_size=6, initialization="small"),
                        ("n_gen", 5), (9, 10))


# ------------------------------------------------------------------ pairing
def test_pairs_winners_and_losers_by_hand():
    fitness = np.array([0.30, 0.10, 0.30, 0.20, 0.30, 0.30, 0.50])
    sizes = np.array([4, 9, 2, 1, 3, 3, 1])
    draws = FixedDraws([0.9, 0.1, 0.7], permutations=[[0, 2, 1, 3, 4, 5, 6]])
    winners, losers = swarm.pair_competitions(fitness, sizes, draws)
    # (0, 2): equal fitness, 2 has fewer features; (1, 3): 1 is fitter;
    # (4, 5): equal fitness and size, the coin (0.7 >= 0.5) gives it to 5; 6 sits out
    np.testing.assert_array_equal(winners, [2, 1, 5])
    np.testing.assert_array_equal(losers, [0, 3, 4])
    draws = FixedDraws([0.9, 0.1, 0.2], permutations=[[0, 2, 1, 3, 4, 5, 6]])
    winners, _ = swarm.pair_competitions(fitness, sizes, draws, prefer_fewer=False)
    np.testing.assert_array_equal(winners, [2, 1, 4])  # coins only: 0.9 -> 2, 0.2 -> 4


def test_pairs_cover_the_swarm_once_with_a_real_generator():
    rs = np.random.default_rng(4)
    fitness = rs.random(10)
    winners, losers = swarm.pair_competitions(fitness, np.ones(10), rs)
    assert sorted(np.concatenate([winners, losers]).tolist()) == list(range(10))
    assert np.all(fitness[winners] < fitness[losers])


# ------------------------------------------------------------------ loser update
def test_loser_update_by_hand():
    X_l = np.array([[0.2, 0.8]])
    V_l = np.array([[0.1, -0.2]])
    X_w = np.array([[0.6, 0.4]])
    mean = np.array([[0.5, 0.5]])
    draws = FixedDraws([[0.5, 1.0]], [[0.25, 0.5]], [[1.0, 0.0]])
    X, V = loser_update(X_l, V_l, X_w, mean, 0.1, draws)
    # v = R1 v + R2 (x_w - x_l) + phi R3 (x_bar - x_l)
    v0 = 0.5 * 0.1 + 0.25 * 0.4 + 0.1 * 1.0 * 0.3
    v1 = 1.0 * -0.2 + 0.5 * -0.4 + 0.0
    np.testing.assert_allclose(V, [[v0, v1]])
    np.testing.assert_allclose(X, [[0.2 + v0, 0.8 + v1]])


def test_only_losers_move_and_are_evaluated():
    problem = _target_problem()
    seen = []

    def record(alg, pop):
        seen.append((alg.X_.copy(), alg.V_.copy(), alg.pop.get("F").copy(), len(pop),
                     getattr(alg, "losers_", None), getattr(alg, "winners_", None)))

    res = ask_and_tell(problem, CSO(pop_size=9), ("n_gen", 6), 2, after_tell=record)
    assert [s[3] for s in seen] == [9, 4, 4, 4, 4, 4]
    assert res.algorithm.evaluator.n_eval == 9 + 5 * 4
    for (X0, V0, F0, *_), (X1, V1, F1, _, losers, winners) in zip(seen[:-1], seen[1:]):
        still = np.setdiff1d(np.arange(9), losers)  # winners and the odd one out
        assert np.setdiff1d(still, winners).size == 1
        np.testing.assert_array_equal(X1[still], X0[still])
        np.testing.assert_array_equal(V1[still], V0[still])
        np.testing.assert_array_equal(F1[still], F0[still])
        assert not np.array_equal(X1[losers], X0[losers])
        assert np.all((X1 >= 0) & (X1 <= 1))  # bounded positions
        np.testing.assert_allclose(X1[losers], np.clip(X0[losers] + V1[losers], 0, 1))


def test_losers_learn_from_the_swarm_mean_at_the_start_of_the_generation():
    problem = _target_problem()
    for scope in ("global", "ring"):
        alg = advance(problem, CSO(pop_size=6, phi=0.5, mean_position=scope), 1, seed=1)
        X, V = alg.X_.copy(), alg.V_.copy()
        rs = replay(alg)
        alg.ask()
        idx, X_l, V_l = alg._pending
        winners, losers = swarm.pair_competitions(alg.pop.get("F")[:, 0],
                                                  alg.pop.get("X").sum(axis=1), rs)
        if scope == "global":
            mean = X.mean(axis=0, keepdims=True)
        else:
            mean = ((np.roll(X, 1, axis=0) + X + np.roll(X, -1, axis=0)) / 3.0)[losers]
        X_e, V_e = loser_update(X[losers], V[losers], X[winners], mean, 0.5, rs)
        np.testing.assert_array_equal(idx, losers)
        np.testing.assert_allclose(V_l, V_e)
        np.testing.assert_allclose(X_l, np.clip(X_e, 0, 1))


def test_the_look_up_archive_is_the_evaluators_cache():
    data = load_dataset("sonar")
    problem = WeightedFeatureSelection.from_data(data.X[:, :6], data.y, cv=3)
    ev = problem.evaluator
    before = (ev.n_evaluations, ev.n_cache_hits)
    res = minimize(problem, CSO(pop_size=10), ("n_gen", 30), seed=0)
    computed, hits = ev.n_evaluations - before[0], ev.n_cache_hits - before[1]
    assert computed + hits == res.algorithm.evaluator.n_eval == 10 + 29 * 5
    assert hits > 0 and computed <= 2 ** 6 - 1  # 6 features: revisited subsets are looked up


def test_result_is_the_best_solution_ever_evaluated():
    problem = _target_problem(D=20)
    seen = []
    res = ask_and_tell(problem, CSO(pop_size=8), ("n_gen", 12), 3,
                       after_tell=lambda alg, pop: seen.append(pop.get("F")[:, 0].min()))
    assert res.F[0] == min(seen)


def test_cso_a_competes_by_accuracy_and_cso_c_by_the_objective():
    problem = _target_problem()
    F = np.array([[0.1], [0.2], [0.3], [0.4], [0.5], [0.6]])
    score = np.array([0.4, 0.5, 0.6, 0.7, 0.8, 0.9])  # the reverse order of F
    for name, expected in (("CSO(C)", F[:, 0]), ("CSO(A)", 1.0 - score)):
        alg = advance(problem, make_algorithm(name, pop_size=6), 1, seed=1)
        alg.pop.set("F", F)
        alg.pop.set("score", score)
        alg.ask()
        assert np.all(expected[alg.winners_] < expected[alg.losers_])
    a = minimize(_target_problem(alpha=0.0), make_algorithm("CSO(A)", pop_size=8),
                 ("n_gen", 15), seed=0)
    assert a.algorithm.fitness == "accuracy"
    assert a.algorithm._fitness(a.algorithm.pbest_pop_)[:, 0].min() == 1.0 - \
        problem.evaluator.score(a.X)[0]


def test_same_seed_same_run():
    assert_reproducible(_target_problem(), lambda: CSO(pop_size=6), ("n_gen", 8), (9, 10))


@pytest.mark.parametrize("kwargs,name", [
    (dict(pop_size=1), "pop_size"),
    (dict(phi=-0.1), "phi"),
    (dict(phi="x"), "phi"),
    (dict(threshold=1.5), "threshold"),
    (dict(mean_position="local"), "mean_position"),
    (dict(fitness="f1"), "fitness"),
    (dict(pbest_rule="dominates"), "pbest_rule"),
    (dict(initialization="random"), "initialization"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        CSO(**kwargs)
