"""AMSO: each rule on a tiny hand-worked swarm, length changes, the local search, budgets,
reproducibility and errors."""

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import AMSO, swarm
from pymoo_fs.algorithms.soo.amso import compete, local_search_flips
from pymoo_fs.algorithms.varlen import (
    division_lengths,
    learn_velocity,
    paper_swarm_size,
    resized_lengths,
)
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import Evaluator
from pymoo_fs.problems import FitBFeatureSelection, WeightedFeatureSelection
from tests.algorithms.loops import ask_and_tell


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return data.X, data.y


@pytest.fixture(scope="module")
def fitb(sonar):
    return FitBFeatureSelection.from_data(*sonar)


def _setup(problem, **options):
    alg = AMSO(**options)
    alg.setup(problem, termination=("n_gen", 50), seed=3)
    return alg


# ------------------------------------------------------------------ sizes and lengths
def test_swarm_size_rule_of_the_code():
    assert paper_swarm_size(2308, 30) == 115  # SRBCT
    assert paper_swarm_size(20 * 400, 30) == 300  # capped
    assert paper_swarm_size(2000, 30) == 30  # 100 or fewer: 30
    assert paper_swarm_size(2000, 100) == 100  # VLPSO's rule


def test_subswarm_lengths_of_eq_3_and_the_resize_of_fig_2():
    assert division_lengths(2000, 5).tolist() == [400, 800, 1200, 1600, 2000]
    assert division_lengths(10, 13).tolist()[:3] == [1, 1, 2]  # integer division, at least 1
    # gbest in subswarm 3 (length 1200): the others, shortest first, get k * 1200 // 5
    assert resized_lengths([400, 800, 1200, 1600, 2000], 1200, "ascending").tolist() == [
        240, 480, 1200, 720, 960]
    # ascending order ties by index; VLPSO visits in index order
    assert resized_lengths([50, 10, 30], 30, "ascending").tolist() == [20, 10, 30]
    assert resized_lengths([50, 10, 30], 30, "index").tolist() == [10, 20, 30]


def test_initial_swarm(fitb):
    alg = _setup(fitb, pop_size=26)
    X, V = alg._initial_swarm()
    assert alg.n_particles_ == 26 and alg.lengths_.tolist() == [60 * s // 13 for s in
                                                                 range(1, 14)]
    lengths = alg.particle_lengths_
    inside = np.arange(60)[None, :] < lengths[:, None]
    assert np.all(X[~inside] == 0) and np.all(V[~inside] == 0)
    assert np.all(X[::2][inside[::2]] == 1.0)  # particle 0 of each subswarm: all ones
    assert np.all(np.abs(V) <= 0.6) and not np.all(X[1::2][inside[1::2]] == 1.0)
    masks = alg._decode(X)
    np.testing.assert_array_equal(masks[::2].sum(axis=1), lengths[::2])
    # masks are over the original features: the ranked prefix mapped through order_
    np.testing.assert_array_equal(np.flatnonzero(masks[2]), np.sort(alg.order_[:lengths[2]]))


def test_small_swarms_use_fewer_subswarms_of_pairs(fitb):
    alg = _setup(fitb, pop_size=6)
    assert alg.lengths_.size == 3 and alg.n_particles_ == 6
    assert _setup(fitb, pop_size=30).n_particles_ == 26  # 13 subswarms of 2
    assert _setup(fitb).n_particles_ == 26  # "auto": 30 for D = 60


def test_decode_stays_within_the_length_and_repairs_an_empty_particle(fitb):
    alg = _setup(fitb, pop_size=26)
    X = np.zeros((26, 60))
    X[0, 1] = 0.9   # within the length of subswarm 0 (4)
    X[0, 10] = 0.9  # beyond it: never selected
    X[1, 2] = 0.3   # nothing above the threshold: the largest coordinate
    masks = alg._decode(X)
    assert masks[0].sum() == 1 and masks[0, alg.order_[1]]
    assert masks[1].sum() == 1 and masks[1, alg.order_[2]]


# ------------------------------------------------------------------ competition and learning
def test_compete_pairs_a_permutation_per_subswarm():
    F = np.array([0.5, 0.1, 0.4, 0.4, 0.9, 0.2, 0.3])
    division = np.array([0, 0, 0, 0, 1, 1, 1])
    losers, winners = compete(F, division, np.random.default_rng(7))
    rng = np.random.default_rng(7)
    p0, p1 = rng.permutation(4), 4 + rng.permutation(3)
    expected = []
    for a, b in [(p0[0], p0[1]), (p0[2], p0[3]), (p1[0], p1[1])]:
        expected.append((b, a) if F[a] < F[b] else (a, b))  # (loser, winner)
    assert list(zip(losers.tolist(), winners.tolist())) == [tuple(map(int, e))
                                                            for e in expected]
    assert p1[2] not in losers and p1[2] not in winners  # the odd one out waits


