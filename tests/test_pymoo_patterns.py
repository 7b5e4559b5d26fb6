"""pymoo's documented usage patterns, tried on every registered algorithm through the registry.

pymoo 0.6's pages on ``minimize``, ask-and-tell (with pymoo's evaluator and with objectives the
user computes, ``StaticProblem``), constraints (the binary knapsack of
``create_random_knapsack_problem`` and a constrained bi-objective binary problem), operator
keywords (``sampling=``), terminations, seeds, object checkpoints, callbacks and history: each
pattern runs against every name of :func:`~pymoo_fs.algorithms.algorithm_names`, so a new
algorithm is tried the same way. An algorithm either behaves as pymoo's own algorithms do, or
refuses with a message naming what it cannot do; nothing else passes.

Small budgets throughout (a 12-feature part of the bundled Sonar, 3-fold inner CV, pop_size 6,
a few generations).
"""

import copy
import pickle

import numpy as np
import pytest
from pymoo.core.evaluator import Evaluator
from pymoo.core.problem import Problem
from pymoo.optimize import minimize
from pymoo.problems.single.knapsack import create_random_knapsack_problem
from pymoo.problems.static import StaticProblem
from pymoo.termination.max_eval import MaximumFunctionCallTermination
from pymoo.termination.max_gen import MaximumGenerationTermination

from pymoo_fs.algorithms import algorithm_names, make_algorithm
from pymoo_fs.algorithms.registry import algorithm_info, n_objectives
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection

NAMES = [n for n in algorithm_names()
         if algorithm_info(n).reference.startswith(("pymoo_fs.", "pymoo."))]
N_GEN = 3


class BiObjectiveKnapsack(Problem):
    """A constrained bi-objective binary problem: maximise profit, minimise items, G = weight -
    capacity (pymoo's ``MultiObjectiveKnapsack`` declares one objective, so it is written out)."""

    def __init__(self, n_items=20, seed=1):
        rs = np.random.default_rng(seed)
        self.P = rs.integers(1, 100, n_items)
        self.W = rs.integers(1, 100, n_items)
        self.C = int(self.W.sum() / 10)
        super().__init__(n_var=n_items, n_obj=2, n_ieq_constr=1, xl=0, xu=1, vtype=bool)

    def _evaluate(self, x, out, *args, **kwargs):
        x = np.asarray(x, dtype=float)
        out["F"] = np.column_stack([-(x @ self.P), x.sum(axis=1)])
        out["G"] = (x @ self.W - self.C)[:, None]


@pytest.fixture(scope="module")
def data():
    d = load_dataset("sonar")
    return d.X[:, :12], d.y


def _problem(name, data, **constraints):
    X, y = data
    cls = WeightedFeatureSelection if n_objectives(name) == 1 else BiObjectiveFeatureSelection
    return cls.from_data(X, y, cv=3, **constraints)


def _algorithm(name, **kwargs):
    if algorithm_info(name).has_population:
        kwargs.setdefault("pop_size", 6)
    return make_algorithm(name, **kwargs)


def _front(res):
    return (np.atleast_2d(res.X).astype(bool), np.atleast_2d(res.F))


def _assert_same(a, b):
    Xa, Fa = _front(a)
    Xb, Fb = _front(b)
    np.testing.assert_array_equal(Xa, Xb)
    np.testing.assert_array_equal(Fa, Fb)


def _feasible_or_none(res):
    """pymoo's contract: the result holds feasible solutions only, or nothing."""
    if res.X is None:
        return
    G = np.atleast_2d(res.G)
    assert np.all(G <= 0), f"infeasible result: G = {G.max(axis=1)}"


# ---------------------------------------------------------------------------- minimize
@pytest.mark.parametrize("name", NAMES)
def test_minimize_and_the_result_object(name, data):
    problem = _problem(name, data)
    res = minimize(problem, _algorithm(name), ("n_gen", N_GEN), seed=1)
    X, F = _front(res)
    assert X.dtype == bool and X.shape[1] == 12 and X.any(axis=1).all()
    assert F.shape == (X.shape[0], problem.n_obj)
    np.testing.assert_allclose(problem.evaluate(X), F)
    again = minimize(problem, _algorithm(name), ("n_gen", N_GEN), seed=1)
    _assert_same(res, again)  # one seed, one result


