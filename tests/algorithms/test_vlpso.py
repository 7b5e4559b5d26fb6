"""VLPSO: exemplars and learning probabilities by hand, length changes, reproducibility."""

import math

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import VLPSO
from pymoo_fs.algorithms.soo.vlpso import exemplars, learning_probabilities
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import FitBFeatureSelection


@pytest.fixture(scope="module")
def fitb():
    data = load_dataset("sonar")
    return FitBFeatureSelection.from_data(data.X, data.y)


def test_learning_probabilities_are_clpso_s():
    pc = learning_probabilities(5)
    expected = [0.05 + 0.45 * (math.exp(10 * i / 4) - 1) / (math.exp(10) - 1) for i in range(5)]
    np.testing.assert_allclose(pc, expected)
    assert pc[0] == 0.05 and pc[-1] == pytest.approx(0.5)
    assert learning_probabilities(1).tolist() == [0.05]


def test_exemplars_by_hand():
    # particle 0 (length 4) among particles of lengths 4, 4, 2, 3 with pbest F 0.3 0.1 0.2 0.4
    lengths, F = np.array([4, 4, 2, 3]), np.array([0.3, 0.1, 0.2, 0.4])
    rng = np.random.default_rng(6)
    learn, u1, u2 = rng.random(4) < 0.7, rng.random(4), rng.random(4)
    others_longest_first = np.array([1, 3, 2])  # lengths 4, 3, 2
    expected = []
    for d in range(4):
        count = int(np.sum(lengths[others_longest_first] > d))  # other particles with dim d
        a = min(int(u1[d] * count), max(count - 1, 0))
        b = min(int(u2[d] * (count - 1)), max(count - 2, 0))
        b += b >= a
        p1 = others_longest_first[a] if count >= 1 else 0
        p2 = others_longest_first[b] if count >= 2 else 0
        winner = p1 if F[p1] < F[p2] else p2
        expected.append(int(winner) if learn[d] else 0)
    got = exemplars(0, lengths, F, 0.7, 6, np.random.default_rng(6))
    assert got.tolist() == expected + [0, 0]  # beyond its length: itself
    # dimension 3: only particle 1 is another one that long, so the tournament is 1 vs 0
    assert got[3] in (0, 1)


def test_exemplars_never_learn_from_a_particle_without_the_dimension():
    lengths = np.array([10, 10, 2, 5, 1])
    F = np.array([0.5, 0.4, 0.0, 0.1, 0.0])  # short particles look best
    rng = np.random.default_rng(0)
    for i in range(5):
        e = exemplars(i, lengths, F, 1.0, 10, rng)
        d = np.arange(10)
        assert np.all((lengths[e] > d) | (e == i))


def test_run_counts_evaluations_and_moves_every_particle(fitb):
    res = minimize(fitb, VLPSO(pop_size=24), ("n_gen", 5), seed=1)
    alg = res.algorithm
    assert alg.n_particles_ == 24 and alg.lengths_.size == 12
    assert alg.evaluator.n_eval == 24 * 5
    np.testing.assert_allclose(fitb.evaluate(alg.pop.get("X")), alg.pop.get("F"))
    assert VLPSO()._setup is not None
    auto = minimize(fitb, VLPSO(), ("n_gen", 2), seed=0).algorithm
    assert auto.n_particles_ == 96  # "auto": 100 for D = 60, 12 divisions of 8


def test_length_change_follows_the_best_division_on_average(fitb):
    alg = VLPSO(pop_size=24, stagnation=1)
    calls = []
    change = alg._change_lengths

    def spy(new_max, visit, *args):
        mean = [alg.pbest_F_[alg.division_ == s, 0].mean() for s in range(alg.lengths_.size)]
        calls.append((new_max, visit, alg.lengths_.copy(), int(np.argmin(mean))))
        return change(new_max, visit, *args)

    alg._change_lengths = spy
    res = minimize(fitb, alg, ("n_gen", 30), seed=2, copy_algorithm=False)
    assert calls, "the lengths never changed"
    for new_max, visit, lengths, best in calls:
        assert visit == "index" and new_max == lengths[best]
    assert res.algorithm.max_length_ < 60
    outside = np.arange(60)[None, :] >= alg.particle_lengths_[:, None]
    assert not alg.X_[outside].any()
    np.testing.assert_allclose(fitb.evaluate(alg.pbest_pop_.get("X")), alg.pbest_F_)


def test_same_seed_same_result(fitb):
    a, b, c = (minimize(fitb, VLPSO(pop_size=24, stagnation=2), ("n_gen", 8), seed=s)
               for s in (3, 3, 4))
    np.testing.assert_array_equal(a.algorithm.X_, b.algorithm.X_)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.algorithm.X_, c.algorithm.X_)


@pytest.mark.parametrize("key, value", [("n_divisions", 0), ("refresh_gap", 0),
                                        ("stagnation", -1), ("inertia", "fast")])
def test_invalid_parameters_are_named(key, value):
    with pytest.raises(ValueError, match=key):
        VLPSO(**{key: value})
