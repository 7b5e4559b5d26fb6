"""CMDPSOFS: contracts, the leader set and archive, the mutation groups, rules and errors."""

import copy

import numpy as np
import pytest
from pymoo.core.callback import Callback
from pymoo.core.problem import Problem
from pymoo.optimize import minimize

from pymoo_fs import pareto
from pymoo_fs.algorithms import CMDPSOFS, archive
from pymoo_fs.algorithms.moo import cmdpsofs
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection
from tests.algorithms.loops import FixedDraws, ask_and_tell, interleave


class TradeOff(Problem):
    """Bi-objective masks: (1 - sqrt(share of a fixed weight vector selected), selection ratio).

    Each subset size has its own best error, so the Pareto front has up to D + 1 points: enough
    to overflow a small leader set.
    """

    def __init__(self, n_var=30, n_obj=2):
        super().__init__(n_var=n_var, n_obj=n_obj, xl=0, xu=1, vtype=bool)
        self.weights = np.random.default_rng(0).random(n_var) + 0.1

    def _evaluate(self, x, out, *args, **kwargs):
        assert x.dtype == bool
        gain = x @ self.weights / self.weights.sum()
        F = np.column_stack([1.0 - np.sqrt(gain), x.mean(axis=1)])
        out["F"] = F[:, :self.n_obj]


class Recorder(Callback):
    """Every generation: evaluated F, leader-set and archive sizes."""

    def __init__(self):
        super().__init__()
        self.F, self.n_leaders, self.n_archive = [], [], []

    def notify(self, algorithm):
        self.F.append(algorithm.off.get("F").copy())
        self.n_leaders.append(algorithm.leaders_F_.shape[0])
        self.n_archive.append(len(algorithm.archive_))


@pytest.fixture(scope="module")
def sonar_problem():
    data = load_dataset("sonar")
    return BiObjectiveFeatureSelection.from_data(data.X[:, :20], data.y, cv=3)


def _count_truncations(monkeypatch):
    """Wrap pareto.truncate_by_crowding; return the list of (n_in, n_kept) of real removals."""
    calls = []
    original = pareto.truncate_by_crowding

    def counting(F, capacity):
        keep = original(F, capacity)
        if keep.size < F.shape[0]:
            calls.append((F.shape[0], keep.size))
        return keep

    monkeypatch.setattr(pareto, "truncate_by_crowding", counting)
    return calls


# ------------------------------------------------------------------------------ contracts
def test_minimize_and_ask_and_tell_agree(sonar_problem):
    res = minimize(sonar_problem, CMDPSOFS(pop_size=6), ("n_gen", 5), seed=2)
    res2 = ask_and_tell(sonar_problem, CMDPSOFS(pop_size=6), ("n_gen", 5), seed=2)
    np.testing.assert_array_equal(res.X, res2.X)
    np.testing.assert_array_equal(res.F, res2.F)
    np.testing.assert_array_equal(res.algorithm.X_, res2.algorithm.X_)
    np.testing.assert_array_equal(res.algorithm.leaders_F_, res2.algorithm.leaders_F_)
    assert res.X.dtype == bool and res.X.shape[1] == 20 and res.F.shape[1] == 2
    assert res2.algorithm.evaluator.n_eval == 30


@pytest.mark.parametrize("pop_size,n_gen", [(1, 3), (4, 1), (7, 4)])
def test_evaluation_count_is_pop_size_times_generations(pop_size, n_gen):
    res = minimize(TradeOff(12), CMDPSOFS(pop_size=pop_size), ("n_gen", n_gen), seed=0)
    assert res.algorithm.evaluator.n_eval == pop_size * n_gen


