"""HFS-C-P: thresholds rho0 and rho1, FCFC clustering on a hand-made SU table, the integer
move and the difference mutation by hand, decoding, filter work kept out of n_eval, errors."""

import math

import numpy as np
import pytest
from pymoo.optimize import minimize
from pymoo.problems import get_problem

from pymoo_fs.algorithms import HFSCP, make_algorithm
from pymoo_fs.algorithms.soo.hfscp import (cluster_threshold, difference_mutation,
                                           fcfc_clusters, integer_move, relevance_threshold)
from pymoo_fs.problems import FitEFeatureSelection
from tests.algorithms.loops import advance, assert_reproducible, replay


@pytest.fixture(scope="module")
def problem():
    """A FIT-E problem whose features are copies of three class signals and noise."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 20)
    a = y + 0.8 * rng.random(60)
    b = (y == 1) + 0.5 * rng.random(60)
    columns = [a, a + 0.05 * rng.random(60), b, b + 0.05 * rng.random(60), a + b]
    columns += [rng.random(60) for _ in range(15)]
    return FitEFeatureSelection.from_data(np.column_stack(columns), y)


# ------------------------------------------------------------------ phase 1
def test_rho0_by_hand_in_both_log_bases():
    su = np.array([0.05, 0.4, 0.0, 0.3, 0.02, 0.01, 0.2, 0.0, 0.03, 0.1])
    # ln: k = floor(10 / 2.3026) = 4, the 4th largest SU is 0.1; 0.1 * max = 0.04 is smaller
    rho0, kept = relevance_threshold(su)
    assert rho0 == pytest.approx(0.04) and kept.tolist() == [1, 3, 6, 9, 0]
    # log2: k = floor(10 / 3.3219) = 3, the 3rd largest is 0.2; min(0.04, 0.2) = 0.04 again
    assert relevance_threshold(su, "log2")[0] == pytest.approx(0.04)
    # a flat top: k-th largest below 0.1 max decides
    su = np.array([1.0, 0.05, 0.04, 0.03, 0.02, 0.01, 0.0, 0.0])
    rho0, kept = relevance_threshold(su, "log2")  # k = floor(8 / 3) = 2: SU 0.05
    assert rho0 == 0.05 and kept.tolist() == [0, 1]


def test_rho0_of_zero_keeps_everything_unless_drop_zero():
    su = np.array([0.3, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0])
    rho0, kept = relevance_threshold(su)  # k = floor(12 / ln 12) = 4: SU 0
    assert rho0 == 0.0 and kept.size == 12 and kept[:2].tolist() == [0, 9]
    assert relevance_threshold(su, drop_zero=True)[1].tolist() == [0, 9]
    assert relevance_threshold(np.zeros(5), drop_zero=True)[1].size == 5  # nothing relevant
    assert relevance_threshold(np.array([0.7])) == (pytest.approx(0.07), pytest.approx([0]))


# ------------------------------------------------------------------ phase 2
def test_rho1_by_hand():
    rel = np.array([0.4, 0.3, 0.2, 0.1, 0.05])
    assert cluster_threshold(rel) == pytest.approx(0.35 * math.log(5) / 5)
    assert cluster_threshold(rel, "log2") == pytest.approx(0.35 * math.log2(5) / 5)
    assert cluster_threshold(np.array([0.3])) == 0.0


def test_fcfc_clustering_on_a_hand_made_su_table():
    # SU with the class of features 0..6 (feature 7 was removed by phase 1)
    rel = np.array([0.60, 0.58, 0.55, 0.40, 0.38, 0.37, 0.10, 0.0])
    pairs = {(0, 1): 0.70, (0, 2): 0.50,  # 1 joins 0 (0.70 >= 0.58); 2 does not (0.50 < 0.55)
             (2, 3): 0.90,                # 3 is outside 2's window (0.55 - 0.40 > 0.1)
             (3, 4): 0.39, (3, 5): 0.30,  # 4 joins 3 (0.39 >= 0.38), 5 does not (0.30 < 0.37)
             (5, 6): 0.99}                # 6 is outside 5's window
    asked = []

    def between(h, candidates):
        asked.append((h, candidates.tolist()))
        return np.array([pairs.get((h, int(f)), 0.0) for f in candidates])

    order = np.array([0, 1, 2, 3, 4, 5, 6])
    clusters, n_pairs = fcfc_clusters(order, rel, between, 0.1)
    assert [c.tolist() for c in clusters] == [[0, 1], [2], [3, 4], [5], [6]]
    # head 0: window {1, 2}; head 2: none in window; head 3: {4, 5}; head 5: none; 6 is last
    assert asked == [(0, [1, 2]), (3, [4, 5])] and n_pairs == 4
    wide, _ = fcfc_clusters(order, rel, between, 1.0)  # every feature in every window
    assert [c.tolist() for c in wide] == [[0, 1], [2, 3], [4], [5, 6]]


def test_members_follow_the_head_in_scan_order():
    rel = np.array([0.5, 0.45, 0.48, 0.3])
    order = np.array([0, 2, 1, 3])  # decreasing relevance
    clusters, _ = fcfc_clusters(order, rel, lambda h, c: np.ones(c.size), 0.5)
    assert [c.tolist() for c in clusters] == [[0, 2, 1, 3]]


# ------------------------------------------------------------------ phase 3 steps
def test_integer_move_by_hand_with_both_range_rules():
    P = np.array([[1, 4, 0, 2, 3], [0, 0, 2, 1, 1]])
    g = np.array([2, 0, 3, 2, 0])
    coin = np.array([[1, 1, 1, 0, 1], [1, 1, 1, 1, 1]], dtype=bool)
    G = np.array([[0.3, -0.4, 1.5, 9.0, -2.0], [0.0, 0.7, -0.2, -1.0, 0.1]])
    sizes = np.array([3, 4, 3, 2, 3])
    # row 0: ceil(1.5) + ceil(0.3) = 3 ; 2 + ceil(-1.6) = 1 ; 2 + ceil(4.5) = 7 -> 3 ;
    #        pbest 2 ; ceil(1.5) + ceil(-6) = -4 -> 0
    # row 1: 1 + 0 = 1 ; 0 + 0 = 0 ; ceil(2.5) + ceil(-0.2) = 3 ; ceil(1.5) + ceil(-1) = 1 ;
    #        ceil(0.5) + ceil(0.1) = 2
    np.testing.assert_array_equal(integer_move(P, g, coin, G, sizes),
                                  [[3, 1, 3, 2, 0], [1, 0, 3, 1, 2]])
    X_old = np.full((2, 5), 9)
    np.testing.assert_array_equal(integer_move(P, g, coin, G, sizes, "keep", X_old),
                                  [[3, 1, 9, 2, 9], [1, 0, 3, 1, 2]])


def test_difference_mutation_by_hand():
    P = np.array([[1, 2, 0, 3], [1, 2, 1, 3], [0, 0, 0, 0]])
    g = np.array([1, 2, 1, 3])  # agreements: 3, 4 and 0 of 4 -> pm 0.075, 0.1, 0.0
    X = np.array([[2, 2, 2, 2], [1, 1, 1, 1], [3, 3, 3, 3]])
    u = np.array([[0.04, 0.06, 0.0, 0.2], [0.09, 0.11, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0]])
    redraw = np.array([[0.99, 0.5, 0.1, 0.0], [0.3, 0.9, 0.9, 0.8], [0.5, 0.5, 0.5, 0.5]])
    sizes = np.array([3, 2, 1, 4])
    # mutated: (0, 0) -> floor(0.99 * 4) = 3 ; (0, 1) -> floor(0.5 * 3) = 1 ;
    #          (0, 2) -> floor(0.1 * 2) = 0 ; (1, 0) -> floor(0.3 * 4) = 1 ;
    #          (1, 3) -> floor(0.8 * 5) = 4 ; (0, 3), (1, 1), (1, 2) and row 2 are not
    np.testing.assert_array_equal(difference_mutation(X, P, g, sizes, u, redraw),
                                  [[3, 1, 0, 2], [1, 1, 1, 4], [3, 3, 3, 3]])


# ------------------------------------------------------------------ the algorithm
def test_setup_runs_phases_one_and_two_on_the_problems_su(problem):
    alg = HFSCP(pop_size=6)
    alg.setup(problem, termination=("n_gen", 3), seed=0)
    su = problem.symmetric_uncertainty("mdl")
    np.testing.assert_array_equal(alg.relevance_, su.relevance)
    rho0, kept = relevance_threshold(su.relevance)
    assert alg.rho0_ == rho0 and alg.relevant_.tolist() == kept.tolist()
    assert alg.rho1_ == cluster_threshold(su.relevance[kept])
    clusters, n_pairs = fcfc_clusters(kept, su.relevance, su.between, alg.rho1_)
    assert [c.tolist() for c in alg.clusters_] == [c.tolist() for c in clusters]
    assert alg.n_su_pairs_ == n_pairs > 0 and alg.n_clusters_ == len(clusters)
    members = np.concatenate(alg.clusters_)
    assert sorted(members.tolist()) == sorted(kept.tolist())  # a partition of F'
    assert {0, 1} <= set(kept.tolist()) and alg.n_clusters_ < kept.size  # copies cluster


def test_filter_work_is_not_counted_as_evaluations(problem):
    ev = problem.evaluator
    before = ev.n_evaluations + ev.n_cache_hits
    res = minimize(problem, HFSCP(pop_size=5), ("n_gen", 4), seed=1)
    alg = res.algorithm
    assert alg.evaluator.n_eval == 20 == ev.n_evaluations + ev.n_cache_hits - before
    assert alg.n_su_pairs_ > 0


def test_decode_picks_one_member_per_cluster(problem):
    alg = advance(problem, HFSCP(pop_size=4), 1, seed=0)
    alg.clusters_ = [np.array([7, 3]), np.array([5]), np.array([0, 9, 2])]
    alg.n_clusters_, alg.cluster_sizes_ = 3, np.array([2, 1, 3])
    alg._members = np.array([[-1, 7, 3, -1], [-1, 5, -1, -1], [-1, 0, 9, 2]])
    masks = alg._decode(np.array([[2, 0, 3], [1, 1, 0], [0, 1, 1]]))
    assert [np.flatnonzero(m).tolist() for m in masks] == [[2, 3], [5, 7], [0, 5]]


def test_initial_positions_follow_the_heads_relevance(problem):
    alg = HFSCP(pop_size=8)
    alg.setup(problem, termination=("n_gen", 2), seed=4)
    rs = replay(alg)
    X, V = alg._initial_swarm()
    heads = alg.relevance_[[c[0] for c in alg.clusters_]]
    take = rs.random(X.shape) < heads / heads.max()
    member = 1 + np.floor(rs.random(X.shape) * alg.cluster_sizes_).astype(int)
    expected = np.where(take, member, 0)
    assert V is None and expected.any(axis=1).all()  # no repair needed at this seed
    np.testing.assert_array_equal(X, expected)
    assert np.all(X <= alg.cluster_sizes_) and np.all(X[:, 0] > 0)  # pc of the top head is 1


def test_the_move_is_eq15_then_eq16(problem):
    alg = advance(problem, HFSCP(pop_size=6), 2, seed=3)
    X, P, g = alg.X_.copy(), alg.pbest_X_.copy(), alg.pbest_X_[alg.gbest_].copy()
    rs = replay(alg)
    alg.ask()
    coin = rs.random(P.shape) < 0.5
    moved = integer_move(P, g, coin, rs.standard_normal(P.shape), alg.cluster_sizes_)
    X_e = difference_mutation(moved, P, g, alg.cluster_sizes_, rs.random(P.shape),
                              rs.random(P.shape))
    assert X_e.any(axis=1).all()
    np.testing.assert_array_equal(alg._pending[1], X_e)
    assert X.shape == X_e.shape


def test_positions_that_select_nothing_are_repaired(problem):
    alg = advance(problem, HFSCP(pop_size=5), 1, seed=0)
    X = alg._repair(np.zeros((5, alg.n_clusters_), dtype=np.int64))
    assert np.all((X > 0).sum(axis=1) == 1) and np.all(X <= alg.cluster_sizes_)
    assert alg._decode(X).sum(axis=1).tolist() == [1] * 5


def test_same_seed_same_run_and_other_switches(problem):
    assert_reproducible(problem, lambda: HFSCP(pop_size=6), ("n_gen", 6), (2, 3))
    for kwargs in (dict(log="log2"), dict(drop_zero=True), dict(out_of_range="keep"),
                   dict(discretization="equal_frequency")):
        res = minimize(problem, HFSCP(pop_size=4, **kwargs), ("n_gen", 3), seed=0)
        assert res.X.any() and res.algorithm.evaluator.n_eval == 12
    alg = HFSCP(pop_size=4)
    alg.setup(problem, seed=0)
    assert alg.termination.n_max_evals == 5000


def test_registered_by_name_and_alias():
    assert isinstance(make_algorithm("HFS-C-P", pop_size=5), HFSCP)
    assert make_algorithm("hfscp", pop_size=5, log="log2").log == "log2"


@pytest.mark.parametrize("kwargs, match", [
    (dict(discretization="mutual_info"), "mutual_info"), (dict(discretization="kmeans"),
                                                          "discretization"),
    (dict(log="log10"), "log"), (dict(out_of_range="wrap"), "out_of_range"),
    (dict(pbest_rule="dominates"), "pbest_rule"), (dict(pop_size=0), "pop_size"),
])
def test_invalid_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        HFSCP(**kwargs)


def test_unknown_keyword_and_unsuitable_problems():
    with pytest.raises(TypeError, match="HFSCP"):
        HFSCP(w=0.5)
    with pytest.raises(ValueError, match="searches boolean masks"):  # a continuous problem
        minimize(get_problem("sphere", n_var=6), HFSCP(), ("n_gen", 2))