@pytest.mark.parametrize("name", NAMES)
def test_callback_and_history(name, data):
    problem = _problem(name, data)
    seen = []
    res = minimize(problem, _algorithm(name), ("n_gen", N_GEN), seed=1, save_history=True,
                   callback=lambda algorithm: seen.append(algorithm.n_gen))
    assert seen == list(range(1, len(seen) + 1)) and 1 <= len(seen) <= N_GEN
    assert len(res.history) == len(seen)


# ---------------------------------------------------------------------------- ask and tell
def _ask_and_tell(name, problem, user_evaluated, termination=("n_gen", N_GEN)):
    algorithm = _algorithm(name)
    algorithm.setup(problem, termination=termination, seed=1)
    while algorithm.has_next():
        pop = algorithm.ask()
        if user_evaluated:  # pymoo's problem-independent loop: the user computes F (and G)
            out = problem.evaluate(pop.get("X"), return_as_dictionary=True)
            values = {k: out[k] for k in ("F", "G") if k in out and np.size(out[k])}
            Evaluator().eval(StaticProblem(problem, **values), pop)
        else:
            algorithm.evaluator.eval(problem, pop)
        algorithm.tell(infills=pop)
    return algorithm.result()


@pytest.mark.parametrize("name", NAMES)
def test_ask_and_tell_with_pymoo_evaluator_is_minimize(name, data):
    problem = _problem(name, data)
    _assert_same(_ask_and_tell(name, problem, False),
                 minimize(problem, _algorithm(name), ("n_gen", N_GEN), seed=1))


@pytest.mark.parametrize("name", NAMES)
def test_ask_and_tell_with_user_evaluated_objectives(name, data):
    problem = _problem(name, data)
    expected = minimize(problem, _algorithm(name), ("n_gen", N_GEN), seed=1)
    if getattr(_algorithm(name), "fitness", "objective") == "accuracy":
        try:
            res = _ask_and_tell(name, problem, True)
        except ValueError as error:  # the score cannot be derived from F: named, in tell
            assert "'score'" in str(error) and "fitness='objective'" in str(error)
            assert name in ("PSO(4-2)", "CSO(A)", "SBS")
            return
        # SFS evaluates its own neighbourhoods (scores included): the user's F agrees
        _assert_same(res, expected)
        return
    _assert_same(_ask_and_tell(name, problem, True), expected)


@pytest.mark.parametrize("name", ["PSO", "BPSO", "CSO(C)", "AMSO"])
def test_partial_or_modified_tells(name, data):
    problem = _problem(name, data)
    algorithm = _algorithm(name)
    algorithm.setup(problem, termination=("n_gen", N_GEN), seed=1)
    algorithm.next()
    pop = algorithm.ask()
    algorithm.evaluator.eval(problem, pop)
    with pytest.raises(ValueError, match="ask\\(\\) proposed"):
        algorithm.tell(infills=pop[:1])
    X = pop.get("X").copy()
    X[0] = False
    X[0, 7] = True  # the user changes the first asked mask before telling it
    changed = type(pop).new("X", X)
    algorithm.evaluator.eval(problem, changed)
    if name == "AMSO":  # a ranked variable-length particle cannot follow an arbitrary mask
        with pytest.raises(ValueError, match="differ from the asked"):
            algorithm.tell(infills=changed)
        return
    algorithm.tell(infills=changed)
    rows = np.arange(len(X)) if algorithm._pending is None else None
    assert rows is not None
    # the particle follows the told mask: its position decodes to it, and so does its pbest
    # whenever the told mask became the personal best
    decoded = algorithm._decode(algorithm.X_)
    np.testing.assert_array_equal(decoded[:len(X)] if len(X) == len(decoded) else decoded,
                                  algorithm.pop.get("X"))
    best = algorithm.pbest_pop_.get("X")
    np.testing.assert_array_equal(algorithm._decode(algorithm.pbest_X_), best)