def _tracked_run(problem, algorithm, n_gen, seed):
    """Ask-and-tell run that counts, per particle, the coordinates the mutation moved (those
    where the position differs from the plain clamped move), and the leader/archive sizes."""
    algorithm.setup(problem, termination=("n_gen", n_gen), seed=seed)
    changed = np.zeros(algorithm.pop_size, dtype=np.int64)
    sizes = []
    previous = None
    while algorithm.has_next():
        pop = algorithm.ask()
        algorithm.evaluator.eval(problem, pop)
        algorithm.tell(infills=pop)
        if previous is not None:  # positions and velocities are committed by tell
            plain = np.clip(previous + algorithm.V_, 0.0, 1.0)
            changed += np.sum(~np.isclose(algorithm.X_, plain, rtol=0, atol=1e-12), axis=1)
        previous = algorithm.X_.copy()
        sizes.append((algorithm.leaders_F_.shape[0], len(algorithm.archive_)))
    res = algorithm.result()
    res.algorithm = algorithm
    return res, changed, np.array(sizes)


def test_same_seed_identical_with_truncation_and_mutation(monkeypatch):
    calls = _count_truncations(monkeypatch)
    problem = TradeOff(30)
    a, changed, sizes = _tracked_run(problem, CMDPSOFS(pop_size=6, vmax=0.6), 25, seed=7)
    # the random branches ran: the leader set was truncated while more non-dominated
    # solutions than places existed ...
    assert len(calls) > 0 and all(n > kept == 6 for n, kept in calls)
    assert sizes[:, 0].max() == 6 and sizes[:, 1].max() > 6
    # ... and both mutations moved coordinates (never those of group 0)
    groups = a.algorithm.groups_
    assert np.all(changed[groups == 0] == 0)
    assert changed[groups == 1].sum() > 0 and changed[groups == 2].sum() > 0

    b, changed_b, _ = _tracked_run(problem, CMDPSOFS(pop_size=6, vmax=0.6), 25, seed=7)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.F, b.F)
    np.testing.assert_array_equal(a.algorithm.X_, b.algorithm.X_)
    np.testing.assert_array_equal(a.algorithm.leaders_X_, b.algorithm.leaders_X_)
    np.testing.assert_array_equal(changed, changed_b)
    c = minimize(problem, CMDPSOFS(pop_size=6, vmax=0.6), ("n_gen", 25), seed=7)
    np.testing.assert_array_equal(a.F, c.F)
    d = minimize(problem, CMDPSOFS(pop_size=6, vmax=0.6), ("n_gen", 25), seed=8)
    assert not np.array_equal(a.algorithm.X_, d.algorithm.X_)


def test_mutation_changes_only_groups_1_and_2():
    res, changed, _ = _tracked_run(TradeOff(30), CMDPSOFS(pop_size=9, vmax=0.6), 30, seed=3)
    groups = res.algorithm.groups_
    assert np.all(changed[groups == 0] == 0)
    per_group = [changed[groups == g].sum() for g in (1, 2)]
    # expected about 29 moves x 3 particles x 30 coordinates x 1/30 = 87 per group (fewer for
    # the non-uniform one, which cannot move a coordinate already at the bound it heads to)
    assert all(20 < n < 200 for n in per_group), per_group


def _first_move(alg, problem, seed):
    """Evaluate the initial swarm, make the first move; return the positions without mutation."""
    alg.setup(problem, termination=("n_gen", 3), seed=seed)
    for _ in range(2):
        previous = getattr(alg, "X_", None)
        pop = alg.ask()
        alg.evaluator.eval(problem, pop)
        alg.tell(infills=pop)
    return np.clip(previous + alg.V_, 0.0, 1.0)


def test_mutation_rate_zero_and_one():
    problem = TradeOff(10)
    for rate in (0.0, 1.0):
        alg = CMDPSOFS(pop_size=6, mutation_rate=rate, mutation_groups="modulo", vmax=0.3)
        plain = _first_move(alg, problem, seed=0)
        same = np.isclose(alg.X_, plain, rtol=0, atol=1e-12)
        assert np.all(same[alg.groups_ == 0])
        if rate == 0.0:
            assert np.all(same)
        else:  # uniform resampling moves every coordinate of group 1
            assert not np.any(same[alg.groups_ == 1])


@pytest.mark.parametrize("uniform", ["resample", "perturb"])
def test_uniform_mutation_variants(uniform):
    problem = TradeOff(8)
    alg = CMDPSOFS(pop_size=3, mutation_rate=1.0, mutation_groups="modulo", vmax=0.2,
                   uniform_mutation=uniform)
    plain = _first_move(alg, problem, seed=5)[1]
    step = alg.X_[1] - plain
    assert np.all((alg.X_[1] >= 0) & (alg.X_[1] <= 1))
    if uniform == "perturb":
        assert np.all(np.abs(step) <= 0.25 + 1e-12)
    assert np.any(step != 0)


