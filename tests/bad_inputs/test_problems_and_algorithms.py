"""Bad inputs to every problem, every registered algorithm's constructor, and tiny runs.

Every registered algorithm runs on d = 1 and d = 2 features of n = 10 samples with swarms of
1, 2 and 5 particles: it finishes with a non-empty subset, or refuses the population size with
a message naming ``pop_size``.
"""

import math
import re

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import (CSO, UBPSO, VLPSO, algorithm_names, configure_nsga2,
                                 configure_spea2, make_algorithm, n_objectives)
from pymoo_fs.problems import (BiObjectiveFeatureSelection, FitBFeatureSelection,
                               FitEFeatureSelection, RepeatedCVFeatureSelection,
                               WeightedFeatureSelection, make_objective)

from .corpus import Accepts, Case, Raises, check_case, ids

RNG = np.random.default_rng(3)
X = RNG.random((30, 4))
Y = np.repeat([0, 1], 15)
PROBLEMS = {
    "WeightedFeatureSelection": WeightedFeatureSelection,
    "BiObjectiveFeatureSelection": BiObjectiveFeatureSelection,
    "FitBFeatureSelection": FitBFeatureSelection,
    "FitEFeatureSelection": FitEFeatureSelection,
    "RepeatedCVFeatureSelection": RepeatedCVFeatureSelection,
}
_OPTIONS = {"FitBFeatureSelection": {"n_folds": 3}}


def _problem(name, **kw):
    return PROBLEMS[name].from_data(X, Y, **{"cv": 3, **_OPTIONS.get(name, {}), **kw}) \
        if name != "FitBFeatureSelection" else PROBLEMS[name].from_data(X, Y, **{
            **_OPTIONS[name], **kw})


CASES = []
for name in PROBLEMS:
    CASES += [
        Case(name, "unknown keyword", "unknown keyword",
             lambda n=name: _problem(n, bogus=1),
             Raises(TypeError, "unexpected keyword argument 'bogus'")),
        Case(name, "string X", "string for number",
             lambda n=name: PROBLEMS[n].from_data(X.astype(str), Y),
             Raises(ValueError, "X must be numeric")),
        Case(name, "NaN in X", "nan/inf",
             lambda n=name: PROBLEMS[n].from_data(np.where(X > 0.9, np.nan, X), Y),
             Raises(ValueError, "X contains .* NaN or infinite values")),
        Case(name, "mask of the wrong length", "wrong shape",
             lambda n=name: _problem(n).evaluate(np.ones((1, 5), bool)),
             Raises(ValueError, r"X must hold masks over the 4 features, shaped \(n, 4\) or "
                               r"\(4,\); got shape \(1, 5\)")),
        Case(name, "empty mask", "empty",
             lambda n=name: _problem(n).evaluate(np.zeros((1, 4), bool)),
             Raises(ValueError, "mask 0 selects no feature")),
        Case(name, "flip out of range", "out of range",
             lambda n=name: _problem(n).evaluate_flips(np.ones(4, bool), [4]),
             Raises(ValueError, r"features must be feature indices in \[0, 4\), got 4")),
        Case(name, "test set without labels", "empty",
             lambda n=name: _problem(n, X_test=X),
             Raises(ValueError, "y_test")),
        Case(name, "0/1 masks", "odd but valid",
             lambda n=name: _problem(n).evaluate(np.array([[1, 0, 1, 0]])),
             Accepts(lambda F: np.isfinite(F).all())),
    ]

