"""pymoo's NSGA-II and SPEA2 configured for feature selection."""

import numpy as np
import pytest
from pymoo.algorithms.moo.nsga2 import NSGA2
from pymoo.algorithms.moo.spea2 import SPEA2
from pymoo.core.callback import Callback
from pymoo.operators.crossover.pntx import SinglePointCrossover
from pymoo.operators.mutation.bitflip import BitflipMutation
from pymoo.operators.sampling.rnd import BinaryRandomSampling
from pymoo.optimize import minimize

from pymoo_fs.algorithms import configure_nsga2, configure_spea2, make_algorithm
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection

CONFIGURE = {"NSGA-II": (configure_nsga2, NSGA2), "SPEA2": (configure_spea2, SPEA2)}


@pytest.fixture(scope="module")
def sonar_problem():
    data = load_dataset("sonar")
    return BiObjectiveFeatureSelection.from_data(data.X[:, :20], data.y, cv=3)


class Evaluated(Callback):
    def __init__(self):
        super().__init__()
        self.X = []

    def notify(self, algorithm):
        self.X.append(algorithm.off.get("X"))


@pytest.mark.parametrize("name", CONFIGURE)
def test_operators_are_those_of_seed_003(name, sonar_problem):
    configure, cls = CONFIGURE[name]
    alg = configure(pop_size=12)
    assert isinstance(alg, cls) and alg.pop_size == 12
    assert isinstance(alg.initialization.sampling, BinaryRandomSampling)
    crossover, mutation = alg.mating.crossover, alg.mating.mutation
    assert isinstance(crossover, SinglePointCrossover)
    assert crossover.prob.value == 0.9
    assert isinstance(mutation, BitflipMutation)
    assert mutation.prob.value == 1.0  # every offspring goes through the bit flips
    assert mutation.prob_var is None
    assert mutation.get_prob_var(sonar_problem) == pytest.approx(1 / 20)


@pytest.mark.parametrize("name", CONFIGURE)
def test_given_rates_are_used(name):
    alg = CONFIGURE[name][0](crossover_prob=0.6, mutation_rate=0.2)
    assert alg.mating.crossover.prob.value == 0.6
    assert alg.mating.mutation.prob_var.value == 0.2


def test_registry_builds_the_same_configuration():
    assert isinstance(make_algorithm("nsga2", pop_size=7), NSGA2)
    assert make_algorithm("NSGA-II", pop_size=7).pop_size == 7
    assert isinstance(make_algorithm("spea2", pop_size=5), SPEA2)


@pytest.mark.parametrize("name", CONFIGURE)
def test_run_gives_boolean_masks_and_counts_evaluations(name, sonar_problem):
    rec = Evaluated()
    res = minimize(sonar_problem, CONFIGURE[name][0](pop_size=8), ("n_gen", 5), seed=1,
                   callback=rec)
    assert res.X.dtype == bool and res.X.ndim == 2 and res.X.shape[1] == 20
    assert res.F.shape == (res.X.shape[0], 2)
    np.testing.assert_allclose(sonar_problem.evaluate(res.X), res.F, rtol=0, atol=1e-12)
    assert all(x.dtype == bool for x in rec.X)
    # pymoo: the initial population, then pop_size offspring per generation (n_offsprings
    # defaults to pop_size); duplicate elimination refills, so nothing is lost here
    assert [len(x) for x in rec.X] == [8] * 5
    assert res.algorithm.evaluator.n_eval == 8 * 5
    # the front is mutually non-dominated
    F = res.F
    for i in range(len(F)):
        assert not np.any(np.all(F <= F[i], axis=1) & np.any(F < F[i], axis=1))


@pytest.mark.parametrize("name", CONFIGURE)
def test_same_seed_same_front_different_seed_different_search(name, sonar_problem):
    configure = CONFIGURE[name][0]
    runs = {}
    for seed in (3, 3, 4):
        rec = Evaluated()
        res = minimize(sonar_problem, configure(pop_size=8), ("n_gen", 4), seed=seed,
                       callback=rec)
        runs.setdefault(seed, []).append((res, np.vstack(rec.X)))
    (a, xa), (b, xb) = runs[3]
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.F, b.F)
    np.testing.assert_array_equal(xa, xb)
    assert not np.array_equal(xa, runs[4][0][1])


@pytest.mark.parametrize("name", CONFIGURE)
@pytest.mark.parametrize("kwargs,param", [
    (dict(pop_size=0), "pop_size"),
    (dict(pop_size=3.0), "pop_size"),
    (dict(crossover_prob=1.2), "crossover_prob"),
    (dict(crossover_prob=-0.1), "crossover_prob"),
    (dict(crossover_prob="high"), "crossover_prob"),
    (dict(mutation_rate=0.0), "mutation_rate"),
    (dict(mutation_rate=1.5), "mutation_rate"),
])
def test_invalid_parameters_raise(name, kwargs, param):
    with pytest.raises(ValueError, match=rf"^{param} "):
        CONFIGURE[name][0](**kwargs)


@pytest.mark.parametrize("name", CONFIGURE)
def test_instances_do_not_share_operators(name):
    a, b = CONFIGURE[name][0](), CONFIGURE[name][0]()
    assert a.mating.mutation is not b.mating.mutation
    assert a.mating.crossover is not b.mating.crossover
    assert a.mating.selection is not b.mating.selection
    assert a.initialization.sampling is not b.initialization.sampling
    assert a.survival is not b.survival


@pytest.mark.parametrize("name", CONFIGURE)
def test_runs_without_copying_do_not_leak_into_the_next_run(name):
    # pymoo's SPEA2 survival keeps normalisation bounds between calls; a shared default
    # instance made the second run of the same seed differ from the first
    data = load_dataset("sonar")
    problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=3)
    fronts = []
    for _ in range(3):
        res = minimize(problem, CONFIGURE[name][0](pop_size=8), ("n_gen", 6), seed=0,
                       copy_algorithm=False)
        fronts.append(res.F)
    for F in fronts[1:]:
        np.testing.assert_array_equal(F, fronts[0])
