"""CEPSO-FL: the compressed encoding, Hamming velocity and addition, fuzzy states, archive."""

import numpy as np
import pytest
from pymoo.optimize import minimize
from pymoo.problems import get_problem
from pymoo.termination.max_eval import MaximumFunctionCallTermination

from pymoo_fs.algorithms import CEPSOFL, make_algorithm
from pymoo_fs.algorithms.soo.cepsofl import (archive_insert, fuzzy_states, hamming_add,
                                             hamming_table, hamming_velocity, memberships,
                                             pack_bits, unpack_digits)
from pymoo_fs.problems import BiObjectiveFeatureSelection, FitEFeatureSelection
from tests.algorithms.loops import (FixedDraws, TargetEvaluator, advance, assert_reproducible,
                                    replay)


def _target_problem(D=20):
    target = np.zeros(D, dtype=bool)
    target[::4] = True
    return FitEFeatureSelection(TargetEvaluator(target))


class FixedIntegers:
    """A stand-in generator whose ``integers`` returns given values in turn."""

    def __init__(self, *values):
        self.values = list(values)

    def integers(self, low, high, size=None):
        out = self.values.pop(0)
        assert low <= out < high
        return out


# ------------------------------------------------------------------ encoding
def test_digits_and_bits_round_trip_by_hand():
    digits = np.array([[6, 1, 0], [7, 4, 5]])
    bits = unpack_digits(digits, 3)
    # bit j of digit d is column 3 d + j: 6 = 011 (LSB first), 1 = 100, 0 = 000
    np.testing.assert_array_equal(bits[0].astype(int), [0, 1, 1, 1, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(bits[1].astype(int), [1, 1, 1, 0, 0, 1, 1, 0, 1])
    np.testing.assert_array_equal(pack_bits(bits, 3), digits)
    rs = np.random.default_rng(0)
    for b in (1, 3, 5):
        d = rs.integers(0, 2 ** b, size=(4, 7))
        np.testing.assert_array_equal(pack_bits(unpack_digits(d, b), b), d)


def test_decode_drops_padding_and_maps_ranked_features_back():
    alg = advance(_target_problem(5), CEPSOFL(pop_size=3, ranking="index"), 1, seed=0)
    assert alg.n_digits_ == 2  # ceil(5 / 3)
    # 4 = 001 -> ranked 2 ; 7 = 111 -> ranked 3, 4 and the padding bit (ignored)
    X = np.array([[4, 7], [4, 3]])
    np.testing.assert_array_equal(alg._decode(X).astype(int), [[0, 0, 1, 1, 1], [0, 0, 1, 1, 1]])
    alg.order_ = np.array([4, 3, 2, 1, 0])  # ranked position r is original feature 4 - r
    np.testing.assert_array_equal(alg._decode(X).astype(int), [[1, 1, 1, 0, 0], [1, 1, 1, 0, 0]])


def test_padding_only_positions_are_repaired_on_a_real_bit():
    alg = advance(_target_problem(4), CEPSOFL(pop_size=3, ranking="index"), 1, seed=0)
    # D = 4, b = 3: digit 1 holds ranked feature 3 in bit 0, padding in bits 1-2
    X = alg._repair(np.array([[0, 6], [0, 1]]))
    assert X[1].tolist() == [0, 1]  # not empty: untouched
    masks = alg._decode(X)
    assert masks[0].sum() == 1 and (X[0, 1] & 6) == 6  # one real bit set, padding kept


def test_hamming_table_is_the_popcount_of_xor():
    H = hamming_table(8)
    assert H.shape == (8, 8) and H[5, 2] == 3 and H[5, 4] == 1 and H[3, 3] == 0
    assert hamming_table(2).tolist() == [[0, 1], [1, 0]]
    assert hamming_table(32)[0, 31] == 5


def test_hamming_velocity_by_hand():
    H = hamming_table(8)
    V, X = np.array([[2, 1, 3]]), np.array([[0, 5, 7]])
    C, G = np.array([[1, 5, 0]]), np.array([7, 2, 7])
    r1, r2 = np.array([[0.5, 0.2, 1.0]]), np.array([[0.5, 0.25, 0.0]])
    # digit 0: 0.5*2 + 0.5*H[1,0]=1 + 0.5*H[7,0]=3 -> 1 + 0.5 + 1.5 = 3
    # digit 1: 0.5*1 + 0 + 0.25*H[2,5]=3 -> 0.5 + 0.75 = 1.25 -> 1
    # digit 2: 0.5*3 + 1.0*H[0,7]=3 + 0 -> 4.5 -> 5 -> clipped to 3
    np.testing.assert_array_equal(hamming_velocity(V, X, C, G, 0.5, 1.0, 1.0, r1, r2, H, 3),
                                  [[3, 1, 3]])
    # halves: 2.5 goes up by default, to even with rint
    half = np.array([[0.5]])
    args = (np.array([[5]]), np.array([[0]]), np.array([[0]]), np.array([0]), 0.5, 1.0, 1.0,
            half, half, H, 3)
    assert hamming_velocity(*args)[0, 0] == 3
    assert hamming_velocity(*args, rounding="half_even")[0, 0] == 2


def test_hamming_addition_flips_the_bits_with_the_smallest_keys():
    keys = [[[0.1, 0.9, 0.5], [0.3, 0.2, 0.1], [0.7, 0.8, 0.9]]]
    out = hamming_add(np.array([[5, 6, 7]]), np.array([[2, 0, 3]]), 3, FixedDraws(keys))
    # 5 = 101: bits 0 and 2 flip -> 0; v = 0 keeps 6; 7 with v = 3 -> 0
    np.testing.assert_array_equal(out, [[0, 6, 0]])
    rs = np.random.default_rng(1)
    x, v = rs.integers(0, 32, (50, 9)), rs.integers(0, 6, (50, 9))
    np.testing.assert_array_equal(hamming_table(32)[hamming_add(x, v, 5, rs), x], v)


# ------------------------------------------------------------------ fuzzy states
def test_memberships_of_each_zone():
    F = np.array([0.0, 0.79, 0.80, 0.825, 0.85, 0.9, 0.97, 0.975, 0.98, 1.0])
    np.testing.assert_allclose(memberships(F), [
        [1, 0, 0], [1, 0, 0], [1, 0, 0], [0.5, 0.5, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0],
        [0, 0.5, 0.5], [0, 0, 1], [0, 0, 1]], atol=1e-9)


def test_fuzzy_states_zones_hysteresis_and_ties():
    F = np.array([0.5, 0.9, 0.99, 0.81, 0.81, 0.84, 0.84, 0.825, 0.825, 0.975, 0.975, 0.972,
                  0.978])
    prev = np.array([3, 1, 1, 1, 2, 1, 3, 2, 1, 2, 3, 1, 1])
    # pure zones ignore the past; S1-S2 zone: from S1 stay (hysteresis), else larger
    # membership (0.81: mu1 = 0.8 -> S1; 0.84: mu2 = 0.8 -> S2), ties -> higher state
    expected = [1, 2, 3, 1, 1, 1, 2, 2, 1, 2, 3, 2, 3]
    np.testing.assert_array_equal(fuzzy_states(F, prev), expected)
    no_hyst = fuzzy_states(F, prev, hysteresis=False)
    np.testing.assert_array_equal(no_hyst, [1, 2, 3, 1, 1, 2, 2, 2, 2, 3, 3, 2, 3])
    lower = fuzzy_states(F, prev, hysteresis=False, tie_state="lower")
    np.testing.assert_array_equal(lower, [1, 2, 3, 1, 1, 2, 2, 1, 1, 2, 2, 2, 3])


def test_learning_sources_by_state():
    problem = _target_problem(12)
    alg = advance(problem, CEPSOFL(pop_size=6, ranking="index"), 2, seed=3)
    P, n = alg.pbest_X_, alg.pop_size
    F = alg.pbest_F_[:, 0]
    sizes = alg.pbest_pop_.get("X").sum(axis=1)
    rs = replay(alg)
    cbest = alg._learning_sources(np.full(n, 2))
    pairs = rs.integers(0, n, size=(n, 2))
    for i, (a, b) in enumerate(pairs):
        better_b = F[b] < F[a] or (F[b] == F[a] and sizes[b] < sizes[a])
        np.testing.assert_array_equal(cbest[i], P[b if better_b else a])
    np.testing.assert_array_equal(alg._learning_sources(np.ones(n, dtype=int)), P)
    alg.archive_ = np.zeros((0, alg.n_digits_), dtype=np.int64)
    np.testing.assert_array_equal(alg._learning_sources(np.full(n, 3)), P)  # empty: own pbest
    alg.empty_archive = "gbest"
    np.testing.assert_array_equal(alg._learning_sources(np.full(n, 3)),
                                  np.repeat(P[[alg.gbest_]], n, axis=0))
    alg.archive_ = np.arange(3 * alg.n_digits_).reshape(3, -1)
    rs = replay(alg)
    cbest = alg._learning_sources(np.full(n, 3))
    rs.integers(0, n, size=(n, 2))
    np.testing.assert_array_equal(cbest, alg.archive_[rs.integers(0, 3, size=n)])


# ------------------------------------------------------------------ archive
def test_archive_insertion_and_random_eviction():
    a = np.zeros((0, 2), dtype=np.int64)
    a = archive_insert(a, np.array([[1, 1], [2, 2]]), 3, None)
    assert a.tolist() == [[1, 1], [2, 2]]
    a = archive_insert(a, np.array([[3, 3], [4, 4], [5, 5]]), 3, FixedIntegers(0, 2))
    # [1 2 3] full: delete index 0 -> [2 3 4]; delete index 2 -> [2 3 5]
    assert a.tolist() == [[2, 2], [3, 3], [5, 5]]


def test_replaced_personal_bests_go_to_the_archive():
    problem = _target_problem(16)
    alg = advance(problem, CEPSOFL(pop_size=8, archive_size=100, ranking="index"), 1, seed=2)
    archived = 0
    for _ in range(6):
        old = alg.pbest_X_.copy()
        pop = alg.ask()
        alg.evaluator.eval(problem, pop)
        alg.tell(infills=pop)
        replaced = np.flatnonzero((alg.pbest_X_ != old).any(axis=1))
        np.testing.assert_array_equal(alg.archive_[archived:], old[replaced])
        archived += replaced.size
    assert archived > 0 and alg.archive_.shape[0] == archived


def test_archive_never_exceeds_its_capacity():
    problem = _target_problem(16)
    res = minimize(problem, CEPSOFL(pop_size=8, archive_size=3, ranking="index"),
                   ("n_gen", 15), seed=1)
    assert res.algorithm.archive_.shape == (3, res.algorithm.n_digits_)


# ------------------------------------------------------------------ the move
def test_move_is_eq7_then_eq8_with_zero_digits_kept_off():
    problem = _target_problem(24)
    alg = advance(problem, CEPSOFL(pop_size=6, ranking="index", p_move=0.3), 3, seed=5)
    X, V, P, g = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy(), alg.gbest_
    state = fuzzy_states(alg._fitness_ratio(), alg.state_)
    rs = replay(alg)
    saved = alg.random_state.bit_generator.state
    cbest = alg._learning_sources(state)  # the sources the move will pick
    alg.random_state.bit_generator.state = saved
    rs.integers(0, 6, size=(6, 2))
    if alg.archive_.shape[0]:
        rs.integers(0, alg.archive_.shape[0], size=6)
    w = rs.uniform(0.4, 0.7, size=(6, 1))
    r1, r2 = rs.random(X.shape), rs.random(X.shape)
    V_e = hamming_velocity(V, X, cbest, P[g], w, 1.0, 1.0, r1, r2, alg.table_, 3)
    moved = hamming_add(X, V_e, 3, rs)
    coin = rs.random(X.shape) < 0.3
    X_e = np.where(P != 0, np.where(coin, moved, cbest), 0)
    alg.ask()
    _, X_new, V_new = alg._pending
    np.testing.assert_array_equal(V_new, V_e)
    assert alg._decode(X_e).any(axis=1).all()  # no repair in this move
    np.testing.assert_array_equal(X_new, X_e)
    assert np.all(X_new[P == 0] == 0) and (P == 0).any()
    assert coin.any() and (~coin).any() and (V_e > 0).any()


def test_fitness_ratio_is_current_over_personal_best():
    problem = _target_problem(12)
    alg = advance(problem, CEPSOFL(pop_size=5, ranking="index"), 3, seed=0)
    acc, best = alg.pop.get("score"), alg.pbest_pop_.get("score")
    np.testing.assert_allclose(alg._fitness_ratio(), acc / best)
    assert np.all(alg._fitness_ratio() <= 1.0)


# ------------------------------------------------------------------ runs
def test_same_seed_same_run_and_the_random_branches_ran():
    problem = _target_problem(30)
    res = assert_reproducible(problem, lambda: CEPSOFL(pop_size=8, ranking="index"),
                              ("n_gen", 12))
    assert res.algorithm.archive_.shape[0] > 0


def test_n_eval_is_honest_and_the_default_budget_is_5000():
    problem = _target_problem(20)
    res = minimize(problem, CEPSOFL(pop_size=10, ranking="index"), ("n_eval", 47), seed=0)
    assert res.algorithm.evaluator.n_eval == 50 == problem.evaluator.n_evaluations
    alg = CEPSOFL(pop_size=4, ranking="index")
    alg.setup(problem, seed=0)
    assert isinstance(alg.termination, MaximumFunctionCallTermination)
    assert alg.termination.n_max_evals == 5000


def test_result_is_the_lexicographic_best_personal_best():
    problem = _target_problem(20)
    res = minimize(problem, CEPSOFL(pop_size=10, ranking="index"), ("n_gen", 20), seed=4)
    alg = res.algorithm
    F, n = alg.pbest_F_[:, 0], alg.pbest_pop_.get("X").sum(axis=1)
    best = np.lexsort((n, F))[0]
    assert res.F[0] == F[best] and res.X.sum() == n[best]


def test_su_ranking_orders_the_encoding():
    from pymoo_fs.datasets import load_dataset
    data = load_dataset("sonar")
    problem = FitEFeatureSelection.from_data(data.X[::3, :10], data.y[::3])
    alg = CEPSOFL(pop_size=4)
    alg.setup(problem, termination=("n_gen", 1), seed=0)
    np.testing.assert_array_equal(alg.order_, problem.symmetric_uncertainty().ranking())


def test_registered_by_name_and_base_options():
    assert isinstance(make_algorithm("CEPSO-FL", pop_size=5), CEPSOFL)
    assert isinstance(make_algorithm("CEPSOFL", pop_size=5), CEPSOFL)
    for N, D_prime in ((2, 20), (32, 4)):
        alg = advance(_target_problem(20), CEPSOFL(pop_size=4, n_base=N, ranking="index"), 2, 0)
        assert alg.X_.shape == (4, D_prime) and alg.X_.max() < N and alg.V_.max() <= alg.bits


@pytest.mark.parametrize("kwargs, match", [
    (dict(n_base=6), "n_base"), (dict(n_base=1), "n_base"), (dict(n_base=512), "n_base"),
    (dict(p_move=1.5), "p_move"), (dict(archive_size=0), "archive_size"),
    (dict(ranking="random"), "ranking"), (dict(tie_state="up"), "tie_state"),
    (dict(initial_state=4), "initial_state"), (dict(empty_archive="none"), "empty_archive"),
    (dict(inertia_draw="swarm"), "inertia_draw"), (dict(move_draw="swarm"), "move_draw"),
    (dict(rounding="down"), "rounding"), (dict(archive_content="all"), "archive_content"),
    (dict(pbest_rule="dominates"), "pbest_rule"),
])
def test_invalid_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        CEPSOFL(**kwargs)


def test_unknown_keyword_and_unsuitable_problems():
    with pytest.raises(TypeError, match="CEPSOFL"):
        CEPSOFL(nbase=8)
    with pytest.raises(ValueError, match="searches boolean masks"):  # a continuous problem
        minimize(get_problem("sphere", n_var=6), CEPSOFL(), ("n_gen", 2))
    target = np.zeros(10, dtype=bool)
    target[:3] = True
    with pytest.raises(ValueError, match="single-objective"):
        minimize(BiObjectiveFeatureSelection(TargetEvaluator(target)),
                 CEPSOFL(ranking="index"), ("n_gen", 2))