def test_ties_make_the_first_of_the_pair_the_loser():
    losers, winners = compete(np.array([0.2, 0.2]), np.array([0, 0]), np.random.default_rng(0))
    first = np.random.default_rng(0).permutation(2)[0]
    assert losers.tolist() == [first]


def test_loser_learns_from_the_winners_pbest_by_hand():
    V = np.array([[0.1, -0.2, 0.0]])
    X = np.array([[0.5, 0.9, 0.0]])
    P = np.array([[1.0, 0.1, 0.0]])  # the winner's personal best (same length 2)
    r = np.random.default_rng(11).random((1, 3))
    Vn = learn_velocity(V, X, P, 0.9, 1.49445, np.random.default_rng(11))
    np.testing.assert_allclose(Vn, 0.9 * V + 1.49445 * r * (P - X))
    assert Vn[0, 2] == 0.0  # beyond the length nothing moves
    Xn, Vc = swarm.move(X, Vn, 0.6)
    np.testing.assert_allclose(Vc, np.clip(Vn, -0.6, 0.6))
    np.testing.assert_allclose(Xn, np.clip(X + Vc, 0, 1))


def test_a_move_changes_only_the_losers(fitb):
    alg = _setup(fitb, pop_size=26, ls_schedule="never")
    pop = alg.ask()
    alg.evaluator.eval(fitb, pop)
    alg.tell(infills=pop)
    X_before = alg.X_.copy()
    pop = alg.ask()
    alg.evaluator.eval(fitb, pop)
    alg.tell(infills=pop)
    changed = np.flatnonzero(np.any(alg.X_ != X_before, axis=1))
    assert len(pop) == 13 and set(changed) <= set(range(26)) and changed.size >= 10
    np.testing.assert_array_equal(alg.pop.get("X"), alg._decode(alg.X_))
    np.testing.assert_allclose(fitb.evaluate(alg.pop.get("X")), alg.pop.get("F"))


def test_inertia_schedules(fitb):
    res = minimize(fitb, AMSO(pop_size=6, ls_schedule="never"), ("n_gen", 5), seed=0)
    alg = res.algorithm
    assert alg._inertia() == pytest.approx(0.4)  # the end of the budget
    assert AMSO(inertia="constant")._inertia() == 0.9


# ------------------------------------------------------------------ local search
def test_local_search_flip_set_by_hand():
    s = np.array([True, True, True, True, False, False, False, False])
    relevance = np.array([0.9, 0.8, 0.7, 0.6, 0.85, 0.5, 0.75, 0.1])

    def later_ones_redundant(columns):
        return np.arange(columns.size) > 0

    rng = np.random.default_rng(8)
    u = rng.random()
    k = 3  # floor(0.75 * 4)
    n0 = int(np.floor(u * min(k, 4) + 0.5))
    assert (n0, k - n0) == (1, 2)  # seed 8 draws one unselected and two selected columns
    # Floyd's algorithm: 2 of the 4 selected columns from 2 uniforms, then 1 of the 4 others
    u = rng.random(2)
    first = int(u[0] * 3)  # j = 2: an index in 0..2
    second = int(u[1] * 4)  # j = 3: an index in 0..3, or 3 if it is taken
    second = 3 if second == first else second
    ones = np.sort(np.flatnonzero(s)[[first, second]])
    zeros = np.flatnonzero(~s)[[int(rng.random() * 4)]]
    expected = list(ones[1:]) + [z for z in zeros if relevance[z] > relevance[ones].mean()]
    flips = local_search_flips(s, 0.75, relevance, later_ones_redundant, 10,
                               np.random.default_rng(8))
    assert flips.tolist() == expected and len(expected) >= 1


def test_subsets_are_uniform():
    from pymoo_fs.algorithms.soo.amso import _subset

    rng = np.random.default_rng(0)
    for n, m in [(10, 3), (160, 3), (6, 5)]:
        counts = np.zeros(n)
        for _ in range(4000):
            chosen = _subset(np.arange(n), m, rng)
            assert np.unique(chosen).size == m
            counts[chosen] += 1
        p = m / n  # each column's chance; 6 standard deviations of its frequency
        assert np.abs(counts / 4000 - p).max() < 6 * np.sqrt(p * (1 - p) / 4000)
    assert _subset(np.arange(5), 7, rng).tolist() == [0, 1, 2, 3, 4]
    assert _subset(np.arange(5), 0, rng).size == 0


