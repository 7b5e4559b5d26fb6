"""PSO(C): contracts (minimize, ask-and-tell, evaluation count, seeds), rules and errors."""

import copy

import numpy as np
import pytest
from pymoo.core.callback import Callback
from pymoo.core.problem import Problem
from pymoo.optimize import minimize

from pymoo_fs.algorithms import PSO, swarm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection
from tests.algorithms.loops import ask_and_tell, interleave


class Target(Problem):
    """Minimise the fraction of bits that differ from a fixed target mask (n_obj=2 adds size)."""

    def __init__(self, n_var=16, n_obj=1):
        super().__init__(n_var=n_var, n_obj=n_obj, xl=0, xu=1, vtype=bool)
        self.target = np.arange(n_var) % 3 == 0

    def _evaluate(self, x, out, *args, **kwargs):
        assert x.dtype == bool
        F = [np.mean(x != self.target, axis=1), x.mean(axis=1)]
        out["F"] = np.column_stack(F[:self.n_obj])


class Constant(Problem):
    """Every mask has the same fitness: only the subset-size tie-break can tell them apart."""

    def __init__(self, n_var=12):
        super().__init__(n_var=n_var, n_obj=1, xl=0, xu=1, vtype=bool)

    def _evaluate(self, x, out, *args, **kwargs):
        out["F"] = np.full((x.shape[0], 1), 0.5)


class Recorder(Callback):
    """Records, each generation, the evaluated masks and fitness, positions and the gbest."""

    def __init__(self):
        super().__init__()
        self.X, self.F, self.positions, self.gbest_F = [], [], [], []

    def notify(self, algorithm):
        self.X.append(algorithm.off.get("X").copy())
        self.F.append(algorithm.off.get("F")[:, 0].copy())
        self.positions.append(algorithm.X_.copy())
        self.gbest_F.append(float(algorithm.opt.get("F")[0, 0]))


@pytest.fixture(scope="module")
def sonar_problem():
    data = load_dataset("sonar")
    return WeightedFeatureSelection.from_data(data.X[:, :20], data.y, cv=3)


def _ask_and_tell(problem, algorithm, n_gen, seed):
    return ask_and_tell(problem, algorithm, ("n_gen", n_gen), seed)


def test_minimize_and_ask_and_tell_agree(sonar_problem):
    res = minimize(sonar_problem, PSO(pop_size=6), ("n_gen", 5), seed=3)
    alg = PSO(pop_size=6)
    res2 = _ask_and_tell(sonar_problem, alg, 5, seed=3)
    np.testing.assert_array_equal(res.X, res2.X)
    np.testing.assert_array_equal(res.F, res2.F)
    np.testing.assert_array_equal(res.algorithm.X_, alg.X_)
    np.testing.assert_array_equal(res.algorithm.pbest_F_, alg.pbest_F_)
    assert alg.evaluator.n_eval == res.algorithm.evaluator.n_eval == 30


def test_result_is_boolean_mask_of_the_gbest(sonar_problem):
    res = minimize(sonar_problem, PSO(pop_size=6), ("n_gen", 4), seed=0)
    assert res.X.dtype == bool and res.X.shape == (20,)
    assert res.F.shape == (1,)
    np.testing.assert_allclose(sonar_problem.evaluate(res.X[None, :])[0], res.F)
    alg = res.algorithm
    np.testing.assert_array_equal(res.X, swarm.decode(alg.pbest_X_[alg.gbest_], 0.6))


@pytest.mark.parametrize("pop_size,n_gen", [(1, 3), (5, 1), (7, 4)])
def test_evaluation_count_is_pop_size_times_generations(pop_size, n_gen):
    res = minimize(Target(), PSO(pop_size=pop_size), ("n_gen", n_gen), seed=0)
    assert res.algorithm.evaluator.n_eval == pop_size * n_gen


def test_same_seed_identical_different_seed_different():
    def run(seed):
        rec = Recorder()
        res = minimize(Target(20), PSO(pop_size=8, w=(0.4, 0.9)), ("n_gen", 6), seed=seed,
                       callback=rec)
        return res, rec

    (a, ra), (b, rb), (_, rc) = run(5), run(5), run(6)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.F, b.F)
    for pa, pb in zip(ra.positions, rb.positions):
        np.testing.assert_array_equal(pa, pb)
    assert not np.array_equal(ra.positions[-1], rc.positions[-1])
    assert not np.array_equal(ra.positions[0], rc.positions[0])