# ------------------------------------------------------------------ leader set and archive
def test_archive_is_the_nondominated_set_of_everything_evaluated():
    rec = Recorder()
    problem = TradeOff(16)
    res = minimize(problem, CMDPSOFS(pop_size=5), ("n_gen", 20), seed=1, callback=rec)
    A, X = res.F, res.X
    assert X.dtype == bool and X.shape == (A.shape[0], 16)
    np.testing.assert_allclose(problem.evaluate(X), A, rtol=0, atol=1e-12)
    assert np.unique(A, axis=0).shape[0] == A.shape[0]
    for i in range(A.shape[0]):
        others = np.delete(A, i, axis=0)
        assert not np.any(archive.dominates(others, np.repeat(A[i:i + 1], len(others), 0)))
    evaluated = np.vstack(rec.F)
    assert evaluated.shape[0] == res.algorithm.evaluator.n_eval == 100
    for f in evaluated:
        assert np.any(np.all(A <= f, axis=1)), f
    # larger than the capped leader set on this problem
    assert A.shape[0] > 5


def test_leader_set_never_exceeds_pop_size_and_is_nondominated():
    rec = Recorder()
    leaders = []

    class Leaders(Callback):
        def notify(self, algorithm):
            rec.notify(algorithm)
            leaders.append(algorithm.leaders_F_.copy())

    minimize(TradeOff(20), CMDPSOFS(pop_size=4), ("n_gen", 15), seed=0, callback=Leaders())
    assert max(rec.n_leaders) <= 4
    assert rec.n_leaders[-1] == 4
    for L in leaders:
        np.testing.assert_array_equal(archive.nondominated_union(L), np.arange(len(L)))


@pytest.mark.parametrize("pop_size", [1, 2, 3, 4, 5, 8, 10, 31])
@pytest.mark.parametrize("mode", ["random", "modulo"])
def test_mutation_groups_have_sizes_within_one(pop_size, mode):
    alg = CMDPSOFS(pop_size=pop_size, mutation_groups=mode)
    alg.setup(TradeOff(6), termination=("n_gen", 2), seed=pop_size)
    alg.ask()
    sizes = np.bincount(alg.groups_, minlength=3)
    assert sizes.sum() == pop_size and sizes.max() - sizes.min() <= 1
    if mode == "modulo":  # jMetal's OMOPSO: i % 3 == 0 non-uniform (2), 1 uniform, 2 none
        np.testing.assert_array_equal(alg.groups_, [(2, 1, 0)[i % 3] for i in range(pop_size)])


def test_random_mutation_groups_depend_on_seed():
    groups = []
    for seed in (0, 1):
        alg = CMDPSOFS(pop_size=30)
        alg.setup(TradeOff(6), termination=("n_gen", 2), seed=seed)
        alg.ask()
        groups.append(alg.groups_.copy())
    assert not np.array_equal(groups[0], groups[1])
    assert not np.array_equal(groups[0], np.arange(30) % 3)


# ------------------------------------------------------------------- the epsilon archive
def test_epsilon_archive_worked_out_by_hand():
    # boxes of 0.1: (0.12, 0.55) -> (1, 5); (0.15, 0.45) -> (1, 4) beats it (better size box);
    # (0.31, 0.11) -> (3, 1) non-dominated; (0.11, 0.42) -> (1, 4) same box as row 1, corner
    # distance 0.01^2 + 0.02^2 = 0.0005 < 0.05^2 + 0.05^2 = 0.005: it replaces row 1
    F = np.array([[0.12, 0.55], [0.15, 0.45], [0.31, 0.11], [0.11, 0.42]])
    np.testing.assert_array_equal(cmdpsofs.epsilon_nondominated(F, 0.1), [2, 3])
    # in order: after rows 0-2 the archive holds 1 and 2
    np.testing.assert_array_equal(cmdpsofs.epsilon_nondominated(F[:3], 0.1), [1, 2])
    # same box, equal distance to the corner: the first found stays (jMetal), equal vectors
    # too (binary fractions, so the distances are exactly equal: 0.125^2 + 0.0625^2 twice)
    tie = np.array([[0.375, 0.3125], [0.3125, 0.375], [0.375, 0.3125]])
    np.testing.assert_array_equal(cmdpsofs.epsilon_nondominated(tie, 0.25), [0])
    # two points of a front that share a box: plain dominance keeps both, the box keeps one
    two = np.array([[0.12, 0.18], [0.18, 0.12]])
    np.testing.assert_array_equal(pareto.nondominated_union(two), [0, 1])
    np.testing.assert_array_equal(cmdpsofs.epsilon_nondominated(two, 0.1), [0])