# ---------------------------------------------------------------------------- constraints
def _constrained_run(name, problem):
    try:
        return minimize(problem, _algorithm(name), ("n_eval", 240), seed=1)
    except ValueError as error:  # a named refusal is the other accepted answer
        assert any(word in str(error) for word in (
            "constraints", "FeatureSelectionProblem", "objective")), str(error)
        return None


@pytest.mark.parametrize("name", NAMES)
def test_knapsack_results_are_feasible(name):
    problem = (create_random_knapsack_problem(20, random_state=np.random.default_rng(1))
               if n_objectives(name) == 1 else BiObjectiveKnapsack())
    res = _constrained_run(name, problem)
    if res is not None:
        _feasible_or_none(res)
        _feasible_or_none_pop(res.opt)


def _feasible_or_none_pop(opt):
    if opt is not None and len(opt) and np.any(opt.get("FEAS")):
        assert np.all(opt.get("FEAS")), "the optimum mixes infeasible members in"


@pytest.mark.parametrize("name", NAMES)
def test_constrained_feature_selection_results_are_feasible(name, data):
    costs = np.linspace(0.5, 2.0, 12)
    problem = _problem(name, data, max_features=3, feature_costs=costs, cost_budget=3.0)
    res = _constrained_run(name, problem)
    if res is None:
        return
    _feasible_or_none(res)
    if res.X is not None:
        X = np.atleast_2d(res.X)
        assert np.all(X.sum(axis=1) <= 3) and np.all(X @ costs <= 3.0)


def test_swarms_find_the_knapsack_feasible_optimum_region():
    # pymoo's GA finds feasible solutions on this knapsack; so do the swarms (feasibility first)
    problem = create_random_knapsack_problem(30, random_state=np.random.default_rng(1))
    for name in ("PSO", "BPSO", "CSO(C)", "SBPSO", "BBPSO-ACJ"):
        res = minimize(problem, _algorithm(name, pop_size=20), ("n_eval", 600), seed=1)
        assert res.X is not None, name
        assert res.G[0] <= 0 and res.F[0] < 0, name


def test_an_unconstrained_problem_compares_the_objectives_bit_for_bit(data):
    problem = _problem("PSO", data)
    alg = _algorithm("PSO")
    alg.setup(problem, seed=1)
    alg.next()
    np.testing.assert_array_equal(alg._objectives(alg.pop), alg.pop.get("F"))


def test_feasibility_first_values():
    problem = create_random_knapsack_problem(5, random_state=np.random.default_rng(1))
    alg = _algorithm("PSO")
    alg.setup(problem, seed=1)
    F = np.array([[-10.0], [-3.0], [-50.0], [-60.0]])
    CV = np.array([0.0, 0.0, 2.0, 5.0])
    key = alg._penalized(F, CV)[:, 0]
    # feasible by F; every infeasible after every feasible (F_max = max(-3, 0) = 0), by CV
    np.testing.assert_array_equal(key, [-10.0, -3.0, 2.0, 5.0])


# ---------------------------------------------------------------------------- operators
@pytest.mark.parametrize("name", NAMES)
def test_sampling_keyword(name, data):
    if not algorithm_info(name).has_population:
        return
    problem = _problem(name, data)
    masks = np.zeros((2, 12), dtype=bool)
    masks[0, :3] = masks[1, 5] = True
    try:
        algorithm = _algorithm(name, sampling=masks)
    except TypeError as error:
        assert "sampling" in str(error)
        return
    algorithm.setup(problem, termination=("n_gen", 2), seed=1)
    first = algorithm.ask()
    if name not in ("NSGA-II", "SPEA2"):  # the swarms start from them, in order
        np.testing.assert_array_equal(first.get("X")[:2], masks)
    else:  # pymoo takes the given masks as its initial population
        assert {tuple(m) for m in masks} <= {tuple(m) for m in first.get("X")}