def test_gbest_fitness_is_monotone_and_the_best_ever_evaluated():
    rec = Recorder()
    minimize(Target(24), PSO(pop_size=6), ("n_gen", 15), seed=2, callback=rec)
    g = np.array(rec.gbest_F)
    assert len(g) == 15
    assert np.all(np.diff(g) <= 0)
    assert g[-1] < g[0]  # it did improve on this easy problem
    best_so_far = np.minimum.accumulate([f.min() for f in rec.F])
    np.testing.assert_array_equal(g, best_so_far)


def test_pbest_rule_better_keeps_first_positions_on_ties():
    rec = Recorder()
    res = minimize(Constant(), PSO(pop_size=5, pbest_rule="better"), ("n_gen", 6), seed=1,
                   callback=rec)
    alg = res.algorithm
    np.testing.assert_array_equal(alg.pbest_X_, rec.positions[0])
    assert alg.gbest_ == 0
    np.testing.assert_array_equal(res.X, rec.X[0][0])


def test_pbest_rule_better_or_fewer_moves_to_fewer_features_on_ties():
    rec = Recorder()
    res = minimize(Constant(), PSO(pop_size=5, pbest_rule="better_or_fewer"), ("n_gen", 6),
                   seed=1, callback=rec)
    alg = res.algorithm
    sizes = np.array([x.sum(axis=1) for x in rec.X])  # (n_gen, pop_size)
    pbest_n = alg.pbest_pop_.get("X").sum(axis=1)
    np.testing.assert_array_equal(pbest_n, sizes.min(axis=0))
    assert res.X.sum() == sizes.min()
    # and the rule changed something compared with "better"
    assert np.any(pbest_n < sizes[0])
    assert not np.array_equal(alg.pbest_X_, rec.positions[0])


def test_pbest_rules_on_a_crafted_generation():
    problem = Target(6)
    results = {}
    for rule in ("better", "better_or_fewer"):
        alg = PSO(pop_size=4, pbest_rule=rule)
        alg.setup(problem, termination=("n_gen", 5), seed=0)
        pop = alg.ask()
        pop.set("X", np.array([[1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 0],
                               [0, 0, 0, 0, 1, 1]], dtype=bool))
        pop.set("F", np.array([[0.5], [0.5], [0.6], [0.7]]))
        alg.tell(infills=pop)
        assert alg.gbest_ == 0  # ties in fitness: the first, which also has fewer features
        first_X = alg.X_.copy()
        pop = alg.ask()
        # particle 0: equal fitness, more features; 1: equal, fewer; 2: strictly better;
        # 3: equal fitness, as many features
        pop.set("X", np.array([[1, 1, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0],
                               [0, 0, 0, 1, 1, 0]], dtype=bool))
        pop.set("F", np.array([[0.5], [0.5], [0.55], [0.7]]))
        alg.tell(infills=pop)
        replaced = np.all(alg.pbest_X_ == alg.X_, axis=1) & ~np.all(alg.pbest_X_ == first_X,
                                                                      axis=1)
        results[rule] = (alg.pbest_pop_.get("X").sum(axis=1), alg.pbest_F_[:, 0].copy(),
                         alg.gbest_, replaced)
    n, F, g, replaced = results["better"]
    np.testing.assert_array_equal(n, [2, 3, 5, 2])
    np.testing.assert_array_equal(F, [0.5, 0.5, 0.55, 0.7])
    np.testing.assert_array_equal(replaced, [False, False, True, False])
    assert g == 0
    n, F, g, replaced = results["better_or_fewer"]
    np.testing.assert_array_equal(n, [2, 1, 5, 2])
    np.testing.assert_array_equal(F, [0.5, 0.5, 0.55, 0.7])
    np.testing.assert_array_equal(replaced, [False, True, True, False])
    assert g == 1  # same fitness as particle 0, fewer features


def test_multi_objective_problem_raises_at_setup():
    with pytest.raises(ValueError, match="single-objective"):
        minimize(Target(n_obj=2), PSO(pop_size=4), ("n_gen", 2), seed=0)
    data = load_dataset("sonar")
    problem = BiObjectiveFeatureSelection.from_data(data.X[:, :5], data.y, cv=3)
    with pytest.raises(ValueError, match="objectives"):
        PSO().setup(problem, seed=0)


