"""FSIPSO: ranking, sub-spaces, phases (both modes), mutation, counts, seeds and errors."""

import numpy as np
import pytest
from pymoo.core.problem import Problem
from pymoo.optimize import minimize

from pymoo_fs.algorithms import FSIPSO, swarm
from pymoo_fs.algorithms.soo.fsipso import flip_mutation, subspaces
from pymoo_fs.problems import WeightedFeatureSelection
from tests.algorithms.loops import FixedDraws, TargetEvaluator, ask_and_tell, assert_reproducible


class Weights(Problem):
    """Single-feature fitness ranks by weight: F = 1 - (weights of the selected) / total."""

    def __init__(self, weights):
        self.weights = np.asarray(weights, dtype=float)
        super().__init__(n_var=self.weights.size, n_obj=1, xl=0, xu=1, vtype=bool)

    def _evaluate(self, x, out, *args, **kwargs):
        out["F"] = (1.0 - x @ self.weights / self.weights.sum())[:, None]


def _target_problem(D=20, alpha=0.9):
    target = np.zeros(D, dtype=bool)
    target[[1, 4, 7, 12, 15]] = True
    return WeightedFeatureSelection(TargetEvaluator(target), alpha=alpha)


# ------------------------------------------------------------------ sub-spaces and mutation
def test_subspaces_follow_the_authors_block_sizes():
    blocks = subspaces(np.arange(147), 5)  # seed 000's Urban: 30, 30, 30, 30, 27
    assert [b.size for b in blocks] == [30, 30, 30, 30, 27]
    np.testing.assert_array_equal(np.concatenate(blocks), np.arange(147))
    assert [b.tolist() for b in subspaces(np.array([5, 3, 1, 0, 2, 4]), 4)] == [
        [5, 3], [1, 0], [2, 4], []]  # ceil(6/4) = 2: the ranking runs out before block 4
    assert [b.size for b in subspaces(np.arange(10), 1)] == [10]


def test_flip_mutation_flips_only_drawn_coordinates_of_the_search_space():
    X = np.array([[0.2, 0.7, 0.0, 0.9],
                  [0.5, 0.1, 0.0, 0.3]])
    dims = np.array([0, 1, 3])  # |F_c| = 3: rate 1/3
    draws = FixedDraws([[0.30, 0.40, 0.90],
                        [0.99, 0.20, 0.3333]])
    out = flip_mutation(X, dims, draws)
    np.testing.assert_allclose(out, [[0.8, 0.7, 0.0, 0.9],
                                     [0.5, 0.9, 0.0, 0.7]])
    np.testing.assert_array_equal(X[0], [0.2, 0.7, 0.0, 0.9])  # input untouched


# ------------------------------------------------------------------ ranking
def test_ranking_is_by_single_feature_fitness_ties_to_the_higher_index():
    weights = [1.0, 5.0, 3.0, 5.0, 0.5, 3.0, 2.0, 4.0, 1.0, 0.1]
    res = minimize(Weights(weights), FSIPSO(pop_size=4, n_phases=3), ("n_gen", 2), seed=0)
    alg = res.algorithm
    np.testing.assert_array_equal(alg.ranking_, [3, 1, 7, 5, 2, 6, 8, 0, 4, 9])
    assert [b.tolist() for b in alg.subspaces_] == [[3, 1, 7, 5], [2, 6, 8, 0], [4, 9]]
    assert alg.evaluator.n_eval == 10 + 4 * 2  # D single features, then the swarm twice


def test_ranking_evaluations_go_through_the_problems_flip_path():
    problem = _target_problem()
    calls = []
    original = problem.evaluator.score_flips

    def spy(base, features):
        calls.append((base.copy(), np.array(features)))
        return original(base, features)

    problem.evaluator.score_flips = spy
    res = minimize(problem, FSIPSO(pop_size=5), ("n_gen", 3), seed=1)
    assert len(calls) == 1
    base, features = calls[0]
    assert not base.any() and features.tolist() == list(range(20))
    assert res.algorithm.evaluator.n_eval == 20 + 5 * 3
    assert problem.evaluator.n_evaluations == 20 + 5 * 3


# ------------------------------------------------------------------ phases
def _phase_run(phase_change, n_gen=11, seed=3, mutation=True):
    problem = _target_problem()
    seen = []

    def record(alg, pop):
        seen.append(dict(phase=alg.phase_, active=alg.active_.copy(), X=alg.X_.copy(),
                         V=alg.V_.copy(), masks=pop.get("X").copy(),
                         pbest=alg.pbest_X_.copy(), gbest=alg.pbest_X_[alg.gbest_].copy()))

    alg = FSIPSO(pop_size=6, n_phases=5, phase_change=phase_change, mutation=mutation)
    res = ask_and_tell(problem, alg, ("n_gen", n_gen), seed, after_tell=record)
    return res, seen