def test_local_search_draws_again_when_the_flip_set_is_empty():
    s = np.array([True, True, False, False])
    relevance = np.array([0.9, 0.8, 0.2, 0.1])  # no zero beats the ones; no redundancy
    calls = []

    def never(columns):
        calls.append(columns)
        return np.zeros(columns.size, dtype=bool)

    # seed 3: u = 0.086, so n0 = round(u * 2) = 0 and both selected columns are drawn
    flips = local_search_flips(s, 1.0, relevance, never, 4, np.random.default_rng(3))
    assert flips.size == 0 and len(calls) == 4
    # with no selected column to draw (n1 = 0: seed 4, u = 0.94) nothing is drawn at all
    calls.clear()
    assert local_search_flips(s, 1.0, relevance, never, 4, np.random.default_rng(4)).size == 0
    assert calls == []


def test_local_search_improves_personal_bests_and_counts_its_evaluations(fitb):
    res = minimize(fitb, AMSO(pop_size=26, ls_iterations=20), ("n_gen", 4), seed=2)
    alg = res.algorithm
    assert alg.n_local_searches_ >= 26 and alg.n_local_search_improved_ > 0
    ev = fitb.evaluator
    # every mask the problem scored went through pymoo's evaluator (n_eval is honest)
    assert alg.evaluator.n_eval > 26 + 3 * 13
    F = fitb.evaluate(alg.pbest_pop_.get("X"))
    np.testing.assert_allclose(F, alg.pbest_F_)  # refined personal bests hold true fitness
    np.testing.assert_array_equal(alg.pbest_pop_.get("X"), alg._decode(alg.pbest_X_))
    assert ev.n_evaluations > 0


def test_n_eval_equals_the_masks_the_problem_scored(sonar):
    problem = FitBFeatureSelection.from_data(*sonar, cache_size=0)
    ev = problem.evaluator
    before = ev.n_evaluations + ev.n_cache_hits
    res = minimize(problem, AMSO(pop_size=26, ls_iterations=15, stagnation=1), ("n_gen", 8),
                   seed=4)
    assert res.algorithm.evaluator.n_eval == ev.n_evaluations + ev.n_cache_hits - before


def test_an_evaluation_budget_is_a_budget(fitb):
    for budget in (30, 200):
        res = minimize(fitb, AMSO(pop_size=26), ("n_eval", budget), seed=1)
        assert budget <= res.algorithm.evaluator.n_eval <= budget + 13


def test_ls_schedules(fitb):
    never = minimize(fitb, AMSO(pop_size=26, ls_schedule="never"), ("n_gen", 4), seed=0)
    assert never.algorithm.n_local_searches_ == 0
    assert never.algorithm.evaluator.n_eval == 26 + 3 * 13
    code = minimize(fitb, AMSO(pop_size=26, ls_iterations=2), ("n_gen", 4), seed=0)
    always = minimize(fitb, AMSO(pop_size=26, ls_iterations=2, ls_schedule="always"),
                      ("n_gen", 4), seed=0)
    # "code": at initialisation and after move 2; "always": after every move too
    assert code.algorithm.n_local_searches_ == 26 + _updated_after(code.algorithm, {2})
    assert always.algorithm.n_local_searches_ > code.algorithm.n_local_searches_


def _updated_after(alg, moves):
    return alg.n_local_searches_ - 26 if moves else 0


# ------------------------------------------------------------------ length changes
def test_stagnation_shrinks_the_subswarms_below_the_gbest_length(fitb):
    alg = AMSO(pop_size=26, stagnation=1, ls_schedule="never")
    lengths_seen = []
    res = ask_and_tell(fitb, alg, ("n_gen", 12), 5,
                       before_tell=lambda a: lengths_seen.append(a.lengths_.copy()))
    alg = res.algorithm
    assert alg.max_length_ < 60, "no length change happened"
    assert alg.lengths_.max() == alg.max_length_
    lengths = alg.particle_lengths_
    outside = np.arange(60)[None, :] >= lengths[:, None]
    assert not alg.X_[outside].any() and not alg.pbest_X_[outside].any()
    np.testing.assert_allclose(fitb.evaluate(alg.pbest_pop_.get("X")), alg.pbest_F_)
    np.testing.assert_allclose(fitb.evaluate(alg.pop.get("X")), alg.pop.get("F"))
    assert res.F[0] == alg.gbest_ind_.F[0] <= alg.pbest_F_.min()


def test_stale_personal_best_fitness_keeps_the_codes_values(fitb):
    res = minimize(fitb, AMSO(pop_size=26, stagnation=1, ls_schedule="never",
                              stale_pbest_fitness=True), ("n_gen", 12), seed=5)
    alg = res.algorithm
    assert alg.max_length_ < 60
    true = fitb.evaluate(alg.pbest_pop_.get("X"))[:, 0]
    assert np.any(true != alg.pbest_F_[:, 0])  # some truncated personal best is stale