def test_epsilon_per_objective_keeps_sizes_apart():
    # feature rates 4.6 % and 5.1 %: the same size box 6 of 0.0075 (6.13 and 6.8), boxes 9 and
    # 10 of 0.005; the errors fall in boxes 26 (0.20) and 25 (0.19) of 0.0075
    F = np.array([[0.20, 0.046], [0.19, 0.051]])
    # one epsilon: the second has the better error box and the same size box: it replaces
    np.testing.assert_array_equal(cmdpsofs.epsilon_nondominated(F, 0.0075), [1])
    # the size axis at 0.005: boxes 9 and 10 apart, both kept
    np.testing.assert_array_equal(cmdpsofs.epsilon_nondominated(F, (0.0075, 0.005)), [0, 1])


def _beats(Fa, Fb, eps):
    """Reference definition, one pair: a's box dominates b's, or same box and a nearer."""
    A, B = np.floor(Fa / eps), np.floor(Fb / eps)
    if np.all(A == B):
        return np.sum((Fa - A * eps) ** 2) < np.sum((Fb - B * eps) ** 2)
    return bool(np.all(A <= B) and np.any(A < B))


def test_epsilon_archive_is_the_set_nothing_offered_beats():
    rng = np.random.default_rng(4)
    for trial in range(20):
        # values on a grid of 1/64 (exact in binary) so that boxes and distances are exact
        F = rng.integers(0, 64, size=(40, 2)) / 64.0
        eps = 0.0625 * (1 + trial % 3)
        keep = cmdpsofs.epsilon_nondominated(F, eps)
        # with distinct vectors and no equal-distance ties in a box, the archive does not
        # depend on the order: it is every row that no other row beats
        unique, first = np.unique(F, axis=0, return_index=True)
        rows = np.sort(first)
        expected = [i for i in rows if not any(_beats(F[j], F[i], eps) for j in rows if j != i)]
        dist = {}
        for i in rows:
            box = tuple(np.floor(F[i] / eps))
            dist.setdefault(box, []).append(np.sum((F[i] - np.floor(F[i] / eps) * eps) ** 2))
        if any(len(d) != len(set(d)) for d in dist.values()):
            continue  # an equal-distance tie: the first found wins, order matters
        np.testing.assert_array_equal(keep, expected)
        boxes = np.floor(F[keep] / eps)
        assert np.unique(boxes, axis=0).shape[0] == keep.size  # one member per box


def test_epsilon_archive_run_searches_as_the_dominance_run():
    # the archive is only the result: same seed, same moves; its members are the epsilon
    # thinning of the dominance archive, in the order found
    problem = TradeOff(40)
    plain = minimize(problem, CMDPSOFS(pop_size=8), ("n_gen", 30), seed=3)
    eps = minimize(problem, CMDPSOFS(pop_size=8, archive_rule="epsilon", epsilon=0.02),
                   ("n_gen", 30), seed=3)
    np.testing.assert_array_equal(plain.algorithm.X_, eps.algorithm.X_)
    np.testing.assert_array_equal(plain.algorithm.leaders_F_, eps.algorithm.leaders_F_)
    keep = cmdpsofs.epsilon_nondominated(plain.F, 0.02)
    assert 0 < keep.size < plain.F.shape[0]  # the thinning removed members
    np.testing.assert_array_equal(eps.F, plain.F[keep])
    np.testing.assert_array_equal(eps.X, plain.X[keep])