def test_nsga2_and_spea2_take_pymoo_operator_keywords(data):
    from pymoo.core.population import Population
    from pymoo.operators.crossover.ux import UniformCrossover
    from pymoo.operators.mutation.bitflip import BitflipMutation

    from pymoo_fs.problems import NonEmptyRepair

    problem = _problem("NSGA-II", data)
    init = np.eye(12, dtype=bool)[:6]
    for name in ("NSGA-II", "SPEA2"):
        alg = _algorithm(name, sampling=Population.new("X", init), crossover=UniformCrossover(),
                         mutation=BitflipMutation(prob=1.0, prob_var=0.2),
                         repair=NonEmptyRepair())
        assert isinstance(alg.mating.crossover, UniformCrossover)
        res = minimize(problem, alg, ("n_gen", 2), seed=1)
        assert np.atleast_2d(res.X).any(axis=1).all()


# ---------------------------------------------------------------------------- terminations
BAD_TERMINATIONS = [("n_gen",), ("n_gen", 0), ("n_eval", 0), ("n_gen", "5"), ("time", -1),
                    ("n_gen", 2.5), ("n_eval", -3), ("generations", 5), "n_gen",
                    MaximumGenerationTermination(0), 12]
BAD_SEEDS = [True, -1, "7", 1.5]


@pytest.mark.parametrize("name", NAMES)
def test_bad_terminations_and_seeds_are_refused_before_pymoo(name, data):
    problem = _problem(name, data)
    for termination in BAD_TERMINATIONS:
        with pytest.raises((TypeError, ValueError), match="termination") as info:
            minimize(problem, _algorithm(name), termination, seed=1)
        assert "accepted" in str(info.value)
    for seed in BAD_SEEDS:
        with pytest.raises((TypeError, ValueError), match="seed"):
            minimize(problem, _algorithm(name), ("n_gen", 1), seed=seed)
    with pytest.raises(ValueError, match="termination"):  # given to the constructor
        minimize(problem, _algorithm(name, termination=("n_gen", 0)))


@pytest.mark.parametrize("name", NAMES)
def test_evaluation_budgets_and_termination_objects(name, data):
    problem = _problem(name, data)
    res = minimize(problem, _algorithm(name), MaximumFunctionCallTermination(40), seed=1)
    # pymoo's own algorithms overshoot by at most one generation
    assert res.algorithm.evaluator.n_eval <= 40 + max(6, problem.n_var)
    res = minimize(problem, _algorithm(name), MaximumGenerationTermination(2), seed=1)
    assert res.algorithm.n_gen - 1 <= 2
    res = minimize(problem, _algorithm(name), ("n_gen", 2.0), seed=1)  # a whole float: 2
    assert res.algorithm.n_gen - 1 <= 2


@pytest.mark.slow
def test_isrpso_local_search_stops_at_a_time_budget(shared_data_dir):
    import time

    from pymoo_fs.datasets import load_dataset as load

    data = load("musk1", data_dir=shared_data_dir)
    problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    start = time.perf_counter()
    res = minimize(problem, make_algorithm("ISRPSO", pop_size=30), ("time", "00:00:03"),
                   seed=1)
    elapsed = time.perf_counter() - start
    assert res.X is not None
    assert elapsed < 3 + 20  # the first local search alone runs far longer without the check


# ---------------------------------------------------------------------------- checkpoints
@pytest.mark.parametrize("name", NAMES)
def test_object_checkpoint_continues_as_the_uninterrupted_run(name, data):
    problem = _problem(name, data)
    expected = minimize(problem, _algorithm(name), ("n_gen", N_GEN + 1), seed=1)
    algorithm = _algorithm(name)
    algorithm.setup(problem, termination=("n_gen", N_GEN + 1), seed=1)
    algorithm.next()
    algorithm.next()
    for checkpoint in (pickle.loads(pickle.dumps(algorithm)), copy.deepcopy(algorithm)):
        while checkpoint.has_next():
            checkpoint.next()
        _assert_same(checkpoint.result(), expected)