CASES += [
    Case("WeightedFeatureSelection", "alpha nan", "nan/inf",
         lambda: _problem("WeightedFeatureSelection", alpha=math.nan),
         Raises(ValueError, "alpha")),
    Case("WeightedFeatureSelection", "alpha true", "bool for int",
         lambda: _problem("WeightedFeatureSelection", alpha=True), Raises(ValueError, "alpha")),
    Case("WeightedFeatureSelection", "alpha as a string", "string for number",
         lambda: _problem("WeightedFeatureSelection", alpha="0.9"),
         Raises(ValueError, "alpha")),
    Case("FitEFeatureSelection", "unknown empty_mask", "out of range",
         lambda: _problem("FitEFeatureSelection", empty_mask="skip"),
         Raises(ValueError, r"empty_mask must be one of \('refuse', 'zero'\), got 'skip'")),
    Case("FitEFeatureSelection", "empty_mask zero scores 0", "odd but valid",
         lambda: _problem("FitEFeatureSelection", empty_mask="zero").evaluate(
             np.zeros((1, 4), bool)),
         Accepts(lambda F: np.testing.assert_array_equal(F, [[1.0]]))),
    Case("FitEFeatureSelection", "empty_mask zero still refuses an emptying flip", "empty",
         lambda: _problem("FitEFeatureSelection", empty_mask="zero").evaluate_flips(
             np.eye(4, dtype=bool)[0], [0]),
         Raises(ValueError, "selects no feature")),
    Case("RepeatedCVFeatureSelection", "one repetition", "odd but valid",
         lambda: _problem("RepeatedCVFeatureSelection", repetitions=1),
         Accepts(lambda p: (len(p.evaluators), p.evaluator.min_repetitions) == (1, 1)
                 or pytest.fail("repetitions=1"))),
    Case("RepeatedCVFeatureSelection", "min_repetitions above repetitions", "out of range",
         lambda: _problem("RepeatedCVFeatureSelection", repetitions=3, min_repetitions=5),
         Raises(ValueError, r"min_repetitions must be an int in \[1, 3\], got 5")),
    Case("RepeatedCVFeatureSelection", "repetitions true", "bool for int",
         lambda: _problem("RepeatedCVFeatureSelection", repetitions=True),
         Raises(ValueError, "repetitions must be a positive int, got True")),
    Case("make_objective", "unknown objective", "out of range",
         lambda: make_objective("accuracy"), Raises(ValueError, "accuracy")),
    Case("make_objective", "objective 3", "wrong type", lambda: make_objective(3),
         Raises(ValueError, "3")),
    # ---------------------------------------------------------------- algorithm constructors
    Case("CSO", "phi inf", "nan/inf", lambda: CSO(phi=math.inf),
         Raises(ValueError, r"phi must be a number in \[0.0, inf\), got inf")),
    Case("CSO", "phi nan", "nan/inf", lambda: CSO(phi=math.nan),
         Raises(ValueError, r"phi must be a number in \[0.0, inf\), got nan")),
    Case("UBPSO", "w_min as a string", "string for number", lambda: UBPSO(w_min="0.4"),
         Raises(ValueError, "w_min must be a number, got '0.4'")),
    Case("UBPSO", "w_min inf", "nan/inf", lambda: UBPSO(w_min=math.inf),
         Raises(ValueError, "w_min must be finite, got inf")),
    Case("UBPSO", "w_min above w_max", "out of range", lambda: UBPSO(w_min=0.9, w_max=0.5),
         Raises(ValueError, "w_min must not exceed w_max")),
    Case("VLPSO", "one particle", "odd but valid",
         lambda: minimize(WeightedFeatureSelection.from_data(X, Y, cv=3), VLPSO(pop_size=1),
                          ("n_gen", 3), seed=1),
         Accepts(lambda res: res.X.any() or pytest.fail("empty subset"))),
    Case("configure_nsga2", "single-objective problem", "wrong type",
         lambda: minimize(WeightedFeatureSelection.from_data(X, Y, cv=3),
                          configure_nsga2(pop_size=4), ("n_gen", 2), seed=1),
         Raises(ValueError, "NSGA-II is multi-objective .* the problem has 1 objective")),
    Case("configure_spea2", "single-objective problem", "wrong type",
         lambda: minimize(WeightedFeatureSelection.from_data(X, Y, cv=3),
                          configure_spea2(pop_size=4), ("n_gen", 2), seed=1),
         Raises(ValueError, "SPEA2 is multi-objective .* the problem has 1 objective")),
    Case("make_algorithm", "unknown name", "out of range", lambda: make_algorithm("pso2"),
         Raises(ValueError, "unknown algorithm 'pso2'; known: ")),
]
for name in algorithm_names():
    CASES += [
        Case(name, "pop_size true", "bool for int", lambda n=name: make_algorithm(n, pop_size=True),
             Raises(ValueError, "pop_size must be .*got True")),
        Case(name, "pop_size as a string", "string for number",
             lambda n=name: make_algorithm(n, pop_size="30"),
             Raises(ValueError, "pop_size must be .*got '30'")),
        Case(name, "pop_size 0", "out of range", lambda n=name: make_algorithm(n, pop_size=0),
             Raises(ValueError, "pop_size must be .*got 0")),
        Case(name, "pop_size huge float", "huge", lambda n=name: make_algorithm(n, pop_size=1e300),
             Raises(ValueError, r"pop_size must be .*got 1e\+300")),
        Case(name, "unknown keyword", "unknown keyword",
             lambda n=name: make_algorithm(n, bogus=1),
             Raises(TypeError, r"got an unexpected keyword argument 'bogus'; accepted: ")),
    ]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_problem_and_algorithm_input(case):
    check_case(case)