def test_sequential_leader_update_keeps_a_valid_leader_set_and_changes_the_run():
    differs = False
    for seed in range(4):
        leaders = []

        class Leaders(Callback):
            def notify(self, algorithm):
                leaders.append(algorithm.leaders_F_.copy())

        problem = TradeOff(30)
        seq = minimize(problem, CMDPSOFS(pop_size=4, leader_update="sequential"),
                       ("n_gen", 15), seed=seed, callback=Leaders())
        batch = minimize(problem, CMDPSOFS(pop_size=4), ("n_gen", 15), seed=seed)
        for L in leaders:
            assert 1 <= len(L) <= 4
            np.testing.assert_array_equal(pareto.nondominated_union(L), np.arange(len(L)))
        differs |= not np.array_equal(seq.algorithm.X_, batch.algorithm.X_)
    assert differs


def test_sequential_leader_update_offers_one_particle_at_a_time(monkeypatch):
    sizes = []
    original = pareto.nondominated_union

    def spy(F, capacity=None):
        if capacity is not None:
            sizes.append(F.shape[0])
        return original(F, capacity)

    monkeypatch.setattr(pareto, "nondominated_union", spy)
    minimize(TradeOff(10), CMDPSOFS(pop_size=5, leader_update="sequential"), ("n_gen", 3),
             seed=0)
    # every offer is the leader set plus one particle: 15 offers of at most 5 + 1 vectors
    assert len(sizes) == 15 and max(sizes) <= 6 and sizes[0] == 1


# -------------------------------------------------------------------------- mutation maths
def test_non_uniform_mutation_with_fixed_draws():
    x = np.array([0.2, 0.8, 0.5])
    r = np.array([0.25, 0.64, 0.81])
    coin = np.array([0.1, 0.9, 0.3])  # < 0.5: up
    # progress 0.5, b = 1: exponent 0.5, r ** 0.5 = (0.5, 0.8, 0.9), shrink = (0.5, 0.2, 0.1)
    out = cmdpsofs.non_uniform_mutation(x, 0.5, 1.0, FixedDraws(r, coin))
    np.testing.assert_allclose(out, [0.2 + 0.8 * 0.5, 0.8 - 0.8 * 0.2, 0.5 + 0.5 * 0.1])
    # progress 0, b = 0.5: exponent 1, shrink = 1 - r
    out = cmdpsofs.non_uniform_mutation(x, 0.0, 0.5, FixedDraws(r, coin))
    np.testing.assert_allclose(out, [0.2 + 0.8 * 0.75, 0.8 - 0.8 * 0.36, 0.5 + 0.5 * 0.19])


def test_non_uniform_mutation_step_shrinks_to_zero():
    rng = np.random.default_rng(0)
    x = rng.random(200)
    steps = []
    for progress in (0.0, 0.3, 0.6, 0.9, 0.99, 1.0):
        out = cmdpsofs.non_uniform_mutation(x, progress, 0.5, np.random.default_rng(1))
        assert np.all((out >= 0) & (out <= 1))
        steps.append(np.abs(out - x))
    steps = np.array(steps)
    assert np.all(np.diff(steps, axis=0) <= 1e-15)  # same draws: each step shrinks
    assert steps[0].mean() > 0.1
    np.testing.assert_array_equal(steps[-1], 0.0)


def _spy_progress(monkeypatch):
    seen = []
    original = cmdpsofs.non_uniform_mutation

    def spy(x, progress, b, random_state):
        seen.append(progress)
        return original(x, progress, b, random_state)

    monkeypatch.setattr(cmdpsofs, "non_uniform_mutation", spy)
    return seen


@pytest.mark.parametrize("termination", [("n_gen", 5), ("n_eval", 15)])
def test_progress_of_the_non_uniform_mutation_comes_from_the_termination(monkeypatch,
                                                                          termination):
    # 3 particles: the initial swarm is 1 generation (3 evaluations) of 5 (15); the m-th move
    # of 4 sees t/T = (m - 1) / 4 under either limit
    seen = _spy_progress(monkeypatch)
    res = minimize(TradeOff(6), CMDPSOFS(pop_size=3), termination, seed=0)
    assert res.algorithm.evaluator.n_eval == 15
    np.testing.assert_allclose(seen, [0, 0.25, 0.5, 0.75])


