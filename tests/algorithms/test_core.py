"""The swarm core and the contracts every algorithm keeps.

A new swarm takes a few dozen lines on the core: ``BarebonesLocalSearch`` below is Kennedy's
bare-bones PSO plus a one-feature local search on the global best, which also shows that
neighbourhood evaluations are counted in ``n_eval``.
"""

import numpy as np
import pytest
from pymoo.core.evaluator import Evaluator
from pymoo.core.population import Population
from pymoo.core.problem import Problem
from pymoo.optimize import minimize
from pymoo.termination.collection import TerminationCollection
from pymoo.termination.max_eval import MaximumFunctionCallTermination
from pymoo.termination.max_gen import MaximumGenerationTermination

from pymoo_fs.algorithms import (CMDPSOFS, PSO, SwarmAlgorithm, algorithm_names, make_algorithm,
                                 swarm)
from pymoo_fs.algorithms.registry import n_objectives
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection


class BarebonesLocalSearch(SwarmAlgorithm):
    """Bare-bones PSO (Kennedy 2003) with a local search of ``n_flips`` random flips of gbest.

    Positions ``x ~ N((pbest + gbest) / 2, |pbest - gbest|)``, clipped to [0, 1], selected
    above 0.6; after each generation the global best tries ``n_flips`` one-feature flips and
    takes the best one if it improves.
    """

    n_objectives = 1

    def __init__(self, pop_size=8, n_flips=3, **kwargs):
        super().__init__(pop_size, pbest_rule="better", **kwargs)
        self.n_flips = n_flips

    def _initial_swarm(self):
        return self.random_state.random((self.pop_size, self.problem.n_var)), None

    def _decode(self, X):
        return swarm.decode(X, 0.6)

    def _move(self):
        g = self.pbest_X_[self.gbest_]
        X = self.random_state.normal((self.pbest_X_ + g) / 2, np.abs(self.pbest_X_ - g))
        return np.clip(X, 0.0, 1.0), None

    def _tell(self, infills, idx):
        super()._tell(infills, idx)
        best = self.pbest_pop_[self.gbest_]
        flips = self.random_state.choice(self.problem.n_var, self.n_flips, replace=False)
        flips = flips[~((best.X.sum() == 1) & best.X[flips])]  # never empty the subset
        neighbours = self.evaluate_flips(best.X, flips)
        i = int(np.argmin(neighbours.get("F")[:, 0]))
        if neighbours[i].F[0] < best.F[0]:
            self.pbest_X_[self.gbest_] = neighbours[i].X.astype(float)
            self.pbest_pop_[self.gbest_] = neighbours[i]



class _Ones(Problem):
    """A plain pymoo problem on 5 bits: ``F`` = the number of zeros."""

    def __init__(self):
        super().__init__(n_var=5, n_obj=1, xl=0, xu=1, vtype=bool)

    def _evaluate(self, x, out, *args, **kwargs):
        out["F"] = (5.0 - x.sum(axis=1))[:, None]

@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return data.X[:, :24], data.y


@pytest.fixture(scope="module")
def weighted(sonar):
    return WeightedFeatureSelection.from_data(*sonar, cv=3)


@pytest.fixture(scope="module")
def biobjective(sonar):
    return BiObjectiveFeatureSelection.from_data(*sonar, cv=3)


def _algorithms():
    """(name, factory, number of objectives) of every algorithm, the small swarm included."""
    out = [(name, lambda name=name: make_algorithm(name, pop_size=6), n_objectives(name))
           for name in algorithm_names()]
    out.append(("Barebones", lambda: BarebonesLocalSearch(pop_size=6), 1))
    return out


ALGORITHMS = _algorithms()
IDS = [a[0] for a in ALGORITHMS]


def _problem(n_obj, weighted, biobjective):
    return weighted if n_obj == 1 else biobjective


# ------------------------------------------------------------------ a new swarm on the core
def test_small_swarm_runs_with_local_search_counted_in_n_eval(weighted):
    res = minimize(weighted, BarebonesLocalSearch(pop_size=5, n_flips=3), ("n_gen", 6), seed=1)
    # 6 generations of 5 particles, and 3 flips of gbest after each of the 5 moves
    assert res.algorithm.evaluator.n_eval == 5 * 6 + 3 * 5
    assert res.X.dtype == bool and res.X.any()
    np.testing.assert_allclose(weighted.evaluate(res.X[None, :])[0], res.F)