def _tiny(D):
    rng = np.random.default_rng(D)
    return rng.random((10, D)), np.array([0, 1] * 5)


@pytest.mark.parametrize("D", [1, 2])
@pytest.mark.parametrize("name", algorithm_names())
def test_every_algorithm_runs_on_tiny_data_or_names_pop_size(name, D):
    X_, y_ = _tiny(D)
    cls = BiObjectiveFeatureSelection if n_objectives(name) == 2 else WeightedFeatureSelection
    for pop_size in (1, 2, 5):
        problem = cls.from_data(X_, y_, cv=2)
        try:
            algorithm = make_algorithm(name, pop_size=pop_size)
            res = minimize(problem, algorithm, ("n_gen", 3), seed=1)
        except ValueError as exc:
            assert pop_size == 1 and "pop_size" in str(exc), (name, pop_size, exc)
            continue
        masks = np.atleast_2d(res.X).astype(bool)
        assert masks.shape[1] == D and masks.any(axis=1).all(), (name, pop_size)
        assert np.isfinite(np.atleast_2d(res.F)).all()


def _numeric_parameters():
    """(algorithm, parameter) of every registered algorithm's numeric constructor parameter
    (a number as default), found by signature: a parameter added tomorrow is tried too."""
    import inspect
    import numbers

    from pymoo_fs.algorithms import algorithm_info

    found = []
    for name in algorithm_names():
        info = algorithm_info(name)
        init = info.factory.__init__ if inspect.isclass(info.factory) else info.factory
        for param in inspect.signature(init).parameters.values():
            default = param.default
            if (param.name not in ("self", "pop_size") and param.name not in info.preset
                    and isinstance(default, numbers.Real) and not isinstance(default, bool)):
                found.append((name, param.name))
    return found


@pytest.mark.parametrize("value, category", [(math.nan, "nan/inf"), (True, "bool for int"),
                                             ("1", "string for number")],
                         ids=["nan", "True", "'1'"])
@pytest.mark.parametrize("name, parameter", _numeric_parameters(),
                         ids=[f"{n}.{p}" for n, p in _numeric_parameters()])
def test_every_numeric_algorithm_parameter_refuses_nonsense_by_name(name, parameter, value,
                                                                   category):
    case = Case(name, f"{parameter}={value!r}", category,
                lambda: make_algorithm(name, **{parameter: value}),
                Raises(ValueError, rf"^{re.escape(parameter)} "))
    check_case(case)