def test_progress_under_a_time_limit_grows_within_the_unit_interval(monkeypatch):
    seen = _spy_progress(monkeypatch)
    res = minimize(TradeOff(6), CMDPSOFS(pop_size=3), ("time", 0.3), seed=0)
    assert len(seen) >= 2 and res.algorithm.evaluator.n_eval == 3 * (len(seen) + 1)
    assert seen[0] == 0.0 and np.all(np.diff(seen) >= 0) and 0.0 < seen[-1] <= 1.0


# ----------------------------------------------------------------------------- pbest rules
@pytest.mark.parametrize("rule", ["not_dominated", "dominates", "random_if_nd"])
def test_pbest_rules_on_a_crafted_generation(rule):
    alg = CMDPSOFS(pop_size=6, pbest_rule=rule)
    alg.setup(TradeOff(6), termination=("n_gen", 5), seed=2)
    pop = alg.ask()
    pop.set("F", np.full((6, 2), 0.5))
    alg.tell(infills=pop)
    old_X = alg.pbest_X_.copy()
    pop = alg.ask()
    # dominates, dominated, non-dominated (x2), equal, weakly dominated
    F = np.array([[0.4, 0.4], [0.6, 0.6], [0.4, 0.6], [0.6, 0.4], [0.5, 0.5], [0.5, 0.6]])
    pop.set("F", F)
    coin = copy.deepcopy(alg.random_state).random(6) < 0.5
    # this seed exercises both outcomes among the non-dominated, and heads for the dominated
    assert coin[2:5].any() and not coin[2:5].all() and coin[1] and coin[5]
    alg.tell(infills=pop)
    expected = {
        "not_dominated": np.array([1, 0, 1, 1, 1, 0], dtype=bool),
        "dominates": np.array([1, 0, 0, 0, 0, 0], dtype=bool),
        "random_if_nd": np.array([1, 0, *coin[2:5], 0], dtype=bool),
    }[rule]
    np.testing.assert_array_equal(alg.pbest_F_, np.where(expected[:, None], F, 0.5))
    np.testing.assert_array_equal(alg.pbest_X_, np.where(expected[:, None], alg.X_, old_X))


# ------------------------------------------------------------------------ configurations
def test_original_coefficient_ranges_and_jmetal_switches_run():
    problem = TradeOff(12)
    alg = CMDPSOFS(pop_size=6, w=(0.1, 0.5), c1=(1.5, 2.0), c2=(1.5, 2.0), vmax=0.6,
                   random_coefficients="particle", reverse_velocity=True,
                   uniform_mutation="perturb", mutation_groups="modulo",
                   pbest_rule="random_if_nd")
    res = minimize(problem, alg, ("n_gen", 6), seed=0)
    assert res.algorithm.evaluator.n_eval == 36
    assert np.all(np.abs(res.algorithm.V_) <= 0.6)
    assert res.X.dtype == bool
    assert res.algorithm.w == (0.1, 0.5)


def test_ranges_change_the_run():
    problem = TradeOff(12)
    a = minimize(problem, CMDPSOFS(pop_size=6, w=(0.1, 0.5)), ("n_gen", 4), seed=0)
    b = minimize(problem, CMDPSOFS(pop_size=6, w=(0.1, 0.5)), ("n_gen", 4), seed=0)
    c = minimize(problem, CMDPSOFS(pop_size=6, w=0.3), ("n_gen", 4), seed=0)
    np.testing.assert_array_equal(a.algorithm.X_, b.algorithm.X_)
    assert not np.array_equal(a.algorithm.X_, c.algorithm.X_)


def test_evaluation_limit_needs_no_iteration_count():
    res = minimize(TradeOff(6), CMDPSOFS(pop_size=10), ("n_eval", 100), seed=0)
    assert res.algorithm.evaluator.n_eval == 100 and res.algorithm.n_gen == 11