def test_local_search_improves_on_the_swarm_alone(weighted):
    with_ls = minimize(weighted, BarebonesLocalSearch(pop_size=5, n_flips=6), ("n_gen", 8),
                       seed=3)
    assert with_ls.F[0] <= with_ls.algorithm.pop.get("F").min()


def test_flip_evaluations_equal_plain_evaluations(weighted):
    alg = BarebonesLocalSearch(pop_size=4)
    alg.setup(weighted, termination=("n_gen", 2), seed=0)
    pop = alg.ask()
    alg.evaluator.eval(weighted, pop)
    alg.tell(infills=pop)
    mask = pop[0].X
    before = alg.evaluator.n_eval
    neighbours = alg.evaluate_flips(mask, [0, 5, 9])
    assert alg.evaluator.n_eval == before + 3
    flipped = neighbours.get("X")
    assert np.all((flipped ^ mask).sum(axis=1) == 1)
    np.testing.assert_array_equal(neighbours.get("F"), weighted.evaluate(flipped))


def test_flip_objectives_are_the_flip_evaluations_as_an_array(weighted):
    seen = []
    for evaluator in (None, Evaluator(callback=lambda pop: seen.append(len(pop)))):
        alg = BarebonesLocalSearch(pop_size=4, **({} if evaluator is None else
                                                   dict(evaluator=evaluator)))
        alg.setup(weighted, termination=("n_gen", 2), seed=0)
        mask = np.zeros(weighted.n_var, dtype=bool)
        mask[[1, 4, 7]] = True
        before = alg.evaluator.n_eval
        F = alg.flip_objectives(mask, [0, 4, 9, 23])
        assert alg.evaluator.n_eval == before + 4
        np.testing.assert_array_equal(F, alg.evaluate_flips(mask, [0, 4, 9, 23]).get("F"))
    assert seen == [4, 4]  # with a callback: the Population path, for both calls


def test_flipped_individuals_are_those_pymoos_evaluator_makes(weighted):
    alg = BarebonesLocalSearch(pop_size=4)
    alg.setup(weighted, termination=("n_gen", 2), seed=0)
    mask = np.zeros(weighted.n_var, dtype=bool)
    mask[[2, 3]] = True
    flips = alg.evaluate_flips(mask, [0, 2, 5])
    plain = Evaluator().eval(weighted, Population.new("X", flips.get("X")))
    for key in ("X", "F", "G", "H", "CV", "feas", "score"):
        np.testing.assert_array_equal(flips.get(key), plain.get(key))
    assert [ind.evaluated for ind in flips] == [ind.evaluated for ind in plain]


def test_flips_on_a_plain_pymoo_problem_go_through_pymoos_evaluator():
    alg = BarebonesLocalSearch(pop_size=3)
    alg.setup(_Ones(), termination=("n_gen", 2), seed=0)
    mask = np.array([1, 0, 0, 1, 0], dtype=bool)
    np.testing.assert_array_equal(alg.flip_objectives(mask, [1, 3]), [[2.0], [4.0]])
    assert alg.evaluator.n_eval == 2



@pytest.mark.parametrize("problem", ["weighted", "biobjective"])
def test_evaluated_masks_are_what_pymoos_evaluator_makes(problem, request):
    problem = request.getfixturevalue(problem)
    alg = BarebonesLocalSearch(pop_size=4) if problem.n_obj == 1 else CMDPSOFS(pop_size=4)
    alg.setup(problem, termination=("n_gen", 2), seed=0)
    masks = np.zeros((3, problem.n_var), dtype=bool)
    masks[0, [1, 4]] = masks[1, 7:20] = masks[2, ::3] = True
    before = alg.evaluator.n_eval
    evaluated = alg.evaluate_masks(masks)
    assert alg.evaluator.n_eval == before + 3
    plain = Evaluator().eval(problem, Population.new("X", masks))
    assert evaluated.F.dtype == np.float64
    np.testing.assert_array_equal(evaluated.F, plain.get("F"))
    pop = evaluated.population()
    assert pop is evaluated.population()  # built once
    for key in ("X", "F", "G", "H", "CV", "feas", "score"):
        np.testing.assert_array_equal(pop.get(key), plain.get(key))
    assert [ind.evaluated for ind in pop] == [ind.evaluated for ind in plain]