@pytest.mark.parametrize("name", NAMES)
def test_functional_checkpoint_under_a_longer_termination(name, data):
    # pymoo's recipe: finish a short run, keep the algorithm, set a longer termination,
    # minimize again. Two generations make one move, at progress 0 under any termination; the
    # later moves read the new termination's progress: the uninterrupted run, bit for bit
    # (before, FSIPSO, BVDPSO, UBPSO, VLPSO and AMSO restarted their schedules)
    problem = _problem(name, data)
    expected = minimize(problem, _algorithm(name), ("n_gen", 5), seed=1)
    algorithm = _algorithm(name)
    minimize(problem, algorithm, ("n_gen", 2), seed=1, copy_algorithm=False)
    checkpoint = pickle.loads(pickle.dumps(algorithm))
    checkpoint.termination = MaximumGenerationTermination(5)
    res = minimize(problem, checkpoint, seed=1, copy_algorithm=False)
    _assert_same(res, expected)
    assert res.algorithm.evaluator.n_eval == expected.algorithm.evaluator.n_eval


def test_a_finished_sequential_search_does_not_evaluate_again(data):
    problem = _problem("SFS", data)
    algorithm = _algorithm("SFS")
    minimize(problem, algorithm, seed=1, copy_algorithm=False)
    assert algorithm.exhausted_
    n_eval = algorithm.evaluator.n_eval
    algorithm.termination = MaximumGenerationTermination(100)
    res = minimize(problem, algorithm, seed=1, copy_algorithm=False)
    assert algorithm.evaluator.n_eval == n_eval and res.X is not None


@pytest.mark.parametrize("name", ["FSIPSO", "BVDPSO", "UBPSO", "CMDPSOFS"])
def test_continued_schedules_read_the_new_terminations_progress(name, data):
    problem = _problem(name, data)
    seen = {}

    def record(key):
        return lambda algorithm: seen.setdefault(key, []).append(
            (algorithm.n_gen, algorithm.progress()))

    minimize(problem, _algorithm(name), ("n_gen", 8), seed=1, callback=record("whole"))
    algorithm = _algorithm(name)
    minimize(problem, algorithm, ("n_gen", 3), seed=1, copy_algorithm=False)
    algorithm.termination = MaximumGenerationTermination(8)
    algorithm.callback = record("continued")
    minimize(problem, algorithm, seed=1, copy_algorithm=False)
    whole = dict(seen["whole"])
    assert [g for g, _ in seen["continued"]] == [4, 5, 6, 7, 8]
    for g, p in seen["continued"]:  # no restart: the uninterrupted run's progress
        assert p == pytest.approx(whole[g], abs=1e-12)


def test_keyword_errors_list_only_what_the_algorithm_takes():
    import importlib
    import inspect

    from pymoo_fs.algorithms import MOPSO
    from pymoo_fs.algorithms.base import FeatureSelectionAlgorithm, _own_parameters

    with pytest.raises(TypeError, match="unexpected keyword argument 'reverse_velocity'") as e:
        MOPSO(reverse_velocity=True)  # fixed by MOPSO for ParticleSwarm: not a raw TypeError
    assert "inclusive_threshold" not in str(e.value) and "pop_size" in str(e.value)
    tried = 0
    for name in NAMES:  # every keyword listed is accepted (its default given)
        module, _, attr = algorithm_info(name).reference.partition(":")
        cls = getattr(importlib.import_module(module), attr.split("@")[0])
        if not (isinstance(cls, type) and issubclass(cls, FeatureSelectionAlgorithm)):
            continue
        for keyword in sorted(_own_parameters(cls)):
            for klass in cls.__mro__:
                init = klass.__dict__.get("__init__")
                parameter = None if init is None else inspect.signature(init).parameters.get(
                    keyword)
                if parameter is not None and parameter.default is not parameter.empty:
                    cls(**{keyword: parameter.default})
                    tried += 1
                    break
    assert tried > 100


@pytest.mark.parametrize("name", NAMES)
def test_continuous_problems_are_refused_by_name(name):
    from pymoo.problems import get_problem

    if name in ("NSGA-II", "SPEA2"):  # pymoo's own, with bit operators the user may replace
        return
    problem = get_problem("zdt1" if n_objectives(name) != 1 else "rastrigin")
    with pytest.raises(ValueError, match="boolean masks") as error:
        minimize(problem, _algorithm(name), ("n_gen", 2), seed=1)
    assert type(problem).__name__ in str(error.value)