def test_single_objective_problem_raises():
    with pytest.raises(ValueError, match="multi-objective"):
        minimize(TradeOff(6, n_obj=1), CMDPSOFS(pop_size=4), ("n_gen", 2), seed=0)
    data = load_dataset("sonar")
    problem = WeightedFeatureSelection.from_data(data.X[:, :5], data.y, cv=3)
    with pytest.raises(ValueError, match="objective"):
        CMDPSOFS().setup(problem, termination=("n_gen", 3), seed=0)


@pytest.mark.parametrize("kwargs,name", [
    (dict(pop_size=0), "pop_size"),
    (dict(pop_size="30"), "pop_size"),
    (dict(w=-0.5), "w"),
    (dict(w=(0.5, 0.1)), "w"),
    (dict(c1=(1.5,)), "c1"),
    (dict(c2=None), "c2"),
    (dict(vmax=0), "vmax"),
    (dict(vmax=(0.1, 0.6)), "vmax"),
    (dict(threshold=2.0), "threshold"),
    (dict(threshold=None), "threshold"),
    (dict(mutation_rate=1.5), "mutation_rate"),
    (dict(mutation_rate=-0.1), "mutation_rate"),
    (dict(mutation_rate="1/D"), "mutation_rate"),
    (dict(perturbation=-1.0), "perturbation"),
    (dict(perturbation=(0.1, 0.5)), "perturbation"),
    (dict(mutation_groups="thirds"), "mutation_groups"),
    (dict(uniform_mutation="gauss"), "uniform_mutation"),
    (dict(pbest_rule="better"), "pbest_rule"),
    (dict(random_coefficients="swarm"), "random_coefficients"),
    (dict(archive_rule="eps"), "archive_rule"),
    (dict(epsilon=0.0), "epsilon"),
    (dict(epsilon=(0.01, -1.0)), "epsilon"),
    (dict(epsilon="0.0075"), "epsilon"),
    (dict(epsilon=()), "epsilon"),
    (dict(leader_update="one"), "leader_update"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        CMDPSOFS(**kwargs)


def _parameters(alg):
    names = ("pop_size", "w", "c1", "c2", "vmax", "threshold", "mutation_rate", "perturbation",
             "mutation_groups", "uniform_mutation", "pbest_rule",
             "random_coefficients", "reverse_velocity", "archive_rule", "epsilon",
             "leader_update")
    return {name: copy.deepcopy(getattr(alg, name)) for name in names}


def test_epsilon_of_the_wrong_length_is_refused_at_setup():
    with pytest.raises(ValueError, match="epsilon gives 3 box sizes for a problem of 2"):
        minimize(TradeOff(6), CMDPSOFS(pop_size=3, archive_rule="epsilon",
                                       epsilon=(0.1, 0.1, 0.1)), ("n_gen", 2), seed=0)
    with pytest.raises(ValueError, match="epsilon gives 3 box sizes for 2 objectives"):
        cmdpsofs.epsilon_nondominated(np.zeros((2, 2)), (0.1, 0.1, 0.1))


def test_parameters_unchanged_after_run():
    alg = CMDPSOFS(pop_size=5, w=(0.1, 0.5), c1=(1.5, 2.0), vmax=0.6, mutation_rate=None)
    before = _parameters(alg)
    minimize(TradeOff(10), alg, ("n_gen", 4), seed=0, copy_algorithm=False)
    assert alg.evaluator.n_eval == 20 and alg.mutation_rate_ == 0.1
    assert _parameters(alg) == before


def test_two_instances_share_no_state():
    problem = TradeOff(12)
    solo = [ask_and_tell(problem, CMDPSOFS(pop_size=5), ("n_gen", 6), seed=s) for s in (1, 2)]
    a, b = CMDPSOFS(pop_size=5), CMDPSOFS(pop_size=5)
    assert a.output is not b.output and a.evaluator is not b.evaluator
    interleave(problem, [a, b], seeds=(1, 2), n_gen=6)
    for alg, res in zip((a, b), solo):
        np.testing.assert_array_equal(alg.result().F, res.F)
        np.testing.assert_array_equal(alg.X_, res.algorithm.X_)
        assert alg.evaluator.n_eval == 30
