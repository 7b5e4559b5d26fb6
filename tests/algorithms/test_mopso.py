"""MOPSO: the distance tournament, the crowding-capped archive, pbest rules, contracts."""

import copy

import numpy as np
import pytest
from pymoo.core.callback import Callback
from pymoo.optimize import minimize

from pymoo_fs.algorithms import MOPSO, archive
from pymoo_fs.algorithms.archive import distance_tournament
from tests.algorithms.loops import ask_and_tell, interleave
from tests.algorithms.test_cmdpsofs import TradeOff, _count_truncations


class Draws:
    """A stand-in generator: ``integers`` and ``random`` return given arrays in turn."""

    def __init__(self, integers, random):
        self.ints, self.reals = list(integers), list(random)

    def integers(self, low, high, size):
        out = np.asarray(self.ints.pop(0))
        assert out.shape == (size,) and np.all((low <= out) & (out < high))
        return out

    def random(self, size):
        return np.asarray(self.reals.pop(0))


class Archive(Callback):
    def __init__(self):
        super().__init__()
        self.F, self.evaluated = [], []

    def notify(self, algorithm):
        self.F.append(algorithm.archive_.get("F").copy())
        self.evaluated.append(algorithm.pop.get("F").copy())


# ------------------------------------------------------------------ leader tournament
def test_distance_tournament_picks_the_nearer_contestant_by_hand():
    F = np.array([[0.1, 0.9], [0.5, 0.5], [0.9, 0.1]])
    particles = np.array([[0.8, 0.2], [0.2, 0.8], [0.5, 0.45], [0.5, 0.5]])
    # contestants (a, b): (0, 2), (1, 0), (2, 2), (0, 2); coins decide ties only
    draws = Draws([[0, 1, 2, 0], [2, 0, 2, 2]], [[0.9, 0.9, 0.1, 0.1]])
    # particle 3 is equidistant from members 0 and 2 (sqrt(0.32) each): the coin (< 0.5)
    # gives it to b = 2
    lead = distance_tournament(F, particles, draws)
    np.testing.assert_array_equal(lead, [2, 0, 2, 2])
    draws = Draws([[0, 1, 2, 0], [2, 0, 2, 2]], [[0.9, 0.9, 0.9, 0.9]])
    np.testing.assert_array_equal(distance_tournament(F, particles, draws), [2, 0, 2, 0])


def test_leaders_are_drawn_from_the_archive_by_objective_distance(monkeypatch):
    seen = []
    original = archive.distance_tournament

    def spy(F, F_particles, random_state):
        lead = original(F, F_particles, random_state)
        seen.append((F.copy(), F_particles.copy(), lead))
        return lead

    monkeypatch.setattr(archive, "distance_tournament", spy)
    rec = Archive()
    minimize(TradeOff(12), MOPSO(pop_size=6), ("n_gen", 6), seed=0, callback=rec)
    assert len(seen) == 5
    # each move's tournament sees the archive and the swarm's objectives of the generation
    # before it
    for (F, P, lead), F_archive, F_swarm in zip(seen, rec.F, rec.evaluated):
        np.testing.assert_array_equal(F, F_archive)
        np.testing.assert_array_equal(P, F_swarm)
        assert P.shape == (6, 2) and np.all(lead < F.shape[0])


# ------------------------------------------------------------------ archive
def test_archive_is_capped_by_crowding_and_nondominated(monkeypatch):
    calls = _count_truncations(monkeypatch)
    rec = Archive()
    problem = TradeOff(30)
    res = minimize(problem, MOPSO(pop_size=5, vmax=0.6), ("n_gen", 25), seed=3, callback=rec)
    assert calls and all(kept == 5 for _, kept in calls)  # the crowding truncation ran
    for F in rec.F:
        assert F.shape[0] <= 5
        np.testing.assert_array_equal(archive.nondominated_union(F), np.arange(len(F)))
    np.testing.assert_allclose(problem.evaluate(res.X), res.F, rtol=0, atol=1e-12)


def test_archive_positions_decode_to_the_archive_masks():
    res = minimize(TradeOff(16), MOPSO(pop_size=6), ("n_gen", 8), seed=1)
    alg = res.algorithm
    decoded = alg._decode(alg.archive_X_)
    np.testing.assert_array_equal(decoded, alg.archive_.get("X"))


# ------------------------------------------------------------------ contracts and rules
def test_minimize_and_ask_and_tell_agree_and_same_seed_same_front():
    problem = TradeOff(20)
    a = minimize(problem, MOPSO(pop_size=6), ("n_gen", 10), seed=2)
    b = ask_and_tell(problem, MOPSO(pop_size=6), ("n_gen", 10), seed=2)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.F, b.F)
    np.testing.assert_array_equal(a.algorithm.X_, b.algorithm.X_)
    assert b.algorithm.evaluator.n_eval == 60
    c = minimize(problem, MOPSO(pop_size=6), ("n_gen", 10), seed=3)
    assert not np.array_equal(a.algorithm.X_, c.algorithm.X_)


def test_two_instances_share_no_state():
    problem = TradeOff(12)
    solo = [ask_and_tell(problem, MOPSO(pop_size=5), ("n_gen", 6), seed=s) for s in (1, 2)]
    a, b = MOPSO(pop_size=5), MOPSO(pop_size=5)
    interleave(problem, [a, b], seeds=(1, 2), n_gen=6)
    for alg, res in zip((a, b), solo):
        np.testing.assert_array_equal(alg.result().F, res.F)


def test_default_pbest_rule_is_random_if_nondominated():
    alg = MOPSO(pop_size=6)
    assert alg.pbest_rule == "random_if_nd"
    alg.setup(TradeOff(6), termination=("n_gen", 5), seed=2)
    pop = alg.ask()
    pop.set("F", np.full((6, 2), 0.5))
    alg.tell(infills=pop)
    pop = alg.ask()
    F = np.array([[0.4, 0.4], [0.6, 0.6], [0.4, 0.6], [0.6, 0.4], [0.5, 0.5], [0.5, 0.6]])
    pop.set("F", F)
    coin = copy.deepcopy(alg.random_state).random(6) < 0.5
    assert coin[2:5].any() and not coin[2:5].all()
    alg.tell(infills=pop)
    expected = np.array([1, 0, *coin[2:5], 0], dtype=bool)
    np.testing.assert_array_equal(alg.pbest_F_, np.where(expected[:, None], F, 0.5))


def test_parameters_follow_seed_003():
    alg = MOPSO()
    assert (alg.pop_size, alg.w, alg.c1, alg.c2, alg.vmax, alg.threshold) == (
        30, 0.7298, 1.49618, 1.49618, 6.0, 0.6)


@pytest.mark.parametrize("kwargs,name", [
    (dict(pop_size=0), "pop_size"),
    (dict(w=-1.0), "w"),
    (dict(vmax=0), "vmax"),
    (dict(threshold=1.5), "threshold"),
    (dict(pbest_rule="better"), "pbest_rule"),
    (dict(random_coefficients="swarm"), "random_coefficients"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        MOPSO(**kwargs)


def test_single_objective_problem_raises():
    with pytest.raises(ValueError, match="multi-objective"):
        minimize(TradeOff(6, n_obj=1), MOPSO(pop_size=4), ("n_gen", 2), seed=0)