@pytest.mark.parametrize("mode", ["code", "paper"])
def test_search_space_grows_by_one_subspace_per_phase(mode):
    res, seen = _phase_run(mode)
    alg = res.algorithm
    # generation 1 initialises; move m (generation m + 1) has progress (m - 1) / 10
    assert [s["phase"] for s in seen] == [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    for s in seen:
        expected = np.zeros(20, dtype=bool)
        expected[np.concatenate(alg.subspaces_[:s["phase"]])] = True
        np.testing.assert_array_equal(s["active"], expected)
        outside = ~s["active"]
        assert np.all(s["X"][:, outside] == 0.0) and np.all(s["V"][:, outside] == 0.0)
        assert not np.any(s["masks"][:, outside])  # never selected outside F_c
        np.testing.assert_array_equal(s["masks"][:, s["active"]],
                                      swarm.decode(s["X"][:, s["active"]], 0.6))
    first = seen[0]
    assert np.all(first["V"] == 0.0)
    assert np.all((first["X"][:, first["active"]] > 0) & (first["X"][:, first["active"]] < 1))


def test_code_mode_phase_change_reinitialises_without_moving():
    _, seen = _phase_run("code")
    for g in (3, 5, 7, 9):  # generations (0-based) where a new sub-space joins
        before, after = seen[g - 1], seen[g]
        old, new = before["active"], after["active"] & ~before["active"]
        assert new.any()
        np.testing.assert_array_equal(after["X"][:, old], before["X"][:, old])  # no move
        np.testing.assert_array_equal(after["V"], before["V"])  # velocities kept (0 on new)
        assert np.all((after["X"][:, new] > 0) & (after["X"][:, new] < 1))  # U[0, 1]
        # personal bests are not reset: kept unless the re-initialised position is better
        kept = np.all(after["pbest"] == before["pbest"], axis=1)
        moved = np.all(after["pbest"] == after["X"], axis=1)
        assert np.all(kept | moved)


def test_paper_mode_moves_in_the_phase_change_generation():
    _, code = _phase_run("code")
    _, paper = _phase_run("paper")
    g = 3
    old = paper[g - 1]["active"]
    assert not np.array_equal(paper[g]["X"][:, old], paper[g - 1]["X"][:, old])
    assert not np.array_equal(paper[g]["V"], paper[g - 1]["V"])
    assert np.array_equal(code[g]["V"], code[g - 1]["V"])


def test_mutation_flips_about_one_coordinate_of_the_search_space_per_particle():
    problem = _target_problem(D=40)
    flips, sizes = [], []
    previous = {}

    def record(alg, pop):
        if "X" in previous and alg.phase_ == previous["phase"]:
            plain = np.clip(previous["X"] + alg.V_, 0.0, 1.0)  # the move without mutation
            mutated = ~np.isclose(alg.X_, plain, rtol=0, atol=1e-12)
            np.testing.assert_allclose(alg.X_[mutated], 1.0 - plain[mutated], atol=1e-12)
            assert not np.any(mutated[:, ~alg.active_])
            flips.append(mutated.sum())
            sizes.append(alg.active_.sum())
        previous.update(X=alg.X_.copy(), phase=alg.phase_)

    ask_and_tell(problem, FSIPSO(pop_size=10, n_phases=2), ("n_gen", 41), 0, after_tell=record)
    assert len(flips) == 39  # every move but the phase change
    # expected number of flips: 10 particles x |F_c| x 1/|F_c| = 10 per move
    assert 0.7 * 10 * len(flips) < sum(flips) < 1.3 * 10 * len(flips)
    flips_off = []
    previous.clear()

    def record_off(alg, pop):
        if "X" in previous and alg.phase_ == previous["phase"]:
            np.testing.assert_allclose(alg.X_, np.clip(previous["X"] + alg.V_, 0, 1))
            flips_off.append(0)
        previous.update(X=alg.X_.copy(), phase=alg.phase_)

    ask_and_tell(problem, FSIPSO(pop_size=10, n_phases=2, mutation=False), ("n_gen", 11), 0,
                 after_tell=record_off)
    assert len(flips_off) == 9


# ------------------------------------------------------------------ contracts
@pytest.mark.parametrize("mode", ["code", "paper"])
def test_evaluations_are_ranking_plus_swarm_generations(mode):
    res = minimize(_target_problem(), FSIPSO(pop_size=7, phase_change=mode), ("n_gen", 12),
                   seed=2)
    assert res.algorithm.evaluator.n_eval == 20 + 7 * 12


def test_same_seed_same_run_and_the_search_improves():
    a = assert_reproducible(_target_problem(D=30), lambda: FSIPSO(pop_size=8), ("n_gen", 30),
                            (5, 6))
    # the target (5 of 30 features) is found or nearly: FIT-A of the target is 0.1 * 5/30
    assert a.F[0] < 0.1 * 5 / 30 + 0.9 * 2 / 30


def test_accuracy_fitness_ranks_and_selects_by_score():
    problem = _target_problem(alpha=0.0)  # the objective is the subset size alone
    by_size = minimize(problem, FSIPSO(pop_size=6), ("n_gen", 8), seed=0)
    by_score = minimize(problem, FSIPSO(pop_size=6, fitness="accuracy"), ("n_gen", 8), seed=0)
    assert by_size.X.sum() == 1
    assert problem.evaluator.score(by_score.X)[0] > problem.evaluator.score(by_size.X)[0]
    # single-feature ranking by score: the target's features first (ties: higher index first)
    np.testing.assert_array_equal(by_score.algorithm.ranking_[:5], [15, 12, 7, 4, 1])


@pytest.mark.parametrize("kwargs,name", [
    (dict(n_phases=0), "n_phases"),
    (dict(n_phases=2.5), "n_phases"),
    (dict(phase_change="late"), "phase_change"),
    (dict(vmax=0.0), "vmax"),
    (dict(threshold=2.0), "threshold"),
    (dict(pbest_rule="dominates"), "pbest_rule"),
    (dict(fitness="error"), "fitness"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        FSIPSO(**kwargs)


def test_accuracy_fitness_needs_a_feature_selection_problem():
    with pytest.raises(ValueError, match="fitness='accuracy' needs a FeatureSelectionProblem"):
        minimize(Weights(np.ones(5)), FSIPSO(fitness="accuracy"), ("n_gen", 2), seed=0)