def test_same_seed_same_result_and_the_random_branches_ran(fitb):
    runs = [minimize(fitb, AMSO(pop_size=26, ls_iterations=10, stagnation=2), ("n_gen", 10),
                     seed=s) for s in (8, 8, 9)]
    a, b, c = (r.algorithm for r in runs)
    np.testing.assert_array_equal(a.X_, b.X_)
    np.testing.assert_array_equal(runs[0].X, runs[1].X)
    assert a.evaluator.n_eval == b.evaluator.n_eval
    assert not np.array_equal(a.X_, c.X_)
    assert a.n_local_search_improved_ > 0 and a.max_length_ < 60


def test_works_on_any_single_objective_feature_selection_problem(sonar):
    problem = WeightedFeatureSelection.from_data(*sonar, cv=3)
    res = minimize(problem, AMSO(pop_size=10, ls_iterations=5), ("n_gen", 4), seed=0)
    assert res.X.any()
    res = minimize(problem, AMSO(pop_size=10, ranking="index", ls_iterations=5), ("n_gen", 4),
                   seed=0)
    np.testing.assert_array_equal(res.algorithm.order_, np.arange(60))


class _NoData(Evaluator):
    n_features = 5

    def score(self, masks):
        return np.asarray(masks, dtype=float).mean(axis=1)


def test_su_ranking_needs_training_data():
    problem = WeightedFeatureSelection(_NoData())
    with pytest.raises(ValueError, match="training data"):
        minimize(problem, AMSO(pop_size=4), ("n_gen", 2), seed=0)
    res = minimize(problem, AMSO(pop_size=4, ranking="index", ls_schedule="never"),
                   ("n_gen", 3), seed=0)
    assert res.X.any()


@pytest.mark.parametrize("key, value", [
    ("pop_size", 0), ("pop_size", 1), ("pop_size", "paper"), ("n_subswarms", 0),
    ("stagnation", 0),
    ("inertia", "cubic"), ("w", -1.0), ("c", "1"), ("vmax", 0.0), ("threshold", 1.5),
    ("ls_schedule", "sometimes"), ("ls_iterations", 0), ("flip_fraction", 1.5),
    ("ls_redraws", 0), ("ranking", "random")])
def test_invalid_parameters_are_named(key, value):
    name = "pop_size" if key == "pop_size" else key
    with pytest.raises(ValueError, match=name):
        AMSO(**{key: value})


def test_unknown_keyword_and_multi_objective_problems(sonar):
    with pytest.raises(TypeError, match="subswarms"):
        AMSO(subswarms=3)
    from pymoo_fs.problems import BiObjectiveFeatureSelection

    with pytest.raises(ValueError, match="single-objective"):
        minimize(BiObjectiveFeatureSelection.from_data(*sonar, cv=3), AMSO(pop_size=4),
                 ("n_gen", 2))


class _SizeScore(Evaluator):
    """A stand-in evaluator: every mask scores ``sign * |S| / D`` (or 0.5 for every mask)."""

    def __init__(self, n_features, sign):
        self.n_features, self.sign = n_features, sign

    def score(self, masks):
        masks = np.atleast_2d(masks)
        if self.sign == 0:
            return np.full(masks.shape[0], 0.5)
        return 0.5 + self.sign * masks.sum(axis=1) / (2 * self.n_features)


def _local_search_once(sign):
    """Initial swarm, then one local search per particle (no SU: removals only)."""
    problem = WeightedFeatureSelection(_SizeScore(40, sign), alpha=1.0)
    alg = AMSO(pop_size=8, ranking="index", ls_schedule="never", ls_iterations=30)
    alg.setup(problem, termination=("n_gen", 5), seed=0)
    pop = alg.ask()
    alg.evaluator.eval(problem, pop)
    alg.tell(infills=pop)
    before = alg.pbest_pop_.get("X").sum(axis=1)
    F_before = alg.pbest_F_.copy()
    alg._refine(np.arange(alg.n_particles_))
    return alg, before, F_before


def test_local_search_accepts_equal_fitness_with_fewer_features():
    alg, before, F_before = _local_search_once(0)  # every subset scores the same
    after = alg.pbest_pop_.get("X").sum(axis=1)
    assert np.all(after <= before) and np.any(after < before)
    np.testing.assert_array_equal(alg.pbest_F_, F_before)
    np.testing.assert_array_equal(alg.pbest_pop_.get("X"), alg._decode(alg.pbest_X_))


def test_local_search_never_accepts_a_worse_subset():
    alg, before, F_before = _local_search_once(+1)  # more features score better
    assert alg.n_local_search_moves_ == 0 and alg.evaluator.n_eval > 8
    np.testing.assert_array_equal(alg.pbest_pop_.get("X").sum(axis=1), before)


def test_local_search_accepts_strictly_better_subsets():
    alg, before, F_before = _local_search_once(-1)  # fewer features score better
    assert alg.n_local_search_moves_ > 0
    assert np.all(alg.pbest_F_ <= F_before) and np.any(alg.pbest_F_ < F_before)
