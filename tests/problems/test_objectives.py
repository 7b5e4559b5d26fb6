"""Objectives as objects: parameters and their checks, the problems they build, the registry."""

from dataclasses import dataclass

import numpy as np
import pytest

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import FitBEvaluator, KNNEvaluator
from pymoo_fs.problems import (BiObjectiveFeatureSelection, FitBFeatureSelection,
                               FitBObjective, FitEFeatureSelection, FitEObjective, Objective,
                               ParetoObjective, RepeatedCVFeatureSelection,
                               WeightedFeatureSelection, WeightedObjective, make_objective,
                               objective_names, register_objective)
from pymoo_fs.problems import objectives as objectives_module


@pytest.fixture(scope="module")
def split():
    data = load_dataset("sonar")
    X, y = data.X[:, :12], data.y
    return X[::2], y[::2], X[1::2], y[1::2]


@pytest.fixture(scope="module")
def masks():
    rng = np.random.default_rng(4)
    out = rng.random((6, 12)) < 0.5
    out[:, 0] = True
    return out


def _build(objective, split, **options):
    X, y, Xt, yt = split
    kwargs = dict(n_neighbors=5, inner_cv=5, scoring="accuracy", random_state=3)
    kwargs.update(options)
    return objective.build(X, y, Xt, yt, **kwargs)


def test_the_registered_objectives_and_their_kinds():
    assert objective_names() == ["pareto", "weighted", "fitb", "fite"]
    assert objective_names(n_obj=2) == ["pareto"]
    assert objective_names(generic=False) == ["fitb"]
    assert [(make_objective(n).n_obj, make_objective(n).result) for n in objective_names()] == [
        (2, "front"), (1, "subset"), (1, "subset"), (1, "subset")]


def test_each_objective_builds_the_problem_a_user_would_build_by_hand(split, masks):
    X, y, Xt, yt = split
    knn = KNNEvaluator(X, y, n_neighbors=5, cv=5, random_state=3)
    by_hand = {
        ParetoObjective(): BiObjectiveFeatureSelection(knn),
        WeightedObjective(0.8): WeightedFeatureSelection(knn, alpha=0.8),
        FitEObjective(): FitEFeatureSelection(knn),
    }
    for objective, problem in by_hand.items():
        built = _build(objective, split)
        assert type(built) is type(problem)
        np.testing.assert_array_equal(built.evaluate(masks), problem.evaluate(masks))
        np.testing.assert_array_equal(built.holdout_objectives(masks),
                                      problem.holdout_objectives(masks, Xt, yt))
    fitb = _build(FitBObjective(0.7), split, n_neighbors=1)
    hand = FitBFeatureSelection(FitBEvaluator(X, y, mu=0.7, n_folds=5, random_state=3))
    assert type(fitb) is FitBFeatureSelection
    np.testing.assert_array_equal(fitb.evaluate(masks), hand.evaluate(masks))


def test_repeated_inner_cv_is_a_parameter_of_the_weighted_objective(split, masks):
    objective = WeightedObjective(0.9, inner_repetitions=3)
    problem = _build(objective, split)
    assert type(problem) is RepeatedCVFeatureSelection and len(problem.evaluators) == 3
    single = _build(WeightedObjective(0.9), split)
    # the first repetition has the folds of the single-evaluator problem
    np.testing.assert_array_equal(problem.evaluators[0].score(masks),
                                  single.evaluator.score(masks))
    with pytest.raises(ValueError, match="inner_repetitions > 1 needs one evaluator"):
        objective.problem(single.evaluator)


def test_prepare_computes_the_su_ranking_before_the_search(split):
    for objective, options in ((FitEObjective(), {}), (FitBObjective(), {"n_neighbors": 1})):
        problem = _build(objective, split, **options)
        assert problem._symmetric_uncertainty is not None


def test_parameters_describe_and_round_trip():
    w = WeightedObjective(0.7, 2)
    assert WeightedObjective.parameters() == ("alpha", "inner_repetitions")
    assert w.params() == {"alpha": 0.7, "inner_repetitions": 2}
    assert w.as_dict() == {"name": "weighted", "alpha": 0.7, "inner_repetitions": 2}
    assert make_objective(w.as_dict()) == w
    assert make_objective("weighted", alpha=0.7, inner_repetitions=2) == w
    assert w.replace(alpha=0.5) == WeightedObjective(0.5, 2)
    assert make_objective(w) is w and make_objective(w, alpha=0.5).alpha == 0.5
    assert "repeated up to 2 times" in w.describe()
    assert FitBObjective().describe() == "fitb (mu 0.8)" and ParetoObjective().params() == {}


@pytest.mark.parametrize("call, error, match", [
    (lambda: make_objective("scalar"), ValueError, "objective must be one of"),
    (lambda: make_objective(3), ValueError, "objective must be one of"),
    (lambda: make_objective("pareto", alpha=0.5),
     ValueError, "alpha is not a parameter of objective 'pareto'"),
    (lambda: make_objective("fitb", alpha=0.5), ValueError, r"\(it takes mu\)"),
    (lambda: WeightedObjective(alpha=1.5), ValueError, r"alpha must be a number in \[0, 1\]"),
    (lambda: WeightedObjective(alpha="0.9"), ValueError, "alpha must be a number"),
    (lambda: WeightedObjective(alpha=float("nan")), ValueError, "alpha must be a number"),
    (lambda: WeightedObjective(alpha=True), ValueError, "alpha must be a number"),
    (lambda: WeightedObjective(inner_repetitions=6), ValueError, "inner_repetitions"),
    (lambda: FitBObjective(mu=-0.1), ValueError, "mu must be"),
    (lambda: FitBObjective().check(5, 10), ValueError, "needs n_neighbors=1"),
    (lambda: FitBObjective().check(1, "loo"), ValueError, "an int inner_cv"),
])
def test_bad_objectives_are_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_fitb_needs_its_own_evaluator(split):
    X, y, _, _ = split
    with pytest.raises(TypeError, match="FitBEvaluator, got KNNEvaluator"):
        FitBObjective().problem(KNNEvaluator(X, y, cv=5))


def test_a_new_objective_is_one_class_and_a_registration(split, masks, monkeypatch):
    monkeypatch.setattr(objectives_module, "_OBJECTIVES", dict(objectives_module._OBJECTIVES))

    @register_objective
    @dataclass(frozen=True)
    class ErrorOnly(Objective):
        """Minimise the error alone, a weight of 1 by another name."""

        name = "error"
        n_obj = 1
        result = "subset"

        def problem(self, evaluator, X_test=None, y_test=None):
            return WeightedFeatureSelection(evaluator, alpha=1.0, X_test=X_test, y_test=y_test)

    assert "error" in objective_names(n_obj=1)
    built = _build(make_objective("error"), split)
    np.testing.assert_array_equal(built.evaluate(masks),
                                  _build(WeightedObjective(1.0), split).evaluate(masks))
    with pytest.raises(ValueError, match="objective name 'error' is taken by ErrorOnly"):
        register_objective(type("Other", (ErrorOnly,), {}))
    with pytest.raises(TypeError, match="takes an Objective subclass"):
        register_objective(dict)