def test_evaluated_masks_go_through_pymoos_evaluator_with_a_callback(weighted):
    seen = []
    alg = BarebonesLocalSearch(pop_size=4, evaluator=Evaluator(
        callback=lambda pop: seen.append(len(pop))))
    alg.setup(weighted, termination=("n_gen", 2), seed=0)
    masks = np.zeros((2, weighted.n_var), dtype=bool)
    masks[:, 3] = True
    masks[1, 5] = True
    seen.clear()
    evaluated = alg.evaluate_masks(masks)
    assert seen == [2]
    np.testing.assert_array_equal(evaluated.F, evaluated.population().get("F"))


def test_evaluated_masks_on_a_plain_pymoo_problem():
    alg = BarebonesLocalSearch(pop_size=3)
    alg.setup(_Ones(), termination=("n_gen", 2), seed=0)
    evaluated = alg.evaluate_masks(np.array([[1, 0, 0, 1, 0], [1, 1, 1, 1, 1]], dtype=bool))
    np.testing.assert_array_equal(evaluated.F, [[3.0], [0.0]])
    assert alg.evaluator.n_eval == 2


def test_refused_evaluated_masks_raise_and_are_not_counted(weighted):
    alg = BarebonesLocalSearch(pop_size=4)
    alg.setup(weighted, termination=("n_gen", 2), seed=0)
    before = alg.evaluator.n_eval
    with pytest.raises(ValueError, match="empty"):
        alg.evaluate_masks(np.zeros((1, weighted.n_var), dtype=bool))
    with pytest.raises(ValueError, match="boolean masks"):
        alg.evaluate_masks(np.full((1, weighted.n_var), 0.7))
    with pytest.raises(ValueError, match="shape"):
        alg.evaluate_masks(np.ones((1, weighted.n_var + 1), dtype=bool))
    assert alg.evaluator.n_eval == before


# ------------------------------------------------------------------ pop and history move
@pytest.mark.parametrize("name, factory, n_obj", ALGORITHMS, ids=IDS)
def test_pop_and_history_move(name, factory, n_obj, weighted, biobjective):
    problem = _problem(n_obj, weighted, biobjective)
    res = minimize(problem, factory(), ("n_gen", 6), seed=4, save_history=True)
    history = res.history
    if getattr(res.algorithm, "exhausted_", False):  # a search that stopped by itself
        # SRTSO is seed 002's two iterations (I = 2), the greedy searches step on
        assert (2 if name == "SRTSO" else 4) <= len(history) <= 6
    else:
        assert len(history) == 6
    first, last = history[0].pop.get("X"), res.pop.get("X")
    assert not np.array_equal(first, last), "res.pop is still the initial population"
    moved = [not np.array_equal(a.pop.get("X"), b.pop.get("X"))
             for a, b in zip(history[:-1], history[1:])]
    assert sum(moved) >= min(3, len(history) - 1)
    np.testing.assert_array_equal(history[-1].pop.get("F"), res.pop.get("F"))
    F = res.pop.get("F")
    np.testing.assert_allclose(problem.evaluate(res.pop.get("X")), F)
    means = [h.pop.get("F")[:, 0].mean() for h in history]
    assert len(set(means)) > 1, "the population's mean objective never changes"


@pytest.mark.parametrize("name", ["PSO", "CMDPSOFS"])
def test_swarm_pop_is_the_decoded_current_swarm(name, weighted, biobjective):
    problem = weighted if name == "PSO" else biobjective
    res = minimize(problem, make_algorithm(name, pop_size=5), ("n_gen", 4), seed=0)
    alg = res.algorithm
    np.testing.assert_array_equal(res.pop.get("X"), swarm.decode(alg.X_, alg.threshold))


def test_verbose_table_shows_the_swarm_moving(weighted, capsys):
    minimize(weighted, PSO(pop_size=6), ("n_gen", 6), seed=2, verbose=True)
    rows = [line.split("|") for line in capsys.readouterr().out.splitlines()
            if line.strip()[:1].isdigit()]
    assert len(rows) == 6
    f_avg = {row[2].strip() for row in rows}  # n_gen | n_eval | f_avg | f_min
    assert len(f_avg) > 1


def test_state_between_ask_and_tell_is_the_last_generation(weighted):
    alg = PSO(pop_size=5)
    alg.setup(weighted, termination=("n_gen", 4), seed=1)
    pop = alg.ask()
    alg.evaluator.eval(weighted, pop)
    alg.tell(infills=pop)
    X, V, pbest = alg.X_.copy(), alg.V_.copy(), alg.pbest_X_.copy()
    pop = alg.ask()
    np.testing.assert_array_equal(alg.X_, X)  # ask proposes, nothing is committed
    np.testing.assert_array_equal(alg.V_, V)
    np.testing.assert_array_equal(alg.pbest_X_, pbest)
    alg.evaluator.eval(weighted, pop)
    alg.tell(infills=pop)
    np.testing.assert_array_equal(pop.get("X"), swarm.decode(alg.X_, 0.6))
    assert not np.array_equal(alg.X_, X)