@pytest.mark.parametrize("kwargs,name", [
    (dict(pop_size=0), "pop_size"),
    (dict(pop_size=2.5), "pop_size"),
    (dict(pop_size=True), "pop_size"),
    (dict(w=-0.1), "w"),
    (dict(w=(0.5, 0.1)), "w"),
    (dict(w=(0.1, 0.2, 0.3)), "w"),
    (dict(w=float("nan")), "w"),
    (dict(c1="fast"), "c1"),
    (dict(c1=-1.0), "c1"),
    (dict(c2=(-1.0, 1.0)), "c2"),
    (dict(vmax=0.0), "vmax"),
    (dict(vmax=-1.0), "vmax"),
    (dict(vmax=(0.1, 0.5)), "vmax"),
    (dict(threshold=1.5), "threshold"),
    (dict(threshold=-0.1), "threshold"),
    (dict(threshold="0.6"), "threshold"),
    (dict(pbest_rule="best"), "pbest_rule"),
    (dict(initial_velocity="random"), "initial_velocity"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        PSO(**kwargs)


def test_initial_velocity_zero_or_uniform_within_vmax():
    problem = Target(10)
    for init in ("zero", "uniform"):
        alg = PSO(pop_size=20, vmax=0.3, initial_velocity=init)
        alg.setup(problem, termination=("n_gen", 2), seed=0)
        pop = alg.ask()
        alg.evaluator.eval(problem, pop)
        alg.tell(infills=pop)
        if init == "zero":
            np.testing.assert_array_equal(alg.V_, 0.0)
        else:
            assert np.all(np.abs(alg.V_) <= 0.3)
            assert np.all(alg.V_ != 0.0) and alg.V_.min() < -0.2 and alg.V_.max() > 0.2


def test_threshold_and_inclusive_threshold_reach_the_masks():
    rec = Recorder()
    minimize(Target(10), PSO(pop_size=4, threshold=0.0, inclusive_threshold=True), ("n_gen", 3),
             seed=0, callback=rec)
    assert all(x.all() for x in rec.X)
    # nothing passes theta = 1: each particle selects its largest coordinate (no empty mask)
    rec = Recorder()
    minimize(Target(10), PSO(pop_size=4, threshold=1.0), ("n_gen", 3), seed=0, callback=rec)
    for masks, positions in zip(rec.X, rec.positions):
        expected = np.zeros_like(masks)
        expected[np.arange(4), np.argmax(positions, axis=1)] = True
        np.testing.assert_array_equal(masks, expected)


def test_velocities_and_positions_stay_in_bounds():
    alg = PSO(pop_size=6, vmax=0.2, w=(0.5, 1.0), c1=(1.5, 2.0), c2=2.0)
    problem = Target(12)
    alg.setup(problem, termination=("n_gen", 8), seed=4)
    previous = None
    while alg.has_next():
        pop = alg.ask()
        alg.evaluator.eval(problem, pop)
        alg.tell(infills=pop)  # positions and velocities are committed here
        if previous is not None:
            assert np.all(np.abs(alg.V_) <= 0.2 + 1e-15)
            np.testing.assert_allclose(alg.X_, np.clip(previous + alg.V_, 0, 1))
        assert np.all((alg.X_ >= 0) & (alg.X_ <= 1))
        np.testing.assert_array_equal(pop.get("X"), swarm.decode(alg.X_, 0.6))
        previous = alg.X_.copy()


def _parameters(alg):
    names = ("pop_size", "w", "c1", "c2", "vmax", "threshold", "inclusive_threshold",
             "pbest_rule", "initial_velocity")
    return {name: copy.deepcopy(getattr(alg, name)) for name in names}


def test_parameters_unchanged_after_run():
    alg = PSO(pop_size=5, w=(0.3, 0.8), c1=1.2, c2=(1.0, 2.0), vmax=0.4, threshold=0.55,
              inclusive_threshold=True, pbest_rule="better_or_fewer", initial_velocity="uniform")
    before = _parameters(alg)
    minimize(Target(), alg, ("n_gen", 4), seed=0, copy_algorithm=False)
    assert alg.evaluator.n_eval == 20  # it did run on this very instance
    assert _parameters(alg) == before


def test_two_instances_share_no_state():
    problem = Target(14)
    solo = [_ask_and_tell(problem, PSO(pop_size=4), 5, seed=s) for s in (1, 2)]
    a, b = PSO(pop_size=4), PSO(pop_size=4)
    assert a.output is not b.output and a.evaluator is not b.evaluator
    interleave(problem, [a, b], seeds=(1, 2), n_gen=5)
    for alg, res in zip((a, b), solo):
        np.testing.assert_array_equal(alg.result().X, res.X)
        np.testing.assert_array_equal(alg.X_, res.algorithm.X_)
        assert alg.evaluator.n_eval == 20
    assert a.pbest_X_ is not b.pbest_X_