def test_tell_without_ask_is_refused(weighted):
    alg = PSO(pop_size=4)
    alg.setup(weighted, termination=("n_gen", 4), seed=1)
    pop = alg.ask()
    alg.evaluator.eval(weighted, pop)
    alg.tell(infills=pop)
    with pytest.raises(RuntimeError, match="tell without a matching ask"):
        alg.tell(infills=pop)


# ------------------------------------------------------------------ every termination
@pytest.mark.parametrize("name, factory, n_obj", ALGORITHMS, ids=IDS)
def test_every_termination_works(name, factory, n_obj, weighted, biobjective):
    problem = _problem(n_obj, weighted, biobjective)
    res = minimize(problem, factory(), ("n_gen", 3), seed=0)
    # pymoo counts on past the last generation; a search may stop by itself before
    if getattr(res.algorithm, "exhausted_", False):
        assert 2 <= res.algorithm.n_gen - 1 <= 3
    else:
        assert res.algorithm.n_gen - 1 == 3
    res = minimize(problem, factory(), ("n_eval", 40), seed=0)
    n_eval = res.algorithm.evaluator.n_eval
    assert 40 <= n_eval < 40 + 6 + 6  # one generation (and a local search) may overshoot
    res = minimize(problem, factory(), ("time", 0.5), seed=0)
    assert res.algorithm.n_gen >= 2 and res.X is not None


def test_progress_and_evaluations_left_read_the_termination(biobjective):
    seen = []

    def record(algorithm):
        seen.append((algorithm.n_gen, algorithm.progress(), algorithm.evaluations_left()))

    minimize(biobjective, CMDPSOFS(pop_size=5), ("n_eval", 30), seed=0, callback=record)
    # after generation g (5 g evaluations of 30): progress (g - 1) / 5, 30 - 5 g left
    np.testing.assert_allclose([p for _, p, _ in seen], [0, 0.2, 0.4, 0.6, 0.8, 1.0])
    assert [left for *_, left in seen] == [25, 20, 15, 10, 5, 0]
    seen.clear()
    minimize(biobjective, CMDPSOFS(pop_size=5), ("n_gen", 3), seed=0, callback=record)
    np.testing.assert_allclose([p for _, p, _ in seen], [0.0, 0.5, 1.0])
    assert all(left == float("inf") for *_, left in seen)


def test_evaluations_left_looks_inside_a_termination_collection(biobjective):
    seen = []

    def record(algorithm):
        seen.append(algorithm.evaluations_left())

    both = TerminationCollection(MaximumGenerationTermination(10),
                                 MaximumFunctionCallTermination(20))
    minimize(biobjective, CMDPSOFS(pop_size=5), both, seed=0, callback=record)
    assert seen == [15, 10, 5, 0]


# ------------------------------------------------------------------ strict keywords
@pytest.mark.parametrize("name", algorithm_names())
def test_unknown_keyword_raises_type_error(name):
    with pytest.raises(TypeError, match="unexpected keyword argument 'popsize'"):
        make_algorithm(name, popsize=10)
    with pytest.raises(TypeError, match="'max_iter'"):  # scikit-learn's spelling
        make_algorithm(name, max_iter=10)


def test_pymoo_keywords_pass_through(weighted):
    res = minimize(weighted, PSO(pop_size=4, save_history=True), ("n_gen", 3), seed=0)
    assert len(res.history) == 3
    a = minimize(weighted, PSO(pop_size=4, seed=5), ("n_gen", 3))
    b = minimize(weighted, PSO(pop_size=4, seed=5), ("n_gen", 3))
    assert a.algorithm.seed == 5
    np.testing.assert_array_equal(a.algorithm.X_, b.algorithm.X_)


def test_fitness_accuracy_is_for_single_objective_swarms_only():
    with pytest.raises(ValueError, match="^fitness "):
        CMDPSOFS(fitness="accuracy")
    assert CMDPSOFS(fitness="objective").fitness == "objective"
    assert PSO(fitness="accuracy").fitness == "accuracy"
